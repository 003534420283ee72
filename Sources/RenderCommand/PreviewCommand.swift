import ArgumentParser
import Foundation
import Pipeline
import Preview

/// `render preview SCENE.json [--port P] [--fps N] [--slow X] [--scale S]
/// [--appearance light|dark]`: a page in the browser that shows the scene
/// while its file is edited (docs/cli.md, "Live preview").
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Serve a live preview of the scene on 127.0.0.1: edit the file, see the frame at the playhead.")

  @Argument(help: "The scene file.")
  var scene: String

  @Option(help: "The port on 127.0.0.1 (default \(LivePreview.defaultPort), or the next free one; 0 for any free port).")
  var port: Int?

  @Option(
    help: "Output frames per second of the steps and playback: a number or a ratio A/B (default: a Lottie file's own rate, else 60).",
    transform: FrameRate.argument)
  var fps: FrameRate?

  @Option(help: "Slow-motion factor: a frame step is 1 / (fps × slow) of scene time, and playback's default speed 1/slow.")
  var slow: Double = 1

  @OptionGroup var scaleOption: ScaleOption

  @OptionGroup var look: Look

  func validate() throws {
    if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
    guard slow.isFinite, slow > 0 else { throw ValidationError("--slow must be greater than 0, got \(slow)") }
  }

  func run() throws {
    // SIGINT and SIGTERM are taken by this thread alone (sigwait), in every
    // thread started from here on.
    var stopping = sigset_t()
    sigemptyset(&stopping)
    sigaddset(&stopping, SIGINT)
    sigaddset(&stopping, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &stopping, nil)

    var settings = PreviewSettings(scene: scene)
    settings.fps = fps
    settings.slow = slow
    settings.scale = scaleOption.scale
    settings.appearance = look.chosen
    let preview: LivePreview
    do {
      preview = try LivePreview.start(settings, port: port)
    } catch let error as PreviewError {
      throw Failure.usage(error.description)
    }
    // Unbuffered: a script waiting for the address reads it at once.
    Terminal.write("preview: \(preview.address)\n")
    var signal: Int32 = 0
    sigwait(&stopping, &signal)
    preview.stop()
    // Now, without waiting for the connections' tasks: the port is closed,
    // and the process's end closes the rest.
    Foundation.exit(0)
  }
}
