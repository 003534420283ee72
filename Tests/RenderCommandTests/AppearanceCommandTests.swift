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

  /// The look of iOS's bad input, through the command: each a located
  /// error (file:line:column and JSON path, exit 65), nothing written.
  @Test(arguments: [
    (#""fill": "systemblu""#, "layers[0].fill", "systemBlue"),
    (#""fill": "red", "material": "ultrathin""#, "layers[0].material", "ultraThin"),
    (#""fill": "red", "backdrop": {"blur": -2}"#, "layers[0].backdrop.blur", ""),
    (#""fill": "red", "backdrop": {"blur": 4, "saturation": 11}"#, "layers[0].backdrop.saturation", ""),
    (#""fill": "red", "rotation3D": {"angle": 30, "axis": [0, 0, 0]}"#, "layers[0].rotation3D", ""),
  ])
  func badLookIsALocatedErrorAndWritesNothing(layer: String, path: String, suggestion: String) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("look-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("bad.json").path
    try #"{"version": 1, "size": [20, 10],\#n "layers": [{"type": "rect", "size": [10, 10], \#(layer)}]}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("bad.mp4").path
    let r = try RenderBinary.run([file, "-o", out, "--quiet"])
    #expect(r.status == 65, "\(r.stderr)")
    #expect(r.stderr.hasPrefix(file + ":2:") && r.stderr.contains("error: \(path)"), "\(r.stderr)")
    if !suggestion.isEmpty { #expect(r.stderr.contains("did you mean '\(suggestion)'"), "\(r.stderr)") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.json"])
  }
}
