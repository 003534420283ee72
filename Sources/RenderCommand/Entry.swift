import ArgumentParser
import CMalloc
import Foundation
import Syntax

/// `render`: the command-line front door (docs/cli.md). Exit status: 0
/// success, 1 the render failed, 2 bad usage, 65 an invalid scene.
struct RootCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render UI animations written as JSON scenes, with SwiftUI's timing.",
    discussion: "The scene format is described in docs/scene-format.md, every command and option in docs/cli.md.",
    version: RenderVersion.current,
    subcommands: [
      RenderScene.self, Still.self, Validate.self, Info.self, Batch.self, Curve.self, ChartCommand.self, Sheet.self, Compare.self, Diff.self,
    ],
    defaultSubcommand: RenderScene.self
  )

  /// The subcommands' names.
  static var commandNames: [String] {
    configuration.subcommands.map { $0._commandName }
  }
}

/// The renderer's version: part of every batch cache key, so it changes
/// with any change to the bytes a scene renders to.
enum RenderVersion {
  static let current = "springframe 0.18.0"
}

/// The exit statuses (docs/cli.md).
enum ExitStatus: Int32 {
  case success = 0
  case renderFailed = 1
  case usage = 2
  case invalidScene = 65
}

/// An error that has already been reported to standard error.
struct Failure: Error {
  let status: ExitStatus
}

@main
enum Entry {
  static func main() {
    // Every frame allocates and frees buffers of megabytes (the canvas,
    // layers, blur planes). Above glibc's mmap threshold each is a fresh
    // mapping whose pages the kernel zero-fills: a fifth of a 1080p frame's
    // time under `perf`. Kept in the heap, the pages are reused: +15% frames/s
    // on Benchmarks/Scenes/dashboard-1080p.json, with the same peak memory.
    mallopt(M_MMAP_THRESHOLD, 256 << 20)
    mallopt(M_TRIM_THRESHOLD, 512 << 20)
    // One arena for every thread: glibc's default of one per thread (up to
    // eight per core) keeps each worker's and each x264 thread's freed
    // megabytes apart, 26 MB more resident at the peak on the same scene
    // at no measurable speed (scripts/bench-memory).
    mallopt(M_ARENA_MAX, 1)
    // Every block malloc returns starts as the same bytes (0x4D ^ 0xFF),
    // whatever the heap held before: libx264 (Debian's, FFmpeg's CLI too)
    // reads memory it never wrote, which changed the last bytes of a slice
    // (never a decoded pixel) with what earlier scenes of a batch had left
    // there; now the same scene and options give the same MP4 bytes in any
    // process (BatchScaleTests, scripts/bench-batch). No measurable cost.
    mallopt(M_PERTURB, 77)
    let status: ExitStatus
    // `render SCENE` is the default command, so a mistyped command name
    // would be read as a scene file: name it as a command instead.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let first = arguments.first, !first.hasPrefix("-"), !first.contains("."), !first.contains("/"),
      !FileManager.default.fileExists(atPath: first)
    {
      let commands = RootCommand.commandNames
      let suggestion = Suggestions.didYouMean(first, in: commands)
      if !commands.contains(first), !suggestion.isEmpty {
        Terminal.error("render: error: unknown command '\(first)'\(suggestion)")
        exit(ExitStatus.usage.rawValue)
      }
    }
    do {
      var command = try RootCommand.parseAsRoot()
      try command.run()
      status = .success
    } catch let failure as Failure {
      status = failure.status
    } catch {
      let code = RootCommand.exitCode(for: error)
      if code == .success {
        print(RootCommand.fullMessage(for: error))
        status = .success
      } else {
        // ArgumentParser's usage errors (its 64) are our 2 (docs/cli.md), in
        // our format: one error line and one hint, no usage block.
        Terminal.error(Usage.lines(RootCommand.fullMessage(for: error)))
        status = code.rawValue == ExitStatus.renderFailed.rawValue ? .renderFailed : .usage
      }
    }

    exit(status.rawValue)
  }
}

/// Standard output carries only what a command prints on purpose;
/// diagnostics go to standard error.
enum Terminal {
  static func error(_ message: String) {
    FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
  }
  /// `render: warning: …`: something was lost, the exit status stays
  /// (docs/cli.md); callers leave it out under `--quiet`.
  static func warning(_ message: String) {
    error("render: warning: \(message)")
  }
  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// `value` as one line of JSON on standard output.
  static func json(_ value: some Encodable) throws {
    do {
      write(try JSONWriter.line(value) + "\n")
    } catch {
      Terminal.error("render: error: cannot write the JSON summary: \(error)")
      throw Failure(status: .renderFailed)
    }
  }

}
