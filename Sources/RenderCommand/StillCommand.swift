import ArgumentParser
import Foundation
import Jobs
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import SceneModel
import Syntax

/// `render still SCENE --at T -o F.png [--scale S] [--quiet] [--json]`:
/// one frame as a PNG.
struct Still: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Render one frame at scene time T to a PNG.")

  @Argument(help: "The scene file.")
  var scene: String

  @Option(name: .long, parsing: .unconditional, help: "Scene time in seconds.")
  var at: Double = 0

  @Option(name: [.short, .customLong("output")], help: "The PNG to write.")
  var output: String

  @OptionGroup var scaleOption: ScaleOption

  @OptionGroup var look: Look

  @OptionGroup var quietFlag: Quiet

  /// As `render SCENE --json` prints it.
  @OptionGroup var jsonFlag: JSONSummary

  func validate() throws {
    guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time of 0 seconds or more, got \(at)") }
    guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must name a .png file, got \(Excerpt.quoted(output))") }
  }

  func run() throws {
    Signals.install()
    var options = try RenderOptions.parse([])
    options.scale = scaleOption.scale
    options.at = at
    options.quiet = quietFlag.quiet
    options.json = jsonFlag.json
    options.look = look
    // The one file named, whatever it looks like (a folder, a pattern).
    let still = OutputTarget(format: OutputFormats.png, destination: .file(output))
    let request = try options.request(targets: [still])
    let source = try SceneFile.loadOrReport(scene, appearance: options.appearance)
    let summary = try JobRun(file: scene, options: options).run(source, request)
    if jsonFlag.json { try Terminal.json(summary) }
  }
}

/// `--appearance light|dark` of every rendering command: the variant of
/// the scene's named colours, overriding its `appearance`.
struct Look: ParsableArguments {
  @Option(help: "The appearance of named colours, light or dark (default: the scene's).")
  var appearance: String?

  func validate() throws { _ = try resolved() }

  /// The appearance asked for; nil to keep the scene's.
  func resolved() throws -> Appearance? {
    guard let appearance else { return nil }
    guard let chosen = Appearance(rawValue: appearance) else {
      let names = Appearance.allCases.map(\.rawValue)
      throw ValidationError(
        "--appearance must be \(names.joined(separator: " or ")), got \(Excerpt.quoted(appearance))" + Suggestions.didYouMean(appearance, in: names))
    }
    return chosen
  }

  /// The appearance asked for, once validated.
  var chosen: Appearance? { try? resolved() }
}

/// `--from` and `--to` of the review commands (chart, sheet, diff):
/// checked as `render SCENE` checks them, resolved against a duration.
struct TimeRange: ParsableArguments {
  @Option(name: .customLong("from"), parsing: .unconditional, help: "First scene time, in seconds (default 0).")
  var from: Double?

  @Option(name: .customLong("to"), parsing: .unconditional, help: "Last scene time, in seconds (default: the scene's duration).")
  var to: Double?

  func validate() throws { try RenderOptions.checkRange(from: from, to: to) }

  /// The range in a scene of `duration` seconds (bad usage reported).
  func resolve(duration: Double) throws -> (from: Double, to: Double) {
    do { return try RenderRequest.range(from: from, to: to, duration: duration) } catch {
      throw JobRun.report(error, file: "")
    }
  }
}

/// What every rendering command shares about frames.
enum Frames {
  /// The frame size at `scale` must be within the scene limits (exit 2).
  static func checkSize(_ source: any FrameSource, scale: Double?) throws {
    do { try FrameLimits.check(source, scale: scale) } catch { throw JobRun.report(error, file: "") }
  }

  /// Any picture a command makes (a chart, a sheet) must be within the
  /// frame limits (exit 2); `what` names it and `hint` says how to make it
  /// smaller.
  static func checkSize(width w: Int, height h: Int, what: String? = nil, hint: String? = nil) throws {
    do { try FrameLimits.check(width: w, height: h, what: what, hint: hint) } catch { throw JobRun.report(error, file: "") }
  }

  /// Reports a layer that cannot be drawn, located in the scene file.
  static func report(_ error: RenderError, scene: String) -> Failure {
    Terminal.error("\(scene):\(error.location.line):\(error.location.column): error: \(error.message)")
    return Failure(status: .renderFailed)
  }
}
