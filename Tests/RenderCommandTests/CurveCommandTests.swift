import Foundation
import Testing

/// `render curve` end to end: the built binary, its output and exit codes.
@Suite struct CurveCommandTests {
  struct Output: Decodable {
    struct Sample: Decodable { let t: Double; let value: Double; let velocity: Double }
    let animation: String
    let settlingDuration: Double
    let duration: Double
    let samples: [Sample]
  }

  /// The vectors' bouncy spring (duration 0.5, bounce 0.3), copied from
  /// ../shared/vectors/timing.json: an independent integration.
  static let bouncy: [(t: Double, value: Double, velocity: Double)] = [
    (0.0, 0.0, 0.0),
    (0.05, 0.14571501353430694, 4.9170485433772635),
    (0.1, 0.4233021230351413, 5.707558337984298),
    (0.2, 0.8737108957910228, 2.9538067973395794),
    (0.3, 1.033930362288312, 0.5460185674763122),
    (0.5, 1.0144984216195518, -0.2109508199336113),
    (0.75, 0.9981918277347548, 0.0103846384339365),
    (1.0, 1.0000715968857263, 0.001159203702314646),
  ]
  static let bouncySettling = 1.0447130905120119

  @Test func jsonMatchesTheVectors() throws {
    let result = try RenderBinary.run(["curve", "spring(duration: 0.5, bounce: 0.3)", "--json"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    // Exactly the documented shape, keys in order.
    #expect(result.stdout.hasPrefix(#"{"animation": "spring(duration: 0.5, bounce: 0.3)", "settlingDuration": "#))
    #expect(result.stdout.contains(#", "duration": "#) && result.stdout.contains(#", "samples": [{"t": 0, "value": 0, "velocity": 0}, "#))
    let output = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
    #expect(abs(output.settlingDuration - Self.bouncySettling) < 1e-12)
    #expect(abs(output.duration - Self.bouncySettling) < 1e-12)
    // Samples at t = i / 60 from 0 through the duration: floor(62.68…) + 1.
    #expect(output.samples.count == 63)
    for (i, sample) in output.samples.enumerated() {
      #expect(abs(sample.t - Double(i) / 60) < 1e-12)
    }
    for reference in Self.bouncy {
      let sample = try #require(output.samples.first { abs($0.t - reference.t) < 1e-9 })
      #expect(abs(sample.value - reference.value) < 1e-8, "value at \(reference.t)")
      #expect(abs(sample.velocity - reference.velocity) < 1e-8, "velocity at \(reference.t)")
    }
  }

  @Test func rangeAndVelocity() throws {
    let result = try RenderBinary.run(["curve", "smooth", "--from", "10", "--to", "20", "--velocity", "-30", "--fps", "10", "--json"])
    #expect(result.status == 0)
    let output = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
    #expect(output.samples[0].value == 10 && output.samples[0].velocity == -30)
    #expect(abs(output.samples.last!.value - 20) < 0.01)
    // Critically damped: the settling duration is a multiple of 0.1 s.
    let tenths = output.settlingDuration * 10
    #expect(abs(tenths - tenths.rounded()) < 1e-9)
    #expect(output.samples.count == Int((output.duration * 10 + 1e-9).rounded(.down)) + 1)
  }

  @Test func curveDurationCountsDelaySpeedAndPasses() throws {
    let result = try RenderBinary.run(["curve", "easeInOut(duration: 0.5).delay(0.2).repeatCount(2)", "--json"])
    let output = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
    #expect(abs(output.duration - 1.4) < 1e-12)  // (0.2 + 0.5) × 2
    #expect(output.settlingDuration == 0.5)
    #expect(output.samples.count == 85)
    #expect(output.samples.last!.value == 1)
  }

  /// An animation slowed 10³⁰⁰ times lasts far beyond the sample limit:
  /// a usage error that says so, not a crash converting the count.
  @Test func aCurveBeyondAnyIntegerCountIsOverTheLimit() throws {
    let result = try RenderBinary.run(["curve", "linear.speed(1e-300)"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("render: error: 'linear.speed(1e-300)' lasts "), "\(result.stderr)")
    #expect(result.stderr.contains("is more than the limit of 1000000"), "\(result.stderr)")
  }

  @Test func jsonObjectForm() throws {
    let result = try RenderBinary.run(["curve", #"{"spring": {"duration": 0.5, "bounce": 0.3}}"#, "--json"])
    #expect(result.status == 0)
    let output = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
    #expect(abs(output.settlingDuration - Self.bouncySettling) < 1e-12)
  }

  @Test func textTableAndChart() throws {
    let table = try RenderBinary.run(["curve", "bouncy"])
    #expect(table.status == 0)
    #expect(table.stdout.contains("settling duration 1.044713 s"))
    #expect(table.stdout.contains("stiffness 157.9137, damping 17.59292"))
    let chart = try RenderBinary.run(["curve", "bouncy", "--plot"])
    #expect(chart.status == 0 && chart.stdout.contains("•") && chart.stdout.contains("1.045 s"))
  }

  @Test(
    arguments: [
      (["curve", "sprung"], "unknown animation 'sprung'; did you mean 'spring'?"),
      (["curve", "spring(duration: 0)"], "duration must be between 1e-06 and 1000000 seconds"),
      (["curve", "linear.speed(0)"], "speed must be greater than 0"),
      (["curve", "spring(bounce: 2)"], "bounce must be greater than -1 and less than 1"),
      (["curve", #"{"spring": {"bounce": 2}}"#], "animation:1:23: spring.bounce: bounce must be greater than -1"),
      (["curve", "{\"spring\": "], "expected a value, found end of file"),
      (["curve", "spring", "--fps", "0"], "--fps must be a positive number"),
      (["curve", "spring", "--to", "nan"], "--to must be a finite number"),
      (["curve"], "render: error: missing expected argument '<animation> ...'"),
      (["curv", "spring"], "unknown command 'curv'; did you mean 'curve'?"),
    ] as [([String], String)])
  func badInputExitsTwoWithAMessage(_ arguments: [String], _ message: String) throws {
    let result = try RenderBinary.run(arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    #expect(!result.stderr.contains("nan") || arguments.contains("nan"))
  }

  @Test func caretPointsAtTheMistake() throws {
    let result = try RenderBinary.run(["curve", "snappy.dealy(0.2)"])
    #expect(result.stderr.contains("    snappy.dealy(0.2)\n           ^~~~~"))
  }

  @Test func helpExitsZero() throws {
    let result = try RenderBinary.run(["curve", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("--velocity"))
  }
}
