import PortableMath

/// A plane-to-plane projective map (a homography): (x, y) goes to
/// ((m00 x + m01 y + m02) / w, (m10 x + m11 y + m12) / w) with
/// w = m20 x + m21 y + m22. Affine maps are the ones with w ≡ 1.
public struct Homography: Sendable, Hashable {
  public var m: [Double]

  /// Row-major 3 × 3.
  public init(_ m: [Double]) {
    precondition(m.count == 9)
    self.m = m
  }

  public init(_ t: AffineTransform) { self.init([t.a, t.c, t.tx, t.b, t.d, t.ty, 0, 0, 1]) }

  public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

  /// The point and its w (the point is meaningful where w > 0).
  @inlinable public func map(_ p: Point) -> (point: Point, w: Double) {
    let w = m[6] * p.x + m[7] * p.y + m[8]
    return (Point((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w), w)
  }

  @inlinable public func apply(_ p: Point) -> Point { map(p).point }

  /// `self` then `other`.
  public func concatenating(_ o: Homography) -> Homography {
    var r = [Double](repeating: 0, count: 9)
    for i in 0..<3 { for j in 0..<3 { r[3 * i + j] = (0..<3).reduce(0) { $0 + o.m[3 * i + $1] * m[3 * $1 + j] } } }
    return Homography(r)
  }

  /// The inverse; nil when singular or not finite.
  public var inverted: Homography? {
    let a = m
    let c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8], c02 = a[3] * a[7] - a[4] * a[6]
    let det = a[0] * c00 + a[1] * c01 + a[2] * c02
    guard det != 0, det.isFinite else { return nil }
    let inv = [
      c00, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
      c01, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
      c02, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
    ].map { $0 / det }
    guard inv.allSatisfy(\.isFinite) else { return nil }
    return Homography(inv)
  }
}

/// SwiftUI's `rotation3DEffect` (docs/scene-format.md, "3D rotation"): a
/// point p of the layer (its own points, z = 0) goes to
/// a + (x′, y′) / (1 − z′ / D), where (x′, y′, z′) is p − a rotated by
/// `angle` about `axis` (Core Animation's `CATransform3DMakeRotation`, as
/// Rodrigues' formula: about y, x′ = x cos θ + z sin θ, z′ = −x sin θ + z cos θ),
/// a = (anchor × size, anchorZ), and D = max(width, height) / perspective.
public struct Rotation3D: Sendable, Hashable {
  /// Degrees.
  public var angle: Double
  public var axis: (x: Double, y: Double, z: Double)
  /// A unit point of the layer's bounds.
  public var anchor: Vector2
  public var anchorZ: Double
  public var perspective: Double

  public init(angle: Double, axis: (Double, Double, Double), anchor: Vector2 = Vector2(0.5, 0.5), anchorZ: Double = 0, perspective: Double = 1) {
    self.angle = angle; self.axis = axis; self.anchor = anchor; self.anchorZ = anchorZ; self.perspective = perspective
  }

  public static func == (l: Self, r: Self) -> Bool {
    l.angle == r.angle && l.axis == r.axis && l.anchor == r.anchor && l.anchorZ == r.anchorZ && l.perspective == r.perspective
  }
  public func hash(into h: inout Hasher) {
    h.combine(angle); h.combine(axis.x); h.combine(axis.y); h.combine(axis.z); h.combine(anchor); h.combine(anchorZ); h.combine(perspective)
  }

  /// Whether it changes nothing: no angle and no anchorZ.
  public var isIdentity: Bool { angle.truncatingRemainder(dividingBy: 360) == 0 && anchorZ == 0 }

  /// The map on the layer's own points, for a layer of `size` points.
  public func homography(size: Vector2) -> Homography {
    // Scaled first, so that a tiny axis does not underflow.
    let largest = max(abs(axis.x), abs(axis.y), abs(axis.z))
    let (ux, uy, uz) = (axis.x / largest, axis.y / largest, axis.z / largest)
    let n = (ux * ux + uy * uy + uz * uz).squareRoot()
    let k = (ux / n, uy / n, uz / n)
    let theta = angle * .pi / 180
    let (s, c) = (Elementary.sin(theta), Elementary.cos(theta))
    // The rotation's matrix for column vectors (Rodrigues).
    let r: [Double] = [
      c + k.0 * k.0 * (1 - c), k.0 * k.1 * (1 - c) - k.2 * s, k.0 * k.2 * (1 - c) + k.1 * s,
      k.1 * k.0 * (1 - c) + k.2 * s, c + k.1 * k.1 * (1 - c), k.1 * k.2 * (1 - c) - k.0 * s,
      k.2 * k.0 * (1 - c) - k.1 * s, k.2 * k.1 * (1 - c) + k.0 * s, c + k.2 * k.2 * (1 - c),
    ]
    let ax = anchor.x * size.x, ay = anchor.y * size.y, az = anchorZ
    let depth = max(size.x, size.y)
    // 1/D: 0 for no perspective (or a layer of no size).
    let inverseD = perspective > 0 && depth > 0 ? perspective / depth : 0
    // v = (x − ax, y − ay, −az); v′ = R v; result a + v′xy / (1 − v′z / D).
    // As affine functions of (x, y): v′i = r_i0 x + r_i1 y + (−r_i0 ax − r_i1 ay − r_i2 az).
    func row(_ i: Int) -> (Double, Double, Double) {
      (r[3 * i], r[3 * i + 1], -r[3 * i] * ax - r[3 * i + 1] * ay - r[3 * i + 2] * az)
    }
    let (x0, x1, x2) = row(0), (y0, y1, y2) = row(1), (z0, z1, z2) = row(2)
    // w = 1 − v′z / D; numerator = a·w + v′xy.
    let w = (-z0 * inverseD, -z1 * inverseD, 1 - z2 * inverseD)
    return Homography([
      x0 + ax * w.0, x1 + ax * w.1, x2 + ax * w.2,
      y0 + ay * w.0, y1 + ay * w.1, y2 + ay * w.2,
      w.0, w.1, w.2,
    ])
  }
}

extension Homography {
  /// The smallest w drawn: parts nearer the eye's plane are behind it.
  public static let minimumW = 1e-3

  /// The polygon `points` (in the source plane) mapped, after cutting away
  /// the part with w below `minimumW` (behind the eye); empty when nothing
  /// is in front.
  public func projectPolygon(_ points: [Point]) -> [Point] {
    func w(_ p: Point) -> Double { m[6] * p.x + m[7] * p.y + m[8] }
    var kept: [Point] = []
    for (i, p) in points.enumerated() {
      let q = points[(i + 1) % points.count]
      let (wp, wq) = (w(p), w(q))
      if wp >= Self.minimumW { kept.append(p) }
      if (wp >= Self.minimumW) != (wq >= Self.minimumW) {
        let t = (Self.minimumW - wp) / (wq - wp)
        kept.append(Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t))
      }
    }
    return kept.map(apply)
  }
}
