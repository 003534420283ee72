import Foundation
import Testing

@testable import Timing

/// Springs against the independent integration of ../shared/vectors and
/// Apple's documented conversions.
@Suite struct SpringTests {
  static let fixtures = TimingVectors.shared.springs

  @Test(arguments: fixtures.map(\.name))
  func closedFormMatchesIndependentIntegration(_ name: String) {
    let fixture = Self.fixtures.first { $0.name == name }!
    let spring = Spring(mass: fixture.mass, stiffness: fixture.stiffness, damping: fixture.damping)
    #expect(abs(spring.dampingRatio - fixture.dampingRatio) < 1e-12)
    for sample in fixture.samples {
      let value = spring.value(target: fixture.target, initialVelocity: fixture.initialVelocity, time: sample.t)
      let velocity = spring.velocity(target: fixture.target, initialVelocity: fixture.initialVelocity, time: sample.t)
      #expect(abs(value - sample.value) < 1e-8, "value at \(sample.t)")
      #expect(abs(velocity - sample.velocity) < 1e-8, "velocity at \(sample.t)")
    }
  }

  @Test(arguments: fixtures.map(\.name))
  func settlingDurationIsSwiftUIs(_ name: String) {
    let fixture = Self.fixtures.first { $0.name == name }!
    let spring = Spring(mass: fixture.mass, stiffness: fixture.stiffness, damping: fixture.damping)
    #expect(abs(spring.settlingDuration(initialVelocity: fixture.initialVelocity) - fixture.settlingDuration) < 1e-12)
  }

  @Test func conversionsBothWays() {
    for c in TimingVectors.shared.conversions {
      let perceptual = Spring(duration: c.duration, bounce: c.bounce)
      #expect(abs(perceptual.stiffness - c.stiffness) < 1e-9 * c.stiffness)
      #expect(abs(perceptual.damping - c.damping) < 1e-9 * c.damping)
      #expect(abs(perceptual.dampingRatio - c.dampingRatio) < 1e-12)
      let physical = Spring(mass: c.mass, stiffness: c.stiffness, damping: c.damping)
      #expect(abs(physical.duration - c.duration) < 1e-12)
      #expect(abs(physical.bounce - c.bounce) < 1e-12)
      // Core Animation's perceptual parameterization is the same.
      let ca = Spring(perceptualDuration: c.duration, bounce: c.bounce)
      #expect(abs(ca.naturalFrequency - perceptual.naturalFrequency) < 1e-12)
    }
  }

