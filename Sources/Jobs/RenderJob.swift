import Foundation
import Pipeline
import Primitives
import Raster
import Render
import Review
import Syntax

/// A source rendered into the outputs a request names: what `render SCENE`,
/// `render still`, `render compare` and `render batch` run, and what a
/// server or a test runs the same way. In four pieces, each usable alone:
///
/// 1. `outputs()`: the request's outputs resolved once into targets, with
///    every usage error found before a frame is drawn;
/// 2. `passes(_:)`: outputs grouped into passes (one per scale, and per rate
///    when a timecode shows frame numbers), each one `FramePipeline` run;
/// 3. `Staging`: outputs written to hidden files and renamed into place
///    together, once all are complete (several outputs, or any under a
///    size budget), so that a failure leaves none;
/// 4. `SizeLadder`: an output over `--max-size` rendered again alone at a
///    lower rate, scale and colours, as far as needed.
///
/// A job prints nothing: it reports through `events` (warnings, progress)
/// and returns what it wrote, or throws a `JobError`.
public struct RenderJob {
  public let source: any FrameSource
  public var request: RenderRequest
  /// Checked between frames: once cancelled, the job removes what it wrote
  /// and throws `JobError.cancelled`.
  public var cancellation: CancellationToken
  /// Warnings and progress, on the calling thread.
  public var events: (JobEvent) -> Void

  public init(
    source: any FrameSource, request: RenderRequest, cancellation: CancellationToken = CancellationToken(),
    events: @escaping (JobEvent) -> Void = { _ in }
  ) {
    self.source = source; self.request = request; self.cancellation = cancellation; self.events = events
  }

  /// What a job tells while it runs.
  public enum JobEvent {
    /// Something the outputs lose (`render: warning: …`).
    case warning(String)
    /// After each frame of a pass.
    case progress(FramePipeline.Progress)
    /// A pass ended (a progress line may end).
    case passEnded
  }

  /// One output, resolved: its target and its own `[scale=…,fps=…]`.
  public struct Output: Sendable {
    public var target: OutputTarget
    public var scale: Double?
    public var fps: FrameRate?

    public init(target: OutputTarget, scale: Double? = nil, fps: FrameRate? = nil) {
      self.target = target
      self.scale = scale
      self.fps = fps
    }
  }

  /// What a job wrote.
  public struct Result: Sendable {
    /// Frames rendered (a frame shared by several outputs counts once).
    public var frames: Int
    /// Wall-clock seconds.
    public var seconds: Double
    public var outputs: [OutputSummary]
    /// With overlays: the first pass's layout (where each part is).
    public var overlay: ReviewOverlay?
    /// What `--max-size` lowered, a line each, for standard error.
    public var notices: [String] = []
  }

  /// Runs the job: every output written, or none.
  public func run() throws(JobError) -> Result {
    let outputs = try self.outputs()
    let files = outputs.filter { if case .file = $0.target.destination { !$0.target.isStill } else { false } }
    let budgeted = OutputFormats.all.filter { $0.sizeBudget != nil }
    if request.maxSize != nil, !files.contains(where: { $0.target.format.sizeBudget != nil }) {
      throw .usage("--max-size applies to \(Self.list(budgeted.map { "." + $0.fileExtension })) outputs, and this render writes none")
    }
    guard !request.null, request.maxSize != nil || files.count > 1 else { return try render(outputs) }
    let staging = Staging(files.map(\.target))
    var result: Result
    do {
      result = try render(
        outputs.map { o in
          var o = o
          o.target = staging.hidden(o.target)
          return o
        }, shownAs: staging.shown)
      if let budget = request.maxSize {
        for file in files { try keep(file, within: budget, staging: staging, result: &result) }
      }
      try staging.commit(&result.outputs)
    } catch {
      staging.discard()
      throw error
    }
    return result
  }

