/// A value that can be animated: it lives in a real vector space, so it can be
/// added, subtracted and scaled component-wise (SwiftUI's `VectorArithmetic`).
///
/// Every animatable scene property (numbers, points, sizes, premultiplied
/// colours, paints with their gradients stop by stop) conforms, so one
/// timing engine animates them all.
public protocol VectorArithmetic: Sendable, Equatable {
  /// The additive identity.
  static var zero: Self { get }
  static func + (lhs: Self, rhs: Self) -> Self
  static func - (lhs: Self, rhs: Self) -> Self
  /// Component-wise scaling by a real factor.
  static func * (lhs: Self, rhs: Double) -> Self
  /// The components, in a fixed order. Used where a per-component decision is
  /// needed (a spring's settling duration per component), never per frame.
  var components: [Double] { get }
}

extension VectorArithmetic {
  /// `a + (b − a) · t`.
  @inlinable
  public static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self {
    a + (b - a) * t
  }
  /// True when every component is finite.
  public var isFinite: Bool { components.allSatisfy { $0.isFinite } }
}

extension Double: VectorArithmetic {
  public var components: [Double] { [self] }
}

/// A 2-vector of points: positions, sizes, offsets, anchors and scale pairs.
public struct Vector2: VectorArithmetic, Hashable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
  @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

  public static let zero = Vector2(0, 0)
  @inlinable public static func + (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x + b.x, a.y + b.y) }
  @inlinable public static func - (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x - b.x, a.y - b.y) }
  @inlinable public static func * (a: Vector2, s: Double) -> Vector2 { Vector2(a.x * s, a.y * s) }
  /// Component by component: a unit point times a size.
  @inlinable public static func * (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x * b.x, a.y * b.y) }
  public var components: [Double] { [x, y] }
  public var description: String { "[\(x), \(y)]" }
}
