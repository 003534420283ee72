import Primitives
import Testing

@testable import Raster

@Suite struct ShapeTests {
  let box = Rect(x: 2, y: 3, width: 100, height: 60)

  func area(_ p: Path) -> Double { coverage(of: p, width: 110, height: 70).area }

  @Test func roundedRectAreas() {
    let r = 10.0
    // Circular corners: the rect minus (4 − π)·r².
    #expect(abs(area(.roundedRect(box, cornerRadius: r, style: .circular)) - (6000 - (4 - Double.pi) * r * r)) < 1)
    // Continuous corners leave the edge 1.53 r out and bulge less: they cut
    // more than circular ones, and less than the triangle of their reach.
    let continuous = area(.roundedRect(box, cornerRadius: r))
    #expect(continuous < 6000 - (4 - Double.pi) * r * r - 1)
    #expect(continuous > 6000 - 4 * (1.52866 * r) * (1.52866 * r) / 2)
  }

  @Test func radiusIsClampedToHalfTheShorterSide() {
    let huge = Path.roundedRect(box, cornerRadius: 500, style: .circular)
    #expect(coverage(of: huge, width: 110, height: 70).coverage == coverage(of: .capsule(in: box), width: 110, height: 70).coverage)
    // A continuous corner of half the side blends to the capsule's round end.
    #expect(abs(area(.roundedRect(box, cornerRadius: 30)) - area(.capsule(in: box))) < 0.5)
  }

  @Test func ellipseCircleCapsule() {
    #expect(abs(area(.ellipse(in: box)) - Double.pi * 50 * 30) / (Double.pi * 50 * 30) < 0.001)
    #expect(abs(area(.circle(in: box)) - Double.pi * 900) / (Double.pi * 900) < 0.001)
    #expect(abs(area(.capsule(in: box)) - (40 * 60 + Double.pi * 900)) / (40 * 60 + Double.pi * 900) < 0.001)
  }

  @Test func outlinesStartWhereTrimMeasuresFrom() {
    // SCENE.md: circles and capsules at 3 o'clock, rects at the top-left end
    // of the top edge (after the corner when rounded), all clockwise on screen.
    guard case .move(let c) = Path.circle(in: box).elements[0] else { Issue.record("no move"); return }
    #expect(c == Point(82, 33))
    guard case .move(let r) = Path.rect(box).elements[0] else { Issue.record("no move"); return }
    #expect(r == Point(2, 3))
    guard case .move(let rr) = Path.roundedRect(box, cornerRadius: 10, style: .circular).elements[0] else { Issue.record("no move"); return }
    #expect(rr == Point(12, 3))
    guard case .line(let next) = Path.rect(box).elements[1] else { Issue.record("no line"); return }
    #expect(next == Point(102, 3))  // rightwards first: clockwise
  }
}
