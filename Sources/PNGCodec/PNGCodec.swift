import CPNG
import CPNGShim
import Primitives
import Raster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A PNG that could not be read, decoded, encoded or written.
public typealias PNGError = FileError

/// PNG in and out, on libpng.
///
/// Reading accepts every PNG colour type and bit depth (grey 1/2/4/8/16,
/// grey+alpha 8/16, RGB 8/16, RGBA 8/16, palette 1/2/4/8 with or without
/// tRNS, grey/RGB with a tRNS key, interlaced or not) and returns a `Pixmap`:
/// premultiplied sRGB RGBA8. Sub-byte grey is scaled exactly (a 4-bit v reads
/// as 17v), a 16-bit sample v reads as round(v / 257), and then colour c with
/// alpha a becomes round(c · a / 255). A 16-bit file without colour-space
/// chunks is taken to be sRGB-encoded like an 8-bit one (libpng would assume
/// linear); a file that declares another gamma (gAMA) is converted to sRGB.
///
/// Writing produces an 8-bit sRGB PNG (sRGB chunk, perceptual intent, plus the
/// matching gAMA and cHRM), RGB when every pixel is opaque and RGBA otherwise.
/// It is lossless: colours are unpremultiplied as round(c · 255 / a), which
/// reading premultiplies back to exactly the same bytes.
///
/// libpng's setjmp/longjmp error handling never crosses a Swift frame: reading
/// uses the simplified `png_image_*` API (which catches its own errors) and
/// writing goes through `CPNGShim`, whose C functions hold the setjmp. One
/// exception on reading: Adam7-interlaced 16-bit files, which the simplified
/// API of Debian 12's libpng decodes wrongly (libpng issue #853), are read by
/// the shim with the same transformations through the full API.
public enum PNG {
  /// How hard `encode` compresses. Every setting is lossless.
  public struct Options: Sendable, Hashable {
    /// The PNG row filter, the same for every row (or chosen per row by libpng
    /// with `.adaptive`).
    public enum Filter: Sendable, Hashable, CaseIterable { case none, sub, up, average, paeth, adaptive }
    /// The zlib strategy.
    public enum Strategy: Sendable, Hashable, CaseIterable { case `default`, filtered, rle, huffmanOnly }

    /// The zlib level, 0 (store) through 9 (smallest).
    public var compressionLevel: Int
    public var filter: Filter
    public var strategy: Strategy

    public init(compressionLevel: Int, filter: Filter, strategy: Strategy) {
      self.compressionLevel = compressionLevel
      self.filter = filter
      self.strategy = strategy
    }

    /// The default, for rendering frames: zlib level 1, no filter, default
    /// strategy. UI frames (flat fills, gradients, anti-aliased edges, text)
    /// repeat exactly along rows and down columns, which level 1's matcher
    /// finds fastest unfiltered; filters and Z_RLE measured slower or larger.
    /// About 12 ms and 170 KB for an opaque 1920×1080 UI frame on one core.
    public static let fast = Options(compressionLevel: 1, filter: .none, strategy: .default)
    /// Smaller files (about 20% smaller for UI frames), about 5× slower:
    /// libpng's adaptive filtering with zlib level 6.
    public static let compact = Options(compressionLevel: 6, filter: .adaptive, strategy: .default)
    /// No compression (zlib level 0, stored blocks): about 5× faster than
    /// `fast` and 6× larger, for frames that only cross the loopback
    /// interface (the live preview's), where the encoder's time is the wait.
    public static let stored = Options(compressionLevel: 0, filter: .none, strategy: .default)
  }

  /// The largest image `decode` accepts, in pixels (1 GiB of RGBA8). libpng
  /// itself also rejects widths or heights above 1,000,000.
  public static let maxPixelCount = 1 << 28

  /// Decodes a PNG held in memory. `name` is what errors call it.
  public static func decode(_ data: [UInt8], name: String) throws(PNGError) -> Pixmap {
    if let problem = truncatedChunk(data) { throw PNGError(path: name, message: problem) }
    return try data.withUnsafeBufferPointer { decode($0, name: name) }.get()
  }

  /// Why the chunks of `data` do not fit in it, if they do not. libpng
  /// allocates (and zeroes) what a text chunk's length claims before it
  /// finds the data missing: 2 GB for a 41-byte file. Each chunk is its
  /// length (4 bytes, big-endian, below 2³¹), type (4), data and CRC (4).
  static func truncatedChunk(_ data: [UInt8]) -> String? {
    // Anything else is libpng's to name ("not a PNG").
    guard data.starts(with: [137, 80, 78, 71, 13, 10, 26, 10]) else { return nil }
    var offset = 8
    while offset + 8 <= data.count {
      let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard length < 1 << 31 else { return "a chunk claims \(length) bytes, more than PNG allows" }
      let end = offset + 12 + length
      guard end <= data.count else {
        return "the file is truncated: a chunk of \(length) bytes at offset \(offset) runs past its end (\(data.count) bytes)"
      }
      let type = data[offset + 4..<offset + 8]
      if type.elementsEqual("IEND".utf8) { return nil }
      offset = end
    }
    return nil
  }

