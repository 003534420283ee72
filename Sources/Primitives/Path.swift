import PortableMath

/// A vector path: subpaths of lines, quadratic and cubic Béziers, each
/// started by a move and optionally closed. Coordinates are whatever space
/// the path is built in; `transformed(by:)` maps it.
public struct Path: Sendable, Hashable {
  public enum Element: Sendable, Hashable {
    case move(Point)
    case line(Point)
    case quad(Point, to: Point)
    case cubic(Point, Point, to: Point)
    case close
  }

  public private(set) var elements: [Element] = []
  /// The current point, and where the current subpath started.
  public private(set) var currentPoint: Point?
  private var subpathStart: Point?

  public init() {}
  public init(elements: [Element]) {
    for e in elements { append(e) }
  }

  public var isEmpty: Bool { elements.isEmpty }

  private mutating func append(_ e: Element) {
    switch e {
    case .move(let p): move(to: p)
    case .line(let p): line(to: p)
    case .quad(let c, let p): quad(to: p, control: c)
    case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
    case .close: close()
    }
  }

  public mutating func move(to p: Point) {
    // Consecutive moves: only the last one starts a subpath.
    if case .move = elements.last { elements.removeLast() }
    elements.append(.move(p))
    currentPoint = p
    subpathStart = p
  }
  private mutating func ensureSubpath() {
    if currentPoint == nil { move(to: .zero) }
    if case .close = elements.last, let s = subpathStart { elements.append(.move(s)) }
  }
  public mutating func line(to p: Point) {
    ensureSubpath()
    elements.append(.line(p)); currentPoint = p
  }
  public mutating func quad(to p: Point, control c: Point) {
    ensureSubpath()
    elements.append(.quad(c, to: p)); currentPoint = p
  }
  public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
    ensureSubpath()
    elements.append(.cubic(c1, c2, to: p)); currentPoint = p
  }
  public mutating func close() {
    guard currentPoint != nil else { return }
    if case .close = elements.last { return }
    elements.append(.close)
    currentPoint = subpathStart
  }

  /// Appends a circular arc around `center` from `startAngle` to `endAngle`
  /// (radians, measured clockwise on screen from the +x axis), as cubics of
  /// at most 90° each; connects to it with a line if a subpath is open.
  public mutating func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true) {
    ellipticalArc(center: center, radii: Vector2(radius, radius), rotation: 0, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
  }

  /// An arc of the ellipse with the given radii, rotated by `rotation`;
  /// angles are parametric angles of the ellipse.
  public mutating func ellipticalArc(
    center: Point, radii: Vector2, rotation: Double, startAngle: Double, endAngle: Double, clockwise: Bool
  ) {
    var sweep = endAngle - startAngle
    let full = 2 * Double.pi
    if clockwise {
      if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full }
    } else {
      if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full }
    }
    let frame = AffineTransform.scale(radii.x, radii.y)
      .concatenating(.rotation(rotation)).concatenating(.translation(center.x, center.y))
    let (startSine, startCosine) = Elementary.sinCos(startAngle)
    let start = frame.apply(Point(startCosine, startSine))
    if currentPoint == nil || elementsEndClosed {
      move(to: start)
    } else if let current = currentPoint, (current - start).length > 1e-9 * max(1, radii.x, radii.y) {
      line(to: start)
    }
    let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
    let step = sweep / Double(pieces)
    // Control distance for a unit-circle arc of angle θ: 4/3·tan(θ/4).
    let k = 4.0 / 3.0 * Elementary.tan(step / 4)
    var angle = startAngle
    for _ in 0..<pieces {
      let (s0, c0) = Elementary.sinCos(angle)
      let next = angle + step
      let (s1, c1) = Elementary.sinCos(next)
      cubic(
        to: frame.apply(Point(c1, s1)),
        control1: frame.apply(Point(c0 - k * s0, s0 + k * c0)),
        control2: frame.apply(Point(c1 + k * s1, s1 - k * c1)))
      angle = next
    }
  }
  private var elementsEndClosed: Bool { if case .close = elements.last { true } else { false } }

  /// Appends the elements of another path.
  public mutating func append(_ other: Path) {
    for e in other.elements { append(e) }
  }

  /// The path with every point mapped by `t`. Affine maps preserve Béziers.
  public func transformed(by t: AffineTransform) -> Path {
    var out = Path()
    out.elements.reserveCapacity(elements.count)
    for e in elements {
      switch e {
      case .move(let p): out.move(to: t.apply(p))
      case .line(let p): out.line(to: t.apply(p))
      case .quad(let c, let p): out.quad(to: t.apply(p), control: t.apply(c))
      case .cubic(let c1, let c2, let p): out.cubic(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
      case .close: out.close()
      }
    }
    return out
  }

  /// The bounding box of the control points (contains the path).
  public var controlBounds: Rect {
    var r = Rect.null
    for e in elements {
      switch e {
      case .move(let p), .line(let p): r = r.union(p)
      case .quad(let c, let p): r = r.union(c).union(p)
      case .cubic(let c1, let c2, let p): r = r.union(c1).union(c2).union(p)
      case .close: break
      }
    }
    return r
  }

  /// The exact geometric bounds: endpoints and the extrema of every curve.
  public var bounds: Rect {
    var r = Rect.null
    var current = Point.zero
    for e in elements {
      switch e {
      case .move(let p), .line(let p):
        r = r.union(p); current = p
      case .quad(let c, let p):
        r = r.union(p)
        for axis in 0..<2 {
          let (p0, p1, p2) = axis == 0 ? (current.x, c.x, p.x) : (current.y, c.y, p.y)
          let denominator = p0 - 2 * p1 + p2
          if denominator != 0 {
            let t = (p0 - p1) / denominator
            if t > 0 && t < 1 { r = r.union(Self.quadPoint(current, c, p, t)) }
          }
        }
        current = p
      case .cubic(let c1, let c2, let p):
        r = r.union(p)
        for t in Self.cubicExtrema(current, c1, c2, p) { r = r.union(Self.cubicPoint(current, c1, c2, p, t)) }
        current = p
      case .close: break
      }
    }
    return r
  }

  static func quadPoint(_ p0: Point, _ c: Point, _ p: Point, _ t: Double) -> Point {
    let u = 1 - t
    return p0 * (u * u) + c * (2 * u * t) + p * (t * t)
  }
  static func cubicPoint(_ p0: Point, _ c1: Point, _ c2: Point, _ p: Point, _ t: Double) -> Point {
    let u = 1 - t
    return p0 * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t)
  }
  /// Parameters in (0, 1) where a cubic's x or y derivative vanishes.
  static func cubicExtrema(_ p0: Point, _ c1: Point, _ c2: Point, _ p: Point) -> [Double] {
    var ts: [Double] = []
    for axis in 0..<2 {
      let (a0, a1, a2, a3) = axis == 0 ? (p0.x, c1.x, c2.x, p.x) : (p0.y, c1.y, c2.y, p.y)
      // Derivative / 3: at² + bt + c.
      let a = -a0 + 3 * a1 - 3 * a2 + a3
      let b = 2 * (a0 - 2 * a1 + a2)
      let c = a1 - a0
      if abs(a) < 1e-12 {
        if b != 0 { ts.append(-c / b) }
      } else {
        let disc = b * b - 4 * a * c
        if disc >= 0 {
          let s = disc.squareRoot()
          ts.append((-b + s) / (2 * a)); ts.append((-b - s) / (2 * a))
        }
      }
    }
    return ts.filter { $0 > 0 && $0 < 1 }
  }

  /// The same geometry traversed backwards, subpath by subpath.
  public func reversed() -> Path {
    // Split into subpaths: (start, segments, closed).
    struct Segment { var from: Point; var element: Element }
    var subpaths: [(segments: [Segment], start: Point, closed: Bool)] = []
    var current = Point.zero, start = Point.zero
    var segments: [Segment] = []
    var open = false
    func flush(closed: Bool) {
      if open { subpaths.append((segments, start, closed)) }
      segments = []; open = false
    }
    for e in elements {
      switch e {
      case .move(let p):
        flush(closed: false)
        start = p; current = p; open = true
      case .line(let p): segments.append(Segment(from: current, element: e)); current = p
      case .quad(_, let p): segments.append(Segment(from: current, element: e)); current = p
      case .cubic(_, _, let p): segments.append(Segment(from: current, element: e)); current = p
      case .close:
        flush(closed: true)
        current = start
      }
    }
    flush(closed: false)
    var out = Path()
    for sub in subpaths {
      let end = sub.segments.last.map { Self.endPoint($0.element) } ?? sub.start
      // A closed subpath's implicit closing line becomes an explicit first line.
      out.move(to: sub.closed ? sub.start : end)
      if sub.closed && end != sub.start { out.line(to: end) }
      for s in sub.segments.reversed() {
        switch s.element {
        case .line: out.line(to: s.from)
        case .quad(let c, _): out.quad(to: s.from, control: c)
        case .cubic(let c1, let c2, _): out.cubic(to: s.from, control1: c2, control2: c1)
        default: break
        }
      }
      if sub.closed { out.close() }
    }
    return out
  }

  static func endPoint(_ e: Element) -> Point {
    switch e {
    case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): p
    case .close: .zero
    }
  }
}
