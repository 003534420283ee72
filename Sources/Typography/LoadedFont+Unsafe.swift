// What FreeType and HarfBuzz hand back in their own memory, read: a glyph's
// outline decomposed by FreeType's callbacks or copied out of its glyph
// slot, and a shaped buffer's glyphs copied out.
//
// Safe twin: `LoadedFont.decompose(_:)` in LoadedFont.swift, an outline's
// contours decomposed from the copied arrays by FreeType's rules.
// TypographyTests compares the two on every glyph of DejaVu Sans and on
// glyphs of Noto Sans CJK drawn at random.
import CFreeType
import CHarfBuzz
import Primitives

extension LoadedFont {
  /// The glyph's outline as FreeType's FT_Outline_Decompose walks it (font
  /// units, y flipped down, contours left open), nil when the glyph has no
  /// outline.
  func decomposedByFreeType(_ glyph: UInt32) -> Path? {
    guard FT_Load_Glyph(face, glyph, Int32(sf_ft_load_outline)) == 0, face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
      return nil
    }
    var callbacks = FT_Outline_Funcs(
      move_to: { to, sink in
        OutlineSink.from(sink).path.move(to: OutlineSink.point(to))
        return 0
      },
      line_to: { to, sink in
        OutlineSink.from(sink).path.line(to: OutlineSink.point(to))
        return 0
      },
      conic_to: { control, to, sink in
        OutlineSink.from(sink).path.quad(to: OutlineSink.point(to), control: OutlineSink.point(control))
        return 0
      },
      cubic_to: { control1, control2, to, sink in
        OutlineSink.from(sink).path.cubic(
          to: OutlineSink.point(to), control1: OutlineSink.point(control1), control2: OutlineSink.point(control2))
        return 0
      },
      shift: 0, delta: 0)
    let sink = OutlineSink()
    let status = withUnsafeMutablePointer(to: &face.pointee.glyph.pointee.outline) { outline in
      FT_Outline_Decompose(outline, &callbacks, Unmanaged.passUnretained(sink).toOpaque())
    }
    return status == 0 ? sink.path : nil
  }

  /// The glyph's outline arrays copied out of FreeType's glyph slot, nil
  /// when the glyph has no outline.
  func outlineArrays(_ glyph: UInt32) -> OutlineArrays? {
    guard FT_Load_Glyph(face, glyph, Int32(sf_ft_load_outline)) == 0, face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
      return nil
    }
    let outline = face.pointee.glyph.pointee.outline
    let pointCount = Int(outline.n_points), contourCount = Int(outline.n_contours)
    guard pointCount > 0, contourCount > 0 else { return OutlineArrays(points: [], tags: [], contourEnds: []) }
    let vectors = Array(UnsafeBufferPointer(start: outline.points, count: pointCount))
    let tags = Array(UnsafeRawBufferPointer(start: outline.tags, count: pointCount))
    let contourEnds = Array(UnsafeBufferPointer(start: outline.contours, count: contourCount))
    return OutlineArrays(points: vectors.map { (Int($0.x), Int($0.y)) }, tags: tags, contourEnds: contourEnds.map { Int($0) })
  }

  /// A colour glyph's bitmap, copied out of FreeType's glyph slot (premultiplied
  /// BGRA rows) and reordered by `rgba(fromBGRA:…)`.
  func loadColorBitmap(_ glyph: UInt32) -> ColorBitmap? {
    guard FT_Load_Glyph(face, glyph, Int32(sf_ft_load_color)) == 0 else { return nil }
    let slot = face.pointee.glyph.pointee
    let bitmap = slot.bitmap
    guard Int32(bitmap.pixel_mode) == sf_ft_pixel_mode_bgra, bitmap.width > 0, bitmap.rows > 0, let buffer = bitmap.buffer, bitmap.pitch > 0 else {
      return nil
    }
    let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
    let rows = Array(UnsafeBufferPointer(start: buffer, count: pitch * height))
    return ColorBitmap(
      width: width, height: height, rgba: Self.rgba(fromBGRA: rows, width: width, height: height, pitch: pitch), left: Int(slot.bitmap_left),
      top: Int(slot.bitmap_top))
  }

  /// The glyphs HarfBuzz shaped into `buffer`, copied out of its arrays.
  func shapedGlyphs(of buffer: OpaquePointer) -> [ShapedGlyph] {
    var count: UInt32 = 0
    guard let glyphInfos = hb_buffer_get_glyph_infos(buffer, &count) else { return [] }
    let infos = Array(UnsafeBufferPointer(start: glyphInfos, count: Int(count)))
    guard let glyphPositions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
    let positions = Array(UnsafeBufferPointer(start: glyphPositions, count: Int(count)))
    return zip(infos, positions).map { info, position in
      ShapedGlyph(
        glyph: info.codepoint, cluster: Int(info.cluster), advance: Double(position.x_advance),
        offset: Vector2(Double(position.x_offset), Double(position.y_offset)))
    }
  }
}

/// Receives FreeType's outline callbacks.
private final class OutlineSink {
  var path = Path()
  static func from(_ sink: UnsafeMutableRawPointer?) -> OutlineSink {
    Unmanaged<OutlineSink>.fromOpaque(sink!).takeUnretainedValue()
  }
  static func point(_ vector: UnsafePointer<FT_Vector>?) -> Point {
    Point(Double(vector!.pointee.x), -Double(vector!.pointee.y))
  }
}
