import Primitives
import Testing

@testable import Typography

/// Colour emoji from the system's colour font (Debian's fonts-noto-color-emoji,
/// installed by scripts/install-deps): bitmaps, not outlines.
@Suite struct ColorGlyphTests {
  /// The BGRA → RGBA reordering, by hand on two pixels with a padded row.
  @Test func bgraRowsBecomeRGBA() {
    let rows: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9]
    #expect(LoadedFont.rgba(fromBGRA: rows, width: 2, height: 2, pitch: 10) == [30, 20, 10, 40, 70, 60, 50, 80, 3, 2, 1, 4, 7, 6, 5, 8])
  }

  /// 😀 falls back to the colour font (before DejaVu's monochrome outline)
  /// and becomes an image the size of the em, in colour; ❤️ with its
  /// emoji selector too, though the primary face has a text heart.
  @Test func emojiAreColourImages() throws {
    let library = FontLibrary(system: systemFonts)
    guard library.colorFont(for: "😀") != nil else {
      Issue.record("no colour emoji font installed (scripts/install-deps installs fonts-noto-color-emoji)")
      return
    }
    let layout = try Typesetter(library: library).layout("a😀 ❤\u{FE0F}", family: nil, weight: .regular, size: 40)
    let images = layout.lines[0].images
    #expect(images.count == 2)
    let smile = try #require(images.first)
    // A strike bitmap scaled to about the em (40 pt), beside "a".
    #expect(smile.rect.size.x > 30 && smile.rect.size.x < 60 && smile.rect.origin.x > 10)
    // Yellow somewhere in the face: red and green high, blue low.
    var yellow = false
    for i in stride(from: 0, to: smile.rgba.count, by: 4) where smile.rgba[i + 3] == 255 {
      if smile.rgba[i] > 200 && smile.rgba[i + 1] > 150 && smile.rgba[i + 2] < 100 { yellow = true; break }
    }
    #expect(yellow)
    #expect(layout.missing.isEmpty)
  }
}
