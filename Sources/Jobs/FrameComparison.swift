import Foundation
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import SceneModel
import Synchronization
import VideoOutput

/// Two sources of one pixel size at the same times: a source made of two,
/// whose frame shows `a` and `b` side by side, each drawn exactly as it is
/// alone (`RenderedFrame.parts` keeps both), so that comparing them frame by
/// frame is rendering this source through the pipeline.
public struct FramePair: FrameSource {
  public let a: any FrameSource
  public let b: any FrameSource

  /// The side whose frame failed to render first (0: a, 1: b).
  let failure = FailedSide()

  final class FailedSide: Sendable {
    let side = Mutex<Int?>(nil)
  }

  public init(_ a: any FrameSource, _ b: any FrameSource) {
    self.a = a
    self.b = b
  }

  public var name: String { a.name }
  /// The longer of the two.
  public var duration: Double { max(a.duration, b.duration) }
  public var defaultScale: Double { a.defaultScale }
  public var pointSize: Vector2 { Vector2(2 * a.pointSize.x, a.pointSize.y) }
  public var background: PremultipliedColor? { a.background }
  public var appearance: Appearance { a.appearance }
  public var inputDigest: String {
    var h = SHA256()
    h.update("\(a.inputDigest) \(b.inputDigest)")
    return h.hex()
  }

  public func pixelSize(scale: Double?) -> (width: Int, height: Int) {
    let (w, h) = a.pixelSize(scale: scale ?? a.defaultScale)
    return (2 * w, h)
  }

  /// Both side by side, `b` to the right of `a`.
  public func draw(at t: Double, on list: Recording, transform: Primitives.AffineTransform, frame: Int) throws(RenderError) {
    try a.draw(at: t, on: list, transform: transform, frame: frame)
    try b.draw(at: t, on: list, transform: Primitives.AffineTransform.translation(a.pointSize.x, 0).concatenating(transform), frame: frame)
  }

  /// Each drawn alone (tiles shared through `cache`, which changes no
  /// pixel), then put side by side.
  public func renderFrame(
    at t: Double, scale: Double?, cache: TileCache?, tileSize: TileLayout, frame: Int, drawn: ((DrawnTile) -> Void)?
  ) throws(RenderError) -> RenderedFrame {
    var side = 0
    do throws(RenderError) {
      let fa = try a.renderFrame(at: t, scale: scale, cache: cache, tileSize: tileSize, frame: frame, drawn: nil)
      side = 1
      let fb = try b.renderFrame(at: t, scale: scale, cache: cache, tileSize: tileSize, frame: frame, drawn: nil)
      var pair = Self.sideBySide([fa.pixmap, fb.pixmap], tileSize: tileSize)
      pair.parts = [fa, fb]
      return pair
    } catch {
      failure.side.withLock { $0 = $0 ?? side }
      throw error
    }
  }

  /// Pictures of one height side by side, cut into tiles named by their
  /// pixels.
  static func sideBySide(_ pictures: [Pixmap], tileSize: TileLayout) -> RenderedFrame {
    let h = pictures[0].height
    var bytes: [UInt8] = []
    let width = pictures.reduce(0) { $0 + $1.width }
    bytes.reserveCapacity(4 * width * h)
    for y in 0..<h {
      for p in pictures { bytes += p.bytes[(4 * y * p.width)..<(4 * (y + 1) * p.width)] }
    }
    return RenderedFrame(picture: Pixmap(width: width, height: h, bytes: bytes), tileSize: tileSize)
  }
}

extension RenderedFrame {
  /// A picture made by other means than a recording, cut into tiles: its
  /// tiles cannot be named by what drew them, so each gets a digest no
  /// other tile has (nothing is reused for it, and nothing mistaken).
  public init(picture: Pixmap, tileSize: TileLayout) {
    let grid = TileGrid(width: picture.width, height: picture.height, layout: tileSize)
    self.init(pixmap: picture, grid: grid, tiles: (0..<grid.count).map { _ in Digester.unique() })
  }
}

/// When a pixel and a frame differ (Playwright's `toHaveScreenshot`
/// allowances): a pixel when its largest channel difference is more than
/// `threshold` levels, a frame when more pixels do than it allows.
public struct DiffRule: Sendable {
  public var threshold: Int
  /// Differing pixels a frame may have and still match, as a count and as
  /// a share of its pixels (the larger allowance when both are given, 0
  /// when neither).
  public var maxDiffPixels: Int?
  public var maxDiffRatio: Double?

