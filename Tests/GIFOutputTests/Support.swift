import Foundation
import GIFOutput
import Raster
import TestSupport

func pixmap(_ w: Int, _ h: Int, _ f: (Int, Int) -> RGBA8) -> Pixmap {
  var p = Pixmap(width: w, height: h)
  for y in 0..<h { for x in 0..<w { p[x, y] = f(x, y) } }
  return p
}

func rgb(_ r: Int, _ g: Int, _ b: Int) -> RGBA8 { RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255) }

func temporaryPath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("gifoutput-\(UUID().uuidString)-\(name)").path
}

/// Writes the frames with GIFWriter and decodes the file with the tests' own decoder.
func writeAndDecode(_ frames: [IndexedFrame], delays: [Int], palette: GIFPalette) throws -> (bytes: [UInt8], gif: DecodedGIF) {
  let path = temporaryPath("t.gif")
  defer { try? FileManager.default.removeItem(atPath: path) }
  let writer = try GIFWriter(path: path, width: frames[0].width, height: frames[0].height, palette: palette)
  for (f, d) in zip(frames, delays) { try writer.append(f, delay: d) }
  try writer.finish()
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  return (bytes, try decodeGIF(bytes))
}

/// The decoded canvas shown at the start of each source frame (identical
/// frames may be merged into one image with the summed delay).
func canvasesAtFrames(_ gif: DecodedGIF, delays: [Int]) -> [[UInt8]] {
  var time = 0
  return delays.map { d in
    defer { time += d }
    return gif.canvas(atHundredths: time)
  }
}

/// The straight RGBA a frame of indices should show.
func expectedRGBA(_ frame: IndexedFrame, _ palette: GIFPalette) -> [UInt8] {
  var out = [UInt8]()
  out.reserveCapacity(frame.indices.count * 4)
  for i in frame.indices {
    if Int(i) == palette.transparentIndex { out += [0, 0, 0, 0]; continue }
    let c = palette.colors[Int(i)]
    out += [c.r, c.g, c.b, 255]
  }
  return out
}
