import Foundation
import PNGCodec
import Primitives
import Raster
import Render
import SceneFiles
import SceneModel
import Testing

/// A Lottie animation's images as the command line loads them
/// (FrameSources): embedded JPEG and PNG data URIs, files beside the
/// animation, and the errors of the ones that cannot be read or lie
/// outside its folder.
@Suite struct LottieImageFileTests {
  /// A 16 × 16 JPEG of #3366CC (ffmpeg's lavfi colour source, yuvj420p).
  static let blueJPEG =
    "data:image/jpeg;base64,/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgHBwcGBgcHCAgICAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABLAAEBAAAAAAAAAAAAAAAAAAAABQEBAAAAAAAAAAAAAAAAAAAABhABAAAAAAAAAAAAAAAAAAAAABEBAAAAAAAAAAAAAAAAAAAAAP/AABEIABAAEAMBIgACEQADEQD/2gAMAwEAAhEDEQA/AIIB2Ov/2Q=="

  static func animation(_ asset: String) -> String {
    """
    {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 32, "h": 32,
     "assets": [{"id": "im", "w": 32, "h": 32, \(asset)}],
     "layers": [{"ty": 2, "refId": "im", "ip": 0, "op": 30, "ks": {}}]}
    """
  }

  static func folder() throws -> String {
    let path = NSTemporaryDirectory() + "springframe-lottie-images-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path + "/images", withIntermediateDirectories: true)
    return path
  }

  static func load(_ text: String, in folder: String) throws(SceneErrors) -> any FrameSource {
    try FrameSources.decode(Array(text.utf8), file: "anim.json", directory: folder, defaultName: "anim")
  }

  @Test func anEmbeddedJPEGIsDecoded() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let frame = try Self.load(Self.animation("\"u\": \"\", \"p\": \"\(Self.blueJPEG)\", \"e\": 1"), in: folder).render(at: 0)
    let middle = Array(frame.bytes[(4 * (16 * 32 + 16))..<(4 * (16 * 32 + 16) + 4)])
    // #3366CC after JPEG's quantisation: within 3 levels (FFmpeg's own decoder gives 32 65 CA).
    for (got, want) in zip(middle, [0x33, 0x66, 0xCC, 0xFF]) { #expect(abs(Int(got) - want) <= 3, "\(middle)") }
  }

  @Test(arguments: ["images/", "/images/"])
  func aPNGBesideTheFileIsRead(_ folderName: String) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let pixels = Pixmap(width: 2, height: 2, bytes: [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255])
    try PNG.write(pixels, to: folder + "/images/im.png")
    let source = try Self.load(Self.animation("\"u\": \"\(folderName)\", \"p\": \"im.png\", \"e\": 0"), in: folder)
    let frame = try source.render(at: 0)
    #expect(Array(frame.bytes[(4 * (2 * 32 + 2))..<(4 * (2 * 32 + 2) + 4)]) == [255, 0, 0, 255])  // top half red
    #expect(Array(frame.bytes[(4 * (29 * 32 + 2))..<(4 * (29 * 32 + 2) + 4)]) == [0, 0, 255, 255])  // bottom half blue
    // The image's bytes are part of what the frames depend on.
    try PNG.write(Pixmap(width: 2, height: 2, bytes: [UInt8](repeating: 255, count: 16)), to: folder + "/images/im.png")
    #expect(try Self.load(Self.animation("\"u\": \"\(folderName)\", \"p\": \"im.png\", \"e\": 0"), in: folder).inputDigest != source.inputDigest)
  }

  @Test(arguments: [
    ("\"u\": \"../\", \"p\": \"im.png\", \"e\": 0", "leaves the scene's folder"),
    ("\"u\": \"images/\", \"p\": \"none.png\", \"e\": 0", "cannot read the image 'images/none.png'"),
    ("\"u\": \"\", \"p\": \"data:image/png;base64,iVBORw0KGgo=\", \"e\": 1", "the PNG image cannot be read"),
    ("\"u\": \"\", \"p\": \"data:image/gif;base64,R0lGODlh\", \"e\": 1", "the image is neither PNG nor JPEG"),
    ("\"u\": \"\", \"p\": \"data:image/png,plain\", \"e\": 1", "is not base64 data"),
  ])
  func unreadableImagesAreLocated(_ asset: String, _ message: String) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
      _ = try Self.load(Self.animation(asset), in: folder)
      Issue.record("no error for \(asset)")
    } catch {
      let text = error.description
      #expect(text.hasPrefix("anim.json:2:") && text.contains("error: assets[0].p: ") && text.contains(message), "\(text)")
    }
  }
}
