import Primitives

/// A motion's value and velocity at one moment.
public struct MotionSample<Value: VectorArithmetic>: Sendable {
  /// Scene time, seconds.
  public var time: Double
  public var value: Value
  /// Units per second of scene time.
  public var velocity: Value
}

/// One event a motion went through: when it began, and when its animation
/// is done.
public struct MotionEvent: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// The value changed at once.
    case immediate
    /// A timing curve or a spring.
    case animation(AnimationTiming)
    /// A finger moved the value until its release.
    case drag
  }

  /// Scene time the event happened, seconds.
  public var time: Double
  public var kind: Kind
  /// When the event's motion is finished for rendering: a spring at its
  /// settling duration, a curve at its end (`repeatForever` counted as one
  /// pass, or two with `autoreverses`), a drag at its release.
  public var end: Double

  /// The animation's base duration for this move, in its own time: a
  /// spring's settling duration (the scene format's, with ε = 0.001 of
  /// the move), a curve's duration; nil for a change without animation.
  public var settlingDuration: Double? {
    if case .animation(let timing) = kind { return timing.baseDuration }
    return nil
  }
}

extension Motion {
  /// The value and velocity at each of `times` (any order; each sample is
  /// the pure function of its time).
  public func samples(at times: [Double]) -> [MotionSample<Value>] {
    times.map { t in
      let s = sample(at: t)
      return MotionSample(time: t, value: s.value, velocity: s.velocity)
    }
  }

  /// Samples every 1/`rate` seconds from `from` through `to` (both
  /// included when `to − from` is a whole number of steps, to within 1e-9
  /// of a step).
  public func samples(from: Double, to: Double, rate: Double) -> [MotionSample<Value>] {
    precondition(rate > 0 && to >= from, "a positive rate over a forward range")
    let count = Int(((to - from) * rate + 1e-9).rounded(.down)) + 1
    return samples(at: (0..<count).map { from + Double($0) / rate })
  }

  /// The events the motion went through, in time order.
  public var events: [MotionEvent] {
    segments.dropFirst().map { segment in
      switch segment {
      case .hold(let start, _): MotionEvent(time: start, kind: .immediate, end: start)
      case .curve(let start, _, let timing), .spring(let start, _, _, _, _, let timing):
        MotionEvent(time: start, kind: .animation(timing), end: Self.end(of: segment))
      case .drag(let start, _): MotionEvent(time: start, kind: .drag, end: Self.end(of: segment))
      }
    }
  }
}