  /// Reads and decodes the PNG file at `path`.
  public static func read(path: String) throws(PNGError) -> Pixmap {
    let data = try readFile(path).get()
    return try decode(data, name: path)
  }

  /// Encodes `pixmap` as PNG bytes. `name` is what errors call the image.
  public static func encode(_ pixmap: Pixmap, options: Options = .fast, name: String = "<memory>") throws(PNGError) -> [UInt8] {
    func failure(_ message: String) -> PNGError { PNGError(path: name, message: message) }
    guard pixmap.bytes.count == pixmap.width * pixmap.height * 4 else {
      throw failure("pixmap has \(pixmap.bytes.count) bytes for \(pixmap.width)×\(pixmap.height) pixels")
    }
    guard pixmap.width > 0, pixmap.height > 0 else {
      throw failure("cannot encode an empty \(pixmap.width)×\(pixmap.height) image")
    }
    guard pixmap.width <= Int(Int32.max), pixmap.height <= Int(Int32.max) else {
      throw failure("image too large for PNG (\(pixmap.width)×\(pixmap.height))")
    }
    guard (0...9).contains(options.compressionLevel) else {
      throw failure("compression level \(options.compressionLevel) is not in 0...9")
    }
    let cOptions = spf_png_options(
      level: Int32(options.compressionLevel), filter: Int32(options.filter.cValue.rawValue),
      strategy: Int32(options.strategy.cValue.rawValue))

    var output = spf_png_output()
    defer { spf_png_output_free(&output) }
    let messageCapacity = 256
    var message = [CChar](repeating: 0, count: messageCapacity)
    let status = pixmap.bytes.withUnsafeBufferPointer { pixels in
      message.withUnsafeMutableBufferPointer { text in
        spf_png_encode(
          pixels.baseAddress, UInt32(pixmap.width), UInt32(pixmap.height), cOptions, &output,
          text.baseAddress, messageCapacity)
      }
    }
    guard status == 0 else {
      let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      throw failure(text.isEmpty ? "cannot encode PNG" : "cannot encode PNG: \(text)")
    }
    return Array(UnsafeBufferPointer(start: output.data, count: output.size))
  }

  /// Encodes `pixmap` and writes it to `path`, replacing any file there.
  public static func write(_ pixmap: Pixmap, to path: String, options: Options = .fast) throws(PNGError) {
    let bytes = try encode(pixmap, options: options, name: path)
    try writeFile(bytes, to: path).get()
  }
}

// MARK: - Reading

extension PNG {
  private static func decode(_ data: UnsafeBufferPointer<UInt8>, name: String) -> Result<Pixmap, PNGError> {
    func failure(_ message: String) -> Result<Pixmap, PNGError> {
      .failure(PNGError(path: name, message: message))
    }
    guard let fileBytes = data.baseAddress, !data.isEmpty else { return failure("not a PNG file (it is empty)") }

    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    // The simplified API frees its state itself on success and on error; this
    // covers every early return in between.
    defer { png_image_free(&image) }

    guard png_image_begin_read_from_memory(&image, fileBytes, data.count) != 0 else {
      return failure(libpngMessage(image))
    }
    let width = Int(image.width), height = Int(image.height)
    guard width > 0, height > 0, width <= maxPixelCount / height else {
      return failure("image too large to decode (\(width)×\(height))")
    }
    // 8-bit straight RGBA in sRGB; 16-bit files without gAMA/sRGB chunks are
    // sRGB-encoded, so libpng only rounds them (png_set_scale_16).
    image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
    image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)

    // IHDR is the first chunk (png_image_begin_read checked it): bit depth at
    // byte 24, interlace method at byte 28.
    let interlaced16 = data.count > 28 && data[24] == 16 && data[28] != 0

    let count = width * height * 4
    var message: String?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { pixels, initialized in
      initialized = 0
      if interlaced16 {
        // libpng bug #853: the simplified API scrambles Adam7 16-bit images
        // read to 8 bits; the shim reads them with the same transformations
        // through the full API.
        png_image_free(&image)
        let capacity = 256
        var text = [CChar](repeating: 0, count: capacity)
        let status = text.withUnsafeMutableBufferPointer { text in
          spf_png_decode_rgba8(
            fileBytes, data.count, pixels.baseAddress, UInt32(width), UInt32(height), text.baseAddress, capacity)
        }
        guard status == 0 else {
          message = decodeMessage(text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
          return
        }
      } else {
        guard png_image_finish_read(&image, nil, pixels.baseAddress, png_int_32(width * 4), nil) != 0 else {
          message = libpngMessage(image)
          return
        }
      }
      premultiply(UnsafeMutableBufferPointer(rebasing: pixels[0..<count]))
      initialized = count
    }
    if let message { return failure(message) }
    return .success(Pixmap(width: width, height: height, bytes: bytes))
  }

