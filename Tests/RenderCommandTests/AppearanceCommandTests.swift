import Foundation
import PNGCodec
import Testing

/// `--appearance` on the rendering commands: the same scene's named
/// colours in their dark variants, the scene's own `appearance` overridden.
@Suite struct AppearanceCommandTests {
  static let scene = ##"""
    {"version": 1, "size": [20, 10], "appearance": "light",
     "layers": [{"type": "rect", "size": [10, 10], "anchor": [0, 0], "fill": "systemBlue"}]}
    """##

  @Test func stillsTakeTheAppearance() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("appearance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.json").path
    try Self.scene.write(toFile: file, atomically: true, encoding: .utf8)
    for (appearance, blue, background) in [("light", (0, 122, 255), 255), ("dark", (10, 132, 255), 0)] {
      let out = dir.appendingPathComponent("\(appearance).png").path
      let r = try RenderBinary.run(["still", file, "--appearance", appearance, "--scale", "1", "-o", out])
      #expect(r.status == 0, "\(r.stderr)")
      let png = try PNG.read(path: out)
      let rect = png[5, 5], rest = png[15, 5]
      #expect((Int(rect.r), Int(rect.g), Int(rect.b)) == blue, "\(appearance): \(rect)")
      #expect(Int(rest.r) == background && Int(rest.g) == background && Int(rest.b) == background, "\(appearance): \(rest)")
    }
    let bad = try RenderBinary.run(["still", file, "--appearance", "drak", "-o", dir.appendingPathComponent("x.png").path])
    #expect(bad.status == 2 && bad.stderr.contains("--appearance must be light or dark, got 'drak'; did you mean 'dark'?"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
  }
}
