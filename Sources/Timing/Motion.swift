import Primitives

/// How one animatable property moves over scene time: a value and a
/// velocity at any time t, built from the timeline's events in time order.
///
/// Interruption follows SwiftUI (docs/scene-format.md, "Interruption"):
/// - a spring starts from the current value *with the current velocity* of
///   whatever was running — a spring, a curve, a finger — unless the event
///   gives a velocity, which overrides it;
/// - a curve combines: the old motion runs on toward its old target and the
///   new curve blends from that moving value, `v(t) = old(t) + f(t − t₁)·(target − old(t))`;
/// - a finger (drag) moves the value linearly between its points; at the
///   release its velocity is the last segment's slope, handed to a spring
///   that starts exactly then.
///
/// Evaluation is a pure function of t: frames can be computed in any order.
public struct Motion<Value: VectorArithmetic>: Sendable {
  public struct DragPoint: Sendable {
    /// Scene time, seconds.
    public var time: Double
    public var value: Value
    public init(time: Double, value: Value) { self.time = time; self.value = value }
  }

  enum Segment: Sendable {
    case hold(start: Double, value: Value)
    case curve(start: Double, target: Value, timing: AnimationTiming)
    case spring(start: Double, handoff: Double, from: Value, velocity: Value, target: Value, timing: AnimationTiming)
    case drag(start: Double, points: [DragPoint])
    /// A keyframe track from the value and velocity it found.
    /// `period`: it starts over every `period` seconds (nil: it plays once).
    case keyframes(start: Double, track: KeyframeTrack<Value>, period: Double?)
    /// An interactive animator from `from` by `delta.0` (channel 0) and
    /// `delta.1` (channel 1).
    case animator(start: Double, from: Value, delta: (Value, Value), animator: InteractiveAnimator)
    /// From `start` on, the motion repeats what it did over the `period`
    /// before: a cycle that has converged, played for ever.
    case periodic(start: Double, period: Double)

    var start: Double {
      switch self {
      case .hold(let s, _), .curve(let s, _, _), .spring(let s, _, _, _, _, _), .drag(let s, _), .keyframes(let s, _, _),
        .animator(let s, _, _, _), .periodic(let s, _):
        s
      }
    }
  }

  /// In order of start time; the first holds from −∞.
  private(set) var segments: [Segment]

  /// A property that holds `value` until an event changes it.
  public init(_ value: Value) {
    segments = [.hold(start: -.infinity, value: value)]
  }

  // MARK: Building

  /// Applies `withAnimation(animation) { property = target }` at `time`.
  ///
  /// - Parameters:
  ///   - animation: nil changes the value at once.
  ///   - velocity: an initial velocity in units per second of scene time
  ///     that replaces the inherited one (springs only: a curve cannot start
  ///     from a velocity).
  /// - Precondition: `time` is not before the previous event's time.
  public mutating func animate(to target: Value, at time: Double, with animation: Animation?, velocity: Value? = nil) {
    precondition(time >= segments.last!.start, "events must be applied in time order")
    guard let animation else {
      segments.append(.hold(start: time, value: target))
      return
    }
    switch animation.base {
    case .curve(_, let duration):
      segments.append(.curve(start: time, target: target, timing: AnimationTiming(animation, baseDuration: duration)))
    case .spring, .uikitSpring:
      // An explicit velocity replaces both the inherited one and the spring's own.
      let animation = velocity == nil ? animation : animation.withoutOwnVelocity
      let handoff = time + animation.startDelay
      let current = sample(at: handoff, leftLimit: true)
      let initialVelocity = velocity ?? current.velocity
      let timing = AnimationTiming(
        animation,
        baseDuration: Self.springBaseDuration(
          animation, move: target - current.value, velocity: initialVelocity))
      segments.append(
        .spring(start: time, handoff: handoff, from: current.value, velocity: initialVelocity, target: target, timing: timing))
    }
  }

