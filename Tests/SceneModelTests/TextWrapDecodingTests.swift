import Primitives
import SceneModel
import Testing

/// A text layer's `width`, `lineLimit` and `lineSpacing` (docs/scene-format.md, "Text").
@Suite struct TextWrapDecodingTests {
  @Test func wrappingIsRead() throws {
    let s = try decode(scene(layers: ##"[{"type": "text", "text": "a b", "width": 120, "lineLimit": 2, "lineSpacing": 4}]"##))
    #expect(s.layers[0].text?.wrapping == TextWrapping(width: 120, lineLimit: 2, lineSpacing: 4))
    let plain = try decode(scene(layers: ##"[{"type": "text", "text": "a b"}]"##))
    #expect(plain.layers[0].text?.wrapping == TextWrapping.none)
  }

  @Test(
    arguments: [
      (##""width": 0"##, "0", "layers[0].width: 0 is out of range: must be greater than 0"),
      (##""width": -5"##, "-5", "layers[0].width: -5 is out of range: must be greater than 0"),
      (##""lineLimit": 0"##, "0", "layers[0].lineLimit: 0 is out of range"),
      (##""lineLimit": 1.5"##, "1.5", "layers[0].lineLimit"),
      (##""lineSpacing": -1"##, "-1", "layers[0].lineSpacing: -1 is out of range"),
    ])
  func badWrappingIsLocated(_ key: String, _ token: String, _ message: String) {
    let text = scene(layers: ##"[{"type": "text", "text": "a b", "## + key + "}]")
    let found = problems(text)
    let at = text.range(of: key)!
    let column = text.distance(from: text.startIndex, to: at.upperBound) - token.count + 1
    #expect(found.count == 1 && found[0].hasPrefix("t.json:1:\(column): error: \(message)"), "\(found) at \(column)")
  }
}
