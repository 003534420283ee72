import Foundation
import Testing

/// A character no installed font has is a warning naming it (and where),
/// not a silent box; `--quiet` silences it; the render goes on.
@Suite struct MissingGlyphTests {
  @Test func uncoveredCharactersAreNamed() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // U+13000, an Egyptian hieroglyph: none of the fonts install-deps installs has it.
    let file = dir.appendingPathComponent("s.json").path
    try ##"{"version": 1, "size": [100, 40], "layers": [{"type": "text", "text": "Hi \##u{13000}", "position": [50, 20]}]}"##
      .write(toFile: file, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("s.png").path
    let r = try RenderBinary.run(["still", file, "-o", out])
    #expect(r.status == 0 && FileManager.default.fileExists(atPath: out))
    #expect(r.stderr.contains("render: warning: \(file):1:46: layers[0]: no installed font has '\u{13000}' (U+13000)"), "\(r.stderr)")
    let quiet = try RenderBinary.run(["still", file, "-o", out, "--quiet"])
    #expect(quiet.status == 0 && !quiet.stderr.contains("no installed font"))
  }
}
