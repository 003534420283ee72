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

  @Option(help: "A pixel differs when its largest channel difference is more than this many levels (0…255).")
  var threshold: Int = 2

  @Option(name: .customLong("max-diff-pixels"), help: "Differing pixels a frame may have and still match.")
  var maxDiffPixels: Int?

  @Option(name: .customLong("max-diff-ratio"), help: "Differing pixels a frame may have, as a share of its pixels (0…1).")
  var maxDiffRatio: Double?

  @Option(name: [.short, .customLong("output")], help: "A report folder: summary.md, diff.png (the most different frame) and diff.mp4.")
  var output: String?

  @Option(help: "Worker threads (default: all cores).")
  var jobs: Int?

  @Flag(help: "No progress or warnings.")
  var quiet = false

  @Flag(help: "Print {\"differs\", \"frames\", \"differing\": [{\"from\", \"to\"}], \"worst\": {\"t\", \"pixels\", \"maxLevel\"}}.")
  var json = false

  func validate() throws {
    guard (0...255).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 255 levels, got \(threshold)") }
    if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must be 0 or more") }
    if let maxDiffRatio, !(maxDiffRatio >= 0 && maxDiffRatio <= 1) { throw ValidationError("--max-diff-ratio must be between 0 and 1") }
    try RenderOptions.checkScale(scale)
    if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
  }

  /// One compared frame.
  struct Frame {
    var t: Double
    var diff: PixelDiff
    var differs: Bool
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
    let allowance = max(maxDiffPixels ?? 0, Int(((maxDiffRatio ?? 0) * Double(sa.width * sa.height)).rounded(.down)))
    let report = try output.map { folder throws(Failure) in try DiffReport(folder: folder, width: sa.width, height: sa.height, fps: fps) }

    let workers = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    let cacheA = TileCache(width: sa.width, height: sa.height), cacheB = TileCache(width: sa.width, height: sa.height)
    var frames: [Frame] = []
    var worst: (index: Int, a: RenderedFrame, b: RenderedFrame)?
    var start = 0
    // In batches of one frame per worker: memory stays a few frames.
    while start < schedule.count {
      let count = min(workers, schedule.count - start)
      let results = Mutex<[(RenderedFrame, RenderedFrame, PixelDiff)?]>(Array(repeating: nil, count: count))
      let failure = Mutex<RenderError?>(nil)
      let first = start
      DispatchQueue.concurrentPerform(iterations: count) { k in
        let t = schedule.time(first + k)
        do throws(RenderError) {
          let fa = try ra.renderFrame(at: t, scale: scale, cache: cacheA)
          let fb = try rb.renderFrame(at: t, scale: scale, cache: cacheB)
          let d = PixelDiff(fa, fb, threshold: threshold)
          results.withLock { $0[k] = (fa, fb, d) }
        } catch {
          failure.withLock { $0 = $0 ?? error }
        }
      }
      if let error = failure.withLock({ $0 }) {
        report?.abort()
        throw Frames.report(error, scene: a)
      }
      for (k, result) in results.withLock({ $0 }).enumerated() {
        guard let (fa, fb, d) = result else { continue }
        let i = start + k
        frames.append(Frame(t: schedule.time(i), diff: d, differs: d.pixels > allowance))
        if worst == nil || d.pixels > frames[worst!.index].diff.pixels { worst = (i, fa, fb) }
        if let report {
          do { try report.append(PixelDiff.sideBySide(fa.pixmap, fb.pixmap, threshold: threshold)) } catch {
            report.abort()
            Terminal.error("render: error: \(error)")
            throw Failure(status: .renderFailed)
          }
        }
      }
      if Signals.cancellation.isCancelled {
        report?.abort()
        Terminal.error("render: interrupted; temporary files removed, existing outputs untouched")
        Foundation.exit(Signals.exitStatus(Signals.cancellation.reason))
      }
      start += count
    }

    let ranges = Self.ranges(frames)
    let summary = DiffSummary(
      differs: frames.contains(where: \.differs), frames: frames.count, differing: ranges.map { DiffSummary.Range(from: $0.0, to: $0.1) },
      worst: worst.map { w in DiffSummary.Worst(t: frames[w.index].t, pixels: frames[w.index].diff.pixels, maxLevel: frames[w.index].diff.maxLevel) })
    if let report, let worst {
      do {
        try report.finish(
          worst: PixelDiff.sideBySide(worst.a.pixmap, worst.b.pixmap, threshold: threshold),
          markdown: Self.markdown(summary, a: a, b: b, threshold: threshold, allowance: allowance, frames: frames))
      } catch {
        Terminal.error("render: error: \(error)")
        throw Failure(status: .renderFailed)
      }
    }
    if json {
      try Terminal.json(summary)
    } else if !quiet {
      let what =
        summary.differs ? "\(frames.filter(\.differs).count) of \(frames.count) frames differ" : "no frame differs (\(frames.count) compared)"
      Terminal.error("\(a) vs \(b): \(what)" + ranges.map { String(format: " %.3f–%.3f s", $0.0, $0.1) }.joined(separator: ","))
    }
    if summary.differs { throw Failure(status: .renderFailed) }
  }

  /// Runs of consecutive differing frames, as time ranges.
  static func ranges(_ frames: [Frame]) -> [(Double, Double)] {
    var out: [(Double, Double)] = []
    var open: Double?
    for (i, f) in frames.enumerated() {
      if f.differs, open == nil { open = f.t }
      if let o = open, !f.differs || i == frames.count - 1 {
        out.append((o, f.differs ? f.t : frames[i - 1].t))
        open = nil
      }
    }
    return out
  }

  static func markdown(_ s: DiffSummary, a: String, b: String, threshold: Int, allowance: Int, frames: [Frame]) -> String {
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

/// `render diff --json`.
struct DiffSummary: Encodable {
  struct Range: Encodable {
    var from: Double
    var to: Double
  }
  struct Worst: Encodable {
    var t: Double
    var pixels: Int
    var maxLevel: Int
  }
  var differs: Bool
  var frames: Int
  var differing: [Range]
  var worst: Worst?
}

/// `render diff -o REPORT/`: summary.md, diff.png and diff.mp4, each
/// written atomically.
final class DiffReport {
  let folder: String
  let video: TemporaryFile
  var writer: MP4Writer?

  init(folder: String, width: Int, height: Int, fps: FrameRate) throws(Failure) {
    self.folder = folder
    do {
      video = try TemporaryFile(for: URL(fileURLWithPath: folder).appendingPathComponent("diff.mp4").path)
      writer = try MP4Writer(path: video.path, width: 3 * width, height: height, fps: (fps.frames, fps.seconds))
    } catch {
      Terminal.error("render: error: \(folder): \(error)")
      throw Failure(status: .renderFailed)
    }
  }

  func append(_ frame: Pixmap) throws {
    try writer?.append(YUVConverter.bt709(frame))
  }

  func finish(worst: Pixmap, markdown: String) throws {
    try writer?.finish()
    writer = nil
    try video.commit()
    try TemporaryFile.write(to: URL(fileURLWithPath: folder).appendingPathComponent("diff.png").path) { path in try PNG.write(worst, to: path) }
    try TemporaryFile.write(to: URL(fileURLWithPath: folder).appendingPathComponent("summary.md").path) { path in
      try Data(markdown.utf8).write(to: URL(fileURLWithPath: path))
    }
  }

  func abort() {
    writer = nil
    video.remove()
  }
}
