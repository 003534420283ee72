import CFreeType
import Primitives
import Syntax

/// Finds and opens fonts: the families a scene lists under `fonts` first,
/// then the system's through fontconfig; and, for a character the chosen
/// font lacks, a font that has it.
///
/// Fonts it opens stay valid after the library is gone.
///
/// A family that does not exist is an error naming it and listing what is
/// available; it is never silently replaced by another.
public final class FontLibrary {
  /// The families used when a text names none, in order: Inter for Latin
  /// (closer to iOS's SF Pro, with a face for every weight iOS uses), then
  /// Noto Sans CJK JP for Japanese (Debian's `fonts-inter` and
  /// `fonts-noto-cjk`, installed by `scripts/install-deps`).
  public static let defaultFamilies = ["Inter", "Noto Sans CJK JP"]
  /// The first of them: the primary face of a text that names none.
  public static let defaultFamily = defaultFamilies[0]

  let library = FreeTypeLibrary()
  /// Scene families: name → file (already resolved against the scene's folder).
  let sceneFonts: [String: String]
  /// The machine's fonts: read from fontconfig when a text first needs
  /// them, so a scene without text never pays for the scan (about 5 ms
  /// of every `render`'s start-up).
  public var system: SystemFonts { givenSystem ?? .shared }
  private let givenSystem: SystemFonts?
  private var opened: [FaceKey: LoadedFont] = [:]
  private var fallbacks: [FallbackKey: LoadedFont?] = [:]
  /// `font(family:weight:)`'s answers: a lookup scans every installed face.
  private var chosen: [ChoiceKey: Result<LoadedFont, TypographyError>] = [:]
  struct ChoiceKey: Hashable { var family: String?; var weight: FontWeight }

  struct FaceKey: Hashable { var file: String; var index: Int }
  struct FallbackKey: Hashable { var scalar: UInt32; var weight: Int }

  /// - Parameters:
  ///   - sceneFonts: family → font file path.
  ///   - system: the machine's fonts; nil for `SystemFonts.shared`, read
  ///     on first use.
  public init(sceneFonts: [String: String] = [:], system: SystemFonts? = nil) {
    self.sceneFonts = sceneFonts
    givenSystem = system
  }

  /// Opens face `index` of `file` (once; later calls share it).
  public func open(file: String, index: Int = 0) throws(TypographyError) -> LoadedFont {
    let key = FaceKey(file: file, index: index)
    if let font = opened[key] { return font }
    let font = try LoadedFont(library: library, file: file, index: index)
    opened[key] = font
    return font
  }

  /// A scene font: the face of its file whose family is the name the scene
  /// gives it (a collection holds several), else the file's first face.
  public func openSceneFont(family: String) throws(TypographyError) -> LoadedFont {
    guard let file = sceneFonts[family] else { throw TypographyError("no font file for \(Excerpt.quoted(family))") }
    let first = try open(file: file)
    if first.faceCount > 1 {
      for i in 1..<first.faceCount {
        let face = try open(file: file, index: i)
        if SystemFonts.normalized(face.familyName) == SystemFonts.normalized(family) { return face }
      }
    }
    return first
  }

  /// The font for a family (nil: the first default family installed) and
  /// weight; looked up once per library.
  public func font(family: String?, weight: FontWeight) throws(TypographyError) -> LoadedFont {
    let key = ChoiceKey(family: family, weight: weight)
    let answer: Result<LoadedFont, TypographyError>
    if let known = chosen[key] {
      answer = known
    } else {
      do { answer = .success(try lookUp(family: family, weight: weight)) } catch { answer = .failure(error) }
      chosen[key] = answer
    }
    return try answer.get()
  }

  private func lookUp(family: String?, weight: FontWeight) throws(TypographyError) -> LoadedFont {
    if let family, sceneFonts[family] != nil { return try openSceneFont(family: family) }
    let name = family ?? Self.defaultFamilies.first { !system.faces(ofFamily: $0).isEmpty } ?? Self.defaultFamily
    let candidates = system.faces(ofFamily: name)
    guard let best = system.best(of: candidates, weight: weight.openType) else {
      if family == nil {
        throw TypographyError(
          "the default font families \(Self.defaultFamilies.map { Excerpt.quoted($0) }.joined(separator: " and ")) are not installed (scripts/install-deps installs them: Debian's fonts-inter and fonts-noto-cjk); name a family in `font.family` or list one under `fonts`"
        )
      }
      let available = Array(sceneFonts.keys).sorted() + system.familyNames
      let hint = Suggestions.didYouMean(name, in: available)
      let shown = available.prefix(40).joined(separator: ", ") + (available.count > 40 ? ", and \(available.count - 40) more (fc-list : family)" : "")
      let list = available.isEmpty ? "no fonts are installed" : "available: \(shown)"
      throw TypographyError("unknown font family \(Excerpt.quoted(name))\(hint) (\(list); or list a font file under the scene's `fonts`)")
    }
    let face = system.faces[best]
    return try open(file: face.file, index: face.index)
  }

  /// The colour font that has `scalar` (an emoji), if one is installed.
  public func colorFont(for scalar: Unicode.Scalar) -> LoadedFont? {
    guard let face = system.colorFace(covering: scalar), let font = try? open(file: face.file, index: face.index), font.glyph(for: scalar) != nil
    else { return nil }
    return font
  }

  /// A font that has `scalar`, for a character the chosen font lacks: the
  /// scene's fonts, then the default families in order, then any installed font that
  /// covers it (upright, normal width, weight matched as CSS does); nil when none does.
  public func fallback(for scalar: Unicode.Scalar, weight: FontWeight) -> LoadedFont? {
    let key = FallbackKey(scalar: scalar.value, weight: weight.openType)
    if let cached = fallbacks[key] { return cached }
    var found: LoadedFont?
    for family in sceneFonts.keys.sorted() {
      if let font = try? openSceneFont(family: family), font.glyph(for: scalar) != nil { found = font; break }
    }
    for family in Self.defaultFamilies where found == nil {
      if let font = try? self.font(family: family, weight: weight), font.glyph(for: scalar) != nil { found = font }
    }
    // Emoji in colour, as on iOS, before any monochrome outline of them.
    if found == nil { found = colorFont(for: scalar) }
    if found == nil {
      let covering = system.faces.indices.filter { system.covers($0, scalar) }
      if let best = system.best(of: covering, weight: weight.openType) {
        let face = system.faces[best]
        if let font = try? open(file: face.file, index: face.index), font.glyph(for: scalar) != nil { found = font }
      }
    }
    fallbacks[key] = found
    return found
  }
}

/// A FreeType instance, released when the last face opened with it is.
final class FreeTypeLibrary {
  let handle: FT_Library
  init() {
    var library: FT_Library?
    let error = FT_Init_FreeType(&library)
    precondition(error == 0 && library != nil, "FreeType cannot start (error \(error))")
    handle = library!
  }
  deinit { FT_Done_FreeType(handle) }
}
