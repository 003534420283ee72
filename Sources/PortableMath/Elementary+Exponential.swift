extension Elementary {
  /// Above this, eˣ overflows (e^709.79 > the largest double); below
  /// `exponentialUnderflow` it rounds to zero (e⁻⁷⁴⁶ < 2⁻¹⁰⁷⁶).
  static let exponentialOverflow = 710.0
  static let exponentialUnderflow = -746.0

  // MARK: exp

  /// eˣ.
  ///
  /// Algorithm: x = k·ln 2 + r with |r| ≤ ln 2 / 2 (k·ln 2 subtracted in
  /// double-double), eʳ by its Taylor series to the r²³/23! term (the rest
  /// is below 2⁻¹⁰⁹), then 2ᵏ·eʳ rounded once. Relative error before the
  /// final rounding below 2⁻⁹² (the reduction's: the double-double
  /// subtraction and ln 2's own 107 bits, times k ≤ 1076).
  ///
  /// Special values: exp(±0) = 1, exp(+∞) = +∞, exp(−∞) = +0; +∞ past
  /// 709.78, +0 below −745.14.
  public static func exp(_ x: Double) -> Double { exp(DoubleDouble(x)) }

  /// e^(t.high + t.low), rounded once.
  static func exp(_ t: DoubleDouble) -> Double {
    if t.high.isNaN { return .nan }
    if t.high > exponentialOverflow { return .infinity }
    if t.high < exponentialUnderflow { return 0 }
    let (power, k) = reducedExponential(t)
    return DoubleDouble.rounded(power, timesPowerOfTwo: k)
  }

  /// e^t = eʳ·2ᵏ for t between `exponentialUnderflow` and
  /// `exponentialOverflow`: eʳ in double-double, and k.
  static func reducedExponential(_ t: DoubleDouble) -> (power: DoubleDouble, k: Int) {
    let k = DoubleDouble.nearestInteger(t.high * DoubleDouble.log2OfE.high)
    let r = t - DoubleDouble.ln2 * k
    // |r| ≤ 0.347: the terms past r²³/23! are below 2⁻¹⁰⁹, and those from
    // r¹²/12! on are small enough to sum in doubles.
    var tail = inverseFactorials[23].high
    for n in stride(from: 22, through: 12, by: -1) { tail = tail * r.high + inverseFactorials[n].high }
    var series = DoubleDouble(tail)
    for n in stride(from: 11, through: 0, by: -1) { series = series * r + inverseFactorials[n] }
    return (series, Int(k))
  }

  // MARK: expm1

  /// eˣ − 1, accurate for x near 0 where `exp(x) - 1` cancels.
  ///
  /// Algorithm: for |x| ≤ ln 2 / 2, x·Σ xⁿ/(n+1)! to n = 23 in
  /// double-double (relative error below 2⁻¹⁰⁰); elsewhere 2ᵏ·eʳ as in
  /// `exp`, minus 1 in double-double (below 2⁻⁹²).
  ///
  /// Special values: expm1(±0) = ±0, expm1(+∞) = +∞, expm1(−∞) = −1; −1
  /// below −38 (where eˣ is under half an ulp of 1), +∞ past 709.78.
  public static func expMinusOne(_ x: Double) -> Double {
    if x.isNaN { return .nan }
    if x == 0 { return x }
    if x < minusOneBelow { return -1 }
    if x.magnitude <= DoubleDouble.ln2.high / 2 {
      // The terms from x¹²/13! on are below 2⁻⁵⁰ and summed in doubles.
      var tail = inverseFactorials[24].high
      for n in stride(from: 23, through: 13, by: -1) { tail = tail * x + inverseFactorials[n].high }
      var series = DoubleDouble(tail)
      for n in stride(from: 12, through: 1, by: -1) { series = series * x + inverseFactorials[n] }
      return (series * x).rounded
    }
    if x > exponentialOverflow { return .infinity }
    let (series, k) = reducedExponential(DoubleDouble(x))
    let power = DoubleDouble(DoubleDouble.scaled(series.high, by: k), DoubleDouble.scaled(series.low, by: k))
    guard power.high.isFinite else { return .infinity }
    return DoubleDouble.accurateSum(power, DoubleDouble(-1)).rounded
  }

  /// Below −38, eˣ < 2⁻⁵⁴ (half an ulp of 1 from below), so eˣ − 1 rounds to −1.
  static let minusOneBelow = -38.0

  // MARK: pow

  /// xʸ.
  ///
  /// Algorithm: an integer y with |y| ≤ 64 by repeated squaring in
  /// double-double, the binary exponent kept apart so that nothing
  /// overflows or underflows before the final rounding (relative error
  /// below 2⁻⁹⁶; an exact power that fits in 106 bits is computed exactly,
  /// so `pow(3, 20)` is 3486784401 and halfway cases round to even);
  /// otherwise e^(y·ln x) with ln x in double-double (`logarithm`), relative
  /// error below 2⁻⁸⁹ (ln x's error of 2⁻¹⁰⁰ times |y·ln x| ≤ 746, and
  /// exp's).
  ///
  /// Special values, as C's `pow`: x⁰ = 1 and 1ʸ = 1 (even for NaN);
  /// (−1)^±∞ = 1; a negative finite x to a non-integer y is NaN; 0 and ∞ to
  /// a power give 0 or ∞, negative only for a negative base and an odd
  /// integer y; |x|^±∞ is 0 or +∞.
  public static func pow(_ x: Double, _ y: Double) -> Double {
    if y == 0 || x == 1 { return 1 }
    if x.isNaN || y.isNaN { return .nan }
    let ax = x.magnitude
    if y.isInfinite {
      if ax == 1 { return 1 }
      return (ax > 1) == (y > 0) ? .infinity : 0
    }
    let yIsInteger = y.rounded(.towardZero) == y
    let yIsOdd = yIsInteger && y.magnitude < 0x1p53 && Int64(y) & 1 == 1
    if x == 0 || x.isInfinite {
      // 0^y and ∞^y are 0 or ∞, negative only for a negative x and an odd y.
      let value: Double = (x == 0) == (y < 0) ? .infinity : 0
      return x.sign == .minus && yIsOdd ? -value : value
    }
    if x < 0 && !yIsInteger { return .nan }
    let value: Double
    if yIsInteger && y.magnitude <= largestSquaredExponent {
      value = integerPower(ax, Int(y))
    } else {
      value = exp(logarithm(ax) * y)
    }
    return x < 0 && yIsOdd ? -value : value
  }

  /// Integer exponents up to this take repeated squaring (at most 12
  /// double-double products, error below 2⁻⁹⁶); larger ones the logarithm.
  static let largestSquaredExponent = 64.0

  /// x^n for finite x > 0 and 0 < |n| ≤ 64: the significand m ∈ [1, 2) of x
  /// raised by squaring, renormalised to [1, 2) after each product with the
  /// powers of two counted in an integer, then 1/mⁿ for n < 0, and one
  /// rounding of the whole.
  static func integerPower(_ x: Double, _ n: Int) -> Double {
    var base = DoubleDouble(x.significand)
    var baseExponent = 0
    var result = DoubleDouble(1)
    var resultExponent = 0
    var e = n.magnitude
    while true {
      if e & 1 == 1 {
        result = result * base
        resultExponent += baseExponent
        if result.high >= 2 {
          result = DoubleDouble(result.high / 2, result.low / 2)
          resultExponent += 1
        }
      }
      e >>= 1
      if e == 0 { break }
      base = base * base
      baseExponent *= 2
      if base.high >= 2 {
        base = DoubleDouble(base.high / 2, base.low / 2)
        baseExponent += 1
      }
    }
    let exponent = Int(x.exponent) * Int(n.magnitude) + resultExponent
    if n > 0 { return DoubleDouble.rounded(result, timesPowerOfTwo: exponent) }
    return DoubleDouble.rounded(DoubleDouble(1) / result, timesPowerOfTwo: -exponent)
  }
}
