extension Spring {
  /// A spring from physical parameters, as SwiftUI's
  /// `Spring(mass:stiffness:damping:)` and `interpolatingSpring`.
  /// A damping ratio above 1 is over-damped, as the physics says.
  public init(mass: Double = 1, stiffness: Double, damping: Double) {
    precondition(mass > 0 && stiffness > 0 && damping >= 0, "mass and stiffness must be positive, damping non-negative")
    let omega = (stiffness / mass).squareRoot()
    self.init(
      naturalFrequency: omega, dampingRatio: damping / (2 * (stiffness * mass).squareRoot()), mass: mass)
  }
}
