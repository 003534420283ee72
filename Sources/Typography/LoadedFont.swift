import CFreeType
import CHarfBuzz
import Primitives

/// One face of a font file, opened by FreeType (outlines, metrics, coverage)
/// and HarfBuzz (shaping: kerning, ligatures, marks), both in font units.
///
/// Not thread-safe: fonts are opened and texts laid out while a scene loads,
/// on one thread; what rendering uses afterwards is plain `Path` values.
public final class LoadedFont {
  public let file: String
  public let index: Int
  public let familyName: String
  public let styleName: String
  public let unitsPerEm: Double
  /// Whether its glyphs are colour bitmaps (no outlines).
  public let isColorBitmap: Bool
  /// The pixels per em of the strike its bitmaps come from.
  public let strikePixels: Double
  /// Font units, y up (descender negative), from the face's horizontal header.
  public let ascender: Double, descender: Double, lineHeight: Double
  let face: FT_Face
  let hbFont: OpaquePointer
  /// Kept alive as long as the face is.
  private let library: FreeTypeLibrary
  private var outlines: [UInt32: Path] = [:]

  /// Opens face `index` of `file`.
  init(library: FreeTypeLibrary, file: String, index: Int) throws(TypographyError) {
    var face: FT_Face?
    let error = FT_New_Face(library.handle, file, FT_Long(index), &face)
    guard error == 0, let face else {
      throw TypographyError(Self.describe(error, file: file))
    }
    // A colour bitmap font (Noto Color Emoji) draws its glyphs from its
    // largest strike of bitmaps, scaled to the text's size.
    let color = face.pointee.face_flags & sf_ft_face_flag_color != 0 && face.pointee.num_fixed_sizes > 0
    if color { FT_Select_Size(face, face.pointee.num_fixed_sizes - 1) }
    guard face.pointee.face_flags & sf_ft_face_flag_scalable != 0 && face.pointee.units_per_EM > 0 || color else {
      FT_Done_Face(face)
      throw TypographyError("\(file) has no outlines (a bitmap font); use a TrueType or OpenType font")
    }
    guard let blob = hb_blob_create_from_file_or_fail(file) else {
      FT_Done_Face(face)
      throw TypographyError("cannot read \(file)")
    }
    let hbFace = hb_face_create(blob, UInt32(index & 0xFFFF))
    hb_blob_destroy(blob)
    guard let hbFont = hb_font_create(hbFace) else {
      hb_face_destroy(hbFace)
      FT_Done_Face(face)
      throw TypographyError("HarfBuzz cannot open \(file)")
    }
    // A bitmap-only face has no units per em for FreeType; its tables do.
    let upem = face.pointee.units_per_EM > 0 ? Int32(face.pointee.units_per_EM) : Int32(hb_face_get_upem(hbFace))
    hb_face_destroy(hbFace)
    hb_font_set_scale(hbFont, upem, upem)
    // A named instance of a variable font: shape with its coordinates too.
    if index >> 16 > 0 { hb_font_set_var_named_instance(hbFont, UInt32((index >> 16) - 1)) }
    self.library = library
    self.file = file
    self.index = index
    self.face = face
    self.hbFont = hbFont
    isColorBitmap = color
    strikePixels = color ? Double(face.pointee.size.pointee.metrics.y_ppem) : 0
    familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
    styleName = face.pointee.style_name.map { String(cString: $0) } ?? ""
    unitsPerEm = Double(upem)
    if color {
      // Its horizontal metrics from its tables, through HarfBuzz.
      var extents = hb_font_extents_t()
      hb_font_get_h_extents(hbFont, &extents)
      ascender = Double(extents.ascender)
      descender = Double(extents.descender)
      lineHeight = max(Double(extents.ascender - extents.descender + extents.line_gap), ascender - descender)
    } else {
      ascender = Double(face.pointee.ascender)
      descender = Double(face.pointee.descender)
      // `height` is ascender − descender + line gap, as the font asks.
      lineHeight = max(Double(face.pointee.height), ascender - descender)
    }
  }

