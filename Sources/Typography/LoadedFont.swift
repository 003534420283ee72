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
    guard face.pointee.face_flags & sf_ft_face_flag_scalable != 0, face.pointee.units_per_EM > 0 else {
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
    hb_face_destroy(hbFace)
    let upem = Int32(face.pointee.units_per_EM)
    hb_font_set_scale(hbFont, upem, upem)
    // A named instance of a variable font: shape with its coordinates too.
    if index >> 16 > 0 { hb_font_set_var_named_instance(hbFont, UInt32((index >> 16) - 1)) }
    self.library = library
    self.file = file
    self.index = index
    self.face = face
    self.hbFont = hbFont
    familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
    styleName = face.pointee.style_name.map { String(cString: $0) } ?? ""
    unitsPerEm = Double(face.pointee.units_per_EM)
    ascender = Double(face.pointee.ascender)
    descender = Double(face.pointee.descender)
    // `height` is ascender − descender + line gap, as the font asks.
    lineHeight = max(Double(face.pointee.height), ascender - descender)
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
    var path = Path()
    if FT_Load_Glyph(face, glyph, Int32(sf_ft_load_outline)) == 0, face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
      var funcs = FT_Outline_Funcs(
        move_to: { to, user in
          OutlineSink.from(user).path.move(to: OutlineSink.point(to))
          return 0
        },
        line_to: { to, user in
          OutlineSink.from(user).path.line(to: OutlineSink.point(to))
          return 0
        },
        conic_to: { control, to, user in
          OutlineSink.from(user).path.quad(to: OutlineSink.point(to), control: OutlineSink.point(control))
          return 0
        },
        cubic_to: { c1, c2, to, user in
          OutlineSink.from(user).path.cubic(to: OutlineSink.point(to), control1: OutlineSink.point(c1), control2: OutlineSink.point(c2))
          return 0
        },
        shift: 0, delta: 0)
      let sink = OutlineSink()
      withUnsafeMutablePointer(to: &face.pointee.glyph.pointee.outline) { outline in
        _ = FT_Outline_Decompose(outline, &funcs, Unmanaged.passUnretained(sink).toOpaque())
      }
      // FreeType leaves contours open; a fill closes them anyway, but a
      // stroke of text must close them too.
      path = Self.closingContours(sink.path)
    }
    outlines[glyph] = path
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
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
    return (0..<Int(count)).map { i in
      ShapedGlyph(
        glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
        advance: Double(positions[i].x_advance), offset: Vector2(Double(positions[i].x_offset), Double(positions[i].y_offset)))
    }
  }
}

struct ShapedGlyph {
  var glyph: UInt32
  var cluster: Int
  var advance: Double
  /// Font units, y up.
  var offset: Vector2
}

/// Receives FreeType's outline callbacks.
private final class OutlineSink {
  var path = Path()
  static func from(_ user: UnsafeMutableRawPointer?) -> OutlineSink {
    Unmanaged<OutlineSink>.fromOpaque(user!).takeUnretainedValue()
  }
  static func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
    Point(Double(v!.pointee.x), -Double(v!.pointee.y))
  }
}
