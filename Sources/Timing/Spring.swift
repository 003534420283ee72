import PortableMath
import Primitives

/// A damped harmonic oscillator, stored canonically as its undamped natural
/// frequency ω₀ (radians per second) and its damping ratio ζ; mass is kept
/// only to report stiffness and damping as they were given (it does not
/// change the motion).
///
/// The motion is the exact closed-form solution of
/// `m x″ + c x′ + k (x − target) = 0` for under-damped (ζ < 1), critically
/// damped (ζ = 1) and over-damped (ζ > 1) springs with any initial velocity;
/// nothing is integrated numerically and nothing is clamped.
public struct Spring: Sendable, Hashable {
  /// ω₀ = √(k/m), radians per second.
  public let naturalFrequency: Double
  /// ζ = c / (2√(km)): 1 is critically damped, below 1 bounces.
  public let dampingRatio: Double
  /// m; 1 unless given.
  public let mass: Double

  /// The canonical initializer every parameterization converts into.
  public init(naturalFrequency: Double, dampingRatio: Double, mass: Double = 1) {
    precondition(naturalFrequency > 0 && naturalFrequency.isFinite, "natural frequency must be positive")
    precondition(dampingRatio >= 0 && dampingRatio.isFinite, "damping ratio must be non-negative")
    precondition(mass > 0 && mass.isFinite, "mass must be positive")
    self.naturalFrequency = naturalFrequency
    self.dampingRatio = dampingRatio
    self.mass = mass
  }

  /// k = m ω₀², newtons per metre in the spring's own units.
  public var stiffness: Double { mass * naturalFrequency * naturalFrequency }
  /// c = 2 ζ m ω₀.
  public var damping: Double { 2 * dampingRatio * mass * naturalFrequency }
  /// The decay rate of the envelope for under-damped springs, δ = ζ ω₀.
  public var decayRate: Double { dampingRatio * naturalFrequency }

  /// The spring's unit responses at time `t` (seconds of the spring's own
  /// time) for a displacement y = x − target:
  /// `y(t) = a(t)·y₀ + b(t)·v₀` and `y′(t) = a′(t)·y₀ + b′(t)·v₀`.
  ///
  /// The over-damped and critical cases share one form,
  /// `e^{r₁t}·(1 + r₁q)` and `−e^{r₁t}·q` with `q = expm1(−Δt)/Δ`, Δ = r₁ − r₂:
  /// two decaying exponentials written so that neither overflows nor cancels,
  /// however slow or close to critical the spring is.
  @inlinable
  public func response(at t: Double) -> (a: Double, b: Double, da: Double, db: Double) {
    let omega = naturalFrequency
    let zeta = dampingRatio
    let a: Double
    let b: Double
    if zeta < 1 {
      let delta = zeta * omega
      let dampedFrequency = omega * (1 - zeta * zeta).squareRoot()
      let envelope = Elementary.exp(-delta * t)
      let (sine, cosine) = Elementary.sinCos(dampedFrequency * t)
      // sin(ω_d t)/ω_d stays accurate as ω_d → 0 (near-critical springs).
      let sinc = dampedFrequency > 0 ? sine / dampedFrequency : t
      a = envelope * (cosine + delta * sinc)
      b = envelope * sinc
    } else {
      let root = (zeta * zeta - 1).squareRoot()
      // r₁ = −ω(ζ − √(ζ²−1)) written without cancellation for large ζ.
      let slow = -omega / (zeta + root)
      let fast = -omega * (zeta + root)
      let gap = slow - fast  // Δ = 2ω√(ζ²−1) ≥ 0
      let q = gap > 0 ? Elementary.expMinusOne(-gap * t) / gap : -t
      let decay = Elementary.exp(slow * t)
      a = decay * (1 + slow * q)
      b = -decay * q
    }
    // From the differential equation: a′ = −ω₀² b and b′ = a − 2ζω₀ b.
    return (a, b, -omega * omega * b, a - 2 * zeta * omega * b)
  }

  /// The value at `time` of a spring moving from `from` toward `target`
  /// with initial velocity `initialVelocity` (units per second).
  @inlinable
  public func value<V: VectorArithmetic>(from: V, to target: V, initialVelocity: V = .zero, time: Double) -> V {
    let r = response(at: time)
    return target + (from - target) * r.a + initialVelocity * r.b
  }

  /// The velocity at `time`, in units per second, of the same motion.
  @inlinable
  public func velocity<V: VectorArithmetic>(from: V, to target: V, initialVelocity: V = .zero, time: Double) -> V {
    let r = response(at: time)
    return (from - target) * r.da + initialVelocity * r.db
  }

  /// Value and velocity of the same motion from one evaluation of the response.
  @inlinable
  public func sample<V: VectorArithmetic>(from: V, to target: V, initialVelocity: V = .zero, time: Double) -> (value: V, velocity: V) {
    let r = response(at: time)
    return (target + (from - target) * r.a + initialVelocity * r.b, (from - target) * r.da + initialVelocity * r.db)
  }

  /// SwiftUI's `Spring.value(target:initialVelocity:time:)`: the motion from 0.
  @inlinable
  public func value<V: VectorArithmetic>(target: V, initialVelocity: V = .zero, time: Double) -> V {
    value(from: .zero, to: target, initialVelocity: initialVelocity, time: time)
  }

  /// SwiftUI's `Spring.velocity(target:initialVelocity:time:)`.
  @inlinable
  public func velocity<V: VectorArithmetic>(target: V, initialVelocity: V = .zero, time: Double) -> V {
    velocity(from: .zero, to: target, initialVelocity: initialVelocity, time: time)
  }
}
