// An independent GIF89a decoder, written from the GIF89a specification
// (W3C/CompuServe, 1990): blocks and sub-blocks, the variable-length LZW of
// Appendix F, interlacing, transparency and the four disposal methods. It
// shares no code with GIFOutput, so the GIF tests and `gif-compare` check
// our encoder against the format, not against itself.

public struct GIFDecodeError: Error, CustomStringConvertible {
  public var description: String
  init(_ d: String) { description = d }
}

public struct DecodedGIF {
  public struct Image {
    public var left = 0, top = 0, width = 0, height = 0
    public var delay = 0
    public var disposal = 0
    public var transparentIndex: Int?
    public var indices: [UInt8] = []
  }
  public var width = 0, height = 0
  var globalTable: [[UInt8]] = []
  public var backgroundIndex = 0
  /// NETSCAPE2.0 loop count (0 = forever), nil without the extension.
  public var loopCount: Int?
  public var images: [Image] = []
  /// The canvas after each image, straight RGBA (alpha 0 or 255); the canvas
  /// starts transparent and disposal 2 clears to transparent, as browsers do.
  public var canvases: [[UInt8]] = []
  /// Clear codes seen in all LZW streams (the one at the start included).
  public var clearCodes = 0

  public var totalDelay: Int { images.reduce(0) { $0 + $1.delay } }
}

struct GIFReader {
  let data: [UInt8]
  var pos = 0
  init(_ data: [UInt8]) { self.data = data }

  mutating func byte() throws -> Int {
    guard pos < data.count else { throw GIFDecodeError("unexpected end of file at \(pos)") }
    defer { pos += 1 }
    return Int(data[pos])
  }
  mutating func u16() throws -> Int { let lo = try byte(); return lo | (try byte()) << 8 }
  mutating func bytes(_ n: Int) throws -> [UInt8] {
    guard pos + n <= data.count else { throw GIFDecodeError("unexpected end of file at \(pos)") }
    defer { pos += n }
    return Array(data[pos..<(pos + n)])
  }
  mutating func subBlocks() throws -> [UInt8] {
    var out = [UInt8]()
    while true {
      let n = try byte()
      if n == 0 { return out }
      out += try bytes(n)
    }
  }
  mutating func colorTable(_ size: Int) throws -> [[UInt8]] {
    try (0..<size).map { _ in try bytes(3) }
  }
}

public func decodeGIF(_ data: [UInt8]) throws -> DecodedGIF {
  var r = GIFReader(data)
  let signature = String(decoding: try r.bytes(6), as: UTF8.self)
  guard signature == "GIF89a" || signature == "GIF87a" else { throw GIFDecodeError("not a GIF: \(signature)") }
  var gif = DecodedGIF()
  gif.width = try r.u16()
  gif.height = try r.u16()
  let packed = try r.byte()
  gif.backgroundIndex = try r.byte()
  _ = try r.byte()
  if packed & 0x80 != 0 { gif.globalTable = try r.colorTable(1 << ((packed & 7) + 1)) }

  var canvas = [UInt8](repeating: 0, count: gif.width * gif.height * 4)
  var control: (delay: Int, disposal: Int, transparent: Int?) = (0, 0, nil)
  loop: while true {
    let introducer = try r.byte()
    switch introducer {
    case 0x21:
      let label = try r.byte()
      if label == 0xF9 {
        guard try r.byte() == 4 else { throw GIFDecodeError("bad graphic control extension size") }
        let p = try r.byte()
        let delay = try r.u16()
        let t = try r.byte()
        guard try r.byte() == 0 else { throw GIFDecodeError("graphic control extension not terminated") }
        control = (delay, (p >> 2) & 7, p & 1 != 0 ? t : nil)
      } else if label == 0xFF {
        let size = try r.byte()
        let ident = String(decoding: try r.bytes(size), as: UTF8.self)
        let payload = try r.subBlocks()
        if ident == "NETSCAPE2.0" && payload.count == 3 && payload[0] == 1 {
          gif.loopCount = Int(payload[1]) | Int(payload[2]) << 8
        }
      } else {
        _ = try r.subBlocks()
      }
    case 0x2C:
      var image = DecodedGIF.Image()
      image.left = try r.u16(); image.top = try r.u16()
      image.width = try r.u16(); image.height = try r.u16()
      let p = try r.byte()
      var table = gif.globalTable
      if p & 0x80 != 0 { table = try r.colorTable(1 << ((p & 7) + 1)) }
      let interlaced = p & 0x40 != 0
      let minCodeSize = try r.byte()
      let stream = try r.subBlocks()
      var clears = 0
      var pixels = try lzwDecode(stream, minCodeSize: minCodeSize, clearCodes: &clears)
      gif.clearCodes += clears
      let count = image.width * image.height
      guard pixels.count == count else { throw GIFDecodeError("image data has \(pixels.count) pixels, not \(count)") }
      if interlaced {
        var rows = [Int]()
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { rows += Array(stride(from: start, to: image.height, by: step)) }
        var fixed = pixels
        for (k, y) in rows.enumerated() {
          fixed[(y * image.width)..<((y + 1) * image.width)] = pixels[(k * image.width)..<((k + 1) * image.width)]
        }
        pixels = fixed
      }
      image.indices = pixels
      image.delay = control.delay
      image.disposal = control.disposal
      image.transparentIndex = control.transparent
      let saved = canvas
      for y in 0..<image.height {
        for x in 0..<image.width {
          let cx = image.left + x, cy = image.top + y
          guard cx < gif.width, cy < gif.height else { continue }
          let index = Int(pixels[y * image.width + x])
          if index == control.transparent { continue }
          guard index < table.count else { throw GIFDecodeError("index \(index) outside the colour table") }
          let o = 4 * (cy * gif.width + cx)
          canvas[o] = table[index][0]; canvas[o + 1] = table[index][1]; canvas[o + 2] = table[index][2]; canvas[o + 3] = 255
        }
      }
      gif.canvases.append(canvas)
      gif.images.append(image)
      switch control.disposal {
      case 2:
        for y in image.top..<min(gif.height, image.top + image.height) {
          for x in image.left..<min(gif.width, image.left + image.width) {
            for c in 0..<4 { canvas[4 * (y * gif.width + x) + c] = 0 }
          }
        }
      case 3: canvas = saved
      default: break
      }
      control = (0, 0, nil)
    case 0x3B:
      break loop
    default:
      throw GIFDecodeError("unknown block 0x\(String(introducer, radix: 16)) at \(r.pos - 1)")
    }
  }
  return gif
}

