import Foundation
import Primitives
import Testing

@testable import Timing

/// delay, speed and repeats, checked against the vectors' values at the
/// times the nesting rules predict.
@Suite struct ModifierTests {
  static let easeInOut = TimingVectors.shared.cubicBezierCurves["easeInOut (0.42,0,0.58,1)"]!
  static let easeIn = TimingVectors.shared.cubicBezierCurves["easeIn (0.42,0,1,1)"]!

  func motion(_ text: String, from: Double = 0, to: Double = 1) throws -> Motion<Double> {
    var m = Motion(from)
    m.animate(to: to, at: 0, with: try AnimationParser.parse(text))
    return m
  }

  @Test func delayThenSpeedNestsAsWritten() throws {
    // easeInOut.delay(0.5).speed(2) runs its curve at max(0, 2t − 0.5).
    let m = try motion("easeInOut.delay(0.5).speed(2)")
    #expect(m.value(at: 0.2) == 0)  // 2·0.2 − 0.5 < 0
    #expect(m.value(at: 0.25) == 0)
    // u = 0.25 when 2t − 0.5 = 0.0875.
    #expect(abs(m.value(at: (0.0875 + 0.5) / 2) - Self.easeInOut["0.25"]!) < 1e-12)
    #expect(abs(m.value(at: (0.175 + 0.5) / 2) - 0.5) < 1e-12)
    #expect(abs(m.endTime - (0.35 + 0.5) / 2) < 1e-15)
  }

  @Test func speedThenDelayNestsAsWritten() throws {
    // easeInOut.speed(2).delay(0.5): wait 0.5 s, then twice as fast.
    let m = try motion("easeInOut.speed(2).delay(0.5)")
    #expect(abs(m.value(at: 0.5 + 0.0875 / 2) - Self.easeInOut["0.25"]!) < 1e-12)
    #expect(abs(m.endTime - (0.5 + 0.35 / 2)) < 1e-15)
  }

  @Test func reversedPassMirrorsProgress() throws {
    // A reversed pass shows 1 − f(u), not f(1 − u): for easeIn these differ.
    let m = try motion("easeIn(duration: 1).repeatCount(2, autoreverses: true)")
    #expect(abs(m.value(at: 1.25) - (1 - Self.easeIn["0.25"]!)) < 1e-12)
    #expect(abs(m.value(at: 0.25) - Self.easeIn["0.25"]!) < 1e-12)
  }

  @Test func autoreversingRepeats() throws {
    let odd = try motion("linear(duration: 1).repeatCount(3, autoreverses: true)")
    #expect(abs(odd.value(at: 0.25) - 0.25) < 1e-12)
    #expect(abs(odd.value(at: 1.25) - 0.75) < 1e-12)
    #expect(abs(odd.velocity(at: 1.25) - -1) < 1e-12)
    #expect(abs(odd.value(at: 2.25) - 0.25) < 1e-12)
    #expect(odd.value(at: 3) == 1 && odd.endTime == 3)
    // An even count ends where it started, then shows the target (SwiftUI's jump).
    let even = try motion("linear(duration: 1).repeatCount(2, autoreverses: true)")
    #expect(abs(even.value(at: 1.999) - 0.001) < 1e-9)
    #expect(even.value(at: 2) == 1)
  }

  @Test func repeatsWithoutReversing() throws {
    let m = try motion("linear(duration: 1).repeatCount(2, autoreverses: false)")
    #expect(abs(m.value(at: 1.25) - 0.25) < 1e-12)
    #expect(m.value(at: 2.5) == 1)
  }

  @Test func delayInsideRepeatRepeats() throws {
    // Each pass waits 0.5 s, then moves for 1 s.
    let m = try motion("linear(duration: 1).delay(0.5).repeatCount(2, autoreverses: false)")
    #expect(m.value(at: 0.25) == 0)
    #expect(m.value(at: 1.75) == 0)
    #expect(abs(m.value(at: 2.5) - 0.5) < 1e-12)
    #expect(m.endTime == 3)
  }

  @Test func repeatForever() throws {
    let there = try motion("linear(duration: 1).repeatForever(autoreverses: false)")
    #expect(abs(there.value(at: 100.25) - 0.25) < 1e-9)
    #expect(there.endTime == 1)  // one pass for rendering
    let back = try motion("linear(duration: 1).repeatForever()")
    #expect(abs(back.value(at: 101.25) - 0.75) < 1e-9)  // autoreverses by default
    #expect(back.endTime == 2)  // there and back: a seamless loop
    #expect(AnimationTiming(try AnimationParser.parse("linear.repeatForever()")).duration == .infinity)
  }

  @Test func springRunsOnSpeedTimesTime() throws {
    let fixture = TimingVectors.shared.springs.first { $0.name.hasPrefix("bouncy") }!
    let m = try motion("bouncy.speed(2)")
    for sample in fixture.samples {
      #expect(abs(m.value(at: sample.t / 2) - sample.value) < 1e-8)
      #expect(abs(m.velocity(at: sample.t / 2) - 2 * sample.velocity) < 2e-8)
    }
    #expect(abs(m.endTime - fixture.settlingDuration / 2) < 1e-12)
  }

