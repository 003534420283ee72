import CFontconfig
import Primitives

/// One face of an installed font, as fontconfig lists it.
public struct SystemFace: Sendable, Hashable {
  /// Every family name the face gives (the first is the English one).
  public var families: [String]
  public var style: String
  public var file: String
  /// Face index in a collection (with a named instance in the high bits).
  public var index: Int
  /// OpenType weight, 100…900.
  public var weight: Int
  /// fontconfig's slant: 0 roman, 100 italic, 110 oblique.
  public var slant: Int
  /// fontconfig's width: 100 normal.
  public var width: Int
}

/// The fonts installed on this machine, read once through fontconfig, with
/// their character coverage for fallback.
///
/// Everything is chosen here, in Swift, rather than by `FcFontMatch`, so that
/// an unknown family is an error instead of a silent substitution, and so
/// that the choice is the same on every machine with the same fonts.
public final class SystemFonts: @unchecked Sendable {
  public let faces: [SystemFace]
  /// fontconfig's coverage of each face (owned by `fontSet`).
  private let charsets: [OpaquePointer?]
  /// Colour-bitmap faces (Noto Color Emoji), kept apart: they have no
  /// outlines, and only fall back for characters no outline font of the
  /// defaults has.
  public let colorFaces: [SystemFace]
  private let colorCharsets: [OpaquePointer?]
  private let fontSet: UnsafeMutablePointer<FcFontSet>?

  /// The machine's fonts, read once per process: every scene of a batch
  /// and every review picture shares them.
  public static let shared = SystemFonts()

  /// Reads fontconfig's list (empty when fontconfig has no configuration).
  public init() {
    var faces: [SystemFace] = []
    var charsets: [OpaquePointer?] = []
    var colorFaces: [SystemFace] = []
    var colorCharsets: [OpaquePointer?] = []
    let config = FcInitLoadConfigAndFonts()
    let pattern = FcPatternCreate()
    let objects = FcObjectSetCreate()
    for name in ["family", "style", "file", "index", "weight", "slant", "width", "charset", "outline", "variable", "color"] {
      _ = FcObjectSetAdd(objects, name)
    }
    let set = FcFontList(config, pattern, objects)
    FcObjectSetDestroy(objects)
    FcPatternDestroy(pattern)
    if let config { FcConfigDestroy(config) }
    fontSet = set
    // The set's patterns, copied out of fontconfig's array.
    let patterns = set.map { Array(UnsafeBufferPointer(start: $0.pointee.fonts, count: Int($0.pointee.nfont))) } ?? []
    for case let pattern? in patterns {
      func string(_ key: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, key, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
      }
      func integer(_ key: String) -> Int? {
        var i: Int32 = 0
        if FcPatternGetInteger(pattern, key, 0, &i) == FcResultMatch { return Int(i) }
        var d: Double = 0
        if FcPatternGetDouble(pattern, key, 0, &d) == FcResultMatch { return Int(d.rounded()) }
        return nil
      }
      func bool(_ key: String) -> Bool {
        var b: FcBool = 0
        return FcPatternGetBool(pattern, key, 0, &b) == FcResultMatch && b != 0
      }
      if bool("color") && !bool("variable"), let file = string("file"), let family = string("family") {
        var charset: OpaquePointer?
        if FcPatternGetCharSet(pattern, "charset", 0, &charset) != FcResultMatch { charset = nil }
        colorFaces.append(
          SystemFace(families: [family], style: string("style") ?? "", file: file, index: integer("index") ?? 0, weight: 400, slant: 0, width: 100))
        colorCharsets.append(charset)
        continue
      }
      // Outline faces only: bitmap and colour-bitmap fonts have no paths,
      // and a variable font's whole-range entry is listed again per instance.
      var outline: FcBool = 1
      if FcPatternGetBool(pattern, "outline", 0, &outline) == FcResultMatch, outline == 0 { continue }
      if bool("variable") || bool("color") { continue }
      guard let file = string("file"), let weight = integer("weight") else { continue }
      var families: [String] = []
      var n: Int32 = 0
      while let f = string("family", n) { families.append(f); n += 1 }
      guard !families.isEmpty else { continue }
      var charset: OpaquePointer?
      if FcPatternGetCharSet(pattern, "charset", 0, &charset) != FcResultMatch { charset = nil }
      faces.append(
        SystemFace(
          families: families, style: string("style") ?? "", file: file, index: integer("index") ?? 0,
          weight: Int(FcWeightToOpenType(Int32(weight))), slant: integer("slant") ?? 0, width: integer("width") ?? 100))
      charsets.append(charset)
    }
    // A stable order, whatever order fontconfig read the folders in.
    let order = faces.indices.sorted { (faces[$0].file, faces[$0].index) < (faces[$1].file, faces[$1].index) }
    self.faces = order.map { faces[$0] }
    self.charsets = order.map { charsets[$0] }
    let colorOrder = colorFaces.indices.sorted { (colorFaces[$0].file, colorFaces[$0].index) < (colorFaces[$1].file, colorFaces[$1].index) }
    self.colorFaces = colorOrder.map { colorFaces[$0] }
    self.colorCharsets = colorOrder.map { colorCharsets[$0] }
  }

