import Foundation
import Primitives
import SceneModel
import Syntax
import Testing

/// Every complete scene in the documentation (a ```json block with a
/// "version") decodes without a problem, and every event the
/// documentation shows alone decodes inside a scene with its layers:
/// the examples users copy stay true.
@Suite struct DocsExamplesTests {
  static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs")

  /// The ```json blocks of a document, with the line each starts on.
  static func blocks(_ name: String) throws -> [(line: Int, text: String)] {
    let lines = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\n")
    var out: [(Int, String)] = []
    var current: [String]?
    var start = 0
    for (i, line) in lines.enumerated() {
      if current == nil, line.trimmingCharacters(in: .whitespaces) == "```json" {
        current = []
        start = i + 2
      } else if let block = current, line.trimmingCharacters(in: .whitespaces) == "```" {
        out.append((start, block.joined(separator: "\n")))
        current = nil
      } else if current != nil {
        current!.append(line)
      }
    }
    return out
  }

  @Test(arguments: ["scene-format.md", "cli.md"])
  func completeScenesDecode(_ document: String) throws {
    let scenes = try Self.blocks(document).filter { $0.text.contains("\"version\"") }
    #expect(document != "scene-format.md" || scenes.count >= 6, "the scene format shows complete scenes")
    for (line, text) in scenes {
      #expect(problems(text) == [], "\(document):\(line)")
    }
  }

  /// The documented table of named colours is the decoder's, name by name
  /// and variant by variant.
  @Test func theColourTableIsTheDecoders() throws {
    let text = try String(contentsOf: Self.docs.appendingPathComponent("scene-format.md"), encoding: .utf8)
    var documented: [String: (String, String)] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") && line.contains("` | `#") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3 else { continue }
      for name in cells[0].split(separator: ",") {
        documented[name.trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = (
          cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        )
      }
    }
    func written(_ c: Color) -> String {
      let hex = [c.red, c.green, c.blue].map { String(format: "%02X", Int(($0 * 255).rounded())) }.joined()
      return c.alpha == 1 ? "#\(hex)" : "#\(hex) at \(formatNumber(c.alpha))"
    }
    #expect(Set(documented.keys) == Set(NamedColors.all.keys))
    for (name, variants) in NamedColors.all {
      #expect(documented[name]?.0 == written(variants.light) && documented[name]?.1 == written(variants.dark), "\(name)")
    }
  }

  /// The documented table of materials is the decoder's.
  @Test func theMaterialTableIsTheDecoders() throws {
    let text = try String(contentsOf: Self.docs.appendingPathComponent("scene-format.md"), encoding: .utf8)
    func written(_ c: Color) -> String {
      "`#" + [c.red, c.green, c.blue].map { String(format: "%02X", Int(($0 * 255).rounded())) }.joined() + "` at " + formatNumber(c.alpha)
    }
    for m in Material.allCases {
      let (light, dark) = (m.values(.light), m.values(.dark))
      let row =
        "| `\(m.rawValue)` | \(formatNumber(light.blur)) | \(formatNumber(light.saturation)) | \(written(light.tint)) | \(written(dark.tint)) |"
      #expect(light.blur == dark.blur && light.saturation == dark.saturation)
      #expect(text.contains(row), "\(row)")
    }
  }

  /// The sections on keyframes, phases and animators each show a complete
  /// scene that plays what the section describes.
  @Test func motionSectionsShowWorkingScenes() throws {
    let scenes = try Self.blocks("scene-format.md").map(\.text).filter { $0.contains("\"version\"") }
    for key in ["\"keyframes\"", "\"phases\"", "\"animator\""] {
      let example = try #require(scenes.first { $0.contains(key) }, "no complete scene with \(key)")
      let decoded = try decode(example)
      #expect(decoded.timeline.contains { !$0.keyframes.isEmpty || $0.phases != nil || $0.animator != nil })
    }
  }
}
