import Foundation
import Testing

/// `render info` and `render curve` on keyframes, phases and animators,
/// end to end (docs/cli.md, "render info", "render curve").
@Suite struct MotionCommandTests {
  struct Info: Decodable {
    struct Event: Decodable {
      struct Track: Decodable {
        struct Piece: Decodable { let kind: String; let start: Double; let duration: Double }
        let layer: String; let property: String; let start: Double; let duration: Double; let repeating: Bool; let keyframes: [Piece]
      }
      struct Phases: Decodable {
        struct Step: Decodable { let at: Double; let phase: Int; let animation: String? }
        let count: Int; let repeats: Bool; let cycle: Double; let steps: [Step]
      }
      struct Animator: Decodable {
        struct Stretch: Decodable { let kind: String; let start: Double; let end: Double }
        let timing: String; let duration: Double; let stretches: [Stretch]
      }
      let at: Double; let end: Double; let changes: [String]
      let keyframes: [Track]?; let phases: Phases?; let animator: Animator?
    }
    let events: [Event]
  }

  func info(_ scene: String) throws -> Info {
    let result = try RenderBinary.run(["info", ValidateCommandTests.scenes.appendingPathComponent(scene).path, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try JSONDecoder().decode(Info.self, from: Data(result.stdout.utf8))
  }

  /// The heart's rotation track: a leading move, two cubics of 0.1 s and a
  /// linear of 0.2 s from 0.3 s, as written.
  @Test func infoListsKeyframeTracks() throws {
    let event = try #require(try info("heart-pop.json").events.first { $0.keyframes != nil })
    #expect(event.changes.contains("keyframes heart"))
    let rotation = try #require(event.keyframes?.first { $0.property == "rotation" })
    #expect(rotation.keyframes.map(\.kind) == ["move", "cubic", "cubic", "linear"])
    #expect(zip(rotation.keyframes.map(\.start), [0.3, 0.3, 0.4, 0.5]).allSatisfy { abs($0 - $1) < 1e-12 })
    #expect(abs(rotation.duration - 0.4) < 1e-12 && !rotation.repeating)
  }

  /// The recording dot: phase 0 and 1 at 0, phase 2 after bouncy's 0.35 s,
  /// phase 0 after the 0.45 s curve; the cycle is 0.4 + 0.35 + 0.45 s.
  @Test func infoListsPhaseSteps() throws {
    let phases = try #require(try info("recording-dot.json").events.first?.phases)
    #expect(phases.count == 3 && phases.repeats && abs(phases.cycle - 1.2) < 1e-12)
    #expect(phases.steps.map(\.phase) == [0, 1, 2, 0])
    #expect(zip(phases.steps.map(\.at), [0, 0, 0.35, 0.8]).allSatisfy { abs($0 - $1) < 1e-12 })
    #expect(phases.steps[0].animation == nil && phases.steps[2].animation == "easeInOut(duration: 0.45)")
  }

  /// The sheet: scrubbed 0.5 s to f = 0.45, then a spring over
  /// 0.5 · (1 − 0.45) = 0.275 s; scrubbed again to 0.3 and reversed along
  /// easeOut from C⁻¹(0.3) over 0.6 · C⁻¹(0.3) s.
  @Test func infoListsAnimatorStretches() throws {
    let animators = try info("sheet-scrub.json").events.compactMap(\.animator)
    #expect(animators.count == 2)
    #expect(animators[0].stretches.map(\.kind) == ["scrub", "spring"])
    #expect(abs(animators[0].stretches[1].start - 0.7) < 1e-12 && abs(animators[0].stretches[1].end - 0.975) < 1e-12)
    #expect(animators[1].stretches.map(\.kind) == ["scrub", "curve"])
    // easeOut = (0, 0, 0.58, 1): C⁻¹(0.3) solved independently by bisection.
    var lo = 0.0, hi = 1.0
    func bezier(_ t: Double, _ a: Double, _ b: Double) -> Double { 3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t }
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      // Solve x(t) for the parameter, then compare y.
      var tlo = 0.0, thi = 1.0
      for _ in 0..<200 { let tm = (tlo + thi) / 2; if bezier(tm, 0, 0.58) < mid { tlo = tm } else { thi = tm } }
      if bezier(tlo, 0, 1) < 0.3 { lo = mid } else { hi = mid }
    }
    #expect(abs(animators[1].stretches[1].end - (2.05 + 0.6 * lo)) < 1e-9)
  }

  /// `render curve` samples a keyframe track: the published 1.797 at
  /// t = 0.05 s of the cubic track 0 → 10 → −10 → 0.
  @Test func curveSamplesATrack() throws {
    let result = try RenderBinary.run([
      "curve", "CubicKeyframe(10, duration: 0.2)", "CubicKeyframe(-10, duration: 0.2)", "{\"cubic\": {\"to\": 0, \"duration\": 0.2}}",
      "--json", "--fps", "20",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    struct Curve: Decodable {
      struct Sample: Decodable { let t: Double; let value: Double }
      let duration: Double; let samples: [Sample]
    }
    let curve = try JSONDecoder().decode(Curve.self, from: Data(result.stdout.utf8))
    #expect(abs(curve.duration - 0.6) < 1e-12 && curve.samples.count == 13)
    #expect(abs(curve.samples[1].value - 1.796875) < 1e-12)
    let bad = try RenderBinary.run(["curve", "LinearKeyframe(1, duraton: 0.2)"])
    #expect(bad.status == 2 && bad.stderr.contains("did you mean 'duration'"))
  }

  /// Charts plot keyframe tracks, without calling their peaks overshoots
  /// (a track goes where it is told); springs' overshoots stay labelled.
  @Test func chartsPlotTracksWithoutOvershootLabels() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chart-track-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func chart(_ scene: String, _ extra: [String]) throws -> String {
      let svg = folder.appendingPathComponent("\(scene).svg").path
      let result = try RenderBinary.run(["chart", ValidateCommandTests.scenes.appendingPathComponent("\(scene).json").path, "-o", svg] + extra)
      #expect(result.status == 0, "\(result.stderr)")
      return try String(contentsOfFile: svg, encoding: .utf8)
    }
    let heart = try chart("heart-pop", ["--property", "scale", "--property", "rotation"])
    #expect(heart.contains("heart · scale") && heart.contains("heart · rotation") && !heart.contains("overshoot"))
    #expect(try chart("spring-bounce", []).contains("overshoot"))
  }

  /// A keyframe track charted: the SVG holds one series.
  @Test func curveChartsATrack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curve-track-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg = folder.appendingPathComponent("track.svg").path
    let result = try RenderBinary.run(["curve", "LinearKeyframe(1, duration: 0.2)", "SpringKeyframe(0, spring: .bouncy)", "-o", svg])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(text.contains("LinearKeyframe(1, duration: 0.2) SpringKeyframe(0, spring: .bouncy)"))
  }
}
