import PortableMath
import Primitives

/// One keyframe of a track, as SwiftUI's `LinearKeyframe`, `CubicKeyframe`,
/// `SpringKeyframe` and `MoveKeyframe` (docs/scene-format.md, "Keyframes").
public struct Keyframe<Value: Sendable>: Sendable {
  public enum Kind: Sendable {
    /// p0 + (to − p0)·C(s).
    case linear(TimingFunction)
    /// The cubic Hermite curve; a velocity not given is inferred.
    case cubic(startVelocity: Value?, endVelocity: Value?)
    /// The spring from p0 toward `to`; it lasts `duration` when given (and
    /// ends where it has got to), else its settling duration (ε = 0.0001).
    case spring(Spring, startVelocity: Value?)
    /// A jump: it lasts no time.
    case move
  }

  public var kind: Kind
  public var to: Value
  /// Seconds; nil for a move, and for a spring that lasts its settling duration.
  public var duration: Double?

  public init(_ kind: Kind, to: Value, duration: Double?) {
    self.kind = kind
    self.to = to
    self.duration = duration
  }

}

extension Keyframe where Value: VectorArithmetic {
  public static func linear(_ to: Value, duration: Double, timingCurve: TimingFunction = .linear) -> Keyframe {
    Keyframe(.linear(timingCurve), to: to, duration: duration)
  }
  public static func cubic(_ to: Value, duration: Double, startVelocity: Value? = nil, endVelocity: Value? = nil) -> Keyframe {
    Keyframe(.cubic(startVelocity: startVelocity, endVelocity: endVelocity), to: to, duration: duration)
  }
  public static func spring(_ to: Value, duration: Double? = nil, spring: Spring = Spring(.smooth), startVelocity: Value? = nil)
    -> Keyframe
  {
    Keyframe(.spring(spring, startVelocity: startVelocity), to: to, duration: duration)
  }
  public static func move(_ to: Value) -> Keyframe { Keyframe(.move, to: to, duration: nil) }
}

extension Keyframe {
  /// The same keyframe with its values (target and velocities) converted.
  public func map<W: Sendable, E: Error>(_ convert: (Value) throws(E) -> W) throws(E) -> Keyframe<W> {
    let kind: Keyframe<W>.Kind
    switch self.kind {
    case .linear(let curve): kind = .linear(curve)
    case .cubic(let v0, let v1): kind = .cubic(startVelocity: try v0.map(convert), endVelocity: try v1.map(convert))
    case .spring(let spring, let v0): kind = .spring(spring, startVelocity: try v0.map(convert))
    case .move: kind = .move
    }
    return Keyframe<W>(kind, to: try convert(to), duration: duration)
  }

  /// A move, or a linear or cubic keyframe of duration 0 (which is one).
  public var isMove: Bool {
    switch kind {
    case .move: true
    case .linear, .cubic: (duration ?? 0) == 0
    case .spring: false
    }
  }

  var startVelocity: Value? {
    switch kind {
    case .cubic(let v, _), .spring(_, let v): v
    case .linear, .move: nil
    }
  }
}

extension Spring {
  /// A spring keyframe's settling threshold, in property units.
  public static let keyframeEpsilon = 0.0001
}

