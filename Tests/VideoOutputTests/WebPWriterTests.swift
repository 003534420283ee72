import Foundation
import Raster
import TestSupport
import Testing
import VideoOutput

/// libwebp's second thread changes when a frame is encoded, never what:
/// lossy and lossless files, opaque and translucent, are the same bytes
/// with it and without it, so `WebPOptions.threaded` keeps outputs
/// deterministic.
@Suite struct WebPWriterTests {
  /// The moving frames at 320 × 180, with alpha falling off to the right
  /// when `translucent` (so the lossy encoder's alpha plane is made too).
  static func frames(translucent: Bool) -> [Pixmap] {
    movingFrames(8, width: 320, height: 180).map { frame in
      guard translucent else { return frame }
      var p = frame
      for y in 0..<p.height {
        for x in 0..<p.width {
          let c = p[x, y], a = 255 - x * 200 / p.width
          p[x, y] = RGBA8(r: UInt8(Int(c.r) * a / 255), g: UInt8(Int(c.g) * a / 255), b: UInt8(Int(c.b) * a / 255), a: UInt8(a))
        }
      }
      return p
    }
  }

  static func encode(_ frames: [Pixmap], to path: String, options: WebPOptions) throws -> [UInt8] {
    let writer = try WebPWriter(path: path, width: frames[0].width, height: frames[0].height, options: options)
    for (i, frame) in frames.enumerated() { try writer.append(straight: frame.straightened(), milliseconds: 40 * i) }
    try writer.finish(endingAt: 40 * frames.count)
    return [UInt8](try #require(FileManager.default.contents(atPath: path)))
  }

  @Test(arguments: [nil, 75.0], [false, true])
  func theSecondThreadChangesNoByte(quality: Double?, translucent: Bool) throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let frames = Self.frames(translucent: translucent)
    let threaded = try Self.encode(frames, to: scratch.path("a.webp"), options: WebPOptions(quality: quality, threaded: true))
    let single = try Self.encode(frames, to: scratch.path("b.webp"), options: WebPOptions(quality: quality, threaded: false))
    #expect(Array(threaded.prefix(4)) == Array("RIFF".utf8) && Array(threaded[8..<12]) == Array("WEBP".utf8))
    #expect(threaded == single)
  }
}
