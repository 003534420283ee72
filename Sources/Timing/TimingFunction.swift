/// A progress curve for a fixed-duration animation: unit time u in 0…1 to
/// progress, 0 at u = 0 and 1 at u = 1 (it may overshoot between).
public enum TimingFunction: Sendable, Hashable, CustomStringConvertible {
  case linear
  case bezier(CubicBezier)
  case easing(Easing)

  public static let easeIn = TimingFunction.bezier(.easeIn)
  public static let easeOut = TimingFunction.bezier(.easeOut)
  public static let easeInOut = TimingFunction.bezier(.easeInOut)

  /// Progress at unit time `u` (clamped to 0…1).
  public func value(at u: Double) -> Double {
    let u = min(max(u, 0), 1)
    switch self {
    case .linear: return u
    case .bezier(let curve): return curve.value(at: u)
    case .easing(let easing): return easing.value(at: u)
    }
  }

  /// d(progress)/du at unit time `u`.
  public func derivative(at u: Double) -> Double {
    let u = min(max(u, 0), 1)
    switch self {
    case .linear: return 1
    case .bezier(let curve): return curve.derivative(at: u)
    case .easing(let easing): return easing.derivative(at: u)
    }
  }

  /// The name as a scene writes it, without the duration.
  public var description: String {
    switch self {
    case .linear: "linear"
    case .bezier(let c) where c == .easeIn: "easeIn"
    case .bezier(let c) where c == .easeOut: "easeOut"
    case .bezier(let c) where c == .easeInOut: "easeInOut"
    case .bezier: "timingCurve"
    case .easing(let e): e.description
    }
  }
}
