import Primitives
import Testing

@testable import Primitives

/// The stroker's memo returns exactly what outlining computes: for the same
/// inputs twice, for inputs that differ in one bit (−0 against 0, a
/// tolerance one ulp apart) and for every cap, join, dash and trim.
@Suite struct StrokerMemoTests {
  func wave(_ y: Double) -> Path {
    var p = Path()
    p.move(to: Point(0, y))
    p.cubic(to: Point(180, 30), control1: Point(60, -20), control2: Point(120, 120))
    p.line(to: Point(240, 60))
    return p
  }

  @Test func aHitEqualsTheComputation() {
    var styles: [StrokeStyle] = []
    for cap in LineCap.allCases {
      for join in LineJoin.allCases {
        styles.append(StrokeStyle(width: 6, cap: cap, join: join))
      }
    }
    styles.append(StrokeStyle(width: 3, dash: [5, 2], dashPhase: 1))
    styles.append(StrokeStyle(width: 4, trim: (0.25, 0.75)))
    for style in styles {
      for path in [wave(80), wave(0), wave(-0.0)] {
        for tolerance in [0.025, 0.025.nextUp, 0.1] {
          let expected = Stroker.computeOutline(of: path, style: style, tolerance: tolerance)
          // The first call may fill the memo, the second reads it.
          for _ in 0..<2 {
            let got = Stroker.outline(of: path, style: style, tolerance: tolerance)
            #expect(got.count == expected.count)
            #expect(
              zip(got, expected).allSatisfy { a, b in
                a.count == b.count && zip(a, b).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern }
              })
          }
        }
      }
    }
  }
}
