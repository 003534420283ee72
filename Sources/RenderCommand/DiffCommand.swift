import ArgumentParser
import Dispatch
import Foundation
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
  var fps = FrameRate(60)

  @OptionGroup var range: TimeRange

  @Option(help: "Pixels per point (overrides the scenes').")
  var scale: Double?

  @OptionGroup var allowance: DiffAllowance

  @Option(name: [.short, .customLong("output")], help: "A report folder: summary.md, diff.png (the most different frame) and diff.mp4.")
  var output: String?

  @Option(help: "Worker threads (default: all cores).")
  var jobs: Int?

  @Flag(help: "No progress or warnings.")
  var quiet = false

  @Flag(help: "Print {\"differs\", \"frames\", \"differing\": [{\"from\", \"to\"}], \"worst\": {\"t\", \"pixels\", \"maxLevel\"}}.")
  var json = false

  func validate() throws {
    try RenderOptions.checkScale(scale)
    if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
  }

  func run() throws {
    Signals.install()
    for path in [a, b] where !FileManager.default.isReadableFile(atPath: path) {
      Terminal.error("render: error: cannot read \(path): no such file")
      throw Failure(status: .usage)
    }
    let ra = try SceneFile.loadOrReport(a), rb = try SceneFile.loadOrReport(b)
    let sa = ra.pixelSize(scale: scale), sb = rb.pixelSize(scale: scale)
    guard sa == sb else {
      Terminal.error("render: error: the scenes differ in size: \(a) is \(sa.width)×\(sa.height) pixels, \(b) \(sb.width)×\(sb.height)")
      throw Failure(status: .usage)
    }
    try Frames.checkSize(ra, scale: scale)
    let duration = max(ra.duration, rb.duration)
    let (t0, t1) = try range.resolve(duration: duration)
    let schedule = FrameSchedule(from: t0, to: t1, rate: fps, slow: 1)
    guard schedule.frameCountEstimate <= Double(SceneLimits.maximumFrames) else {
      Terminal.error("render: error: \(formatNumber(schedule.frameCountEstimate)) frames is over the limit of \(SceneLimits.maximumFrames)")
      throw Failure(status: .usage)
    }
    let threshold = allowance.threshold, allowed = allowance.pixels(of: sa.width * sa.height)
    let report = try output.map { folder throws(Failure) in try DiffReport(folder: folder, width: sa.width, height: sa.height, fps: fps) }
    let comparison: SceneComparison
    do {
      guard
        let compared = try SceneComparison.run(
          ra, rb, schedule: schedule, scale: scale, threshold: threshold, allowance: allowed,
          workers: max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount), report: report)
      else {
        Terminal.error("render: interrupted; temporary files removed, existing outputs untouched")
        Foundation.exit(Signals.exitStatus(Signals.cancellation.reason))
      }
      comparison = compared
    } catch let error as RenderError {
      throw Frames.report(error, scene: a)
    } catch {
      Terminal.error("render: error: \(error)")
      throw Failure(status: .renderFailed)
    }

    let summary = comparison.summary
    if let report, let worst = comparison.worstPicture(threshold: threshold) {
      do {
        try report.finish(
          worst: worst, markdown: Self.markdown(summary, a: a, b: b, threshold: threshold, allowance: allowed, frames: comparison.frames))
      } catch {
        Terminal.error("render: error: \(error)")
        throw Failure(status: .renderFailed)
      }
    }
    if json {
      try Terminal.json(summary)
    } else if !quiet {
      let what =
        summary.differs
        ? "\(comparison.frames.filter(\.differs).count) of \(summary.frames) frames differ" : "no frame differs (\(summary.frames) compared)"
      Terminal.error("\(a) vs \(b): \(what)" + (summary.differing.isEmpty ? "" : " at " + SceneComparison.text(summary.differing)))
    }
    if summary.differs { throw Failure(status: .renderFailed) }
  }

  static func markdown(_ s: DiffSummary, a: String, b: String, threshold: Int, allowance: Int, frames: [SceneComparison.Frame]) -> String {
    var text = "# render diff\n\n`\(a)` → `\(b)`\n\n"
    text += "\(frames.count) frames compared; a pixel differs by more than \(threshold) levels, a frame when more than \(allowance) pixels do.\n\n"
    if s.differs {
      text += "**\(frames.filter(\.differs).count) frames differ**, at:\n\n"
      for r in s.differing { text += String(format: "- %.3f s – %.3f s\n", r.from, r.to) }
    } else {
      text += "**No frame differs.**\n"
    }
    if let w = s.worst {
      text += String(format: "\nThe most different frame, at %.3f s: %d pixels, up to %d levels.\n\n", w.t, w.pixels, w.maxLevel)
      text += "![A, B and their difference](diff.png)\n\nEvery frame side by side: [diff.mp4](diff.mp4).\n"
    }
    return text
  }
}
