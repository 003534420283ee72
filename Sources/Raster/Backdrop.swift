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

  /// How many times smaller what lies beneath is drawn before it is
  /// blurred: the largest power of two ≤ σ/3 (1 below σ = 6), so σ is at
  /// least 3 small pixels. Measured against the true Gaussian
  /// (BackdropTests), within 2% of full scale.
  var reduction: Int {
    var k = 1
    while Double(2 * k) <= sigma / 3 && k < 64 { k *= 2 }
    return k
  }

  /// σ on the small grid, in its pixels: what is left of σ² once each
  /// small pixel's k × k box (variance k²/12 per axis) and the bilinear
  /// enlargement's tent (k²/6) are counted.
  var smallSigma: Double {
    let k = Double(reduction)
    return reduction == 1 ? sigma : (max(sigma * sigma - k * k / 4, 0)).squareRoot() / k
  }

  /// Device pixels around a pixel whose content its backdrop reads: the
  /// blur's reach on the small grid, and a small pixel more on each side
  /// for the drawing's box and the enlargement.
  var reach: Int {
    let k = reduction
    return max(LayerEffects.reach(sigma), (LayerEffects.reach(smallSigma) + 2) * k)
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
    let (wr, wg, _) = Self.lumaWeights
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
