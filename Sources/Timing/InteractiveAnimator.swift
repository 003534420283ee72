import PortableMath

/// The timing of UIKit's `UIViewPropertyAnimator` (docs/scene-format.md,
/// "Interactive animators").
public enum AnimatorTiming: Sendable, Hashable {
  /// `UICubicTimingParameters`: a progress curve over the duration.
  case cubic(TimingFunction)
  /// `UISpringTimingParameters`, with `initialVelocity` (dx, dy) in whole
  /// remaining distances per second (dx for x and for one-dimensional
  /// properties, dy for y).
  case spring(AnimatorSpring, dx: Double, dy: Double)
}

/// The three forms of `UISpringTimingParameters`.
public enum AnimatorSpring: Sendable, Hashable {
  /// `dampingRatio:`: stiffness and damping chosen so that it settles in
  /// the animator's duration, as `uikitSpring`.
  case dampingRatio(Double)
  /// `mass:stiffness:damping:`: the spring as given, lasting its own
  /// settling duration.
  case physical(Spring)
  /// `duration:bounce:`: SwiftUI's perceptual spring, lasting its own
  /// settling duration.
  case durationBounce(Spring)

  public var dampingRatio: Double {
    switch self {
    case .dampingRatio(let z): z
    case .physical(let s), .durationBounce(let s): s.dampingRatio
    }
  }
}

extension Spring {
  /// UIKit's settling duration of a spring given by its physics
  /// (`UISpringTimingParameters(mass:stiffness:damping:)`, CASpringAnimation's
  /// `settlingDuration`): the remaining distance of a unit move,
  /// e^(−δt)(cos ω_d t + (δ − v₀)/ω_d · sin ω_d t), is bounded by
  /// e^(−δt)(1 + |δ − v₀|/ω_d); it is done when that bound falls to ε = 0.001:
  /// t = −ln(ε / (1 + |δ − v₀|/ω_d)) / δ. (mass 1, stiffness 100, damping 10:
  /// ln(1000 (1 + 5/√75)) / 5 = 1.4727 s.) Critically and over-damped: the
  /// 0.1 s rule of the animations.
  public func uikitSettlingDuration(initialVelocity v: Double = 0) -> Double {
    guard dampingRatio < 1 else { return settlingDuration(initialVelocity: v) }
    let delta = decayRate
    guard delta > 0 else { return .infinity }
    let damped = naturalFrequency * (1 - dampingRatio * dampingRatio).squareRoot()
    return -Elementary.log(Self.settlingEpsilon / (1 + abs(delta - v) / damped)) / delta
  }
}

/// A `UIViewPropertyAnimator`'s progress over time: run, or scrubbed
/// (`fractionComplete` following points, linearly in value) and then
/// continued or reversed. Progress 0 is the values it started from, 1 the
/// targets; a spring's progress differs per channel (0: x and
/// one-dimensional properties, 1: y), each with its own initial velocity.
/// A pure function of time.
public struct InteractiveAnimator: Sendable {
  public struct ScrubPoint: Sendable, Hashable {
    /// Seconds after the animator starts.
    public var time: Double
    /// fractionComplete, 0…1.
    public var fraction: Double
    public init(time: Double, fraction: Double) { self.time = time; self.fraction = fraction }
  }

  /// One stretch of the animator's life.
  enum Stage: Sendable {
    /// The progress curve from unit time u0 at rate `rate` (unit time per
    /// second, negative when reversed) for `length` seconds.
    case curve(TimingFunction, u0: Double, rate: Double, length: Double)
    /// One spring per channel from `from` toward `to`, for `length` seconds.
    case spring(Spring, from: Double, to: Double, velocity: (Double, Double), length: Double)
    /// The finger: linear between the points.
    case scrub([ScrubPoint])
  }

  let stages: [(start: Double, stage: Stage)]
  /// When the animator is done, seconds after it started.
  public let duration: Double

  /// - Parameters:
  ///   - duration: the animator's duration (UIKit's default 0.2).
  ///   - continueTiming: the timing after the scrub (default `timing`).
  ///   - durationFactor: UIKit's `continueAnimation(withTimingParameters:durationFactor:)`; 0 keeps the duration.
  public init(
    timing: AnimatorTiming, duration: Double, scrub: [ScrubPoint] = [], continueTiming: AnimatorTiming? = nil, durationFactor: Double = 0,
    reversed: Bool = false
  ) {
    var stages: [(Double, Stage)] = []
    var t = 0.0
    if scrub.isEmpty {
      switch timing {
      case .cubic(let curve):
        stages.append((0, .curve(curve, u0: 0, rate: 1 / duration, length: duration)))
        t = duration
      case .spring(let form, let dx, let dy):
        let (spring, length) = Self.spring(form, dx: dx, duration: duration)
        stages.append((0, .spring(spring, from: 0, to: 1, velocity: (dx, dy), length: length)))
        t = length
      }
    } else {
      stages.append((0, .scrub(scrub)))
      t = scrub.last!.time
      let f = scrub.last!.fraction
      let timing = continueTiming ?? timing
      let remaining = reversed ? f : 1 - f
      // D′: the duration, or durationFactor · duration / remaining.
      let scaled = durationFactor != 0 && remaining > 0 ? durationFactor * duration / remaining : duration
      switch timing {
      case .cubic(let curve):
        let u0 = curve.inverse(f)
        let length = scaled * (reversed ? u0 : 1 - u0)
        if length > 0 { stages.append((t, .curve(curve, u0: u0, rate: (reversed ? -1 : 1) / scaled, length: length))) }
        t += length
      case .spring(let form, let dx, let dy):
        let length = scaled * remaining
        if length > 0, let spring = Spring(uikitDuration: length, dampingRatio: min(form.dampingRatio, 1), initialVelocity: dx) {
          let target = reversed ? 0.0 : 1.0
          stages.append((t, .spring(spring, from: f, to: target, velocity: (dx * (target - f), dy * (target - f)), length: length)))
        }
        t += length
      }
    }
    self.stages = stages
    self.duration = t
  }

