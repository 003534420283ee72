import CFreeType
import Primitives
import Raster
import Testing

@testable import Typography

/// The fonts these tests measure are the ones `scripts/install-deps`
/// installs (Debian 12's fonts-noto-cjk and fonts-dejavu-core). Their
/// numbers below were read from the font files with fontTools (`hmtx`
/// advances, `GPOS` kern pairs, `hhea` metrics), not from our code.
let systemFonts = SystemFonts()
/// A font library per use: libraries are not shared between threads.
var library: FontLibrary { FontLibrary(system: systemFonts) }
let notoRegular = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
/// The family whose advances and metrics these tests were read from (the
/// default Latin face is Inter; Noto Sans CJK JP is the Japanese one).
let noto = "Noto Sans CJK JP"

@Suite struct GlyphOutlineTests {
  /// Compares our coverage of `glyph` at `pixels` per em with FreeType's
  /// own anti-aliased rendering (unhinted) at 8 × the size, averaged over
  /// 8 × 8 blocks: FreeType flattens curves to within a fraction of its
  /// pixel, so the finer rendering is the sharper reference. Returns the
  /// summed absolute coverage difference relative to the ink, the largest
  /// difference in one pixel and the ink.
  func compare(_ font: LoadedFont, _ glyph: UInt32, pixels: Int) -> (relative: Double, worst: Double, ink: Double) {
    // Our outline first: loading it reuses FreeType's glyph slot.
    let outline = font.outline(glyph)
    let face = font.face
    let fine = 8
    #expect(FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels * fine)) == 0)
    #expect(FT_Load_Glyph(face, glyph, Int32(sf_ft_load_render)) == 0)
    let slot = face.pointee.glyph.pointee
    let bitmap = slot.bitmap
    let (w, h) = (Int(bitmap.width), Int(bitmap.rows))
    let (left, top) = (Int(slot.bitmap_left), Int(slot.bitmap_top))
    // FreeType's pixel (x, y) covers, y up, [left + x, left + x + 1] ×
    // [top − y − 1, top − y] (fine units). Our canvas's pixel (0, 0) has its
    // top-left corner at (ox, oy) in coarse units, y up.
    func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    let ox = floorDiv(left, fine), oy = -floorDiv(-top, fine)
    let width = -floorDiv(-(left + w), fine) - ox, height = oy - floorDiv(top - h, fine)
    var reference = [Double](repeating: 0, count: width * height)
    for y in 0..<h {
      for x in 0..<w {
        let column = floorDiv(left + x, fine) - ox, row = floorDiv(oy * fine - (top - y), fine)
        reference[row * width + column] += Double(bitmap.buffer[y * Int(bitmap.pitch) + x]) / 255 / Double(fine * fine)
      }
    }
    let canvas = Canvas(width: width, height: height)
    let scale = Double(pixels) / font.unitsPerEm
    canvas.fill(outline, transform: AffineTransform.scale(scale, scale).concatenating(.translation(Double(-ox), Double(oy))), paint: .color(.white))
    let ours = canvas.pixmap
    var difference = 0.0, ink = 0.0, worst = 0.0
    for y in 0..<height {
      for x in 0..<width {
        let d = abs(Double(ours[x, y].a) / 255 - reference[y * width + x])
        difference += d
        worst = max(worst, d)
        ink += reference[y * width + x]
      }
    }
    return (difference / ink, worst, ink)
  }

  /// Noto Sans CJK is CFF (cubic outlines; "B", "8", "@" and "語" have
  /// holes); DejaVu Sans is TrueType (quadratic outlines).
  @Test(
    arguments: [
      (notoRegular, "B"), (notoRegular, "g"), (notoRegular, "&"), (notoRegular, "@"), (notoRegular, "8"),
      (notoRegular, "ト"), (notoRegular, "マ"), (notoRegular, "語"), (dejaVuSans, "Q"), (dejaVuSans, "&"), (dejaVuSans, "e"),
    ] as [(String, Character)])
  func outlinesCoverWhatFreeTypeCovers(_ file: String, _ character: Character) throws {
    let font = try library.open(file: file)
    let glyph = try #require(font.glyph(for: character.unicodeScalars.first!))
    let (relative, worst, ink) = compare(font, glyph, pixels: 40)
    #expect(ink > 100)
    // Both are exact-area rasterizers; FreeType's points are rounded to
    // 1/64 of its pixel and coverage to 1/255.
    #expect(relative < 0.01 && worst < 0.03, "coverage differs by \(relative) of the ink, \(worst) at worst")
  }

