import PortableMath

/// A point in 2-D, in points or pixels depending on the space.
public typealias Point = Vector2

extension Vector2 {
  @inlinable public var length: Double { (x * x + y * y).squareRoot() }
  @inlinable public func dot(_ o: Vector2) -> Double { x * o.x + y * o.y }
  /// The z component of the 3-D cross product: positive when `o` turns clockwise from `self` on screen (y down).
  @inlinable public func cross(_ o: Vector2) -> Double { x * o.y - y * o.x }
  @inlinable public static prefix func - (v: Vector2) -> Vector2 { Vector2(-v.x, -v.y) }
  @inlinable public static func / (v: Vector2, s: Double) -> Vector2 { Vector2(v.x / s, v.y / s) }
  /// The unit vector in the same direction, or zero for the zero vector.
  @inlinable public var normalized: Vector2 {
    let l = length
    return l > 0 ? Vector2(x / l, y / l) : .zero
  }
  /// Rotated 90° clockwise on screen (y down): (x, y) → (−y, x).
  @inlinable public var perpendicular: Vector2 { Vector2(-y, x) }
}

/// An axis-aligned rectangle.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
  public var origin: Point
  public var size: Vector2

  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    origin = Point(x, y); size = Vector2(width, height)
  }
  @inlinable public init(origin: Point, size: Vector2) { self.origin = origin; self.size = size }
  /// The smallest rectangle containing both corners.
  public init(corners a: Point, _ b: Point) {
    self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
  /// The empty rectangle: the identity of `union`.
  public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

  @inlinable public var minX: Double { origin.x }
  @inlinable public var minY: Double { origin.y }
  @inlinable public var maxX: Double { origin.x + size.x }
  @inlinable public var maxY: Double { origin.y + size.y }
  @inlinable public var width: Double { size.x }
  @inlinable public var height: Double { size.y }
  @inlinable public var center: Point { Point(origin.x + size.x / 2, origin.y + size.y / 2) }
  public var isNull: Bool { origin.x == .infinity }
  public var isEmpty: Bool { isNull || size.x <= 0 || size.y <= 0 }

  public func union(_ o: Rect) -> Rect {
    if isNull { return o }
    if o.isNull { return self }
    let x0 = min(minX, o.minX), y0 = min(minY, o.minY)
    return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
  }
  public func union(_ p: Point) -> Rect { union(Rect(x: p.x, y: p.y, width: 0, height: 0)) }

  public func intersection(_ o: Rect) -> Rect {
    if isNull || o.isNull { return .null }
    let x0 = max(minX, o.minX), y0 = max(minY, o.minY)
    let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
    return x1 < x0 || y1 < y0 ? .null : Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }
  public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
  public var description: String { "Rect(\(minX), \(minY), \(width), \(height))" }
}

/// An affine map of the plane: `x′ = a·x + c·y + tx`, `y′ = b·x + d·y + ty`
/// (Core Graphics' layout).
public struct AffineTransform: Sendable, Hashable {
  public var a, b, c, d, tx, ty: Double

  @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
  }
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
  public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
    AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }
  public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
    AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }
  /// Rotation by `radians`, clockwise on screen (y down).
  public static func rotation(_ radians: Double) -> AffineTransform {
    let (s, k) = Elementary.sinCos(radians)
    return AffineTransform(a: k, b: s, c: -s, d: k, tx: 0, ty: 0)
  }

  /// `self` applied first, then `other`.
  @inlinable public func concatenating(_ o: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * o.a + b * o.c, b: a * o.b + b * o.d,
      c: c * o.a + d * o.c, d: c * o.b + d * o.d,
      tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
  }
  public func translatedBy(_ x: Double, _ y: Double) -> AffineTransform { AffineTransform.translation(x, y).concatenating(self) }
  public func scaledBy(_ sx: Double, _ sy: Double) -> AffineTransform { AffineTransform.scale(sx, sy).concatenating(self) }
  public func rotatedBy(_ radians: Double) -> AffineTransform { AffineTransform.rotation(radians).concatenating(self) }

  @inlinable public var determinant: Double { a * d - b * c }
  public var isInvertible: Bool { determinant != 0 && determinant.isFinite }
  public var inverted: AffineTransform? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    return AffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
  }
  @inlinable public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }
  /// Applies the linear part only (for vectors).
  @inlinable public func applyToVector(_ v: Vector2) -> Vector2 { Vector2(a * v.x + c * v.y, b * v.x + d * v.y) }
  /// The largest factor by which the map stretches a length (the larger singular value).
  public var maximumScale: Double {
    let p = a * a + b * b + c * c + d * d
    let q = abs(determinant)
    return ((p + ((p * p - 4 * q * q).magnitude).squareRoot()) / 2).squareRoot()
  }
  public var isTranslationOnly: Bool { a == 1 && b == 0 && c == 0 && d == 1 }
  /// The bounding box of a transformed rectangle.
  public func apply(_ r: Rect) -> Rect {
    if r.isNull { return r }
    let corners = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.minX, r.maxY), Point(r.maxX, r.maxY)].map(apply)
    return corners.dropFirst().reduce(Rect(corners: corners[0], corners[0])) { $0.union($1) }
  }
}