  public init(threshold: Int = 2, maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil) {
    self.threshold = threshold; self.maxDiffPixels = maxDiffPixels; self.maxDiffRatio = maxDiffRatio
  }

  /// The differing pixels a frame of `pixels` pixels may have.
  public func allowance(pixels: Int) -> Int {
    max(maxDiffPixels ?? 0, Int(((maxDiffRatio ?? 0) * Double(pixels)).rounded(.down)))
  }
}

/// Two sources compared frame by frame, as `render diff` and `render batch
/// --baseline` compare them.
public struct FrameComparison: Sendable {
  /// One compared frame.
  public struct Frame: Sendable {
    public var t: Double
    public var diff: PixelDiff
    public var differs: Bool
  }

  public var frames: [Frame] = []
  /// The pixels of one frame.
  public var framePixels = 0
  /// The frame with the most differing pixels.
  public var worst: Int?
  /// Its side-by-side picture (kept only when a report is written).
  public var worstPicture: Pixmap?

  /// What keeps two sources from being compared at all.
  public enum Problem: Error, CustomStringConvertible {
    /// Different pixel sizes.
    case sizes(a: (width: Int, height: Int), b: (width: Int, height: Int))
    /// A frame of source `side` (0: a, 1: b) failed to render.
    case render(side: Int, RenderError)
    /// The options ask for no frames or too many, or an output failed.
    case job(JobError)

    public var description: String {
      switch self {
      case .sizes(let a, let b): "the size changed from \(a.width)×\(a.height) to \(b.width)×\(b.height) pixels"
      case .render(_, let e): "\(e)"
      case .job(let e): "\(e)"
      }
    }
  }

  /// `a` and `b` rendered at the same times — `fps` (not slowed) over
  /// `from` … `to`, by default the longer duration — through the pipeline
  /// and compared frame by frame. With `report`, every frame's side by
  /// side goes into its video (the caller finishes or aborts the report).
  public static func compare(
    _ a: any FrameSource, _ b: any FrameSource, fps: FrameRate, from: Double?, to: Double?, scale: Double?, rule: DiffRule, workers: Int?,
    report: DiffReport?, cancellation: CancellationToken
  ) throws(Problem) -> FrameComparison {
    let sa = a.pixelSize(scale: scale), sb = b.pixelSize(scale: scale)
    guard sa == sb else { throw .sizes(a: sa, b: sb) }
    let schedule: FrameSchedule
    do { schedule = try RenderRequest.schedule(from: from, to: to, duration: max(a.duration, b.duration), rate: fps, slow: 1) } catch {
      throw .job(error)
    }
    let sink: DiffSink
    do { sink = try DiffSink(schedule: schedule, width: sa.width, height: sa.height, rule: rule, report: report) } catch {
      throw .job(.output("\(error)"))
    }
    let pair = FramePair(a, b)
    let pipeline = FramePipeline(source: pair, scale: scale, sinks: [sink], workers: workers, cancellation: cancellation)
    do {
      _ = try pipeline.run()
    } catch {
      switch error {
      case .render(let e): throw .render(side: pair.failure.side.withLock { $0 } ?? 0, e)
      case .output(let e): throw .job(.output("\(e)"))
      case .cancelled(let signal): throw .job(.cancelled(reason: signal))
      }
    }
    return sink.result
  }

  public var differs: Bool { frames.contains(where: \.differs) }

  /// The most different frame, for `--json` and reports.
  public struct Worst: Sendable, Encodable {
    public var t: Double
    public var pixels: Int
    public var maxLevel: Int
  }

  public var worstSummary: Worst? {
    worst.map { w in Worst(t: frames[w].t, pixels: frames[w].diff.pixels, maxLevel: frames[w].diff.maxLevel) }
  }

  /// How many frames differ.
  public var differingFrames: Int { frames.filter(\.differs).count }

  /// A run of consecutive differing frames, as a time range.
  public struct Range: Sendable, Encodable {
    public var from: Double
    public var to: Double
  }

  /// Runs of consecutive differing frames, as time ranges.
  public var ranges: [Range] {
    var out: [Range] = []
    var open: Double?
    for (i, f) in frames.enumerated() {
      if f.differs, open == nil { open = f.t }
      if let o = open, !f.differs || i == frames.count - 1 {
        out.append(Range(from: o, to: f.differs ? f.t : frames[i - 1].t))
        open = nil
      }
    }
    return out
  }

