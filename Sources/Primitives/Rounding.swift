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

  /// The largest double below ½: adding it (with the input's sign) then
  /// truncating rounds halves away from zero, and nothing else up (a value
  /// just below ½ stays below 1).
  @usableFromInline static let belowHalf = 0.49999999999999994

  /// ⌊self⌋: `rounded(.down)`. Without branches on the value (the result
  /// carries the input's sign, as IEEE 754's floor does for zeros).
  @inlinable @inline(__always)
  public var roundedDown: Double {
    guard abs(self) < Double.wholeFrom else { return self }
    let t = truncatedSmall
    return Double(signOf: self, magnitudeOf: t - (t > self ? 1 : 0))
  }

  /// ⌈self⌉: `rounded(.up)`.
  @inlinable @inline(__always)
  public var roundedUp: Double {
    guard abs(self) < Double.wholeFrom else { return self }
    let t = truncatedSmall
    return Double(signOf: self, magnitudeOf: t + (t < self ? 1 : 0))
  }

  /// The nearest whole number, halves away from zero: `rounded()`.
  @inlinable @inline(__always)
  public var roundedToNearest: Double {
    guard abs(self) < Double.wholeFrom else { return self }
    return Double(signOf: self, magnitudeOf: (self + Double(signOf: self, magnitudeOf: Double.belowHalf)).truncatedSmall)
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
