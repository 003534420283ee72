/// A source of colour for each device pixel: gradients and images.
///
/// Output is premultiplied sRGB-encoded RGBA as Float in 0…1, four floats per
/// pixel. Pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5) in device
/// space. Shaders are immutable, so one may shade rows from many threads.
public protocol Shader: Sendable {
  /// Writes `count` pixels of row `y`, starting at column `x`, into `output`
  /// (4 × count floats).
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>)
  /// True when every pixel it produces has alpha 1 (compositing may then
  /// skip blending under full coverage).
  var isOpaque: Bool { get }
}
