import Primitives

/// A source of colour for each device pixel, row by row: the gradients and
/// images a `Paint` holds.
///
/// Output is premultiplied sRGB-encoded RGBA, four values per pixel; pixel
/// (x, y) is sampled at its centre (x + 0.5, y + 0.5) in device space.
/// Shaders are immutable, so one may shade rows from many threads. The row
/// loops, on raw memory, live in the shaders' `+Unsafe.swift` files beside
/// the safe twins the tests compare them with.
protocol RowShader: Sendable {
  /// Writes `count` pixels of row `y`, starting at column `x`, into
  /// `output` (4 × count floats in 0…1).
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>)
  /// The same pixels as premultiplied RGBA8 (4 bytes per pixel), rounded;
  /// `scratch` holds 4 × count floats. Shaders whose colours come from
  /// 8-bit tables override the default (Shader+Unsafe.swift), which shades
  /// floats and rounds them as `RowShaders.bytes(fromFloats:)` does.
  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>)
  /// True when every pixel it produces has alpha 1 (compositing may then
  /// skip blending under full coverage).
  var isOpaque: Bool { get }
  /// Adds everything that decides the pixels this shader produces (two
  /// shaders with equal digests shade every pixel alike), for the tile caches.
  func digest(into d: inout Digester)
}

/// What the shaders share.
enum RowShaders {
  /// Safe twin of the default `shade8`'s rounding: float pixels (0…1,
  /// premultiplied) to bytes, each channel clamped, rounded to nearest and
  /// kept ≤ alpha.
  static func bytes(fromFloats floats: [Float]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: floats.count)
    for i in stride(from: 0, to: floats.count, by: 4) {
      let alpha = byte(floats[i + 3])
      out[i + 3] = alpha
      for channel in 0..<3 { out[i + channel] = min(byte(floats[i + channel]), alpha) }
    }
    return out
  }

  /// A float channel (0…1) as the nearest byte.
  @inline(__always)
  static func byte(_ value: Float) -> UInt8 { UInt8(min(max(value, 0), 1) * 255 + 0.5) }
}
