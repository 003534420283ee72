import Foundation
import Primitives
import SceneModel
import Testing

/// A `set` may write a layer's whole `rotation3D` object: its axis,
/// anchor, anchorZ and perspective when they are the layer's own (or their
/// defaults when the layer gives none); only `angle` animates, so any other
/// value is a located error (docs/scene-format.md, "3D rotation").
@Suite struct Rotation3DSetTests {
  static let card = #"[{"id": "card", "type": "rect", "size": [100, 60], "rotation3D": {"axis": [0, 1, 0], "perspective": 0.5}}]"#

  /// The scene turning `card` with `set` (a JSON object fragment).
  static func turning(_ set: String) -> String {
    scene(layers: card, timeline: #"[{"at": 0, "animation": "smooth", "set": {"card": {"rotation3D": "# + set + "}}}]")
  }

  @Test func theLayersOwnPartsAreAccepted() throws {
    for set in [
      #"{"angle": 50, "axis": [0, 1, 0]}"#,
      #"{"angle": 50, "axis": [0, 1, 0], "perspective": 0.5}"#,
      // The defaults, which the layer does not give.
      #"{"angle": 50, "axis": [0, 1, 0], "anchor": [0.5, 0.5], "anchorZ": 0, "perspective": 0.5}"#,
    ] {
      let s = try decode(Self.turning(set))
      #expect(s.timeline.first?.set.first?.values[Properties.rotation3DAngle] == 50, "\(set)")
      #expect(s.layers[0].rotation3D?.perspective == 0.5)
    }
  }

  @Test(
    arguments: [
      (
        #"{"angle": 50, "axis": [1, 0, 0]}"#, "[1, 0, 0]", "axis",
        "only rotation3D's angle animates: this axis [1, 0, 0] is not the layer's [0, 1, 0]"
      ),
      (
        #"{"angle": 50, "anchor": [0, 0.5]}"#, "[0, 0.5]", "anchor",
        "only rotation3D's angle animates: this anchor [0, 0.5] is not the layer's [0.5, 0.5] (the default)"
      ),
      (
        #"{"angle": 50, "anchorZ": -20}"#, "-20", "anchorZ",
        "only rotation3D's angle animates: this anchorZ -20 is not the layer's 0 (the default)"
      ),
      (
        #"{"angle": 50, "axis": [0, 1, 0], "perspective": 1}"#, "1}", "perspective",
        "only rotation3D's angle animates: this perspective 1 is not the layer's 0.5"
      ),
    ])
  func anotherPartIsALocatedError(_ set: String, _ value: String, _ key: String, _ message: String) throws {
    let text = Self.turning(set)
    // At the value, after "set" (the layer's own rotation3D comes first).
    let setStart = try #require(text.range(of: "\"set\""))
    let valueRange = try #require(text.range(of: "\"\(key)\": " + value, range: setStart.upperBound..<text.endIndex))
    let column = text[..<valueRange.lowerBound].unicodeScalars.count + 1 + key.count + 4
    #expect(problems(text) == ["t.json:1:\(column): error: timeline[0].set.card.rotation3D.\(key): \(message)"])
  }

  @Test func aPartOfTheWrongShapeIsReportedAsOnALayer() {
    let text = Self.turning(#"{"angle": 50, "axis": [0, 1]}"#)
    #expect(problems(text).count == 1)
    #expect(problems(text).first?.hasSuffix("timeline[0].set.card.rotation3D.axis: expected an axis [x, y, z], got 2 numbers") == true)
  }
}
