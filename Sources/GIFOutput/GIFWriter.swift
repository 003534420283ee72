import Raster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes a looping GIF89a, frame by frame, straight to a file.
///
/// The file has a global colour table (the palette, padded to a power of
/// two), a NETSCAPE2.0 extension that loops forever, and a Graphic Control
/// Extension with the delay before each image.
///
/// Each frame after the first is only the bounding rectangle of the pixels
/// that differ from what is on screen, drawn over it (disposal 1, "do not
/// dispose"), written whichever way LZW makes smaller: with the unchanged
/// pixels inside the rectangle set to a transparent index (the spare index
/// `colors.count` of an opaque palette, or the palette's own), or with the
/// pixels as they are. With a transparent palette a frame can also turn
/// pixels transparent, which drawing over cannot do: then the frame before is
/// written with disposal 2 ("restore to background": its rectangle, widened
/// to cover those pixels, is cleared to transparent after it is shown, the
/// background being the transparent index) and the new frame redraws what
/// it needs of the cleared area. The first frame is the whole picture
/// (opaque) or the bounding box of its visible pixels (transparent).
///
/// A frame identical to the one before adds its delay to that frame's, so
/// the delays always add up to the sum of those given. Used from one thread,
/// frames in order; the file is complete once `finish` returns.
public final class GIFWriter {
  public let path: String
  public let width: Int
  public let height: Int
  public let palette: GIFPalette
  /// Images written so far (identical frames merged), and bytes.
  public private(set) var imageCount = 0
  public private(set) var byteCount = 0

  let minCodeSize: Int
  /// The transparent index of changed-rectangle frames (opaque palettes).
  let spare: UInt8?
  let alpha: UInt8?
  var file: UnsafeMutablePointer<FILE>?
  /// What the decoder shows after the pending image is drawn, and before
  /// (after the disposal of the image before it).
  var canvas: [UInt8]?
  var pendingBase: [UInt8]?
  var pending: Image?

  struct Image {
    var left = 0, top = 0, width = 1, height = 1
    var data: [UInt8] = []
    var transparent = false
    var disposal: UInt8 = 1
    var delay = 0
  }

  /// Creates the file at `path` and writes the header, colour table and loop
  /// extension.
  public init(path: String, width: Int, height: Int, palette: GIFPalette) throws(GIFError) {
    self.path = path; self.width = width; self.height = height; self.palette = palette
    guard (1...65535).contains(width), (1...65535).contains(height) else {
      throw GIFError(path: path, message: "a GIF is 1 to 65535 pixels wide and high, not \(width)×\(height)")
    }
    guard !palette.colors.isEmpty, palette.colors.count <= 256 else {
      throw GIFError(path: path, message: "a GIF palette has 1 to 256 colours, not \(palette.colors.count)")
    }
    alpha = palette.transparentIndex.map { UInt8($0) }
    spare = alpha == nil && palette.colors.count < 256 ? UInt8(palette.colors.count) : nil
    let entries = palette.colors.count + (spare == nil ? 0 : 1)
    var bits = 1
    while 1 << bits < entries { bits += 1 }
    minCodeSize = max(2, bits)

    guard let f = fopen(path, "wb") else { throw GIFError(path: path, message: "cannot create: \(Self.reason())") }
    file = f
    var header: [UInt8] = Array("GIF89a".utf8)
    Self.put16(&header, width); Self.put16(&header, height)
    header.append(0x80 | 0x70 | UInt8(bits - 1))  // global table, 8-bit colour resolution, 2^bits entries
    header.append(alpha ?? 0)  // background: the transparent entry, if any
    header.append(0)  // square pixels
    for i in 0..<(1 << bits) {
      let c = i < palette.colors.count ? palette.colors[i] : RGBA8(r: 0, g: 0, b: 0, a: 0)
      header += [c.r, c.g, c.b]
    }
    // NETSCAPE2.0: loop forever (count 0).
    header += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
    try write(header)
  }

  deinit { if let file { fclose(file) } }

  /// Adds a frame shown for `centiseconds` (clamped to 0...65535).
  public func append(_ frame: IndexedFrame, delay centiseconds: Int) throws(GIFError) {
    guard file != nil else { throw GIFError(path: path, message: "frame appended after finish") }
    guard frame.width == width, frame.height == height, frame.indices.count == width * height else {
      throw GIFError(path: path, message: "frame is \(frame.width)×\(frame.height), the GIF \(width)×\(height)")
    }
    let delay = min(max(centiseconds, 0), 65535)
    let target = frame.indices
    if let canvas, canvas == target, var p = pending, p.delay + delay <= 65535 {
      p.delay += delay
      pending = p
      return
    }
    var base: [UInt8]?
    if let canvas {
      base = canvas
      if let clear = alpha, var p = pending, let before = pendingBase,
        let r = rectangle(where: { canvas[$0] != clear && target[$0] == clear })
      {
        // Pixels to turn transparent: the pending image clears its rectangle,
        // widened over them, after it is shown.
        let widened = union(r, (p.left, p.top, p.width, p.height))
        let delay = p.delay
        p = image(target: canvas, base: before, rect: widened)
        p.delay = delay
        p.disposal = 2
        pending = p
        for y in widened.y..<(widened.y + widened.h) {
          for x in widened.x..<(widened.x + widened.w) { base![y * width + x] = clear }
        }
      }
    } else if let clear = alpha {
      base = [UInt8](repeating: clear, count: width * height)
    }
    try flush()
    var next: Image
    if let base {
      next = image(target: target, base: base, rect: changedRectangle(base, target) ?? (0, 0, 1, 1))
    } else {
      next = Image(width: width, height: height, data: lzw(target))  // the first frame, opaque
    }
    next.delay = delay
    pending = next
    pendingBase = base
    canvas = target
  }

