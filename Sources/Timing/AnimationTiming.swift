/// Where an animation stands at a moment: progress P along the move, its
/// rate, and the weight B of an inherited velocity, so that a property
/// moving from `from` to `to` with inherited scene velocity `v` is at
/// `from + P·(to − from) + B·v`, moving at `dP·(to − from) + dB·v`.
///
/// For curves B = 0 (a curve cannot start from a velocity). For springs
/// P = 1 − a(τ) + b(τ)·w (w: the spring's own initial velocity) and
/// B = b(τ)/S (S: the total speed), from the spring's unit responses.
public struct AnimationProgress: Sendable, Equatable {
  public var progress: Double
  public var progressRate: Double
  public var velocityWeight: Double
  public var velocityWeightRate: Double
  /// True once the animation is over and shows exactly its target: a curve
  /// after its duration, any animation after its last repeat.
  public var isComplete: Bool

  static let complete = AnimationProgress(
    progress: 1, progressRate: 0, velocityWeight: 0, velocityWeightRate: 0, isComplete: true)
}

/// An animation with its durations resolved for one move: what a property
/// runs. Durations depend on the move only through a spring's settling
/// duration, which depends on the initial velocity in moves per second.
public struct AnimationTiming: Sendable, Hashable {
  public let animation: Animation
  /// The base's duration in its own time (curve duration, settling duration).
  public let baseDuration: Double
  /// `passDurations[i]`: the duration in scene time of the base wrapped in
  /// `modifiers[0..<i]`; the last entry is the whole animation's
  /// (`+∞` under `repeatForever`).
  let passDurations: [Double]
  /// The same with `repeatForever` counted as one pass, or two with
  /// `autoreverses` (a seamless loop), as the default scene duration does.
  let renderingDurations: [Double]

  public init(_ animation: Animation, baseDuration: Double) {
    self.animation = animation
    self.baseDuration = baseDuration
    var total = baseDuration
    var rendering = baseDuration
    var totals = [total]
    var renderings = [rendering]
    for modifier in animation.modifiers {
      switch modifier {
      case .delay(let d):
        total += d; rendering += d
      case .speed(let s):
        total /= s; rendering /= s
      case .repeat(let count?, _):
        total *= Double(count); rendering *= Double(count)
      case .repeat(nil, let autoreverses):
        total = .infinity; rendering *= autoreverses ? 2 : 1
      }
      totals.append(total)
      renderings.append(rendering)
    }
    passDurations = totals
    renderingDurations = renderings
  }

  /// Resolves `animation` for a move with no inherited velocity.
  public init(_ animation: Animation) {
    self.init(animation, baseDuration: animation.baseDuration())
  }

  /// Seconds of scene time until the animation is complete; `+∞` for `repeatForever`.
  public var duration: Double { passDurations.last! }

  /// Seconds of scene time it takes to render: `duration`, with
  /// `repeatForever` counted as one pass, or two with `autoreverses`.
  public var renderingDuration: Double { renderingDurations.last! }

  /// The progress `elapsed` seconds of scene time after the animation began.
  public func progress(at elapsed: Double) -> AnimationProgress {
    // A finished curve is exactly at its target. A spring is not cut short:
    // its closed form keeps converging, so a settled spring never visibly
    // snaps; only the end of its repeats completes it.
    if elapsed >= duration, case .curve = animation.base { return .complete }
    var time = max(elapsed, 0)
    var rate = 1.0
    var reversed = false
    var stalled = false  // waiting in a delay: time stands still
    for index in animation.modifiers.indices.reversed() {
      switch animation.modifiers[index] {
      case .speed(let s):
        time *= s
        rate *= s
      case .delay(let d):
        if time < d {
          time = 0
          stalled = true
        } else {
          time -= d
        }
      case .repeat(let count, let autoreverses):
        let pass = passDurations[index]
        guard pass > 0, pass.isFinite else { continue }
        if let count, time >= Double(count) * pass {
          // SwiftUI shows the target once the repeats are over, even after
          // an even number of reversing passes.
          return .complete
        }
        let passIndex = (time / pass).rounded(.down)
        time -= passIndex * pass
        if autoreverses && Int(passIndex) % 2 == 1 { reversed.toggle() }
      }
    }
    if stalled { rate = 0 }

    var result: AnimationProgress
    switch animation.base {
    case .curve(let function, let duration):
      let u = time / duration
      if u >= 1 {
        result = AnimationProgress(progress: 1, progressRate: 0, velocityWeight: 0, velocityWeightRate: 0, isComplete: false)
      } else {
        result = AnimationProgress(
          progress: function.value(at: u), progressRate: function.derivative(at: u) * rate / duration,
          velocityWeight: 0, velocityWeightRate: 0, isComplete: false)
      }
    case .spring(let spring, let ownVelocity):
      result = Self.springProgress(spring, ownVelocity: ownVelocity, time: time, rate: rate, speed: animation.totalSpeed)
    case .uikitSpring(let spring, _, _, let ownVelocity):
      result = Self.springProgress(spring, ownVelocity: ownVelocity, time: time, rate: rate, speed: animation.totalSpeed)
    }
    if reversed {
      result.progress = 1 - result.progress
      result.progressRate = -result.progressRate
      result.velocityWeight = -result.velocityWeight
      result.velocityWeightRate = -result.velocityWeightRate
    }
    return result
  }

  private static func springProgress(
    _ spring: Spring, ownVelocity w: Double, time: Double, rate: Double, speed: Double
  ) -> AnimationProgress {
    let r = spring.response(at: time)
    // Unit move from 0 to 1: y₀ = −1, own velocity w ⇒ x = 1 − a + b·w.
    return AnimationProgress(
      progress: 1 - r.a + r.b * w,
      progressRate: (-r.da + r.db * w) * rate,
      // An inherited scene velocity v is v/S in the spring's own time.
      velocityWeight: r.b / speed,
      velocityWeightRate: r.db * rate / speed,
      isComplete: false)
  }
}
