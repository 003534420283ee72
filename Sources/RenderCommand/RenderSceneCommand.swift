import ArgumentParser
import Foundation
import PNGCodec
import Pipeline
import Raster
import Render
import Review
import SceneModel
import VideoOutput

/// `render SCENE.json [options]`: the main job. Renders the scene's frames
/// on all cores into an MP4, a GIF, a PNG sequence or several at once.
struct RenderScene: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scene",
    abstract: "Render a scene to MP4, GIF or PNGs (the default command: `render SCENE.json`).")

  /// Where outputs go without `-o`.
  static let defaultFolder = "renders"

  @Argument(help: "The scene file.")
  var scene: String

  @Option(
    name: [.short, .customLong("output")],
    help: ArgumentHelp(
      "The file to write: " + OutputFormats.all.map { ".\($0.fileExtension) (\($0.summary))" }.joined(separator: ", ")
        + ", a folder ending in / or a %05d pattern (PNG sequence). Default \(defaultFolder)/NAME.mp4."))
  var output: String?

  @OptionGroup var options: RenderOptions

  func run() throws {
    Signals.install()
    let summary = try SceneJob(path: scene, options: options, outputs: .named(output: output, folder: Self.defaultFolder)).run()
    if options.json { try Terminal.json(summary) }
  }
}

/// What one render wrote (`--json`).
struct RenderSummary: Encodable {
  var scene: String
  var frames: Int
  /// Wall-clock seconds, to the millisecond.
  var seconds: Double
  /// The process's peak resident set size so far.
  var peakMemoryBytes = Self.peakResidentBytes
  var outputs: [OutputSummary]
  /// With `--overlay`: where each part of the frame is.
  var overlay: OverlayGeometry?
  /// `render compare`: each panel's label, scene file and pixels.
  var panels: [CompareSummaryPanel]?

  init(scene: String, frames: Int, seconds: Double, outputs: [OutputSummary]) {
    self.scene = scene; self.frames = frames; self.seconds = (seconds * 1000).rounded() / 1000; self.outputs = outputs
  }

  static var peakResidentBytes: Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  }
}

/// One scene rendered with the given options: used by `render SCENE`,
/// `render still` and `render batch`. Errors are reported on standard error
/// and thrown as a `Failure` with the exit status they mean.
struct SceneJob {
  var path: String
  var options: RenderOptions
  var outputs: Outputs
  /// A scene already loaded (`render batch --cache` loads it for its
  /// key), perhaps drawn through a decoration that makes the frame
  /// (`render compare`, whose name and length replace the scene's).
  var prepared: Prepared? = nil

  struct Prepared {
    var renderer: SceneRenderer
    var decoration: (any FrameDecoration)? = nil
    var name: String? = nil
    var duration: Double? = nil
  }

  /// What the job writes.
  enum Outputs {
    /// As `-o` (nil: none given) and `--format` say, into `folder` without `-o`.
    case named(output: String?, folder: String)
    /// Exactly these (`render still`).
    case targets([OutputTarget])
  }

  func run() throws -> RenderSummary {
    let renderer = try prepared?.renderer ?? SceneFile.loadOrReport(path, appearance: options.appearance)
    let scene = renderer.scene
    let name = prepared?.name ?? scene.name
    let duration = prepared?.duration ?? renderer.duration
    let warn = { (message: String) in if !options.quiet { Terminal.warning(message) } }
    SceneFile.warn(renderer, file: path, quiet: options.quiet)
    try Frames.checkSize(renderer, scale: options.scale)
    let (w, h) = renderer.pixelSize(scale: options.scale)
    let start = Date()
    let targets: [OutputTarget]
    let schedule: FrameSchedule
    do {
      switch outputs {
      case .named(let output, let folder):
        targets = try OutputTarget.targets(
          name: name, output: output, formats: try options.format.map(RenderOptions.formats), folder: folder)
      case .targets(let given): targets = given
      }
      if targets.contains(where: \.isStill) {
        // A single still (always the only output): one frame, at --at
        // (else --from, else 0), whatever the scene's length.
        let t = options.at ?? options.from ?? 0
        schedule = FrameSchedule(from: t, to: t, rate: options.fps, slow: 1)
      } else {
        schedule = try options.schedule(duration: duration)
      }
    } catch let error as ValidationError {
      throw Failure.usage(error.message)
    } catch let error as OutputError {
      throw Failure.usage(error.message)
    }

    let overlay = try self.overlay(renderer, schedule: schedule, size: (w, h))
    let decoration: (any FrameDecoration)? = prepared?.decoration ?? overlay
    let (fw, fh) = renderer.frameSize(scale: options.scale, decoration: decoration)
    try Frames.checkSize(width: fw, height: fh, what: "the frame")
    let settings = OutputSettings(
      schedule: schedule, width: fw, height: fh, transparent: (scene.background.map { $0.alpha < 1 } ?? true) && decoration?.background == nil,
      name: name,
      mp4: MP4Options(crf: options.crf, preset: options.preset))
    if !options.null {
      for target in targets {
        for loss in target.format.losses(settings) { warn("\(target.destination.path): \(loss)") }
      }
    }
    var sinks: [any FrameSink] = []
    do {
      sinks =
        options.null
        ? [NullSink(schedule: schedule)] : try targets.map { target throws(OutputError) in try target.format.sink(to: target.destination, settings) }
    } catch {
      for sink in sinks { sink.abort() }
      Terminal.error("render: error: \(error)")
      throw Failure(status: .renderFailed)
    }

    let pipeline = FramePipeline(
      renderer: renderer, scale: options.scale, sinks: sinks, workers: options.jobs, cancellation: Signals.cancellation, decoration: decoration)
    let progress = ProgressLine(label: name, enabled: !options.quiet && isatty(STDERR_FILENO) == 1)
    let outputs: [OutputSummary]
    do {
      outputs = try pipeline.run { progress.update($0) }
      progress.finish()
    } catch {
      progress.finish()
      switch error {
      case .render(let e):
        throw Frames.report(e, scene: path)
      case .output(let e):
        Terminal.error("render: error: \(e)")
        throw Failure(status: .renderFailed)
      case .cancelled(let signal):
        Terminal.error("render: interrupted (signal \(signal)); temporary files removed, existing outputs untouched")
        exit(Signals.exitStatus(signal))
      }
    }
    let seconds = Date().timeIntervalSince(start)
    for output in outputs {
      if let warning = OutputFormats.named(output.format)?.sizeWarning(bytes: output.bytes) { warn("\(output.path): \(warning)") }
    }
    if !options.quiet && !options.json {
      for o in outputs {
        Terminal.error("wrote \(o.path) (\(o.frames) frames, \(OutputSummary.size(o.bytes))) in \(String(format: "%.1f", seconds)) s")
      }
    }
    var summary = RenderSummary(scene: path, frames: pipeline.jobs.count, seconds: seconds, outputs: outputs)
    summary.overlay = overlay.map(OverlayGeometry.init)
    return summary
  }

