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
    /// The progress curve from unit time u0 toward u1 (1, or 0 when
    /// reversed) at `rate` unit time per second, for `length` seconds.
    case curve(TimingFunction, u0: Double, u1: Double, rate: Double, length: Double)
    /// One spring per channel from `from` toward `to`, each channel with
    /// its own initial velocity (progress per second). The closed form
    /// runs on after `length`, so a settled spring never snaps.
    case spring(Spring, from: Double, to: Double, velocity: (Double, Double))
    /// The finger: linear between the points.
    case scrub([ScrubPoint])
  }

  /// UIKit's default duration, seconds.
  public static let defaultDuration = 0.2
  /// The timing a scene's animator has when it gives none: UIKit's default curve.
  public static let defaultTimingText = "UICubicTimingParameters(.easeInOut)"

  let stages: [(start: Double, stage: Stage)]
  /// When the animator is done, seconds after it started.
  public let duration: Double
  /// The progress it ends at: 1, or 0 when reversed.
  public let endProgress: Double

  /// - Parameters:
  ///   - duration: the animator's duration (UIKit's default 0.2).
  ///   - scrub: the finger's points; `continueTiming`, `durationFactor`
  ///     and `reversed` say how it finishes after them, and need them.
  ///   - continueTiming: the timing after the scrub (default `timing`).
  ///   - durationFactor: UIKit's `continueAnimation(withTimingParameters:durationFactor:)`; 0 keeps the duration.
  /// Nil when a spring timing cannot settle in the time it is given (no
  /// spring of that damping ratio and velocity settles in it, as
  /// `uikitSpring` says); a damping ratio above 1 is taken as 1, as
  /// `uikitSpring` takes it.
  /// - Precondition: the damping ratio is positive and the velocities finite.
  public init?(
    timing: AnimatorTiming, duration: Double, scrub: [ScrubPoint] = [], continueTiming: AnimatorTiming? = nil, durationFactor: Double = 0,
    reversed: Bool = false
  ) {
    precondition(!scrub.isEmpty || (continueTiming == nil && durationFactor == 0 && !reversed), "continuing or reversing needs a scrub")
    var stages: [(Double, Stage)] = []
    var t = 0.0
    if scrub.isEmpty {
      switch timing {
      case .cubic(let curve):
        stages.append((0, .curve(curve, u0: 0, u1: 1, rate: 1 / duration, length: duration)))
        t = duration
      case .spring(let form, let dx, let dy):
        let (spring, length): (Spring, Double)
        switch form {
        case .dampingRatio(let zeta):
          guard let fitted = Self.fitted(duration: duration, dampingRatio: zeta, dx: dx) else { return nil }
          (spring, length) = (fitted, duration)
        case .physical(let s): (spring, length) = (s, s.uikitSettlingDuration(initialVelocity: dx))
        case .durationBounce(let s): (spring, length) = (s, s.settlingDuration(initialVelocity: dx))
        }
        stages.append((0, .spring(spring, from: 0, to: 1, velocity: (dx, dy))))
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
      let target = reversed ? 0.0 : 1.0
      switch timing {
      case .cubic(let curve):
        let u0 = curve.inverse(f)
        let length = scaled * (reversed ? u0 : 1 - u0)
        if length > 0 { stages.append((t, .curve(curve, u0: u0, u1: target, rate: (reversed ? -1 : 1) / scaled, length: length))) }
        t += length
      case .spring(let form, let dx, let dy):
        let length = scaled * remaining
        if length > 0 {
          guard let spring = Self.fitted(duration: length, dampingRatio: form.dampingRatio, dx: dx) else { return nil }
          stages.append((t, .spring(spring, from: f, to: target, velocity: (dx * (target - f), dy * (target - f)))))
        }
        t += length
      }
    }
    self.stages = stages
    self.duration = t
    self.endProgress = reversed ? 0 : 1
  }

  /// The spring that settles in `duration` as `uikitSpring(duration:
  /// dampingRatio:initialVelocity: dx)` does; an over-damped ratio is
  /// taken as 1.
  static func fitted(duration: Double, dampingRatio: Double, dx: Double) -> Spring? {
    Spring(uikitDuration: duration, dampingRatio: min(dampingRatio, 1), initialVelocity: dx)
  }

  /// One stretch of the animator's life, for `render info`.
  public struct Stretch: Sendable, Hashable, Encodable {
    /// "scrub", "curve" or "spring".
    public var kind: String
    /// Seconds after the animator starts.
    public var start: Double
    public var end: Double
    public init(kind: String, start: Double, end: Double) { self.kind = kind; self.start = start; self.end = end }
  }

  /// The finger's scrub, then the curve or spring that finishes it.
  public var stretches: [Stretch] {
    stages.enumerated().map { k, entry in
      let end = k + 1 < stages.count ? stages[k + 1].start : duration
      switch entry.stage {
      case .scrub: return Stretch(kind: "scrub", start: entry.start, end: end)
      case .curve: return Stretch(kind: "curve", start: entry.start, end: end)
      case .spring: return Stretch(kind: "spring", start: entry.start, end: end)
      }
    }
  }

  /// Progress and its rate (per second) of both channels (0: x and
  /// one-dimensional properties, 1: y) at `t` seconds after the start.
  /// They differ only while a spring runs with different velocities.
  public func progress(at t: Double) -> (value: (Double, Double), rate: (Double, Double)) {
    var index = 0
    while index + 1 < stages.count && stages[index + 1].start <= t { index += 1 }
    let (start, stage) = stages[index]
    let tau = max(0, t - start)
    switch stage {
    case .scrub(let points):
      let (f, rate) = PiecewiseLinear.sample(points.count, at: tau, time: { points[$0].time }, value: { points[$0].fraction })
      return ((f, f), (rate, rate))
    case .curve(let curve, let u0, let u1, let rate, let length):
      if tau >= length { return ((curve.value(at: u1), curve.value(at: u1)), (0, 0)) }
      let u = u0 + rate * tau
      let (f, slope) = (curve.value(at: u), curve.derivative(at: u) * rate)
      return ((f, f), (slope, slope))
    case .spring(let spring, let from, let to, let velocity):
      // One response for both channels: only the velocity term differs.
      let r = spring.response(at: tau)
      let x = to + (from - to) * r.a + velocity.0 * r.b, y = to + (from - to) * r.a + velocity.1 * r.b
      return ((x, y), ((from - to) * r.da + velocity.0 * r.db, (from - to) * r.da + velocity.1 * r.db))
    }
  }
}

