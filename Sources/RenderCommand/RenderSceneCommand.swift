import ArgumentParser
import Foundation
import PNGCodec
import Pipeline
import Raster
import Render
import SceneModel
import VideoOutput

/// `render SCENE.json [options]`: the main job. Renders the scene's frames
/// on all cores into an MP4, a GIF, a PNG sequence or several at once.
struct RenderScene: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scene",
    abstract: "Render a scene to MP4, GIF or PNGs (the default command: `render SCENE.json`).")

  @Argument(help: "The scene file.")
  var scene: String

  @Option(
    name: [.short, .customLong("output")],
    help: "The file to write: .mp4, .gif, .png (one still), a folder ending in / or a %05d pattern (PNG sequence). Default renders/NAME.mp4.")
  var output: String?

  @OptionGroup var options: RenderOptions

  func run() throws {
    Interrupt.install()
    let summary = try SceneJob(path: scene, options: options, output: output, folder: "renders").run()
    if options.json { Terminal.write(summary.json + "\n") }
  }
}

/// What one render wrote.
struct RenderSummary {
  var scene: String
  var frames: Int
  var seconds: Double
  var outputs: [OutputSummary]

  /// `{"scene": …, "frames": N, "seconds": S, "outputs": [{"path", "format", "frames", "bytes"}]}`
  var json: String {
    let outs = outputs.map {
      "{\"path\": \(JSONText.string($0.path)), \"format\": \(JSONText.string($0.format)), \"frames\": \($0.frames), \"bytes\": \($0.bytes)}"
    }
    return "{\"scene\": \(JSONText.string(scene)), \"frames\": \(frames), \"seconds\": \(JSONText.number((seconds * 1000).rounded() / 1000)), "
      + "\"peakMemoryBytes\": \(Self.peakResidentBytes), \"outputs\": [\(outs.joined(separator: ", "))]}"
  }

  /// The process's peak resident set size so far.
  static var peakResidentBytes: Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  }
}

/// One scene rendered with the given options: used by `render SCENE` and
/// `render batch`. Errors are reported on standard error and thrown as a
/// `Failure` with CLI.md's exit status.
struct SceneJob {
  var path: String
  var options: RenderOptions
  var output: String?
  /// Where outputs go without `-o`.
  var folder: String

  enum Target {
    case mp4(String)
    case gif(String)
    case still(String)
    case pngFolder(String)
    case pngPattern(String)
  }

  /// Outputs from `-o` and `--format` (CLI.md).
  static func targets(name: String, output: String?, formats: [String]?, folder: String) throws -> [Target] {
    func isFolder(_ p: String) -> Bool {
      var d: ObjCBool = false
      return p.hasSuffix("/") || (FileManager.default.fileExists(atPath: p, isDirectory: &d) && d.boolValue)
    }
    let ext = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? ""
    if let formats {
      if let output, !isFolder(output), !ext.isEmpty {
        throw ValidationError("with --format, -o names a folder (ending in /), not '\(output)'")
      }
      let dir = output ?? folder
      let base = URL(fileURLWithPath: dir)
      return formats.map { f in
        switch f {
        case "mp4": .mp4(base.appendingPathComponent(name + ".mp4").path)
        case "gif": .gif(base.appendingPathComponent(name + ".gif").path)
        default: .pngFolder(dir)
        }
      }
    }
    guard let output else { return [.mp4(URL(fileURLWithPath: folder).appendingPathComponent(name + ".mp4").path)] }
    if isFolder(output) { return [.pngFolder(output)] }
    switch ext {
    case "mp4": return [.mp4(output)]
    case "gif": return [.gif(output)]
    case "png": return output.contains("%") ? [.pngPattern(output)] : [.still(output)]
    default:
      throw ValidationError(
        "cannot tell the format of -o '\(output)': use .mp4, .gif, .png, a folder ending in / or a pattern such as frames/f_%05d.png")
    }
  }

  func usage(_ message: String) -> Failure {
    Terminal.error("render: error: \(message)")
    return Failure(status: .usage)
  }

  func run() throws -> RenderSummary {
    let renderer = try SceneFile.loadOrReport(path)
    let scene = renderer.scene
    try Frames.checkSize(renderer, scale: options.scale)
    let (w, h) = renderer.pixelSize(scale: options.scale)
    let start = Date()
    let targets: [Target]
    let schedule: FrameSchedule
    do {
      targets = try Self.targets(name: scene.name, output: output, formats: try options.format.map(RenderOptions.formats), folder: folder)
      schedule = try options.schedule(duration: renderer.duration)
    } catch let error as ValidationError {
      throw usage(error.message)
    }

    // A single still: one frame, written atomically.
    if !options.null, targets.count == 1, case .still(let file) = targets[0] {
      let summary = try Frames.writeStill(renderer, scene: path, at: options.at ?? options.from ?? 0, scale: options.scale, to: file)
      return RenderSummary(scene: path, frames: 1, seconds: Date().timeIntervalSince(start), outputs: [summary])
    }

    var sinks: [any FrameSink] = []
    do {
      if options.null {
        sinks = [NullSink(schedule: schedule)]
      } else {
        for target in targets {
          switch target {
          case .mp4(let file):
            sinks.append(
              try MP4Sink(
                schedule: schedule, path: file, width: w, height: h,
                options: MP4Options(crf: options.crf, preset: options.preset)))
          case .gif(let file):
            sinks.append(try GIFSink(schedule: schedule, path: file, width: w, height: h, transparent: scene.background == nil))
          case .pngFolder(let dir):
            sinks.append(PNGSequenceSink(schedule: schedule, folder: dir, name: scene.name))
          case .pngPattern(let pattern):
            sinks.append(try PNGSequenceSink(schedule: schedule, pattern: pattern))
          case .still(let file):
            throw OutputError(path: file, message: "a single .png cannot be combined with other outputs")
          }
        }
      }
    } catch {
      for sink in sinks { sink.abort() }
      Terminal.error("render: error: \(error)")
      throw Failure(status: .renderFailed)
    }

    let pipeline = FramePipeline(renderer: renderer, scale: options.scale, sinks: sinks, workers: options.jobs)
    let progress = ProgressLine(label: scene.name, enabled: !options.quiet && isatty(STDERR_FILENO) == 1)
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
      case .interrupted(let signal):
        Terminal.error("render: interrupted (signal \(signal)); temporary files removed, existing outputs untouched")
        exit(128 + signal)
      }
    }
    let seconds = Date().timeIntervalSince(start)
    if !options.quiet && !options.json {
      for o in outputs {
        Terminal.error("wrote \(o.path) (\(o.frames) frames, \(ProgressLine.bytes(o.bytes))) in \(String(format: "%.1f", seconds)) s")
      }
    }
    return RenderSummary(scene: path, frames: pipeline.jobs.count, seconds: seconds, outputs: outputs)
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

  static func bytes(_ n: Int) -> String {
    n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : n >= 1000 ? String(format: "%.0f kB", Double(n) / 1e3) : "\(n) B"
  }
}
