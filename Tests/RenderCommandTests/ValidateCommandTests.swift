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

  @Test func aMissingAssetOrFontIsALocatedErrorBeforeAnyOutput() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("springframe-assets-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("s.json")
    try Data(
      """
      {"version": 1, "size": [20, 20], "assets": {"photo": {"file": "photo.png"}},
       "layers": [{"type": "image", "asset": "photo"}, {"type": "text", "text": "x", "font": {"family": "Nope Sans"}}]}
      """.utf8
    ).write(to: scene)
    for arguments in [["validate", scene.path], [scene.path, "-o", folder.appendingPathComponent("out.mp4").path, "--quiet"]] {
      let result = try RenderBinary.run(arguments)
      #expect(result.status == 65, "\(arguments)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 2)
      // The asset's file resolves beside the scene, not in the working folder.
      #expect(lines.first?.hasPrefix("\(scene.path):1:54: error: assets.photo: cannot load asset 'photo': \(folder.path)/photo.png") == true)
      #expect(lines.last?.hasPrefix("\(scene.path):2:99: error: layers[1].font.family: unknown font family 'Nope Sans'") == true)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s.json"])
  }

  /// A 1,000,000-character unknown key is quoted as any input is, about 40
  /// characters, in the message and in the path (CLI.md), and costs no edit
  /// distance against every known key.
  @Test func aHugeUnknownKeyIsQuotedCapped() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("springframe-huge-key-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let key = String(repeating: "a", count: 1_000_000)
    try Data(
      """
      {"version": 1, "size": [20, 20],
       "layers": [{"type": "rect", "\(key)": 1}]}
      """.utf8
    ).write(to: file)
    let started = Date()
    let result = try RenderBinary.run(["validate", file.path])
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(result.status == 65)
    try #require(result.stderr.utf8.count < 2000, "a quote of the key is not capped")
    // 39 characters and the `…` of the cut; line 2, column 30: the key's quote.
    let cut = String(repeating: "a", count: 39) + "…"
    #expect(result.stderr == "\(file.path):2:30: error: layers[0][\"\(cut)\"]: unknown key '\(cut)'\n")
  }

  /// A `set` may write a layer's whole rotation3D object with the layer's
  /// own axis; another axis is an error at its place: only angle animates.
  @Test func aSetRepeatsTheRotation3DAxisButCannotChangeIt() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("springframe-rotation3d-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    for (axis, expected) in [
      ("[0, 1, 0]", ""),
      // Line 3, column 101: the "[" of the axis the set writes.
      (
        "[1, 0, 0]",
        "\(file.path):3:101: error: timeline[0].set.card.rotation3D.axis: only rotation3D's angle animates: this axis [1, 0, 0] is not the layer's [0, 1, 0]\n"
      ),
    ] {
      try Data(
        """
        {"version": 1, "size": [200, 100],
         "layers": [{"id": "card", "type": "rect", "size": [100, 60], "rotation3D": {"axis": [0, 1, 0]}}],
         "timeline": [{"at": 0, "animation": "smooth", "set": {"card": {"rotation3D": {"angle": 50, "axis": \(axis)}}}}]}
        """.utf8
      ).write(to: file)
      let result = try RenderBinary.run(["validate", file.path])
      #expect(result.status == (expected.isEmpty ? 0 : 65), "\(result.stderr)")
      #expect(result.stderr == expected)
    }
  }

  @Test func aMissingFileIsAUsageError() throws {
    let result = try RenderBinary.run(["validate", "/nonexistent/scene.json"])
    #expect(result.status == 2 && result.stderr.contains("cannot read /nonexistent/scene.json: no such file"))
  }
}
