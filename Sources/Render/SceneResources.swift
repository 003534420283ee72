import Primitives
import Raster
import SceneModel
import Syntax

/// A problem with a resource a scene uses: a file that cannot be read, an
/// image that cannot be decoded, a font or family that does not exist.
/// `SceneResources.load` locates it in the scene file.
public struct ResourceError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// Where a scene's images come from: the decoded pixels of each asset.
/// The renderer reads no file; whoever loads the scene provides this (from
/// the scene's folder, from memory in tests).
public protocol ImageProvider {
  func pixmap(for asset: Asset, named name: String) throws(ResourceError) -> Pixmap
}

/// Sets texts in fonts: the scene's fonts (`fonts`, family → file) and the
/// system's, as the scene's loader found them.
public protocol TextProvider {
  /// Checks that the font file the scene lists for `family` can be used.
  func checkSceneFont(family: String) throws(ResourceError)
  /// The glyph outlines and measured box of `text` in `font`.
  func layout(_ text: String, in font: Font, wrapping: TextWrapping) throws(ResourceError) -> TextLayout
}

/// A provider for scenes that use no image and no text: every request is an
/// error (a scene that names a resource needs a loader that provides it).
public struct NoResources: ImageProvider, TextProvider {
  public init() {}
  public func pixmap(for asset: Asset, named name: String) throws(ResourceError) -> Pixmap {
    throw ResourceError("no image provider for asset \(Excerpt.quoted(name))")
  }
  public func checkSceneFont(family: String) throws(ResourceError) { throw ResourceError("no font provider for \(Excerpt.quoted(family))") }
  public func layout(_ text: String, in font: Font, wrapping: TextWrapping) throws(ResourceError) -> TextLayout {
    throw ResourceError("no text provider to set \(Excerpt.quoted(text))")
  }
}

/// What a scene draws from files, loaded before rendering begins: its image
/// assets (decoded, with their reductions for filtered sampling) and the
/// layout of every text (fonts resolved, shaped, glyph outlines placed).
///
/// Every problem — a missing, unreadable or corrupt image or font file, a
/// font family that does not exist — is a located error, so a render never
/// starts on a scene it cannot finish.
public struct SceneResources: Sendable {
  /// What determines a text's layout.
  public struct TextKey: Hashable, Sendable {
    public var text: String
    public var family: String?
    public var weight: FontWeight
    public var size: Double
    public var wrapping: TextWrapping

    public init(_ content: TextContent) {
      text = content.text; family = content.font.family; weight = content.font.weight; size = content.font.size
      wrapping = content.wrapping
    }
  }

  /// Asset name → image.
  public var images: [String: SceneImage] = [:]
  public var texts: [TextKey: TextLayout] = [:]
  /// What loaded but will not look as written: characters no font has.
  public var warnings: [SceneDiagnostic] = []

  public init() {}

  /// Loads everything `scene` uses through the providers.
  /// - Parameter file: the scene file's name, for messages.
  public static func load(_ scene: Scene, file: String, images: some ImageProvider, text: some TextProvider) throws(SceneErrors)
    -> SceneResources
  {
    var resources = SceneResources()
    var diagnostics: [SceneDiagnostic] = []
    var reported: Set<SceneDiagnostic> = []
    func report(_ message: String, _ location: SourceLocation, _ path: JSONPath) {
      let d = SceneDiagnostic(file: file, location: location, path: path, message: message)
      if reported.insert(d).inserted { diagnostics.append(d) }
    }

    for (name, asset) in scene.assets.sorted(by: { $0.key < $1.key }) {
      do {
        resources.images[name] = SceneImage(pixmap: try images.pixmap(for: asset, named: name), scale: asset.scale)
      } catch {
        report("cannot load asset \(Excerpt.quoted(name)): \(error.message)", asset.location, asset.path)
      }
    }

    var textContents: [TextContent] = []
    var byID: [String: TextContent] = [:]
    func collect(_ layers: [Layer]) {
      for layer in layers {
        if let content = layer.text {
          textContents.append(content)
          if let id = layer.id { byID[id] = content }
        }
        collect(layer.children)
      }
    }
    collect(scene.layers)
    for event in scene.timeline { collect(event.insert.map(\.layer)) }
    // Every text a layer's events change it to, set in its font.
    for event in scene.timeline {
      for (id, text) in event.textChanges { if let content = byID[id] { textContents.append(content.showing(text)) } }
    }

    var badFamilies: Set<String> = []
    for (family, font) in scene.fonts.sorted(by: { $0.key < $1.key }) {
      do {
        try text.checkSceneFont(family: family)
      } catch {
        badFamilies.insert(family)
        report("cannot load the font of \(Excerpt.quoted(family)): \(error.message)", font.location, font.path)
      }
    }
    for content in textContents {
      let key = TextKey(content)
      guard resources.texts[key] == nil else { continue }
      if let family = key.family, badFamilies.contains(family) { continue }
      do {
        let layout = try text.layout(content.text, in: content.font, wrapping: content.wrapping)
        resources.texts[key] = layout
        // A few by name, then how many more.
        let named = 10
        if layout.missing.count > named {
          resources.warnings.append(
            SceneDiagnostic(
              file: file, location: content.font.location, path: content.font.path,
              message: "\(layout.missing.count - named) more characters no installed font has draw as missing-glyph boxes"))
        }
        for c in layout.missing.prefix(named) {
          let hex = String(c.value, radix: 16, uppercase: true)
          let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
          resources.warnings.append(
            SceneDiagnostic(
              file: file, location: content.font.location, path: content.font.path,
              message:
                "no installed font has \(Excerpt.quoted(String(c))) (\(code)): it draws as a missing-glyph box; list a font that has it under \"fonts\""
            ))
        }
      } catch {
        report(error.message, content.font.location, content.font.path)
      }
    }
    if !diagnostics.isEmpty {
      throw SceneErrors(diagnostics: diagnostics)
    }
    return resources
  }
}

/// A decoded image asset and its reductions, shared by every frame.
public struct SceneImage: Sendable {
  public let pyramid: ImagePyramid
  /// Pixels per point (2 for an @2x file).
  public let scale: Double

  public init(pixmap: Pixmap, scale: Double) {
    pyramid = ImagePyramid(pixmap)
    self.scale = scale
  }

  public var pixelWidth: Int { pyramid.levels[0].width }
  public var pixelHeight: Int { pyramid.levels[0].height }
  /// Intrinsic size in points: pixels over the asset's scale.
  public var size: Vector2 { Vector2(Double(pixelWidth) / scale, Double(pixelHeight) / scale) }
}
