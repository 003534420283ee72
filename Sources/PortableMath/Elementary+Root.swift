extension Elementary {
  /// The real cube root ∛x (negative for negative x).
  ///
  /// Algorithm: x = m·2^(3q) with 1 ≤ m < 8; three Halley steps in doubles
  /// from a linear first guess give ∛m to about 2⁻⁵²; one Newton step with
  /// the residual m − y³ in double-double then brings the error below
  /// 2⁻¹⁰⁰ before the single rounding of the result times 2^q. Exact cubes
  /// give their exact root (`cbrt(27)` is 3).
  ///
  /// Special values: cbrt(±0) = ±0, cbrt(±∞) = ±∞, NaN for NaN.
  public static func cbrt(_ x: Double) -> Double {
    guard x.isFinite, x != 0 else { return x + x }  // ±0, ±∞, NaN (quieted)
    let e = Int(x.exponent)
    let q = e >= 0 ? e / 3 : -((-e + 2) / 3)  // ⌊e/3⌋
    let m = Double(sign: .plus, exponent: e - 3 * q, significand: x.significand)
    // The chord of ∛m over [1, 8]: within 11% of it; Halley's iteration
    // y ← y·(y³ + 2m)/(2y³ + m) triples the correct digits each step.
    var y = 1 + (m - 1) / 7
    for _ in 0..<halleySteps {
      let y3 = y * y * y
      y *= (y3 + 2 * m) / (2 * y3 + m)
    }
    // Newton: y + (m − y³)/(3y²), with y³ in double-double.
    let cube = DoubleDouble.product(y, y) * y
    let residual = (DoubleDouble(m) - cube).high
    let root = DoubleDouble.quickSum(y, residual / (3 * y * y))
    let value = DoubleDouble.rounded(root, timesPowerOfTwo: q)
    return x < 0 ? -value : value
  }

  /// Halley steps from the chord: errors 0.11 → 10⁻³ → 10⁻⁹ → below 2⁻⁵².
  static let halleySteps = 3
}