/// Appendix F: codes of `minCodeSize + 1` bits growing to 12, LSB first; a
/// clear code resets the table, the end code stops.
public func lzwDecode(_ stream: [UInt8], minCodeSize: Int, clearCodes: inout Int) throws -> [UInt8] {
  let clear = 1 << minCodeSize, end = clear + 1
  var prefix = [Int](repeating: -1, count: 4096)
  var suffix = [UInt8](repeating: 0, count: 4096)
  var length = [Int](repeating: 1, count: 4096)
  for i in 0..<clear { suffix[i] = UInt8(i) }
  var size = minCodeSize + 1
  var next = clear + 2
  var old = -1
  var out = [UInt8]()
  var bitPos = 0
  func string(_ code: Int) -> [UInt8] {
    var s = [UInt8](repeating: 0, count: length[code])
    var c = code
    var i = length[code] - 1
    while c >= 0 && i >= 0 { s[i] = suffix[c]; c = prefix[c]; i -= 1 }
    return s
  }
  while true {
    guard bitPos + size <= stream.count * 8 else { throw GIFDecodeError("LZW stream ended without an end code") }
    var code = 0
    for b in 0..<size {
      let bit = (Int(stream[(bitPos + b) >> 3]) >> ((bitPos + b) & 7)) & 1
      code |= bit << b
    }
    bitPos += size
    if code == clear {
      clearCodes += 1
      size = minCodeSize + 1; next = clear + 2; old = -1
      continue
    }
    if code == end { break }
    if old < 0 {
      guard code < clear else { throw GIFDecodeError("first code \(code) is not a literal") }
      out.append(UInt8(code))
      old = code
      continue
    }
    let entry: [UInt8]
    if code < next {
      entry = string(code)
    } else if code == next {
      let s = string(old)
      entry = s + [s[0]]
    } else {
      throw GIFDecodeError("code \(code) beyond the table (\(next))")
    }
    out += entry
    if next < 4096 {
      prefix[next] = old; suffix[next] = entry[0]; length[next] = length[old] + 1
      next += 1
      if next == 1 << size && size < 12 { size += 1 }
    }
    old = code
  }
  return out
}

extension DecodedGIF {
  /// The canvas on screen `time` hundredths of a second after the start (an
  /// image shows from the sum of the delays before it).
  public func canvas(atHundredths time: Int) -> [UInt8] {
    var start = 0, shown = 0
    for (k, image) in images.enumerated() {
      if start > time { break }
      shown = k
      start += image.delay
    }
    return canvases[shown]
  }
}
