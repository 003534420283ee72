import ArgumentParser
import Foundation
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import SceneModel
import Syntax
import VideoOutput

/// `render SCENE.json [options]`: the main job. Renders the scene's frames
/// on all cores into an MP4, a GIF, a PNG sequence or several at once.
struct RenderScene: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scene",
    abstract: "Render a scene to MP4, GIF, PNGs, WebP, APNG, ProRes or WebM (the default command: `render SCENE.json`).")

  /// Where outputs go without `-o`.
  static let defaultFolder = "renders"

  @Argument(help: "The scene file.")
  var scene: String

  @Option(
    name: [.short, .customLong("output")],
    help: ArgumentHelp(
      "The file to write: " + OutputFormats.all.map { ".\($0.fileExtension) (\($0.summary))" }.joined(separator: ", ")
        + ", a folder ending in / or a %05d pattern (PNG sequence). Default \(defaultFolder)/NAME.mp4. Give it again for more outputs"
        + " from the same pass; PATH[scale=S,fps=F] overrides --scale and --fps for one output."))
  var output: [String] = []

  @OptionGroup var options: RenderOptions

  func run() throws {
    Signals.install()
    let summary = try SceneJob(path: scene, options: options, outputs: .named(outputs: output, folder: Self.defaultFolder)).run()
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
  /// `--max-size`'s settings for a retried output: its rate, scale and colours.
  var attempt: Attempt? = nil
  /// Outputs written elsewhere first (`--max-size`: a hidden file, renamed
  /// into place once under the budget): destination → where.
  var redirect: [String: String] = [:]
  /// Written to `redirect`'s hidden files for `runStaged`, which reports
  /// the outputs once they are in place.
  var staged = false

  struct Attempt: Equatable {
    var scale: Double?
    var fps: FrameRate?
    /// A GIF's palette size.
    var colors: Int?
    /// A WebP's lossy quality.
    var quality: Double?
  }

  struct Prepared {
    var renderer: SceneRenderer
    var decoration: (any FrameDecoration)? = nil
    var name: String? = nil
    var duration: Double? = nil
  }

  /// What the job writes.
  enum Outputs {
    /// As each `-o` (none given: empty) and `--format` say, into `folder`
    /// without `-o`.
    case named(outputs: [String], folder: String)
    /// Exactly these (`render still`).
    case targets([OutputTarget])
  }

  func run() throws -> RenderSummary {
    if attempt == nil, !staged, case .named = outputs { return try runStaged() }
    return try runOnce()
  }

  func runOnce() throws -> RenderSummary {
    let renderer = try prepared?.renderer ?? SceneFile.loadOrReport(path, appearance: options.appearance)
    let scene = renderer.scene
    let name = prepared?.name ?? scene.name
    let duration = prepared?.duration ?? renderer.duration
    let warn = { (message: String) in if !options.quiet { Terminal.warning(message) } }
    SceneFile.warn(renderer, file: path, quiet: options.quiet)
    try Frames.checkSize(renderer, scale: options.scale)
    let start = Date()
    // Each output with its overrides (none for `render still`, batch).
    var requested: [(target: OutputTarget, scale: Double?, fps: FrameRate?)] = []
    do {
      switch outputs {
      case .named(let outputs, let folder):
        for (target, request) in try Self.targets(outputs, name: name, folder: folder, format: options.format) {
          if target.isStill, request?.overrides == true {
            throw ValidationError("-o \(Excerpt.quoted(target.destination.path)): a single .png takes no [scale=…,fps=…]; use --scale and --at")
          }
          requested.append((target, request?.scale, request?.fps))
        }
      case .targets(let given): requested = given.map { ($0, attempt?.scale, attempt?.fps) }
      }
      for i in requested.indices {
        if case .file(let p) = requested[i].target.destination, let elsewhere = redirect[p] { requested[i].target.destination = .file(elsewhere) }
      }
      if requested.count > 1, let still = requested.first(where: { $0.target.isStill }) {
        throw ValidationError("-o \(Excerpt.quoted(still.target.destination.path)): a single .png is always the only output")
      }
      var claims: Set<String> = []
      for r in requested where !claims.insert(r.target.claim(name: name)).inserted {
        throw ValidationError("two outputs write \(Excerpt.quoted(r.target.destination.path))")
      }
      if let quality = options.quality {
        guard (0...100).contains(quality) else { throw ValidationError("--quality must be between 0 and 100, got \(formatNumber(quality))") }
        guard requested.contains(where: { $0.target.format.name == OutputFormats.webp.name }) else {
          throw ValidationError("--quality applies to .webp outputs, and this render writes none")
        }
      }
      _ = try options.matteColor(appearance: renderer.scene.appearance)
      if requested.contains(where: { $0.scale != nil || $0.fps != nil }), prepared?.decoration != nil {
        throw ValidationError("render compare lays its panels out once: give --scale and --fps, not [scale=…,fps=…]")
      }
    } catch let error as ValidationError {
      throw Failure.usage(error.message)
    } catch let error as OutputError {
      throw Failure.usage(error.message)
    }

    // One pass per scale: outputs of one scale share their frames where
    // their times coincide (different scales never do). A timecode shows
    // the frame number, sized for the output's last: then one per rate too,
    // so that each output is the same as when rendered alone.
    struct Pass: Equatable {
      var scale: Double?
      var fps: FrameRate?
    }
    let byRate = (try? options.overlay.map(RenderOptions.overlays))??.contains(.timecode) == true
    let passOf = { (r: (target: OutputTarget, scale: Double?, fps: FrameRate?)) in
      Pass(scale: r.scale ?? options.scale, fps: byRate ? r.fps ?? options.fps : nil)
    }
    var passes: [Pass] = []
    for r in requested where !passes.contains(passOf(r)) { passes.append(passOf(r)) }
    var outputs: [OutputSummary] = []
    var frames = 0
    var overlayGeometry: OverlayGeometry?
    for pass in passes {
      let group = requested.filter { passOf($0) == pass }
      let scale = pass.scale
      let (w, h) = renderer.pixelSize(scale: scale)
      try Frames.checkSize(renderer, scale: scale)
      // Each output's times: a single still at --at (else --from, else 0),
      // whatever the scene's length; else its rate over the range.
      let schedules: [FrameSchedule]
      do {
        schedules = try group.map { r in
          if r.target.isStill {
            let t = options.at ?? options.from ?? 0
            return FrameSchedule(from: t, to: t, rate: options.fps, slow: 1)
          }
          return try options.schedule(duration: duration, rate: r.fps)
        }
      } catch let error as ValidationError {
        throw Failure.usage(error.message)
      }
      let schedule = schedules[0]
      let overlay = try self.overlay(renderer, schedule: schedule, scale: scale, size: (w, h))
      let decoration: (any FrameDecoration)? = prepared?.decoration ?? overlay
      let (fw, fh) = renderer.frameSize(scale: scale, decoration: decoration)
      try Frames.checkSize(width: fw, height: fh, what: "the frame")
      let matte = try? options.matteColor(appearance: renderer.scene.appearance)
      let settingsFor = { (schedule: FrameSchedule) in
        var settings = OutputSettings(
          schedule: schedule, width: fw, height: fh,
          transparent: (scene.background.map { $0.alpha < 1 } ?? true) && decoration?.background == nil, name: name,
          mp4: MP4Options(crf: options.crf, preset: options.preset))
        settings.webp = WebPOptions(quality: attempt?.quality ?? options.quality)
        if let colors = attempt?.colors { settings.gifColors = colors }
        settings.matte = matte ?? nil
        return settings
      }
      if !options.null {
        for (r, s) in zip(group, schedules) {
          let shown = redirect.first { $0.value == r.target.destination.path }?.key ?? r.target.destination.path
          for loss in r.target.format.losses(settingsFor(s)) { warn("\(shown): \(loss)") }
        }
      }
      var sinks: [any FrameSink] = []
      do {
        if options.null {
          sinks = [NullSink(schedule: schedule)]
        } else {
          for (r, s) in zip(group, schedules) { sinks.append(try r.target.format.sink(to: r.target.destination, settingsFor(s))) }
        }
      } catch {
        for sink in sinks { sink.abort() }
        Terminal.error("render: error: \(error)")
        throw Failure(status: .renderFailed)
      }

      let pipeline = FramePipeline(
        renderer: renderer, scale: scale, sinks: sinks, workers: options.jobs, cancellation: Signals.cancellation, decoration: decoration)
      let progress = ProgressLine(label: name, enabled: !options.quiet && isatty(STDERR_FILENO) == 1)
      do {
        outputs += try pipeline.run { progress.update($0) }
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
          Signals.exitInterrupted(signal)
        }
      }
      frames += pipeline.jobs.count
      if let overlay, overlayGeometry == nil { overlayGeometry = OverlayGeometry(overlay) }
      if options.null { break }
    }
    let seconds = Date().timeIntervalSince(start)
    if !staged { report(outputs, seconds: seconds) }
    var summary = RenderSummary(scene: path, frames: frames, seconds: seconds, outputs: outputs)
    summary.overlay = overlayGeometry
    return summary
  }

  /// A render of several file outputs, or of any under `--max-size`: every
  /// file output is written to a hidden file beside it first and all are
  /// renamed into place together once every pass has succeeded (and, under
  /// `--max-size`, every GIF and WebP is within the budget), so a failed or
  /// interrupted render of several outputs leaves none of them half done.
  /// Under `--max-size` each output over the budget is rendered again
  /// alone, lowering in this order and only as far as needed its frame rate
  /// (to 15, or its own if lower), its scale (to half) and its colours (a
  /// GIF's palette to 32 colours, a WebP's lossy quality from 90 to 30),
  /// always from its own `[scale=…,fps=…]`. What was lowered is said on
  /// standard error (even under --quiet); an output still too big at the
  /// floors is a failure (exit 1) that leaves nothing written.
  func runStaged() throws -> RenderSummary {
    var budget: Int?
    if let text = options.maxSize {
      do { budget = try RenderOptions.bytes(text) } catch let error as ValidationError { throw Failure.usage(error.message) }
    }
    let renderer = try prepared?.renderer ?? SceneFile.loadOrReport(path, appearance: options.appearance)
    let name = prepared?.name ?? renderer.scene.name
    guard case .named(let outputs, let folder) = outputs else { return try runOnce() }
    // The file outputs, as the render will resolve them.
    var files: [(destination: String, format: OutputFormat, request: OutputRequest?)] = []
    do {
      for (target, request) in try Self.targets(outputs, name: name, folder: folder, format: options.format) {
        if case .file(let p) = target.destination, !target.isStill { files.append((p, target.format, request)) }
      }
    } catch let error as ValidationError {
      throw Failure.usage(error.message)
    } catch let error as OutputError {
      throw Failure.usage(error.message)
    }
    let budgeted = [OutputFormats.gif.name, OutputFormats.webp.name]
    if budget != nil, !files.contains(where: { budgeted.contains($0.format.name) }) {
      throw Failure.usage("--max-size applies to .gif and .webp outputs, and this render writes none")
    }
    // The scene as loaded here, not loaded again.
    var first = self
    first.prepared = Prepared(renderer: renderer, decoration: prepared?.decoration, name: prepared?.name, duration: prepared?.duration)
    guard !options.null, budget != nil || files.count > 1 else { return try first.runOnce() }
    first.staged = true
    for f in files {
      let url = URL(fileURLWithPath: f.destination)
      first.redirect[f.destination] =
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).staged.\(f.format.fileExtension)").path
    }
    let hidden = Array(first.redirect.values)
    Signals.pending.withLock { $0.formUnion(hidden) }
    defer { Signals.pending.withLock { $0.subtract(hidden) } }
    let discard = { for p in hidden { unlink(p) } }
    var summary: RenderSummary
    do { summary = try first.runOnce() } catch {
      discard()
      throw error
    }
    var said: [String] = []
    if let budget {
      let limit = OutputSummary.size(budget)
      for f in files where budgeted.contains(f.format.name) {
        let temporary = first.redirect[f.destination]!
        var size = fileSize(atPath: temporary)
        guard size > budget else { continue }
        // The output's own rate (a GIF's and a WebP's at most 50) and scale.
        let asked = f.request?.fps ?? options.fps
        let rate = asked.perSecond > Double(WebPSink.maximumFrameRate) ? FrameRate(WebPSink.maximumFrameRate) : asked
        let scale = f.request?.scale ?? options.scale ?? renderer.scene.scale
        var lowered: Attempt?
        for attempt in Self.ladder(rate: rate, scale: scale, gif: f.format.name == OutputFormats.gif.name, quality: options.quality) {
          var retry = first
          retry.outputs = .targets([OutputTarget(format: f.format, destination: .file(temporary))])
          retry.attempt = attempt
          retry.options.quiet = true
          retry.options.json = false
          let result: RenderSummary
          do { result = try retry.runOnce() } catch {
            discard()
            throw error
          }
          size = fileSize(atPath: temporary)
          lowered = attempt
          if let i = summary.outputs.firstIndex(where: { $0.path == temporary }), let output = result.outputs.first { summary.outputs[i] = output }
          if size <= budget { break }
        }
        let what = Self.describe(lowered, rate: rate, scale: scale)
        guard size <= budget else {
          discard()
          Terminal.error(
            "render: error: \(f.destination): \(OutputSummary.size(size)) even at the floors (\(what)), over --max-size \(limit); nothing written")
          throw Failure(status: .renderFailed)
        }
        said.append("render: \(f.destination): \(OutputSummary.size(size)) under --max-size \(limit) with \(what)")
      }
    }
    // Every output complete: all into place.
    for f in files {
      let temporary = first.redirect[f.destination]!
      if rename(temporary, f.destination) != 0 {
        let reason = String(cString: strerror(errno))
        discard()
        Terminal.error("render: error: \(f.destination): cannot write: \(reason)")
        throw Failure(status: .renderFailed)
      }
      for i in summary.outputs.indices where summary.outputs[i].path == temporary {
        summary.outputs[i].path = f.destination
        summary.outputs[i].bytes = fileSize(atPath: f.destination)
      }
    }
    report(summary.outputs, seconds: summary.seconds)
    for line in said { Terminal.error(line) }
    return summary
  }

  /// What `-o` (each given, or none) and `--format` write, each target
  /// with the request it came from.
  static func targets(_ outputs: [String], name: String, folder: String, format: String?) throws -> [(OutputTarget, OutputRequest?)] {
    let requests = try outputs.map(OutputRequest.init(parsing:))
    if requests.count > 1 && format != nil { throw ValidationError("with --format, give one -o: the folder the outputs go into") }
    let formats = try format.map(RenderOptions.formats)
    return try (requests.isEmpty ? [nil] : requests.map(Optional.some)).flatMap { request in
      try OutputTarget.targets(name: name, output: request?.output, formats: formats, folder: folder).map { ($0, request) }
    }
  }

  /// Warnings on the outputs' sizes and, unless quiet or `--json`, a line
  /// for each output written.
  func report(_ outputs: [OutputSummary], seconds: Double) {
    for output in outputs {
      if let warning = OutputFormats.named(output.format)?.sizeWarning(bytes: output.bytes), !options.quiet {
        Terminal.warning("\(output.path): \(warning)")
      }
    }
    if !options.quiet && !options.json {
      for o in outputs {
        Terminal.error("wrote \(o.path) (\(o.frames) frames, \(OutputSummary.size(o.bytes))) in \(String(format: "%.1f", seconds)) s")
      }
    }
  }

  /// What `--max-size` tries, in order, after the output as asked (at
  /// `rate` and `scale`, its own): lower rates at its scale, then smaller
  /// scales at the lowest rate, then fewer colours (a GIF's palette, a
  /// WebP's lossy quality) at both. Every attempt names its rate and scale.
  static func ladder(rate: FrameRate, scale: Double, gif: Bool, quality: Double?) -> [Attempt] {
    let fps = rate.perSecond
    let rates = [30, 24, 20, 15].filter { Double($0) < fps && Double($0) >= min(15, fps) }.map { FrameRate($0) }
    let lowest = rates.last ?? rate
    var out = rates.map { Attempt(scale: scale, fps: $0) }
    let scales = [0.85, 0.7, 0.6, 0.5].map { scale * $0 }
    out += scales.map { Attempt(scale: $0, fps: lowest) }
    if gif {
      out += [128, 64, 32].map { Attempt(scale: scales.last, fps: lowest, colors: $0) }
    } else {
      out += [90.0, 75, 60, 45, 30].filter { $0 < (quality ?? 101) }.map { Attempt(scale: scales.last, fps: lowest, quality: $0) }
    }
    return out
  }

  /// What an attempt lowered from the output's own `rate` and `scale`:
  /// "20 fps, scale 0.7, 64 colours", for messages.
  static func describe(_ a: Attempt?, rate: FrameRate, scale: Double) -> String {
    guard let a else { return "as asked" }
    var parts: [String] = []
    if let fps = a.fps, fps != rate { parts.append("\(fps) fps") }
    if let s = a.scale, s != scale { parts.append("scale \(formatNumber(s))") }
    if let colors = a.colors { parts.append("\(colors) colours") }
    if let quality = a.quality { parts.append("quality \(formatNumber(quality))") }
    return parts.isEmpty ? "as asked" : parts.joined(separator: ", ")
  }

  /// The review overlays `--overlay` asks for, laid out for this render.
  func overlay(_ renderer: SceneRenderer, schedule: FrameSchedule, scale: Double?, size: (Int, Int)) throws -> ReviewOverlay? {
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
        kinds: kinds, sceneSize: size, scale: scale ?? renderer.scene.scale, slow: options.slow, lastTime: t1,
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
