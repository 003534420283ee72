/// An animation as SwiftUI describes one: a base motion (a timing curve over
/// a duration, or a spring) and the modifiers written after it, in order.
///
/// `easeInOut.delay(0.5).speed(2)` is `base = .curve(easeInOut, 0.35)`,
/// `modifiers = [.delay(0.5), .speed(2)]`: the last modifier is the
/// outermost, so scene time t reaches the curve as max(0, 2t − 0.5).
import Syntax

public struct Animation: Sendable, Hashable, CustomStringConvertible {
  public enum Base: Sendable, Hashable {
    /// A timing curve run over `duration` seconds.
    case curve(TimingFunction, duration: Double)
    /// A SwiftUI spring; `initialVelocity` is the spring's own initial
    /// velocity in moves per second (`interpolatingSpring(initialVelocity:)`),
    /// added to any velocity the motion inherits.
    case spring(Spring, initialVelocity: Double)
    /// UIKit's spring animation: done at `duration` by definition, with
    /// `initialVelocity` in whole distances per second.
    case uikitSpring(Spring, duration: Double, dampingRatio: Double, initialVelocity: Double)
  }

  public enum Modifier: Sendable, Hashable {
    /// Waits `d` seconds before starting.
    case delay(Double)
    /// Runs `s` times faster.
    case speed(Double)
    /// Runs `count` passes (each direction is one pass); `nil` repeats forever.
    case `repeat`(count: Int?, autoreverses: Bool)
  }

  public var base: Base
  /// In the order written; the last is the outermost.
  public var modifiers: [Modifier]

  public init(_ base: Base, modifiers: [Modifier] = []) {
    self.base = base
    self.modifiers = modifiers
  }

  // MARK: Constructors matching SwiftUI's

  public static func timingCurve(_ function: TimingFunction, duration: Double = defaultCurveDuration) -> Animation {
    Animation(.curve(function, duration: duration))
  }
  public static func spring(_ spring: Spring, initialVelocity: Double = 0) -> Animation {
    Animation(.spring(spring, initialVelocity: initialVelocity))
  }

  /// SwiftUI's default duration for `linear`, `easeIn`, `easeOut`,
  /// `easeInOut`, `timingCurve` and (here) the easing family.
  public static let defaultCurveDuration = 0.35

  public func delay(_ seconds: Double) -> Animation { appending(.delay(seconds)) }
  public func speed(_ factor: Double) -> Animation { appending(.speed(factor)) }
  public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
    appending(.repeat(count: count, autoreverses: autoreverses))
  }
  public func repeatForever(autoreverses: Bool = true) -> Animation {
    appending(.repeat(count: nil, autoreverses: autoreverses))
  }
  private func appending(_ modifier: Modifier) -> Animation {
    Animation(base, modifiers: modifiers + [modifier])
  }

  // MARK: Properties

  /// The same animation without the base's own initial velocity: an
  /// event's explicit velocity replaces it (docs/scene-format.md, "velocity").
  public var withoutOwnVelocity: Animation {
    var copy = self
    switch base {
    case .curve: break
    case .spring(let s, _): copy.base = .spring(s, initialVelocity: 0)
    case .uikitSpring(let s, let d, let z, _): copy.base = .uikitSpring(s, duration: d, dampingRatio: z, initialVelocity: 0)
    }
    return copy
  }

  /// The spring, if the base is one.
  public var spring: Spring? {
    switch base {
    case .curve: nil
    case .spring(let s, _), .uikitSpring(let s, _, _, _): s
    }
  }

  /// True when some `repeatForever` makes the animation endless.
  public var repeatsForever: Bool {
    modifiers.contains { if case .repeat(nil, _) = $0 { true } else { false } }
  }

  /// The product of every `speed`: how much faster than scene time the base runs.
  public var totalSpeed: Double {
    modifiers.reduce(1) { if case .speed(let s) = $1 { $0 * s } else { $0 } }
  }

  /// Scene time from the start of the animation until its base starts to
  /// move: the delays met before the first pass, each scaled by the speeds
  /// written after it. A spring that interrupts a motion takes over from it
  /// then, with the value and velocity it has at that moment.
  public var startDelay: Double {
    var delay = 0.0
    for modifier in modifiers {
      switch modifier {
      case .delay(let d): delay += d
      case .speed(let s): delay /= s
      case .repeat: break
      }
    }
    return delay
  }

  /// The base's own duration in its own time for a move whose own initial
  /// velocity (moves per second, in the base's time, beyond the base's own
  /// `initialVelocity`) is `extraVelocity`: a curve's duration, a SwiftUI
  /// spring's settling duration, a UIKit spring's given duration.
  public func baseDuration(extraVelocity: Double = 0) -> Double {
    switch base {
    case .curve(_, let duration): duration
    case .spring(let spring, let v): spring.settlingDuration(initialVelocity: v + extraVelocity)
    case .uikitSpring(_, let duration, _, _): duration
    }
  }

  /// A canonical SwiftUI-syntax spelling that parses back to this animation.
  public var description: String {
    var text: String
    switch base {
    case .curve(.bezier(let c), let duration) where ![CubicBezier.easeIn, .easeOut, .easeInOut].contains(c):
      text =
        "timingCurve(\(formatNumber(c.x1)), \(formatNumber(c.y1)), \(formatNumber(c.x2)), \(formatNumber(c.y2)), duration: \(formatNumber(duration)))"
    case .curve(let function, let duration):
      text = "\(function)(duration: \(formatNumber(duration)))"
    case .spring(let s, let v):
      if v == 0 && s.mass == 1 {
        text = "spring(duration: \(formatNumber(s.duration)), bounce: \(formatNumber(s.bounce)))"
      } else {
        text =
          "interpolatingSpring(mass: \(formatNumber(s.mass)), stiffness: \(formatNumber(s.stiffness)), damping: \(formatNumber(s.damping)), initialVelocity: \(formatNumber(v)))"
      }
    case .uikitSpring(_, let duration, let ratio, let v):
      text = "uikitSpring(duration: \(formatNumber(duration)), dampingRatio: \(formatNumber(ratio)), initialVelocity: \(formatNumber(v)))"
    }
    for modifier in modifiers {
      switch modifier {
      case .delay(let d): text += ".delay(\(formatNumber(d)))"
      case .speed(let s): text += ".speed(\(formatNumber(s)))"
      case .repeat(let count?, let autoreverses): text += ".repeatCount(\(count), autoreverses: \(autoreverses))"
      case .repeat(nil, let autoreverses): text += ".repeatForever(autoreverses: \(autoreverses))"
      }
    }
    return text
  }
}