  /// The request's outputs as targets, each with its overrides: every
  /// mistake in them is a usage error, found before anything is drawn.
  public func outputs() throws(JobError) -> [Output] {
    var outputs: [Output] = []
    switch request.outputs {
    case .named(let requests, let formats, let folder):
      for (target, request) in try Self.targets(requests, name: source.name, folder: folder, formats: formats) {
        if target.isStill, request?.overrides == true {
          throw .usage("-o \(Excerpt.quoted(target.destination.path)): a single .png takes no [scale=…,fps=…]; use --scale and --at")
        }
        outputs.append(Output(target: target, scale: request?.scale, fps: request?.fps))
      }
    case .targets(let given): outputs = given.map { Output(target: $0) }
    }
    if outputs.count > 1, let still = outputs.first(where: { $0.target.isStill }) {
      throw .usage("-o \(Excerpt.quoted(still.target.destination.path)): a single .png is always the only output")
    }
    var claims: Set<String> = []
    for o in outputs where !claims.insert(o.target.claim(name: source.name)).inserted {
      throw .usage("two outputs write \(Excerpt.quoted(o.target.destination.path))")
    }
    if let quality = request.encoding.quality {
      guard (0...100).contains(quality) else { throw .usage("--quality must be between 0 and 100, got \(formatNumber(quality))") }
      let taking = OutputFormats.all.filter { $0.options.contains(.quality) }
      guard outputs.contains(where: { $0.target.format.options.contains(.quality) }) else {
        throw .usage("--quality applies to \(Self.list(taking.map { "." + $0.fileExtension })) outputs, and this render writes none")
      }
    }
    _ = try RenderRequest.matteColor(request.matte, appearance: source.appearance)
    return outputs
  }

  /// What `-o` (each given, or none) and `--format` write, each target
  /// with the request it came from.
  public static func targets(_ requests: [OutputRequest], name: String, folder: String, formats: [String]?) throws(JobError) -> [(
    OutputTarget, OutputRequest?
  )] {
    if requests.count > 1 && formats != nil { throw .usage("with --format, give one -o: the folder the outputs go into") }
    var out: [(OutputTarget, OutputRequest?)] = []
    for request in requests.isEmpty ? [nil] : requests.map(Optional.some) {
      do {
        out += try OutputTarget.targets(name: name, output: request?.output, formats: formats, folder: folder).map { ($0, request) }
      } catch {
        throw .usage(error.message)
      }
    }
    return out
  }

  /// One render of the pipeline: outputs of one scale (and, with a
  /// timecode, one rate) share its frames where their times coincide.
  public struct Pass: Equatable, Sendable {
    public var scale: Double?
    public var fps: FrameRate?
  }

  /// The outputs' passes, in the order of their first output.
  public func passes(_ outputs: [Output]) -> [(pass: Pass, outputs: [Output])] {
    var passes: [(pass: Pass, outputs: [Output])] = []
    for o in outputs {
      let pass = Pass(scale: o.scale ?? request.scale, fps: request.overlays.contains(.timecode) ? o.fps ?? request.fps : nil)
      if let i = passes.firstIndex(where: { $0.pass == pass }) { passes[i].outputs.append(o) } else { passes.append((pass, [o])) }
    }
    return passes
  }

