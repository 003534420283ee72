import Primitives
import Testing

/// Expected values below are worked out by hand from the SVG rules, not
/// taken from the parser's output.
@Suite struct SVGPathTests {
  typealias E = Path.Element

  // MARK: Helpers

  func parse(_ d: String) throws -> [E] { try Path(svgPathData: d).elements }

  func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    (a - b).length <= tolerance
  }
  func near(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-6) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
      && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
  }
  /// Element lists equal up to `tolerance` on every coordinate.
  func near(_ a: [E], _ b: [E], _ tolerance: Double = 1e-9) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
      switch (x, y) {
      case (.move(let p), .move(let q)), (.line(let p), .line(let q)):
        if !near(p, q, tolerance) { return false }
      case (.quad(let c, let p), .quad(let d, let q)):
        if !near(c, d, tolerance) || !near(p, q, tolerance) { return false }
      case (.cubic(let c1, let c2, let p), .cubic(let d1, let d2, let q)):
        if !near(c1, d1, tolerance) || !near(c2, d2, tolerance) || !near(p, q, tolerance) { return false }
      case (.close, .close): break
      default: return false
      }
    }
    return true
  }
  /// The cubics of a path as (start, control1, control2, end).
  func cubics(_ path: Path) -> [(Point, Point, Point, Point)] {
    var out: [(Point, Point, Point, Point)] = []
    var current = Point.zero
    for e in path.elements {
      switch e {
      case .move(let p), .line(let p): current = p
      case .quad(_, let p): current = p
      case .cubic(let c1, let c2, let p): out.append((current, c1, c2, p)); current = p
      case .close: break
      }
    }
    return out
  }
  func midpoint(_ c: (Point, Point, Point, Point)) -> Point {
    (c.0 + c.1 * 3 + c.2 * 3 + c.3) * 0.125
  }
  func expectError(_ d: String, _ message: String, _ offset: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(throws: SVGPathError(message: message, offset: offset), "\(d)", sourceLocation: sourceLocation) {
      try Path(svgPathData: d)
    }
  }

  /// 4/3·tan(π/8): the control length of a 90° unit-circle cubic.
  let k90 = 0.5522847498307936

  // MARK: Commands

  @Test func absoluteCommands() throws {
    #expect(
      try parse("M10 20 L30 40 H50 V60 C1 2 3 4 5 6 Q7 8 9 10 Z") == [
        .move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)), .line(Point(50, 60)),
        .cubic(Point(1, 2), Point(3, 4), to: Point(5, 6)), .quad(Point(7, 8), to: Point(9, 10)), .close,
      ])
  }

  @Test func relativeCommands() throws {
    #expect(
      try parse("m10 20 l5 5 h10 v-10 c1 1 2 2 3 3 q1 0 2 2 z") == [
        .move(Point(10, 20)), .line(Point(15, 25)), .line(Point(25, 25)), .line(Point(25, 15)),
        .cubic(Point(26, 16), Point(27, 17), to: Point(28, 18)), .quad(Point(29, 18), to: Point(30, 20)), .close,
      ])
  }

  @Test func implicitRepeats() throws {
    #expect(try parse("M0 0 1 1 2 2") == [.move(Point(0, 0)), .line(Point(1, 1)), .line(Point(2, 2))])
    #expect(try parse("m1 1 2 2 3 3") == [.move(Point(1, 1)), .line(Point(3, 3)), .line(Point(6, 6))])
    #expect(try parse("M0 0 L1 1 2 2") == [.move(Point(0, 0)), .line(Point(1, 1)), .line(Point(2, 2))])
    #expect(
      try parse("M0 0h1 2 3v1 1") == [
        .move(Point(0, 0)), .line(Point(1, 0)), .line(Point(3, 0)), .line(Point(6, 0)),
        .line(Point(6, 1)), .line(Point(6, 2)),
      ])
    #expect(
      try parse("M0 0 C1 1 2 2 3 3 4 4 5 5 6 6") == [
        .move(Point(0, 0)), .cubic(Point(1, 1), Point(2, 2), to: Point(3, 3)),
        .cubic(Point(4, 4), Point(5, 5), to: Point(6, 6)),
      ])
    #expect(
      try parse("M0 0 q1 1 2 0 1 -1 2 0") == [
        .move(Point(0, 0)), .quad(Point(1, 1), to: Point(2, 0)), .quad(Point(3, -1), to: Point(4, 0)),
      ])
  }

  @Test func closeThenDrawContinuesFromSubpathStart() throws {
    #expect(
      try parse("M10 10 L20 10 Z L30 30") == [
        .move(Point(10, 10)), .line(Point(20, 10)), .close, .move(Point(10, 10)), .line(Point(30, 30)),
      ])
    #expect(
      try parse("M10 10 L20 10 z l5 5") == [
        .move(Point(10, 10)), .line(Point(20, 10)), .close, .move(Point(10, 10)), .line(Point(15, 15)),
      ])
    #expect(
      try parse("M10 10 L20 10 Z m5 5 l1 1 z") == [
        .move(Point(10, 10)), .line(Point(20, 10)), .close, .move(Point(15, 15)), .line(Point(16, 16)), .close,
      ])
    // h after z: relative to the subpath start, not the last drawn point.
    #expect(
      try parse("M1 2 H9 V9 z h3") == [
        .move(Point(1, 2)), .line(Point(9, 2)), .line(Point(9, 9)), .close, .move(Point(1, 2)), .line(Point(4, 2)),
      ])
  }

  @Test func smoothCubicReflectsOnlyAfterCubics() throws {
    // c1 = 2·(30,10) − (20,10) = (40,10); then 2·(60,20) − (50,20) = (70,20).
    #expect(
      try parse("M0 0 C10 0 20 10 30 10 S50 20 60 20 s10 0 20 0") == [
        .move(Point(0, 0)), .cubic(Point(10, 0), Point(20, 10), to: Point(30, 10)),
        .cubic(Point(40, 10), Point(50, 20), to: Point(60, 20)),
        .cubic(Point(70, 20), Point(70, 20), to: Point(80, 20)),
      ])
    // After a line, and after a quad, the first control is the current point.
    #expect(
      try parse("M0 0 L10 0 S20 10 30 0") == [
        .move(Point(0, 0)), .line(Point(10, 0)), .cubic(Point(10, 0), Point(20, 10), to: Point(30, 0)),
      ])
    #expect(
      try parse("M0 0 Q5 5 10 0 S15 5 20 0") == [
        .move(Point(0, 0)), .quad(Point(5, 5), to: Point(10, 0)), .cubic(Point(10, 0), Point(15, 5), to: Point(20, 0)),
      ])
    // Implicit S repeats reflect each other.
    #expect(
      try parse("M0 0 S10 10 20 0 30 -10 40 0") == [
        .move(Point(0, 0)), .cubic(Point(0, 0), Point(10, 10), to: Point(20, 0)),
        .cubic(Point(30, -10), Point(30, -10), to: Point(40, 0)),
      ])
    // After Z there is nothing to reflect.
    #expect(
      try parse("M0 0 C1 1 2 2 3 3 Z S5 5 6 6") == [
        .move(Point(0, 0)), .cubic(Point(1, 1), Point(2, 2), to: Point(3, 3)), .close,
        .move(Point(0, 0)), .cubic(Point(0, 0), Point(5, 5), to: Point(6, 6)),
      ])
  }

  @Test func smoothQuadReflectsOnlyAfterQuads() throws {
    // c = 2·(20,0) − (10,10) = (30,−10); 2·(40,0) − (30,−10) = (50,10); 2·(60,0) − (50,10) = (70,−10).
    #expect(
      try parse("M0 0 Q10 10 20 0 T40 0 T60 0 t20 0") == [
        .move(Point(0, 0)), .quad(Point(10, 10), to: Point(20, 0)), .quad(Point(30, -10), to: Point(40, 0)),
        .quad(Point(50, 10), to: Point(60, 0)), .quad(Point(70, -10), to: Point(80, 0)),
      ])
    #expect(try parse("M0 0 L10 0 T20 0") == [.move(Point(0, 0)), .line(Point(10, 0)), .quad(Point(10, 0), to: Point(20, 0))])
    #expect(
      try parse("M0 0 C1 1 2 2 3 3 T5 5") == [
        .move(Point(0, 0)), .cubic(Point(1, 1), Point(2, 2), to: Point(3, 3)), .quad(Point(3, 3), to: Point(5, 5)),
      ])
    // The first T of a path has no predecessor: control = current point.
    #expect(try parse("M2 2 t2 2") == [.move(Point(2, 2)), .quad(Point(2, 2), to: Point(4, 4))])
  }

  @Test func compactNumberForms() throws {
    #expect(try parse("M1.5.5L-1-2") == [.move(Point(1.5, 0.5)), .line(Point(-1, -2))])
    #expect(try parse("M.5.5") == [.move(Point(0.5, 0.5))])
    #expect(try parse("M1e2-1E-1") == [.move(Point(100, -0.1))])
    #expect(try parse("M+1,+2") == [.move(Point(1, 2))])
    #expect(try parse("M1.,2.") == [.move(Point(1, 2))])
    #expect(try parse("M0,0L1e+1.5") == [.move(Point(0, 0)), .line(Point(10, 0.5))])
    #expect(try parse("M0-.5L-.25-1") == [.move(Point(0, -0.5)), .line(Point(-0.25, -1))])
    #expect(try parse("M 1 , 2 L3,4") == [.move(Point(1, 2)), .line(Point(3, 4))])
    #expect(try parse("\t\nM\t1\n2\r\nL\u{0C}3 , 4\n") == [.move(Point(1, 2)), .line(Point(3, 4))])
    #expect(try parse("M0 0L10 0,20 0") == [.move(Point(0, 0)), .line(Point(10, 0)), .line(Point(20, 0))])
    #expect(try parse("M0 0L007.50 -0.0") == [.move(Point(0, 0)), .line(Point(7.5, 0))])
  }

  @Test func emptyDataIsAnEmptyPath() throws {
    #expect(try Path(svgPathData: "").isEmpty)
    #expect(try Path(svgPathData: " \n\t ").isEmpty)
  }

  // MARK: Arcs

  /// Found by fuzzing (Fuzz/Regressions/svg-path): endpoints 1e-154 apart
  /// made Λ subnormal and the centre infinite, and the arc's piece count
  /// trapped on a NaN. Such an arc is the line between its endpoints.
  @Test func anArcBetweenSubnormallyClosePointsIsALine() throws {
    let path = try Path(svgPathData: "M1e-154 0 A10 58 0 1 0 0 0")
    #expect(path.elements.last == .line(Point(0, 0)))
  }

  @Test func arcFlagsNeedNoSeparators() throws {
    // rx=1 ry=1 rotation=0, large=0, sweep=0, then (dx, dy) = (1, 1).
    let a = try Path(svgPathData: "M0 0 a1 1 0 00 1 1")
    #expect(a.currentPoint == Point(1, 1))
    let b = try Path(svgPathData: "M0 0 a1,1,0,0,0,1,1")
    #expect(a == b)
    // "1120 0": large=1, sweep=1, x=20, y=0 — the upper half circle of radius 10.
    let c = try Path(svgPathData: "M0 0 A10 10 0 1120 0")
    #expect(c.currentPoint == Point(20, 0))
    #expect(near(c.bounds, Rect(x: 0, y: -10, width: 20, height: 10)))
  }

  @Test func halfCircleArcPassesThroughTheTop() throws {
    let path = try Path(svgPathData: "M0 0 A10 10 0 0 1 20 0")
    // Centre (10, 0); parametric angle π → 2π in two 90° cubics.
    #expect(
      near(
        path.elements,
        [
          .move(Point(0, 0)),
          .cubic(Point(0, -10 * k90), Point(10 - 10 * k90, -10), to: Point(10, -10)),
          .cubic(Point(10 + 10 * k90, -10), Point(20, -10 * k90), to: Point(20, 0)),
        ], 1e-9))
    for c in cubics(path) {
      let m = midpoint(c)
      #expect(abs((m - Point(10, 0)).length - 10) < 0.003)
    }
    #expect(near(path.bounds, Rect(x: 0, y: -10, width: 20, height: 10), 1e-6))
    #expect(path.currentPoint == Point(20, 0))
  }

  @Test func sweepFlagZeroTakesTheOtherSide() throws {
    let path = try Path(svgPathData: "M0 0 A10 10 0 0 0 20 0")
    let first = try #require(cubics(path).first)
    #expect(near(first.3, Point(10, 10)))
    #expect(near(path.bounds, Rect(x: 0, y: 0, width: 20, height: 10), 1e-6))
  }

  @Test func largeArcAndSweepChooseTheCentreAndDirection() throws {
    // Radius 10 from (0,0) to (10,10): the centre is (0,10) or (10,0).
    let s = 10 / 2.0.squareRoot()
    // Small, clockwise: centre (0,10), one 90° cubic bulging up-right of the chord.
    let smallCW = try Path(svgPathData: "M0 0 A10 10 0 0 1 10 10")
    try #require(cubics(smallCW).count == 1)
    #expect(near(midpoint(cubics(smallCW)[0]), Point(s, 10 - s), 1e-9))
    #expect(near(smallCW.bounds, Rect(x: 0, y: 0, width: 10, height: 10), 1e-6))
    // Small, counter-clockwise: centre (10,0), bulging down-left.
    let smallCCW = try Path(svgPathData: "M0 0 A10 10 0 0 0 10 10")
    try #require(cubics(smallCCW).count == 1)
    #expect(near(midpoint(cubics(smallCCW)[0]), Point(10 - s, s), 1e-9))
    #expect(near(smallCCW.bounds, Rect(x: 0, y: 0, width: 10, height: 10), 1e-6))
    // Large, clockwise: centre (10,0), 270° through (10,−10) and (20,0).
    let largeCW = try Path(svgPathData: "M0 0 A10 10 0 1 1 10 10")
    let lcw = cubics(largeCW)
    try #require(lcw.count == 3)
    #expect(near(lcw[0].3, Point(10, -10)) && near(lcw[1].3, Point(20, 0)) && lcw[2].3 == Point(10, 10))
    #expect(near(largeCW.bounds, Rect(x: 0, y: -10, width: 20, height: 20), 1e-6))
    // Large, counter-clockwise: centre (0,10), 270° through (−10,10) and (0,20).
    let largeCCW = try Path(svgPathData: "M0 0 A10 10 0 1 0 10 10")
    let lccw = cubics(largeCCW)
    try #require(lccw.count == 3)
    #expect(near(lccw[0].3, Point(-10, 10)) && near(lccw[1].3, Point(0, 20)) && lccw[2].3 == Point(10, 10))
    #expect(near(largeCCW.bounds, Rect(x: -10, y: 0, width: 20, height: 20), 1e-6))
    for c in lcw { #expect(abs((midpoint(c) - Point(10, 0)).length - 10) < 0.003) }
    for c in lccw { #expect(abs((midpoint(c) - Point(0, 10)).length - 10) < 0.003) }
  }

  @Test func tooSmallRadiiAreScaledUp() throws {
    // The chord is 20 long, so radius 1 is scaled to 10: the same half circle.
    let small = try Path(svgPathData: "M0 0 A1 1 0 0 1 20 0")
    let exact = try Path(svgPathData: "M0 0 A10 10 0 0 1 20 0")
    #expect(near(small.elements, exact.elements, 1e-9))
    let first = try #require(cubics(small).first)
    #expect(near(first.3, Point(10, -10)))
    #expect(near(small.bounds, Rect(x: 0, y: -10, width: 20, height: 10), 1e-6))
    // The ratio is kept: 2×1 scaled by Λ^½ = 20 becomes 40×20; a vertical
    // chord of 40 = 2·ry, so the half ellipse reaches x = 40 (clockwise: right side).
    let ellipse = try Path(svgPathData: "M0 0 A2 1 0 0 1 0 40")
    let firstOfEllipse = try #require(cubics(ellipse).first)
    #expect(near(firstOfEllipse.3, Point(40, 20)))
    #expect(near(ellipse.bounds, Rect(x: 0, y: 0, width: 40, height: 40), 1e-6))
  }

  @Test func xAxisRotationIsInDegrees() throws {
    // Unrotated 20×10 ellipse over a vertical chord of 40: Λ = 4, radii become 40×20.
    let flat = try Path(svgPathData: "M0 0 A20 10 0 0 1 0 40")
    #expect(near(flat.bounds, Rect(x: 0, y: 0, width: 40, height: 40), 1e-6))
    // Rotated 90°: the major axis is vertical and spans the chord exactly;
    // centre (0,20), the minor radius 10 bulges to the right (clockwise).
    for d in ["M0 0 A20 10 90 0 1 0 40", "M0 0 A20 10 -90 0 1 0 40", "M0 0 A20 10 450 0 1 0 40"] {
      let rotated = try Path(svgPathData: d)
      let first = try #require(cubics(rotated).first)
      #expect(near(first.3, Point(10, 20), 1e-9), "\(d)")
      #expect(near(rotated.bounds, Rect(x: 0, y: 0, width: 10, height: 40), 1e-6), "\(d)")
    }
    // 45°: the chord is the major axis from c − R(45°)(20,0) to c + R(45°)(20,0), c = 0.
    let h = 20 / 2.0.squareRoot()
    let tilted = try Path(svgPathData: "M\(-h) \(-h) A20 10 45 0 1 \(h) \(h)")
    let t = cubics(tilted)
    try #require(t.count == 2)
    // The minor-axis end R(45°)(0,−10) = (7.071…, −7.071…).
    #expect(near(t[0].3, Point(10 / 2.0.squareRoot(), -10 / 2.0.squareRoot()), 1e-6))
    for c in t {
      // Back into the ellipse frame: rotate by −45°.
      let m = midpoint(c)
      let q = Point((m.x + m.y) / 2.0.squareRoot(), (m.y - m.x) / 2.0.squareRoot())
      let r = ((q.x / 20) * (q.x / 20) + (q.y / 10) * (q.y / 10)).squareRoot()
      #expect(abs(r - 1) < 0.003 / 10)
    }
  }

  @Test func degenerateArcs() throws {
    // A zero radius is a straight line.
    #expect(try parse("M0 0 A0 10 0 0 1 20 0") == [.move(Point(0, 0)), .line(Point(20, 0))])
    #expect(try parse("M0 0 a10 0 0 1 0 20 5") == [.move(Point(0, 0)), .line(Point(20, 5))])
    // Identical endpoints: the arc is omitted.
    #expect(try parse("M5 5 A10 10 0 0 1 5 5 L6 6") == [.move(Point(5, 5)), .line(Point(6, 6))])
    #expect(try parse("M5 5 L6 6 a10 10 0 1 1 0 0") == [.move(Point(5, 5)), .line(Point(6, 6))])
    // Negative radii are made positive.
    #expect(try Path(svgPathData: "M0 0 A-10 -10 0 0 1 20 0") == Path(svgPathData: "M0 0 A10 10 0 0 1 20 0"))
  }

  @Test func relativeArcEndsExactlyAtItsEndpoint() throws {
    let path = try Path(svgPathData: "M10 10 a10 10 0 0 1 20 0 l0 5")
    #expect(path.elements.last == .line(Point(30, 15)))
    #expect(cubics(path).last?.3 == Point(30, 10))
    #expect(near(path.bounds, Rect(x: 10, y: 0, width: 20, height: 15), 1e-6))
    // Implicit arc repeats: two half circles make a full circle back to the start.
    let circle = try Path(svgPathData: "M0 0 a10 10 0 0 1 20 0 10 10 0 0 1 -20 0z")
    #expect(cubics(circle).count == 4)
    #expect(near(circle.bounds, Rect(x: 0, y: -10, width: 20, height: 20), 1e-6))
  }

  // MARK: Errors

  @Test func errorsQuoteTheOffendingTextAndItsOffset() {
    expectError("L10 10", "path data must start with 'M' or 'm', found 'L'", 0)
    expectError("  10 10", "path data must start with 'M' or 'm', found '1'", 2)
    expectError("M0 0 L x", "expected a number after 'L', found 'x'", 7)
    expectError("M0 0 X 5", "unknown command 'X'", 5)
    expectError("M0 0 L1 2 # 3", "expected a command, found '#'", 10)
    expectError("M0 0 L1 2 3", "expected a number after 'L', found end of data", 11)
    expectError("M0 0 C1 2 3 4 5", "expected a number after 'C', found end of data", 15)
    expectError("M0 0 A1 1 0 2 0 5 5", "expected an arc flag (0 or 1) after 'A', found '2'", 12)
    expectError("M0 0 a1 1 0 0 -1 5 5", "expected an arc flag (0 or 1) after 'a', found '-'", 14)
    expectError("M0 0 A1 1 0 0", "expected an arc flag (0 or 1) after 'A', found end of data", 13)
    expectError("M0 0 L1 -. 2", "malformed number '-.' after 'L'", 8)
    expectError("M0 0 L1 2e", "malformed exponent in number '2e' after 'L'", 8)
    expectError("M0 0 L1 2e+x", "malformed exponent in number '2e+' after 'L'", 8)
    expectError("M0 0 L1 1e999", "number '1e999' after 'L' is out of range", 8)
    expectError("M0 0 Z 5 5", "expected a command, found '5' ('Z' takes no arguments)", 7)
    expectError("M0 0 L1 2, L3 4", "unexpected ',' after the arguments of 'L'", 9)
    expectError("M,1 2", "expected a number after 'M', found ','", 1)
    expectError("M1,,2", "expected a number after 'M', found ','", 3)
    expectError("M0 0 L1 2 é", "expected a command, found 'é'", 10)
    expectError("M0 0 L1 2 e", "unknown command 'e'", 10)
  }

  @Test func errorDescriptionIncludesTheOffset() {
    let e = SVGPathError(message: "expected a number after 'L', found 'x'", offset: 7)
    #expect(e.description == "expected a number after 'L', found 'x' (at offset 7)")
    do throws(SVGPathError) {
      _ = try Path(svgPathData: "M0 0 Lx")
      Issue.record("no error")
    } catch {
      #expect(error.offset == 6)
      #expect(error.message == "expected a number after 'L', found 'x'")
    }
  }
}