  /// A finger moves the value from `time`: linearly between `points`
  /// (times relative to `time`, increasing), then holds at the last point.
  public mutating func drag(at time: Double, points: [DragPoint]) {
    precondition(time >= segments.last!.start, "events must be applied in time order")
    precondition(!points.isEmpty, "a drag needs points")
    let absolute = points.map { DragPoint(time: time + $0.time, value: $0.value) }
    segments.append(.drag(start: time, points: absolute))
  }

  /// Plays a keyframe track from `time` (SwiftUI's KeyframeAnimator), from
  /// the value and velocity the property has then; with `repeating`, the
  /// track starts over whenever it ends. A later event interrupts it as it
  /// would any motion.
  /// `velocity`, when given, replaces the one the property has.
  /// With a `period`, it starts over every `period` seconds (the longest
  /// track of its event; at least its own length).
  public mutating func play(_ keyframes: [Keyframe<Value>], at time: Double, period: Double? = nil, velocity: Value? = nil) {
    precondition(time >= segments.last!.start, "events must be applied in time order")
    let current = sample(at: time, leftLimit: true)
    let track = KeyframeTrack(keyframes, from: current.value, velocity: velocity ?? current.velocity)
    segments.append(.keyframes(start: time, track: track, period: period.map { max($0, track.duration) }))
  }

  /// Runs a UIKit interactive animator from `time`, from the value the
  /// property has then toward `target`; `split` divides the move between
  /// the animator's channels (x and y of a point; everything else is
  /// channel 0).
  public mutating func animate(
    to target: Value, at time: Double, with animator: InteractiveAnimator, split: (Value) -> (Value, Value) = { ($0, .zero) }
  ) {
    precondition(time >= segments.last!.start, "events must be applied in time order")
    let from = sample(at: time, leftLimit: true).value
    segments.append(.animator(start: time, from: from, delta: split(target - from), animator: animator))
  }

  /// Makes the last event's keyframe track start over every `period`
  /// seconds (its event's longest track; at least its own length).
  public mutating func repeatLastTrack(every period: Double) {
    guard case .keyframes(let start, let track, _) = segments.last! else { preconditionFailure("the last event plays no keyframes") }
    segments[segments.count - 1] = .keyframes(start: start, track: track, period: max(period, track.duration))
  }

  /// From `time` on, repeats the motion of the `period` seconds before it,
  /// for ever: a repeating cycle (SwiftUI's repeating PhaseAnimator) whose
  /// value and velocity at `time` are those at `time − period` (it has
  /// converged), played on without building every cycle.
  public mutating func repeatPeriodically(from time: Double, period: Double) {
    precondition(time >= segments.last!.start && period > 0, "a period after the last event")
    segments.append(.periodic(start: time, period: period))
  }

  /// The settling duration that decides a spring's length for a vector move:
  /// the longest over the components, each with its own initial velocity in
  /// moves per second of the spring's time.
  static func springBaseDuration(_ animation: Animation, move: Value, velocity: Value) -> Double {
    let moves = move.components
    var velocities = velocity.components
    if velocities.isEmpty { velocities = [Double](repeating: 0, count: moves.count) }
    let speed = animation.totalSpeed
    var longest = 0.0
    var measured = false
    for (m, v) in zip(moves, velocities) where m != 0 {
      longest = max(longest, animation.baseDuration(extraVelocity: v / speed / m))
      measured = true
    }
    if !measured {
      // Nothing moves: a velocity alone sets the spring going around its
      // target; measure it against a move of one unit.
      let strongest = velocities.map(abs).max() ?? 0
      longest = animation.baseDuration(extraVelocity: strongest / speed)
    }
    return longest
  }

  // MARK: Evaluating

  /// The value at scene time `time`.
  public func value(at time: Double) -> Value { sample(at: time).value }

  /// The velocity at scene time `time`, in units per second.
  public func velocity(at time: Double) -> Value { sample(at: time).velocity }

  /// Value and velocity at `time`. With `leftLimit`, the velocity of the
  /// motion arriving at `time` (a finger released exactly then still moves).
  public func sample(at time: Double, leftLimit: Bool = false) -> (value: Value, velocity: Value) {
    sample(at: time, segment: segmentIndex(at: time), leftLimit: leftLimit)
  }

