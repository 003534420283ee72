import Foundation
import Raster
import TestSupport
import Testing
import VideoOutput

@Suite struct MediaProbeTests {
  /// A hand-made two-frame 4×2 GIF (delays 5/100 s) decodes to its palette
  /// colours exactly, alpha 255.
  @Test func decodesAGIF() throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let path = scratch.path("a.gif")
    let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    let frames: [[UInt8]] = [[0, 1, 2, 3, 3, 2, 1, 0], [3, 3, 3, 3, 0, 0, 1, 1]]
    _ = FileManager.default.createFile(atPath: path, contents: Data(handMadeGIF(width: 4, height: 2, palette: palette, frames: frames, delay: 5)))
    let info = try MediaProbe.info(path: path)
    #expect(info.codec == "gif")
    #expect(info.width == 4 && info.height == 2)
    #expect(info.frameCount == 2)
    let decoded = try MediaProbe.frames(path: path)
    #expect(decoded.count == 2)
    for (pixmap, indices) in zip(decoded, frames) {
      #expect(pixmap.width == 4 && pixmap.height == 2)
      for (k, index) in indices.enumerated() {
        let (r, g, b) = palette[Int(index)]
        #expect(pixmap[k % 4, k / 4] == RGBA8(r: r, g: g, b: b, a: 255), "pixel \(k)")
      }
    }
    #expect(try MediaProbe.frames(path: path, limit: 1).count == 1)
  }

  /// A transparent index comes back as (0, 0, 0, 0): straight and
  /// premultiplied at once.
  @Test func transparentGIFPixelsAreClear() throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let path = scratch.path("t.gif")
    let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    let gif = handMadeGIF(width: 2, height: 2, palette: palette, frames: [[3, 0, 0, 3]], delay: 10, transparent: 3)
    _ = FileManager.default.createFile(atPath: path, contents: Data(gif))
    let frame = try #require(try MediaProbe.frames(path: path).first)
    #expect(frame[1, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
    #expect(frame[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 0))
    #expect(frame[1, 1] == RGBA8(r: 0, g: 0, b: 0, a: 0))
  }
}
