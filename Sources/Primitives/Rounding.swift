/// Rounding to whole numbers without a libm call.
///
/// `rounded(.down)`, `.up` and `.toNearestOrAwayFromZero` compile to one
/// instruction where the CPU has SSE4.1's `roundsd` or NEON, and to a call
/// of libm's `floor`, `ceil` or `round` on baseline x86-64 (SSE2), which the
/// default build targets. The rasterizer rounds in its innermost loops, so
/// these compute the same values from a truncating conversion (one SSE2
/// instruction each way) instead. Exact for every double: the same results
/// as `rounded(_:)`, signed zeros, infinities and NaN included (RoundingTests
/// compares them on random and edge values).
extension Double {
  /// Doubles at least this large in magnitude are whole numbers already.
  @usableFromInline static let wholeFrom = 0x1p52

  /// The value truncated toward zero, for |self| < `wholeFrom`.
  @inlinable @inline(__always)
  var truncatedSmall: Double { Double(Int64(self)) }

  /// A zero result carries the sign of the input, as IEEE 754's rounding
  /// functions give it (−0.5 rounded up is −0).
  @inlinable @inline(__always)
  func signedZero(_ result: Double) -> Double { result == 0 ? (sign == .minus ? -0.0 : 0.0) : result }

  /// ⌊self⌋: `rounded(.down)`.
  @inlinable @inline(__always)
  public var roundedDown: Double {
    guard abs(self) < Double.wholeFrom else { return self }
    let t = truncatedSmall
    return signedZero(t > self ? t - 1 : t)
  }

  /// ⌈self⌉: `rounded(.up)`.
  @inlinable @inline(__always)
  public var roundedUp: Double {
    guard abs(self) < Double.wholeFrom else { return self }
    let t = truncatedSmall
    return signedZero(t < self ? t + 1 : t)
  }

  /// The nearest whole number, halves away from zero: `rounded()`.
  @inlinable @inline(__always)
  public var roundedToNearest: Double {
    guard abs(self) < Double.wholeFrom else { return self }
    let t = truncatedSmall
    // self − t is exact: the fraction of a value below `wholeFrom`.
    let fraction = self - t
    return signedZero(fraction >= 0.5 ? t + 1 : fraction <= -0.5 ? t - 1 : t)
  }
}

extension Int {
  /// ⌊x⌋ as an integer: `Int(x.rounded(.down))` without a libm call (see
  /// `Double.roundedDown`). Traps, as that does, when x is NaN or out of range.
  @inlinable @inline(__always)
  public init(flooring x: Double) {
    let t = Int(x)
    self = Double(t) > x ? t - 1 : t
  }

  /// ⌈x⌉ as an integer: `Int(x.rounded(.up))` without a libm call.
  @inlinable @inline(__always)
  public init(ceiling x: Double) {
    let t = Int(x)
    self = Double(t) < x ? t + 1 : t
  }
}
