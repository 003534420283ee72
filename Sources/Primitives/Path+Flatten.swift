/// A polyline approximation of one subpath.
public struct Polyline: Sendable, Hashable {
  public var points: [Point]
  /// True when the subpath was closed with `close()`. Fills close every subpath anyway.
  public var isClosed: Bool
  public init(points: [Point], isClosed: Bool) { self.points = points; self.isClosed = isClosed }
}

extension Polyline {
  /// The rectangle the line outlines when it is one with sides along the
  /// axes (its four corners in either order, or five with the first
  /// repeated), else nil. Without allocating: clips and tiles ask it of
  /// every shape they meet.
  public var axisAlignedRectangle: Rect? {
    let p = points
    let n = p.count == 5 && p[4] == p[0] ? 4 : p.count
    guard n == 4 else { return nil }
    var x0 = p[0].x, x1 = x0, y0 = p[0].y, y1 = y0
    for i in 1..<4 {
      x0 = Swift.min(x0, p[i].x); x1 = Swift.max(x1, p[i].x)
      y0 = Swift.min(y0, p[i].y); y1 = Swift.max(y1, p[i].y)
    }
    guard x0 < x1, y0 < y1 else { return nil }
    for i in 0..<4 {
      let a = p[i], b = p[(i + 1) % 4], opposite = p[(i + 2) % 4]
      // Every point a corner; each side along one axis (no bow tie);
      // opposite points opposite corners (the four corners, each once,
      // not a line there and back).
      guard a.x == x0 || a.x == x1, a.y == y0 || a.y == y1 else { return nil }
      guard (a.x == b.x) != (a.y == b.y), a.x != opposite.x, a.y != opposite.y else { return nil }
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

extension Array where Element == Polyline {
  /// The box of every point of the lines that have two or more (the only
  /// ones a fill draws); `Rect.null` when there are none.
  public var fillBounds: Rect {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for line in self where line.points.count > 1 {
      for p in line.points {
        minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x); minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
      }
    }
    guard minX <= maxX, minY <= maxY else { return .null }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }
}

extension Path {
  /// The default flattening tolerance in device pixels: the largest distance
  /// between a curve and its polyline. Well under the 1/8 px a viewer could
  /// see, and small enough that a circle's area is within 0.1% at radius ≥ 25 px.
  public static let defaultTolerance = 1.0 / 40

  /// Lines approximating the path after `transform`, within `tolerance`
  /// (in the transformed space). Curves are split uniformly into the number
  /// of pieces Wang's formula gives for that tolerance, which bounds the
  /// distance from the curve for any affine image of it.
  public func flattened(tolerance: Double = defaultTolerance, transform: AffineTransform = .identity) -> [Polyline] {
    var result: [Polyline] = []
    var points: [Point] = []
    var start = Point.zero
    var current = Point.zero
    func finish(closed: Bool) {
      if points.count > 1 || (points.count == 1 && closed) { result.append(Polyline(points: points, isClosed: closed)) }
      points = []
    }
    for e in elements {
      switch e {
      case .move(let p):
        finish(closed: false)
        current = transform.apply(p); start = current
        points = [current]
      case .line(let p):
        current = transform.apply(p)
        points.append(current)
      case .quad(let c, let p):
        let (p1, p2) = (transform.apply(c), transform.apply(p))
        let dd = (current - p1 * 2 + p2).length
        let n = Self.pieces(degreeFactor: 2.0 / 8.0, secondDifference: dd, tolerance: tolerance)
        for i in 1..<n { points.append(Self.quadPoint(current, p1, p2, Double(i) / Double(n))) }
        points.append(p2)
        current = p2
      case .cubic(let c1, let c2, let p):
        let (p1, p2, p3) = (transform.apply(c1), transform.apply(c2), transform.apply(p))
        let dd = max((current - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
        let n = Self.pieces(degreeFactor: 6.0 / 8.0, secondDifference: dd, tolerance: tolerance)
        for i in 1..<n { points.append(Self.cubicPoint(current, p1, p2, p3, Double(i) / Double(n))) }
        points.append(p3)
        current = p3
      case .close:
        finish(closed: true)
        current = start
        points = [start]
      }
    }
    finish(closed: false)
    return result
  }

  /// Wang's formula: n = ⌈√(d(d−1)/8 · M / tol)⌉ pieces, capped for sanity.
  static func pieces(degreeFactor: Double, secondDifference m: Double, tolerance: Double) -> Int {
    let n = (degreeFactor * m / tolerance).squareRoot().roundedUp
    guard n.isFinite else { return 1 }
    return Int(min(max(n, 1), 4096))
  }
}
