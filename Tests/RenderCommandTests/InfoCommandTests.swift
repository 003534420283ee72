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

  @Test func springsScene() throws {
    let path = ValidateCommandTests.scenes.appendingPathComponent("springs.json").path
    let result = try RenderBinary.run(["info", path, "--json"])
    #expect(result.status == 0 && result.stderr.isEmpty)
    let info = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
    #expect(info.name == "springs" && info.pixels == [780, 640])
    // smooth, snappy and bouncy at 0.2 s settle as the vectors say.
    let settling = info.events.prefix(3).map { $0.settlingDuration ?? -1 }
    let expected = [0.7999999999999999, 0.8768271225053476, 1.0447130905120119]
    for (a, b) in zip(settling, expected) { #expect(abs(a - b) < 1e-12) }
    #expect(abs(info.events[2].end - (0.2 + 1.0447130905120119)) < 1e-12)
    // The default duration is the latest end.
    #expect(info.duration == info.events.map(\.end).max())
    #expect(info.events.map(\.at) == info.events.map(\.at).sorted())
  }

  @Test func aMissingFileIsAUsageError() throws {
    let result = try RenderBinary.run(["info", "/nonexistent.json"])
    #expect(result.status == 2)
  }
}
