import ArgumentParser
import Dispatch
import Foundation
import Jobs
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import SceneModel
import Synchronization
import Syntax
import VideoOutput

/// `render diff A.json B.json`: both scenes rendered at the same times and
/// compared frame by frame, as Playwright's `toHaveScreenshot` compares
/// screenshots (docs/cli.md, "render diff").
struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render two scenes at the same times and report the frames that differ (exit 1 when some do).")

  @Argument(help: "The first scene (the baseline).")
  var a: String

  @Argument(help: "The second scene.")
  var b: String

  @Option(help: "Frames per second compared: a number or a ratio A/B.", transform: FrameRate.argument)
  var fps = FrameRate.sceneDefault

  @OptionGroup var range: TimeRange

  @OptionGroup var look: Look

  @OptionGroup var scaleOption: ScaleOption

  @OptionGroup var allowance: DiffAllowance

  @Option(name: [.short, .customLong("output")], help: "A report folder: summary.md, diff.png (the most different frame) and diff.mp4.")
  var output: String?

  @OptionGroup var workers: Workers

  @OptionGroup var quietFlag: Quiet

  /// {"differs", "frames", "differing": [{"from", "to"}], "worst": {"t", "pixels", "maxLevel"}}.
  @OptionGroup var jsonFlag: JSONSummary

  func run() throws {
    Signals.install()
    let ra = try SceneFile.loadOrReport(a, appearance: look.chosen), rb = try SceneFile.loadOrReport(b, appearance: look.chosen)
    SceneFile.warn(ra, file: a, quiet: quietFlag.quiet)
    SceneFile.warn(rb, file: b, quiet: quietFlag.quiet)
    try Frames.checkSize(ra, scale: scaleOption.scale)
    let report = output.map { DiffReport(folder: $0) }
    let comparison: FrameComparison
    do {
      comparison = try FrameComparison.compare(
        ra, rb, fps: fps, from: range.from, to: range.to, scale: scaleOption.scale, rule: allowance.rule, workers: workers.jobs, report: report,
        cancellation: Signals.cancellation)
    } catch {
      switch error {
      case .sizes(let sa, let sb):
        throw Failure.usage("the scenes differ in size: \(a) is \(sa.width)×\(sa.height) pixels, \(b) \(sb.width)×\(sb.height)")
      case .render(let side, let e): throw Frames.report(e, scene: side == 0 ? a : b)
      case .job(let e): throw JobRun.report(e, file: a)
      }
    }
    let summary = DiffSummary(
      differs: comparison.differs, frames: comparison.frames.count, differing: comparison.ranges, worst: comparison.worstSummary)
    if let report, let worst = comparison.worstPicture {
      do {
        try report.finish(
          worst: worst,
          markdown: Self.markdown(
            comparison, a: a, b: b, threshold: allowance.threshold, allowance: allowance.rule.allowance(pixels: comparison.framePixels)))
      } catch {
        Terminal.error("render: error: \(error)")
        throw Failure(status: .renderFailed)
      }
    }
    if jsonFlag.json {
      try Terminal.json(summary)
    } else if !quietFlag.quiet {
      let what =
        summary.differs
        ? "\(comparison.differingFrames) of \(summary.frames) frames differ" : "no frame differs (\(summary.frames) compared)"
      Terminal.error("\(a) vs \(b): \(what)" + (summary.differing.isEmpty ? "" : " at " + FrameComparison.text(summary.differing)))
    }
    if summary.differs { throw Failure(status: .renderFailed) }
  }

  static func markdown(_ comparison: FrameComparison, a: String, b: String, threshold: Int, allowance: Int) -> String {
    let s = comparison
    var text = "# render diff\n\n`\(a)` → `\(b)`\n\n"
    text += "\(s.frames.count) frames compared; a pixel differs by more than \(threshold) levels, a frame when more than \(allowance) pixels do.\n\n"
    if s.differs {
      text += "**\(comparison.differingFrames) frames differ**, at:\n\n"
      for r in s.ranges { text += String(format: "- %.3f s – %.3f s\n", r.from, r.to) }
    } else {
      text += "**No frame differs.**\n"
    }
    if let w = s.worstSummary {
      text += String(format: "\nThe most different frame, at %.3f s: %d pixels, up to %d levels.\n\n", w.t, w.pixels, w.maxLevel)
      text += "![A, B and their difference](diff.png)\n\nEvery frame side by side: [diff.mp4](diff.mp4).\n"
    }
    return text
  }
}

/// `render diff --json`.
struct DiffSummary: Encodable {
  var differs: Bool
  var frames: Int
  var differing: [FrameComparison.Range]
  var worst: FrameComparison.Worst?
}
