import Primitives

/// After Effects' Round Corners (`rd`), as lottie-web applies it: every
/// sharp vertex (no tangents) of a path becomes two, at the radius (at
/// most half the way) along each of its edges, joined by a cubic whose
/// controls lie 0.5519 of the way back toward the corner. Curved vertices
/// and the ends of an open path stay.
enum LottieCorners {
  static let handle = 0.5519

  struct Vertex {
    var point: Point
    var incoming: Point
    var outgoing: Point
    var isSharp: Bool { point == incoming && point == outgoing }
  }

  static func rounded(_ path: Path, radius: Double) -> Path {
    var out = Path()
    for (vertices, closed) in subpaths(of: path) { append(round(vertices, closed: closed, radius: radius), closed: closed, to: &out) }
    return out
  }

  /// A path's subpaths as vertices with their (absolute) control points.
  static func subpaths(of path: Path) -> [([Vertex], Bool)] {
    var result: [([Vertex], Bool)] = []
    var current: [Vertex] = []
    func finish(closed: Bool) {
      guard !current.isEmpty else { return }
      var vertices = current
      // A closing edge back onto the first vertex: that vertex, once.
      if closed, vertices.count > 1, vertices[vertices.count - 1].point == vertices[0].point {
        vertices[0].incoming = vertices[vertices.count - 1].incoming
        vertices.removeLast()
      }
      result.append((vertices, closed))
      current = []
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish(closed: false)
        current = [Vertex(point: p, incoming: p, outgoing: p)]
      case .line(let p):
        if current.isEmpty {
          current = [Vertex(point: p, incoming: p, outgoing: p)]
        } else {
          current.append(Vertex(point: p, incoming: p, outgoing: p))
        }
      case .quad(let c, let p):
        guard let last = current.last?.point else { continue }
        current[current.count - 1].outgoing = Point(last.x + 2 * (c.x - last.x) / 3, last.y + 2 * (c.y - last.y) / 3)
        current.append(Vertex(point: p, incoming: Point(p.x + 2 * (c.x - p.x) / 3, p.y + 2 * (c.y - p.y) / 3), outgoing: p))
      case .cubic(let c1, let c2, let p):
        guard !current.isEmpty else { continue }
        current[current.count - 1].outgoing = c1
        current.append(Vertex(point: p, incoming: c2, outgoing: p))
      case .close:
        finish(closed: true)
      }
    }
    finish(closed: false)
    return result
  }

  static func round(_ vertices: [Vertex], closed: Bool, radius: Double) -> [Vertex] {
    let n = vertices.count
    var out: [Vertex] = []
    for i in 0..<n {
      let v = vertices[i]
      guard v.isSharp, closed || (i > 0 && i < n - 1), n > 1 else {
        out.append(v)
        continue
      }
      let corner = v.point
      func along(_ neighbour: Point) -> Point {
        let dx = neighbour.x - corner.x, dy = neighbour.y - corner.y
        let distance = (dx * dx + dy * dy).squareRoot()
        let t = distance > 0 ? min(distance / 2, radius) / distance : 0
        return Point(corner.x + dx * t, corner.y + dy * t)
      }
      func toward(_ p: Point) -> Point { Point(p.x - (p.x - corner.x) * handle, p.y - (p.y - corner.y) * handle) }
      let before = along(vertices[(i + n - 1) % n].point), after = along(vertices[(i + 1) % n].point)
      out.append(Vertex(point: before, incoming: before, outgoing: toward(before)))
      out.append(Vertex(point: after, incoming: toward(after), outgoing: after))
    }
    return out
  }

  static func append(_ vertices: [Vertex], closed: Bool, to path: inout Path) {
    guard let first = vertices.first else { return }
    path.move(to: first.point)
    let n = vertices.count
    for i in 0..<(closed ? n : n - 1) {
      let a = vertices[i], b = vertices[(i + 1) % n]
      if a.outgoing == a.point && b.incoming == b.point {
        path.line(to: b.point)
      } else {
        path.cubic(to: b.point, control1: a.outgoing, control2: b.incoming)
      }
    }
    if closed { path.close() }
  }
}
