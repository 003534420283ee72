import PortableMath

/// Turns a path and a stroke style into closed outline polygons whose
/// non-zero fill is the stroke: each subpath becomes one contour (an open
/// one: along one side, round the end cap, back along the other side,
/// round the start cap) or two (a closed one: its two sides, in opposite
/// directions, so the inside stays empty). Outer corners get the join;
/// inner corners pass through the vertex, which keeps every loop inside
/// the stroke and its edge pixels single.
public enum Stroker {
  /// The outline of `path` stroked in its own space (width, dashes and trim
  /// in its units, so a scaled layer's stroke scales with it), flattened
  /// finely enough that `transform` maps it to within `deviceTolerance`.
  public static func outline(of path: Path, style: StrokeStyle, transform: AffineTransform, deviceTolerance: Double) -> [[Point]] {
    outline(of: path, style: style, tolerance: deviceTolerance / max(transform.maximumScale, 1e-12))
  }

  public static func outline(of path: Path, style: StrokeStyle, tolerance: Double) -> [[Point]] {
    memo.value(
      for: OutlineKey(path: path, style: style, tolerance: tolerance), cost: { $0.reduce(0) { $0 + $1.count } },
      compute: { computeOutline(of: path, style: style, tolerance: tolerance) })
  }

  /// Outlines made recently: a stroke that only moves (its path, style and
  /// scale the same from frame to frame, as a layer sliding across the
  /// screen) is outlined once. The key is every input's bits, so a hit
  /// returns exactly what the computation would (−0 and 0 differ). At most
  /// 256 outlines and 2²⁰ points (16 MB) are kept.
  private static let memo = Memo<OutlineKey, [[Point]]>(limit: 256, costLimit: 1 << 20)

  /// The bits of a path, a style and a tolerance.
  private struct OutlineKey: Hashable {
    var bits: [UInt64] = []
    init(path: Path, style: StrokeStyle, tolerance: Double) {
      bits.reserveCapacity(8 + 7 * path.elements.count + style.dash.count)
      func add(_ p: Point) { bits.append(p.x.bitPattern); bits.append(p.y.bitPattern) }
      for e in path.elements {
        switch e {
        case .move(let p): bits.append(0); add(p)
        case .line(let p): bits.append(1); add(p)
        case .quad(let c, let p): bits.append(2); add(c); add(p)
        case .cubic(let c1, let c2, let p): bits.append(3); add(c1); add(c2); add(p)
        case .close: bits.append(4)
        }
      }
      let cap: UInt64 = style.cap == .butt ? 0 : style.cap == .round ? 1 : 2
      let join: UInt64 = style.join == .miter ? 0 : style.join == .round ? 1 : 2
      bits.append(5 | cap << 8 | join << 16 | UInt64(style.dash.count) << 24)
      for v in [style.width, style.miterLimit, style.dashPhase, style.trim.from, style.trim.to, tolerance] { bits.append(v.bitPattern) }
      for v in style.dash { bits.append(v.bitPattern) }
    }
  }

  static func computeOutline(of path: Path, style: StrokeStyle, tolerance: Double) -> [[Point]] {
    let halfWidth = style.width / 2
    guard halfWidth > 0, halfWidth.isFinite else { return [] }
    var lines = path.flattened(tolerance: tolerance)
    lines = PathMeasure.trim(lines, from: style.trim.from, to: style.trim.to)
    if !style.dash.isEmpty { lines = PathMeasure.dash(lines, pattern: style.dash, phase: style.dashPhase) }
    var contours: [[Point]] = []
    let arcStep = roundStep(radius: halfWidth, tolerance: tolerance)
    for line in lines {
      let points = deduplicated(line.points)
      if points.count == 1 {
        if let dot = dot(at: points[0], halfWidth: halfWidth, cap: style.cap, arcStep: arcStep) { contours.append(dot) }
        continue
      }
      if line.isClosed && points.count > 2 {
        var ring = points
        if ring.first == ring.last { ring.removeLast() }
        contours.append(side(ring, closed: true, sign: 1, halfWidth: halfWidth, style: style, arcStep: arcStep))
        contours.append(side(Array(ring.reversed()), closed: true, sign: 1, halfWidth: halfWidth, style: style, arcStep: arcStep))
      } else {
        var contour = side(points, closed: false, sign: 1, halfWidth: halfWidth, style: style, arcStep: arcStep)
        cap(
          &contour, at: points[points.count - 1], direction: (points[points.count - 1] - points[points.count - 2]).normalized,
          halfWidth: halfWidth, cap: style.cap, arcStep: arcStep)
        let back = side(Array(points.reversed()), closed: false, sign: 1, halfWidth: halfWidth, style: style, arcStep: arcStep)
        contour.append(contentsOf: back)
        cap(&contour, at: points[0], direction: (points[0] - points[1]).normalized, halfWidth: halfWidth, cap: style.cap, arcStep: arcStep)
        contours.append(contour)
      }
    }
    return contours
  }

  /// The angle between points of a round join or cap whose chords stay
  /// within `tolerance` of the true circle.
  static func roundStep(radius: Double, tolerance: Double) -> Double {
    guard radius > tolerance else { return .pi / 2 }
    return max(2 * Elementary.acos(1 - tolerance / radius), 0.01)
  }

  static func deduplicated(_ points: [Point]) -> [Point] {
    var out: [Point] = []
    out.reserveCapacity(points.count)
    for p in points where out.last.map({ ($0 - p).length > 1e-9 }) ?? true { out.append(p) }
    return out
  }

