import Primitives
import Testing

@testable import Typography

/// Wrapping within a width, against advances read from the font files
/// (Noto Sans CJK JP, the Japanese default face: full-width kana and 、。「」… 1000
/// units each, figures 555, at 1000 units per em; hhea line height 1448).
@Suite struct WrapTests {
  let typesetter = Typesetter(library: library)

  func wrap(_ text: String, width: Double, lineLimit: Int? = nil, spacing: Double = 0) throws -> TextLayout {
    try typesetter.layout(
      text, family: noto, weight: .regular, size: 100, wrapping: TextWrapping(width: width, lineLimit: lineLimit, lineSpacing: spacing))
  }

  func single(_ text: String) throws -> Double { try typesetter.layout(text, family: noto, weight: .regular, size: 100).lines[0].width }

  /// Kana break between any two characters: 7 × 100 pt in 350 pt is 3 + 3 + 1;
  /// the box is the width by 3 lines of 144.8 pt and 2 spacings.
  @Test func kanaBreakAnywhere() throws {
    let t = try wrap("トマトマトマト", width: 350, spacing: 10)
    #expect(t.lines.map(\.width) == [300, 300, 100])
    #expect(abs(t.size.x - 350) < 1e-9 && abs(t.size.y - (3 * 144.8 + 2 * 10)) < 1e-9)
  }

  /// 。 never starts a line: it hangs past the width ("トマト。" is
  /// 398 pt in 300, the font kerning ト。 by −20 units).
  @Test func closingPunctuationHangs() throws {
    let hung = try wrap("トマト。トマト", width: 300).lines.map(\.width)
    let alone = try single("トマト。")
    #expect(hung.count == 2 && hung[0] == alone && hung[0] > 300 && hung[1] == 300, "\(hung)")
    // 「 never ends a line; 」 never starts one.
    #expect(try wrap("トマ「トマト」", width: 300).lines.map(\.width) == [200, 300, 200])
  }

  /// Latin breaks after spaces, which are not counted at the line's end;
  /// a word wider than the line breaks between characters (55.5 pt each).
  @Test func wordsAndOverlongWords() throws {
    let t = try wrap("0123 4567 89", width: try single("0123 4567"))
    #expect(t.lines.count == 2)
    let first = try single("0123 4567")
    #expect(abs(t.lines[0].width - first) < 1e-9 && abs(t.lines[1].width - 111) < 1e-9)
    let long = try wrap("0123456789", width: 200)
    #expect(long.lines.map(\.width) == [166.5, 166.5, 166.5, 55.5])
  }

  /// lineLimit ends the last line with "…", cut until it fits: "トマト…"
  /// is 400 pt, over 350; "トマ…" is 300.
  @Test func lineLimitTruncates() throws {
    let t = try wrap("トマトマトマト", width: 350, lineLimit: 2)
    #expect(t.lines.count == 2 && t.lines.map(\.width) == [300, 300])
    let cut = try single("トマ…")
    #expect(t.lines[1].width == cut)
    // Without a width, the text's own lines are cut.
    let lines = try typesetter.layout("トマ\nト\nマ", family: noto, weight: .regular, size: 100, wrapping: TextWrapping(lineLimit: 2))
    #expect(lines.lines.map(\.width) == [200, 200])
  }
}