  @Test func outlinesAreClosedAndInFontUnitsYDown() throws {
    let font = try library.open(file: notoRegular)
    let path = font.outline(try #require(font.glyph(for: "T")))
    // "T" stands on the baseline, so y down its ink is at y ≤ 0 (cap
    // height 733 units in Noto Sans CJK's OS/2 table).
    let bounds = path.bounds
    #expect(abs(bounds.minY + 733) < 1e-9 && abs(bounds.maxY) < 1e-9)
    #expect(abs(bounds.minX - 31) < 1e-9 && abs(bounds.maxX - 568) < 1e-9)
    let moves = path.elements.filter { if case .move = $0 { true } else { false } }.count
    let closes = path.elements.filter { if case .close = $0 { true } else { false } }.count
    #expect(moves == closes && moves > 0)
  }
}

@Suite struct TextMeasureTests {
  let typesetter = Typesetter(library: library)

  @Test func advancesWithKerning() throws {
    // hmtx at 1000 units per em: A 608, V 575, T 599, R 635, o 606; GPOS
    // kern: AV −15, VA −15, AT −61, TA −45, To −74. At 100 pt a unit is 0.1 pt.
    func width(_ s: String) throws -> Double { try typesetter.layout(s, family: noto, weight: .regular, size: 100).lines[0].width }
    #expect(abs(try width("AVATAR") - 349.7) < 1e-9)  // 593 + 560 + 547 + 554 + 608 + 635
    #expect(abs(try width("To") - 113.1) < 1e-9)  // 525 + 606
    #expect(abs(try width("0123456789") - 555) < 1e-9)  // figures: 555 each, no kerning
    #expect(abs(try width("トマトマト") - 500) < 1e-9)  // full-width kana: 1000 each
  }

  @Test func theBoxIsTheWidestLineByTheLinesHeight() throws {
    // hhea: ascender 1160, descender −288, line gap 0 → line height 1448.
    let layout = try typesetter.layout("To\nAVATAR\n", family: noto, weight: .regular, size: 10)
    #expect(layout.lines.count == 3)
    #expect(abs(layout.ascent - 11.6) < 1e-9 && abs(layout.descent - 2.88) < 1e-9 && abs(layout.lineHeight - 14.48) < 1e-9)
    #expect(abs(layout.size.x - 34.97) < 1e-9 && abs(layout.size.y - 3 * 14.48) < 1e-9)
    // "\r\n" and "\r" break lines as "\n" does.
    #expect(try typesetter.layout("a\r\nb\rc", family: noto, weight: .regular, size: 10).lines.count == 3)
  }

  @Test func alignmentPlacesEachLineInTheBox() throws {
    // "To" at 10 pt is 11.31 wide; T's ink spans 31…568 units and o's
    // −13…557 below/above the baseline (fontTools' bounds).
    let layout = try typesetter.layout("To", family: noto, weight: .regular, size: 10)
    let box = Vector2(100, 40)
    let top = (40 - 14.48) / 2
    let baseline = top + 11.6
    for (alignment, origin) in [(TextAlignment.leading, 0.0), (.center, (100 - 11.31) / 2), (.trailing, 100 - 11.31)] {
      let bounds = layout.path(in: box, alignment: alignment).bounds
      #expect(abs(bounds.minX - (origin + 0.31)) < 1e-9, "\(alignment)")
      #expect(abs(bounds.maxX - (origin + 5.25 + 5.54)) < 1e-9, "\(alignment)")
      #expect(abs(bounds.minY - (baseline - 7.33)) < 1e-9 && abs(bounds.maxY - (baseline + 0.13)) < 1e-9)
    }
    // Two lines: the second line's baseline one line height lower.
    let two = try typesetter.layout("To\nTo", family: noto, weight: .regular, size: 10)
    let bounds = two.path(in: box, alignment: .leading).bounds
    let top2 = (40 - 2 * 14.48) / 2
    #expect(abs(bounds.minY - (top2 + 11.6 - 7.33)) < 1e-9 && abs(bounds.maxY - (top2 + 14.48 + 11.6 + 0.13)) < 1e-9)
  }

