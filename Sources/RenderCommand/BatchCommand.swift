import ArgumentParser
import Foundation
import Pipeline
import Primitives
import SceneModel

/// `render batch PATH... --out DIR`: every scene (files, or folders of
/// *.json) with the same options, each on all cores; keeps going past a
/// failing scene, prints one line per scene (or JSON), and exits non-zero
/// if any failed: 65 when every failure was an invalid scene, else 1.
struct Batch: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Render many scenes (files or folders of *.json) into one folder.")

  @Argument(help: "Scene files or folders of scenes.")
  var paths: [String]

  @Option(help: "The folder to write into.")
  var out: String

  @OptionGroup var options: RenderOptions

  func validate() throws {
    if paths.isEmpty { throw ValidationError("name at least one scene file or folder") }
  }

  /// The scene files: files as given, folders' *.json sorted by name.
  func scenes() throws -> [String] {
    var out: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ValidationError("no such file or folder: \(path)")
      }
      if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        out += names.filter { $0.hasSuffix(".json") }.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
      } else {
        out.append(path)
      }
    }
    return out
  }

  /// Two scenes that would write the same output are a usage error before
  /// anything is rendered (docs/cli.md), naming both files. Scenes that are
  /// not JSON or have an invalid name are left to fail on their own.
  func checkConflicts(_ files: [String]) throws {
    let formats: [String]?
    do { formats = try options.format.map(RenderOptions.formats) } catch let error as ValidationError {
      Terminal.error("render: error: \(error.message)")
      throw Failure(status: .usage)
    }
    var claimed: [String: String] = [:]
    for file in files {
      // The name alone, not a second decoding of every scene.
      guard let data = FileManager.default.contents(atPath: file),
        let name = SceneDecoder.outputName([UInt8](data), defaultName: SceneFile.defaultName(file)),
        let targets = try? OutputTarget.targets(name: name, output: nil, formats: formats, folder: out)
      else { continue }
      for claim in Set(targets.map { $0.claim(name: name) }) {
        if let first = claimed[claim] {
          Terminal.error(
            "render: error: \(first) and \(file) both write \(claim) (both scenes are named \(Excerpt.quoted(name))); give one a different \"name\""
          )
          throw Failure(status: .usage)
        }
        claimed[claim] = file
      }
    }
  }

  /// One scene's line of `--json`.
  struct SceneResult: Encodable {
    var summary: RenderSummary?
    var scene: String
    var ok: Bool
    var error: String?

    func encode(to encoder: any Encoder) throws {
      try summary?.encode(to: encoder)
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(scene, forKey: .scene)
      try c.encode(ok, forKey: .ok)
      try c.encodeIfPresent(error, forKey: .error)
    }
    enum CodingKeys: CodingKey { case scene, ok, error }
  }

  func run() throws {
    Signals.install()
    let files: [String]
    do { files = try scenes() } catch let error as ValidationError {
      Terminal.error("render: error: \(error.message)")
      throw Failure(status: .usage)
    }
    if !options.null { try checkConflicts(files) }
    var results: [SceneResult] = []
    var failed: [ExitStatus] = []
    for file in files {
      var job = SceneJob(path: file, options: options, outputs: .named(output: nil, folder: out))
      job.options.json = false
      do {
        let summary = try job.run()
        let paths = summary.outputs.map(\.path).joined(separator: ", ")
        results.append(SceneResult(summary: summary, scene: file, ok: true))
        if !options.json {
          Terminal.write(
            "ok      \(file) → \(paths.isEmpty ? "(discarded)" : paths) (\(summary.frames) frames, \(String(format: "%.1f", summary.seconds)) s)\n")
        }
      } catch let failure as Failure {
        failed.append(failure.status)
        let what = failure.status == .invalidScene ? "invalid" : failure.status == .usage ? "unusable" : "failed"
        results.append(SceneResult(scene: file, ok: false, error: what))
        if !options.json { Terminal.write("\(what.padding(toLength: 8, withPad: " ", startingAt: 0))\(file)\n") }
      }
    }
    if options.json { try Terminal.json(results) }
    if !failed.isEmpty { throw Failure(status: failed.allSatisfy { $0 == .invalidScene } ? .invalidScene : .renderFailed) }
  }
}
