// A tiny PNG writer for the tests, independent of libpng: chunks with CRC-32,
// a zlib stream of stored (uncompressed) deflate blocks with Adler-32, filter
// type 0 on every row, every colour type and bit depth, optionally Adam7.

enum TinyPNG {
  enum ColorType: UInt8, Sendable {
    case grey = 0
    case rgb = 2
    case palette = 3
    case greyAlpha = 4
    case rgba = 6

    var channels: Int {
      switch self {
      case .grey, .palette: 1
      case .greyAlpha: 2
      case .rgb: 3
      case .rgba: 4
      }
    }
  }

  /// One image: `samples[pixel]` holds the raw channel samples of a pixel at
  /// `depth` bits (a palette index for `.palette`), row-major, top row first.
  struct Image {
    var width: Int
    var height: Int
    var colorType: ColorType
    var depth: Int
    var samples: [[Int]]
    var palette: [[UInt8]] = []
    /// The tRNS chunk's payload, if any.
    var transparency: [UInt8]? = nil
    var interlaced = false
    /// Extra chunks written before IDAT: (type, data).
    var extraChunks: [(String, [UInt8])] = []
  }

  static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    for x in bytes {
      a = (a + UInt32(x)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }

  static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

  /// A zlib stream of stored deflate blocks (at most 65535 bytes each).
  static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]  // deflate, 32K window; (0x78 << 8 | 0x01) % 31 == 0
    var i = 0
    repeat {
      let n = min(65535, data.count - i)
      let final: UInt8 = i + n == data.count ? 1 : 0
      out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
      out += data[i..<(i + n)]
      i += n
    } while i < data.count
    return out + be32(adler32(data))
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(UInt32(data.count)) + body + be32(crc32(body))
  }

  /// Packs samples MSB first (big-endian for 16 bits), padding the last byte.
  static func packRow(_ pixels: [[Int]], depth: Int) -> [UInt8] {
    var out: [UInt8] = []
    var acc = 0, bits = 0
    for pixel in pixels {
      for v in pixel {
        precondition(v >= 0 && v < 1 << depth, "sample out of range")
        switch depth {
        case 16: out += [UInt8(v >> 8), UInt8(v & 0xFF)]
        case 8: out.append(UInt8(v))
        default:
          acc = acc << depth | v
          bits += depth
          if bits == 8 { out.append(UInt8(acc)); acc = 0; bits = 0 }
        }
      }
    }
    if bits > 0 { out.append(UInt8(acc << (8 - bits))) }
    return out
  }

  static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
    (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
  ]

  static func encode(_ image: Image) -> [UInt8] {
    precondition(image.samples.count == image.width * image.height)
    var raw: [UInt8] = []
    func appendRows(xs: StrideTo<Int>, ys: StrideTo<Int>) {
      let columns = Array(xs)
      guard !columns.isEmpty else { return }
      for y in ys {
        raw.append(0)  // filter: none
        raw += packRow(columns.map { image.samples[y * image.width + $0] }, depth: image.depth)
      }
    }
    if image.interlaced {
      for pass in adam7 {
        appendRows(
          xs: stride(from: pass.x, to: image.width, by: pass.dx),
          ys: stride(from: pass.y, to: image.height, by: pass.dy))
      }
    } else {
      appendRows(xs: stride(from: 0, to: image.width, by: 1), ys: stride(from: 0, to: image.height, by: 1))
    }

    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png += chunk(
      "IHDR",
      be32(UInt32(image.width)) + be32(UInt32(image.height))
        + [UInt8(image.depth), image.colorType.rawValue, 0, 0, image.interlaced ? 1 : 0])
    for (type, data) in image.extraChunks { png += chunk(type, data) }
    if image.colorType == .palette { png += chunk("PLTE", image.palette.flatMap { $0 }) }
    if let transparency = image.transparency { png += chunk("tRNS", transparency) }
    png += chunk("IDAT", zlibStored(raw))
    png += chunk("IEND", [])
    return png
  }

  /// The chunks of a PNG file: (type, data), checking every CRC.
  static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8], crcOK: Bool)]? {
    guard png.count >= 8, png[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
    var result: [(type: String, data: [UInt8], crcOK: Bool)] = []
    var i = 8
    func u32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    while i + 12 <= png.count {
      let length = u32(i)
      guard i + 12 + length <= png.count else { return nil }
      let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
      let data = Array(png[(i + 8)..<(i + 8 + length)])
      let crcOK = u32(i + 8 + length) == Int(crc32(png[(i + 4)..<(i + 8 + length)]))
      result.append((type, data, crcOK))
      i += 12 + length
    }
    return i == png.count ? result : nil
  }
}