extension TimingFunction {
  /// The unit time at which the progress reaches `f` (0…1): UIKit's resume
  /// point C⁻¹(f) for a curve whose progress rises from 0 to 1 (for one
  /// that overshoots, a time where it equals f). Once per animator, not
  /// per frame.
  public func inverse(_ f: Double) -> Double {
    if f <= 0 { return 0 }
    if f >= 1 { return 1 }
    if case .linear = self { return f }
    var lo = 0.0, hi = 1.0
    // 64 halvings reach adjacent doubles.
    for _ in 0..<64 {
      let mid = (lo + hi) / 2
      if mid == lo || mid == hi { break }
      if value(at: mid) < f { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }
}

/// A keyframe track played from a value and a velocity: each keyframe
/// starts where the previous one actually ended, its velocities inferred
/// as SwiftUI infers them. Value and velocity at any time, no frame state.
public struct KeyframeTrack<Value: VectorArithmetic>: Sendable {
  /// One keyframe, placed.
  public struct Piece: Sendable {
    public enum Kind: Sendable {
      case linear(TimingFunction)
      case cubic(v0: Value, v1: Value)
      case spring(Spring, v0: Value)
      case move
    }
    /// Seconds after the track's start.
    public var start: Double
    public var duration: Double
    public var from: Value
    public var to: Value
    public var kind: Kind
    /// Where it actually ends: `to`, or where a truncated spring got to.
    public var end: Value
  }

  public let pieces: [Piece]
  /// The sum of the keyframes' durations.
  public let duration: Double
  public let initial: Value

  /// The track `keyframes` played from `value`, moving at `velocity`.
  public init(_ keyframes: [Keyframe<Value>], from value: Value, velocity: Value = .zero) {
    var pieces: [Piece] = []
    var t = 0.0
    var p0 = value
    var previousEnd = velocity
    for (i, k) in keyframes.enumerated() {
      let next = i + 1 < keyframes.count ? keyframes[i + 1] : nil
      if k.isMove {
        pieces.append(Piece(start: t, duration: 0, from: p0, to: k.to, kind: .move, end: k.to))
        p0 = k.to
        previousEnd = .zero
        continue
      }
      let piece: Piece
      // The velocity it ends with, which the next keyframe may start from.
      let endVelocity: Value
      switch k.kind {
      case .linear(let curve):
        let d = k.duration!
        piece = Piece(start: t, duration: d, from: p0, to: k.to, kind: .linear(curve), end: k.to)
        endVelocity = (k.to - p0) * (curve.derivative(at: 1) / d)
      case .cubic(let start, let end):
        let d = k.duration!
        let v0 = start ?? previousEnd
        let v1 = end ?? Self.inferredEnd(from: p0, to: k.to, duration: d, next: next)
        piece = Piece(start: t, duration: d, from: p0, to: k.to, kind: .cubic(v0: v0, v1: v1), end: k.to)
        endVelocity = v1
      case .spring(let spring, let start):
        let v0 = start ?? previousEnd
        let d = k.duration ?? spring.settlingDuration(target: k.to - p0, initialVelocity: v0, epsilon: Spring.keyframeEpsilon)
        let there = spring.sample(from: p0, to: k.to, initialVelocity: v0, time: d)
        piece = Piece(start: t, duration: d, from: p0, to: k.to, kind: .spring(spring, v0: v0), end: there.value)
        endVelocity = there.velocity
      case .move:
        preconditionFailure("handled above")
      }
      pieces.append(piece)
      t += piece.duration
      p0 = piece.end
      previousEnd = endVelocity
    }
    self.pieces = pieces
    self.duration = t
    self.initial = value
  }

  /// A cubic's end velocity when not given: 0 last and before a move; the
  /// next keyframe's start velocity when given; else by the next kind.
  static func inferredEnd(from p0: Value, to: Value, duration d: Double, next: Keyframe<Value>?) -> Value {
    guard let next, !next.isMove else { return .zero }
    if let v = next.startVelocity { return v }
    switch next.kind {
    case .cubic: return (next.to - p0) * (1 / (d + next.duration!))
    case .linear(let curve): return (next.to - to) * (curve.derivative(at: 0) / next.duration!)
    case .spring: return (next.to - p0) * (1 / (2 * d))
    case .move: return .zero
    }
  }

  /// Where the track ends.
  public var end: Value { pieces.last?.end ?? initial }

  /// Each keyframe's kind ("linear", "cubic", "spring", "move"), start and
  /// duration in seconds after the track's start, for `render info`.
  public var layout: [(kind: String, start: Double, duration: Double)] {
    pieces.map { piece in
      let kind =
        switch piece.kind {
        case .linear: "linear"
        case .cubic: "cubic"
        case .spring: "spring"
        case .move: "move"
        }
      return (kind, piece.start, piece.duration)
    }
  }

  /// Value and velocity `t` seconds after the track started; before, its
  /// first value; after its end, the end (at rest). At the end of a
  /// keyframe the earlier keyframe owns the instant; a leading move
  /// applies at t = 0.
  public func sample(at t: Double) -> (value: Value, velocity: Value) {
    // Leading moves have applied at t = 0: the first timed keyframe starts
    // where they left the value.
    if t <= 0 { return pieces.first(where: { $0.duration > 0 }).map { Self.sample($0, at: 0) } ?? (end, .zero) }
    if t > duration { return (end, .zero) }
    // The last piece with start < t (start < t ≤ start + duration): at a
    // join the earlier keyframe owns the instant, and a move between two
    // keyframes starts with the later one.
    var lo = 0, hi = pieces.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if pieces[mid].start < t { lo = mid } else { hi = mid - 1 }
    }
    return Self.sample(pieces[lo], at: t - pieces[lo].start)
  }

  /// A piece at `tau` seconds after its start (0…duration).
  static func sample(_ p: Piece, at tau: Double) -> (value: Value, velocity: Value) {
    guard p.duration > 0 else { return (p.end, .zero) }
    let tau = min(max(tau, 0), p.duration)
    let d = p.duration
    let s = tau / d
    switch p.kind {
    case .move:
      return (p.end, .zero)
    case .linear(let curve):
      let move = p.to - p.from
      return (p.from + move * curve.value(at: s), move * (curve.derivative(at: s) / d))
    case .cubic(let v0, let v1):
      let s2 = s * s, s3 = s2 * s
      let value = p.from * (2 * s3 - 3 * s2 + 1) + v0 * ((s3 - 2 * s2 + s) * d) + p.to * (-2 * s3 + 3 * s2) + v1 * ((s3 - s2) * d)
      let rate = p.from * ((6 * s2 - 6 * s) / d) + v0 * (3 * s2 - 4 * s + 1) + p.to * ((-6 * s2 + 6 * s) / d) + v1 * (3 * s2 - 2 * s)
      return (value, rate)
    case .spring(let spring, let v0):
      return spring.sample(from: p.from, to: p.to, initialVelocity: v0, time: tau)
    }
  }

  /// The same with `"repeating": true`: the timeline starts over every
  /// `period` seconds (its longest track's duration; this track's by
  /// default), from the values it started from; the instant a pass ends
  /// shows that pass's end, and a track shorter than the period holds its
  /// end until the next pass.
  public func sampleRepeating(at t: Double, period: Double) -> (value: Value, velocity: Value) {
    guard period > 0, t > period else { return sample(at: t) }
    var local = t.truncatingRemainder(dividingBy: period)
    if local == 0 { local = period }
    return sample(at: local)
  }
}
