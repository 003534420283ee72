extension Elementary {
  /// atan x in radians, in [−π/2, π/2].
  ///
  /// Algorithm: for |x| > 1, atan x = π/2 − atan(1/x); then `arctangent`
  /// (a table of atan(j/16) and a short series) in double-double; relative
  /// error below 2⁻⁹⁸.
  ///
  /// Special values: atan(±0) = ±0, atan(±∞) = ±π/2 (rounded); NaN for NaN.
  public static func atan(_ x: Double) -> Double {
    if x.isNaN { return .nan }
    let a = x.magnitude
    let angle = a <= 1 ? arctangent(DoubleDouble(a)) : DoubleDouble.piOver2 - arctangent(DoubleDouble.reciprocal(a))
    return x.sign == .minus ? -angle.rounded : angle.rounded
  }

  /// The angle of the point (x, y) from the positive x axis, in radians, in
  /// [−π, π], with the sign of y.
  ///
  /// Algorithm: the smaller of |x| and |y| over the larger as a
  /// double-double quotient, its arctangent, then placed in its octant with
  /// π/2 and π in double-double; relative error below 2⁻⁹⁷. A quotient
  /// below 2⁻⁶⁰ (where atan t = t to 2⁻¹²⁰) is rounded once at its own
  /// scale, so subnormal results are correctly rounded too.
  ///
  /// Special values, as C's `atan2`: atan2(±0, +0 or x > 0) = ±0,
  /// atan2(±0, −0 or x < 0) = ±π, atan2(y ≠ 0, ±0) = ±π/2,
  /// atan2(±finite, +∞) = ±0, atan2(±finite, −∞) = ±π, atan2(±∞, finite) =
  /// ±π/2, atan2(±∞, +∞) = ±π/4, atan2(±∞, −∞) = ±3π/4; NaN if either is.
  public static func atan2(y: Double, x: Double) -> Double {
    if x.isNaN || y.isNaN { return .nan }
    let angle = angleOfPoint(x: x, y: y.magnitude)
    return y.sign == .minus ? -angle : angle
  }

  /// atan2(y, x) for y ≥ 0 (sign included: +0 or −0 as y, π for x < 0).
  static func angleOfPoint(x: Double, y: Double) -> Double {
    var ax = x.magnitude, ay = y
    let left = x.sign == .minus
    if ax.isInfinite || ay.isInfinite {
      if ax.isInfinite && ay.isInfinite { return left ? DoubleDouble.threePiOver4.high : DoubleDouble.piOver4.high }
      if ay.isInfinite { return DoubleDouble.piOver2.high }
      return left ? DoubleDouble.pi.high : 0
    }
    if ay == 0 { return left ? DoubleDouble.pi.high : 0 }
    if ax == 0 { return DoubleDouble.piOver2.high }
    // Both tiny: scale by 2¹⁰⁰⁰ (exact) so that the quotient's remainder
    // does not underflow.
    if max(ax, ay) < tinyOperands {
      ax *= tinyOperandScale
      ay *= tinyOperandScale
    }
    if ay <= ax {
      let exponentGap = Int(ay.exponent) - Int(ax.exponent)
      if !left && exponentGap < directQuotientExponentGap {
        // atan t = t·(1 − t²/3 + …) = t to 2⁻¹²⁰: the quotient itself,
        // formed at the scale of x and rounded once at its own, less
        // 2⁻¹²⁰ of it so that a quotient exactly halfway between two
        // subnormals rounds down, as atan t < t does.
        let raised = Double(sign: .plus, exponent: ax.exponent, significand: ay.significand)
        let t = quotient(raised, ax)
        return DoubleDouble.rounded(DoubleDouble(t.high, t.low - t.high * 0x1p-120), timesPowerOfTwo: exponentGap)
      }
      let angle = arctangent(quotient(ay, ax))
      return (left ? DoubleDouble.pi - angle : angle).rounded
    }
    let angle = arctangent(quotient(ax, ay))
    return (left ? DoubleDouble.piOver2 + angle : DoubleDouble.piOver2 - angle).rounded
  }

  /// Below this, both operands of `atan2` are scaled up by `tinyOperandScale`.
  static let tinyOperands = 0x1p-900
  static let tinyOperandScale = 0x1p1000
  /// |y/x| < 2^(this gap) makes atan2(y, x > 0) equal to the quotient to 2⁻¹²⁰.
  static let directQuotientExponentGap = -60

  /// arccos x in radians, in [0, π].
  ///
  /// Algorithm: acos x = 2·atan √((1 − x)/(1 + x)) for x ≥ 0, and
  /// π − 2·atan √((1 + x)/(1 − x)) for x < 0 (1 ± x exact in double-double,
  /// so there is no cancellation near ±1); relative error below 2⁻⁹⁶.
  ///
  /// Special values: acos(1) = +0, acos(−1) = π (rounded); NaN for |x| > 1
  /// and NaN.
  public static func acos(_ x: Double) -> Double {
    guard x.magnitude <= 1 else { return .nan }  // NaN too
    if x == 1 { return 0 }
    let oneMinus = DoubleDouble.sum(1, -x), onePlus = DoubleDouble.sum(1, x)
    if x >= 0 { return (arctangent(DoubleDouble.squareRoot(oneMinus / onePlus)) * 2).rounded }
    if x == -1 { return DoubleDouble.pi.high }
    return (DoubleDouble.pi - arctangent(DoubleDouble.squareRoot(onePlus / oneMinus)) * 2).rounded
  }

  /// a/b in double-double for finite positive doubles whose quotient's
  /// remainder is representable.
  static func quotient(_ a: Double, _ b: Double) -> DoubleDouble {
    let q = a / b
    let p = DoubleDouble.product(q, b)
    return DoubleDouble.quickSum(q, ((a - p.high) - p.low) / b)
  }

  /// atan t in double-double for 0 ≤ t ≤ 1 (relative error below 2⁻¹⁰⁰):
  /// with c = j/16 the nearest sixteenth, atan t = atan c + atan u where
  /// u = (t − c)/(1 + t·c), |u| ≤ 1/32, and atan u = u·Σ (−u²)ᵏ/(2k+1) to
  /// k = 11 (the rest is below 2⁻¹¹⁵).
  static func arctangent(_ t: DoubleDouble) -> DoubleDouble {
    let j = Int(DoubleDouble.nearestInteger(t.high * 16))
    let c = Double(j) / 16
    let u = j == 0 ? t : (t + -c) / (t * c + 1)
    let minusU2 = -(u * u)
    // The terms from k = 5 on are below 2⁻⁵⁰·u and summed in doubles.
    var tail = oddReciprocals[11].high
    for k in stride(from: 10, through: 5, by: -1) { tail = tail * minusU2.high + oddReciprocals[k].high }
    var series = DoubleDouble(tail)
    for k in stride(from: 4, through: 0, by: -1) { series = series * minusU2 + oddReciprocals[k] }
    let small = u * series
    return j == 0 ? small : arctangentOfSixteenths[j] + small
  }

  /// atan(j/16) for j = 0…16 as double-doubles (high, low), from mpmath at
  /// 400 bits (scripts/portable-math-fixtures.py prints them).
  static let arctangentOfSixteenths: [DoubleDouble] = [
    DoubleDouble(0.0, 0.0),
    DoubleDouble(0.06241880999595735, -1.5490756308295046e-18),
    DoubleDouble(0.12435499454676144, -3.1253241424539383e-18),
    DoubleDouble(0.18534794999569476, 4.180692268843079e-18),
    DoubleDouble(0.24497866312686414, 1.0698755618734451e-17),
    DoubleDouble(0.3028848683749714, -1.1010827903001369e-17),
    DoubleDouble(0.35877067027057225, -2.4623815582638635e-17),
    DoubleDouble(0.4124104415973873, -1.587652227770689e-17),
    DoubleDouble(0.4636476090008061, 2.2698777452961687e-17),
    DoubleDouble(0.5123894603107377, -2.5462781472855804e-17),
    DoubleDouble(0.5585993153435624, -5.4556305485916264e-18),
    DoubleDouble(0.6022873461349642, 2.950430737228402e-17),
    DoubleDouble(0.6435011087932844, 1.5834785051444286e-17),
    DoubleDouble(0.6823165548747481, 6.943223671560008e-18),
    DoubleDouble(0.7188299996216245, -2.1478388444456983e-17),
    DoubleDouble(0.7531512809621944, -2.4256934659182068e-17),
    DoubleDouble(0.7853981633974483, 3.061616997868383e-17),
  ]
}
