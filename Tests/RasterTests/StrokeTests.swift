import PortableMath
import Primitives
import Testing

@testable import Raster

@Suite struct StrokeTests {
  func stroked(_ path: Path, _ style: StrokeStyle, width: Int, height: Int) -> CoverageMask {
    let outline = Stroker.outline(of: path, style: style, tolerance: Path.defaultTolerance)
    return Rasterizer.coverage(
      of: outline.map { Polyline(points: $0, isClosed: true) }, rule: .nonZero, clip: PixelRect(width: width, height: height)) ?? .empty
  }

  func line(_ a: Point, _ b: Point) -> Path {
    var p = Path()
    p.move(to: a); p.line(to: b)
    return p
  }

  @Test func hairlines() {
    // Width 1 centred on a pixel row covers it fully; on a pixel edge, half of two rows.
    let centred = stroked(line(Point(0, 2.5), Point(10, 2.5)), StrokeStyle(width: 1), width: 10, height: 5)
    #expect((0..<10).allSatisfy { centred[$0, 2] == 255 && centred[$0, 1] == 0 })
    let onEdge = stroked(line(Point(0, 2), Point(10, 2)), StrokeStyle(width: 1), width: 10, height: 5)
    #expect((0..<10).allSatisfy { onEdge[$0, 1] == 128 && onEdge[$0, 2] == 128 })
    // Thinner than a pixel: proportional coverage, still visible.
    let thin = stroked(line(Point(0, 2.5), Point(10, 2.5)), StrokeStyle(width: 0.25), width: 10, height: 5)
    #expect((0..<10).allSatisfy { thin[$0, 2] == 64 })
  }

  @Test func dashPattern() {
    let mask = stroked(line(Point(0, 5.5), Point(40, 5.5)), StrokeStyle(width: 1, dash: [4, 2]), width: 40, height: 10)
    let row = (0..<40).map { mask[$0, 5] }
    let expected = (0..<40).map { $0 % 6 < 4 ? UInt8(255) : 0 }
    #expect(row == expected)
    // A phase of 1 shifts the pattern left by one.
    let shifted = stroked(line(Point(0, 5.5), Point(40, 5.5)), StrokeStyle(width: 1, dash: [4, 2], dashPhase: 1), width: 40, height: 10)
    #expect((0..<40).map { shifted[$0, 5] } == (0..<40).map { ($0 + 1) % 6 < 4 ? UInt8(255) : 0 })
  }

  @Test func trimmedCircleArcLength() {
    let r = 20.0, c = Point(30, 30)
    let circle = Path.circle(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
    let quarter = stroked(circle, StrokeStyle(width: 2, trim: (0, 0.25)), width: 60, height: 60)
    // Butt-capped: area = arc length × width.
    #expect(abs(quarter.area - 2 * Double.pi * r / 4 * 2) / (2 * Double.pi * r / 4 * 2) < 0.01)
    // From 3 o'clock, clockwise on screen: the lower-right quadrant.
    #expect(quarter[Int(c.x + r * 0.7), Int(c.y + r * 0.7)] > 0)
    #expect(quarter[Int(c.x + r * 0.7), Int(c.y - r * 0.7)] == 0)
  }

  @Test func closedStrokeIsARing() {
    let square = Path.rect(Rect(x: 5, y: 5, width: 20, height: 20))
    let ring = stroked(square, StrokeStyle(width: 2), width: 30, height: 30)
    #expect(ring[15, 15] == 0 && ring[4, 15] == 255 && ring[5, 15] == 255 && ring[6, 15] == 0)
    // Area: outer 22² − inner 18², miter corners included.
    #expect(abs(ring.area - (22 * 22 - 18 * 18)) < 0.5)
  }

  @Test func joinsAndCaps() {
    var corner = Path()
    corner.move(to: Point(5, 20)); corner.line(to: Point(20, 20)); corner.line(to: Point(20, 5))
    let miter = stroked(corner, StrokeStyle(width: 4, join: .miter), width: 30, height: 30)
    let bevel = stroked(corner, StrokeStyle(width: 4, join: .bevel), width: 30, height: 30)
    let round = stroked(corner, StrokeStyle(width: 4, join: .round), width: 30, height: 30)
    // The outer corner square (20…22)² is full for a miter, half for a bevel,
    // a quarter disc (π·2²/4) for round.
    #expect(abs((miter.area - bevel.area) - 2) < 0.05)
    #expect(abs((round.area - bevel.area) - (Double.pi - 2)) < 0.05)
    // A miter limit below √2 (the 90° miter ratio) makes it a bevel.
    let limited = stroked(corner, StrokeStyle(width: 4, join: .miter, miterLimit: 1.4), width: 30, height: 30)
    #expect(limited.coverage == bevel.coverage)
    // Caps: square adds w/2 at each end, round a half disc.
    let butt = stroked(line(Point(5, 10), Point(25, 10)), StrokeStyle(width: 4, cap: .butt), width: 30, height: 20)
    let square = stroked(line(Point(5, 10), Point(25, 10)), StrokeStyle(width: 4, cap: .square), width: 30, height: 20)
    let roundCap = stroked(line(Point(5, 10), Point(25, 10)), StrokeStyle(width: 4, cap: .round), width: 30, height: 20)
    #expect(abs(butt.area - 80) < 0.05 && abs(square.area - 96) < 0.05)
    #expect(abs(roundCap.area - (80 + Double.pi * 4)) < 0.1)
  }

  @Test func zeroLengthSubpathWithRoundCapIsADot() {
    var p = Path()
    p.move(to: Point(10, 10)); p.line(to: Point(10, 10))
    let dot = stroked(p, StrokeStyle(width: 6, cap: .round), width: 20, height: 20)
    #expect(abs(dot.area - Double.pi * 9) < 0.1)
    #expect(stroked(p, StrokeStyle(width: 6, cap: .butt), width: 20, height: 20).area == 0)
  }
}

extension StrokeTests {
  /// Dashes along a circle start where the arc length says: pattern [10, 6]
  /// on r = 26 from 3 o'clock, clockwise. Mid-dash angles are covered,
  /// mid-gap angles are not (butt caps).
  @Test func dashesAlongACircleSitAtTheirArcLength() {
    let r = 26.0, c = Point(48, 56)
    let circle = Path.circle(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
    let mask = stroked(circle, StrokeStyle(width: 4, dash: [10, 6]), width: 100, height: 100)
    for k in 0..<10 {
      let onAngle = (Double(16 * k) + 5) / r, offAngle = (Double(16 * k) + 13) / r
      let on = c + Vector2(Elementary.cos(onAngle), Elementary.sin(onAngle)) * r
      let off = c + Vector2(Elementary.cos(offAngle), Elementary.sin(offAngle)) * r
      #expect(mask[Int(on.x), Int(on.y)] == 255, "dash \(k)")
      #expect(mask[Int(off.x), Int(off.y)] == 0, "gap \(k)")
    }
  }
}
