import Jobs
import Pipeline
import Primitives
import TestSupport
import Testing

/// `--max-size`'s ladder as docs/cli.md states it: lower rates (30, 24, 20,
/// 15) at the output's own scale, then 0.85, 0.7, 0.6, 0.5 of it at the
/// lowest rate, then the format's colour steps; each output from its own
/// rate (capped at its format's) and scale.
@Suite struct SizeLadderTests {
  static func output(_ format: OutputFormat, scale: Double? = nil, fps: FrameRate? = nil) -> RenderJob.Output {
    RenderJob.Output(target: OutputTarget(format: format, destination: .file("x." + format.fileExtension)), scale: scale, fps: fps)
  }

  @Test func onlyTheFormatsWithABudgetHaveALadder() {
    #expect(OutputFormats.all.filter { $0.sizeBudget != nil }.map(\.name) == ["gif", "webp"])
    #expect(
      SizeLadder(
        Self.output(OutputFormats.mp4), request: RenderRequest(outputs: .targets([])),
        source: TestSource(name: "blank", scale: 2, size: Vector2(10, 10))) == nil)
  }

  @Test func aGIFLowersRateThenScaleThenPalette() throws {
    var request = RenderRequest(outputs: .targets([]))
    request.fps = FrameRate(60)
    let ladder = try #require(
      SizeLadder(Self.output(OutputFormats.gif), request: request, source: TestSource(name: "blank", scale: 2, size: Vector2(10, 10))))
    // 60 fps is over a GIF's 50: the ladder starts from 50.
    #expect(ladder.rate == FrameRate(50) && ladder.scale == 2)
    let steps = ladder.attempts.map { ladder.describe($0) }
    #expect(
      steps == [
        "30 fps", "24 fps", "20 fps", "15 fps", "15 fps, scale 1.7", "15 fps, scale 1.4", "15 fps, scale 1.2", "15 fps, scale 1",
        "15 fps, scale 1, 128 colours", "15 fps, scale 1, 64 colours", "15 fps, scale 1, 32 colours",
      ])
  }

  @Test func aWebPLowersItsQualityBelowTheOneAsked() throws {
    var request = RenderRequest(outputs: .targets([]))
    request.encoding.quality = 70
    // Its own [scale=1,fps=20]: only 15 fps is lower.
    let ladder = try #require(
      SizeLadder(
        Self.output(OutputFormats.webp, scale: 1, fps: FrameRate(20)), request: request,
        source: TestSource(name: "blank", scale: 2, size: Vector2(10, 10))))
    let steps = ladder.attempts.map { ladder.describe($0) }
    #expect(steps.first == "15 fps")
    #expect(steps.suffix(3) == ["15 fps, scale 0.5, quality 60", "15 fps, scale 0.5, quality 45", "15 fps, scale 0.5, quality 30"])
    #expect(ladder.describe(nil) == "as asked")
  }
}
