import ArgumentParser
import Dispatch
import Foundation
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import Synchronization
import VideoOutput

/// When a pixel and a frame differ, as `render diff` and `render batch
/// --baseline` both judge it (Playwright's `toHaveScreenshot` allowances).
struct DiffAllowance: ParsableArguments {
  @Option(help: "A pixel differs when its largest channel difference is more than this many levels (0…255).")
  var threshold: Int = 2

  @Option(name: .customLong("max-diff-pixels"), help: "Differing pixels a frame may have and still match.")
  var maxDiffPixels: Int?

  @Option(name: .customLong("max-diff-ratio"), help: "Differing pixels a frame may have, as a share of its pixels (0…1).")
  var maxDiffRatio: Double?

  func validate() throws {
    guard (0...255).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 255 levels, got \(threshold)") }
    if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must be 0 or more") }
    if let maxDiffRatio, !(maxDiffRatio >= 0 && maxDiffRatio <= 1) { throw ValidationError("--max-diff-ratio must be between 0 and 1") }
  }

  /// The differing pixels a frame of `pixels` pixels may have: the larger
  /// allowance when both are given, 0 when neither.
  func pixels(of pixels: Int) -> Int {
    max(maxDiffPixels ?? 0, Int(((maxDiffRatio ?? 0) * Double(pixels)).rounded(.down)))
  }
}

/// Two scenes rendered at the same times and compared frame by frame, in
/// batches of one frame per worker so memory stays a few frames.
struct SceneComparison {
  /// One compared frame.
  struct Frame {
    var t: Double
    var diff: PixelDiff
    var differs: Bool
  }

  var frames: [Frame] = []
  /// The pixels of one frame.
  var framePixels = 0
  /// The frame with the most differing pixels.
  var worst: Int?
  /// Its side-by-side picture (kept only when a report is written).
  var worstPicture: Pixmap?

  /// What keeps two scenes from being compared at all.
  enum Problem: Error, CustomStringConvertible {
    /// Different pixel sizes: "a is W×H pixels, b W×H".
    case sizes(a: (width: Int, height: Int), b: (width: Int, height: Int))
    /// The options ask for no frames or for too many.
    case usage(String)

    var description: String {
      switch self {
      case .sizes(let a, let b): "the size changed from \(a.width)×\(a.height) to \(b.width)×\(b.height) pixels"
      case .usage(let message): message
      }
    }
  }

  /// A frame of scene `side` (0: a, 1: b) failed to render.
  struct SceneFailure: Error {
    var side: Int
    var error: RenderError
  }

  /// `a` and `b` rendered at the same times — `fps` (not slowed) over
  /// `from` … `to`, by default the longer duration — and compared frame by
  /// frame, as `render diff` and `render batch --baseline` do. `report`
  /// makes the pictures' report for the frame size, if any: every frame's
  /// side-by-side goes into it, and the caller finishes or aborts it.
  /// Interrupted: temporary files removed, the process exits.
  static func compare(
    _ a: SceneRenderer, _ b: SceneRenderer, fps: FrameRate, from: Double?, to: Double?, scale: Double?, allowance: DiffAllowance,
    jobs: Int?, report: ((_ width: Int, _ height: Int) throws -> DiffReport)?
  ) throws -> (comparison: SceneComparison, report: DiffReport?) {
    let sa = a.pixelSize(scale: scale), sb = b.pixelSize(scale: scale)
    guard sa == sb else { throw Problem.sizes(a: sa, b: sb) }
    let schedule: FrameSchedule
    do {
      schedule = try RenderOptions.schedule(from: from, to: to, duration: max(a.duration, b.duration), rate: fps, slow: 1)
    } catch let error as ValidationError {
      throw Problem.usage(error.message)
    }
    let pictures = try report?(sa.width, sa.height)
    guard
      let comparison = try run(
        a, b, schedule: schedule, scale: scale, threshold: allowance.threshold, allowance: allowance.pixels(of: sa.width * sa.height),
        workers: RenderOptions.workers(jobs), report: pictures)
    else {
      Terminal.error("render: interrupted; temporary files removed, existing outputs untouched")
      Signals.exitInterrupted(Signals.cancellation.reason)
    }
    return (comparison, pictures)
  }

