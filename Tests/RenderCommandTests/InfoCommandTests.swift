import Foundation
import Testing

/// `render info --json` end to end, against the vectors' settling durations.
@Suite struct InfoCommandTests {
  struct Output: Decodable {
    struct Event: Decodable { let at: Double; let animation: String?; let settlingDuration: Double?; let end: Double; let changes: [String] }
    let name: String
    let pixels: [Int]
    let duration: Double
    let events: [Event]
  }

  @Test func springBounceScene() throws {
    let path = ValidateCommandTests.scenes.appendingPathComponent("spring-bounce.json").path
    let result = try RenderBinary.run(["info", path, "--json"])
    #expect(result.status == 0 && result.stderr.isEmpty)
    let info = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
    #expect(info.name == "spring-bounce" && info.pixels == [780, 720])
    // spring(duration: 0.5, bounce: −0.3, 0, 0.15, 0.3) at 0.3 s settle as
    // the vectors say (their "overdamped", smooth, snappy and bouncy).
    let settling = info.events.prefix(4).map { $0.settlingDuration ?? -1 }
    let expected = [1.4000000000000001, 0.7999999999999999, 0.8768271225053476, 1.0447130905120119]
    for (a, b) in zip(settling, expected) { #expect(abs(a - b) < 1e-12) }
    #expect(abs(info.events[3].end - (0.3 + 1.0447130905120119)) < 1e-12)
    // The duration is given (3.6 s), past the latest end.
    #expect(info.duration == 3.6 && info.duration > info.events.map(\.end).max()!)
    #expect(info.events.map(\.at) == info.events.map(\.at).sorted())
  }

  @Test func aMissingFileIsAUsageError() throws {
    let result = try RenderBinary.run(["info", "/nonexistent.json"])
    #expect(result.status == 2)
  }
}