  /// The offset of one side: each segment moved by the half width along its
  /// normal (`perpendicular`, the side to the right of travel on screen),
  /// joined at the vertices.
  static func side(_ p: [Point], closed: Bool, sign: Double, halfWidth w: Double, style: StrokeStyle, arcStep: Double) -> [Point] {
    let n = p.count
    var out: [Point] = []
    out.reserveCapacity(n * 2)
    let segments = closed ? n : n - 1
    func direction(_ i: Int) -> Vector2 { (p[(i + 1) % n] - p[i]).normalized }
    for i in 0..<segments {
      let d = direction(i)
      let normal = d.perpendicular * (w * sign)
      let a = p[i] + normal, b = p[(i + 1) % n] + normal
      if i == 0 && !closed { out.append(a) }
      if i > 0 || closed {
        // The join at p[i] between the previous segment and this one.
        let prev = direction((i - 1 + segments) % segments)
        join(&out, at: p[i], from: prev, to: d, halfWidth: w, sign: sign, style: style, arcStep: arcStep)
      }
      out.append(b)
    }
    return out
  }

  static func join(
    _ out: inout [Point], at v: Point, from d0: Vector2, to d1: Vector2, halfWidth w: Double, sign: Double,
    style: StrokeStyle, arcStep: Double
  ) {
    let n0 = d0.perpendicular * sign, n1 = d1.perpendicular * sign
    let a = v + n0 * w, b = v + n1 * w
    let turn = d0.cross(d1)
    let dot = d0.dot(d1)
    if abs(turn) < 1e-12 && dot > 0 {
      out.append(b)  // straight on
      return
    }
    // This side is on the outside of the turn when the path turns away from it.
    let outer = turn * sign < 0 || (abs(turn) < 1e-12 && dot < 0)
    if !outer {
      out.append(a); out.append(v); out.append(b)
      return
    }
    out.append(a)
    switch style.join {
    case .bevel:
      break
    case .miter:
      let u = n0 + n1
      let lengthSquared = u.dot(u)
      // Miter length / width = 1/sin(θ/2) = 2/|n0 + n1|.
      if lengthSquared > 1e-12 && 2 / lengthSquared.squareRoot() <= style.miterLimit {
        out.append(v + u * (2 * w / lengthSquared))
      }
    case .round:
      arc(&out, center: v, radius: w, from: n0, to: n1, clockwise: turn * sign < 0 ? false : true, arcStep: arcStep)
    }
    out.append(b)
  }

  /// Points strictly between two radii of a circle, sweeping the short way
  /// (or a half turn in the given direction when they are opposite).
  static func arc(_ out: inout [Point], center: Point, radius: Double, from u: Vector2, to v: Vector2, clockwise: Bool, arcStep: Double) {
    let start = Elementary.atan2(y: u.y, x: u.x)
    var sweep = Elementary.atan2(y: v.y, x: v.x) - start
    if clockwise { while sweep <= 0 { sweep += 2 * .pi } } else { while sweep >= 0 { sweep -= 2 * .pi } }
    if abs(sweep) > 2 * .pi - 1e-9 { return }
    let steps = Int((abs(sweep) / arcStep).rounded(.up))
    guard steps > 1 else { return }
    let scaled = radius * areaPreservingFactor(abs(sweep) / Double(steps))
    for k in 1..<steps {
      let angle = start + sweep * Double(k) / Double(steps)
      let (sine, cosine) = Elementary.sinCos(angle)
      out.append(center + Vector2(cosine, sine) * scaled)
    }
  }

  /// Chords of a circle cut inside it; vertices at r·√(θ/sin θ) give each
  /// polygon sector of angle θ the area of the circular sector.
  static func areaPreservingFactor(_ theta: Double) -> Double {
    theta > 1e-6 ? (theta / Elementary.sin(theta)).squareRoot() : 1
  }

  /// The cap at an open end `e` reached travelling along `d`: from the
  /// right side (e + perp·w) round to the left side (e − perp·w).
  static func cap(_ out: inout [Point], at e: Point, direction d: Vector2, halfWidth w: Double, cap: LineCap, arcStep: Double) {
    let n = d.perpendicular * w
    switch cap {
    case .butt:
      break
    case .square:
      out.append(e + n + d * w)
      out.append(e - n + d * w)
    case .round:
      // Counter-clockwise on screen from +n through +d to −n.
      arc(&out, center: e, radius: w, from: n, to: -n, clockwise: false, arcStep: arcStep)
    }
  }

  /// A zero-length subpath: a dot for round and square caps, nothing for butt.
  static func dot(at p: Point, halfWidth w: Double, cap: LineCap, arcStep: Double) -> [Point]? {
    switch cap {
    case .butt: return nil
    case .square: return [p + Vector2(-w, -w), p + Vector2(w, -w), p + Vector2(w, w), p + Vector2(-w, w)]
    case .round:
      let steps = max(8, Int((2 * Double.pi / arcStep).rounded(.up)))
      let radius = w * areaPreservingFactor(2 * Double.pi / Double(steps))
      return (0..<steps).map { k in
        let angle = 2 * Double.pi * Double(k) / Double(steps)
        let (sine, cosine) = Elementary.sinCos(angle)
        return p + Vector2(cosine, sine) * radius
      }
    }
  }
}
