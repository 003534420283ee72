/// A value that can be animated: it lives in a real vector space, so it can be
/// added, subtracted and scaled component-wise (SwiftUI's `VectorArithmetic`).
///
/// Every animatable scene property (numbers, points, sizes, premultiplied
/// colours, gradients stop by stop, shadows) conforms, so one timing engine
/// animates them all.
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
  public var components: [Double] { [x, y] }
  public var description: String { "[\(x), \(y)]" }
}

/// A vector with any number of components, for composite animatable values
/// (gradients stop by stop, shadows, strokes). Vectors of different lengths
/// never meet in one animation: the scene model keeps shapes consistent.
public struct AnimatableVector: VectorArithmetic, Hashable, CustomStringConvertible {
  public var components: [Double]

  public init(_ components: [Double]) { self.components = components }

  /// The empty vector acts as zero of any length.
  public static let zero = AnimatableVector([])

  public static func + (a: AnimatableVector, b: AnimatableVector) -> AnimatableVector {
    combine(a, b, +)
  }
  public static func - (a: AnimatableVector, b: AnimatableVector) -> AnimatableVector {
    combine(a, b, -)
  }
  public static func * (a: AnimatableVector, s: Double) -> AnimatableVector {
    AnimatableVector(a.components.map { $0 * s })
  }
  public var description: String { "\(components)" }

  private static func combine(
    _ a: AnimatableVector, _ b: AnimatableVector, _ op: (Double, Double) -> Double
  ) -> AnimatableVector {
    // A zero of length 0 stands for zero of the other operand's length.
    if a.components.isEmpty { return AnimatableVector(b.components.map { op(0, $0) }) }
    if b.components.isEmpty { return a }
    precondition(a.components.count == b.components.count, "vectors of different lengths")
    var out = a.components
    for i in out.indices { out[i] = op(out[i], b.components[i]) }
    return AnimatableVector(out)
  }

  public static func == (a: AnimatableVector, b: AnimatableVector) -> Bool {
    let n = max(a.components.count, b.components.count)
    for i in 0..<n {
      let x = i < a.components.count ? a.components[i] : 0
      let y = i < b.components.count ? b.components[i] : 0
      if x != y { return false }
    }
    return true
  }
  public func hash(into hasher: inout Hasher) {
    // Trailing zeros do not change equality, so they must not change the hash.
    var trimmed = components[...]
    while let last = trimmed.last, last == 0 { trimmed = trimmed.dropLast() }
    for c in trimmed { hasher.combine(c) }
  }
}
