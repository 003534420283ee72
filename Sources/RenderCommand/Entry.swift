import ArgumentParser
import CMalloc
import Foundation
import Jobs
import Primitives
import Syntax

/// `render`: the command-line front door (docs/cli.md). Exit status: 0
/// success, 1 the render failed, 2 bad usage, 65 an invalid scene.
struct RootCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render UI animations written as JSON scenes, with SwiftUI's timing.",
    discussion: "The scene format is described in docs/scene-format.md, every command and option in docs/cli.md.",
    version: RenderVersion.identity,
    subcommands: [
      RenderScene.self, Still.self, Validate.self, Info.self, Batch.self, Curve.self, ChartCommand.self, Sheet.self, Compare.self, Diff.self,
      PreviewCommand.self,
    ],
    defaultSubcommand: RenderScene.self
  )

  /// The subcommands' names.
  static var commandNames: [String] {
    configuration.subcommands.map { $0._commandName }
  }
}

/// The renderer's version, and the identity of this very binary: the
/// batch cache keys on the identity, so a binary built from other sources
/// never serves an output another one rendered, whatever the version says.
enum RenderVersion {
  static let current = "springframe 0.18.0"

  /// The version and the binary's build ID (`render --version` prints
  /// both): the linker's GNU build ID, a hash of the linked binary, read
  /// from the executable's ELF notes; without one, the SHA-256 of the
  /// executable's bytes.
  static let identity: String = {
    let executable = "/proc/self/exe"
    if let id = buildID(executable) { return "\(current) build \(id)" }
    return "\(current) sha256 \(OutputCache.sha256(file: executable))"
  }()

  /// The NT_GNU_BUILD_ID note of the ELF file at `path`, in hexadecimal.
  static func buildID(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    // The notes sit in the first pages, right after the program headers.
    let head = [UInt8](handle.readData(ofLength: 1 << 16))
    func u16(_ o: Int) -> Int { o + 2 <= head.count ? Int(head[o]) | Int(head[o + 1]) << 8 : 0 }
    func u32(_ o: Int) -> Int { o + 4 <= head.count ? u16(o) | u16(o + 2) << 16 : 0 }
    func u64(_ o: Int) -> Int { o + 8 <= head.count ? u32(o) | u32(o + 4) << 32 : 0 }
    // ELF64, little-endian.
    guard head.count >= 64, head[0..<4] == [0x7F, 0x45, 0x4C, 0x46], head[4] == 2, head[5] == 1 else { return nil }
    let phoff = u64(32), phentsize = u16(54), phnum = u16(56)
    for i in 0..<phnum {
      let ph = phoff + i * phentsize
      guard u32(ph) == 4 else { continue }  // PT_NOTE
      var note = u64(ph + 8)
      let end = min(note + u64(ph + 32), head.count)
      while note + 12 <= end {
        let nameSize = u32(note), descSize = u32(note + 4), type = u32(note + 8)
        let name = note + 12, desc = name + (nameSize + 3) / 4 * 4
        guard desc + descSize <= end else { break }
        if type == 3, nameSize == 4, head[name..<name + 3] == [0x47, 0x4E, 0x55] {  // "GNU"
          // Not Foundation's `String(format:)`, which costs a millisecond
          // of every start.
          return SHA256.lowercaseHex(head[desc..<desc + descSize])
        }
        note = desc + (descSize + 3) / 4 * 4
      }
    }
    return nil
  }
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

  /// Bad usage: `render: error: MESSAGE` on standard error, exit 2.
  static func usage(_ message: String) -> Failure {
    Terminal.error("render: error: \(message)")
    return Failure(status: .usage)
  }
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
    // No M_PERTURB: libx264 reads memory it never wrote, and only the blocks
    // it takes (memalign in CFFmpegShim) and the pictures it is given start
    // as the same bytes (the ones M_PERTURB wrote, so MP4 bytes are
    // unchanged); perturbing every malloc and free in the process cost a
    // tenth of `render --null` in memset.
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