  /// The ranges as text: "0.100–0.450 s, 1.000–1.200 s".
  public static func text(_ ranges: [Range]) -> String {
    ranges.map { String(format: "%.3f–%.3f s", $0.from, $0.to) }.joined(separator: ", ")
  }
}

/// Counts each pair's differing pixels on the workers and keeps the
/// results in frame order; with a report, hands each frame's side by side
/// (A, B and the heat map) to the report's MP4 sink.
final class DiffSink: FrameSink {
  let schedule: FrameSchedule
  let rule: DiffRule
  /// Differing pixels a frame may have and still match.
  let allowance: Int
  let report: DiffReport?
  let video: MP4Sink?
  private let state = Mutex(FrameComparison())

  init(schedule: FrameSchedule, width: Int, height: Int, rule: DiffRule, report: DiffReport?) throws(OutputError) {
    self.schedule = schedule
    self.rule = rule
    allowance = rule.allowance(pixels: width * height)
    self.report = report
    video = try report.map { r throws(OutputError) in
      try MP4Sink(schedule: schedule, path: r.videoPath, width: 3 * width, height: height, options: MP4Options())
    }
    state.withLock { $0.framePixels = width * height }
  }

  struct Prepared: Sendable {
    var diff: PixelDiff
    var picture: Pixmap?
    var video: VideoPicture?
  }

  func willRender(framesInFlight: Int) throws { try video?.willRender(framesInFlight: framesInFlight) }

  func prepare(_ frame: RenderedFrame, index: Int) throws -> Prepared {
    let fa = frame.parts[0], fb = frame.parts[1]
    let diff = PixelDiff(fa, fb, threshold: rule.threshold)
    guard let video else { return Prepared(diff: diff) }
    let picture = PixelDiff.sideBySide(fa.pixmap, fb.pixmap, threshold: rule.threshold)
    let tiled = RenderedFrame(picture: picture, tileSize: TileRenderer.squares)
    return Prepared(diff: diff, picture: picture, video: try video.prepare(tiled, index: index))
  }

  func consume(_ frame: Prepared, index: Int) throws {
    state.withLock { r in
      let d = frame.diff
      r.frames.append(FrameComparison.Frame(t: schedule.time(index), diff: d, differs: d.pixels > allowance))
      if r.worst == nil || d.pixels > r.frames[r.worst!].diff.pixels {
        r.worst = index
        r.worstPicture = frame.picture
      }
    }
    if let video, let picture = frame.video { try video.consume(picture, index: index) }
  }

  func finish() throws -> OutputSummary? { try video?.finish() }
  func abort() { video?.abort() }

  var result: FrameComparison { state.withLock { $0 } }
}

/// A comparison's pictures in a folder: diff.mp4 (every frame side by
/// side), diff.png (the most different frame) and summary.md, each written
/// atomically.
public final class DiffReport: Sendable {
  public let folder: String

  public init(folder: String) { self.folder = folder }

  var videoPath: String { URL(fileURLWithPath: folder).appendingPathComponent("diff.mp4").path }

  /// Writes the worst frame and the summary (the video is in place once
  /// the comparison has run).
  public func finish(worst: Pixmap, markdown: String?) throws {
    try TemporaryFile.write(to: URL(fileURLWithPath: folder).appendingPathComponent("diff.png").path) { path in try PNG.write(worst, to: path) }
    if let markdown { try Self.write(markdown, to: URL(fileURLWithPath: folder).appendingPathComponent("summary.md").path) }
  }

  /// Writes `text` to `file` atomically.
  public static func write(_ text: String, to file: String) throws {
    try TemporaryFile.write(to: file) { path in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
  }

  /// Removes the video a comparison wrote (when nothing differs, no
  /// pictures are kept); with `root`, also the folders made for it below
  /// `root` that are left empty.
  public func discard(keepingFoldersDownTo root: String? = nil) {
    unlink(videoPath)
    removeFolders(keepingFoldersDownTo: root)
  }

  /// Removes the folders made for the report below `root` that are empty
  /// (after a failed comparison, whose sink removed its own files).
  public func removeFolders(keepingFoldersDownTo root: String?) {
    guard let root else { return }
    let top = URL(fileURLWithPath: root).standardizedFileURL.path
    var folder = URL(fileURLWithPath: self.folder).standardizedFileURL
    while folder.path.hasPrefix(top + "/"), rmdir(folder.path) == 0 { folder.deleteLastPathComponent() }
  }
}
