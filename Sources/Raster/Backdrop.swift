import Primitives

/// How a material treats what lies beneath it (`Recording.backdrop`): a
/// Gaussian blur of `sigma` device pixels over the premultiplied sRGB
/// values, then a saturation (1 unchanged, 0 grey), then a tint drawn over
/// it (source-over).
public struct Backdrop: Sendable, Hashable {
  public var sigma: Double
  public var saturation: Double
  public var tint: PremultipliedColor

  public init(sigma: Double, saturation: Double = 1, tint: PremultipliedColor = .clear) {
    self.sigma = sigma
    self.saturation = saturation
    self.tint = tint
  }

}

extension Pixmap {
  /// Rec. 709's luma weights, as CSS's `saturate()` and Core Image's
  /// colour controls weigh the channels.
  static let lumaWeights: (r: Double, g: Double, b: Double) = (0.2126, 0.7152, 0.0722)

  /// Each pixel's colour moved from its luma Y by `s`: c' = Y + s·(c − Y),
  /// in premultiplied values (Y of the premultiplied channels is the
  /// premultiplied luma, so a translucent pixel keeps its alpha), rounded
  /// to the nearest level and kept within 0…alpha. 1 returns the pixmap
  /// unchanged, 0 makes it grey.
  public func saturated(_ s: Double) -> Pixmap {
    guard s != 1, s.isFinite else { return self }
    let (wr, wg, wb) = Self.lumaWeights
    // Integer weights (of 2^16) and the saturation (of 2^12): exact and
    // the same on every machine.
    let kr = Int((wr * 65536).rounded()), kg = Int((wg * 65536).rounded())
    let kb = 65536 - kr - kg
    let k = Int((s * 4096).rounded())
    var out = bytes
    var i = 0
    while i < out.count {
      let a = Int(out[i + 3])
      if a > 0 {
        let r = Int(out[i]), g = Int(out[i + 1]), b = Int(out[i + 2])
        // Y in 1/65536 levels.
        let y = kr * r + kg * g + kb * b
        // (Y + s·(c − Y)) in 1/2^28 levels, rounded to the nearest level.
        @inline(__always) func channel(_ c: Int) -> UInt8 {
          UInt8(min(max(((y << 12) + k * ((c << 16) - y) + (1 << 27)) >> 28, 0), a))
        }
        out[i] = channel(r)
        out[i + 1] = channel(g)
        out[i + 2] = channel(b)
      }
      i += 4
    }
    return Pixmap(width: width, height: height, bytes: out)
  }
}
