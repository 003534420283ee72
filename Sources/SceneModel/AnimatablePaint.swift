import Primitives

/// A paint as a value that animates: a premultiplied colour, or a gradient
/// (SwiftUI's `LinearGradient` and `RadialGradient`) whose geometry and
/// stops interpolate component-wise, in premultiplied sRGB, stop by stop.
///
/// Paints of different shapes (a colour and a gradient, gradients of
/// different kinds or stop counts) do not meet in one animation: the
/// timeline changes them at once (`isCompatible(with:)`). The transparent
/// colour is the zero of every shape, as an animation's rest velocity is.
public enum AnimatablePaint: VectorArithmetic, Hashable {
  case color(PremultipliedColor)
  /// `from` and `to` are unit points of the layer's bounds.
  case linear(from: Vector2, to: Vector2, stops: [Stop])
  /// `center` is a unit point; radii are in points.
  case radial(center: Vector2, startRadius: Double, endRadius: Double, stops: [Stop])

  /// A gradient stop: offset in 0…1 and a premultiplied colour.
  public struct Stop: Sendable, Hashable {
    public var offset: Double
    public var color: PremultipliedColor
    public init(offset: Double, color: PremultipliedColor) { self.offset = offset; self.color = color }

    static func + (a: Stop, b: Stop) -> Stop { Stop(offset: a.offset + b.offset, color: a.color + b.color) }
    static func - (a: Stop, b: Stop) -> Stop { Stop(offset: a.offset - b.offset, color: a.color - b.color) }
    static func * (a: Stop, s: Double) -> Stop { Stop(offset: a.offset * s, color: a.color * s) }
  }

  public static let zero = AnimatablePaint.color(.zero)
  public static let clear = zero

  /// True when the two interpolate: the same kind, with as many stops.
  public func isCompatible(with other: AnimatablePaint) -> Bool {
    switch (self, other) {
    case (.color, .color): true
    case (.linear(_, _, let a), .linear(_, _, let b)), (.radial(_, _, _, let a), .radial(_, _, _, let b)): a.count == b.count
    default: false
    }
  }

  /// `zero` (the transparent colour) added to anything is that thing.
  private var isZero: Bool { self == .zero }

  private static func combine(
    _ a: AnimatablePaint, _ b: AnimatablePaint, _ points: (Vector2, Vector2) -> Vector2, _ numbers: (Double, Double) -> Double,
    _ stops: (Stop, Stop) -> Stop, _ colors: (PremultipliedColor, PremultipliedColor) -> PremultipliedColor
  ) -> AnimatablePaint {
    switch (a, b) {
    case (.color(let x), .color(let y)):
      return .color(colors(x, y))
    case (.linear(let f1, let t1, let s1), .linear(let f2, let t2, let s2)) where s1.count == s2.count:
      return .linear(from: points(f1, f2), to: points(t1, t2), stops: zip(s1, s2).map(stops))
    case (.radial(let c1, let a1, let b1, let s1), .radial(let c2, let a2, let b2, let s2)) where s1.count == s2.count:
      return .radial(center: points(c1, c2), startRadius: numbers(a1, a2), endRadius: numbers(b1, b2), stops: zip(s1, s2).map(stops))
    default:
      preconditionFailure("paints of different shapes do not interpolate")
    }
  }

  public static func + (a: AnimatablePaint, b: AnimatablePaint) -> AnimatablePaint {
    if b.isZero { return a }
    if a.isZero { return b }
    return combine(a, b, +, +, +, +)
  }

  public static func - (a: AnimatablePaint, b: AnimatablePaint) -> AnimatablePaint {
    if b.isZero { return a }
    if a.isZero { return b * -1 }
    return combine(a, b, -, -, -, -)
  }

  public static func * (a: AnimatablePaint, s: Double) -> AnimatablePaint {
    switch a {
    case .color(let c): .color(c * s)
    case .linear(let f, let t, let stops): .linear(from: f * s, to: t * s, stops: stops.map { $0 * s })
    case .radial(let c, let r0, let r1, let stops): .radial(center: c * s, startRadius: r0 * s, endRadius: r1 * s, stops: stops.map { $0 * s })
    }
  }

  /// The geometry, then each stop's offset and colour.
  public var components: [Double] {
    func flat(_ stops: [Stop]) -> [Double] { stops.flatMap { [$0.offset] + $0.color.components } }
    switch self {
    case .color(let c): return c.components
    case .linear(let f, let t, let stops): return [f.x, f.y, t.x, t.y] + flat(stops)
    case .radial(let c, let r0, let r1, let stops): return [c.x, c.y, r0, r1] + flat(stops)
    }
  }

  /// The paint with its colours clamped into range and its stop offsets
  /// into 0…1, as an animation's overshoot may leave them, ready to draw.
  public var clamped: AnimatablePaint {
    func clamp(_ stops: [Stop]) -> [Stop] { stops.map { Stop(offset: min(max($0.offset, 0), 1), color: $0.color.clamped) } }
    switch self {
    case .color(let c): return .color(c.clamped)
    case .linear(let f, let t, let stops): return .linear(from: f, to: t, stops: clamp(stops))
    case .radial(let c, let r0, let r1, let stops): return .radial(center: c, startRadius: r0, endRadius: r1, stops: clamp(stops))
    }
  }
}
