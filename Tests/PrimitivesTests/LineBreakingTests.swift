import Primitives
import Testing

/// Break opportunities (UAX #14's rules for UI text, with the Japanese
/// rules of docs/scene-format.md), written out by hand: "|" marks a break.
@Suite struct LineBreakingTests {
  func marked(_ text: String) -> String {
    let s = Array(text.unicodeScalars)
    let breaks = LineBreaking.opportunities(s)
    var out = ""
    for (i, c) in s.enumerated() {
      if breaks[i] { out += "|" }
      out.unicodeScalars.append(c)
    }
    return out
  }

  @Test(
    arguments: [
      ("Hello big world", "Hello |big |world"),
      ("two  spaces", "two  |spaces"),
      ("well-known fact", "well-|known |fact"),
      ("end. Next", "end. |Next"),
      ("10\u{00A0}km away", "10\u{00A0}km |away"),
      ("吾輩は猫", "吾|輩|は|猫"),
      ("です。次", "で|す。|次"),
      ("「猫」だ", "「猫」|だ"),
      ("ちょっと", "ちょっ|と"),
      ("ラーメン", "ラー|メ|ン"),
      ("iOSの猫", "iOS|の|猫"),
      ("(a) b", "(a) |b"),
    ])
  func opportunities(_ text: String, _ expected: String) {
    #expect(marked(text) == expected)
  }
}
