import Foundation
import Lottie
import PNGCodec
import Primitives
import Raster
import Render
import SceneModel
import Syntax
import VideoOutput

/// A Lottie animation's image assets read and decoded: data URIs from the
/// file itself, other images from beside it (in its folder, as a scene's
/// assets are) or from the dotLottie archive that holds it. Any problem is
/// a located error at the asset's `p`.
enum LottieImages {
  /// Bytes of an image file named relative to the animation (a folder's
  /// file, or an archive's entry).
  typealias Reader = (String) throws(ResourceError) -> [UInt8]

  /// The decoded images by id, and a digest of everything the frames
  /// depend on.
  static func load(
    _ animation: LottieAnimation, bytes: [UInt8], file: String, read: Reader
  ) throws(SceneErrors) -> (images: [String: ImagePyramid], digest: String) {
    var images: [String: ImagePyramid] = [:]
    var errors: [SceneDiagnostic] = []
    var digest = SHA256()
    digest.update("lottie \(SHA256.hex(bytes))\n")
    // Only the images a layer shows are read.
    var used = Set<String>()
    func collect(_ layers: [LottieLayer]) { for l in layers where l.type == 2 { if let r = l.reference { used.insert(r) } } }
    collect(animation.layers)
    for layers in animation.precomps.values { collect(layers) }
    for (id, asset) in animation.images.sorted(by: { $0.key < $1.key }) where used.contains(id) {
      func fail(_ message: String) { errors.append(SceneDiagnostic(file: file, location: asset.location, path: asset.path, message: message)) }
      let data: [UInt8]
      if let uri = asset.dataURI {
        guard let comma = uri.firstIndex(of: ","), uri[..<comma].hasSuffix(";base64"),
          let decoded = Data(base64Encoded: String(uri[uri.index(after: comma)...]), options: .ignoreUnknownCharacters)
        else {
          fail("the image's data URI is not base64 data ('data:image/png;base64,…')")
          continue
        }
        data = [UInt8](decoded)
      } else if let name = asset.file {
        // Exports write the folder as "images/" or "/images/": both
        // relative to the animation.
        var relative = Substring(name)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        do throws(ResourceError) {
          data = try read(String(relative))
        } catch {
          fail("cannot read the image \(Excerpt.quoted(name)): \(error.message)")
          continue
        }
      } else {
        continue
      }
      let name = asset.file ?? "data URI"
      if data.starts(with: [0xFF, 0xD8, 0xFF]) {
        do throws(VideoError) {
          images[id] = ImagePyramid(try JPEGDecoder.decode(data, name: name))
        } catch {
          fail("the JPEG picture cannot be read: \(error.message)")
          continue
        }
      } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
        do {
          images[id] = ImagePyramid(try PNG.decode(data, name: name))
        } catch {
          fail("the PNG image cannot be read: \(error.description)")
          continue
        }
      } else {
        fail("the image is neither PNG nor JPEG")
        continue
      }
      digest.update("image \(id) \(SHA256.hex(data))\n")
    }
    if !errors.isEmpty { throw SceneErrors(diagnostics: errors) }
    return (images, digest.hex())
  }

  /// Images from the animation's folder, each kept inside it.
  static func folder(_ directory: String) -> Reader {
    { (name: String) throws(ResourceError) -> [UInt8] in
      let path = try SceneFolder.confined(name, in: directory)
      guard let data = FileManager.default.contents(atPath: path) else { throw ResourceError("no such file") }
      return [UInt8](data)
    }
  }
}