  /// Compares `a` with `b` at the times of `schedule` (both the same pixel
  /// size at `scale`), appending each side-by-side to `report`'s video.
  /// Returns nil when interrupted.
  static func run(
    _ a: SceneRenderer, _ b: SceneRenderer, schedule: FrameSchedule, scale: Double?, threshold: Int, allowance: Int, workers: Int,
    report: DiffReport?
  ) throws -> SceneComparison? {
    let (w, h) = a.pixelSize(scale: scale)
    let cacheA = TileCache(width: w, height: h), cacheB = TileCache(width: w, height: h)
    var result = SceneComparison()
    result.framePixels = w * h
    var start = 0
    while start < schedule.count {
      let count = min(workers, schedule.count - start)
      let pairs = Mutex<[(RenderedFrame, RenderedFrame, PixelDiff)?]>(Array(repeating: nil, count: count))
      let failure = Mutex<SceneFailure?>(nil)
      let first = start
      DispatchQueue.concurrentPerform(iterations: count) { k in
        let t = schedule.time(first + k)
        var side = 0
        do throws(RenderError) {
          let fa = try a.renderFrame(at: t, scale: scale, cache: cacheA)
          side = 1
          let fb = try b.renderFrame(at: t, scale: scale, cache: cacheB)
          let d = PixelDiff(fa, fb, threshold: threshold)
          pairs.withLock { $0[k] = (fa, fb, d) }
        } catch {
          failure.withLock { $0 = $0 ?? SceneFailure(side: side, error: error) }
        }
      }
      if let failure = failure.withLock({ $0 }) {
        report?.abort()
        throw failure
      }
      for (k, pair) in pairs.withLock({ $0 }).enumerated() {
        guard let (fa, fb, d) = pair else { continue }
        let i = start + k
        result.frames.append(Frame(t: schedule.time(i), diff: d, differs: d.pixels > allowance))
        let isWorst = result.worst == nil || d.pixels > result.frames[result.worst!].diff.pixels
        if isWorst { result.worst = i }
        if let report {
          let picture = PixelDiff.sideBySide(fa.pixmap, fb.pixmap, threshold: threshold)
          if isWorst { result.worstPicture = picture }
          do { try report.append(picture) } catch {
            report.abort()
            throw error
          }
        }
      }
      if Signals.cancellation.isCancelled {
        report?.abort()
        return nil
      }
      start += count
    }
    return result
  }

  var differs: Bool { frames.contains(where: \.differs) }

  /// How many frames differ.
  var differingFrames: Int { frames.filter(\.differs).count }

  /// Runs of consecutive differing frames, as time ranges.
  var ranges: [DiffSummary.Range] {
    var out: [DiffSummary.Range] = []
    var open: Double?
    for (i, f) in frames.enumerated() {
      if f.differs, open == nil { open = f.t }
      if let o = open, !f.differs || i == frames.count - 1 {
        out.append(.init(from: o, to: f.differs ? f.t : frames[i - 1].t))
        open = nil
      }
    }
    return out
  }

  var summary: DiffSummary {
    DiffSummary(
      differs: differs, frames: frames.count, differing: ranges,
      worst: worst.map { w in DiffSummary.Worst(t: frames[w].t, pixels: frames[w].diff.pixels, maxLevel: frames[w].diff.maxLevel) })
  }

  /// The ranges as text: "0.100–0.450 s, 1.000–1.200 s".
  static func text(_ ranges: [DiffSummary.Range]) -> String {
    ranges.map { String(format: "%.3f–%.3f s", $0.from, $0.to) }.joined(separator: ", ")
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

/// A comparison's pictures in a folder: diff.mp4 (every frame side by
/// side), diff.png (the most different frame) and summary.md, each written
/// atomically.
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

  /// Writes the video, the worst frame and the summary; a failure is
  /// reported (`render: error: …`) and ends the command.
  func finish(worst: Pixmap, markdown: String?) throws(Failure) {
    do {
      try writer?.finish()
      writer = nil
      try video.commit()
      try TemporaryFile.write(to: URL(fileURLWithPath: folder).appendingPathComponent("diff.png").path) { path in try PNG.write(worst, to: path) }
      if let markdown { try Self.write(markdown, to: URL(fileURLWithPath: folder).appendingPathComponent("summary.md").path) }
    } catch {
      Terminal.error("render: error: \(error)")
      throw Failure(status: .renderFailed)
    }
  }

  static func write(_ text: String, to file: String) throws {
    try TemporaryFile.write(to: file) { path in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
  }

  /// Removes the unfinished video; with `root`, also the folders made for
  /// it below `root` that are left empty.
  func abort(keepingFoldersDownTo root: String? = nil) {
    writer = nil
    video.remove()
    guard let root else { return }
    let top = URL(fileURLWithPath: root).standardizedFileURL.path
    var folder = URL(fileURLWithPath: self.folder).standardizedFileURL
    while folder.path.hasPrefix(top + "/"), rmdir(folder.path) == 0 { folder.deleteLastPathComponent() }
  }
}
