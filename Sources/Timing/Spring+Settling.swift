import PortableMath

extension Spring {
  /// SwiftUI's threshold for "settled": 0.001 of the move.
  public static let settlingEpsilon = 0.001

  /// The step and the dwell of SwiftUI's settling search for critically and
  /// over-damped springs: the first multiple of `settlingStep` from which
  /// the remaining distance stays below ε for more than `settlingDwell`.
  static let settlingStep = 0.1
  static let settlingDwell = 1.0
  /// The search gives up (and answers +∞) after this much spring time.
  static let settlingSearchLimit = 100_000.0

  /// SwiftUI's `settlingDuration`, in seconds of the spring's own time: when
  /// a move of 1 that starts with `initialVelocity` (moves per second,
  /// positive toward the target) is considered at rest.
  ///
  /// Under-damped: −ln(ε / (|δ − v₀| + 1)) / δ with δ = ζω₀. Critically and
  /// over-damped: the first multiple of 0.1 s (accumulated as SwiftUI does)
  /// from which |remaining| < ε for more than 1 s. An undamped spring never
  /// settles: +∞.
  public func settlingDuration(initialVelocity: Double = 0, epsilon: Double = settlingEpsilon) -> Double {
    if dampingRatio < 1 {
      let delta = decayRate
      guard delta > 0 else { return .infinity }
      return -Elementary.log(epsilon / (abs(delta - initialVelocity) + 1)) / delta
    }
    return firstSettled(epsilon: epsilon) { r in abs(-r.a + r.b * initialVelocity) }
  }

  /// SwiftUI's search for critically and over-damped springs: the first
  /// multiple of 0.1 s (accumulated as SwiftUI does) from which the
  /// remaining distance — `remaining` of the spring's response — stays
  /// below ε for more than 1 s; +∞ when the search gives up.
  func firstSettled(epsilon: Double, remaining: ((a: Double, b: Double, da: Double, db: Double)) -> Double) -> Double {
    var time = 0.0
    var settledSince: Double?
    while time < Self.settlingSearchLimit {
      if remaining(response(at: time)) < epsilon {
        if let since = settledSince {
          if time - since > Self.settlingDwell { return since }
        } else {
          settledSince = time
        }
      } else {
        settledSince = nil
      }
      time += Self.settlingStep
    }
    return .infinity
  }
}