  /// The review overlays `--overlay` asks for, laid out for this render.
  func overlay(_ renderer: SceneRenderer, schedule: FrameSchedule, size: (Int, Int)) throws -> ReviewOverlay? {
    guard let list = options.overlay else { return nil }
    let kinds = try RenderOptions.overlays(list)
    guard !kinds.isEmpty, schedule.count > 0 else { return nil }
    let t1 = schedule.time(schedule.count - 1)
    // The chart spans --from … --to (a still's too: its playhead marks --at).
    let c0 = options.from ?? 0, c1 = max(options.to ?? renderer.duration, c0)
    var data: ChartData?
    if kinds.contains(.chart) {
      let selection = ChartData.Selection(layers: options.chartLayers, properties: options.chartProperties)
      let all = ChartData(scene: renderer.scene, timeline: renderer.timeline, from: c0, to: c1)
      try ChartCommand.checkSelection(selection, in: all)
      let chosen = all.selecting(selection)
      guard !chosen.groups.isEmpty else { throw Failure.usage("--overlay chart: \(path) animates nothing to chart") }
      data = chosen
    }
    do {
      return try ReviewOverlay(
        kinds: kinds, sceneSize: size, scale: options.scale ?? renderer.scene.scale, slow: options.slow, lastTime: t1,
        lastFrame: schedule.count - 1, chart: data, typesetter: ChartOutput.typesetter())
    } catch {
      try Frames.checkSize(width: error.width, height: error.height, what: "the frame with its chart", hint: ChartOutput.chartHint)
      return nil
    }
  }
}

/// `"overlay"` in a render's `--json`: where the scene's pixels and each
/// burn-in are, and the plot area the playhead crosses, in output pixels.
struct OverlayGeometry: Encodable {
  struct Plot: Encodable {
    var rect: [Double]
    var t: [Double]
  }
  var scene: [Int]
  var timecode: [Int]?
  var chart: [Int]?
  var plot: Plot?

  init(_ overlay: ReviewOverlay) {
    func rect(_ r: PixelRect) -> [Int] { [r.x0, r.y0, max(0, r.width), max(0, r.height)] }
    scene = rect(overlay.scene)
    timecode = overlay.timecode.map(rect)
    chart = overlay.chart.map(rect)
    plot = overlay.plot.map { Plot(rect: [$0.rect.origin.x, $0.rect.origin.y, $0.rect.size.x, $0.rect.size.y], t: [$0.t0, $0.t1]) }
  }
}

/// `NAME: 120/480 frames  58.3 fps  0:06 left` on standard error, redrawn
/// at most ten times a second, only on a terminal.
final class ProgressLine {
  let label: String
  let enabled: Bool
  var lastDraw = -1.0
  var drawn = false

  init(label: String, enabled: Bool) { self.label = label; self.enabled = enabled }

  func update(_ p: FramePipeline.Progress) {
    guard enabled, p.elapsed - lastDraw >= 0.1 || p.done == p.total else { return }
    lastDraw = p.elapsed
    let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
    let left = rate > 0 ? Int((Double(p.total - p.done) / rate).rounded(.up)) : 0
    let text = String(format: "%@: %d/%d frames  %.1f fps  %d:%02d left", label, p.done, p.total, rate, left / 60, left % 60)
    FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
    drawn = true
  }

  func finish() {
    if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    drawn = false
  }

}