  /// The target the property is heading to after every event so far.
  public var target: Value {
    switch segments.last! {
    case .hold(_, let v): v
    case .curve(_, let target, _), .spring(_, _, _, _, let target, _): target
    case .drag(_, let points): points.last!.value
    case .keyframes(_, let track, _): track.end
    case .animator(_, let from, let delta, let animator): from + (delta.0 + delta.1) * animator.endProgress
    case .periodic(let start, _): sample(at: start).value
    }
  }

  /// When the last event's motion ends for rendering: its start plus its
  /// animation's rendering duration (a spring's settling duration; one pass
  /// of `repeatForever`, or two with `autoreverses`); the release of a drag.
  public var endTime: Double { Self.end(of: segments.last!) }

  /// The keyframe track the last event plays; nil when it plays none.
  public var lastKeyframeTrack: KeyframeTrack<Value>? {
    if case .keyframes(_, let track, _) = segments.last! { return track }
    return nil
  }

  /// When the first event changed the value; nil before any.
  public var firstEventTime: Double? { segments.count > 1 ? segments[1].start : nil }

  static func end(of segment: Segment) -> Double {
    switch segment {
    case .hold(let start, _): start
    case .curve(let start, _, let timing), .spring(let start, _, _, _, _, let timing): start + timing.renderingDuration
    case .drag(_, let points): points.last!.time
    case .keyframes(let start, let track, _): start + track.duration
    case .animator(let start, _, _, let animator): start + animator.duration
    case .periodic(let start, _): start
    }
  }

  /// The last segment that has started at `time` (events at t = a affect t ≥ a).
  private func segmentIndex(at time: Double) -> Int {
    var lo = 0, hi = segments.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if segments[mid].start <= time { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  private func sample(at time: Double, segment index: Int, leftLimit: Bool) -> (value: Value, velocity: Value) {
    switch segments[index] {
    case .hold(_, let value):
      return (value, .zero)

    case .curve(let start, let target, let timing):
      let p = timing.progress(at: time - start)
      if p.isComplete { return (target, .zero) }
      let old = sample(at: time, segment: index - 1, leftLimit: leftLimit)
      let gap = target - old.value
      return (old.value + gap * p.progress, old.velocity * (1 - p.progress) + gap * p.progressRate)

    case .spring(let start, let handoff, let from, let velocity, let target, let timing):
      if time < handoff { return sample(at: time, segment: index - 1, leftLimit: leftLimit) }
      let p = timing.progress(at: time - start)
      if p.isComplete { return (target, .zero) }
      let move = target - from
      return (
        from + move * p.progress + velocity * p.velocityWeight,
        move * p.progressRate + velocity * p.velocityWeightRate
      )

    case .drag(_, let points):
      // The finger released exactly now still moves, for a spring that
      // takes over at the release.
      let last = points.count - 1
      if leftLimit && last > 0 && time == points[last].time { return (points[last].value, Self.slope(points[last - 1], points[last])) }
      let s = PiecewiseLinear.sample(points.count, at: time, time: { points[$0].time }, value: { points[$0].value })
      return (s.value, s.rate)

    case .keyframes(let start, let track, let period):
      return period.map { track.sampleRepeating(at: time - start, period: $0) } ?? track.sample(at: time - start)

    case .animator(let start, let from, let delta, let animator):
      let p = animator.progress(at: time - start)
      return (from + delta.0 * p.value.0 + delta.1 * p.value.1, delta.0 * p.rate.0 + delta.1 * p.rate.1)

    case .periodic(let start, let period):
      // The same moment of the cycle before `start`: start − period + (t − start) mod period.
      let earlier = start - period + (time - start).truncatingRemainder(dividingBy: period)
      return sample(at: earlier, segment: segmentIndex(at: earlier), leftLimit: leftLimit)
    }
  }

  private static func slope(_ a: DragPoint, _ b: DragPoint) -> Value {
    (b.value - a.value) * (1 / (b.time - a.time))
  }
}
