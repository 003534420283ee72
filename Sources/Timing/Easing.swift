import PortableMath

/// Robert Penner's easing family, from the exact formulas (as on
/// easings.net): In, Out and InOut of Sine, Quad, Cubic, Quart, Quint, Expo,
/// Circ, Back, Elastic and Bounce, each with its exact derivative.
public struct Easing: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  public enum Family: String, Sendable, CaseIterable {
    case sine = "Sine"
    case quad = "Quad"
    case cubic = "Cubic"
    case quart = "Quart"
    case quint = "Quint"
    case expo = "Expo"
    case circ = "Circ"
    case back = "Back"
    case elastic = "Elastic"
    case bounce = "Bounce"
  }
  public enum Mode: String, Sendable, CaseIterable {
    case `in` = "easeIn"
    case out = "easeOut"
    case inOut = "easeInOut"
  }
  public let family: Family
  public let mode: Mode

  public init(_ mode: Mode, _ family: Family) { self.mode = mode; self.family = family }

  public static let allCases: [Easing] = Mode.allCases.flatMap { mode in
    Family.allCases.map { Easing(mode, $0) }
  }

  /// The name as written in a scene: `easeOutBack`.
  public var description: String { mode.rawValue + family.rawValue }

  /// Looks an easing up by its name.
  public init?(name: String) {
    guard let found = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = found
  }

  /// The eased progress at u in 0…1.
  public func value(at u: Double) -> Double { evaluate(u).value }

  /// d(progress)/du at u. Where the exact derivative is infinite (Circ at
  /// its vertical tangents) the secant over 1e-9 is returned instead, so a
  /// velocity handed on is always finite.
  public func derivative(at u: Double) -> Double {
    let d = evaluate(u).slope
    if d.isFinite { return d }
    let h = 1e-9
    let (u0, u1) = u + h <= 1 ? (u, u + h) : (u - h, u)
    return (value(at: u1) - value(at: u0)) / (u1 - u0)
  }

  // Penner's constants (easings.net).
  private static let back = 1.70158  // overshoot of ~10%
  private static let backInOut = back * 1.525
  private static let elasticPeriod = 2 * Double.pi / 3
  private static let elasticInOutPeriod = 2 * Double.pi / 4.5
  private static let bounceScale = 7.5625
  private static let bounceSpan = 2.75
  private static let ln2 = Elementary.log(2)

  /// Value and slope of the `In` form at u for the power families.
  private func evaluate(_ u: Double) -> (value: Double, slope: Double) {
    switch (family, mode) {
    case (.sine, .in):
      let (sine, cosine) = Elementary.sinCos(u * .pi / 2)
      return (1 - cosine, .pi / 2 * sine)
    case (.sine, .out):
      let (sine, cosine) = Elementary.sinCos(u * .pi / 2)
      return (sine, .pi / 2 * cosine)
    case (.sine, .inOut):
      let (sine, cosine) = Elementary.sinCos(.pi * u)
      return (-(cosine - 1) / 2, .pi / 2 * sine)

    case (.quad, _), (.cubic, _), (.quart, _), (.quint, _):
      // The power n, and 2ⁿ⁻¹ (the in-out first half's scale).
      let (n, half): (Double, Double) =
        switch family {
        case .quad: (2, 2)
        case .cubic: (3, 4)
        case .quart: (4, 8)
        default: (5, 16)
        }
      switch mode {
      case .in: return (Elementary.pow(u, n), n * Elementary.pow(u, n - 1))
      case .out: return (1 - Elementary.pow(1 - u, n), n * Elementary.pow(1 - u, n - 1))
      case .inOut:
        if u < 0.5 { return (half * Elementary.pow(u, n), n * half * Elementary.pow(u, n - 1)) }
        let w = 2 - 2 * u
        return (1 - Elementary.pow(w, n) / 2, n * Elementary.pow(w, n - 1))
      }

    case (.expo, .in):
      if u <= 0 { return (0, 10 * Self.ln2 * 0x1p-10) }
      let p = Elementary.pow(2, 10 * u - 10)
      return (p, 10 * Self.ln2 * p)
    case (.expo, .out):
      if u >= 1 { return (1, 10 * Self.ln2 * 0x1p-10) }
      let p = Elementary.pow(2, -10 * u)
      return (1 - p, 10 * Self.ln2 * p)
    case (.expo, .inOut):
      if u <= 0 { return (0, 10 * Self.ln2 * 0x1p-10) }
      if u >= 1 { return (1, 10 * Self.ln2 * 0x1p-10) }
      if u < 0.5 {
        let p = Elementary.pow(2, 20 * u - 10)
        return (p / 2, 10 * Self.ln2 * p)
      }
      let p = Elementary.pow(2, -20 * u + 10)
      return ((2 - p) / 2, 10 * Self.ln2 * p)

    case (.circ, .in):
      let r = (1 - u * u).squareRoot()
      return (1 - r, u / r)
    case (.circ, .out):
      let r = (1 - (u - 1) * (u - 1)).squareRoot()
      return (r, (1 - u) / r)
    case (.circ, .inOut):
      if u < 0.5 {
        let r = (1 - 4 * u * u).squareRoot()
        return ((1 - r) / 2, 2 * u / r)
      }
      let w = 2 - 2 * u
      let r = (1 - w * w).squareRoot()
      return ((r + 1) / 2, w / r)

    case (.back, .in):
      let c1 = Self.back, c3 = c1 + 1
      return (c3 * u * u * u - c1 * u * u, 3 * c3 * u * u - 2 * c1 * u)
    case (.back, .out):
      let c1 = Self.back, c3 = c1 + 1, w = u - 1
      return (1 + c3 * w * w * w + c1 * w * w, 3 * c3 * w * w + 2 * c1 * w)
    case (.back, .inOut):
      let c2 = Self.backInOut
      if u < 0.5 {
        let x = 2 * u
        return ((x * x * ((c2 + 1) * x - c2)) / 2, 3 * (c2 + 1) * x * x - 2 * c2 * x)
      }
      let x = 2 * u - 2
      return ((x * x * ((c2 + 1) * x + c2) + 2) / 2, 3 * (c2 + 1) * x * x + 2 * c2 * x)

    case (.elastic, .in):
      if u <= 0 { return (0, 0) }
      if u >= 1 { return (1, 0) }
      let p = Elementary.pow(2, 10 * u - 10), phase = (10 * u - 10.75) * Self.elasticPeriod
      let (sine, cosine) = Elementary.sinCos(phase)
      return (
        -p * sine,
        -(10 * Self.ln2 * p * sine + p * 10 * Self.elasticPeriod * cosine)
      )
    case (.elastic, .out):
      if u <= 0 { return (0, 0) }
      if u >= 1 { return (1, 0) }
      let p = Elementary.pow(2, -10 * u), phase = (10 * u - 0.75) * Self.elasticPeriod
      let (sine, cosine) = Elementary.sinCos(phase)
      return (
        p * sine + 1,
        -10 * Self.ln2 * p * sine + p * 10 * Self.elasticPeriod * cosine
      )
    case (.elastic, .inOut):
      if u <= 0 { return (0, 0) }
      if u >= 1 { return (1, 0) }
      let phase = (20 * u - 11.125) * Self.elasticInOutPeriod
      let (sine, cosine) = Elementary.sinCos(phase)
      if u < 0.5 {
        let p = Elementary.pow(2, 20 * u - 10)
        return (
          -(p * sine) / 2,
          -(20 * Self.ln2 * p * sine + p * 20 * Self.elasticInOutPeriod * cosine) / 2
        )
      }
      let p = Elementary.pow(2, -20 * u + 10)
      return (
        p * sine / 2 + 1,
        (-20 * Self.ln2 * p * sine + p * 20 * Self.elasticInOutPeriod * cosine) / 2
      )

    case (.bounce, .out):
      return Self.bounceOut(u)
    case (.bounce, .in):
      let (v, d) = Self.bounceOut(1 - u)
      return (1 - v, d)
    case (.bounce, .inOut):
      if u < 0.5 {
        let (v, d) = Self.bounceOut(1 - 2 * u)
        return ((1 - v) / 2, d)
      }
      let (v, d) = Self.bounceOut(2 * u - 1)
      return ((1 + v) / 2, d)
    }
  }

  /// easeOutBounce: four parabolic arcs of decreasing height.
  private static func bounceOut(_ u: Double) -> (Double, Double) {
    let n = bounceScale, d = bounceSpan
    let (center, floor): (Double, Double)
    if u < 1 / d {
      (center, floor) = (0, 0)
    } else if u < 2 / d {
      (center, floor) = (1.5 / d, 0.75)
    } else if u < 2.5 / d {
      (center, floor) = (2.25 / d, 0.9375)
    } else {
      (center, floor) = (2.625 / d, 0.984375)
    }
    let w = u - center
    return (n * w * w + floor, 2 * n * w)
  }
}
