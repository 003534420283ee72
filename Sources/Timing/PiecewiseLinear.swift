import Primitives

/// A value moving linearly between timed points, as a finger moves a
/// dragged layer or scrubs an animator: the first point's value before
/// it, the last point's from it on (at rest), and between points the
/// line's value and slope; at an inner point the segment that starts
/// there gives the slope.
enum PiecewiseLinear {
  /// `count` points, the i-th at `time(i)` (increasing) with `value(i)`.
  static func sample<V: VectorArithmetic>(_ count: Int, at t: Double, time: (Int) -> Double, value: (Int) -> V) -> (value: V, rate: V) {
    let last = count - 1
    if count == 1 || t < time(0) { return (value(0), .zero) }
    if t >= time(last) { return (value(last), .zero) }
    // The segment [k, k + 1] containing t.
    var lo = 0, hi = last
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if time(mid) <= t { lo = mid } else { hi = mid }
    }
    let slope = (value(hi) - value(lo)) * (1 / (time(hi) - time(lo)))
    return (value(lo) + slope * (t - time(lo)), slope)
  }
}
