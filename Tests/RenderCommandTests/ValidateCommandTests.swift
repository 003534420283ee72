import Foundation
import Testing

/// `render validate` end to end: silent success, exit 65 with located errors.
@Suite struct ValidateCommandTests {
  static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scenes")

  @Test func theDemoScenesAreValid() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenes.path).filter { $0.hasSuffix(".json") }
    #expect(!files.isEmpty)
    let result = try RenderBinary.run(["validate"] + files.map { Self.scenes.appendingPathComponent($0).path })
    #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func anInvalidSceneExits65WithLocatedErrors() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("springframe-validate-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(
      """
      {"version": 1, "size": [390, 200],
       "layers": [{"id": "knob", "type": "circle"}],
       "timeline": [{"at": 0.4, "animation": "sprung", "set": {"knob": {"opacity": 0.5}}}]}
      """.utf8
    ).write(to: file)
    let result = try RenderBinary.run(["validate", file.path])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    // Line 3, column 41: the "s" of "sprung" (counted in the text above).
    #expect(result.stderr == "\(file.path):3:41: error: timeline[0].animation: unknown animation 'sprung'; did you mean 'spring'?\n")
  }

  @Test func aMissingFileIsAUsageError() throws {
    let result = try RenderBinary.run(["validate", "/nonexistent/scene.json"])
    #expect(result.status == 2 && result.stderr.contains("cannot read /nonexistent/scene.json: no such file"))
  }
}
