import Foundation
import Pipeline
import Raster
import Render
import SceneModel
import Testing

/// The output registry: which format and destination each `-o` and
/// `--format` names, by the table the command line reads.
@Suite struct OutputRegistryTests {
  func targets(_ output: String?, formats: [String]? = nil) throws -> [(String, OutputDestination)] {
    try OutputTarget.targets(name: "scene", output: output, formats: formats, folder: "renders").map { ($0.format.name, $0.destination) }
  }

  @Test func eachExtensionPicksItsFormat() throws {
    // Paths made from the folder keep it as given, as the outputs' paths print.
    func file(_ path: String) -> OutputDestination { .file(path) }
    #expect(try targets(nil).map(\.0) == ["mp4"] && (try targets(nil))[0].1 == file("renders/scene.mp4"))
    #expect(try targets("a/b.gif")[0] == ("gif", .file("a/b.gif")))
    #expect(try targets("x.MP4")[0] == ("mp4", .file("x.MP4")))
    #expect(try targets("still.png")[0] == ("png", .file("still.png")))
    #expect(try targets("frames/")[0] == ("png", .folder("frames/")))
    #expect(try targets("f_%05d.png")[0] == ("png", .pattern("f_%05d.png")))
    let all = try targets("out/", formats: ["gif", "png", "mp4"])
    #expect(all.map(\.0) == ["gif", "png", "mp4"])
    #expect(all[0].1 == file("out/scene.gif") && all[1].1 == .folder("out/") && all[2].1 == file("out/scene.mp4"))
    // The formats docs/cli.md lists, each by its name and its extension.
    #expect(OutputFormats.names == ["mp4", "gif", "png", "webp", "apng", "mov", "webm"])
    #expect(OutputFormats.names.map { OutputFormats.named($0)?.fileExtension } == ["mp4", "gif", "png", "webp", "apng", "mov", "webm"])
    #expect(OutputFormats.named("avi") == nil)
  }

  @Test func unknownOutputsAreUsageErrors() {
    #expect(throws: OutputError.self) { try targets("x.avi") }
    #expect(throws: OutputError.self) { try targets("x.gif", formats: ["mp4"]) }
  }

  /// Only a single file of a sequence format is a still (the binary's
  /// behaviour: PipelineCommandTests.aStillIsOneFrame).
  @Test func aSingleFileOfASequenceFormatIsAStill() throws {
    let target = try OutputTarget.targets(name: "s", output: "s.png", formats: nil, folder: ".")[0]
    #expect(target.isStill)
    #expect(!(try OutputTarget.targets(name: "s", output: "d/", formats: nil, folder: "."))[0].isStill)
  }
}

/// A cancelled token stops the render between frames: the pipeline throws
/// `cancelled` with the reason, and every sink is aborted.
@Suite struct CancellationTests {
  final class CancellingSink: FrameSink, @unchecked Sendable {
    let schedule = FrameSchedule(from: 0, to: 10, rate: FrameRate(30), slow: 1)
    let token: CancellationToken
    var consumed = 0, aborted = false, finished = false
    init(token: CancellationToken) { self.token = token }
    func prepare(_ frame: RenderedFrame, index: Int) throws {}
    func consume(_ frame: Void, index: Int) throws {
      consumed += 1
      if consumed == 5 { token.cancel(reason: 15) }
    }
    func finish() throws -> OutputSummary? {
      finished = true
      return nil
    }
    func abort() { aborted = true }
  }

  @Test func aCancelledRenderStopsAndAbortsItsSinks() throws {
    let scene = try SceneDecoder.decode(
      Array(#"{"version": 1, "size": [8, 8], "layers": [{"type": "rect", "size": [8, 8], "position": [4, 4], "fill": "red"}]}"#.utf8),
      file: "t.json", defaultName: "t")
    let token = CancellationToken()
    let sink = CancellingSink(token: token)
    let pipeline = FramePipeline(source: SceneRenderer(scene: scene), scale: 1, sinks: [sink], workers: 2, cancellation: token)
    #expect {
      _ = try pipeline.run()
    } throws: { error in
      guard case .cancelled(let reason) = error as? FramePipeline.Failure else { return false }
      return reason == 15
    }
    #expect(sink.aborted && !sink.finished && sink.consumed < pipeline.jobs.count, "\(sink.consumed) of \(pipeline.jobs.count) frames")
  }

  @Test func theFirstReasonStays() {
    let token = CancellationToken()
    #expect(!token.isCancelled && token.reason == 0)
    token.cancel(reason: 2)
    token.cancel(reason: 15)
    #expect(token.isCancelled && token.reason == 2)
  }

  /// Only a GIF over 10 MB (10 000 000 bytes) gets the attachment warning.
  @Test func aGIFOverTenMegabytesIsHardToShare() {
    #expect(OutputFormats.gif.sizeWarning(bytes: 10_000_000) == nil)
    #expect(OutputFormats.gif.sizeWarning(bytes: 12_340_000)?.hasPrefix("it is 12.3 MB, over GitHub's 10 MB limit") == true)
    #expect(OutputFormats.mp4.sizeWarning(bytes: 50_000_000) == nil)
  }

  /// `--fps` as docs/cli.md states it: NTSC spellings are n·1000/1001, other
  /// decimals their exact fraction, ratios in lowest terms, JSON's number
  /// notation (so `6e1` is 60 and `30.` is not a number).
  @Test(arguments: [
    ("60", 60, 1), ("12.5", 25, 2), ("29.97", 30000, 1001), ("23.976", 24000, 1001), ("59.94", 60000, 1001),
    ("119.88", 120000, 1001), ("30000/1001", 30000, 1001), ("60/2", 30, 1), ("6e1", 60, 1), ("0.5", 1, 2), ("1000", 1000, 1),
  ])
  func frameRatesAreExactFractions(_ text: String, _ frames: Int, _ seconds: Int) throws {
    let rate = try #require(FrameRate(parsing: text))
    #expect(rate.frames == frames && rate.seconds == seconds)
  }

  @Test(arguments: ["0", "-5", "1001", "30.", "1/0", "0/5", "abc", "", "30/1001/2", "2000/1", "1e400", "1.2345678"])
  func badFrameRatesAreRefused(_ text: String) {
    #expect(FrameRate(parsing: text) == nil)
  }
}