  /// The error libpng's simplified API left in `image`.
  private static func libpngMessage(_ image: png_image) -> String {
    decodeMessage(
      withUnsafeBytes(of: image.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      })
  }

  /// A decoding error message around libpng's own words.
  private static func decodeMessage(_ detail: String) -> String {
    switch detail {
    case "": "cannot decode PNG"
    case "read beyond end of data": "cannot decode PNG: the file is truncated (read beyond end of data)"
    default: "cannot decode PNG: \(detail)"
    }
  }

  /// The safe twin of `premultiply(_:)` (in PNGCodec+Unsafe.swift):
  /// straight RGBA8 bytes premultiplied, c → round(c · a / 255), pixel by
  /// pixel on an array. For tests.
  static func referencePremultiplied(_ rgba: [UInt8]) -> [UInt8] {
    var premultiplied = rgba
    for pixel in stride(from: 0, to: rgba.count - 3, by: 4) {
      for channel in 0..<3 { premultiplied[pixel + channel] = premultiply(rgba[pixel + channel], rgba[pixel + 3]) }
    }
    return premultiplied
  }

  /// round(c · a / 255), exact for all bytes.
  @inline(__always) static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    let t = UInt32(c) &* UInt32(a) &+ 128
    return UInt8(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
  }

  /// Unpremultiplies one premultiplied pixel exactly as `encode` does.
  static func unpremultiply(_ p: RGBA8) -> RGBA8 {
    var bytes: (UInt8, UInt8, UInt8, UInt8) = (p.r, p.g, p.b, p.a)
    withUnsafeMutableBytes(of: &bytes) { raw in
      let pixel = raw.bindMemory(to: UInt8.self).baseAddress!
      spf_png_unpremultiply(pixel, pixel, 1)
    }
    return RGBA8(r: bytes.0, g: bytes.1, b: bytes.2, a: bytes.3)
  }
}

extension PNG.Options.Filter {
  var cValue: spf_png_filter {
    switch self {
    case .none: SPF_PNG_FILTER_NONE
    case .sub: SPF_PNG_FILTER_SUB
    case .up: SPF_PNG_FILTER_UP
    case .average: SPF_PNG_FILTER_AVERAGE
    case .paeth: SPF_PNG_FILTER_PAETH
    case .adaptive: SPF_PNG_FILTER_ADAPTIVE
    }
  }
}

extension PNG.Options.Strategy {
  var cValue: spf_png_strategy {
    switch self {
    case .default: SPF_PNG_STRATEGY_DEFAULT
    case .filtered: SPF_PNG_STRATEGY_FILTERED
    case .rle: SPF_PNG_STRATEGY_RLE
    case .huffmanOnly: SPF_PNG_STRATEGY_HUFFMAN_ONLY
    }
  }
}

// MARK: - Files

extension PNG {
  private static func systemError(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  /// The whole file at `path`.
  static func readFile(_ path: String) -> Result<[UInt8], PNGError> {
    func failure(_ message: String) -> Result<[UInt8], PNGError> {
      .failure(PNGError(path: path, message: message))
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return failure("cannot open: \(systemError(errno))") }
    defer { close(fd) }

    var info = stat()
    guard fstat(fd, &info) == 0 else { return failure("cannot read: \(systemError(errno))") }
    if (info.st_mode & S_IFMT) == S_IFDIR { return failure("cannot read: \(systemError(EISDIR))") }

    var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
    var filled = 0
    while true {
      if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 65536))) }
      let n = bytes[filled...].withUnsafeMutableBytes { unfilled in systemRead(fd, unfilled.baseAddress!, unfilled.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return failure("cannot read: \(systemError(errno))")
      }
      if n == 0 { break }
      filled += n
    }
    bytes.removeSubrange(filled...)
    return .success(bytes)
  }

  /// Writes `bytes` to `path`, replacing the file; a partial file is removed.
  static func writeFile(_ bytes: [UInt8], to path: String) -> Result<Void, PNGError> {
    func failure(_ message: String) -> Result<Void, PNGError> {
      .failure(PNGError(path: path, message: message))
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return failure("cannot create: \(systemError(errno))") }

    var written = 0
    var writeError: Int32 = 0
    while written < bytes.count {
      let n = bytes[written...].withUnsafeBytes { unwritten in systemWrite(fd, unwritten.baseAddress!, unwritten.count) }
      if n < 0 {
        if errno == EINTR { continue }
        writeError = errno
        break
      }
      written += n
    }
    if close(fd) != 0, writeError == 0 { writeError = errno }
    guard writeError == 0 else {
      unlink(path)
      return failure("cannot write: \(systemError(writeError))")
    }
    return .success(())
  }
}

// File-scope names for the POSIX calls that PNG's own `read`/`write` shadow.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
