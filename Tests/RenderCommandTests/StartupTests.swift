import Foundation
import Testing
import VideoOutput

/// FFmpeg's libraries are opened when a video is written, not when `render`
/// starts: the dynamic linker's own trace (LD_DEBUG=files, glibc) lists
/// every library a process maps, and why.
@Suite struct StartupTests {
  static func trace(_ arguments: [String]) throws -> RenderBinary.Result {
    try RenderBinary.run(arguments, environment: ["LD_DEBUG": "files"])
  }

  @Test func onlyVideosOpenFFmpeg() throws {
    let dir = try PipelineCommandTests.folder("startup")
    let scene = try PipelineCommandTests.scene(in: dir)
    let outputs = ["--null", "-o", dir.appendingPathComponent("a.png").path, "-o", dir.appendingPathComponent("a.gif").path]
    for output in [["--null"], Array(outputs[1...2]), Array(outputs[3...4])] {
      let r = try Self.trace([scene, "--fps", "10", "--quiet"] + output)
      #expect(r.status == 0, "\(r.stderr.suffix(500))")
      #expect(r.stderr.contains("file=libpng16.so"), "the trace is there: \(r.stderr.prefix(300))")
      #expect(!r.stderr.contains("libavcodec"), "\(output) maps FFmpeg")
    }
    let mp4 = dir.appendingPathComponent("a.mp4").path
    let r = try Self.trace([scene, "--fps", "10", "--quiet", "-o", mp4])
    #expect(r.status == 0, "\(r.stderr.suffix(500))")
    let line = r.stderr.split(separator: "\n").first { $0.contains("file=libavcodec.so") }
    #expect(line?.contains("dynamically loaded") == true, "\(line ?? "libavcodec not loaded")")
    #expect(try MediaProbe.info(path: mp4).frameCount == 9)
  }

  /// Where FFmpeg's libraries cannot be opened (here a libavutil the
  /// dynamic linker finds first and cannot load), a video is an error that
  /// names the file and leaves nothing, and everything else still works.
  @Test func withoutFFmpegAVideoIsAnErrorAndTheRestWorks() throws {
    let dir = try PipelineCommandTests.folder("startup-missing")
    let scene = try PipelineCommandTests.scene(in: dir)
    let libraries = dir.appendingPathComponent("lib")
    try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
    for name in ["libavutil.so.57", "libavutil.so.58", "libavutil.so.59", "libavutil.so.60"] {
      try Data().write(to: libraries.appendingPathComponent(name))
    }
    let environment = ["LD_LIBRARY_PATH": libraries.path]
    for name in ["a.mp4", "a.webm"] {
      let out = dir.appendingPathComponent(name).path
      let r = try RenderBinary.run([scene, "--fps", "5", "--quiet", "-o", out], environment: environment)
      #expect(r.status != 0 && r.status < 128, "exit \(r.status): \(r.stderr.prefix(300))")
      #expect(
        r.stderr.hasPrefix("render: error: \(out): FFmpeg's libraries could not be opened (\(libraries.path)/libavutil.so."),
        "\(r.stderr.prefix(300))")
      #expect(!FileManager.default.fileExists(atPath: out))
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.contains(".tmp") && !$0.hasPrefix(".") })
    }
    let gif = dir.appendingPathComponent("a.gif").path
    let r = try RenderBinary.run([scene, "--fps", "5", "--quiet", "-o", gif], environment: environment)
    #expect(r.status == 0, "\(r.stderr.prefix(300))")
    #expect(FileManager.default.fileExists(atPath: gif))
  }

  /// The machine's fonts are read only for a scene with text: fontconfig's
  /// own trace (FC_DEBUG=1024, on standard output) says when it loads its
  /// configuration.
  @Test func onlyTextReadsTheMachinesFonts() throws {
    let dir = try PipelineCommandTests.folder("startup-fonts")
    let shapes = try PipelineCommandTests.scene(in: dir)
    let text = dir.appendingPathComponent("text.json").path
    try #"{"version": 1, "size": [120, 40], "layers": [{"type": "text", "text": "Hi", "position": [60, 20]}]}"#
      .write(toFile: text, atomically: true, encoding: .utf8)
    for (scene, reads) in [(shapes, false), (text, true)] {
      let r = try RenderBinary.run([scene, "--fps", "10", "--null", "--quiet"], environment: ["FC_DEBUG": "1024"])
      #expect(r.status == 0, "\(r.stderr.suffix(500))")
      #expect(r.stdout.contains("Loading config file") == reads, "\(scene): \(r.stdout.prefix(300))")
    }
  }

  /// `render --version` names the binary by the linker's build ID, as
  /// binutils' readelf reads it from the ELF notes.
  static let readelf = "/usr/bin/readelf"
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: readelf), "readelf (Debian's binutils) is not installed"))
  func versionNamesTheBuildID() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.readelf)
    process.arguments = ["-n", RenderBinary.url.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let notes = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let line = notes.split(separator: "\n").first { $0.contains("Build ID:") }
    let id = try #require(line?.split(separator: " ").last.map(String.init), "readelf finds no build ID: \(notes.prefix(300))")
    let r = try RenderBinary.run(["--version"])
    #expect(r.status == 0)
    #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(" build \(id)"), "\(r.stdout) against \(id)")
  }
}
