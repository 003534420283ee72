import PNGCodec
import Primitives
import Raster
import SceneModel
import Syntax
import Typography

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
    public var weight: String
    public var size: Double
  }

  /// Asset name → image.
  public var images: [String: SceneImage] = [:]
  public var texts: [TextKey: TextLayout] = [:]

  public init() {}

  static func key(_ layer: Layer) -> TextKey? {
    guard layer.type == .text, let text = layer.text, let font = layer.font else { return nil }
    return TextKey(text: text, family: font.family, weight: font.weight, size: font.size)
  }

  /// Loads everything `scene` uses. Relative file names resolve against
  /// `directory` (the scene file's folder; "" for the working directory).
  /// - Parameter file: the scene file's name, for messages.
  public static func load(_ scene: Scene, directory: String, file: String) throws(SceneErrors) -> SceneResources {
    var resources = SceneResources()
    var diagnostics: [SceneDiagnostic] = []
    func report(_ message: String, _ location: SourceLocation, _ path: JSONPath) {
      let d = SceneDiagnostic(file: file, location: location, path: path, message: message)
      if !diagnostics.contains(d) { diagnostics.append(d) }
    }

    for (name, asset) in scene.assets.sorted(by: { $0.key < $1.key }) {
      let path = resolve(asset.file, in: directory)
      do {
        let pixmap = try PNGCodec.read(path: path)
        resources.images[name] = SceneImage(pixmap: pixmap, scale: asset.scale)
      } catch {
        report("cannot load asset '\(name)': \(error.description)", asset.location, asset.path)
      }
    }

    var textLayers: [Layer] = []
    func collect(_ layers: [Layer]) {
      for layer in layers {
        if layer.type == .text { textLayers.append(layer) }
        collect(layer.children)
      }
    }
    collect(scene.layers)
    for event in scene.timeline { collect(event.insert.map(\.layer)) }

    if !textLayers.isEmpty || !scene.fonts.isEmpty {
      let library = FontLibrary(sceneFonts: scene.fonts.mapValues { resolve($0.file, in: directory) })
      var badFamilies: Set<String> = []
      for (family, font) in scene.fonts.sorted(by: { $0.key < $1.key }) {
        do {
          _ = try library.openSceneFont(family: family)
        } catch {
          badFamilies.insert(family)
          report("cannot load the font of '\(family)': \(error.message)", font.location, font.path)
        }
      }
      let typesetter = Typesetter(library: library)
      for layer in textLayers {
        guard let key = key(layer), let font = layer.font, resources.texts[key] == nil else { continue }
        if let family = key.family, badFamilies.contains(family) { continue }
        // The decoder accepts only SwiftUI's weight names, which are FontWeight's.
        let weight = FontWeight(rawValue: key.weight) ?? .regular
        do {
          resources.texts[key] = try typesetter.layout(key.text, family: key.family, weight: weight, size: key.size)
        } catch {
          report(error.message, font.location, font.path)
        }
      }
    }
    if !diagnostics.isEmpty {
      throw SceneErrors(diagnostics: diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) })
    }
    return resources
  }

  /// `file` against `directory`, unless absolute.
  static func resolve(_ file: String, in directory: String) -> String {
    if file.hasPrefix("/") || directory.isEmpty { return file }
    return directory.hasSuffix("/") ? directory + file : directory + "/" + file
  }
}

extension SceneRenderer {
  /// A scene file's bytes decoded and validated, with the images and fonts
  /// it names loaded from `directory` (the scene file's folder): every
  /// problem in the file or its resources as located errors.
  public init(decoding bytes: [UInt8], file: String, directory: String, defaultName: String) throws(SceneErrors) {
    let scene = try SceneDecoder.decode(bytes, file: file, defaultName: defaultName)
    self.init(scene: scene, resources: try SceneResources.load(scene, directory: directory, file: file))
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
