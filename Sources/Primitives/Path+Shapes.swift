/// How a rounded rectangle's corners are shaped.
public enum CornerStyle: String, Sendable, Hashable, CaseIterable {
  /// Apple's continuous corner, the iOS "squircle": curvature eases in
  /// from the straight edge (`.continuous`, SwiftUI's default).
  case continuous
  /// Quarter circles (UIKit's `cornerCurve = .circular`).
  case circular
}

extension Path {
  /// κ: the control-point distance that makes a cubic the best quarter circle.
  static let circleKappa = 4.0 / 3.0 * (2.0.squareRoot() - 1)

  /// Apple's continuous corner, in corner radii, walked from the edge it
  /// enters by toward the edge it leaves by: `(along, into)` measured from
  /// the rectangle's corner along the entry edge and into the rectangle.
  /// Each step is a line `[p]` or a cubic `[c1, c2, p]`. The curve leaves
  /// the straight edge 1.52866 radii before the corner (the common reverse
  /// engineering of iOS 7's corner, as published by PaintCode).
  static let continuousCorner: [[(Double, Double)]] = [
    [(1.52866483, 0)],
    [(1.08849323, 0), (0.86840689, 0), (0.66993427, 0.065496)],
    [(0.63149399, 0.074911)],
    [(0.37282392, 0.16905899), (0.16905899, 0.37282392), (0.074911, 0.63149399)],
    [(0.065496, 0.66993427)],
    [(0, 0.86840689), (0, 1.08849323), (0, 1.52866483)],
  ]
  /// The circular corner in the same steps, so the two can be blended.
  static let circularCorner: [[(Double, Double)]] = [
    [(1, 0)],
    [(1, 0), (1, 0), (1, 0)],
    [(1, 0)],
    [(1 - circleKappa, 0), (0, 1 - circleKappa), (0, 1)],
    [(0, 1)],
    [(0, 1), (0, 1), (0, 1)],
  ]
  /// How far a continuous corner reaches along each edge, in radii.
  public static let continuousReach = 1.52866483

  /// A rectangle, starting at its top-left corner and running clockwise on
  /// screen (the start that `trim` measures from).
  public static func rect(_ r: Rect) -> Path {
    var p = Path()
    p.move(to: Point(r.minX, r.minY))
    p.line(to: Point(r.maxX, r.minY))
    p.line(to: Point(r.maxX, r.maxY))
    p.line(to: Point(r.minX, r.maxY))
    p.close()
    return p
  }

  /// A rounded rectangle as UIKit draws one. The radius is clamped to half
  /// the shorter side (UIKit's clamp). A continuous corner that does not
  /// fit in what is left is blended toward a circular one until it does,
  /// so a radius of half the side gives a capsule's round ends, as SwiftUI
  /// draws them. Starts at the top edge just after the top-left corner and
  /// runs clockwise on screen.
  public static func roundedRect(_ r: Rect, cornerRadius: Double, style: CornerStyle = .continuous) -> Path {
    let half = min(r.width, r.height) / 2
    let radius = min(max(cornerRadius, 0), max(half, 0))
    guard radius > 0 else { return rect(r) }
    // Weight of the continuous profile: 1 when its reach fits in half the side.
    var weight = 0.0
    if style == .continuous {
      weight = min(1, max(0, (half / radius - 1) / (continuousReach - 1)))
    }
    let steps = zip(circularCorner, continuousCorner).map { circle, smooth in
      zip(circle, smooth).map { c, s in (c.0 + (s.0 - c.0) * weight, c.1 + (s.1 - c.1) * weight) }
    }
    // Each corner's frame: origin at the rectangle's corner, `along` runs
    // back along the entry edge, `into` runs along the exit edge.
    let corners: [(corner: Point, along: Vector2, into: Vector2)] = [
      (Point(r.maxX, r.minY), Vector2(-1, 0), Vector2(0, 1)),  // top-right
      (Point(r.maxX, r.maxY), Vector2(0, -1), Vector2(-1, 0)),  // bottom-right
      (Point(r.minX, r.maxY), Vector2(1, 0), Vector2(0, -1)),  // bottom-left
      (Point(r.minX, r.minY), Vector2(0, 1), Vector2(1, 0)),  // top-left
    ]
    func point(_ c: (corner: Point, along: Vector2, into: Vector2), _ s: (Double, Double)) -> Point {
      c.corner + c.along * (s.0 * radius) + c.into * (s.1 * radius)
    }
    var p = Path()
    // Start where the top-left corner hands over to the top edge.
    let last = corners[3]
    p.move(to: point(last, steps.last!.last!))
    for corner in corners {
      for step in steps {
        if step.count == 1 {
          p.line(to: point(corner, step[0]))
        } else {
          p.cubic(to: point(corner, step[2]), control1: point(corner, step[0]), control2: point(corner, step[1]))
        }
      }
    }
    p.close()
    return p.removingDegenerateSegments()
  }

