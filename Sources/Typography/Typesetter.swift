import Primitives

/// Lays out text: splits lines at `\n`, picks for every character the
/// chosen font or, where it lacks the glyph, a fallback font that has it,
/// shapes each run with HarfBuzz (kerning, ligatures, marks) and places the
/// glyph outlines.
public struct Typesetter {
  public let library: FontLibrary
  public init(library: FontLibrary) { self.library = library }

  public func layout(_ text: String, family: String?, weight: FontWeight, size: Double) throws(TypographyError) -> TextLayout {
    let primary = try library.font(family: family, weight: weight)
    let scale = size / primary.unitsPerEm
    var lines: [TextLayout.Line] = []
    // "\r\n" and "\r" break lines too (Swift keeps "\r\n" as one Character).
    let normalized = text.replacingCRLF()
    for lineText in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append(layoutLine(Array(lineText.unicodeScalars), primary: primary, weight: weight, size: size, ascent: primary.ascender * scale))
    }
    return TextLayout(lines: lines, ascent: primary.ascender * scale, descent: -primary.descender * scale, lineHeight: primary.lineHeight * scale)
  }

  func layoutLine(_ scalars: [Unicode.Scalar], primary: LoadedFont, weight: FontWeight, size: Double, ascent: Double) -> TextLayout.Line {
    // The font of each character: the primary when it has the glyph; else a
    // fallback; marks and joiners stay with the character before them.
    var fonts: [LoadedFont] = []
    for (i, s) in scalars.enumerated() {
      if i > 0, Self.staysWithPrevious(s), fonts[i - 1].glyph(for: s) != nil || primary.glyph(for: s) == nil {
        fonts.append(fonts[i - 1])
      } else if primary.glyph(for: s) != nil || Self.isInvisible(s) {
        fonts.append(primary)
      } else {
        fonts.append(library.fallback(for: s, weight: weight) ?? primary)
      }
    }
    let codes = scalars.map(\.value)
    var path = Path()
    var x = 0.0
    var start = 0
    while start < scalars.count {
      var end = start + 1
      while end < scalars.count, fonts[end] === fonts[start] { end += 1 }
      let font = fonts[start]
      let s = size / font.unitsPerEm
      for g in font.shape(codes, offset: start, length: end - start) {
        let outline = font.outline(g.glyph)
        if !outline.isEmpty {
          let place = AffineTransform.scale(s, s).concatenating(.translation(x + g.offset.x * s, ascent - g.offset.y * s))
          path.append(outline.transformed(by: place))
        }
        x += g.advance * s
      }
      start = end
    }
    return TextLayout.Line(path: path, width: x)
  }

  /// Combining marks, variation selectors and joiners: shaped with the
  /// character they follow.
  static func staysWithPrevious(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return s.value == 0x200D || (0xFE00...0xFE0F).contains(s.value) || (0xE0100...0xE01EF).contains(s.value)
    }
  }

  /// Characters drawn as nothing, which never need a fallback.
  static func isInvisible(_ s: Unicode.Scalar) -> Bool {
    s.properties.generalCategory == .control || s.properties.generalCategory == .format
  }
}

extension String {
  func replacingCRLF() -> String {
    var out = String.UnicodeScalarView()
    var previousCR = false
    for s in unicodeScalars {
      if s == "\r" { out.append("\n"); previousCR = true; continue }
      if s == "\n" && previousCR { previousCR = false; continue }
      previousCR = false
      out.append(s)
    }
    return String(out)
  }
}
