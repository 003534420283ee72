import Primitives

/// Draws a blurred or shadowed layer of straight-sided shapes (a card, a
/// sheet, a capsule) narrower and shorter than it is, then stretches the
/// picture back: a resizing card's shadow then costs a blur of its corners,
/// not of its whole area.
///
/// Where every edge of the shapes that crosses a vertical band of the layer
/// is horizontal, every column of pixels in the band is the same (coverage
/// is exact area), and so is every column of a blur of it farther than the
/// blur's reach from the band's sides. Cutting S columns out of the band's
/// middle (moving every point right of the cut left by S), drawing, and
/// repeating the middle column S times gives the layer as drawn whole, up
/// to the reduced-resolution blur's sampling phase (under a level: tested).
/// Rows likewise.
enum StretchedTexture {
  /// The fewest columns or rows worth cutting.
  static let minimumCut = 16

  /// `ops` (one layer: `beginLayer`, fills of solid colours, `endLayer` or
  /// `endShadow`) drawn over `region`, cut and stretched; nil when the layer
  /// is not of that form or has no band wide enough to cut.
  static func draw(_ ops: [Recording.Op], over region: PixelRect) -> Pixmap? {
    guard ops.count >= 3, case .beginLayer(let bounds, let opacity, let effects) = ops[0] else { return nil }
    switch ops[ops.count - 1] {
    case .endLayer, .endShadow: break
    default: return nil
    }
    var shapes: [[Polyline]] = []
    for op in ops[1..<(ops.count - 1)] {
      guard case .fill(let lines, _, .solid, _) = op else { return nil }
      shapes.append(lines)
    }
    // Beyond the band's sides by the effects' reach (their blur and the
    // shadow's offset), and two more pixels for the rasterizer's edges.
    let margin = effects.reach + 2
    let lines = shapes.flatMap { $0 }
    let cutX = cut(lines, margin: margin, alongX: true, within: region.x0..<region.x1)
    let cutY = cut(lines, margin: margin, alongX: false, within: region.y0..<region.y1)
    guard cutX != nil || cutY != nil else { return nil }
    // Points past a cut move back by its length; so do the layer's bounds.
    func move(_ p: Point) -> Point {
      var q = p
      if let c = cutX, p.x > Double(c.at) { q.x -= Double(c.length) }
      if let c = cutY, p.y > Double(c.at) { q.y -= Double(c.length) }
      return q
    }
    let sx = cutX?.length ?? 0, sy = cutY?.length ?? 0
    var narrow: [Recording.Op] = [
      .beginLayer(
        Rect(x: bounds.minX, y: bounds.minY, width: bounds.width - Double(sx), height: bounds.height - Double(sy)),
        opacity: opacity, effects)
    ]
    for (op, lines) in zip(ops[1..<(ops.count - 1)], shapes) {
      guard case .fill(_, let rule, let paint, _) = op else { continue }
      narrow.append(.fill(lines.map { Polyline(points: $0.points.map(move), isClosed: $0.isClosed) }, rule, paint, nil))
    }
    narrow.append(ops[ops.count - 1])
    let small = PixelRect(x0: region.x0, y0: region.y0, x1: region.x1 - sx, y1: region.y1 - sy)
    let canvas = Canvas(region: small)
    canvas.replay(narrow)
    return stretch(canvas.pixmap, to: region, columnsAt: cutX.map { $0.at - region.x0 }, sx, rowsAt: cutY.map { $0.at - region.y0 }, sy)
  }

  /// Where to cut along one axis: `length` whole pixels from pixel `at` on,
  /// inside the widest gap between the points' coordinates that only
  /// edges parallel to the axis cross, `margin` pixels from its sides.
  static func cut(_ lines: [Polyline], margin: Int, alongX: Bool, within range: Range<Int>) -> (at: Int, length: Int)? {
    var best: (at: Int, length: Int)?
    for (lo, hi) in gaps(lines, alongX: alongX) {
      let at = Int(lo.rounded(.up)) + margin, end = Int(hi.rounded(.down)) - margin
      let length = end - at
      guard length >= minimumCut, length > (best?.length ?? 0), at >= range.lowerBound, end <= range.upperBound,
        crossings(lines, alongX: alongX, over: lo, hi) != nil
      else { continue }
      best = (at, length)
    }
    return best
  }

  /// Rectangles inside the shape `lines` outlines: where the widest band
  /// along an axis free of the points' coordinates is crossed by exactly
  /// two edges, both along the axis (a card's top and bottom between its
  /// corners), the shape holds the band between them. Along x and along y;
  /// none for other shapes.
  static func interiors(of lines: [Polyline]) -> [Rect] {
    [true, false].compactMap { alongX in
      guard let (lo, hi) = gaps(lines, alongX: alongX).max(by: { $0.1 - $0.0 < $1.1 - $1.0 }),
        let across = crossings(lines, alongX: alongX, over: lo, hi), across.count == 2, across[0] != across[1]
      else { return nil }
      let b0 = across.min()!, b1 = across.max()!
      return alongX ? Rect(x: lo, y: b0, width: hi - lo, height: b1 - b0) : Rect(x: b0, y: lo, width: b1 - b0, height: hi - lo)
    }
  }

  /// The gaps between consecutive distinct coordinates of the points along
  /// an axis (x, or y); none when a coordinate is not finite.
  static func gaps(_ lines: [Polyline], alongX: Bool) -> [(Double, Double)] {
    var values = lines.flatMap { $0.points.map { alongX ? $0.x : $0.y } }
    guard values.allSatisfy(\.isFinite) else { return [] }
    values.sort()
    return zip(values, values.dropFirst()).filter { $0.1 > $0.0 }
  }

  /// The other coordinate of every edge that spans `lo … hi` along the
  /// axis, when all of them run along it; nil when one does not.
  static func crossings(_ lines: [Polyline], alongX: Bool, over lo: Double, _ hi: Double) -> [Double]? {
    var across: [Double] = []
    for line in lines where line.points.count > 1 {
      let p = line.points
      for i in 0..<p.count {
        let (u, v) = (p[i], p[(i + 1) % p.count])
        let (ua, va, ub, vb) = alongX ? (u.x, v.x, u.y, v.y) : (u.y, v.y, u.x, v.x)
        guard min(ua, va) <= lo && max(ua, va) >= hi else { continue }
        guard ub == vb else { return nil }
        across.append(ub)
      }
    }
    return across
  }

  /// Safe twin of `stretch` (StretchedTexture+Unsafe.swift): each pixel
  /// of the result taken from the pixel of `small` it repeats.
  static func referenceStretch(_ small: Pixmap, to region: PixelRect, columnsAt cx: Int?, _ sx: Int, rowsAt cy: Int?, _ sy: Int) -> Pixmap {
    func source(_ v: Int, _ cut: Int?, _ length: Int) -> Int {
      guard let cut, v >= cut else { return v }
      return v < cut + length ? cut : v - length
    }
    var out = Pixmap(width: region.width, height: region.height)
    for y in 0..<region.height {
      for x in 0..<region.width { out[x, y] = small[source(x, cx, sx), source(y, cy, sy)] }
    }
    return out
  }
}