  deinit { if let fontSet { FcFontSetDestroy(fontSet) } }

  /// The family names installed, sorted, each once (English names).
  public var familyNames: [String] {
    Array(Set(faces.compactMap(\.families.first))).sorted { $0.lowercased() < $1.lowercased() }
  }

  /// The faces of a family, matched as fontconfig does: ignoring case and blanks.
  public func faces(ofFamily family: String) -> [Int] {
    let key = Self.normalized(family)
    return faces.indices.filter { faces[$0].families.contains { Self.normalized($0) == key } }
  }

  /// The first colour face that has `scalar`.
  public func colorFace(covering scalar: Unicode.Scalar) -> SystemFace? {
    colorFaces.indices.first { colorCharsets[$0].map { FcCharSetHasChar($0, FcChar32(scalar.value)) != 0 } ?? false }.map { colorFaces[$0] }
  }

  public func covers(_ face: Int, _ scalar: Unicode.Scalar) -> Bool {
    guard let cs = charsets[face] else { return false }
    return FcCharSetHasChar(cs, FcChar32(scalar.value)) != 0
  }

  static func normalized(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { $0 != " " && $0 != "\t" })
  }

  /// The face of `candidates` that best fits `weight`: upright, normal width,
  /// then by CSS's font-weight matching (`weightRank`), then file order.
  public func best(of candidates: [Int], weight: Int) -> Int? {
    func key(_ i: Int) -> (Int, Int, Int, Int, Int) {
      let f = faces[i]
      let rank = Self.weightRank(f.weight, desired: weight)
      return (f.slant == 0 ? 0 : 1, abs(f.width - 100), rank.tier, rank.distance, i)
    }
    return candidates.min { key($0) < key($1) }
  }

  /// CSS Fonts 4 §5.2 font-weight matching: for a desired weight from 400
  /// to 500, the weights from it up to 500 first (ascending), then those
  /// below it (descending), then those above 500 (ascending); below 400,
  /// lighter first (descending) then heavier (ascending); above 500,
  /// heavier first (ascending) then lighter (descending). Lower ranks win.
  static func weightRank(_ weight: Int, desired: Int) -> (tier: Int, distance: Int) {
    let distance = abs(weight - desired)
    if (400...500).contains(desired) {
      if weight >= desired && weight <= 500 { return (0, distance) }
      return weight < desired ? (1, distance) : (2, distance)
    }
    if desired < 400 { return weight <= desired ? (0, distance) : (1, distance) }
    return weight >= desired ? (0, distance) : (1, distance)
  }
}
