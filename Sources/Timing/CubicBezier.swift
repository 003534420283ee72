/// A CSS / Core Animation timing curve: a cubic Bézier from (0, 0) to (1, 1)
/// with control points (x1, y1) and (x2, y2), x1 and x2 in 0…1 so that x is
/// monotonic. `value(at:)` solves x(s) = x for s to 1e-14 in x (Newton steps
/// with a bisection fallback), then returns y(s).
public struct CubicBezier: Sendable, Hashable {
  public let x1: Double, y1: Double, x2: Double, y2: Double
  // Polynomial coefficients: x(s) = ((ax s + bx) s + cx) s, likewise y.
  private let ax: Double, bx: Double, cx: Double
  private let ay: Double, by: Double, cy: Double

  /// Solve x(s) = x to within this much x.
  static let tolerance = 1e-14

  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    precondition((0...1).contains(x1) && (0...1).contains(x2), "control point x must be in 0...1")
    self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
    cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
  }

  /// CSS `ease-in` and SwiftUI `easeIn`.
  public static let easeIn = CubicBezier(0.42, 0, 1, 1)
  public static let easeOut = CubicBezier(0, 0, 0.58, 1)
  public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)
  /// Core Animation's default timing function.
  public static let caDefault = CubicBezier(0.25, 0.1, 0.25, 1)

  @inline(__always) func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
  @inline(__always) func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
  @inline(__always) func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
  @inline(__always) func dy(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }

  /// The curve parameter s with x(s) = x.
  public func parameter(forX x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    var s = x
    for _ in 0..<8 {
      let error = self.x(s) - x
      if abs(error) < Self.tolerance { return s }
      let slope = dx(s)
      if abs(slope) < 1e-7 { break }
      s -= error / slope
      if !(0...1).contains(s) { break }
    }
    // Bisection: x is monotonic on [0, 1].
    var lo = 0.0, hi = 1.0
    s = x
    while hi - lo > 1e-16 {
      let value = self.x(s)
      if abs(value - x) < Self.tolerance { return s }
      if value < x { lo = s } else { hi = s }
      s = (lo + hi) / 2
    }
    return s
  }

  /// y at the given x: the eased progress.
  public func value(at x: Double) -> Double { y(parameter(forX: x)) }

  /// dy/dx at the given x. Where dx/ds vanishes at an end, the limit:
  /// y2/x2 at x = 0 when the first control point is (0, 0) (else y1/x1),
  /// (1 − y1)/(1 − x1) at x = 1 when the second is (1, 1) (else
  /// (1 − y2)/(1 − x2)); elsewhere by a short secant.
  public func derivative(at x: Double) -> Double {
    let s = parameter(forX: min(max(x, 0), 1))
    let slope = dx(s)
    if abs(slope) > 1e-9 { return dy(s) / slope }
    if s == 0 { return x1 == 0 && y1 == 0 ? y2 / x2 : y1 / x1 }
    if s == 1 { return x2 == 1 && y2 == 1 ? (1 - y1) / (1 - x1) : (1 - y2) / (1 - x2) }
    let h = 1e-7
    let (s0, s1) = s + h <= 1 ? (s, s + h) : (s - h, s)
    return (y(s1) - y(s0)) / (self.x(s1) - self.x(s0))
  }
}
