/// An unevaluated sum `high + low` with |low| ≤ ulp(high)/2: about 106
/// significant bits, the working precision of every function in
/// `Elementary`.
///
/// Built only from IEEE 754 basic operations (+ − × ÷ √, each correctly
/// rounded to nearest-even), so every result is the same on any machine.
/// The exact product uses Veltkamp's split and Dekker's product rather than
/// `Double.addingProduct`, which the baseline x86-64 build compiles to a
/// call of the C library's `fma`. Both are exact, so the choice never shows
/// in a result; it is about cost. Measured on this project's machine
/// (medians of 5): where the CPU has FMA, glibc's `fma` runs the hardware
/// instruction and is about 10% faster (sin 90 ns against 100, exp 290
/// against 300); where it has not (glibc's software `__fma_sse2`, forced
/// with GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2), it is 7 to 12 times
/// slower (sin 990 ns against 83, exp 2,180 against 305). Dekker's product
/// costs the same on every x86-64.
///
/// Error bounds (u = 2⁻⁵³): `sum`, `quickSum` and `product` are exact
/// barring overflow (and, for `product`, underflow of the error term);
/// `+` of two double-doubles of the same sign and `*` have relative error
/// below 4u²; `/` and `squareRoot` below 8u².
struct DoubleDouble: Sendable {
  var high: Double
  var low: Double

  @inline(__always) init(_ high: Double, _ low: Double) {
    self.high = high
    self.low = low
  }

  @inline(__always) init(_ x: Double) {
    high = x
    low = 0
  }

  /// π/2, π, π/4 and 3π/4 to 107 bits (high + low, each the nearest double
  /// to what remains).
  static let piOver2 = DoubleDouble(1.5707963267948966, 6.123233995736766e-17)
  static let pi = DoubleDouble(3.141592653589793, 1.2246467991473532e-16)
  static let piOver4 = DoubleDouble(0.7853981633974483, 3.061616997868383e-17)
  static let threePiOver4 = DoubleDouble(2.356194490192345, 9.184850993605148e-17)
  /// ln 2 and 1/ln 2 = log₂ e.
  static let ln2 = DoubleDouble(0.6931471805599453, 2.3190468138462996e-17)
  static let log2OfE = DoubleDouble(1.4426950408889634, 2.0355273740931033e-17)
  /// log₁₀ 2 and 1/ln 10 = log₁₀ e.
  static let log10Of2 = DoubleDouble(0.30102999566398120, -2.8037281277851704e-18)
  static let log10OfE = DoubleDouble(0.4342944819032518, 1.098319650216765e-17)

  /// The nearest double to `high + low` (for a normalised pair, one
  /// correctly rounded addition).
  @inline(__always) var rounded: Double { high.isFinite && low != 0 ? high + low : high }

