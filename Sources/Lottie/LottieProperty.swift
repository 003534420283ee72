import Primitives

/// A Bézier path as Lottie stores it: vertices with in and out tangents
/// relative to each vertex, open or closed.
public struct LottieBezier: Sendable, Hashable {
  public var vertices: [Point]
  public var inTangents: [Point]
  public var outTangents: [Point]
  public var closed: Bool

  /// The path in the layer's coordinates.
  public var path: Path {
    var path = Path()
    guard let first = vertices.first else { return path }
    path.move(to: first)
    let n = vertices.count
    for i in 0..<(closed ? n : n - 1) {
      let j = (i + 1) % n
      let c1 = Point(vertices[i].x + outTangents[i].x, vertices[i].y + outTangents[i].y)
      let c2 = Point(vertices[j].x + inTangents[j].x, vertices[j].y + inTangents[j].y)
      path.cubic(to: vertices[j], control1: c1, control2: c2)
    }
    if closed { path.close() }
    return path
  }

  /// `self` and `other` mixed: `self` at 0, `other` at 1 (vertex by vertex;
  /// a shape with another count of vertices holds until the end).
  func mixed(with other: LottieBezier, _ f: Double) -> LottieBezier {
    guard vertices.count == other.vertices.count else { return f < 1 ? self : other }
    func mix(_ a: [Point], _ b: [Point]) -> [Point] { zip(a, b).map { Point($0.x + ($1.x - $0.x) * f, $0.y + ($1.y - $0.y) * f) } }
    return LottieBezier(
      vertices: mix(vertices, other.vertices), inTangents: mix(inTangents, other.inTangents),
      outTangents: mix(outTangents, other.outTangents), closed: closed)
  }
}

/// A value a property takes: numbers (a scalar, a point, a colour, a
/// gradient's stops) or a Bézier path.
public enum LottieValue: Sendable, Hashable {
  case numbers([Double])
  case shape(LottieBezier)

  var numbers: [Double] { if case .numbers(let n) = self { n } else { [] } }
  var shape: LottieBezier? { if case .shape(let s) = self { s } else { nil } }
}

/// One keyframe: its frame, its start value, its end value (the old
/// format's `e`; else the next keyframe's start), its easing out of it
/// (`o`) and into the next (`i`), per dimension, its hold, and the spatial
/// tangents of a position's path (`to`, `ti`).
public struct LottieKeyframe: Sendable, Hashable {
  public var time: Double
  public var start: LottieValue?
  public var end: LottieValue?
  public var easeOut: [Point]
  public var easeIn: [Point]
  public var hold: Bool
  public var tangentOut: [Double]?
  public var tangentIn: [Double]?
}

/// A property: a constant, or keyframes in time order.
public enum LottieProperty: Sendable, Hashable {
  case constant(LottieValue)
  case animated([LottieKeyframe])

  public var isAnimated: Bool { if case .animated = self { true } else { false } }

  /// The value at frame `f`: held before the first and after the last
  /// keyframe; between two, the start value eased to the end value by
  /// the keyframe's cubic Bézier (per dimension), along the spatial
  /// tangents' curve when given; a hold keyframe keeps its start value.
  public func value(at f: Double) -> LottieValue {
    switch self {
    case .constant(let v): return v
    case .animated(let keys):
      guard let first = keys.first else { return .numbers([]) }
      if f <= first.time { return first.start ?? first.end ?? .numbers([]) }
      for i in 0..<keys.count {
        let k = keys[i]
        let next = i + 1 < keys.count ? keys[i + 1] : nil
        guard let next, f < next.time else { continue }
        let from = k.start ?? .numbers([])
        if k.hold { return from }
        let to = k.end ?? next.start ?? from
        let p = next.time > k.time ? (f - k.time) / (next.time - k.time) : 1
        return Self.interpolate(from, to, progress: p, key: k)
      }
      // After the last keyframe: its value (an old file's last keyframe
      // may have none: the one before ends there).
      let last = keys[keys.count - 1]
      if let s = last.start { return s }
      if keys.count >= 2, let e = keys[keys.count - 2].end ?? keys[keys.count - 2].start { return e }
      return .numbers([])
    }
  }

  /// The numbers at frame `f`, padded with `fallback`'s where missing.
  public func numbers(at f: Double, fallback: [Double]) -> [Double] {
    var n = value(at: f).numbers
    if n.count < fallback.count { n += fallback[n.count...] }
    return n
  }

