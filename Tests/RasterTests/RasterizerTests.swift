import PortableMath
import Primitives
import Testing

@testable import Raster

@Suite struct RasterizerTests {
  /// The vector conversion of running sums to coverage equals the scalar
  /// one lane by lane: on sums whose c = |s|·255 + 0.5 lands exactly on an
  /// integer or a half (where rounding tricks go wrong), either side of
  /// them, past ±1, at ±0 and infinity, and on random floats.
  @Test func vectorCoverageEqualsTheScalarRule() {
    var sums: [Float] = [0, -0, 1, -1, 2, -7.5, .infinity, -.infinity, .leastNonzeroMagnitude, 1 - .ulpOfOne, 0.5 / 255]
    for n in 0...255 {
      for offset: Float in [-0.5, 0] {
        let s = (Float(n) + offset) / 255
        sums += [s, s.nextUp, s.nextDown, -s, -s.nextUp]
      }
    }
    var state: UInt64 = 5
    for _ in 0..<4096 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      sums.append(Float(Int32(truncatingIfNeeded: state >> 32)) / Float(1 << 30))
    }
    while sums.count % 8 != 0 { sums.append(0.25) }
    for i in stride(from: 0, to: sums.count, by: 8) {
      let lanes = SIMD8<Float>(sums[i..<(i + 8)])
      let vector = Accumulator.nonZeroCoverage(lanes)
      for j in 0..<8 {
        #expect(vector[j] == Accumulator.coverage(lanes[j], .nonZero), "sum \(lanes[j])")
      }
    }
  }

  /// The search for the next touched (or untouched) chunk equals a walk
  /// bit by bit, across word edges and up to the limit.
  @Test func chunkSearchEqualsABitByBitWalk() {
    var marks: [UInt64] = [0x8000_0000_0000_0001, 0, 0xFFFF_FFFF_FFFF_FFFF, 0x0F0F_0000_1234_5678]
    marks.withUnsafeMutableBufferPointer { words in
      for limit in [0, 1, 63, 64, 65, 128, 200, 256] {
        for start in 0...limit {
          for touched in [true, false] {
            var walk = start
            while walk < limit && ((words[walk >> 6] >> UInt64(walk & 63)) & 1 == 1) != touched { walk += 1 }
            #expect(Accumulator.firstChunk(from: start, touched: touched, below: limit, in: words.baseAddress!) == walk)
          }
        }
      }
    }
  }

  @Test func rectOnHalfPixelEdges() {
    let c = coverage([[Point(0.5, 0.5), Point(2.5, 0.5), Point(2.5, 2.5), Point(0.5, 2.5)]], width: 4, height: 4)
    // Corners a quarter, edges a half, the middle whole.
    #expect(c[0] == 64.0 / 255 && c[1] == 128.0 / 255 && c[2] == 64.0 / 255)
    #expect(c[4] == 128.0 / 255 && c[5] == 1 && c[6] == 128.0 / 255)
    #expect(c[3] == 0 && c[12] == 0)
  }

  @Test func subPixelShapeHasProportionalCoverage() {
    // A 0.3 × 0.2 rectangle inside one pixel covers 6% of it.
    let c = coverage([[Point(1.2, 1.3), Point(1.5, 1.3), Point(1.5, 1.5), Point(1.2, 1.5)]], width: 3, height: 3)
    #expect(abs(c[4] - 0.06) <= 0.5 / 255)
    #expect(c.enumerated().allSatisfy { $0.offset == 4 || $0.element == 0 })
  }

  @Test func circleAreaIsPiRSquared() {
    let r = 50.0
    let mask = coverage(of: .circle(in: Rect(x: 14.3, y: 13.7, width: 2 * r, height: 2 * r)), width: 130, height: 130)
    #expect(abs(mask.area - Double.pi * r * r) / (Double.pi * r * r) < 0.001)
  }

  /// Against the exact area of polygon ∩ pixel: random simple (star-shaped) polygons.
  @Test func matchesExactAreaOnSimplePolygons() {
    var random = SplitMix64(seed: 11)
    for _ in 0..<40 {
      let center = Point(8 + 8 * random.unit(), 8 + 8 * random.unit())
      let count = 3 + Int(random.next() % 9)
      let angles = (0..<count).map { _ in random.unit() * 2 * .pi }.sorted()
      let polygon = angles.map { a in center + Vector2(Elementary.cos(a), Elementary.sin(a)) * (1 + 7 * random.unit()) }
      let exact = Rasterizer.referenceExactArea(polygon, width: 24, height: 24)
      let ours = coverage([polygon], width: 24, height: 24)
      let worst = zip(exact, ours).map { abs($0 - $1) }.max()!
      #expect(worst <= 2.0 / 255, "max error \(worst * 255)/255")
    }
  }

  /// Against 16 × 16 point sampling on random self-intersecting paths,
  /// both fill rules. Exact-area accumulation integrates the winding number
  /// over each pixel, which is exact wherever a pixel holds one winding
  /// transition; where two edges meet inside one pixel it is an
  /// approximation (as in font-rs and every analytic rasterizer), so pixels
  /// touched by two or more edges are left out. Elsewhere the difference is
  /// the supersampler's own error: up to 1/16 on an edge, small on average.
  @Test(arguments: [FillRule.nonZero, .evenOdd])
  func matchesSupersamplingOnSelfIntersectingPaths(_ rule: FillRule) {
    var random = SplitMix64(seed: rule == .nonZero ? 5 : 6)
    for _ in 0..<12 {
      let polygon = (0..<(4 + Int(random.next() % 8))).map { _ in Point(1 + 22 * random.unit(), 1 + 22 * random.unit()) }
      let reference = Rasterizer.referenceSupersampled([polygon], rule: rule, width: 24, height: 24)
      let ours = coverage([polygon], rule: rule, width: 24, height: 24)
      // Pixels touched by two or more edges.
      var touches = [Int](repeating: 0, count: 24 * 24)
      let n = polygon.count
      for i in 0..<n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n])
        var seen = Set<Int>()
        let steps = Int((b - a).length * 200) + 1
        for k in 0...steps {
          let p = Point.interpolate(a, b, Double(k) / Double(steps))
          let (x, y) = (Int(p.x), Int(p.y))
          if x >= 0, x < 24, y >= 0, y < 24 { seen.insert(y * 24 + x) }
        }
        for pixel in seen { touches[pixel] += 1 }
      }
      let crossing = Set((0..<(24 * 24)).filter { touches[$0] > 1 })
      let errors = (0..<(24 * 24)).filter { !crossing.contains($0) }.map { abs(reference[$0] - ours[$0]) }
      let mean = errors.reduce(0, +) / Double(errors.count)
      #expect(mean <= 1.0 / 255, "mean \(mean * 255)/255")
      #expect(errors.max()! <= 1.0 / 16 + 2.0 / 255, "max \(errors.max()! * 255)/255")
    }
  }

  @Test func wholePixelTranslationShiftsTheBytes() {
    var random = SplitMix64(seed: 3)
    let polygon = (0..<7).map { _ in Point(2 + 12 * random.unit(), 2 + 12 * random.unit()) }
    let a = Rasterizer.coverage(of: [Polyline(points: polygon, isClosed: true)], rule: .nonZero, clip: PixelRect(width: 40, height: 40))!
    let moved = polygon.map { $0 + Vector2(13, 7) }
    let b = Rasterizer.coverage(of: [Polyline(points: moved, isClosed: true)], rule: .nonZero, clip: PixelRect(width: 40, height: 40))!
    #expect(b.bounds == a.bounds.offsetBy(dx: 13, dy: 7))
    #expect(b.coverage == a.coverage)
  }

  @Test func reversedPathKeepsNonZeroCoverage() {
    let path = Path.roundedRect(Rect(x: 1.3, y: 2.7, width: 30.2, height: 20.9), cornerRadius: 7)
    let a = coverage(of: path, width: 40, height: 30)
    let b = coverage(of: path.reversed(), width: 40, height: 30)
    #expect(a == b)
  }

  @Test func abuttingShapesShareTheirEdgeExactly() {
    // Two triangles sharing a diagonal, and two rects sharing x = 3.3: the
    // shared edge pixels add up to full coverage.
    let left = [Point(0.2, 0.4), Point(9.7, 0.4), Point(0.2, 9.1)]
    let right = [Point(9.7, 0.4), Point(9.7, 9.1), Point(0.2, 9.1)]
    let a = coverage([left], width: 10, height: 10), b = coverage([right], width: 10, height: 10)
    let whole = coverage([[Point(0.2, 0.4), Point(9.7, 0.4), Point(9.7, 9.1), Point(0.2, 9.1)]], width: 10, height: 10)
    for i in 0..<100 { #expect(abs(a[i] + b[i] - whole[i]) <= 1.0 / 255) }
  }

  @Test func evenOddMakesHoles() {
    var path = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
    path.append(.rect(Rect(x: 2, y: 2, width: 6, height: 6)))
    let nonZero = coverage(of: path, width: 10, height: 10)
    let evenOdd = coverage(of: path, rule: .evenOdd, width: 10, height: 10)
    #expect(nonZero[5, 5] == 255 && evenOdd[5, 5] == 0 && evenOdd[1, 1] == 255)
    // Opposite winding makes a hole under non-zero too.
    var donut = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10))
    donut.append(Path.rect(Rect(x: 2, y: 2, width: 6, height: 6)).reversed())
    #expect(coverage(of: donut, width: 10, height: 10)[5, 5] == 0)
  }

  @Test func geometryOutsideTheCanvasIsClippedNotLost() {
    // A triangle mostly left of and above the canvas: its visible part only.
    let polygon = [Point(-50, -50), Point(10, 5), Point(-50, 5)]
    let exact = Rasterizer.referenceExactArea(polygon, width: 8, height: 8)
    let ours = coverage([polygon], width: 8, height: 8)
    for i in 0..<64 { #expect(abs(exact[i] - ours[i]) <= 2.0 / 255) }
  }
}
