import Foundation
import Primitives
import Testing

@testable import Timing

/// Keyframe tracks, phases and UIKit's interactive animator as values
/// (docs/scene-format.md), checked against published measurements of
/// SwiftUI and UIKit and against values derived by hand from the formulas;
/// each test says how.
@Suite struct KeyframeTests {
  /// Published: a cubic track 0 → 10 → −10 → 0 with 0.2 s keyframes and
  /// every velocity inferred reads 1.797 at t = 0.05 s. By hand: the first
  /// keyframe starts at rest (v0 = 0) and ends at (−10 − 0)/(0.2 + 0.2) =
  /// −25 (the next is a cubic); at s = 0.25 the Hermite weights are
  /// 0.84375, 0.140625, 0.15625, −0.046875: 0.15625·10 − 0.046875·0.2·(−25)
  /// = 1.796875.
  @Test func cubicTrackInfersVelocitiesAsSwiftUI() {
    let track = KeyframeTrack<Double>([.cubic(10, duration: 0.2), .cubic(-10, duration: 0.2), .cubic(0, duration: 0.2)], from: 0)
    #expect(abs(track.sample(at: 0.05).value - 1.796875) < 1e-12)
    #expect(abs(track.sample(at: 0.05).value - 1.797) < 5e-4)
    #expect(abs(track.duration - 0.6) < 1e-12)
    // The velocities at the joins: −25 both sides of 0.2 (the second starts
    // where the first ended, with its end velocity); 0 at the end.
    #expect(abs(track.sample(at: 0.2).velocity + 25) < 1e-9)
    if case .cubic(let v0, let v1) = track.pieces[1].kind { #expect(abs(v0 + 25) < 1e-12 && abs(v1 + 25) < 1e-12) }
    #expect(abs(track.sample(at: 0.2 + 1e-9).velocity + 25) < 1e-5)
    #expect(track.sample(at: 0.2).value == 10 && track.sample(at: 0.4).value == -10)
    #expect(abs(track.sample(at: 0.6).velocity) < 1e-12 && track.sample(at: 0.6).value == 0)
    // After the end the track holds its last value, at rest.
    #expect(track.sample(at: 5).value == 0 && track.sample(at: 5).velocity == 0)
  }

  /// Published: SpringKeyframe(10) from 0 with Spring(duration: 0.4,
  /// bounce: 0.3) and no duration lasts 1.273 s. By hand: ζ = 0.7, ω₀ =
  /// 2π/0.4, δ = ζω₀ = 10.9956; −ln(0.0001 / (δ·10 + 10)) / δ = 1.2730.
  @Test func springKeyframeLastsItsSettlingDuration() {
    let spring = Spring(duration: 0.4, bounce: 0.3)
    let track = KeyframeTrack<Double>([.spring(10, spring: spring)], from: 0)
    let delta = 0.7 * 2 * Double.pi / 0.4
    #expect(abs(track.duration - -log(0.0001 / (delta * 10 + 10)) / delta) < 1e-12)
    #expect(abs(track.duration - 1.273) < 5e-4)
    // A point is one vector: the same move split over x and y (3-4-5)
    // settles when the vector's norm does.
    let point = KeyframeTrack<Vector2>([.spring(Vector2(6, 8), spring: spring)], from: .zero)
    #expect(abs(point.duration - track.duration) < 1e-12)
  }

  /// A spring keyframe cut short by a duration ends where it has got to,
  /// and the next keyframe starts there with the spring's velocity.
  @Test func truncatedSpringEndsWhereItGotTo() {
    let spring = Spring(duration: 0.5, bounce: 0.3)
    let track = KeyframeTrack<Double>([.spring(10, duration: 0.1, spring: spring), .cubic(0, duration: 0.2)], from: 0)
    let there = spring.value(from: 0.0, to: 10.0, time: 0.1)
    #expect(there > 0 && there < 10)
    #expect(abs(track.sample(at: 0.1).value - there) < 1e-12)
    guard case .cubic(let v0, _) = track.pieces[1].kind else {
      Issue.record("expected a cubic")
      return
    }
    #expect(abs(v0 - spring.velocity(from: 0.0, to: 10.0, time: 0.1)) < 1e-12)
    #expect(track.pieces[1].from == there)
  }

  /// By hand from the rules: a linear keyframe with `.easeIn` ends at
  /// slope (1 − y1)/(1 − x1) = 1/0.58, so a cubic after LinearKeyframe(1,
  /// 0.2 s, easeIn) from 0 starts at (1/0.2)·(1/0.58) = 8.6207 per second;
  /// a cubic before an `.easeOut` linear keyframe ends at (to₊₁ − to)/d₊₁
  /// · y2/x2 = (3 − 2)/0.2 · 1/0.58; before a spring, (to₊₁ − p0)/(2d).
  @Test func velocitiesAcrossKinds() {
    let track = KeyframeTrack<Double>(
      [.linear(1, duration: 0.2, timingCurve: .easeIn), .cubic(2, duration: 0.2), .linear(3, duration: 0.2, timingCurve: .easeOut)], from: 0)
    guard case .cubic(let v0, let v1) = track.pieces[1].kind else {
      Issue.record("expected a cubic")
      return
    }
    #expect(abs(v0 - 5 / 0.58) < 1e-12)
    #expect(abs(v1 - 5 / 0.58) < 1e-12)
    let beforeSpring = KeyframeTrack<Double>([.cubic(4, duration: 0.25), .spring(10)], from: 2)
    guard case .cubic(_, let w1) = beforeSpring.pieces[0].kind else {
      Issue.record("expected a cubic")
      return
    }
    #expect(abs(w1 - (10 - 2) / 0.5) < 1e-12)
    // An explicit start velocity on the next keyframe wins; a move next: 0.
    let explicit = KeyframeTrack<Double>([.cubic(4, duration: 0.25), .cubic(0, duration: 0.2, startVelocity: 3)], from: 0)
    if case .cubic(_, let e1) = explicit.pieces[0].kind { #expect(e1 == 3) }
    let moved = KeyframeTrack<Double>([.cubic(4, duration: 0.25), .move(7), .cubic(0, duration: 0.2)], from: 0)
    if case .cubic(_, let m1) = moved.pieces[0].kind { #expect(m1 == 0) }
    // The first keyframe starts with the property's velocity at the event.
    let moving = KeyframeTrack<Double>([.cubic(4, duration: 0.25)], from: 0, velocity: 12)
    #expect(abs(moving.sample(at: 0).velocity - 12) < 1e-12)
  }

  /// SCENE.md's limits where a control point sits on an end: `.easeIn`
  /// ends at slope (1 − 0)/(1 − 0.42) and `.easeOut` starts at 1/0.58,
  /// exactly (not a secant's approximation).
  @Test func curveEndSlopesAreTheLimits() {
    #expect(abs(TimingFunction.easeIn.derivative(at: 1) - 1 / 0.58) < 1e-15)
    #expect(abs(TimingFunction.easeOut.derivative(at: 0) - 1 / 0.58) < 1e-15)
    #expect(abs(TimingFunction.easeInOut.derivative(at: 0)) < 1e-15 && abs(TimingFunction.easeInOut.derivative(at: 1)) < 1e-15)
  }

  /// Moves: a leading move applies at the event's time; at the end of a
  /// keyframe the earlier keyframe owns the instant; a linear keyframe of
  /// duration 0 is a move.
  @Test func movesAndInstants() {
    let track = KeyframeTrack<Double>([.move(-8), .linear(8, duration: 0.1), .move(3), .linear(0, duration: 0), .cubic(1, duration: 0.2)], from: 0)
    #expect(track.sample(at: 0).value == -8)
    #expect(track.sample(at: 0.1).value == 8, "the linear keyframe owns its end")
    #expect(track.sample(at: 0.1 + 1e-12).value < 0.01, "then the moves have jumped to 0")
    #expect(abs(track.duration - 0.3) < 1e-12)
  }

  /// Repeating: the instant a pass ends shows that pass's end; the next
  /// starts just after, from the values the first started from.
  @Test func repeatingStartsOver() {
    let track = KeyframeTrack<Double>([.linear(10, duration: 0.5)], from: 2)
    #expect(track.sampleRepeating(at: 0.5, period: track.duration).value == 10)
    #expect(abs(track.sampleRepeating(at: 0.75, period: track.duration).value - 6) < 1e-12)
    #expect(track.sampleRepeating(at: 1.0, period: track.duration).value == 10)
    #expect(abs(track.sampleRepeating(at: 1.1, period: track.duration).value - 3.6) < 1e-9)
  }

  /// Component-wise: each component of a point follows its own Hermite curve.
  @Test func pointsMoveComponentWise() {
    let point = KeyframeTrack<Vector2>([.cubic(Vector2(10, 0), duration: 0.2), .cubic(Vector2(-10, 4), duration: 0.2)], from: .zero)
    let x = KeyframeTrack<Double>([.cubic(10, duration: 0.2), .cubic(-10, duration: 0.2)], from: 0)
    let y = KeyframeTrack<Double>([.cubic(0, duration: 0.2), .cubic(4, duration: 0.2)], from: 0)
    for t in stride(from: 0.0, through: 0.4, by: 0.05) {
      #expect(abs(point.sample(at: t).value.x - x.sample(at: t).value) < 1e-12)
      #expect(abs(point.sample(at: t).value.y - y.sample(at: t).value) < 1e-12)
    }
  }
}

@Suite struct InteractiveAnimatorTests {
  /// Published: UISpringTimingParameters(mass: 1, stiffness: 100, damping:
  /// 10) makes an animator last 1.4727 s. By hand: ζ = 0.5, ω₀ = 10, δ = 5,
  /// ω_d = √75; the bound e^(−δt)(1 + δ/ω_d) of the remaining distance
  /// falls to 0.001 at ln(1000·(1 + 5/√75))/5 = 1.47270 s.
  @Test func physicalSpringLastsUIKitsSettlingDuration() {
    let spring = Spring(mass: 1, stiffness: 100, damping: 10)
    #expect(abs(spring.uikitSettlingDuration() - log(1000 * (1 + 5 / 75.0.squareRoot())) / 5) < 1e-12)
    #expect(abs(spring.uikitSettlingDuration() - 1.4727) < 5e-5)
    let animator = InteractiveAnimator(timing: .spring(.physical(spring), dx: 0, dy: 0), duration: 0.2)!
    #expect(abs(animator.duration - 1.4727) < 5e-5)
    // Done by UIKit's rule: within 0.001 of the move at its duration, and
    // not snapped there (the closed form runs on toward the target).
    let done = animator.progress(at: animator.duration).value.0
    #expect(abs(done - 1) <= 0.001 && done != 1)
    #expect(abs(animator.progress(at: 10 * animator.duration).value.0 - 1) < 1e-12)
  }

  /// Apple's documentation of CASpringAnimation.settlingDuration: with the
  /// defaults (mass 1, stiffness 100) and a damping of 5, "approximately
  /// 2.85 seconds". By the same bound: ζ = 0.25, δ = 2.5, ω_d = √93.75,
  /// ln(1000 (1 + 2.5/√93.75)) / 2.5 = 2.855 s.
  @Test func appleDocumentedSettlingDuration() {
    let spring = Spring(mass: 1, stiffness: 100, damping: 5)
    #expect(abs(spring.uikitSettlingDuration() - log(1000 * (1 + 2.5 / 93.75.squareRoot())) / 2.5) < 1e-12)
    #expect(abs(spring.uikitSettlingDuration() - 2.85) < 0.01)
  }

  /// Scrubbing: fractionComplete follows the points linearly; continuing
  /// with a linear curve resumes at t′ = C⁻¹(f) = f and finishes in
  /// D(1 − t′) (durationFactor 0), or in D′(1 − t′) with D′ = factor ·
  /// D/(1 − f); reversed, it runs back in D·t′. Duration 0.5 s, points
  /// (0, 0), (0.15, 0.35), (0.3, 0.6): by hand, f(0.075) = 0.175; resumed
  /// at 0.6, at t = 0.4 it reads 0.6 + 0.1/0.5 = 0.8 and ends at 0.3 + 0.2;
  /// with factor 1, D′ = 1.25 and it ends at 0.3 + 0.5; reversed it reads
  /// 0.6 − 0.15/0.5 = 0.3 at t = 0.45 and ends at 0.3 + 0.3.
  @Test func scrubThenContinueOrReverse() {
    let points = [(0.0, 0.0), (0.15, 0.35), (0.3, 0.6)].map { InteractiveAnimator.ScrubPoint(time: $0.0, fraction: $0.1) }
    let run = InteractiveAnimator(timing: .cubic(.linear), duration: 0.5, scrub: points)!
    #expect(abs(run.progress(at: 0.075).value.0 - 0.175) < 1e-12)
    #expect(abs(run.progress(at: 0.075).rate.0 - 0.35 / 0.15) < 1e-9)
    #expect(abs(run.progress(at: 0.4).value.0 - 0.8) < 1e-12)
    #expect(abs(run.duration - 0.5) < 1e-12)
    let slower = InteractiveAnimator(timing: .cubic(.linear), duration: 0.5, scrub: points, durationFactor: 1)!
    #expect(abs(slower.duration - 0.8) < 1e-12)
    let back = InteractiveAnimator(timing: .cubic(.linear), duration: 0.5, scrub: points, reversed: true)!
    #expect(abs(back.progress(at: 0.45).value.0 - 0.3) < 1e-12)
    #expect(abs(back.duration - 0.6) < 1e-12)
    #expect(back.progress(at: 10).value.0 == 0)
    // A curve resumes where its progress equals the scrubbed fraction.
    let eased = InteractiveAnimator(timing: .cubic(.easeInOut), duration: 0.5, scrub: points)!
    #expect(abs(eased.progress(at: 0.3).value.0 - 0.6) < 1e-12)
    #expect(abs(eased.progress(at: 0.3 + 1e-9).value.0 - 0.6) < 1e-6)
    #expect(abs(TimingFunction.easeInOut.value(at: TimingFunction.easeInOut.inverse(0.6)) - 0.6) < 1e-12)
  }

  /// Continuing with a spring: one spring over R = D′(1 − f), each channel
  /// starting with its own velocity component times its remaining distance
  /// (dx·(1 − f) and dy·(1 − f) in progress per second), settled at R as
  /// `uikitSpring(duration: R, dampingRatio: ζ, initialVelocity: dx)`.
  @Test func continueWithASpring() {
    let points = [(0.0, 0.0), (0.3, 0.6)].map { InteractiveAnimator.ScrubPoint(time: $0.0, fraction: $0.1) }
    let animator = InteractiveAnimator(
      timing: .cubic(.easeInOut), duration: 0.5, scrub: points, continueTiming: .spring(.dampingRatio(0.8), dx: 1.5, dy: 0))!
    #expect(abs(animator.duration - (0.3 + 0.5 * 0.4)) < 1e-12)
    #expect(abs(animator.progress(at: 0.3 + 1e-12).rate.0 - 1.5 * 0.4) < 1e-6)
    #expect(abs(animator.progress(at: 0.3 + 1e-12).rate.1) < 1e-6)
    #expect(abs(animator.progress(at: 0.3).value.0 - 0.6) < 1e-12)
    let expected = Spring(uikitDuration: 0.2, dampingRatio: 0.8, initialVelocity: 1.5)!
    #expect(abs(animator.progress(at: 0.4).value.0 - expected.value(from: 0.6, to: 1.0, initialVelocity: 0.6, time: 0.1)) < 1e-12)
    #expect(abs(animator.progress(at: 0.5).value.0 - 1) <= 0.001, "settled by uikitSpring's rule at R")
  }

  /// A plain run with a cubic timing is the curve over the duration.
  @Test func plainRun() {
    let animator = InteractiveAnimator(timing: .cubic(.easeIn), duration: 0.4)!
    #expect(abs(animator.progress(at: 0.1).value.0 - TimingFunction.easeIn.value(at: 0.25)) < 1e-15)
    #expect(animator.duration == 0.4 && animator.progress(at: 0.5).value.0 == 1)
  }
}

@Suite struct PhaseScheduleTests {
  /// SCENE.md's logical completion times, by hand: a spring given by a
  /// duration at that duration; interpolatingSpring(mass 1, stiffness 100)
  /// at 2π√(1/100) = 0.6283 s; a curve at its end plus its delay, over its
  /// speed: (0.3 + 0.1)/2 = 0.2 s; a uikitSpring at its duration.
  @Test func logicalDurations() throws {
    #expect(abs(PhaseSchedule.logicalDuration(try AnimationParser.parse("bouncy")) - 0.5) < 1e-12)
    #expect(abs(PhaseSchedule.logicalDuration(try AnimationParser.parse("spring(duration: 0.8, bounce: 0.2)")) - 0.8) < 1e-12)
    #expect(abs(PhaseSchedule.logicalDuration(try AnimationParser.parse("spring(response: 0.3, dampingFraction: 0.5)")) - 0.3) < 1e-12)
    #expect(
      abs(PhaseSchedule.logicalDuration(try AnimationParser.parse("interpolatingSpring(mass: 1, stiffness: 100, damping: 10)")) - 0.2 * .pi)
        < 1e-12)
    #expect(abs(PhaseSchedule.logicalDuration(try AnimationParser.parse("easeInOut(duration: 0.3).delay(0.1).speed(2)")) - 0.2) < 1e-12)
    #expect(abs(PhaseSchedule.logicalDuration(try AnimationParser.parse("uikitSpring(duration: 0.4, dampingRatio: 0.5)")) - 0.4) < 1e-12)
  }

  /// SCENE.md's example: phases at 0.5 with smooth, bouncy and
  /// easeInOut(duration: 0.3): phase 0 and 1 at 0.5, phase 2 at 1.0
  /// (bouncy done), phase 0 at 1.3 with smooth; repeating, phase 1 again
  /// at 1.8 (smooth done), and so on.
  @Test func stepsOfACycle() throws {
    let animations = try ["smooth", "bouncy", "easeInOut(duration: 0.3)"].map { try AnimationParser.parse($0) }
    let once = PhaseSchedule.steps(phases: 3, animations: animations, start: 0.5, repeating: false, until: 100)
    #expect(once.map(\.phase) == [0, 1, 2, 0])
    let times = once.map(\.time)
    #expect(zip(times, [0.5, 0.5, 1.0, 1.3]).allSatisfy { abs($0 - $1) < 1e-12 }, "\(times)")
    #expect(once[0].animation == nil && once[3].animation == animations[0])
    let forever = PhaseSchedule.steps(phases: 3, animations: animations, start: 0.5, repeating: true, until: 3)
    #expect(forever.map(\.phase).prefix(7) == [0, 1, 2, 0, 1, 2, 0])
    #expect(abs(forever[4].time - 1.8) < 1e-12 && forever.last!.time > 3 - 1.3)
    // A phase whose animation repeats for ever never completes: the
    // cycle stays in it.
    let stuck = try ["smooth", "easeIn.repeatForever()"].map { try AnimationParser.parse($0) }
    #expect(PhaseSchedule.steps(phases: 2, animations: stuck, start: 0, repeating: true, until: 10).map(\.phase) == [0, 1])
  }
}

/// Keyframes and animators inside a property's motion: they start from
/// the value and velocity the property has, and later events interrupt
/// them as any motion (a spring takes over their velocity).
@Suite struct MotionKeyframeTests {
  @Test func aTrackStartsFromTheMotionAndIsInterrupted() throws {
    var m = Motion(0.0)
    m.animate(to: 10, at: 0, with: try AnimationParser.parse("linear(duration: 1)"))
    m.play([.cubic(0, duration: 0.5)], at: 0.5)
    // Halfway through the linear move: at 5, moving at 10 per second.
    #expect(abs(m.value(at: 0.5) - 5) < 1e-12 && abs(m.velocity(at: 0.5) - 10) < 1e-12)
    #expect(m.value(at: 1.0) == 0 && m.endTime == 1.0 && m.target == 0)
    let at07 = m.sample(at: 0.7)
    m.animate(to: 3, at: 0.7, with: try AnimationParser.parse("spring(duration: 0.5, bounce: 0)"))
    #expect(abs(m.value(at: 0.7) - at07.value) < 1e-12 && abs(m.velocity(at: 0.7) - at07.velocity) < 1e-9, "velocity continuity")
    #expect(m.events.map(\.kind) == [.animation(AnimationTiming(try AnimationParser.parse("linear(duration: 1)"))), .keyframes, m.events[2].kind])
  }

  @Test func anAnimatorMovesEachChannel() {
    var m = Motion(Vector2(0, 0))
    let animator = InteractiveAnimator(timing: .spring(.dampingRatio(0.8), dx: 1.5, dy: 0), duration: 0.5)!
    m.animate(to: Vector2(10, 20), at: 1, with: animator) { (Vector2($0.x, 0), Vector2(0, $0.y)) }
    // Each component starts with its own velocity times its distance.
    #expect(abs(m.velocity(at: 1).x - 15) < 1e-9 && abs(m.velocity(at: 1).y) < 1e-9)
    #expect(m.target == Vector2(10, 20) && m.endTime == 1.5)
    #expect(abs(m.value(at: 1.5).x - 10) <= 0.01 && abs(m.value(at: 1.5).y - 20) <= 0.02, "within 0.001 of each move when done")
    // Both channels share the spring: y follows the same spring from rest.
    let spring = Spring(uikitDuration: 0.5, dampingRatio: 0.8, initialVelocity: 1.5)!
    #expect(abs(m.value(at: 1.2).y - spring.value(from: 0.0, to: 20.0, time: 0.2)) < 1e-9)
  }
}
