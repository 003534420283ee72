import Foundation
import TestSupport
import Testing
import VideoOutput

/// What a scene from a pull request cannot do (docs/cli.md, docs/scene-format.md):
/// write outside the output folder, read outside its own folder, flood the
/// terminal; and what every usage error looks like.
@Suite struct TrustTests {
  static func folder(_ name: String) -> URL { Scratch("springframe-trust-\(name)").directory }

  /// A small valid scene with `extra` top-level members (`"name": …`, `"assets": …`).
  static func scene(_ extra: String = "", layers: String? = nil, timeline: String = "[]") -> String {
    let layers = layers ?? #"[{"id": "box", "type": "rect", "size": [20, 20], "position": [20, 20], "fill": "red"}]"#
    return #"{"version": 1, "size": [40, 40], "duration": 0.1, "#
      + (extra.isEmpty ? "" : extra + ", ")
      + #""layers": \#(layers), "timeline": \#(timeline)}"#
  }

  static func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Every path under `root`, relative, sorted (symlinks not followed).
  static func tree(_ root: URL) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return (e.allObjects as? [String] ?? []).sorted()
  }

  // MARK: Usage errors

  /// The issue's list: argument-parser errors and ours alike are one
  /// `render: error:` line and at most one hint, exit 2, nothing on stdout.
  @Test(
    arguments: [
      (["--to", "0.1", "--from", "0.5"], "--to (0.1) must not be before --from (0.5)"),
      (["--scale", "0"], "--scale must be greater than 0"),
      (["--crf", "60"], "--crf must be between 0 and 51"),
      (["--fsp", "3"], "unknown option '--fsp'; did you mean '--fps'?"),
      (["--fps"], "missing value for '--fps <fps>'"),
      (["--fps", "abc"], "--fps takes frames per second"),
      (["--fps", "0"], "got '0'"),
      (["extra-argument"], "unexpected argument 'extra-argument'"),
    ] as [([String], String)])
  func usageErrorsAreOneLineAndAHint(_ arguments: [String], _ message: String) throws {
    let dir = Self.folder("usage")
    let path = dir.appendingPathComponent("s.json").path
    try Self.write(Self.scene(), to: path)
    let r = try RenderBinary.run([path] + arguments)
    Self.expectUsageError(r, message)
  }

  @Test func stillWithoutOutputIsAUsageError() throws {
    let dir = Self.folder("still-usage")
    let path = dir.appendingPathComponent("s.json").path
    try Self.write(Self.scene(), to: path)
    Self.expectUsageError(try RenderBinary.run(["still", path]), "missing expected argument '--output <output>'")
    Self.expectUsageError(try RenderBinary.run(["batch"]), "missing expected argument '<paths> ...'")
  }

  static func expectUsageError(_ r: RenderBinary.Result, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 2, sourceLocation: sourceLocation)
    #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
    let lines = r.stderr.split(separator: "\n")
    #expect((1...2).contains(lines.count), "\(r.stderr)", sourceLocation: sourceLocation)
    #expect(lines.first?.hasPrefix("render: error: ") == true, "\(r.stderr)", sourceLocation: sourceLocation)
    #expect(lines.first?.contains(message) == true, "\(r.stderr)", sourceLocation: sourceLocation)
    #expect(lines.allSatisfy { $0.hasPrefix("render: ") }, "\(r.stderr)", sourceLocation: sourceLocation)
    #expect(!r.stderr.contains("Usage:") && !r.stderr.contains("Error:"), "\(r.stderr)", sourceLocation: sourceLocation)
  }

  // MARK: Names

  /// A name is one file-name component; anything else is located at `name`
  /// (line 1, the column of its value) and nothing is written anywhere.
  @Test(arguments: [
    #""../../escaped""#, #""""#, #""a/b""#, #"".""#, #""..""#, #""a\\b""#, #""a\u0000b""#,
    "\"" + String(repeating: "n", count: 201) + "\"",
  ])
  func aNameIsOneFileNameComponent(_ name: String) throws {
    let root = Self.folder("name")
    let bin = root.appendingPathComponent("work/bin")
    let scene = bin.appendingPathComponent("s.json").path
    try Self.write(Self.scene(#""name": \#(name)"#), to: scene)
    let before = Self.tree(root)
    let r = try RenderBinary.run(["batch", bin.path, "--out", root.appendingPathComponent("work/out").path, "--quiet"])
    #expect(r.status == 65, "\(r.stderr)")
    let column = #"{"version": 1, "size": [40, 40], "duration": 0.1, "name": "#.count + 1
    #expect(r.stderr.contains("s.json:1:\(column): error: name: the name"), "\(r.stderr)")
    #expect(Self.tree(root) == before)
  }

  @Test func aNameOf200BytesIsFine() throws {
    let dir = Self.folder("long-name")
    let scene = dir.appendingPathComponent("s.json").path
    let name = String(repeating: "é", count: 100)  // 200 bytes
    try Self.write(Self.scene(#""name": "\#(name)""#), to: scene)
    let r = try RenderBinary.run([scene, "--to", "0", "-o", dir.appendingPathComponent("frames").path + "/", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Self.tree(dir.appendingPathComponent("frames")) == [name + "_00000.png"])
  }

  // MARK: Files a scene names

  /// Absolute paths, a `..` that leaves the folder and a symlink that
  /// resolves outside it are refused, located at the asset or font; a
  /// symlink that stays inside and a `..` that comes back are fine.
  @Test func assetsAndFontsStayInTheScenesFolder() throws {
    let root = Self.folder("confine")
    let scenes = root.appendingPathComponent("scenes")
    try FileManager.default.createDirectory(at: scenes.appendingPathComponent("img"), withIntermediateDirectories: true)
    let png = try #require(
      FileManager.default.contents(
        atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
          .deletingLastPathComponent().appendingPathComponent("schema/cases/valid/assets/tomato.png").path))
    try png.write(to: root.appendingPathComponent("secret.png"))
    try png.write(to: scenes.appendingPathComponent("img/inside.png"))
    try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("out-link.png").path, withDestinationPath: "../secret.png")
    try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("in-link.png").path, withDestinationPath: "img/inside.png")
    try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("up").path, withDestinationPath: "..")
    let image = #"[{"id": "i", "type": "image", "asset": "a"}]"#
    let refused: [(String, String)] = [
      (root.appendingPathComponent("secret.png").path, "is an absolute path"),
      ("../secret.png", "leaves the scene's folder"),
      ("img/../../secret.png", "leaves the scene's folder"),
      ("out-link.png", "leads outside the scene's folder through a symbolic link"),
      ("up/secret.png", "leads outside the scene's folder through a symbolic link"),
    ]
    for (file, message) in refused {
      let scene = scenes.appendingPathComponent("s.json").path
      try Self.write(Self.scene(#""assets": {"a": "\#(file)"}"#, layers: image), to: scene)
      let before = Self.tree(root)
      let r = try RenderBinary.run(["validate", scene])
      #expect(r.status == 65, "\(file): \(r.stderr)")
      #expect(r.stderr.contains(": error: assets.a: cannot load asset 'a': "), "\(r.stderr)")
      #expect(r.stderr.contains(message), "\(file): \(r.stderr)")
      #expect(Self.tree(root) == before)
    }
    for file in ["img/inside.png", "in-link.png", "img/../img/inside.png", "./img/inside.png"] {
      let scene = scenes.appendingPathComponent("s.json").path
      try Self.write(Self.scene(#""assets": {"a": "\#(file)"}"#, layers: image), to: scene)
      let r = try RenderBinary.run(["validate", scene])
      #expect(r.status == 0, "\(file): \(r.stderr)")
    }
    // Fonts likewise.
    let scene = scenes.appendingPathComponent("f.json").path
    try Self.write(Self.scene(#""fonts": {"Evil": "../secret.ttf"}"#), to: scene)
    let r = try RenderBinary.run(["validate", scene])
    #expect(r.status == 65)
    #expect(r.stderr.contains(": error: fonts.Evil: cannot load the font of 'Evil': '../secret.ttf' leaves the scene's folder"), "\(r.stderr)")
  }

  // MARK: Batch

  /// Two scenes that would write the same file: exit 2 before anything is
  /// rendered, naming both files.
  @Test func aBatchConflictIsAnErrorBeforeRendering() throws {
    let root = Self.folder("conflict")
    let bin = root.appendingPathComponent("bin")
    try Self.write(Self.scene(#""name": "same""#), to: bin.appendingPathComponent("a.json").path)
    try Self.write(Self.scene(#""name": "same""#), to: bin.appendingPathComponent("b.json").path)
    try Self.write(Self.scene(), to: bin.appendingPathComponent("c.json").path)
    let out = root.appendingPathComponent("out")
    let r = try RenderBinary.run(["batch", bin.path, "--out", out.path, "--quiet"])
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.contains("a.json") && r.stderr.contains("b.json") && r.stderr.contains("same.mp4"), "\(r.stderr)")
    #expect(r.stderr.hasPrefix("render: error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    #expect(Self.tree(out).isEmpty)
    // Different formats of the same name do not conflict.
    try FileManager.default.removeItem(at: bin.appendingPathComponent("b.json"))
    let ok = try RenderBinary.run(["batch", bin.path, "--out", out.path, "--format", "gif,png", "--quiet"])
    #expect(ok.status == 0, "\(ok.stderr)")
  }

  // MARK: Messages

  /// A megabyte-long colour is quoted as about 40 characters.
  @Test func longInputIsQuotedShort() throws {
    let dir = Self.folder("excerpt")
    let scene = dir.appendingPathComponent("s.json").path
    let colour = String(repeating: "x", count: 1 << 20)
    try Self.write(
      Self.scene(layers: #"[{"id": "box", "type": "rect", "size": [20, 20], "fill": "\#(colour)"}]"#), to: scene)
    let r = try RenderBinary.run(["validate", scene])
    #expect(r.status == 65)
    #expect(r.stderr.contains("unknown colour '" + String(repeating: "x", count: 39) + "…'"), "\(r.stderr.prefix(300))")
    #expect(r.stderr.utf8.count < 300)
  }

  /// 300 bad elements: the first 100 errors in file order, then the count.
  @Test func aSceneReportsAtMost100Errors() throws {
    let dir = Self.folder("many")
    let scene = dir.appendingPathComponent("s.json").path
    let layers = (0..<300).map { #"{"type": "rect", "size": [1, 1], "fill": "nope\#($0)"}"# }.joined(separator: ",\n")
    try Self.write(Self.scene(layers: "[\n" + layers + "]"), to: scene)
    let r = try RenderBinary.run(["validate", scene])
    #expect(r.status == 65)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 101)
    #expect(lines.first?.contains("s.json:2:") == true && lines.first?.contains("'nope0'") == true, "\(lines.first ?? "")")
    #expect(lines[99].contains("'nope99'"))
    #expect(lines.last == "… and 200 more")
  }

  // MARK: Frame rates

  /// 29.97 is 30000/1001 exactly: the stored rate and the frame count
  /// (floor(0.5 × 30000/1001 + 1e-9) + 1 = 15), the same bytes as the ratio.
  @Test func ntscRatesAreExact() throws {
    let dir = Self.folder("ntsc")
    let scene = dir.appendingPathComponent("s.json").path
    try Self.write(Self.scene().replacingOccurrences(of: #""duration": 0.1"#, with: #""duration": 0.5"#), to: scene)
    for (fps, num, den, frames) in [("29.97", 30000, 1001, 15), ("23.976", 24000, 1001, 12), ("59.94", 60000, 1001, 30), ("12.5", 25, 2, 7)] {
      let mp4 = dir.appendingPathComponent("\(fps).mp4").path
      let r = try RenderBinary.run([scene, "--fps", fps, "-o", mp4, "--quiet"])
      #expect(r.status == 0, "\(r.stderr)")
      let info = try MediaProbe.info(path: mp4)
      #expect(info.averageFrameRateFraction == (num, den) && info.baseFrameRateFraction == (num, den), "\(fps)")
      #expect(info.frameCount == frames, "\(fps)")
    }
    let ratio = dir.appendingPathComponent("ratio.mp4").path
    #expect(try RenderBinary.run([scene, "--fps", "30000/1001", "-o", ratio, "--quiet"]).status == 0)
    #expect(FileManager.default.contents(atPath: ratio) == FileManager.default.contents(atPath: dir.appendingPathComponent("29.97.mp4").path))
  }

  // MARK: Warnings

  /// Lossy conversions and a shape without size are warnings on standard
  /// error, exit 0; --quiet silences them.
  @Test func lossesAreWarningsThatQuietSilences() throws {
    let dir = Self.folder("warn")
    let scene = dir.appendingPathComponent("s.json").path
    try Self.write(
      Self.scene(#""background": "transparent""#, layers: #"[{"id": "a", "type": "rect", "fill": "red"}, {"type": "circle", "size": [4, 4]}]"#),
      to: scene)
    let mp4 = try RenderBinary.run([scene, "-o", dir.appendingPathComponent("t.mp4").path])
    #expect(mp4.status == 0 && mp4.stdout.isEmpty, "\(mp4.stderr)")
    let lines = mp4.stderr.split(separator: "\n").filter { $0.hasPrefix("render: warning: ") }
    #expect(lines.count == 2, "\(mp4.stderr)")
    #expect(lines.contains { $0.contains("s.json:1:") && $0.contains("layers[0]: this rect has no size, so it draws nothing") })
    #expect(lines.contains { $0.contains("t.mp4: an H.264 video has no transparency") })
    let gif = try RenderBinary.run([scene, "-o", dir.appendingPathComponent("t.gif").path, "--fps", "60"])
    #expect(gif.status == 0)
    #expect(gif.stderr.contains("t.gif: an animated GIF plays at most 50 fps"), "\(gif.stderr)")
    #expect(!gif.stderr.contains("transparency"))
    let still = try RenderBinary.run(["still", scene, "-o", dir.appendingPathComponent("t.png").path])
    #expect(still.status == 0 && still.stderr.contains("this rect has no size"))
    for arguments in [
      [scene, "-o", dir.appendingPathComponent("q.mp4").path, "--quiet"],
      ["still", scene, "-o", dir.appendingPathComponent("q.png").path, "--quiet"],
    ] {
      let quiet = try RenderBinary.run(arguments)
      #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet.stderr)")
    }
  }

  /// `render still --json` prints the summary other outputs print.
  @Test func stillTakesJSON() throws {
    let dir = Self.folder("still-json")
    let scene = dir.appendingPathComponent("s.json").path
    try Self.write(Self.scene(), to: scene)
    let png = dir.appendingPathComponent("s.png").path
    let r = try RenderBinary.run(["still", scene, "-o", png, "--json", "--quiet"])
    #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(object["frames"] as? Int == 1)
    let outputs = try #require(object["outputs"] as? [[String: Any]])
    #expect(outputs.count == 1 && outputs[0]["path"] as? String == png && outputs[0]["format"] as? String == "png")
    #expect(outputs[0]["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int))
  }

  // MARK: Nothing crashes

  /// Each of these crashed the renderer, stalled it or made it allocate
  /// terabytes: now each is rendered (geometry far off the canvas, fine
  /// dashes drawn solid) or refused with a located error naming its limit.
  @Test(
    arguments: [
      (#"{"type": "group", "clip": true, "size": [20, 20], "position": [1e308, 5], "children": [{"type": "rect", "size": [10, 10]}]}"#, 65),
      (#"{"type": "rect", "size": [10, 10], "position": [-1e308, 1e308], "blur": 3}"#, 65),
      (#"{"type": "rect", "size": [10, 10], "position": [5, 5], "blur": 1e300}"#, 65),
      (#"{"type": "rect", "size": [10, 10], "position": [5, 5], "shadow": {"radius": 1e300}}"#, 65),
      (#"{"type": "rect", "size": [10, 10], "shadow": {"radius": 5, "offset": [1e308, 0]}}"#, 65),
      (
        #"{"type": "group", "clip": true, "size": [20, 20], "scale": [1e6, 1e6], "position": [1e6, 5], "children": [{"type": "rect", "size": [10, 10], "position": [1e6, 1e6]}]}"#,
        0
      ),
      (
        #"{"type": "group", "scale": [1e6, 1e6], "children": [{"type": "rect", "size": [10, 10], "shadow": {"radius": 100, "offset": [1e6, 0]}}]}"#, 0
      ),
      (
        #"{"type": "group", "clip": true, "size": [1e6, 1e6], "scale": [1e6, 1e6], "cornerRadius": 1e6, "children": [{"type": "rect", "size": [10, 10]}]}"#,
        0
      ),
      (#"{"type": "rect", "size": [1e6, 1e6], "cornerRadius": 1e6, "stroke": {"width": 2, "dash": [1e-6, 1e-6]}}"#, 0),
    ] as [(String, Int32)])
  func extremeGeometryIsRenderedOrRefused(_ layer: String, _ status: Int32) throws {
    let dir = Self.folder("extreme")
    let scene = dir.appendingPathComponent("s.json").path
    try Self.write(#"{"version": 1, "size": [40, 40], "scale": 3, "layers": [\#(layer)]}"#, to: scene)
    let r = try RenderBinary.run(["still", scene, "-o", dir.appendingPathComponent("s.png").path, "--quiet"])
    #expect(r.status == status, "\(r.stderr)")
    if status == 65 { #expect(r.stderr.contains("out of range: must be between"), "\(r.stderr)") }
  }

  /// Springs whose parameters overflow or underflow (a precondition
  /// failure before) and nesting that would exhaust the stack (a
  /// segmentation fault before) are located errors.
  @Test(arguments: [
    ("interpolatingSpring(mass: 1e-300, stiffness: 1e300, damping: 1)", "mass must be between 1e-06 and 1000000"),
    ("interpolatingSpring(mass: 1e300, stiffness: 1e-300, damping: 1e-300)", "mass must be between 1e-06 and 1000000"),
    ("spring(response: 1e-320)", "response must be between 1e-06 and 1000000 seconds"),
    ("snappy(duration: 1e-320)", "duration must be between 1e-06 and 1000000 seconds"),
    (
      "spring(duration: " + String(repeating: "spring(", count: 5000) + String(repeating: ")", count: 5001),
      "nested deeper than the limit of 32 levels"
    ),
    (
      "spring(duration: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + ")",
      "nested deeper than the limit of 32 levels"
    ),
  ])
  func extremeAnimationsAreLocatedErrors(_ animation: String, _ message: String) throws {
    let dir = Self.folder("extreme-animation")
    let scene = dir.appendingPathComponent("s.json").path
    try Self.write(
      Self.scene(
        layers:
          #"[{"id": "a", "type": "rect", "size": [4, 4]}]"#,
        timeline: #"[{"at": 0, "animation": "\#(animation)", "set": {"a": {"opacity": 0.5}}}]"#),
      to: scene)
    let r = try RenderBinary.run(["validate", scene])
    #expect(r.status == 65)
    #expect(r.stderr.contains(": error: timeline[0].animation: ") && r.stderr.contains(message), "\(r.stderr.prefix(300))")
  }
}