  @Test func weightsMapToTheFamilysFaces() throws {
    // Debian's fonts-noto-cjk has Regular (400) and Bold (700): the CSS
    // matching rule picks Regular for 300…500 and Bold for 600…900.
    func style(_ w: FontWeight) throws -> String { try library.font(family: "Noto Sans CJK JP", weight: w).styleName }
    for w in [FontWeight.light, .regular, .medium] { #expect(try style(w) == "Regular", "\(w)") }
    for w in [FontWeight.semibold, .bold, .heavy, .black] { #expect(try style(w) == "Bold", "\(w)") }
    #expect(FontWeight.allCases.map(\.openType) == [100, 200, 300, 400, 500, 600, 700, 800, 900])
    // Bold is wider: "A" 608 → 641 units in the Bold face's hmtx.
    let bold = try typesetter.layout("A", family: noto, weight: .bold, size: 100).lines[0].width
    #expect(abs(bold - 64.1) < 1e-9)
  }

  @Test func weightMatchingFollowsCSS() throws {
    // CSS Fonts 4 §5.2, applied by hand: the face chosen for a desired
    // weight among the available ones.
    func chosen(_ desired: Int, _ available: [Int]) -> Int {
      available.min { SystemFonts.weightRank($0, desired: desired) < SystemFonts.weightRank($1, desired: desired) }!
    }
    #expect(chosen(400, [300, 500, 700]) == 500)  // 400…500 ascending first
    #expect(chosen(400, [350, 450]) == 450)
    #expect(chosen(450, [400, 600]) == 400)  // then lighter, before above 500
    #expect(chosen(500, [400, 600]) == 400)
    #expect(chosen(500, [300, 600]) == 300)
    #expect(chosen(300, [100, 400]) == 100)  // below 400: lighter first, however far
    #expect(chosen(300, [400, 500]) == 400)
    #expect(chosen(600, [500, 900]) == 900)  // above 500: heavier first, however far
    #expect(chosen(600, [500, 550]) == 550)
    #expect(chosen(700, [700, 400]) == 700)
  }

  @Test func familyNamesMatchLooselyAndTheDefaultIsInterWithNotoSansCJK() throws {
    #expect(try library.font(family: "noto sans cjk jp", weight: .regular).familyName == "Noto Sans CJK JP")
    #expect(try library.font(family: nil, weight: .regular).familyName == FontLibrary.defaultFamily)
    // Inter has a face per weight: semibold is its SemiBold, not Bold; and
    // Japanese falls back to Noto Sans CJK JP.
    let faces = try FontWeight.allCases.map { try library.font(family: nil, weight: $0).styleName }
    #expect(faces == ["Thin", "Extra Light", "Light", "Regular", "Medium", "Semi Bold", "Bold", "Extra Bold", "Black"], "\(faces)")
    #expect(library.fallback(for: "ト", weight: .regular)?.familyName == noto)
  }

  @Test func anUnknownFamilyIsAnErrorListingWhatExists() throws {
    let error = try #require(throws: TypographyError.self) { try library.font(family: "Helvetica Nue", weight: .regular) }
    #expect(error.message.contains("'Helvetica Nue'"))
    #expect(error.message.contains("DejaVu Sans") && error.message.contains("Noto Sans CJK JP"))
    #expect(error.message.contains("fonts"))
  }

  @Test func aMissingGlyphFallsBackToAFontThatHasIt() throws {
    // DejaVu Sans (2048 units per em, "A" 1401) has no kana: ト comes from
    // the default family, 1000 of its 1000 units.
    let scene = FontLibrary(sceneFonts: ["Body": dejaVuSans], system: systemFonts)
    let layout = try Typesetter(library: scene).layout("Aト", family: "Body", weight: .regular, size: 100)
    #expect(abs(layout.lines[0].width - (1401.0 / 2048 * 100 + 100)) < 1e-9)
    let katakanaOnly = try Typesetter(library: scene).layout("ト", family: "Body", weight: .regular, size: 100)
    #expect(!katakanaOnly.lines[0].path.isEmpty)
    // The lines are as tall as the taller font: Noto's ascender 1160 and
    // descender 288 (of 1000) over DejaVu's 1901 and 483 (of 2048).
    #expect(abs(layout.ascent - 116) < 1e-9 && abs(layout.descent - 28.8) < 1e-9)
    let latinOnly = try Typesetter(library: scene).layout("A", family: "Body", weight: .regular, size: 100)
    #expect(abs(latinOnly.ascent - 1901.0 / 2048 * 100) < 1e-9, "a text without fallbacks keeps its font's metrics")
  }

  @Test func aSceneFontFileThatIsNotAFontIsAnError() throws {
    let scene = FontLibrary(sceneFonts: ["Broken": "/etc/hostname", "Gone": "/nonexistent/font.ttf"], system: systemFonts)
    let broken = try #require(throws: TypographyError.self) { try scene.openSceneFont(family: "Broken") }
    #expect(broken.message.contains("/etc/hostname") && broken.message.contains("not a font"))
    let gone = try #require(throws: TypographyError.self) { try scene.openSceneFont(family: "Gone") }
    #expect(gone.message.contains("/nonexistent/font.ttf") && gone.message.contains("no such file"))
  }

  @Test func japaneseTextHasInkForEachCharacter() throws {
    // ト and マ each put ink in their own 1-em cell, and differently.
    let layout = try typesetter.layout("トマ", family: noto, weight: .regular, size: 32)
    let canvas = Canvas(width: 64, height: 48)
    canvas.fill(layout.lines[0].path, paint: .color(.white))
    let p = canvas.pixmap
    func ink(_ xs: Range<Int>) -> (total: Int, column: [Int]) {
      var total = 0
      var columns = [Int](repeating: 0, count: xs.count)
      for y in 0..<48 { for x in xs { total += Int(p[x, y].a); columns[x - xs.lowerBound] += Int(p[x, y].a) } }
      return (total, columns)
    }
    let to = ink(0..<32), ma = ink(32..<64)
    #expect(to.total > 255 * 40 && ma.total > 255 * 40)
    #expect(to.column != ma.column)
  }
}

/// The FreeType glue of LoadedFont+Unsafe.swift against its safe twin: each
/// glyph's outline decomposed by FreeType's callbacks equals the outline
/// decomposed by `LoadedFont.decompose` from the arrays copied out of
/// FreeType's glyph slot: DejaVu Sans's quadratic (TrueType) glyphs, all of
/// them, and Noto Sans CJK's cubic (CFF) glyphs, 600 drawn at random.
@Suite struct OutlineTwinTests {
  @Test func everyDejaVuGlyphMatchesTheSafeTwin() throws {
    let font = try library.open(file: dejaVuSans)
    try compareOutlines(font, glyphs: Array(0..<UInt32(font.face.pointee.num_glyphs)))
  }

  @Test func randomNotoGlyphsMatchTheSafeTwin() throws {
    let font = try library.open(file: notoRegular)
    var random = SplitMix64(seed: 0x4E6F_746F)
    let count = UInt64(font.face.pointee.num_glyphs)
    try compareOutlines(font, glyphs: (0..<600).map { _ in UInt32(random.next() % count) })
  }

  func compareOutlines(_ font: LoadedFont, glyphs: [UInt32]) throws {
    var conics = 0, cubics = 0, mismatches: [UInt32] = []
    for glyph in glyphs {
      let byFreeType = font.decomposedByFreeType(glyph)
      let arrays = try #require(font.outlineArrays(glyph))
      if byFreeType != LoadedFont.decompose(arrays) { mismatches.append(glyph) }
      for element in byFreeType?.elements ?? [] {
        if case .quad = element { conics += 1 }
        if case .cubic = element { cubics += 1 }
      }
    }
    #expect(mismatches.isEmpty, "glyphs \(mismatches.prefix(10)) of \(mismatches.count)")
    // The glyphs have curves of the font's kind: the test compares them.
    #expect(conics + cubics > 10 * glyphs.count / 2)
  }
}
