import Primitives

// Large blurs at reduced resolution.
//
// A Gaussian of σ pixels passes almost nothing of an image finer than σ/3
// pixels, so from σ = 16 on the image is reduced k times (k, a power of two,
// at most σ/8) with a tent filter of half-width k, blurred there by the box
// passes with σ' chosen so the variances add up to σ², and enlarged back by
// linear interpolation (where a shadow's fractional offset is applied at no
// extra cost). The box passes' work shrinks k² times; what is left at full
// size is one reading and one writing pass.
//
// What the reduction adds to the box passes' own error (1-D, against the
// true Gaussian, worst case over a step, a box, a three-pixel line and a
// single pixel at every phase of the grid): the tent's aliasing, 0.02% of
// full scale at σ = 16 (k = 2) and 0.05% at σ = 48 (k = 4); the linear
// enlargement, under 0.2% (σ' ≥ 8). `LargeBlurTests` checks the whole 2-D
// path against the true Gaussian.

extension GaussianBlur {
  /// The reduction for σ: the largest power of two ≤ σ/8 (1, none, below
  /// σ = 16), so that σ' ≥ 8 on the reduced grid and the enlargement's
  /// linear interpolation stays within 0.2% of the smooth curve.
  static func decimation(for sigma: Double) -> Int {
    var k = 1
    while Double(2 * k) <= sigma / 8 && k < 1 << 20 { k *= 2 }
    return k
  }
}
