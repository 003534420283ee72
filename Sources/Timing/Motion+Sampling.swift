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
    /// A keyframe track (one pass).
    case keyframes
    /// An interactive animator.
    case animator
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

/// Times every 1/`rate` seconds from `from` through `to`: sample i at
/// `from + i / rate`, `floor((to − from) × rate + 1e-9) + 1` of them (the
/// epsilon absorbs floating-point error, so 0.7999999999999999 s at 60 per
/// second gives 49 samples, as 0.8 s does). The frames of an output and the
/// samples of `render curve` are both these.
public struct SampleTimes: Sendable, Hashable {
  public var from: Double
  public var to: Double
  /// `samples` samples every `period` seconds: a rational rate, so that
  /// 30000 frames per 1001 s (29.97 fps) times its frames exactly.
  public var samples: Double
  public var period: Double

  public init(from: Double, to: Double, rate: Double) {
    self.init(from: from, to: to, samples: rate, per: 1)
  }

  public init(from: Double, to: Double, samples: Double, per period: Double) {
    self.from = from; self.to = to; self.samples = samples; self.period = period
  }

  /// Samples per second.
  public var rate: Double { samples / period }

  /// The number of samples, in floating point: a huge (or infinite) range
  /// is reported as such rather than trapping.
  public var countEstimate: Double { ((to - from) * samples / period + 1e-9).rounded(.down) + 1 }

  /// The number of samples; nil when it is more than `limit` (or not a
  /// number at all).
  public func count(limit: Int) -> Int? {
    let estimate = countEstimate
    return estimate <= Double(limit) ? Int(estimate) : nil
  }

  /// Sample i's time.
  public func time(_ i: Int) -> Double { from + Double(i) * period / samples }
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

  /// The value and velocity at the first `count` of `times`.
  public func samples(_ times: SampleTimes, count: Int) -> [MotionSample<Value>] {
    samples(at: (0..<count).map(times.time))
  }

  /// The events the motion went through, in time order.
  public var events: [MotionEvent] { segments.dropFirst().compactMap(Self.event) }

  /// The latest event; nil before any.
  public var lastEvent: MotionEvent? { segments.count > 1 ? Self.event(segments.last!) : nil }

  /// The event a segment is; nil for a repetition of earlier ones.
  static func event(_ segment: Segment) -> MotionEvent? {
    switch segment {
    case .periodic: nil
    case .hold(let start, _): MotionEvent(time: start, kind: .immediate, end: start)
    case .curve(let start, _, let timing), .spring(let start, _, _, _, _, let timing):
      MotionEvent(time: start, kind: .animation(timing), end: end(of: segment))
    case .drag(let start, _): MotionEvent(time: start, kind: .drag, end: end(of: segment))
    case .keyframes(let start, _, _): MotionEvent(time: start, kind: .keyframes, end: end(of: segment))
    case .animator(let start, _, _, _): MotionEvent(time: start, kind: .animator, end: end(of: segment))
    }
  }
}
