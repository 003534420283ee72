import Foundation
import Raster
import TestSupport
import VideoOutput

/// An opaque pixmap whose colour is `color(x, y)` (straight = premultiplied).
func pixmap(_ width: Int, _ height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Pixmap {
  var p = Pixmap(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      let (r, g, b) = color(x, y)
      p[x, y] = RGBA8(r: r, g: g, b: b, a: 255)
    }
  }
  return p
}

/// Frames with motion in them: a diagonal gradient and a square moving right.
func movingFrames(_ count: Int, width: Int = 160, height: Int = 90) -> [Pixmap] {
  (0..<count).map { i in
    pixmap(width, height) { x, y in
      let inSquare = x >= 2 * i && x < 2 * i + 24 && y >= 30 && y < 54
      if inSquare { return (250, 200, 40) }
      return (UInt8((x * 255) / width), UInt8((y * 255) / height), 128)
    }
  }
}

/// Encodes `frames` with `MP4Writer` through `YUVConverter`.
func encode(_ frames: [Pixmap], to path: String, fps: (num: Int, den: Int) = (60, 1), options: MP4Options = MP4Options()) throws {
  let writer = try MP4Writer(path: path, width: frames[0].width, height: frames[0].height, fps: fps, options: options)
  for frame in frames { try writer.append(YUVConverter.bt709(frame)) }
  try writer.finish()
}

/// The top-level MP4 boxes of a file, in order.
func topLevelBoxes(_ path: String) -> [String] {
  let data = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
  var boxes: [String] = []
  var offset = 0
  while offset + 8 <= data.count {
    var size = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
    boxes.append(String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self))
    if size == 1, offset + 16 <= data.count {
      size = data[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
    }
    guard size >= 8 else { break }
    offset += size
  }
  return boxes
}

/// A minimal animated GIF89a, written by hand so `MediaProbe` can be tested
/// without an encoder: a 4-colour global palette, a loop extension, and per
/// frame a graphic control extension (`delay` in 1/100 s, optional
/// transparent index) and full-size indices. The LZW stream never grows
/// past 3-bit codes: a clear code precedes every pair of pixels.
func handMadeGIF(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], frames: [[UInt8]], delay: Int, transparent: UInt8? = nil) -> [UInt8] {
  precondition(palette.count == 4)
  func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
  var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x91, 0, 0]
  for (r, g, b) in palette { out += [r, g, b] }
  out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
  for indices in frames {
    out += [0x21, 0xF9, 0x04, UInt8(1 << 2) | (transparent == nil ? 0 : 1)] + le16(delay) + [transparent ?? 0, 0]
    out += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0]
    // Codes: 0...3 colours, 4 clear, 5 end; 3 bits each, packed LSB first.
    var codes: [UInt8] = []
    var i = 0
    while i < indices.count {
      codes.append(4)
      codes += indices[i..<min(i + 2, indices.count)]
      i += 2
    }
    codes.append(5)
    var bytes: [UInt8] = [], accumulator = 0, bits = 0
    for code in codes {
      accumulator |= Int(code) << bits; bits += 3
      while bits >= 8 { bytes.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
    }
    if bits > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
    out.append(2)  // LZW minimum code size
    var offset = 0
    while offset < bytes.count {
      let n = min(255, bytes.count - offset)
      out.append(UInt8(n)); out += bytes[offset..<(offset + n)]; offset += n
    }
    out.append(0)
  }
  out.append(0x3B)
  return out
}
