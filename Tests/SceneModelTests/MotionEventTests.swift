import Foundation
import Primitives
import SceneModel
import Testing
import Timing

/// Keyframes, phases and interactive animators in scenes
/// (docs/scene-format.md, "Keyframes", "Phases", "Interactive animators"):
/// decoded, played by the timeline, and refused where wrong. Expected
/// values come from published measurements of SwiftUI and UIKit or are
/// derived by hand from the formulas, as each test says.
@Suite struct MotionEventTests {
  static let layers = ##"[{"id": "dot", "type": "circle", "size": [20, 20], "position": [50, 50], "fill": "blue"}]"##

  func timeline(_ events: String, duration: String = "") throws -> (Scene, SceneTimeline) {
    let s = try decode(scene(layers: Self.layers, timeline: events, extra: duration))
    return (s, SceneTimeline(scene: s))
  }

  func number(_ t: SceneTimeline, _ key: PropertyKey, _ time: Double) -> Double {
    guard case .number(let x)? = t.value(key, of: "dot", at: time) else { return .nan }
    return x
  }

  func point(_ t: SceneTimeline, _ key: PropertyKey, _ time: Double) -> Vector2 {
    guard case .point(let p)? = t.value(key, of: "dot", at: time) else { return Vector2(.nan, .nan) }
    return p
  }

  // MARK: Keyframes

  /// The published measurement: a cubic track 0 → 10 → −10 → 0 with 0.2 s
  /// keyframes and every velocity inferred reads 1.797 at t = 0.05 s. By
  /// hand: v1 = (−10 − 0)/0.4 = −25, so at s = 1/4 the Hermite curve is
  /// (−2/64 + 3/16)·10 + (1/64 − 1/16)·0.2·(−25) = 1.796875.
  @Test func publishedCubicTrack() throws {
    let (_, t) = try timeline(
      ##"[{"at": 1, "keyframes": {"dot": {"rotation": ["CubicKeyframe(10, duration: 0.2)", "CubicKeyframe(-10, duration: 0.2)", "CubicKeyframe(0, duration: 0.2)"]}}}]"##
    )
    #expect(abs(number(t, .rotation, 1.05) - 1.796875) < 1e-12)
    #expect(abs(number(t, .rotation, 1.05) - 1.797) < 5e-4)
    #expect(abs(number(t, .rotation, 1.2) - 10) < 1e-9 && abs(number(t, .rotation, 1.6)) < 1e-9 && number(t, .rotation, 9) == 0)
    #expect(t.defaultDuration == 1.6)
  }

