import PortableMath
import Primitives
import Testing

/// rotation3DEffect's projection against SCENE.md's formula, evaluated
/// here independently point by point.
@Suite struct ProjectionTests {
  /// a + (x′, y′) / (1 − z′/D), (x′, y′, z′) = R(p − a) by Rodrigues.
  func formula(_ p: Point, _ r: Rotation3D, size: Vector2) -> Point {
    let n = (r.axis.x * r.axis.x + r.axis.y * r.axis.y + r.axis.z * r.axis.z).squareRoot()
    let k = (r.axis.x / n, r.axis.y / n, r.axis.z / n)
    let v = (p.x - r.anchor.x * size.x, p.y - r.anchor.y * size.y, -r.anchorZ)
    let t = r.angle * .pi / 180
    let (s, c) = (Elementary.sin(t), Elementary.cos(t))
    let cross = (k.1 * v.2 - k.2 * v.1, k.2 * v.0 - k.0 * v.2, k.0 * v.1 - k.1 * v.0)
    let dot = k.0 * v.0 + k.1 * v.1 + k.2 * v.2
    let x = v.0 * c + cross.0 * s + k.0 * dot * (1 - c)
    let y = v.1 * c + cross.1 * s + k.1 * dot * (1 - c)
    let z = v.2 * c + cross.2 * s + k.2 * dot * (1 - c)
    let d = max(size.x, size.y) / r.perspective
    let w = 1 - z / d
    return Point(r.anchor.x * size.x + x / w, r.anchor.y * size.y + y / w)
  }

  @Test(
    arguments: [
      Rotation3D(angle: 30, axis: (0, 1, 0)),
      Rotation3D(angle: -50, axis: (1, 0, 0), anchor: Vector2(0, 0)),
      Rotation3D(angle: 75, axis: (1, 1, 0.5), anchor: Vector2(0.3, 0.8), anchorZ: 20, perspective: 0.7),
      Rotation3D(angle: 0, axis: (0, 1, 0), anchorZ: -40),
      Rotation3D(angle: 180, axis: (0, 1, 0)),
    ])
  func cornersFollowTheFormula(_ r: Rotation3D) {
    let size = Vector2(200, 120)
    let h = r.homography(size: size)
    for p in [Point(0, 0), Point(200, 0), Point(200, 120), Point(0, 120), Point(57, 33)] {
      let got = h.apply(p), want = formula(p, r, size: size)
      #expect(abs(got.x - want.x) < 1e-9 && abs(got.y - want.y) < 1e-9, "\(p): \(got) vs \(want)")
    }
    if let inverse = h.inverted {
      let back = inverse.apply(h.apply(Point(57, 33)))
      #expect(abs(back.x - 57) < 1e-9 && abs(back.y - 33) < 1e-9)
    }
  }

  /// By hand: 60° about y through the centre of a 200 × 100 layer (D = 200):
  /// the right edge goes to x′ = 100 cos 60° = 50, z′ = −100 sin 60° = −86.6
  /// (away), so it lands at 100 + 50 / (1 + 86.6/200) = 134.9, its height
  /// shrunk by the same factor; the left edge comes nearer: 100 − 50 / (1 − 86.6/200).
  @Test func aHandComputedTurn() {
    let h = Rotation3D(angle: 60, axis: (0, 1, 0)).homography(size: Vector2(200, 100))
    let f = 1 + 100 * 3.0.squareRoot() / 2 / 200, g = 1 - 100 * 3.0.squareRoot() / 2 / 200
    let right = h.apply(Point(200, 0)), left = h.apply(Point(0, 0))
    #expect(abs(right.x - (100 + 50 / f)) < 1e-9 && abs(right.y - (50 - 50 / f)) < 1e-9)
    #expect(abs(left.x - (100 - 50 / g)) < 1e-9 && abs(left.y - (50 - 50 / g)) < 1e-9)
  }

  /// Past 90° about y with perspective, part of a wide layer is behind the
  /// eye: the projected polygon keeps only what is in front.
  @Test func behindTheEyeIsCut() {
    // −89° about the left edge brings the right side toward the eye: with
    // D = 50, w = 1 − x sin 89° / 50 falls to 10⁻³ at x = 49.95.
    let h = Rotation3D(angle: -89, axis: (0, 1, 0), anchor: Vector2(0, 0.5), perspective: 4).homography(size: Vector2(200, 100))
    let polygon = h.projectPolygon([Point(0, 0), Point(200, 0), Point(200, 100), Point(0, 100)])
    #expect(polygon.count == 4 && polygon.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    let cut = (1 - Homography.minimumW) * 50 / Elementary.sin(89 * .pi / 180)
    #expect(abs(polygon[1].x - h.apply(Point(cut, 0)).x) < 1e-6)
    let all = Rotation3D(angle: 0, axis: (0, 1, 0)).homography(size: Vector2(10, 10)).projectPolygon([Point(0, 0), Point(10, 0), Point(10, 10)])
    #expect(all == [Point(0, 0), Point(10, 0), Point(10, 10)])
  }
}