/// The steps of SwiftUI's `PhaseAnimator` (docs/scene-format.md, "Phases").
public enum PhaseSchedule {
  public struct Step: Sendable, Hashable {
    public init(time: Double, phase: Int, animation: Animation?) {
      self.time = time; self.phase = phase; self.animation = animation
    }
    /// Scene time.
    public var time: Double
    /// Which phase is set.
    public var phase: Int
    /// nil: at once (phase 0 at the start).
    public var animation: Animation?
  }

  /// When a phase's change is logically complete, in scene time after it
  /// is set: a curve at its end; a spring at 2π/ω₀ (its duration or
  /// response, or 2π√(m/k)); a `uikitSpring` at its duration — each with
  /// its delays, speeds and passes as any animation's duration; never
  /// (+∞) under `repeatForever`, which keeps its phase for good.
  public static func logicalDuration(_ animation: Animation) -> Double {
    let base: Double
    switch animation.base {
    case .spring(let spring, _): base = spring.duration
    case .curve, .uikitSpring: base = animation.baseDuration()
    }
    return AnimationTiming(animation, baseDuration: base).duration
  }

  /// The steps of `phases` phases from `start` with `animations` (one per
  /// phase), until `horizon` when repeating: phase 0 at once, phase 1 right
  /// after with animations[1], each next phase when the previous change
  /// is logically complete, then phase 0 with animations[0]; then again
  /// when repeating; at most `limit` steps.
  public static func steps(
    phases: Int, animations: [Animation], start: Double, repeating: Bool, until horizon: Double, limit: Int = .max
  ) -> [Step] {
    precondition(phases >= 2 && animations.count == phases)
    let durations = animations.map(logicalDuration)
    // A cycle of no length would repeat for ever at one instant: one cycle.
    let repeating = repeating && durations.reduce(0, +) > 0
    var steps = [Step(time: start, phase: 0, animation: nil)]
    var t = start
    var phase = 1
    while t.isFinite && steps.count < limit {
      steps.append(Step(time: t, phase: phase, animation: animations[phase]))
      if phase == 0 && !repeating { break }
      t += durations[phase]
      phase = (phase + 1) % phases
      if repeating && t > horizon { break }
    }
    return steps
  }
}
