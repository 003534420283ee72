import Primitives

/// Exact-area coverage of polygons: every line deposits the signed area it
/// sweeps in each pixel it crosses (as in font-rs), and a prefix sum along
/// each row turns those into the signed coverage of every pixel. Non-zero
/// takes |coverage| clamped to 1; even-odd folds it modulo 2. Exact for
/// any geometry whose edges do not cross inside one pixel, sub-pixel
/// shapes included; abutting shapes share their edge pixels exactly.
public enum Rasterizer {
  // MARK: Safe twins
  //
  // Obviously correct and slow: the tests compare the accumulation
  // rasterizer (Rasterizer+Unsafe.swift) with these on random polygons.

  /// Point sampling on a 16 × 16 grid per pixel, winding number by crossing
  /// count. Exact up to its sampling: ±1/16 of a pixel per edge.
  static func referenceSupersampled(_ polygons: [[Point]], rule: FillRule, width: Int, height: Int) -> [Double] {
    let n = 16
    var out = [Double](repeating: 0, count: width * height)
    for py in 0..<height {
      for sy in 0..<n {
        let y = Double(py) + (Double(sy) + 0.5) / Double(n)
        // Crossings of this sample row with every edge: (x, direction).
        var crossings: [(Double, Int)] = []
        for poly in polygons where poly.count > 1 {
          for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            if (a.y <= y) != (b.y <= y) {
              let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
              crossings.append((x, b.y > a.y ? 1 : -1))
            }
          }
        }
        crossings.sort { $0.0 < $1.0 }
        for px in 0..<width {
          var inside = 0
          for sx in 0..<n {
            let x = Double(px) + (Double(sx) + 0.5) / Double(n)
            var winding = 0
            for c in crossings where c.0 < x { winding += c.1 }
            if rule == .nonZero ? winding != 0 : winding % 2 != 0 { inside += 1 }
          }
          out[py * width + px] += Double(inside) / Double(n * n)
        }
      }
    }
    return out
  }

  /// Exact coverage of a simple polygon: the area of its intersection with
  /// each pixel square (Sutherland–Hodgman clipping, shoelace area).
  static func referenceExactArea(_ polygon: [Point], width: Int, height: Int) -> [Double] {
    var out = [Double](repeating: 0, count: width * height)
    for py in 0..<height {
      for px in 0..<width {
        var poly = polygon
        let (x0, y0, x1, y1) = (Double(px), Double(py), Double(px + 1), Double(py + 1))
        poly = clip(poly) {
          $0.x >= x0
        } intersect: { a, b in
          Point(x0, a.y + (x0 - a.x) / (b.x - a.x) * (b.y - a.y))
        }
        poly = clip(poly) {
          $0.x <= x1
        } intersect: { a, b in
          Point(x1, a.y + (x1 - a.x) / (b.x - a.x) * (b.y - a.y))
        }
        poly = clip(poly) {
          $0.y >= y0
        } intersect: { a, b in
          Point(a.x + (y0 - a.y) / (b.y - a.y) * (b.x - a.x), y0)
        }
        poly = clip(poly) {
          $0.y <= y1
        } intersect: { a, b in
          Point(a.x + (y1 - a.y) / (b.y - a.y) * (b.x - a.x), y1)
        }
        out[py * width + px] = abs(area(poly))
      }
    }
    return out
  }

  private static func clip(_ poly: [Point], _ inside: (Point) -> Bool, intersect: (Point, Point) -> Point) -> [Point] {
    guard !poly.isEmpty else { return [] }
    var out: [Point] = []
    for i in 0..<poly.count {
      let a = poly[i], b = poly[(i + 1) % poly.count]
      switch (inside(a), inside(b)) {
      case (true, true): out.append(b)
      case (true, false): out.append(intersect(a, b))
      case (false, true): out.append(intersect(a, b)); out.append(b)
      case (false, false): break
      }
    }
    return out
  }

  private static func area(_ poly: [Point]) -> Double {
    guard poly.count > 2 else { return 0 }
    var s = 0.0
    for i in 0..<poly.count { s += poly[i].cross(poly[(i + 1) % poly.count]) }
    return s / 2
  }
}

/// Coverage of polygons from the real rasterizer, as 0…1 per pixel of a canvas.
func coverage(_ polygons: [[Point]], rule: FillRule = .nonZero, width: Int, height: Int) -> [Double] {
  let mask = Rasterizer.coverage(
    of: polygons.map { Polyline(points: $0, isClosed: true) }, rule: rule, clip: PixelRect(width: width, height: height))
  var out = [Double](repeating: 0, count: width * height)
  for y in 0..<height { for x in 0..<width { out[y * width + x] = Double(mask?[x, y] ?? 0) / 255 } }
  return out
}

func coverage(of path: Path, rule: FillRule = .nonZero, width: Int, height: Int) -> CoverageMask {
  Rasterizer.coverage(of: path.flattened(), rule: rule, clip: PixelRect(width: width, height: height)) ?? .empty
}
