import PNGCodec
import Primitives
import Raster
import Render
import SceneModel
import Typography

/// The files a scene names, read from the scene file's folder: its image
/// assets (PNG) and its fonts (TTF/OTF/TTC, then the system's through
/// fontconfig). The renderer reads no file; this is what hands it the
/// images and the texts' layouts.
public final class SceneFolder: ImageProvider, TextProvider {
  /// The scene file's folder; "" for the working directory (so that
  /// messages keep the paths as given).
  public let directory: String
  let typesetter: Typesetter

  /// - Parameter fonts: the scene's `fonts` (family → file, relative to
  ///   the folder).
  public init(directory: String, fonts: [String: FontFile]) {
    self.directory = directory
    let directory = directory
    typesetter = Typesetter(library: FontLibrary(sceneFonts: fonts.mapValues { Self.resolve($0.file, in: directory) }))
  }

  /// `file` against `directory`, unless absolute.
  static func resolve(_ file: String, in directory: String) -> String {
    if file.hasPrefix("/") || directory.isEmpty { return file }
    return directory.hasSuffix("/") ? directory + file : directory + "/" + file
  }

  public func pixmap(for asset: Asset, named name: String) throws(ResourceError) -> Pixmap {
    do {
      return try PNG.read(path: Self.resolve(asset.file, in: directory))
    } catch {
      throw ResourceError(error.description)
    }
  }

  public func checkSceneFont(family: String) throws(ResourceError) {
    do { _ = try typesetter.library.openSceneFont(family: family) } catch { throw ResourceError(error.message) }
  }

  public func layout(_ text: String, in font: Font) throws(ResourceError) -> TextLayout {
    do {
      return try typesetter.layout(text, family: font.family, weight: font.weight, size: font.size)
    } catch {
      throw ResourceError(error.message)
    }
  }
}

extension SceneRenderer {
  /// A scene file's bytes decoded and validated, with the images and fonts
  /// it names loaded from `directory` (the scene file's folder; "" for the
  /// working directory): every problem in the file or its resources as
  /// located errors.
  public init(decoding bytes: [UInt8], file: String, directory: String, defaultName: String) throws(SceneErrors) {
    let scene = try SceneDecoder.decode(bytes, file: file, defaultName: defaultName)
    let folder = SceneFolder(directory: directory, fonts: scene.fonts)
    self.init(scene: scene, resources: try SceneResources.load(scene, file: file, images: folder, text: folder))
  }
}
