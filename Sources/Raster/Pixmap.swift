import Primitives

/// One premultiplied sRGB pixel, 8 bits per channel (colour ≤ alpha).
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
  public var r, g, b, a: UInt8
  @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
  public static let transparent = RGBA8(r: 0, g: 0, b: 0, a: 0)

  /// A premultiplied colour rounded to 8 bits (clamped into range first).
  public init(_ c: PremultipliedColor) {
    let k = c.clamped
    self.init(r: Self.byte(k.red), g: Self.byte(k.green), b: Self.byte(k.blue), a: Self.byte(k.alpha))
  }
  @inlinable @inline(__always) static func byte(_ x: Double) -> UInt8 { UInt8((x * 255).roundedToNearest) }

  public var premultipliedColor: PremultipliedColor {
    PremultipliedColor(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
  }
  public var description: String { "RGBA8(\(r), \(g), \(b), \(a))" }
}

/// A raster image: premultiplied RGBA8 pixels in sRGB, row-major, top row
/// first, 4 bytes per pixel with no row padding. Compositing happens in this
/// space (sRGB-encoded, premultiplied), as UIKit and Skia do by default.
public struct Pixmap: Sendable, Hashable {
  public let width: Int
  public let height: Int
  /// `4 × width × height` bytes: r, g, b, a per pixel.
  public var bytes: [UInt8]

  /// A pixmap filled with one pixel value (transparent by default).
  public init(width: Int, height: Int, fill: RGBA8 = .transparent) {
    precondition(width >= 0 && height >= 0, "negative pixmap size")
    self.width = width
    self.height = height
    bytes = fill == .transparent ? [UInt8](repeating: 0, count: width * height * 4) : Self.filledBytes(fill, count: width * height)
  }

  /// A pixmap over existing premultiplied bytes.
  public init(width: Int, height: Int, bytes: [UInt8]) {
    precondition(bytes.count == width * height * 4, "byte count does not match the size")
    self.width = width; self.height = height; self.bytes = bytes
  }

  @inlinable public subscript(x: Int, y: Int) -> RGBA8 {
    get {
      let i = 4 * (y * width + x)
      return RGBA8(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
    }
    set {
      let i = 4 * (y * width + x)
      bytes[i] = newValue.r; bytes[i + 1] = newValue.g; bytes[i + 2] = newValue.b; bytes[i + 3] = newValue.a
    }
  }

  /// Safe twin of `filledBytes(_:count:)` (Pixmap+Unsafe.swift): `count`
  /// pixels of `value`, byte by byte.
  static func referenceFilledBytes(_ value: RGBA8, count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 4 * count)
    for i in 0..<count { out[4 * i] = value.r; out[4 * i + 1] = value.g; out[4 * i + 2] = value.b; out[4 * i + 3] = value.a }
    return out
  }

  /// Sets every pixel to `value`.
  public mutating func clear(to value: RGBA8 = .transparent) {
    self = Pixmap(width: width, height: height, fill: value)
  }

  public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

  /// The pixels of `rect`, in coordinates where this pixmap's top-left
  /// pixel is at `origin`; `rect` lies inside it.
  public func cropped(to rect: PixelRect, origin: (x: Int, y: Int) = (0, 0)) -> Pixmap {
    precondition(rect.x0 >= origin.x && rect.y0 >= origin.y && rect.x1 <= origin.x + width && rect.y1 <= origin.y + height, "inside")
    var out = [UInt8]()
    out.reserveCapacity(4 * rect.width * rect.height)
    for y in rect.y0..<rect.y1 {
      let from = 4 * ((y - origin.y) * width + (rect.x0 - origin.x))
      out.append(contentsOf: bytes[from..<(from + 4 * rect.width)])
    }
    return Pixmap(width: rect.width, height: rect.height, bytes: out)
  }

  /// Copies `other` over this pixmap's pixels with its top-left pixel at
  /// (`x`, `y`); it lies inside this one.
  public mutating func paste(_ other: Pixmap, x: Int, y: Int) {
    precondition(x >= 0 && y >= 0 && x + other.width <= width && y + other.height <= height, "inside")
    for row in 0..<other.height {
      let to = 4 * ((y + row) * width + x), from = 4 * row * other.width
      bytes.replaceSubrange(to..<(to + 4 * other.width), with: other.bytes[from..<(from + 4 * other.width)])
    }
  }
}
