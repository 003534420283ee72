import PortableMath

extension Spring {
  /// UIKit's `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`:
  /// the spring whose motion is considered done at `duration`.
  ///
  /// With ζ = `dampingRatio` and v = `initialVelocity` (in whole distances
  /// per second), ω₀ solves `|ζω₀ − v| / (ω₀√(1−ζ²)) · e^(−ζω₀D) = 0.001`,
  /// the envelope of the remaining distance at D; for ζ = 1 the remaining
  /// distance itself, `|1 + (ω₀ − v)D| · e^(−ω₀D) = 0.001`. Newton steps in
  /// the logarithm of that equation, kept inside a bracket by bisection.
  /// Returns nil when no spring with that damping settles in that time
  /// (a damping ratio outside (0, 1], or one too small to reach 0.001).
  public init?(uikitDuration duration: Double, dampingRatio zeta: Double, initialVelocity v: Double = 0) {
    guard duration > 0, duration.isFinite, zeta > 0, zeta <= 1, v.isFinite else { return nil }
    let logEpsilon = Elementary.log(Self.settlingEpsilon)
    // g(ω) = ln(remaining at D) − ln ε and its derivative.
    let g: (Double) -> (Double, Double)
    let guess: Double
    if zeta < 1 {
      let root = (1 - zeta * zeta).squareRoot()
      g = { omega in
        let lead = zeta * omega - v
        return (
          Elementary.log(abs(lead)) - Elementary.log(omega * root) - zeta * omega * duration - logEpsilon,
          zeta / lead - 1 / omega - zeta * duration
        )
      }
      // Exact when v = 0.
      guess = Elementary.log(zeta / (Self.settlingEpsilon * root)) / (zeta * duration)
    } else {
      g = { omega in
        let lead = 1 + (omega - v) * duration
        return (Elementary.log(abs(lead)) - omega * duration - logEpsilon, duration / lead - duration)
      }
      guess = 10 / duration
    }
    guard let omega = Self.largestRoot(of: g, near: guess) else { return nil }
    self.init(naturalFrequency: omega, dampingRatio: zeta)
  }

  /// The largest positive root of a function that tends to −∞: bracket it
  /// by doubling and halving from `near`, then Newton with bisection.
  static func largestRoot(of g: (Double) -> (Double, Double), near start: Double) -> Double? {
    var hi = max(start, 1e-6)
    var iterations = 0
    while !(g(hi).0 < 0) {
      hi *= 2
      iterations += 1
      if iterations > 200 { return nil }
    }
    var lo = hi
    iterations = 0
    repeat {
      lo /= 2
      iterations += 1
      if lo < 1e-9 || iterations > 200 { return nil }
    } while !(g(lo).0 > 0)
    // Shrink toward the largest sign change: from the top, step down until positive.
    var x = (lo + hi) / 2
    for _ in 0..<200 {
      let (value, slope) = g(x)
      if value > 0 { lo = x } else { hi = x }
      var next = x - value / slope
      if !(next > lo && next < hi) || !next.isFinite { next = (lo + hi) / 2 }
      if abs(next - x) <= 1e-15 * x || hi - lo <= 1e-15 * hi {
        x = next
        break
      }
      x = next
    }
    return x
  }
}
