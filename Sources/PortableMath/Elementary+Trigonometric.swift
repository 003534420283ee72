extension Elementary {
  /// Arguments up to this magnitude (the double nearest π/4) need no
  /// reduction.
  static let quarterPi = 0.785398163397448279

  /// sin x, x in radians.
  ///
  /// Algorithm: for |x| ≤ 2²⁰ a fast path (`quickReduce`,
  /// `quickSineCosine`: Cody–Waite reduction and a table of sin(j/64),
  /// cos(j/64)) whose result is returned when its error bound leaves no
  /// doubt about the rounding; otherwise x = n·π/2 + r with |r| ≤ π/4
  /// (`reduce`, exact enough for any finite double), then Taylor series in r
  /// (`sineOfReduced`, `cosineOfReduced`) in double-double; relative error
  /// below 2⁻¹⁰⁰.
  ///
  /// Special values: sin(±0) = ±0; NaN for ±∞ and NaN.
  public static func sin(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    if x.magnitude < tinyAngle { return x }
    if x.magnitude <= quickReductionLimit {
      let (n, r) = quickReduce(x.magnitude)
      let (s, c) = quickSineCosine(r)
      if let v = quickRounded(n & 1 == 0 ? s : c, quadrant: n) { return (n & 2 == 0) == (x > 0) ? v : -v }
    }
    return accurateSine(x)
  }

  /// sin x by the full double-double evaluation, for finite |x| ≥ 2⁻²⁷.
  static func accurateSine(_ x: Double) -> Double {
    if x.magnitude <= quarterPi { return sineOfReduced(DoubleDouble(x)).rounded }
    let (n, r) = reduce(x.magnitude)
    let s = n & 1 == 0 ? sineOfReduced(r) : cosineOfReduced(r)
    return (n & 2 == 0) == (x > 0) ? s.rounded : -s.rounded
  }

  /// cos x, x in radians; as `sin`.
  ///
  /// Special values: cos(±0) = 1; NaN for ±∞ and NaN.
  public static func cos(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    if x.magnitude < tinyAngle { return 1 }
    if x.magnitude <= quickReductionLimit {
      let (n, r) = quickReduce(x.magnitude)
      let (s, c) = quickSineCosine(r)
      if let v = quickRounded(n & 1 == 0 ? c : s, quadrant: n) { return (n + 1) & 2 == 0 ? v : -v }
    }
    return accurateCosine(x)
  }

  /// cos x by the full double-double evaluation, for finite |x| ≥ 2⁻²⁷.
  static func accurateCosine(_ x: Double) -> Double {
    if x.magnitude <= quarterPi { return cosineOfReduced(DoubleDouble(x)).rounded }
    let (n, r) = reduce(x.magnitude)
    let c = n & 1 == 0 ? cosineOfReduced(r) : sineOfReduced(r)
    return (n + 1) & 2 == 0 ? c.rounded : -c.rounded
  }

  /// (sin x, cos x), each exactly as `sin` and `cos` return it, with one
  /// argument reduction.
  public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    guard x.isFinite else { return (.nan, .nan) }
    if x.magnitude < tinyAngle { return (x, 1) }
    if x.magnitude <= quickReductionLimit {
      let (n, r) = quickReduce(x.magnitude)
      let (s, c) = quickSineCosine(r)
      let (sine, cosine) =
        n & 1 == 0 ? (quickRounded(s, quadrant: n), quickRounded(c, quadrant: n)) : (quickRounded(c, quadrant: n), quickRounded(s, quadrant: n))
      return (
        sine.map { (n & 2 == 0) == (x > 0) ? $0 : -$0 } ?? accurateSine(x),
        cosine.map { (n + 1) & 2 == 0 ? $0 : -$0 } ?? accurateCosine(x)
      )
    }
    return (accurateSine(x), accurateCosine(x))
  }

  /// tan x, x in radians: the quotient of the double-double sine and cosine
  /// of the reduced argument (−cos r / sin r in odd quadrants); relative
  /// error below 2⁻⁹⁸.
  ///
  /// Special values: tan(±0) = ±0; NaN for ±∞ and NaN. (No double is close
  /// enough to an odd multiple of π/2 for the result to overflow.)
  public static func tan(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    if x.magnitude < tinyAngle { return x }  // ±0 too, which the quotient would make +0
    if x.magnitude <= quickReductionLimit {
      let (n, r) = quickReduce(x.magnitude)
      let (s, c) = quickSineCosine(r)
      let t = n & 1 == 0 ? s / c : -(c / s)
      // The quotient doubles the relative errors of the series (r's
      // relative error included); π/2's truncation δ moves tan by
      // (1 + tan²)·δ.
      let bound = 2 * quickRelativeError * t.high.magnitude + Double(n) * quickReductionError * (1 + t.high * t.high)
      if let v = roundedIfCertain(t, error: bound) { return x > 0 ? v : -v }
    }
    if x.magnitude <= quarterPi {
      let (s, c) = sineAndCosineOfReduced(DoubleDouble(x))
      return (s / c).rounded
    }
    let (n, r) = reduce(x.magnitude)
    let (s, c) = sineAndCosineOfReduced(r)
    let t = n & 1 == 0 ? s / c : -(c / s)
    return x > 0 ? t.rounded : -t.rounded
  }

  /// Below 2⁻²⁷, sin x and tan x round to x and cos x to 1: x³/3 and x²/2
  /// are under half an ulp.
  static let tinyAngle = 0x1p-27

  /// Both series of one reduced argument, r² computed once.
  @inline(__always) static func sineAndCosineOfReduced(_ r: DoubleDouble) -> (DoubleDouble, DoubleDouble) {
    let minusR2 = -(r * r)
    return (r * sineSeries(minusR2), cosineSeries(minusR2))
  }

  static func sineOfReduced(_ r: DoubleDouble) -> DoubleDouble { r * sineSeries(-(r * r)) }

  static func cosineOfReduced(_ r: DoubleDouble) -> DoubleDouble { cosineSeries(-(r * r)) }

  /// sin r / r = Σ (−r²)ᵏ/(2k+1)! for |r| ≤ π/4, given −r²; the terms past
  /// k = 13 are below 2⁻¹¹⁰, and those from k = 8 on are small enough to
  /// sum in doubles.
  static func sineSeries(_ minusR2: DoubleDouble) -> DoubleDouble {
    var tail = inverseFactorials[27].high
    for k in stride(from: 12, through: 8, by: -1) { tail = tail * minusR2.high + inverseFactorials[2 * k + 1].high }
    var series = DoubleDouble(tail)
    for k in stride(from: 7, through: 0, by: -1) { series = series * minusR2 + inverseFactorials[2 * k + 1] }
    return series
  }

  /// cos r = Σ (−r²)ᵏ/(2k)! for |r| ≤ π/4, given −r².
  static func cosineSeries(_ minusR2: DoubleDouble) -> DoubleDouble {
    var tail = inverseFactorials[26].high
    for k in stride(from: 12, through: 8, by: -1) { tail = tail * minusR2.high + inverseFactorials[2 * k].high }
    var series = DoubleDouble(tail)
    for k in stride(from: 7, through: 0, by: -1) { series = series * minusR2 + inverseFactorials[2 * k] }
    return series
  }

  /// Bits of 2/π, after one word of zeros: bit i of 2/π (weight 2⁻ⁱ) is bit
  /// i + 63 of this array counting from the top of word 0.
  static let twoOverPi: [UInt64] = [
    0,
    0xA2F9_836E_4E44_1529, 0xFC27_57D1_F534_DDC0, 0xDB62_9599_3C43_9041,
    0xFE51_63AB_DEBB_C561, 0xB724_6E3A_424D_D2E0, 0x0649_2EEA_09D1_921C,
    0xFE1D_EB1C_B129_A73E, 0xE882_35F5_2EBB_4484, 0xE99C_7026_B45F_7E41,
    0x3991_D639_8353_39F4, 0x9C84_5F8B_BDF9_283B, 0x1FF8_97FF_DE05_980F,
    0xEF2F_118B_5A0A_6D1F, 0x6D36_7ECF_27CB_09B7, 0x4F46_3F66_9E5F_EA2D,
    0x7527_BAC7_EBE5_F17B, 0x3D07_39F7_8A52_92EA, 0x6BFB_5FB1_1F8D_5D08,
    0x5603_3046_FC7B_6BAB, 0xF0CF_BC20_9AF4_361D,
  ]

  /// x = n·π/2 + r with |r| ≤ π/4, for finite x ≥ π/4 (Payne–Hanek).
  ///
  /// x = m·2^q with m a 53-bit integer. Bits of 2/π worth 2⁻ⁱ with i ≤ q − 2
  /// add multiples of 4 to x·2/π and are skipped; the next 256 bits times m
  /// give the quadrant (2 bits) and 254 bits of fraction, correct to 2⁻²⁰⁰.
  /// No double comes closer than 2⁻⁶² to a multiple of π/2 in units of π/2,
  /// so the fraction keeps at least 138 correct bits, of which the
  /// double-double takes the leading 117; r = fraction·π/2 then has a
  /// relative error below 2⁻¹⁰⁴.
  static func reduce(_ x: Double) -> (n: Int, r: DoubleDouble) {
    let m = x.significandBitPattern | (1 << 52)
    let q = Int(x.exponent) - 52
    let start = q + 62  // bit index of 2^-(q-1) in `twoOverPi`
    let word = start / 64, shift = UInt64(start % 64)
    @inline(__always) func window(_ k: Int) -> UInt64 {
      let a = twoOverPi[word + k], b = twoOverPi[word + k + 1]
      return shift == 0 ? a : (a << shift) | (b >> (64 - shift))
    }
    // P = m × window, bits 0…255 in p1:p2:p3:p4 (bits 256 and up are a
    // multiple of 4).
    let (h3, p4) = m.multipliedFullWidth(by: window(3))
    let (h2, l2) = m.multipliedFullWidth(by: window(2))
    let (h1, l1) = m.multipliedFullWidth(by: window(1))
    let l0 = m.multipliedFullWidth(by: window(0)).low
    let (p3, c3) = l2.addingReportingOverflow(h3)
    let (s2, c2a) = l1.addingReportingOverflow(h2)
    let (p2, c2b) = s2.addingReportingOverflow(c3 ? 1 : 0)
    let p1 = l0 &+ h1 &+ (c2a ? 1 : 0) &+ (c2b ? 1 : 0)
    var n = Int(p1 >> 62)
    // The fraction, 254 bits from the top of f[0].
    var f = ((p1 << 2) | (p2 >> 62), (p2 << 2) | (p3 >> 62), (p3 << 2) | (p4 >> 62), p4 << 2)
    let negative = f.0 >> 63 == 1
    if negative {  // fraction ≥ 1/2: round the quadrant up, take 1 − fraction (to 2⁻²⁵⁶)
      n += 1
      f = (~f.0, ~f.1, ~f.2, ~f.3)
    }
    // Whole zero words first, then the leading zeros of the first non-zero one.
    var zeros = 0
    while f.0 == 0 && zeros < 256 {
      f = (f.1, f.2, f.3, 0)
      zeros += 64
    }
    if zeros >= 256 { return (n, DoubleDouble(0)) }
    let lead = f.0.leadingZeroBitCount
    if lead > 0 {
      f = ((f.0 << lead) | (f.1 >> (64 - lead)), (f.1 << lead) | (f.2 >> (64 - lead)), 0, 0)
      zeros += lead
    }
    // The top 53 bits, then the next 64.
    let fraction = DoubleDouble(
      Double(f.0 >> 11) * Double(sign: .plus, exponent: -53 - zeros, significand: 1),
      Double(((f.0 & 0x7FF) << 53) | (f.1 >> 11)) * Double(sign: .plus, exponent: -117 - zeros, significand: 1))
    let r = fraction * DoubleDouble.piOver2
    return (n, negative ? -r : r)
  }
}
