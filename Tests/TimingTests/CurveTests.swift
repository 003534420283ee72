import Foundation
import Primitives
import Testing

@testable import Timing

/// Easings and Bézier curves against the vectors' exact values.
@Suite struct CurveTests {
  @Test(arguments: TimingVectors.shared.pennerEasings.keys.sorted())
  func easingMatchesExactFormula(_ name: String) throws {
    let function: TimingFunction =
      name == "linear" ? .linear : .easing(try #require(Easing(name: name), "unknown easing \(name)"))
    for (x, y) in points(TimingVectors.shared.pennerEasings[name]!) {
      #expect(abs(function.value(at: x) - y) < 1e-9, "\(name)(\(x))")
    }
    #expect(abs(function.value(at: 0)) < 1e-12 && abs(function.value(at: 1) - 1) < 1e-12)
  }

  @Test func everyEasingIsParsedByName() throws {
    #expect(Easing.allCases.count == 30)
    for easing in Easing.allCases {
      let animation = try AnimationParser.parse("\(easing)(duration: 1)")
      #expect(animation.base == .curve(.easing(easing), duration: 1))
    }
  }

  /// The exact derivatives agree with central differences away from the
  /// points where a formula switches branch.
  @Test(arguments: Easing.allCases.map(\.description))
  func easingDerivativeMatchesDifferenceQuotient(_ name: String) {
    let easing = Easing(name: name)!
    let h = 1e-6
    for i in 1..<40 {
      let u = Double(i) / 40 + 0.003
      // Branch points: the bounce arcs' joints in every mode, and the middle.
      let joints = [1 / 2.75, 2 / 2.75, 2.5 / 2.75]
      let breaks = [0.5] + joints + joints.map { 1 - $0 } + joints.map { (1 - $0) / 2 } + joints.map { (1 + $0) / 2 }
      if breaks.contains(where: { abs($0 - u) < 0.01 }) { continue }
      let numeric = (easing.value(at: u + h) - easing.value(at: u - h)) / (2 * h)
      let exact = easing.derivative(at: u)
      #expect(abs(numeric - exact) < 1e-5 * max(1, abs(exact)), "\(name)'(\(u))")
    }
  }

  @Test(arguments: TimingVectors.shared.cubicBezierCurves.keys.sorted())
  func bezierMatchesExactSolution(_ name: String) {
    // "easeInOut (0.42,0,0.58,1)" → the control points.
    let inner = name.split(separator: "(")[1].dropLast()
    let c = inner.split(separator: ",").map { Double($0)! }
    let curve = CubicBezier(c[0], c[1], c[2], c[3])
    for (x, y) in points(TimingVectors.shared.cubicBezierCurves[name]!) {
      #expect(abs(curve.value(at: x) - y) < 1e-9, "\(name) at \(x)")
    }
  }

  @Test func bezierIsSolvedToFullPrecision() {
    let curves = [CubicBezier.easeIn, .easeOut, .easeInOut, .caDefault, CubicBezier(0.9, -0.5, 0.1, 1.5), CubicBezier(1, 0, 0, 1)]
    var generator = SplitMix64(seed: 7)
    for curve in curves {
      for _ in 0..<2000 {
        let x = Double(generator.next() >> 11) / Double(1 << 53)
        let s = curve.parameter(forX: x)
        #expect(abs(curve.x(s) - x) <= 1e-12, "x(s) − x at \(x)")
      }
    }
  }

  @Test func bezierSlopeByHand() {
    // easeInOut at x = 0.5: s = 0.5 by symmetry, dy/ds = 1.5, dx/ds = 0.87.
    #expect(abs(CubicBezier.easeInOut.derivative(at: 0.5) - 1.5 / 0.87) < 1e-12)
    // easeOut (0, 0, 0.58, 1): dx/ds = dy/ds = 0 at s = 0; near it
    // x ≈ 3·0.58·s² and y ≈ 3·s², so the slope tends to 1/0.58.
    #expect(abs(CubicBezier.easeOut.derivative(at: 0) - 1 / 0.58) < 1e-5)
  }

  @Test func namedCurvesAreTheDocumentedBeziers() throws {
    #expect(try AnimationParser.parse("easeIn").base == .curve(.bezier(CubicBezier(0.42, 0, 1, 1)), duration: 0.35))
    #expect(try AnimationParser.parse("easeOut").base == .curve(.bezier(CubicBezier(0, 0, 0.58, 1)), duration: 0.35))
    #expect(try AnimationParser.parse("easeInOut").base == .curve(.bezier(CubicBezier(0.42, 0, 0.58, 1)), duration: 0.35))
    #expect(try AnimationParser.parse("linear").base == .curve(.linear, duration: 0.35))
    #expect(
      try AnimationParser.parse("timingCurve(0.2, 0.8, 0.2, 1, duration: 0.5)").base
        == .curve(.bezier(CubicBezier(0.2, 0.8, 0.2, 1)), duration: 0.5))
  }
}