  @Test func repeatedSpringPassLastsItsSettlingDuration() throws {
    let fixture = TimingVectors.shared.springs.first { $0.name.hasPrefix("snappy") }!
    let m = try motion("snappy.repeatCount(2, autoreverses: false)")
    let pass = fixture.settlingDuration
    #expect(abs(m.endTime - 2 * pass) < 1e-12)
    let sample = fixture.samples[3]
    #expect(abs(m.value(at: pass + sample.t) - sample.value) < 1e-8)
  }

  @Test func curveEndsExactlyOnTarget() throws {
    let m = try motion("easeOutBack(duration: 1)", from: 10, to: 20)
    #expect(abs(m.value(at: 0.5) - (10 + 10 * 1.0876975)) < 1e-9)  // vectors: easeOutBack(0.5)
    #expect(m.value(at: 1) == 20 && m.velocity(at: 1) == 0)
  }
}

/// Interruption: retargeting springs keep value and velocity; curves combine.
@Suite struct InterruptionTests {
  static let bouncy = TimingVectors.shared.springs.first { $0.name.hasPrefix("bouncy") }!

  @Test func springRetargetKeepsValueAndVelocity() throws {
    var m = Motion(0.0)
    m.animate(to: 1, at: 0, with: try AnimationParser.parse("bouncy"))
    m.animate(to: 0.3, at: 0.2, with: try AnimationParser.parse("snappy"))
    // The vectors give bouncy's state at 0.2 s.
    let at = Self.bouncy.samples.first { $0.t == 0.2 }!
    #expect(abs(m.value(at: 0.2) - at.value) < 1e-8)
    #expect(abs(m.velocity(at: 0.2) - at.velocity) < 1e-8)
    // Continuous from the left, to 1e-9 per 1e-10 s.
    let before = m.sample(at: 0.2 - 1e-10), after = m.sample(at: 0.2)
    #expect(abs(before.value - after.value) < 1e-9)
    #expect(abs(before.velocity - after.velocity) < 1e-6)
    // And it then heads for the new target.
    #expect(abs(m.value(at: 3) - 0.3) < 1e-6)
  }

  @Test func curveToSpringHandsOnTheCurvesVelocity() throws {
    var m = Motion(0.0)
    m.animate(to: 1, at: 0, with: try AnimationParser.parse("easeInOut(duration: 1)"))
    m.animate(to: 0, at: 0.5, with: try AnimationParser.parse("smooth"))
    // easeInOut at x = 0.5: value 0.5, slope dy/dx = 1.5 / 0.87 per second.
    #expect(abs(m.value(at: 0.5) - 0.5) < 1e-12)
    #expect(abs(m.velocity(at: 0.5) - 1.5 / 0.87) < 1e-9)
    let before = m.sample(at: 0.5 - 1e-9)
    #expect(abs(before.velocity - 1.5 / 0.87) < 1e-6)
  }

  @Test func explicitVelocityOverrides() throws {
    var m = Motion(0.0)
    m.animate(to: 1, at: 0, with: try AnimationParser.parse("bouncy"))
    m.animate(to: 0, at: 0.2, with: try AnimationParser.parse("smooth"), velocity: -5)
    #expect(abs(m.velocity(at: 0.2) - -5) < 1e-12)
    #expect(abs(m.value(at: 0.2) - Self.bouncy.samples.first { $0.t == 0.2 }!.value) < 1e-8)
    // And the spring's own initialVelocity is replaced too, on a still value.
    var n = Motion(0.0)
    n.animate(to: 1, at: 0, with: try AnimationParser.parse("interpolatingSpring(stiffness: 100, damping: 10, initialVelocity: 3)"), velocity: 7)
    #expect(abs(n.velocity(at: 0) - 7) < 1e-12)
  }

  @Test func springsOwnInitialVelocityIsInMovesPerSecond() throws {
    var m = Motion(10.0)
    m.animate(to: 30, at: 0, with: try AnimationParser.parse("interpolatingSpring(stiffness: 100, damping: 10, initialVelocity: 2)"))
    #expect(abs(m.velocity(at: 0) - 40) < 1e-12)  // 2 moves/s × 20 units
    var u = Motion(0.0)
    u.animate(to: 50, at: 0, with: try AnimationParser.parse("uikitSpring(duration: 0.4, dampingRatio: 0.5, initialVelocity: 1)"))
    #expect(abs(u.velocity(at: 0) - 50) < 1e-12)
    #expect(abs(u.endTime - 0.4) < 1e-15)  // a UIKit spring is done at its duration
  }