  /// Renders `outputs` (already resolved), pass after pass. `shownAs`
  /// names an output's file in messages (a hidden file's destination).
  func render(_ outputs: [Output], shownAs: (String) -> String = { $0 }) throws(JobError) -> Result {
    try FrameLimits.check(source, scale: request.scale)
    let start = Date()
    var result = Result(frames: 0, seconds: 0, outputs: [])
    for (pass, group) in passes(outputs) {
      let scale = pass.scale
      try FrameLimits.check(source, scale: scale)
      // Each output's times: a single still at --at (else --from, else 0),
      // whatever the source's length; else its rate over the range.
      let schedules = try group.map { o throws(JobError) in
        if o.target.isStill {
          let t = request.at ?? request.from ?? 0
          return FrameSchedule(from: t, to: t, rate: request.fps, slow: 1)
        }
        return try request.schedule(duration: source.duration, rate: o.fps)
      }
      let overlay = try self.overlay(schedule: schedules[0], scale: scale)
      let framed: any FrameSource = overlay.map { DecoratedSource(source, decoration: $0, scale: scale) } ?? source
      let (fw, fh) = framed.pixelSize(scale: scale)
      try FrameLimits.check(width: fw, height: fh, what: "the frame")
      let matte = try RenderRequest.matteColor(request.matte, appearance: source.appearance)
      let settings = { (schedule: FrameSchedule) in
        OutputSettings(
          schedule: schedule, width: fw, height: fh, transparent: framed.isTransparent, name: source.name, matte: matte,
          encoding: request.encoding)
      }
      var sinks: [any FrameSink] = []
      if request.null {
        sinks = [NullSink(schedule: schedules[0])]
      } else {
        for (o, s) in zip(group, schedules) {
          for loss in o.target.format.losses(settings(s)) { events(.warning("\(shownAs(o.target.destination.path)): \(loss)")) }
        }
        do {
          for (o, s) in zip(group, schedules) { sinks.append(try o.target.format.sink(to: o.target.destination, settings(s))) }
        } catch {
          for sink in sinks { sink.abort() }
          throw .output("\(error)")
        }
      }
      let pipeline = FramePipeline(source: framed, scale: scale, sinks: sinks, workers: request.workers, cancellation: cancellation)
      do {
        result.outputs += try pipeline.run { events(.progress($0)) }
        events(.passEnded)
      } catch {
        events(.passEnded)
        switch error {
        case .render(let e): throw .render(e)
        case .output(let e): throw .output("\(e)")
        case .cancelled(let signal): throw .cancelled(reason: signal)
        }
      }
      result.frames += pipeline.jobs.count
      if result.overlay == nil { result.overlay = overlay }
      if request.null { break }
    }
    result.seconds = Date().timeIntervalSince(start)
    return result
  }

  /// The review overlays the request asks for, laid out for one pass.
  func overlay(schedule: FrameSchedule, scale: Double?) throws(JobError) -> ReviewOverlay? {
    guard !request.overlays.isEmpty, schedule.count > 0 else { return nil }
    // The chart spans --from … --to (a still's too: its playhead marks --at).
    let c0 = request.from ?? 0, c1 = max(request.to ?? source.duration, c0)
    var data: ChartData?
    if request.overlays.contains(.chart) {
      let all = ChartData(source: source, from: c0, to: c1)
      try Self.check(request.chart, in: all)
      let chosen = all.selecting(request.chart)
      guard !chosen.groups.isEmpty else { throw .usage("--overlay chart: \(source.name) animates nothing to chart") }
      data = chosen
    }
    do {
      return try ReviewOverlay(
        kinds: request.overlays, sceneSize: source.pixelSize(scale: scale), scale: scale ?? source.defaultScale, slow: request.slow,
        lastTime: schedule.time(schedule.count - 1), lastFrame: schedule.count - 1, chart: data, typesetter: ReviewStyle.typesetter())
    } catch {
      try FrameLimits.check(width: error.width, height: error.height, what: "the frame with its chart", hint: FrameLimits.chartHint)
      return nil
    }
  }

  /// A `--layer` or `--property` that matches nothing is bad usage.
  public static func check(_ selection: ChartData.Selection, in all: ChartData) throws(JobError) {
    let ids = Set(all.groups.flatMap { $0.series.compactMap(\.layer) }).sorted()
    for id in selection.layers where !ids.contains(id) {
      throw .usage("--layer \(Excerpt.quoted(id)) matches no layer with an animated property" + Suggestions.didYouMean(id, in: ids))
    }
    let names = Set(all.groups.flatMap { $0.series.flatMap { [$0.property, $0.name] } }).sorted()
    for p in selection.properties where !names.contains(p) {
      throw .usage("--property \(Excerpt.quoted(p)) matches no animated property" + Suggestions.didYouMean(p, in: names))
    }
  }

