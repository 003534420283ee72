import Foundation
import Lottie
import PNGCodec
import Primitives
import Raster
import Render
import SceneModel
import Syntax
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
  /// Why a font file of the scene is refused, by family.
  let refusedFonts: [String: ResourceError]

  /// - Parameter fonts: the scene's `fonts` (family → file, relative to
  ///   the folder).
  public init(directory: String, fonts: [String: FontFile]) {
    self.directory = directory
    var files: [String: String] = [:]
    var refused: [String: ResourceError] = [:]
    for (family, font) in fonts {
      do throws(ResourceError) { files[family] = try Self.confined(font.file, in: directory) } catch { refused[family] = error }
    }
    refusedFonts = refused
    typesetter = Typesetter(library: FontLibrary(sceneFonts: files))
  }

  /// The path of `file`, named by the scene relative to its folder, if it
  /// stays inside that folder: not absolute, no `..` that leaves it, and
  /// no symbolic link on the way that resolves outside it (docs/scene-format.md).
  static func confined(_ file: String, in directory: String) throws(ResourceError) -> String {
    if file.isEmpty { throw ResourceError("the file name is empty") }
    if file.utf8.contains(0) { throw ResourceError("the file name contains a NUL character") }
    if file.hasPrefix("/") {
      throw ResourceError("\(Excerpt.quoted(file)) is an absolute path; files are named relative to the scene's folder")
    }
    var depth = 0
    for component in file.split(separator: "/") where component != "." {
      depth += component == ".." ? -1 : 1
      if depth < 0 { throw ResourceError("\(Excerpt.quoted(file)) leaves the scene's folder") }
    }
    let path = directory.isEmpty ? file : directory.hasSuffix("/") ? directory + file : directory + "/" + file
    // A file that does not exist is the loader's to report.
    guard let real = realPath(path), let root = realPath(directory.isEmpty ? "." : directory) else { return path }
    guard real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
      throw ResourceError("\(Excerpt.quoted(file)) leads outside the scene's folder through a symbolic link")
    }
    return path
  }

  /// `path` with every symbolic link resolved, if it exists.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// A digest of every file the scene's frames depend on: its bytes (and
  /// the appearance it is drawn in), and each asset's and font's name, file
  /// and bytes (loading checked that each is inside the folder).
  func digest(of scene: Scene, bytes: [UInt8]) -> String {
    var h = SHA256()
    h.update("name \(scene.name)\nappearance \(scene.appearance.rawValue)\nscene \(SHA256.hex(bytes))\n")
    for (name, asset) in scene.assets.sorted(by: { $0.key < $1.key }) {
      h.update("asset \(name) \(asset.file) \(Self.sha256(file: (directory as NSString).appendingPathComponent(asset.file)))\n")
    }
    for (family, font) in scene.fonts.sorted(by: { $0.key < $1.key }) {
      h.update("font \(family) \(font.file) \(Self.sha256(file: (directory as NSString).appendingPathComponent(font.file)))\n")
    }
    return h.hex()
  }

  /// A file's SHA-256, read in chunks of a megabyte; "" when it cannot be read.
  public static func sha256(file path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    var h = SHA256()
    while true {
      let chunk = handle.readData(ofLength: 1 << 20)
      if chunk.isEmpty { break }
      h.update(chunk)
    }
    return h.hex()
  }

  public func pixmap(for asset: Asset, named name: String) throws(ResourceError) -> Pixmap {
    let path = try Self.confined(asset.file, in: directory)
    do {
      return try PNG.read(path: path)
    } catch {
      throw ResourceError(error.description)
    }
  }

  public func checkSceneFont(family: String) throws(ResourceError) {
    if let refused = refusedFonts[family] { throw refused }
    do { _ = try typesetter.library.openSceneFont(family: family) } catch { throw ResourceError(error.message) }
  }

  public func layout(_ text: String, in font: Font, wrapping: TextWrapping) throws(ResourceError) -> TextLayout {
    do {
      return try typesetter.layout(text, family: font.family, weight: font.weight, size: font.size, wrapping: wrapping)
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
  /// `appearance` overrides the file's.
  public init(decoding bytes: [UInt8], file: String, directory: String, defaultName: String, appearance: Appearance? = nil) throws(SceneErrors) {
    let scene = try SceneDecoder.decode(bytes, file: file, defaultName: defaultName, appearance: appearance)
    try self.init(scene, bytes: bytes, file: file, directory: directory)
  }

  /// A decoded scene with the images and fonts it names loaded; `bytes`
  /// are its file's, for the digest.
  init(_ scene: Scene, bytes: [UInt8], file: String, directory: String) throws(SceneErrors) {
    let folder = SceneFolder(directory: directory, fonts: scene.fonts)
    let resources = try SceneResources.load(scene, file: file, images: folder, text: folder)
    self.init(scene: scene, resources: resources, inputDigest: folder.digest(of: scene, bytes: bytes))
  }
}

/// The frame source a file's bytes hold: a Lottie animation (a JSON object
/// with `layers` and `fr`, docs/cli.md "Lottie input") or a scene. The
/// command line and the preview load every file through here.
public enum FrameSources {
  public static func decode(
    _ bytes: [UInt8], file: String, directory: String, defaultName: String, appearance: Appearance? = nil
  ) throws(SceneErrors) -> any FrameSource {
    // A dotLottie archive: its first animation, with its images.
    if DotLottie.isArchive(bytes) {
      let (json, entry, read) = try DotLottie.open(bytes, file: file)
      let animation = try LottieDecoder.decode(json, file: entry)
      let (images, digest) = try LottieImages.load(animation, bytes: bytes, file: entry, read: read)
      return LottieSource(animation: animation, name: defaultName, inputDigest: digest, images: images)
    }
    // Parsed once; a file that is not JSON is reported as a scene.
    guard let root = try? JSONParser.parse(bytes) else {
      return try SceneRenderer(decoding: bytes, file: file, directory: directory, defaultName: defaultName, appearance: appearance)
    }
    if LottieDecoder.isLottie(root) {
      let animation = try LottieDecoder.decode(root, file: file)
      let (images, digest) = try LottieImages.load(animation, bytes: bytes, file: file, read: LottieImages.folder(directory))
      return LottieSource(animation: animation, name: defaultName, inputDigest: digest, images: images)
    }
    let scene = try SceneDecoder.decode(root, file: file, defaultName: defaultName, appearance: appearance)
    return try SceneRenderer(scene, bytes: bytes, file: file, directory: directory)
  }
}