  /// The spring a run uses and how long it lasts.
  static func spring(_ form: AnimatorSpring, dx: Double, duration: Double) -> (Spring, Double) {
    switch form {
    case .dampingRatio(let zeta):
      let spring = Spring(uikitDuration: duration, dampingRatio: min(zeta, 1), initialVelocity: dx) ?? Spring(duration: duration, bounce: 0)
      return (spring, duration)
    case .physical(let s): return (s, s.uikitSettlingDuration(initialVelocity: dx))
    case .durationBounce(let s): return (s, s.settlingDuration(initialVelocity: dx))
    }
  }

  /// Progress and its rate (per second) of `channel` at `t` seconds after
  /// the start; 1 (or 0 when reversed) and at rest once done.
  public func progress(at t: Double, channel: Int = 0) -> (value: Double, rate: Double) {
    var index = 0
    while index + 1 < stages.count && stages[index + 1].start <= t { index += 1 }
    let (start, stage) = stages[index]
    let tau = max(0, t - start)
    switch stage {
    case .scrub(let points):
      if tau <= points[0].time || points.count == 1 { return (points[0].fraction, 0) }
      let last = points.count - 1
      if tau >= points[last].time { return (points[last].fraction, 0) }
      var k = 0
      while points[k + 1].time < tau { k += 1 }
      let a = points[k], b = points[k + 1]
      let slope = (b.fraction - a.fraction) / (b.time - a.time)
      return (a.fraction + slope * (tau - a.time), slope)
    case .curve(let curve, let u0, let rate, let length):
      let u = u0 + rate * min(tau, length)
      if tau >= length { return (curve.value(at: u), 0) }
      return (curve.value(at: u), curve.derivative(at: u) * rate)
    case .spring(let spring, let from, let to, let velocity, let length):
      if tau >= length { return (to, 0) }
      let v = channel == 1 ? velocity.1 : velocity.0
      return (
        spring.value(from: from, to: to, initialVelocity: v, time: tau), spring.velocity(from: from, to: to, initialVelocity: v, time: tau)
      )
    }
  }
}

/// The steps of SwiftUI's `PhaseAnimator` (docs/scene-format.md, "Phases").
public enum PhaseSchedule {
  public struct Step: Sendable, Hashable {
    /// Scene time.
    public var time: Double
    /// Which phase is set.
    public var phase: Int
    /// nil: at once (phase 0 at the start).
    public var animation: Animation?
  }

  /// When a phase's change is logically complete, in scene time after it
  /// is set: a curve at its end; a spring at 2π/ω₀ (its duration or
  /// response, or 2π√(m/k)); a `uikitSpring` at its duration — each plus
  /// its delays, divided by its speeds, times its passes.
  public static func logicalDuration(_ animation: Animation) -> Double {
    var d: Double
    switch animation.base {
    case .curve(_, let duration): d = duration
    case .spring(let spring, _): d = 2 * .pi / spring.naturalFrequency
    case .uikitSpring(_, let duration, _, _): d = duration
    }
    for modifier in animation.modifiers {
      switch modifier {
      case .delay(let delay): d += delay
      case .speed(let s): d /= s
      case .repeat(let count, _): d *= Double(count ?? 1)
      }
    }
    return d
  }

  /// The steps of `phases` phases from `start` with `animations` (one per
  /// phase), until `horizon` when repeating: phase 0 at once, phase 1 right
  /// after with animations[1], each next phase when the previous change
  /// is logically complete, then phase 0 with animations[0]; then again
  /// when repeating.
  public static func steps(phases: Int, animations: [Animation], start: Double, repeating: Bool, until horizon: Double) -> [Step] {
    precondition(phases >= 2 && animations.count == phases)
    var steps = [Step(time: start, phase: 0, animation: nil)]
    var t = start
    var phase = 1
    let cycle = animations.map(logicalDuration).reduce(0, +)
    while true {
      steps.append(Step(time: t, phase: phase, animation: animations[phase]))
      if phase == 0 && (!repeating || cycle <= 0) { break }
      t += logicalDuration(animations[phase])
      phase = (phase + 1) % phases
      if repeating && t > horizon { break }
    }
    return steps
  }
}