  /// Keeps `file` (written to its hidden file) within `budget` bytes,
  /// rendering it again alone down its format's ladder as far as needed;
  /// what was lowered goes into `result.notices`.
  func keep(_ file: Output, within budget: Int, staging: Staging, result: inout Result) throws(JobError) {
    guard let ladder = SizeLadder(file, request: request, source: source) else { return }
    let hidden = staging.hidden(file.target)
    var size = fileSize(atPath: hidden.destination.path)
    guard size > budget else { return }
    var lowered: SizeLadder.Attempt?
    for attempt in ladder.attempts {
      var retry = self
      retry.request.scale = attempt.scale
      retry.request.fps = attempt.fps
      retry.request.encoding.colours = attempt.colours
      retry.events = { _ in }
      let again = try retry.render([Output(target: hidden)])
      size = fileSize(atPath: hidden.destination.path)
      lowered = attempt
      if let i = result.outputs.firstIndex(where: { $0.path == hidden.destination.path }), let output = again.outputs.first {
        result.outputs[i] = output
      }
      if size <= budget { break }
    }
    let what = ladder.describe(lowered)
    let limit = OutputSummary.size(budget)
    guard size <= budget else {
      throw .output(
        "\(file.target.destination.path): \(OutputSummary.size(size)) even at the floors (\(what)), over --max-size \(limit); nothing written")
    }
    result.notices.append("render: \(file.target.destination.path): \(OutputSummary.size(size)) under --max-size \(limit) with \(what)")
  }

  /// ".gif and .webp", ".a, .b and .c".
  static func list(_ items: [String]) -> String {
    items.count > 1 ? items.dropLast().joined(separator: ", ") + " and " + items.last! : items.joined()
  }
}

/// What `--max-size` tries for one output, in order, after the output as
/// asked (at its own rate, capped at its format's, and its own scale):
/// lower rates at its scale, then smaller scales at the lowest rate, then
/// its format's colour steps at both. Every attempt names its rate and scale.
public struct SizeLadder: Sendable {
  public struct Attempt: Equatable, Sendable {
    public var scale: Double
    public var fps: FrameRate
    public var colours: ColourStep?
  }

  /// The output's own rate and scale.
  public let rate: FrameRate
  public let scale: Double
  public let attempts: [Attempt]

  /// nil for an output whose format has no size budget.
  public init?(_ output: RenderJob.Output, request: RenderRequest, source: any FrameSource) {
    guard let budget = output.target.format.sizeBudget else { return nil }
    let asked = output.fps ?? request.fps
    let cap = output.target.format.maximumFrameRate
    self.init(
      rate: cap.map { asked.perSecond > Double($0) ? FrameRate($0) : asked } ?? asked, scale: output.scale ?? request.scale ?? source.defaultScale,
      budget: budget, quality: request.encoding.quality)
  }

  public init(rate: FrameRate, scale: Double, budget: SizeBudget, quality: Double?) {
    self.rate = rate
    self.scale = scale
    let fps = rate.perSecond
    let floor = Double(budget.rates.min() ?? 15)
    let rates = budget.rates.filter { Double($0) < fps && Double($0) >= min(floor, fps) }.map { FrameRate($0) }
    let lowest = rates.last ?? rate
    var out = rates.map { Attempt(scale: scale, fps: $0) }
    let scales = budget.scales.map { scale * $0 }
    out += scales.map { Attempt(scale: $0, fps: lowest) }
    out += budget.colours(quality).map { Attempt(scale: scales.last ?? scale, fps: lowest, colours: $0) }
    attempts = out
  }

  /// What an attempt lowered from the output's own rate and scale: "20
  /// fps, scale 0.7, 64 colours", for messages.
  public func describe(_ a: Attempt?) -> String {
    guard let a else { return "as asked" }
    var parts: [String] = []
    if a.fps != rate { parts.append("\(a.fps) fps") }
    if a.scale != scale { parts.append("scale \(formatNumber(a.scale))") }
    if let colours = a.colours { parts.append(colours.description) }
    return parts.isEmpty ? "as asked" : parts.joined(separator: ", ")
  }
}
