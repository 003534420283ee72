import PortableMath
import Primitives

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
    settlingDuration(target: 1.0, initialVelocity: initialVelocity, epsilon: epsilon)
  }

  /// SwiftUI's `settlingDuration(target:initialVelocity:epsilon:)` for a
  /// move of any vector: under-damped −ln(ε / (‖δΔ − v‖ + ‖Δ‖)) / δ, norms
  /// over the whole value (a point is one vector); critically and
  /// over-damped, the 0.1 s rule with ‖remaining‖ below ε. For a move of 1
  /// it is the scalar rule above; a spring keyframe uses it with ε = 0.0001
  /// in property units.
  public func settlingDuration<V: VectorArithmetic>(target move: V, initialVelocity v: V, epsilon: Double) -> Double {
    func norm(_ x: V) -> Double { x.components.reduce(0) { $0 + $1 * $1 }.squareRoot() }
    guard dampingRatio < 1 else { return firstSettled(epsilon: epsilon) { r in norm(move * (-r.a) + v * r.b) } }
    let delta = decayRate
    guard delta > 0 else { return .infinity }
    let scale = norm(move * delta - v) + norm(move)
    guard scale > 0 else { return 0 }
    return max(0, -Elementary.log(epsilon / scale) / delta)
  }

  /// UIKit's settling duration of a spring given by its physics
  /// (CASpringAnimation's `settlingDuration`, and
  /// `UISpringTimingParameters(mass:stiffness:damping:)`): the remaining
  /// distance of a unit move, e^(−δt)(cos ω_d t + (δ − v₀)/ω_d · sin ω_d t),
  /// is bounded by e^(−δt)(1 + |δ − v₀|/ω_d); it is done when that bound
  /// falls to ε = 0.001: t = −ln(ε / (1 + |δ − v₀|/ω_d)) / δ. Critically and
  /// over-damped: the 0.1 s rule.
  public func uikitSettlingDuration(initialVelocity v: Double = 0) -> Double {
    guard dampingRatio < 1 else { return settlingDuration(initialVelocity: v) }
    let delta = decayRate
    guard delta > 0 else { return .infinity }
    let damped = naturalFrequency * (1 - dampingRatio * dampingRatio).squareRoot()
    return -Elementary.log(Self.settlingEpsilon / (1 + abs(delta - v) / damped)) / delta
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
