extension Elementary {
  /// ln x.
  ///
  /// Algorithm: `logarithm` (x = m·2ᵏ, ln m = 2·atanh((m − 1)/(m + 1))) in
  /// double-double, relative error below 2⁻¹⁰⁰, rounded once.
  ///
  /// Special values: log(1) = +0, log(±0) = −∞, log(+∞) = +∞, NaN for x < 0.
  public static func log(_ x: Double) -> Double {
    if let special = logarithmSpecialValue(x) { return special }
    return logarithm(x).rounded
  }

  /// log₂ x = k + ln m / ln 2, so that a power of two gives its exponent
  /// exactly. Relative error below 2⁻¹⁰⁰ before the final rounding.
  ///
  /// Special values as `log`.
  public static func log2(_ x: Double) -> Double {
    if let special = logarithmSpecialValue(x) { return special }
    let (k, lnM) = logarithmParts(x)
    return (lnM * DoubleDouble.log2OfE + Double(k)).rounded
  }

  /// log₁₀ x = k·log₁₀ 2 + ln m·log₁₀ e (so `log10(1000)` is 3). Relative
  /// error below 2⁻⁹⁸ before the final rounding.
  ///
  /// Special values as `log`.
  public static func log10(_ x: Double) -> Double {
    if let special = logarithmSpecialValue(x) { return special }
    let (k, lnM) = logarithmParts(x)
    return DoubleDouble.accurateSum(DoubleDouble.log10Of2 * Double(k), lnM * DoubleDouble.log10OfE).rounded
  }

  /// The value of a logarithm where it is not computed: NaN for NaN and
  /// negative x, −∞ at ±0, +∞ at +∞; nil for finite x > 0.
  @inline(__always) static func logarithmSpecialValue(_ x: Double) -> Double? {
    if x > 0 && x.isFinite { return nil }
    if x == 0 { return -.infinity }
    return x == .infinity ? .infinity : .nan
  }

  /// ln x in double-double for finite x > 0 (relative error below 2⁻¹⁰⁰).
  static func logarithm(_ x: Double) -> DoubleDouble {
    let (k, lnM) = logarithmParts(x)
    return DoubleDouble.ln2 * Double(k) + lnM
  }

  /// x = m·2ᵏ with √½ ≤ m < √2 (subnormal x included), and ln m in
  /// double-double: s = (m − 1)/(m + 1) (m − 1 and m + 1 exact), |s| ≤ 0.172,
  /// ln m = 2·atanh s = 2·Σ s^(2j+1)/(2j+1) to j = 21 (the rest is below
  /// 2⁻¹¹⁰).
  static func logarithmParts(_ x: Double) -> (k: Int, lnM: DoubleDouble) {
    var k = Int(x.exponent)
    var m = x.significand
    if m > squareRootOf2 {
      m *= 0.5
      k += 1
    }
    let s = DoubleDouble(m - 1) / DoubleDouble.sum(m, 1)
    let s2 = s * s
    // The terms from s¹⁹ on are below 2⁻⁴⁸·s and summed in doubles.
    var tail = oddReciprocals[21].high
    for j in stride(from: 20, through: 9, by: -1) { tail = tail * s2.high + oddReciprocals[j].high }
    var series = DoubleDouble(tail)
    for j in stride(from: 8, through: 0, by: -1) { series = series * s2 + oddReciprocals[j] }
    return (k, s * series * 2)
  }

  /// √2 to the nearest double: the significand above which x = m·2ᵏ takes
  /// m/2, so that |s| ≤ (√2 − 1)/(√2 + 1) < 0.172.
  static let squareRootOf2 = 1.4142135623730951

}