  /// The published measurement: `SpringKeyframe(10, spring: Spring(duration:
  /// 0.4, bounce: 0.3))` from 0 lasts 1.273 s.
  @Test func publishedSpringKeyframeDuration() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "keyframes": {"dot": {"rotation": ["SpringKeyframe(10, spring: Spring(duration: 0.4, bounce: 0.3))"]}}}]"##)
    #expect(abs(t.keyframeLayouts[0][0].duration - 1.273) < 5e-4)
    #expect(abs(t.defaultDuration - 1.273) < 5e-4)
  }

  /// The SwiftUI text and the object form are one track.
  @Test func textAndObjectFormsAgree() throws {
    let (_, a) = try timeline(
      ##"[{"at": 0.5, "keyframes": {"dot": {"opacity": ["LinearKeyframe(0.2, duration: 0.3, timingCurve: .easeOut)", "SpringKeyframe(1, duration: 0.2, spring: .bouncy, startVelocity: -1)", "MoveKeyframe(0.5)", "CubicKeyframe(0.9, duration: 0.25, endVelocity: 0)"], "position": ["LinearKeyframe([80, 20], duration: 0.4, timingCurve: .bezier(startControlPoint: [0.3, 0], endControlPoint: [0.2, 1]))"]}}}]"##
    )
    let (_, b) = try timeline(
      ##"[{"at": 0.5, "keyframes": {"dot": {"opacity": [{"linear": {"to": 0.2, "duration": 0.3, "timingCurve": "easeOut"}}, {"spring": {"to": 1, "duration": 0.2, "spring": "bouncy", "startVelocity": -1}}, {"move": {"to": 0.5}}, {"cubic": {"to": 0.9, "duration": 0.25, "endVelocity": 0}}], "position": [{"linear": {"to": [80, 20], "duration": 0.4, "timingCurve": {"bezier": {"startControlPoint": [0.3, 0], "endControlPoint": [0.2, 1]}}}}]}}}]"##
    )
    for time in stride(from: 0.4, through: 1.4, by: 0.01) {
      #expect(a.value(.opacity, of: "dot", at: time) == b.value(.opacity, of: "dot", at: time))
      #expect(a.value(.position, of: "dot", at: time) == b.value(.position, of: "dot", at: time))
    }
    // By hand: easeOut's progress at s = 0.5, from 1 toward 0.2.
    #expect(abs(number(a, .opacity, 0.65) - (1 + (0.2 - 1) * TimingFunction.easeOut.value(at: 0.5))) < 1e-12)
    // The move applies between the spring's end (0.5 + 0.5) and the cubic.
    #expect(abs(number(a, .opacity, 1.0 + 1e-9) - 0.5) < 1e-6)
  }

  /// Points animate component-wise; a colour in premultiplied sRGB,
  /// halfway at s = 0.5 of a linear keyframe.
  @Test func pointsAndColoursAnimate() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "keyframes": {"dot": {"position": ["LinearKeyframe([150, 10], duration: 1)"], "fill": ["LinearKeyframe(\"red\", duration: 1)"]}}}]"##
    )
    #expect(point(t, .position, 0.25) == Vector2(50 + 100 * 0.25, 50 - 40 * 0.25))
    guard case .paint(.color(let c))? = t.value(.fill, of: "dot", at: 0.5) else {
      Issue.record("no colour")
      return
    }
    let blue = Color(hex: "#007AFF")!.premultiplied, red = Color(hex: "#FF3B30")!.premultiplied
    #expect(abs(c.red - (blue.red + red.red) / 2) < 1e-12 && abs(c.blue - (blue.blue + red.blue) / 2) < 1e-12)
  }

  /// `repeating`: each pass starts again from the values the track
  /// started from; the default duration counts one pass.
  @Test func repeatingTracksStartOver() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0.5, "repeating": true, "keyframes": {"dot": {"rotation": ["LinearKeyframe(90, duration: 0.4)", "CubicKeyframe(0, duration: 0.3)"]}}}]"##
    )
    #expect(t.defaultDuration == 1.2)
    for u in [0.05, 0.2, 0.45, 0.69] {
      #expect(abs(number(t, .rotation, 0.5 + u) - number(t, .rotation, 0.5 + 0.7 + u)) < 1e-9)
      #expect(abs(number(t, .rotation, 0.5 + u) - number(t, .rotation, 0.5 + 7 + u)) < 1e-9)
    }
    // The instant a pass ends shows its end.
    #expect(abs(number(t, .rotation, 1.2)) < 1e-12)
  }

  /// A repeating timeline starts over when its longest track ends: the
  /// shorter track holds its end until then (SCENE.md).
  @Test func repeatingTimelinesWaitForTheLongestTrack() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "repeating": true, "keyframes": {"dot": {"rotation": ["LinearKeyframe(30, duration: 0.3)"], "opacity": ["LinearKeyframe(0, duration: 0.5)"]}}}]"##
    )
    #expect(abs(number(t, .rotation, 0.4) - 30) < 1e-12, "held between 0.3 and 0.5")
    #expect(abs(number(t, .rotation, 0.65) - 15) < 1e-9 && abs(number(t, .rotation, 0.9) - 30) < 1e-9)
    #expect(abs(number(t, .opacity, 0.75) - 0.5) < 1e-9)
    #expect(t.keyframeLayouts[0].allSatisfy { $0.period == 0.5 })
  }

  /// A vertical end would hand an infinite velocity on: refused.
  @Test func verticalCurveEndsAreRefused() {
    let found = problems(
      scene(
        layers: Self.layers,
        timeline:
          ##"[{"at": 0, "keyframes": {"dot": {"rotation": ["LinearKeyframe(1, duration: 0.3, timingCurve: .bezier(startControlPoint: [0.3, 0], endControlPoint: [1, 0.5]))", "CubicKeyframe(2, duration: 0.2)"]}}}]"##
      ))
    #expect(found.count == 1 && found[0].contains("ends vertically"), "\(found)")
  }

  /// A later spring takes over the track's value and velocity.
  @Test func aLaterSpringInterruptsWithTheTracksVelocity() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "keyframes": {"dot": {"rotation": ["LinearKeyframe(100, duration: 1)"]}}}, {"at": 0.5, "animation": "spring", "set": {"dot": {"rotation": 0}}}]"##
    )
    let motion = t.track(.rotation, of: "dot")!
    guard case .number(let v)? = motion.sample(at: 0.5).velocity else {
      Issue.record("no velocity")
      return
    }
    #expect(abs(v - 100) < 1e-9, "the spring starts with the track's 100 per second")
    #expect(abs(number(t, .rotation, 0.5) - 50) < 1e-9)
  }

  // MARK: Phases

  /// Curves: each phase starts when the previous curve ends (0.3 s, then
  /// 0.2 s, then back to phase 0 over 0.25 s), and a repeating cycle of
  /// curves repeats exactly with period 0.75 s from its second pass.
  @Test func phasesStepWhenEachChangeIsComplete() throws {
    let events =
      ##"[{"at": 1, "repeat": true, "phases": [{"dot": {"opacity": 1}}, {"dot": {"opacity": 0.2}}, {"dot": {"opacity": 0.6}}], "animations": ["linear(duration: 0.25)", "linear(duration: 0.3)", "linear(duration: 0.2)"]}]"##
    let (_, t) = try timeline(events)
    #expect(abs(number(t, .opacity, 1.15) - (1 - 0.8 * 0.5)) < 1e-12)
    #expect(abs(number(t, .opacity, 1.3) - 0.2) < 1e-12)
    #expect(abs(number(t, .opacity, 1.4) - 0.4) < 1e-12)
    #expect(abs(number(t, .opacity, 1.5 + 0.125) - 0.8) < 1e-12)
    #expect(t.defaultDuration == 1.75)
    for u in stride(from: 0.0, to: 0.75, by: 0.05) {
      #expect(abs(number(t, .opacity, 1 + u) - number(t, .opacity, 1 + 0.75 * 40 + u)) < 1e-9)
    }
    // Without repeat: one cycle, ending on phase 0.
    let (_, once) = try timeline(events.replacingOccurrences(of: ##""repeat": true"##, with: ##""repeat": false"##))
    #expect(number(once, .opacity, 1.75) == 1 && number(once, .opacity, 30) == 1)
  }

  /// Logical completion: a spring given by duration at that duration, an
  /// interpolating spring at 2π√(m/k) = 2π/10 s, each plus its delay and
  /// divided by its speed ((0.1 + 0.3)/2 = 0.2 s); one `animation` serves
  /// every phase.
  @Test func logicalDurations() throws {
    let (s, t) = try timeline(
      ##"[{"at": 0, "phases": [{"dot": {"rotation": 0}}, {"dot": {"rotation": 10}}, {"dot": {"rotation": 20}}, {"dot": {"rotation": 30}}], "animations": ["linear", "bouncy(duration: 0.35)", "interpolatingSpring(mass: 1, stiffness: 100, damping: 10)", "easeInOut(duration: 0.3).delay(0.1).speed(2)"]}]"##
    )
    let cycle = s.timeline[0].phases!
    let steps = PhaseSchedule.steps(phases: 4, animations: cycle.animations, start: 0, repeating: false, until: 0)
    let times = steps.map(\.time)
    #expect(times.count == 5 && times[0] == 0 && times[1] == 0)
    #expect(abs(times[2] - 0.35) < 1e-12 && abs(times[3] - (0.35 + 2 * Double.pi / 10)) < 1e-12)
    #expect(abs(times[4] - (0.35 + 2 * Double.pi / 10 + 0.2)) < 1e-12)
    // A spring still settling hands its velocity to the next phase.
    let track = t.track(.rotation, of: "dot")!
    let before = track.sample(at: times[2] - 1e-7).velocity, after = track.sample(at: times[2] + 1e-7).velocity
    guard case .number(let v0)? = before, case .number(let v1)? = after else {
      Issue.record("no velocities")
      return
    }
    #expect(abs(v0) > 1 && abs(v0 - v1) < 1e-3 * abs(v0))
    let (_, same) = try timeline(
      ##"[{"at": 0, "animation": "linear(duration: 0.5)", "phases": [{"dot": {"rotation": 0}}, {"dot": {"rotation": 10}}]}]"##)
    #expect(abs(number(same, .rotation, 0.25) - 5) < 1e-12 && abs(number(same, .rotation, 0.75) - 5) < 1e-12)
  }

  /// A repeating cycle of springs converges and then repeats itself: the
  /// values one period apart agree, far beyond the scene's end.
  @Test func repeatingSpringsRepeat() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "repeat": true, "phases": [{"dot": {"scale": 1}}, {"dot": {"scale": 1.6}}], "animations": ["bouncy(duration: 0.3)", "spring(duration: 0.4, bounce: 0.4)"]}]"##,
      duration: ##" "duration": 2,"##)
    let period = 0.7
    for u in stride(from: 0.0, to: period, by: 0.05) {
      #expect(abs(point(t, .scale, 30 * period + u).x - point(t, .scale, 500 * period + u).x) < 1e-6)
    }
  }

  // MARK: Interactive animators

  /// Scrubbing is linear in value; continuing with a spring starts each
  /// component with its own velocity (dx for x, dy for y) times its
  /// remaining distance; reversed returns to the start.
  @Test func animatorsScrubContinueAndReverse() throws {
    let (_, t) = try timeline(
      ##"[{"at": 1, "animator": {"set": {"dot": {"position": [150, 250], "opacity": 0}}, "timing": "UICubicTimingParameters(.easeInOut)", "duration": 0.5, "scrub": [[0, 0], [0.2, 0.5], [0.4, 0.6]], "continue": {"timing": "UISpringTimingParameters(dampingRatio: 0.8, initialVelocity: [2, -1])"}}}]"##
    )
    #expect(abs(point(t, .position, 1.1).x - (50 + 100 * 0.25)) < 1e-9 && abs(point(t, .position, 1.1).y - (50 + 200 * 0.25)) < 1e-9)
    #expect(abs(number(t, .opacity, 1.3) - (1 - 0.55)) < 1e-9)
    // R = 0.5 · (1 − 0.6) = 0.2 s; x starts at 2 · 40 points per second, y at −1 · 80.
    let v = t.track(.position, of: "dot")!.sample(at: 1.4 + 1e-9).velocity
    guard case .point(let velocity)? = v else {
      Issue.record("no velocity")
      return
    }
    #expect(abs(velocity.x - 80) < 1e-3 && abs(velocity.y + 80) < 1e-3)
    #expect(t.defaultDuration == 1.6)
    let (_, back) = try timeline(
      ##"[{"at": 1, "animator": {"set": {"dot": {"rotation": 90}}, "timing": "UICubicTimingParameters(.linear)", "duration": 0.5, "scrub": [[0, 0], [0.2, 0.6]], "reversed": true, "continue": {"durationFactor": 0.5}}}]"##
    )
    // Reversed from f = 0.6 with D′ = 0.5 · 0.5 / 0.6: linear, back to 0 in D′ · 0.6 = 0.25 s.
    #expect(abs(number(back, .rotation, 1.2 + 0.125) - 27) < 1e-9)
    #expect(abs(number(back, .rotation, 1.45)) < 1e-9 && number(back, .rotation, 2) == 0 && abs(back.defaultDuration - 1.45) < 1e-12)
  }

  /// UISpringTimingParameters(mass: 1, stiffness: 100, damping: 10) lasts
  /// 1.4727 s (published), whatever the animator's duration.
  @Test func physicalSpringAnimatorDuration() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "animator": {"set": {"dot": {"rotation": 90}}, "timing": "UISpringTimingParameters(mass: 1, stiffness: 100, damping: 10)"}}]"##
    )
    #expect(abs(t.defaultDuration - 1.4727) < 5e-5)
  }

  // MARK: Bad input

  @Test(
    arguments: [
      (##""BounceKeyframe(1, duration: 0.2)""##, ##"Bounce"##, "unknown keyframe 'BounceKeyframe'; did you mean"),
      (##""LinearKeyframe(1, duraton: 0.2)""##, ##"duraton"##, "unknown argument 'duraton' for 'LinearKeyframe'; did you mean 'duration'?"),
      (##""LinearKeyframe(1, duration: -0.2)""##, ##"duration: -"##, "duration must be between 0 and 3600 seconds"),
      (##"{"cubic": {"to": 1, "duration": -1}}"##, ##"-1}"##, "duration must be between 0 and 3600 seconds"),
      (##"{"wobble": {"to": 1}}"##, ##""wobble""##, "unknown keyframe 'wobble'"),
      (##""LinearKeyframe([1, 2], duration: 0.2)""##, ##"[1, 2], d"##, "'rotation' is a number, and this keyframe's value is a point [x, y]"),
      (##""SpringKeyframe(1, spring: .easeIn)""##, ##"spring: .easeIn"##, "a spring keyframe takes a spring"),
    ] as [(String, String, String)])
  func badKeyframes(_ keyframe: String, _ token: String, _ message: String) {
    let text = scene(layers: Self.layers, timeline: ##"[{"at": 0, "keyframes": {"dot": {"rotation": ["## + keyframe + "]}}}]")
    let found = problems(text)
    #expect(found.count == 1 && found[0].contains(message), "\(found)")
    let column = text.range(of: token).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 } ?? -1
    #expect(found.first?.hasPrefix("t.json:1:\(column): error: timeline[0].keyframes.dot.rotation[0]") == true, "\(found) at \(column)")
  }

  @Test(
    arguments: [
      (
        ##"[{"at": 0, "keyframes": {"dot": {"position": ["LinearKeyframe(3, duration: 1)"]}}}]"##, ##"3, d"##,
        "timeline[0].keyframes.dot.position[0]: 'position' is a point [x, y], and this keyframe's value is a number"
      ),
      (
        ##"[{"at": 0, "set": {"dot": {"opacity": 0}}, "keyframes": {"dot": {"opacity": ["LinearKeyframe(1, duration: 1)"]}}}]"##,
        ##""opacity": ["##, "timeline[0].keyframes.dot.opacity: 'dot''s 'opacity' is both set and keyframed in this event"
      ),
      (
        ##"[{"at": 0, "phases": [{"dot": {"opacity": 0}}]}]"##, ##"[{"dot"##,
        "timeline[0].phases: a phase animation needs at least two phases, got 1"
      ),
      (
        ##"[{"at": 0, "phases": [{"dot": {"opacity": 0}}, {"dot": {"opacity": 1}}], "animations": ["smooth"]}]"##, ##"["smooth"##,
        "timeline[0].animations: 2 phases and 1 animations"
      ),
      (
        ##"[{"at": 0, "animator": {"set": {"dot": {"opacity": 0}}, "scrub": [[0, 0], [0.3, 0.5], [0.2, 0.6]]}}]"##, ##"0.2, 0.6"##,
        "timeline[0].animator.scrub[2][0]: scrub times must increase: 0.2 after 0.3"
      ),
      (
        ##"[{"at": 0, "animator": {"set": {"dot": {"opacity": 0}}, "scrub": [[0, 0], [0.3, 1.5]]}}]"##, ##"1.5"##,
        "timeline[0].animator.scrub[1][1]: fractionComplete must be between 0 and 1, got 1.5"
      ),
      (
        ##"[{"at": 0, "animator": {"set": {"dot": {"opacity": 0}}, "timing": "UISpringTimingParameters(mass: 0, stiffness: 100, damping: 10)"}}]"##,
        ##"mass: 0"##, "timeline[0].animator.timing: mass must be between 1e-06 and 1000000"
      ),
      (
        ##"[{"at": 0, "animator": {"set": {"dot": {"opacity": 0}}, "timing": {"UISpringTimingParameters": {"mass": 1, "stiffness": -5, "damping": 10}}}}]"##,
        ##"-5"##, "timeline[0].animator.timing.UISpringTimingParameters.stiffness: stiffness must be between"
      ),
      (
        ##"[{"at": 0, "repeating": true, "set": {"dot": {"opacity": 0}}}]"##, ##"true"##,
        "timeline[0].repeating: \"repeating\" repeats an event's keyframes, and this event has none"
      ),
      (
        ##"[{"at": 0, "animator": {"set": {"dot": {"opacity": 0}}, "reversed": true}}]"##, ##"true"##,
        "timeline[0].animator.reversed: an animator is reversed after a scrub"
      ),
      (
        ##"[{"at": 0, "keyframes": {"dot": {"hidden": ["MoveKeyframe(1)"]}}}]"##, ##""hidden""##,
        "timeline[0].keyframes.dot.hidden: 'hidden' changes at once and cannot be keyframed"
      ),
    ] as [(String, String, String)])
  func badEvents(_ events: String, _ token: String, _ message: String) {
    let text = scene(layers: Self.layers, timeline: events)
    let found = problems(text)
    let column = text.range(of: token).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 } ?? -1
    #expect(found.count == 1 && found[0].hasPrefix("t.json:1:\(column): error: \(message)"), "\(found) at \(column)")
  }

  /// A later repeating cycle takes over the properties it shares; the
  /// earlier one goes on with the others.
  @Test func aLaterCycleTakesOver() throws {
    let (_, t) = try timeline(
      ##"[{"at": 0, "repeat": true, "phases": [{"dot": {"opacity": 1, "rotation": 0}}, {"dot": {"opacity": 0.5, "rotation": 90}}], "animation": "linear(duration: 0.5)"}, {"at": 2, "repeat": true, "phases": [{"dot": {"opacity": 0.2}}, {"dot": {"opacity": 0.4}}], "animation": "linear(duration: 0.25)"}]"##
    )
    // Before 2 s the first cycle drives both; after, opacity follows the second.
    #expect(abs(number(t, .opacity, 0.25) - 0.75) < 1e-12 && abs(number(t, .rotation, 0.25) - 45) < 1e-12)
    #expect(abs(number(t, .opacity, 2.125) - 0.3) < 1e-12)
    for u in [0.1, 0.3] {
      #expect(abs(number(t, .opacity, 2 + u) - number(t, .opacity, 20 + u)) < 1e-9)
      #expect(abs(number(t, .rotation, u) - number(t, .rotation, 20 + u)) < 1e-9)
    }
  }

}
