import ArgumentParser
import Foundation
import Jobs
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
    let request = try options.request(outputs: output, folder: Self.defaultFolder)
    let source = try SceneFile.loadOrReport(scene, appearance: options.appearance)
    let summary = try JobRun(file: scene, options: options).run(source, request)
    if options.json { try Terminal.json(summary) }
  }
}

/// A render job run for the command line: the source's warnings, a
/// progress line, every failure reported with its exit status, and a line
/// for each output written. Used by `render SCENE`, `render still`,
/// `render compare` and `render batch`.
struct JobRun {
  /// The source's file, for messages.
  var file: String
  var options: RenderOptions

  func run(_ source: any FrameSource, _ request: RenderRequest) throws -> RenderSummary {
    SceneFile.warn(source, file: file, quiet: options.quiet)
    var request = request
    // No --fps: a source made at a rate of its own (a Lottie file) keeps it.
    if options.fps == nil { request.fps = FrameRate.default(for: source.naturalFrameRate) }
    let progress = ProgressLine(label: source.name, enabled: !options.quiet && isatty(STDERR_FILENO) == 1)
    let job = RenderJob(source: source, request: request, cancellation: Signals.cancellation) { [options] event in
      switch event {
      case .warning(let message): if !options.quiet { Terminal.warning(message) }
      case .progress(let p): progress.update(p)
      case .passEnded: progress.finish()
      }
    }
    let result: RenderJob.Result
    do { result = try job.run() } catch {
      throw Self.report(error, file: file)
    }
    report(result.outputs, seconds: result.seconds)
    for line in result.notices { Terminal.error(line) }
    var summary = RenderSummary(scene: file, frames: result.frames, seconds: result.seconds, outputs: result.outputs)
    summary.overlay = result.overlay.map(OverlayGeometry.init)
    return summary
  }

  /// A job's failure on standard error, as the exit status it means.
  static func report(_ error: JobError, file: String) -> Failure {
    switch error {
    case .usage(let message): return Failure.usage(message)
    case .render(let e): return Frames.report(e, scene: file)
    case .output(let message):
      Terminal.error("render: error: \(message)")
      return Failure(status: .renderFailed)
    case .cancelled(let signal):
      Terminal.error("render: interrupted (signal \(signal)); temporary files removed, existing outputs untouched")
      Signals.exitInterrupted(signal)
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
}