  /// The ellipse inscribed in `r`, starting at 3 o'clock and running
  /// clockwise on screen.
  public static func ellipse(in r: Rect) -> Path {
    var p = Path()
    let k = circleKappa
    let (cx, cy, rx, ry) = (r.midX, r.midY, r.width / 2, r.height / 2)
    p.move(to: Point(cx + rx, cy))
    p.cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry))
    p.cubic(to: Point(cx - rx, cy), control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry))
    p.cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry))
    p.cubic(to: Point(cx + rx, cy), control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry))
    p.close()
    return p
  }

  /// The largest circle centred in `r`, from 3 o'clock, clockwise.
  public static func circle(in r: Rect) -> Path {
    let d = min(r.width, r.height)
    return ellipse(in: Rect(x: r.midX - d / 2, y: r.midY - d / 2, width: d, height: d))
  }

  /// A capsule: a rectangle whose shorter sides are semicircles. Starts at
  /// 3 o'clock (the middle of the right end) and runs clockwise on screen.
  public static func capsule(in r: Rect) -> Path {
    let radius = min(r.width, r.height) / 2
    guard radius > 0 else { return rect(r) }
    var p = Path()
    let start = Point(r.maxX, r.midY)
    p.move(to: start)
    if r.width >= r.height {
      p.arc(center: Point(r.maxX - radius, r.midY), radius: radius, startAngle: 0, endAngle: .pi / 2)
      p.line(to: Point(r.minX + radius, r.maxY))
      p.arc(center: Point(r.minX + radius, r.midY), radius: radius, startAngle: .pi / 2, endAngle: 3 * .pi / 2)
      p.line(to: Point(r.maxX - radius, r.minY))
      p.arc(center: Point(r.maxX - radius, r.midY), radius: radius, startAngle: 3 * .pi / 2, endAngle: 2 * .pi)
    } else {
      p.line(to: Point(r.maxX, r.maxY - radius))
      p.arc(center: Point(r.midX, r.maxY - radius), radius: radius, startAngle: 0, endAngle: .pi)
      p.line(to: Point(r.minX, r.minY + radius))
      p.arc(center: Point(r.midX, r.minY + radius), radius: radius, startAngle: .pi, endAngle: 2 * .pi)
      p.line(to: start)
    }
    p.close()
    return p.removingDegenerateSegments()
  }

  /// Without lines and curves of zero length (which would give a stroke
  /// spurious joins and a trim nothing to measure).
  public func removingDegenerateSegments() -> Path {
    var out = Path()
    var current = Point.zero
    for e in elements {
      switch e {
      case .move(let p): out.move(to: p); current = p
      case .line(let p):
        if p != current { out.line(to: p) }
        current = p
      case .quad(let c, let p):
        if p != current || c != current { out.quad(to: p, control: c) }
        current = p
      case .cubic(let c1, let c2, let p):
        if p != current || c1 != current || c2 != current { out.cubic(to: p, control1: c1, control2: c2) }
        current = p
      case .close: out.close()
      }
    }
    return out
  }
}

extension Rect {
  @inlinable public var midX: Double { origin.x + size.x / 2 }
  @inlinable public var midY: Double { origin.y + size.y / 2 }
}
