extension Spring {
  /// A spring from a perceptual duration in seconds and a bounce in −1…1,
  /// as SwiftUI's `Spring(duration:bounce:)`: mass 1, stiffness (2π/duration)²,
  /// damping ratio 1 − bounce for bounce ≥ 0 and 1/(1 + bounce) below 0.
  public init(duration: Double = 0.5, bounce: Double = 0) {
    precondition(duration > 0, "duration must be positive")
    precondition(bounce > -1 && bounce <= 1, "bounce must be in (−1, 1]")
    self.init(naturalFrequency: 2 * .pi / duration, dampingRatio: Self.dampingRatio(bounce: bounce))
  }

  /// SwiftUI's `Spring(response:dampingFraction:)`: `response` is the
  /// perceptual duration, `dampingFraction` the damping ratio.
  public init(response: Double, dampingFraction: Double) {
    precondition(response > 0, "response must be positive")
    self.init(naturalFrequency: 2 * .pi / response, dampingRatio: dampingFraction)
  }

  /// Core Animation's `CASpringAnimation(perceptualDuration:bounce:)`, the
  /// same parameterization as SwiftUI's.
  public init(perceptualDuration: Double, bounce: Double) {
    self.init(duration: perceptualDuration, bounce: bounce)
  }

  /// The perceptual duration, 2π/ω₀ seconds (`response` in older SwiftUI).
  public var duration: Double { 2 * .pi / naturalFrequency }

  /// The bounce, −1…1: 1 − ζ when ζ ≤ 1, 1/ζ − 1 when over-damped.
  public var bounce: Double { dampingRatio <= 1 ? 1 - dampingRatio : 1 / dampingRatio - 1 }

  /// ζ for a bounce, as SwiftUI maps it.
  public static func dampingRatio(bounce: Double) -> Double {
    bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
  }
}
