/// A source of colour for each device pixel: gradients and images.
///
/// Output is premultiplied sRGB-encoded RGBA as Float in 0…1, four floats per
/// pixel. Pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5) in device
/// space. Shaders are immutable, so one may shade rows from many threads.
public protocol Shader: Sendable {
  /// Premultiplied RGBA8 output for the blender; see the extension.
  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>)
  /// Writes `count` pixels of row `y`, starting at column `x`, into `output`
  /// (4 × count floats).
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>)
  /// True when every pixel it produces has alpha 1 (compositing may then
  /// skip blending under full coverage).
  var isOpaque: Bool { get }
  /// Adds everything that decides the pixels this shader produces (two
  /// shaders with equal digests shade every pixel alike), for the tile
  /// caches. The default adds a unique value: never cached.
  func digest(into d: inout Digester)
}

extension Shader {
  public func digest(into d: inout Digester) { d.add(Digester.unique()) }

  /// The same pixels as premultiplied RGBA8 (4 bytes per pixel), rounded.
  /// Shaders whose colours come from 8-bit tables override this to skip
  /// floats; the default shades floats into `scratch` (4 × count) and rounds.
  public func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    shade(x: x, y: y, count: count, into: scratch)
    for i in 0..<count {
      let a = min(max(scratch[4 * i + 3], 0), 1) * 255 + 0.5
      let alpha = UInt8(a)
      output[4 * i + 3] = alpha
      for ch in 0..<3 {
        let v = min(max(scratch[4 * i + ch], 0), 1) * 255 + 0.5
        output[4 * i + ch] = min(UInt8(v), alpha)
      }
    }
  }
}
