import Primitives

/// Lays out text: splits lines at `\n`, picks for every character the
/// chosen font or, where it lacks the glyph, a fallback font that has it,
/// shapes each run with HarfBuzz (kerning, ligatures, marks) and places the
/// glyph outlines.
public struct Typesetter {
  public let library: FontLibrary
  public init(library: FontLibrary) { self.library = library }

  public func layout(
    _ text: String, family: String?, weight: FontWeight, size: Double, wrapping: TextWrapping = .none
  ) throws(TypographyError) -> TextLayout {
    let primary = try library.font(family: family, weight: weight)
    // The lines are as tall as the tallest font the text draws with (a
    // Latin face's Japanese comes from a taller one), as Core Text's are.
    let metrics = self.metrics(of: text, primary: primary, weight: weight, size: size)
    let ascent = metrics.ascent
    let line = { (scalars: ArraySlice<Unicode.Scalar>) in
      self.layoutLine(Array(scalars), primary: primary, weight: weight, size: size, ascent: ascent)
    }
    // "\r\n" and "\r" break lines too (Swift keeps "\r\n" as one Character).
    let normalized = text.replacingCRLF()
    var pieces: [ArraySlice<Unicode.Scalar>] = []
    for paragraph in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
      let scalars = Array(paragraph.unicodeScalars)
      if let width = wrapping.width {
        pieces += Self.wrap(scalars[...], within: width, measure: { line($0).width })
      } else {
        pieces.append(scalars[...])
      }
    }
    if let limit = wrapping.lineLimit, pieces.count > limit {
      // The last line shown ends with "…", cut to fit.
      var last = Array(pieces[limit - 1])
      while let end = last.last, LineBreaking.isSpace(end) { last.removeLast() }
      pieces = Array(pieces.prefix(limit - 1)) + [Self.truncated(last[...], within: wrapping.width, measure: { line($0).width })]
    }
    var layout = TextLayout(
      lines: pieces.map(line), ascent: ascent, descent: metrics.descent, lineHeight: metrics.lineHeight, lineSpacing: wrapping.lineSpacing,
      wrapWidth: wrapping.width)
    layout.missing = metrics.missing
    return layout
  }

  /// Ascent, descent and line height in points: the largest of the primary
  /// font's and those of the fallback fonts `text` needs; and the
  /// characters no font has.
  func metrics(of text: String, primary: LoadedFont, weight: FontWeight, size: Double) -> (
    ascent: Double, descent: Double, lineHeight: Double, missing: [Unicode.Scalar]
  ) {
    var fonts: [LoadedFont] = [primary]
    var missing: [Unicode.Scalar] = []
    var seen: Set<Unicode.Scalar> = []
    let scalars = Array(text.unicodeScalars)
    for (s, font) in zip(scalars, self.fonts(for: scalars, primary: primary, weight: weight)) where s != "\n" && s != "\r" {
      if font.glyph(for: s) != nil {
        if !fonts.contains(where: { $0 === font }) { fonts.append(font) }
      } else if !Self.isInvisible(s), !LineBreaking.isCombining(s), seen.insert(s).inserted {
        missing.append(s)
      }
    }
    var ascent = 0.0, descent = 0.0, gap = 0.0
    for font in fonts {
      let scale = size / font.unitsPerEm
      ascent = max(ascent, font.ascender * scale)
      descent = max(descent, -font.descender * scale)
      gap = max(gap, (font.lineHeight - font.ascender + font.descender) * scale)
    }
    return (ascent, descent, ascent + descent + gap, missing)
  }

  /// `line` followed by "…", with characters taken off its end until it
  /// fits `width` (any width when nil).
  static func truncated(
    _ line: ArraySlice<Unicode.Scalar>, within width: Double?, measure: (ArraySlice<Unicode.Scalar>) -> Double
  ) -> ArraySlice<Unicode.Scalar> {
    var kept = Array(line)
    while true {
      while let end = kept.last, LineBreaking.isSpace(end) { kept.removeLast() }
      let candidate = (kept + ["\u{2026}"])[...]
      guard let width, !kept.isEmpty, measure(candidate) > width + 1e-9 else { return candidate }
      // The last character goes with the marks and joiners that follow it.
      while let end = kept.last, LineBreaking.isCombining(end) { kept.removeLast() }
      if !kept.isEmpty { kept.removeLast() }
    }
  }

  /// A paragraph's lines within `width` points: each as many whole
  /// segments (text between break opportunities, `LineBreaking`) as fit,
  /// spaces at a line's end not counted, nor closing punctuation, which
  /// may hang past the width; a segment wider than a line on its own is
  /// broken between characters. Segments are measured apart (kerning
  /// across a break opportunity is not counted when fitting).
  static func wrap(
    _ scalars: ArraySlice<Unicode.Scalar>, within width: Double, measure: (ArraySlice<Unicode.Scalar>) -> Double
  ) -> [ArraySlice<Unicode.Scalar>] {
    guard !scalars.isEmpty else { return [scalars] }
    let base = scalars.startIndex
    let breaks = LineBreaking.opportunities(Array(scalars))
    var segments: [Range<Int>] = []
    var start = base
    for i in scalars.indices.dropFirst() where breaks[i - base] {
      segments.append(start..<i)
      start = i
    }
    segments.append(start..<scalars.endIndex)
    /// What of a segment must fit: without trailing spaces and hanging punctuation.
    /// (`full`, its width whole; measured again only when something hangs.)
    func fitting(_ r: Range<Int>, full: Double) -> Double {
      var end = r.upperBound
      while end > r.lowerBound, LineBreaking.isSpace(scalars[end - 1]) || LineBreaking.closesLine(scalars[end - 1]) { end -= 1 }
      if end == r.upperBound { return full }
      return end > r.lowerBound ? measure(scalars[r.lowerBound..<end]) : 0
    }
    /// A wrapped line without the spaces it broke after.
    func trimmed(_ line: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
      var end = line.endIndex
      while end > line.startIndex, LineBreaking.isSpace(line[end - 1]) { end -= 1 }
      return line[line.startIndex..<end]
    }
    var lines: [ArraySlice<Unicode.Scalar>] = []
    var lineStart = base
    var used = 0.0
    for segment in segments {
      let full = measure(scalars[segment])
      let needed = fitting(segment, full: full)
      if segment.lowerBound > lineStart, used + needed > width + 1e-9 {
        lines.append(trimmed(scalars[lineStart..<segment.lowerBound]))
        lineStart = segment.lowerBound
        used = 0
      }
      if segment.lowerBound == lineStart, needed > width + 1e-9 {
        // Too wide for any line: break it between characters.
        // Characters measured one by one (a mark with its character).
        var from = segment.lowerBound
        var run = 0.0
        var k = segment.lowerBound
        while k < segment.upperBound {
          var next = k + 1
          while next < segment.upperBound, LineBreaking.isCombining(scalars[next]) { next += 1 }
          let w = measure(scalars[k..<next])
          // Spaces and closing punctuation never start a line: they hang.
          let hangs = LineBreaking.isSpace(scalars[k]) || LineBreaking.closesLine(scalars[k])
          if k > from, !hangs, run + w > width + 1e-9 {
            lines.append(trimmed(scalars[from..<k]))
            from = k
            run = 0
          }
          run += w
          k = next
        }
        lineStart = from
        used = run
        continue
      }
      used += full
    }
    lines.append(trimmed(scalars[lineStart..<scalars.endIndex]))
    return lines
  }

  /// The font of each character: the colour font for one followed by
  /// U+FE0F (emoji presentation); the primary when it has the glyph (or the
  /// character draws nothing); else a fallback (the primary when none has
  /// it); marks and joiners stay with the character before them. Layout and
  /// line metrics both read it.
  func fonts(for scalars: [Unicode.Scalar], primary: LoadedFont, weight: FontWeight) -> [LoadedFont] {
    var fonts: [LoadedFont] = []
    for (i, s) in scalars.enumerated() {
      if i > 0, LineBreaking.isCombining(s), fonts[i - 1].glyph(for: s) != nil || primary.glyph(for: s) == nil {
        fonts.append(fonts[i - 1])
      } else if i + 1 < scalars.count, scalars[i + 1].value == 0xFE0F, let emoji = library.colorFont(for: s) {
        // U+FE0F asks for the emoji presentation: the colour glyph.
        fonts.append(emoji)
      } else if primary.glyph(for: s) != nil || Self.isInvisible(s) {
        fonts.append(primary)
      } else {
        fonts.append(library.fallback(for: s, weight: weight) ?? primary)
      }
    }
    return fonts
  }

  func layoutLine(_ scalars: [Unicode.Scalar], primary: LoadedFont, weight: FontWeight, size: Double, ascent: Double) -> TextLayout.Line {
    let fonts = self.fonts(for: scalars, primary: primary, weight: weight)
    let codes = scalars.map(\.value)
    var path = Path()
    var images: [TextLayout.GlyphImage] = []
    // Each cluster's glyphs (HarfBuzz numbers a cluster by its first
    // character's index in the line), and where its pen starts.
    var clusters: [Int: (x: Double, path: Path, images: [TextLayout.GlyphImage])] = [:]
    var x = 0.0
    var start = 0
    while start < scalars.count {
      var end = start + 1
      while end < scalars.count, fonts[end] === fonts[start] { end += 1 }
      let font = fonts[start]
      let s = size / font.unitsPerEm
      for g in font.shape(codes, offset: start, length: end - start) {
        if font.isColorBitmap {
          // A colour glyph: its bitmap scaled so that the strike's em is the size.
          if let bitmap = font.colorBitmap(g.glyph), font.strikePixels > 0 {
            let k = size / font.strikePixels
            let rect = Rect(
              x: x + g.offset.x * s + Double(bitmap.left) * k, y: ascent - g.offset.y * s - Double(bitmap.top) * k,
              width: Double(bitmap.width) * k, height: Double(bitmap.height) * k)
            let image = TextLayout.GlyphImage(width: bitmap.width, height: bitmap.height, rgba: bitmap.rgba, rect: rect)
            images.append(image)
            clusters[g.cluster, default: (x, Path(), [])].images.append(image)
          }
          x += g.advance * s
          continue
        }
        let outline = font.outline(g.glyph)
        if !outline.isEmpty {
          let place = AffineTransform.scale(s, s).concatenating(.translation(x + g.offset.x * s, ascent - g.offset.y * s))
          let placed = outline.transformed(by: place)
          path.append(placed)
          clusters[g.cluster, default: (x, Path(), [])].path.append(placed)
        } else if clusters[g.cluster] == nil {
          clusters[g.cluster] = (x, Path(), [])
        }
        x += g.advance * s
      }
      start = end
    }
    let starts = clusters.keys.sorted()
    let pieces = starts.enumerated().map { k, c in
      let end = k + 1 < starts.count ? starts[k + 1] : scalars.count
      var text = String.UnicodeScalarView()
      text.append(contentsOf: scalars[min(c, scalars.count)..<max(min(c, scalars.count), end)])
      let piece = clusters[c]!
      return TextLayout.Cluster(text: String(text), x: piece.x, path: piece.path, images: piece.images)
    }
    return TextLayout.Line(path: path, width: x, images: images, clusters: pieces)
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