  /// Writes the last frame and the trailer, and closes the file.
  public func finish() throws(GIFError) {
    guard let f = file else { return }
    try flush()
    try write([0x3B])
    file = nil
    if fclose(f) != 0 { throw GIFError(path: path, message: "cannot write: \(Self.reason())") }
  }

  // MARK: - Frames

  typealias Rect = (x: Int, y: Int, w: Int, h: Int)

  /// The image that turns `base` into `target` within `rect` (which holds
  /// every difference), the smaller of plain and masked.
  func image(target: [UInt8], base: [UInt8], rect: Rect) -> Image {
    let mask = alpha ?? spare
    var plain = [UInt8](), masked = [UInt8]()
    plain.reserveCapacity(rect.w * rect.h)
    if mask != nil { masked.reserveCapacity(rect.w * rect.h) }
    for y in rect.y..<(rect.y + rect.h) {
      let row = y * width
      for x in rect.x..<(rect.x + rect.w) {
        let c = target[row + x]
        plain.append(c)
        if let mask { masked.append(c == base[row + x] ? mask : c) }
      }
    }
    // A transparent palette's pixels may be transparent in either form.
    var result = Image(left: rect.x, top: rect.y, width: rect.w, height: rect.h, data: lzw(plain), transparent: alpha != nil)
    if mask != nil {
      let m = lzw(masked)
      if m.count < result.data.count { result.data = m; result.transparent = true }
    }
    return result
  }

  /// The bounding rectangle of the pixels where `test` holds, nil if none.
  func rectangle(where test: (Int) -> Bool) -> Rect? {
    var top = height, bottom = -1, left = width, right = -1
    for y in 0..<height {
      let row = y * width
      guard let first = (0..<width).first(where: { test(row + $0) }) else { continue }
      let last = (first..<width).last(where: { test(row + $0) })!
      top = min(top, y); bottom = y; left = min(left, first); right = max(right, last)
    }
    return bottom < 0 ? nil : (left, top, right - left + 1, bottom - top + 1)
  }

  func union(_ a: Rect, _ b: Rect) -> Rect {
    let x = min(a.x, b.x), y = min(a.y, b.y)
    return (x, y, max(a.x + a.w, b.x + b.w) - x, max(a.y + a.h, b.y + b.h) - y)
  }

  /// The safe twin of `changedRectangle(_:_:)` (in GIFWriter+Unsafe.swift):
  /// the bounding rectangle of the pixels that differ, index by index.
  func referenceChangedRectangle(_ a: [UInt8], _ b: [UInt8]) -> Rect? { rectangle { a[$0] != b[$0] } }

  func lzw(_ indices: [UInt8]) -> [UInt8] { GIFLZW.encode(indices, minCodeSize: minCodeSize) }

  /// Writes the pending image: its Graphic Control Extension, descriptor
  /// and LZW data in sub-blocks of at most 255 bytes.
  func flush() throws(GIFError) {
    guard let image = pending else { return }
    pending = nil
    var out = [UInt8]()
    out.reserveCapacity(image.data.count + image.data.count / 255 + 32)
    out += [0x21, 0xF9, 0x04, image.disposal << 2 | (image.transparent ? 1 : 0)]
    Self.put16(&out, image.delay)
    out += [image.transparent ? (alpha ?? spare ?? 0) : 0, 0x00]
    out.append(0x2C)
    Self.put16(&out, image.left); Self.put16(&out, image.top)
    Self.put16(&out, image.width); Self.put16(&out, image.height)
    out.append(0x00)  // no local table, not interlaced
    out.append(UInt8(minCodeSize))
    var start = 0
    while start < image.data.count {
      let end = min(start + 255, image.data.count)
      out.append(UInt8(end - start))
      out += image.data[start..<end]
      start = end
    }
    out.append(0x00)
    try write(out)
    imageCount += 1
  }

  func write(_ bytes: [UInt8]) throws(GIFError) {
    guard let file else { return }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    byteCount += written
    guard written == bytes.count else { throw GIFError(path: path, message: "cannot write: \(Self.reason())") }
  }

  static func put16(_ out: inout [UInt8], _ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
  static func reason() -> String { String(cString: strerror(errno)) }
}