  static func interpolate(_ a: LottieValue, _ b: LottieValue, progress p: Double, key: LottieKeyframe) -> LottieValue {
    switch (a, b) {
    case (.shape(let s), .shape(let e)):
      return .shape(s.mixed(with: e, ease(p, key: key, dimension: 0)))
    case (.numbers(let s), .numbers(let e)):
      if let to = key.tangentOut, let ti = key.tangentIn, s.count >= 2, e.count >= 2,
        to.contains(where: { $0 != 0 }) || ti.contains(where: { $0 != 0 })
      {
        // A position along the curve s, s + to, e + ti, e, at the eased
        // fraction of its length.
        let t = ease(p, key: key, dimension: 0)
        let p0 = Point(s[0], s[1]), p3 = Point(e[0], e[1])
        let p1 = Point(s[0] + (to.first ?? 0), s[1] + (to.count > 1 ? to[1] : 0))
        let p2 = Point(e[0] + (ti.first ?? 0), e[1] + (ti.count > 1 ? ti[1] : 0))
        let point = Self.pointAlong(p0, p1, p2, p3, fraction: t)
        var out = [point.x, point.y]
        if s.count > 2, e.count > 2 { out.append(s[2] + (e[2] - s[2]) * t) }
        return .numbers(out)
      }
      let n = min(s.count, e.count)
      var out = [Double](repeating: 0, count: n)
      for d in 0..<n { out[d] = s[d] + (e[d] - s[d]) * ease(p, key: key, dimension: d) }
      return .numbers(out)
    default:
      return p < 1 ? a : b
    }
  }

  /// The eased progress of dimension `d`: the y of the cubic Bézier from
  /// (0, 0) to (1, 1) with controls `o` and `i` at the x that is `p`.
  static func ease(_ p: Double, key: LottieKeyframe, dimension d: Int) -> Double {
    guard !key.easeOut.isEmpty, !key.easeIn.isEmpty else { return p }
    let o = key.easeOut[min(d, key.easeOut.count - 1)], i = key.easeIn[min(d, key.easeIn.count - 1)]
    return CubicEase(x1: o.x, y1: o.y, x2: i.x, y2: i.y).value(p)
  }

  /// The point at `fraction` of the length of a cubic Bézier, measured on
  /// 64 chords.
  static func pointAlong(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, fraction: Double) -> Point {
    func at(_ u: Double) -> Point {
      let v = 1 - u
      let a = v * v * v, b = 3 * v * v * u, c = 3 * v * u * u, d = u * u * u
      return Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }
    if fraction <= 0 { return fraction == 0 ? p0 : at(fraction) }
    if fraction >= 1 { return fraction == 1 ? p3 : at(fraction) }
    let n = 64
    var lengths = [0.0]
    var previous = p0
    for k in 1...n {
      let q = at(Double(k) / Double(n))
      lengths.append(lengths[k - 1] + ((q.x - previous.x) * (q.x - previous.x) + (q.y - previous.y) * (q.y - previous.y)).squareRoot())
      previous = q
    }
    let target = fraction * lengths[n]
    guard lengths[n] > 0 else { return at(fraction) }
    var k = 1
    while k < n && lengths[k] < target { k += 1 }
    let span = lengths[k] - lengths[k - 1]
    let local = span > 0 ? (target - lengths[k - 1]) / span : 0
    return at((Double(k - 1) + local) / Double(n))
  }
}

/// The cubic Bézier easing of CSS and After Effects: x(u) solved for u by
/// Newton's method, then bisection.
struct CubicEase {
  let x1, y1, x2, y2: Double

  func value(_ x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    if x1 == y1 && x2 == y2 { return x }
    func bez(_ u: Double, _ a: Double, _ b: Double) -> Double {
      let v = 1 - u
      return 3 * v * v * u * a + 3 * v * u * u * b + u * u * u
    }
    func slope(_ u: Double, _ a: Double, _ b: Double) -> Double {
      let v = 1 - u
      return 3 * v * v * a + 6 * v * u * (b - a) + 3 * u * u * (1 - b)
    }
    var u = x
    for _ in 0..<8 {
      let err = bez(u, x1, x2) - x
      if abs(err) < 1e-12 { return bez(u, y1, y2) }
      let d = slope(u, x1, x2)
      if abs(d) < 1e-9 { break }
      u -= err / d
    }
    var lo = 0.0, hi = 1.0
    u = min(max(u, 0), 1)
    if abs(bez(u, x1, x2) - x) >= 1e-12 {
      u = x
      for _ in 0..<60 {
        let v = bez(u, x1, x2)
        if abs(v - x) < 1e-12 { break }
        if v < x { lo = u } else { hi = u }
        u = (lo + hi) / 2
      }
    }
    return bez(u, y1, y2)
  }
}