  deinit {
    hb_font_destroy(hbFont)
    FT_Done_Face(face)
  }

  static func describe(_ error: FT_Error, file: String) -> String {
    switch error {
    case 0x01: "cannot open \(file): no such file"
    case 0x02, 0x03: "\(file) is not a font FreeType can read (unknown or corrupt format)"
    case 0x06: "\(file) has no face with that index"
    default:
      if let s = FT_Error_String(error) {
        "cannot read the font \(file): \(String(cString: s))"
      } else {
        "cannot read the font \(file) (FreeType error \(error))"
      }
    }
  }

  /// A colour glyph's bitmap, premultiplied RGBA, with where it sits: its
  /// top-left `left` pixels right of the glyph's origin and `top` pixels
  /// above the baseline, at `strikePixels` per em; nil for a glyph without one.
  public struct ColorBitmap: Sendable, Hashable {
    public var width: Int, height: Int
    public var rgba: [UInt8]
    public var left: Int, top: Int
  }

  private var colorBitmaps: [UInt32: ColorBitmap?] = [:]

  /// The glyph's colour bitmap (cached); nil when it has none.
  public func colorBitmap(_ glyph: UInt32) -> ColorBitmap? {
    if let known = colorBitmaps[glyph] { return known }
    let loaded = isColorBitmap ? loadColorBitmap(glyph) : nil
    colorBitmaps[glyph] = loaded
    return loaded
  }