  /// a + b exactly (Knuth's two-sum).
  @inline(__always) static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    let bb = s - a
    return DoubleDouble(s, (a - (s - bb)) + (b - bb))
  }

  /// a + b exactly when |a| ≥ |b| or a = 0 (Dekker's fast two-sum).
  @inline(__always) static func quickSum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    return DoubleDouble(s, b - (s - a))
  }

  /// Veltkamp's split of `a` (|a| < 2⁹⁹⁵) into a high half of 26 bits and a
  /// low half: 2²⁷ + 1 is the splitting constant for a 53-bit significand.
  @inline(__always) static func split(_ a: Double) -> (high: Double, low: Double) {
    let c = 134_217_729.0 * a
    let high = c - (c - a)
    return (high, a - high)
  }

  /// Beyond this magnitude the split's 2²⁷·a could overflow; such products
  /// take the exact fused multiply-add instead.
  static let splitLimit = 0x1p995

  /// a·b exactly: Dekker's product of the split halves (exact in IEEE
  /// arithmetic), or a fused multiply-add for operands the split cannot take.
  @inline(__always) static func product(_ a: Double, _ b: Double) -> DoubleDouble {
    let p = a * b
    guard a.magnitude < splitLimit, b.magnitude < splitLimit else { return DoubleDouble(p, (-p).addingProduct(a, b)) }
    let (ah, al) = split(a)
    let (bh, bl) = split(b)
    return DoubleDouble(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
  }

  /// 1/x to double-double precision.
  static func reciprocal(_ x: Double) -> DoubleDouble {
    let q = 1 / x
    guard q.isFinite, q != 0 else { return DoubleDouble(q, 0) }
    let e = product(q, x)
    return DoubleDouble(q, ((1 - e.high) - e.low) / x)
  }

  @inline(__always) static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(-a.high, -a.low) }

  /// The sum, with relative error below 4u² when a and b have the same
  /// sign; under cancellation the error is bounded by 4u²·(|a| + |b|).
  @inline(__always) static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let s = sum(a.high, b.high)
    guard s.high.isFinite else { return DoubleDouble(s.high, 0) }
    return quickSum(s.high, s.low + a.low + b.low)
  }

  @inline(__always) static func + (a: DoubleDouble, b: Double) -> DoubleDouble {
    let s = sum(a.high, b)
    guard s.high.isFinite else { return DoubleDouble(s.high, 0) }
    return quickSum(s.high, s.low + a.low)
  }

  @inline(__always) static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + -b }

  /// The sum with relative error below 3u² whatever the signs (the lows are
  /// added exactly too): for differences that cancel.
  static func accurateSum(_ a: DoubleDouble, _ b: DoubleDouble) -> DoubleDouble {
    var s = sum(a.high, b.high)
    let t = sum(a.low, b.low)
    s.low += t.high
    s = quickSum(s.high, s.low)
    s.low += t.low
    return quickSum(s.high, s.low)
  }

  @inline(__always) static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let p = product(a.high, b.high)
    guard p.high.isFinite, p.high != 0 else { return DoubleDouble(p.high, 0) }
    return quickSum(p.high, p.low + (a.high * b.low + a.low * b.high))
  }

  @inline(__always) static func * (a: DoubleDouble, b: Double) -> DoubleDouble {
    let p = product(a.high, b)
    guard p.high.isFinite, p.high != 0 else { return DoubleDouble(p.high, 0) }
    return quickSum(p.high, p.low + a.low * b)
  }

  static func / (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let q1 = a.high / b.high
    let r = a - b * q1
    let q2 = r.high / b.high
    let r2 = r - b * q2
    return quickSum(q1, q2) + r2.high / b.high
  }

  /// √a for a > 0 (one Newton step from the double square root).
  static func squareRoot(_ a: DoubleDouble) -> DoubleDouble {
    let s = a.high.squareRoot()
    guard s > 0, s.isFinite else { return DoubleDouble(s) }
    let square = product(s, s)
    return quickSum(s, ((a.high - square.high) - square.low + a.low) / (2 * s))
  }

  /// `(high + low)·2ᵉ` correctly rounded to a double, for a normalised
  /// pair, whatever the scale: ±∞ past the largest double, and subnormal
  /// results rounded once on their own grid (a plain `rounded` followed by
  /// scaling would round twice there).
  static func rounded(_ a: DoubleDouble, timesPowerOfTwo e: Int) -> Double {
    let r = a.rounded
    guard r.isFinite, r != 0 else { return r }
    let exponent = Int(r.exponent) + e
    if exponent > Int(Double.greatestFiniteMagnitude.exponent) { return r < 0 ? -.infinity : .infinity }
    if exponent >= Int(Double.leastNormalMagnitude.exponent) {
      return Double(sign: r.sign, exponent: Int(r.exponent) + e, significand: r.significand)
    }
    // Below 2⁻¹⁰⁷⁵ (half the least subnormal) everything rounds to zero.
    let leastSubnormalExponent = Int(Double.leastNonzeroMagnitude.exponent)
    if exponent < leastSubnormalExponent - 1 { return r < 0 ? -0.0 : 0.0 }
    // In units of the least subnormal: h + l with |h| < 2⁵², both exact.
    let shift = e - leastSubnormalExponent
    let h = scaled(a.high, by: shift), l = scaled(a.low, by: shift)
    var n = h.rounded(.toNearestOrEven)
    let f = h - n
    if f == 0.5 && l > 0 { n += 1 } else if f == -0.5 && l < 0 { n -= 1 }
    if n == 0 { return r < 0 ? -0.0 : 0.0 }
    return n * Double.leastNonzeroMagnitude
  }

  /// The integer nearest v (ties to even) for |v| < 2⁵¹, by adding and
  /// removing 1.5·2⁵²: two IEEE additions, where `rounded()` is a call
  /// into the C library's `round` on baseline x86-64 (no SSE4.1).
  @inline(__always) static func nearestInteger(_ v: Double) -> Double {
    (v + roundingShift) - roundingShift
  }

  static let roundingShift = 0x1.8p52

  /// x·2ᵏ, exact while the result is a normal double (two steps, so that k
  /// may exceed the exponent range of one power of two).
  @inline(__always) static func scaled(_ x: Double, by k: Int) -> Double {
    let half = k / 2
    return x * Double(sign: .plus, exponent: half, significand: 1) * Double(sign: .plus, exponent: k - half, significand: 1)
  }
}