  @Test func appleDocumentationExamples() throws {
    for example in TimingVectors.shared.appleDocumentationExamples {
      let spring = try #require(try AnimationParser.parse(example.spring).spring)
      if let k = example.stiffness { #expect(abs(spring.stiffness - k) <= example.tolerance, "\(example.spring)") }
      if let c = example.damping { #expect(abs(spring.damping - c) <= example.tolerance, "\(example.spring)") }
      if let m = example.mass { #expect(abs(spring.mass - m) <= example.tolerance) }
      if let d = example.duration { #expect(abs(spring.duration - d) <= example.tolerance, "\(example.spring)") }
      if let b = example.bounce { #expect(abs(spring.bounce - b) <= example.tolerance, "\(example.spring)") }
    }
  }

  /// An independent check with initial velocity (the vectors have none):
  /// classic fourth-order Runge–Kutta on m x″ + c x′ + k (x − 1) = 0.
  @Test(arguments: [(0.3, 4.0), (1.0, -3.0), (2.5, 7.0), (0.999999, 2.0), (1.000001, -1.0)])
  func closedFormWithVelocityMatchesRungeKutta(_ zeta: Double, _ v0: Double) {
    let spring = Spring(naturalFrequency: 9, dampingRatio: zeta)
    let (k, c) = (spring.stiffness, spring.damping)
    var x = 0.0, v = v0
    let h = 1e-4
    for step in 1...15_000 {
      func f(_ x: Double, _ v: Double) -> (Double, Double) { (v, -c * v - k * (x - 1)) }
      let k1 = f(x, v)
      let k2 = f(x + h / 2 * k1.0, v + h / 2 * k1.1)
      let k3 = f(x + h / 2 * k2.0, v + h / 2 * k2.1)
      let k4 = f(x + h * k3.0, v + h * k3.1)
      x += h / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0)
      v += h / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1)
      if step % 1000 == 0 {
        let t = Double(step) * h
        #expect(abs(spring.value(target: 1.0, initialVelocity: v0, time: t) - x) < 1e-9, "ζ \(zeta) t \(t)")
        #expect(abs(spring.velocity(target: 1.0, initialVelocity: v0, time: t) - v) < 1e-8, "ζ \(zeta) t \(t)")
      }
    }
  }

  /// Slow, heavily over-damped springs neither overflow nor snap: the
  /// two-exponential form decays smoothly where sinh/cosh would overflow.
  @Test func heavilyOverdampedSpringIsFiniteAndMonotonic() {
    let spring = Spring(naturalFrequency: 0.5, dampingRatio: 400)
    var previous = 0.0
    for i in 1...200 {
      let t = Double(i) * 50
      let value = spring.value(target: 1.0, time: t)
      #expect(value.isFinite && value > previous && value < 1)
      previous = value
    }
    // Slow root r₁ = −ω/(ζ+√(ζ²−1)) ≈ −6.25e-4: after 1000 s the remaining
    // distance is ≈ e^{−0.625}, not 0.
    #expect(abs((1 - spring.value(target: 1.0, time: 1000)) - Double(M_E) ** -0.625) < 1e-3)
  }

  @Test func underdampedSettlingWithVelocity() {
    // −ln(ε / (|δ − v₀| + 1)) / δ by hand, snappy with v₀ = 2 moves/s.
    let spring = Spring(duration: 0.5, bounce: 0.15)
    let delta = 0.85 * 4 * Double.pi
    #expect(abs(spring.settlingDuration(initialVelocity: 2) - (-log(0.001 / (abs(delta - 2) + 1)) / delta)) < 1e-12)
  }

  @Test func undampedSpringNeverSettles() {
    #expect(Spring(naturalFrequency: 3, dampingRatio: 0).settlingDuration() == .infinity)
  }

  /// UIKit: ω₀ solves |ζω₀ − v|/(ω₀√(1−ζ²))·e^(−ζω₀D) = 0.001.
  @Test(arguments: [(0.4, 0.5, 0.0), (0.4, 0.5, 2.0), (1.0, 0.2, -1.0), (0.3, 0.9, 5.0), (0.6, 0.05, 0.0)])
  func uikitSpringSettlesAtItsDuration(_ duration: Double, _ zeta: Double, _ v: Double) throws {
    let spring = try #require(Spring(uikitDuration: duration, dampingRatio: zeta, initialVelocity: v))
    let w = spring.naturalFrequency
    let envelope = abs(zeta * w - v) / (w * (1 - zeta * zeta).squareRoot()) * exp(-zeta * w * duration)
    #expect(abs(envelope - 0.001) < 1e-12)
    #expect(spring.dampingRatio == zeta)
  }

  @Test func uikitSpringHandComputed() throws {
    // v = 0 has a closed form: ω₀ = ln(ζ / (ε√(1−ζ²))) / (ζD).
    let spring = try #require(Spring(uikitDuration: 0.4, dampingRatio: 0.5))
    #expect(abs(spring.naturalFrequency - log(0.5 / (0.001 * 0.75.squareRoot())) / 0.2) < 1e-9)
  }

  @Test func uikitCriticallyDamped() throws {
    // ζ = 1: the remaining distance (1 + (ω₀ − v)D)·e^(−ω₀D) is 0.001 at D.
    let spring = try #require(Spring(uikitDuration: 0.5, dampingRatio: 1, initialVelocity: 1))
    let w = spring.naturalFrequency
    #expect(abs((1 + (w - 1) * 0.5) * exp(-w * 0.5) - 0.001) < 1e-12)
    #expect(Spring(uikitDuration: 0.5, dampingRatio: 1.2) == nil)
    #expect(Spring(uikitDuration: 0.5, dampingRatio: 0) == nil)
  }
}

infix operator ** : MultiplicationPrecedence
func ** (base: Double, exponent: Double) -> Double { pow(base, exponent) }