  /// Rows of premultiplied BGRA (`pitch` bytes apart) as tightly packed
  /// premultiplied RGBA: the safe twin of the copy in LoadedFont+Unsafe.swift.
  static func rgba(fromBGRA rows: [UInt8], width: Int, height: Int, pitch: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for x in 0..<width {
        let s = y * pitch + 4 * x, d = 4 * (y * width + x)
        out[d] = rows[s + 2]; out[d + 1] = rows[s + 1]; out[d + 2] = rows[s]; out[d + 3] = rows[s + 3]
      }
    }
    return out
  }

  /// Number of faces in the file (a collection has several).
  var faceCount: Int { Int(face.pointee.num_faces) }

  /// The glyph for a character, or nil when the face has none.
  public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
    let g = FT_Get_Char_Index(face, FT_ULong(scalar.value))
    return g == 0 ? nil : UInt32(g)
  }

  /// A glyph's outline in font units, y down (flipped from the font's y up),
  /// origin at the glyph's origin on the baseline. Quadratic (TrueType) and
  /// cubic (CFF) segments are kept as they are; holes wind opposite to their
  /// contour, as font formats require, so the non-zero rule fills glyphs.
  public func outline(_ glyph: UInt32) -> Path {
    if let path = outlines[glyph] { return path }
    // FreeType leaves contours open; a fill closes them anyway, but a
    // stroke of text must close them too.
    let path = decomposedByFreeType(glyph).map(Self.closingContours) ?? Path()
    outlines[glyph] = path
    return path
  }

  /// A glyph's outline as FreeType stores it, copied out of its glyph slot:
  /// points (font units, y up), their tags (bits 0–1: 1 on the curve, 0 a
  /// quadratic control point, 2 or 3 a cubic one) and the index of each
  /// contour's last point.
  struct OutlineArrays: Sendable, Hashable {
    var points: [(x: Int, y: Int)]
    var tags: [UInt8]
    var contourEnds: [Int]

    static func == (a: Self, b: Self) -> Bool {
      a.points.map { [$0.x, $0.y] } == b.points.map { [$0.x, $0.y] } && a.tags == b.tags && a.contourEnds == b.contourEnds
    }
    func hash(into hasher: inout Hasher) { hasher.combine(tags); hasher.combine(contourEnds) }
  }

  /// The safe twin of `decomposedByFreeType(_:)` (in LoadedFont+Unsafe.swift):
  /// the outline's contours as path elements by FreeType's own rules
  /// (FT_Outline_Decompose, with no shift or delta): a contour starts on
  /// its first point, or on its last when the first is off the curve (on
  /// their midpoint when both are); two quadratic control points in a row
  /// imply the on-curve point halfway (in integer font units, halved
  /// towards zero as FreeType's C does); each contour ends with a line back
  /// to its start. y is flipped (down). Nil for an invalid outline (a cubic
  /// control point alone, or a contour starting on one). For tests.
  static func decompose(_ outline: OutlineArrays) -> Path? {
    let onCurve: UInt8 = 1, conic: UInt8 = 0, cubic: UInt8 = 2
    func point(_ p: (x: Int, y: Int)) -> Point { Point(Double(p.x), -Double(p.y)) }
    func tag(_ i: Int) -> UInt8 { outline.tags[i] & 3 }
    func middle(_ a: (x: Int, y: Int), _ b: (x: Int, y: Int)) -> (x: Int, y: Int) { ((a.x + b.x) / 2, (a.y + b.y) / 2) }
    var path = Path()
    var first = 0
    for last in outline.contourEnds {
      guard last >= first, last < outline.points.count else { return nil }
      defer { first = last + 1 }
      var start = outline.points[first], next = first + 1, limit = last
      switch tag(first) {
      case cubic: return nil
      case conic:
        // Start on the last point if it is on the curve (and end before
        // it), else halfway between the two; the first point is a control.
        if tag(last) == onCurve {
          start = outline.points[last]; limit = last - 1
        } else {
          start = middle(start, outline.points[last])
        }
        next = first
      default: break
      }
      path.move(to: point(start))
      var closed = false
      while next <= limit && !closed {
        switch tag(next) {
        case onCurve:
          path.line(to: point(outline.points[next]))
          next += 1
        case conic:
          var control = outline.points[next]
          next += 1
          while true {
            guard next <= limit else {
              path.quad(to: point(start), control: point(control))
              closed = true
              break
            }
            let vertex = outline.points[next]
            next += 1
            if tag(next - 1) == onCurve {
              path.quad(to: point(vertex), control: point(control))
              break
            }
            guard tag(next - 1) == conic else { return nil }
            path.quad(to: point(middle(control, vertex)), control: point(control))
            control = vertex
          }
        default:
          guard next + 1 <= limit, tag(next + 1) == cubic else { return nil }
          let control1 = outline.points[next], control2 = outline.points[next + 1]
          next += 2
          if next <= limit {
            path.cubic(to: point(outline.points[next]), control1: point(control1), control2: point(control2))
            next += 1
          } else {
            path.cubic(to: point(start), control1: point(control1), control2: point(control2))
            closed = true
          }
        }
      }
      if !closed { path.line(to: point(start)) }
    }
    return path
  }

  static func closingContours(_ path: Path) -> Path {
    var out = Path()
    var open = false
    for element in path.elements {
      if case .move = element, open { out.close() }
      switch element {
      case .move(let p): out.move(to: p); open = true
      case .line(let p): out.line(to: p)
      case .quad(let c, let p): out.quad(to: p, control: c)
      case .cubic(let c1, let c2, let p): out.cubic(to: p, control1: c1, control2: c2)
      case .close: out.close(); open = false
      }
    }
    if open { out.close() }
    return out
  }

  /// Shapes `length` characters from `offset` of `text` (the whole line is
  /// given as context) with HarfBuzz: glyphs in visual order with their
  /// advances and offsets, font units.
  func shape(_ text: [UInt32], offset: Int, length: Int) -> [ShapedGlyph] {
    guard let buffer = hb_buffer_create() else { return [] }
    defer { hb_buffer_destroy(buffer) }
    text.withUnsafeBufferPointer { hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), UInt32(offset), Int32(length)) }
    hb_buffer_guess_segment_properties(buffer)
    hb_shape(hbFont, buffer, nil, 0)
    return shapedGlyphs(of: buffer)
  }
}

struct ShapedGlyph {
  var glyph: UInt32
  var cluster: Int
  var advance: Double
  /// Font units, y up.
  var offset: Vector2
}
