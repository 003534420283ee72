import Foundation
import Primitives
import Raster
import Render
import SceneModel
import Testing

/// A text's change in `set`: a cross-fade by default, `numericText`
/// rolling the characters that differ, in rendered pixels.
@Suite struct TextTransitionTests {
  /// One text layer `n` (Noto Sans CJK JP at 50 points, black on white,
  /// centred) changed from `from` to `to` at 0 by a linear second.
  func renderer(_ from: String, _ to: String, transition: String? = nil, extra: String = "") throws -> SceneRenderer {
    let key = transition.map { ##", "contentTransition": ""## + $0 + "\"" } ?? ""
    return try loadWithFiles(
      ##"{"version": 1, "size": [200, 240], "scale": 1, "background": "white", "layers": [{"type": "text", "id": "n", "text": ""## + from
        + ##"", "font": {"family": "Noto Sans CJK JP", "size": 50}, "color": "black", "position": [100, 120]"## + key + extra
        + ##"}], "timeline": [{"at": 0, "animation": "linear(duration: 1)", "set": {"n": {"text": ""## + to + ##""}}}]}"##)
  }

  /// Ink (255 − red) per pixel.
  func ink(_ p: Pixmap, rows: Range<Int>? = nil) -> (total: Double, centroid: Double) {
    var total = 0.0, moment = 0.0
    for y in rows ?? 0..<p.height {
      for x in 0..<p.width {
        let v = Double(255 - Int(p[x, y].r))
        total += v
        moment += v * (Double(y) + 0.5)
      }
    }
    return (total, total > 0 ? moment / total : .nan)
  }

  /// Mid-way (p = 0.5) each pixel is the average of the two ends': the
  /// new text's pixel mixed into the old by 128/255, rounded once, so
  /// within a level of (a + b) / 2; pixels both share stay as they are.
  @Test func theCrossFadeMidwayIsTheAverageOfItsEnds() throws {
    let r = try renderer("Hello", "World")
    let a = try r.render(at: 0), b = try r.render(at: 1), mid = try r.render(at: 0.5)
    var shared = 0, differing = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let (pa, pb, pm) = (a[x, y], b[x, y], mid[x, y])
        if pa == pb {
          #expect(pm == pa)
          shared += 1
          continue
        }
        differing += 1
        for (u, v, m) in [(pa.r, pb.r, pm.r), (pa.g, pb.g, pm.g), (pa.b, pb.b, pm.b)] {
          #expect(abs(Double(m) - (Double(u) + Double(v)) / 2) <= 1, "(\(x), \(y))")
        }
      }
    }
    #expect(differing > 500 && shared > 10_000)
    // Before the change starts and once it ends: the texts alone.
    #expect(try r.render(at: 1.5).bytes == b.bytes)
  }

  /// `numericText`: 1 → 2 counts up, so at p the old digit has risen by
  /// p line heights and the new one is (1 − p) of a line below its place,
  /// each at its opacity (the ink halves at p = 0.5). Noto Sans CJK JP's
  /// line is (1160 + 288) / 1000 em: 72.4 points at 50.
  @Test(arguments: [
    ("1", "2", nil, 1.0), ("2", "1", nil, -1.0), ("2", "1", "numericText(countsDown: false)", 1.0), ("1", "2", "numericText(countsDown: true)", -1.0),
  ])
  func rollingDigitsAreWhereTheProgressPutsThem(from: String, to: String, transition: String?, up: Double) throws {
    let r = try renderer(from, to, transition: transition ?? "numericText")
    let lineHeight = 72.4
    let start = ink(try r.render(at: 0)), end = ink(try r.render(at: 1))
    for p in [0.25, 0.5] {
      let frame = try r.render(at: p)
      let outgoingCentre = start.centroid - up * lineHeight * p, incomingCentre = end.centroid + up * lineHeight * (1 - p)
      let split = Int(((outgoingCentre + incomingCentre) / 2).rounded())
      let (upper, lower) = (ink(frame, rows: 0..<split), ink(frame, rows: split..<frame.height))
      let (outgoing, incoming) = up > 0 ? (upper, lower) : (lower, upper)
      #expect(abs(outgoing.centroid - outgoingCentre) < 0.1, "p \(p): \(outgoing.centroid) vs \(outgoingCentre)")
      #expect(abs(incoming.centroid - incomingCentre) < 0.1, "p \(p): \(incoming.centroid) vs \(incomingCentre)")
      // Each at its opacity (bytes: 1 − p and p rounded to 255ths).
      #expect(abs(outgoing.total / start.total - (1 - p)) < 0.01)
      #expect(abs(incoming.total / end.total - p) < 0.01)
    }
  }

  /// The characters both numbers share stay where they are: 10 → 11
  /// keeps its 1 (the same width), only the last digit rolls.
  @Test func sharedCharactersStay() throws {
    let r = try renderer("10", "11", transition: "numericText")
    let start = try r.render(at: 0), mid = try r.render(at: 0.5)
    // The left half (the leading 1) is unchanged at every moment.
    for y in 0..<start.height { for x in 0..<100 where start[x, y] != mid[x, y] { Issue.record("(\(x), \(y)) moved") } }
  }

  /// When the layer's box is the text's, the text before keeps its own
  /// box pinned at the anchor: as the change starts (p = 0) nothing moves.
  @Test func theTextBeforeStaysWhereItWas() throws {
    for transition in ["opacity", "numericText"] {
      let r = try renderer("9", "10", transition: transition, extra: ##", "anchor": [0.2, 0.5]"##)
      #expect(try r.render(at: 0).bytes == (try r.render(at: -0.5)).bytes, "\(transition)")
    }
  }

  /// A text layer without a size takes the shown text's box: a wider text
  /// widens the layer's fill at once.
  @Test func theBoxIsTheShownTexts() throws {
    let r = try renderer("1", "1000", extra: ##", "fill": "#FF000040""##)
    let before = try r.render(at: -0.5), after = try r.render(at: 2)
    func tinted(_ p: Pixmap) -> Int { (0..<p.width).filter { p[$0, 150] != RGBA8(r: 255, g: 255, b: 255, a: 255) }.count }
    #expect(tinted(after) > 3 * tinted(before))
  }

  @Test(
    arguments: [
      (##""contentTransition": "slide""##, "slide"),
      (##""contentTransition": "numericText(countsDown: 3)""##, "countsDown"),
      (##""contentTransition": "numericText.speed(2)""##, "content transition is one call"),
    ])
  func badContentTransitionsAreLocated(key: String, message: String) throws {
    let text = ##"{"version": 1, "size": [10, 10], "layers": [{"type": "text", "text": "1", "## + key + "}]}"
    do {
      _ = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
      Issue.record("decoded")
    } catch {
      #expect(error.diagnostics.contains { $0.message.contains(message) && $0.location.line == 1 }, "\(error.diagnostics)")
    }
  }

  @Test func onlyATextLayersTextChanges() throws {
    let text = ##"{"version": 1, "size": [10, 10], "layers": [{"type": "rect", "id": "r"}], "timeline": [{"at": 0, "set": {"r": {"text": "1"}}}]}"##
    do {
      _ = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
      Issue.record("decoded")
    } catch {
      #expect(error.diagnostics.map(\.message) == ["'r' is not a text layer: only a text layer's \"text\" can change"])
      #expect(error.diagnostics[0].path.description == "timeline[0].set.r.text")
    }
  }
}
