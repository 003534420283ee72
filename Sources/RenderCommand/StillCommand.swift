import ArgumentParser
import Foundation
import PNGCodec
import Pipeline
import Raster
import Render
import SceneModel

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

  @Option(help: "Pixels per point (overrides the scene's).")
  var scale: Double?

  @Flag(help: "No progress or warnings on standard error.")
  var quiet = false

  @Flag(help: "Print a JSON summary of what was written (as `render SCENE --json` does).")
  var json = false

  func validate() throws {
    guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time of 0 seconds or more, got \(at)") }
    try RenderOptions.checkScale(scale)
    guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must name a .png file") }
  }

  func run() throws {
    Signals.install()
    var options = try RenderOptions.parse([])
    options.scale = scale
    options.at = at
    options.quiet = quiet
    options.json = json
    // The one file named, whatever it looks like (a folder, a pattern).
    let still = OutputTarget(format: OutputFormats.png, destination: .file(output))
    let summary = try SceneJob(path: scene, options: options, outputs: .targets([still])).run()
    if json { try Terminal.json(summary) }
  }
}

/// What every rendering command shares about frames.
enum Frames {
  /// The frame size at `scale` must be within the scene limits (exit 2).
  static func checkSize(_ renderer: SceneRenderer, scale: Double?) throws {
    let (w, h) = renderer.pixelSize(scale: scale)
    guard w > 0, h > 0, w <= SceneLimits.maximumSide, h <= SceneLimits.maximumSide, w * h <= SceneLimits.maximumPixels else {
      Terminal.error("render: error: \(w)×\(h) pixels is over the limit of \(SceneLimits.maximumSide) a side and \(SceneLimits.maximumPixels) pixels")
      throw Failure(status: .usage)
    }
  }

  /// Reports a layer that cannot be drawn, located in the scene file.
  static func report(_ error: RenderError, scene: String) -> Failure {
    Terminal.error("\(scene):\(error.location.line):\(error.location.column): error: \(error.message)")
    return Failure(status: .renderFailed)
  }
}