  @Test func curvesCombine() throws {
    // Old: linear 0 → 1 over 1 s. New at 0.5: easeInOut to 0 over 1 s.
    // v(t) = old(t) + f(t − 0.5)·(0 − old(t)).
    var m = Motion(0.0)
    m.animate(to: 1, at: 0, with: try AnimationParser.parse("linear(duration: 1)"))
    m.animate(to: 0, at: 0.5, with: try AnimationParser.parse("easeInOut(duration: 1)"))
    let f025 = TimingVectors.shared.cubicBezierCurves["easeInOut (0.42,0,0.58,1)"]!["0.25"]!
    #expect(abs(m.value(at: 0.5) - 0.5) < 1e-12)  // no jump
    #expect(abs(m.value(at: 0.75) - (0.75 - f025 * 0.75)) < 1e-12)
    #expect(abs(m.value(at: 1.0) - (1 - 0.5 * 1)) < 1e-12)  // the old curve is done: old = 1
    #expect(m.value(at: 1.5) == 0)
    // At the interruption the velocity is the old one (f′(0) = 0 for easeInOut).
    #expect(abs(m.velocity(at: 0.5) - 1) < 1e-9)
  }

  @Test func fingerHandsItsReleaseVelocityToASpring() throws {
    var m = Motion(Vector2(0, 0))
    m.drag(at: 1, points: [.init(time: 0, value: Vector2(0, 0)), .init(time: 0.1, value: Vector2(10, 0)), .init(time: 0.2, value: Vector2(30, 5))])
    #expect(m.value(at: 1.05) == Vector2(5, 0))
    m.animate(to: Vector2(100, 0), at: 1.2, with: try AnimationParser.parse("spring"))
    // Release velocity: the last segment's slope, (20, 5) / 0.1 s.
    let start = m.sample(at: 1.2)
    #expect(start.value == Vector2(30, 5))
    #expect(abs(start.velocity.x - 200) < 1e-9 && abs(start.velocity.y - 50) < 1e-9)
  }

  @Test func releasedFingerWithoutAnimationStays() throws {
    var m = Motion(0.0)
    m.drag(at: 0, points: [.init(time: 0, value: 0), .init(time: 0.1, value: 10)])
    #expect(m.value(at: 5) == 10 && m.velocity(at: 5) == 0)
    // A spring that starts later than the release inherits no velocity.
    m.animate(to: 20, at: 0.3, with: try AnimationParser.parse("spring"))
    #expect(m.velocity(at: 0.3) == 0)
  }

  @Test func immediateChange() {
    var m = Motion(1.0)
    m.animate(to: 5, at: 2, with: nil)
    #expect(m.value(at: 1.999) == 1 && m.value(at: 2) == 5)
  }

  @Test func delayedSpringTakesOverWhenItStarts() throws {
    // During the delay the old motion runs on; the spring starts from its
    // value and velocity at the end of the delay.
    var m = Motion(0.0)
    m.animate(to: 1, at: 0, with: try AnimationParser.parse("bouncy"))
    m.animate(to: 0, at: 0.1, with: try AnimationParser.parse("smooth.delay(0.1)"))
    let at = Self.bouncy.samples.first { $0.t == 0.2 }!
    #expect(abs(m.value(at: 0.15) - Spring(duration: 0.5, bounce: 0.3).value(target: 1.0, time: 0.15)) < 1e-12)
    #expect(abs(m.value(at: 0.2) - at.value) < 1e-8)
    #expect(abs(m.velocity(at: 0.2) - at.velocity) < 1e-8)
  }

  @Test func vectorComponentsMoveIndependently() throws {
    let animation = try AnimationParser.parse("bouncy")
    var v = Motion(Vector2(0, 0))
    v.animate(to: Vector2(1, 0), at: 0, with: animation)
    for sample in Self.bouncy.samples where sample.t <= 1 {
      #expect(abs(v.value(at: sample.t).x - sample.value) < 1e-8)
      #expect(v.value(at: sample.t).y == 0)
    }
  }

  @Test func longestComponentDecidesTheSettlingDuration() throws {
    let animation = try AnimationParser.parse("bouncy")
    var v = Motion(Vector2(0, 0))
    // x moves 100 with no velocity; y moves 1 with 20 moves per second.
    v.animate(to: Vector2(100, 1), at: 0, with: animation, velocity: Vector2(0, 20))
    let spring = Spring(duration: 0.5, bounce: 0.3)
    #expect(v.endTime == max(spring.settlingDuration(), spring.settlingDuration(initialVelocity: 20)))
  }
}

/// Any vector value animates: here a premultiplied RGBA colour.
@Suite struct VectorValueTests {
  @Test func colourAnimatesComponentWise() throws {
    let red = PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1)
    let halfBlue = PremultipliedColor(red: 0, green: 0, blue: 0.5, alpha: 0.5)
    var m = Motion(red)
    m.animate(to: halfBlue, at: 0, with: try AnimationParser.parse("linear(duration: 1)"))
    #expect(m.value(at: 0.25) == PremultipliedColor(red: 0.75, green: 0, blue: 0.125, alpha: 0.875))
    #expect(m.velocity(at: 0.25) == PremultipliedColor(red: -1, green: 0, blue: 0.5, alpha: -0.5))
    #expect(m.value(at: 1) == halfBlue)
  }
}
