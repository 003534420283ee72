import ArgumentParser
import Foundation
import Pipeline
import Primitives
import SceneModel

/// `render batch PATH... --out DIR`: every scene (files, or folders searched
/// recursively for *.json) with the same options, each on all cores, its
/// outputs in the same relative folder under DIR; keeps going past a
/// failing scene, prints one line per scene (or JSON), and exits non-zero
/// if any failed: 65 when every failure was an invalid scene, else 1.
/// `--shard I/N` renders one of N disjoint parts; `--cache DIR` copies
/// outputs rendered before instead of rendering them again (docs/cli.md,
/// "Batch at scale").
struct Batch: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Render many scenes (files or folders of *.json) into one folder.")

  @Argument(help: "Scene files or folders of scenes (searched recursively).")
  var paths: [String]

  @Option(help: "The folder to write into; a scene's outputs go to its relative folder under it.")
  var out: String

  @Option(help: "I/N: render only shard I of N (1 ≤ I ≤ N), the scenes dealt round-robin by relative path.")
  var shard: String?

  @Option(help: "A folder of outputs keyed by content: a scene rendered before with the same files and options is copied from it.")
  var cache: String?

  @OptionGroup var options: RenderOptions

  func validate() throws {
    if paths.isEmpty { throw ValidationError("name at least one scene file or folder") }
    if let shard { _ = try Self.shard(shard) }
  }

  /// `I/N` → (I, N), 1 ≤ I ≤ N.
  static func shard(_ text: String) throws -> (index: Int, count: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else {
      throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N (shard I of N), e.g. 2/4; got \(Excerpt.quoted(text))")
    }
    return (i, n)
  }

  /// A scene file, where it was found, and its outputs' folder.
  struct Entry {
    var file: String
    /// Its path below the PATH it was found under (its file name for a file given as is).
    var relative: String
    /// The folder of `relative` ("" at the top).
    var folder: String { (relative as NSString).deletingLastPathComponent }
  }

  /// The scene files, sorted by relative path (byte order; the order the
  /// PATHs were given breaks ties).
  func scenes() throws -> [Entry] {
    var found: [(Entry, Int)] = []
    for (p, path) in paths.enumerated() {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ValidationError("no such file or folder: \(path)")
      }
      if isDirectory.boolValue {
        let root = URL(fileURLWithPath: path)
        let all = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        for relative in all where relative.hasSuffix(".json") && !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
          found.append((Entry(file: root.appendingPathComponent(relative).path, relative: relative), p))
        }
      } else {
        found.append((Entry(file: path, relative: (path as NSString).lastPathComponent), p))
      }
    }
    return found.sorted { a, b in
      let x = Array(a.0.relative.utf8), y = Array(b.0.relative.utf8)
      return x != y ? x.lexicographicallyPrecedes(y) : a.1 < b.1
    }.map(\.0)
  }

  /// Shard `index` of `count`: the k-th scene (from 0) goes to shard k mod N + 1.
  static func dealt<T>(_ all: [T], shard: (index: Int, count: Int)?) -> [T] {
    guard let shard else { return all }
    return all.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
  }

  func folder(_ entry: Entry) -> String {
    entry.folder.isEmpty ? out : URL(fileURLWithPath: out).appendingPathComponent(entry.folder).path
  }

  /// Two scenes that would write the same output are a usage error before
  /// anything is rendered (docs/cli.md), naming both files. Scenes that are
  /// not JSON or have an invalid name are left to fail on their own.
  func checkConflicts(_ entries: [Entry]) throws {
    let formats: [String]?
    do { formats = try options.format.map(RenderOptions.formats) } catch let error as ValidationError {
      Terminal.error("render: error: \(error.message)")
      throw Failure(status: .usage)
    }
    var claimed: [String: String] = [:]
    for entry in entries {
      // The name alone, not a second decoding of every scene.
      guard let data = FileManager.default.contents(atPath: entry.file),
        let name = SceneDecoder.outputName([UInt8](data), defaultName: SceneFile.defaultName(entry.file)),
        let targets = try? OutputTarget.targets(name: name, output: nil, formats: formats, folder: folder(entry))
      else { continue }
      for claim in Set(targets.map { $0.claim(name: name) }) {
        if let first = claimed[claim] {
          Terminal.error(
            "render: error: \(first) and \(entry.file) both write \(claim) (both scenes are named \(Excerpt.quoted(name))); give one a different \"name\""
          )
          throw Failure(status: .usage)
        }
        claimed[claim] = entry.file
      }
    }
  }

  /// One scene's object in `--json`.
  struct SceneResult: Encodable {
    struct Output: Encodable {
      var path: String
      var format: String
      var frames: Int
      var bytes: Int
      var sha256: String
    }
    var scene: String
    var status: String
    var cached: Bool
    var outputs: [Output]
    var frames: Int?
    var seconds: Double?
    /// Kept for scripts written before `status`.
    var ok: Bool
    var error: String?
  }

  func run() throws {
    Signals.install()
    let all: [Entry]
    do { all = try scenes() } catch let error as ValidationError {
      Terminal.error("render: error: \(error.message)")
      throw Failure(status: .usage)
    }
    let entries = Self.dealt(all, shard: try shard.map(Self.shard))
    if !options.null { try checkConflicts(entries) }
    let store = try cache.map { folder throws(Failure) in try OutputCache.open(folder) }
    var results: [SceneResult] = []
    var failed: [ExitStatus] = []
    for entry in entries {
      let file = entry.file
      var job = SceneJob(path: file, options: options, outputs: .named(output: nil, folder: folder(entry)))
      job.options.json = false
      do {
        var cached = false
        let summary: RenderSummary
        // Each file's SHA-256, for --json and the cache: read once.
        var digests: [String: String] = [:]
        func digest(_ s: RenderSummary) {
          for o in s.outputs { for path in o.files.isEmpty ? [o.path] : o.files { digests[path] = OutputCache.sha256(file: path) } }
        }
        if let store, !options.null, let loaded = OutputCache.load(file, options: options) {
          if let hit = store.copy(loaded.key, into: folder(entry)) {
            (summary, digests) = hit
            cached = true
          } else {
            job.prepared = .init(renderer: loaded.renderer)
            summary = try job.run()
            digest(summary)
            store.keep(summary, under: loaded.key, from: folder(entry), digests: digests)
          }
        } else {
          summary = try job.run()
          if options.json { digest(summary) }
        }
        let outputs = summary.outputs.flatMap { o in
          (o.files.isEmpty ? [o.path] : o.files).map { path in
            SceneResult.Output(
              path: path, format: o.format, frames: o.files.isEmpty ? o.frames : 1, bytes: fileSize(atPath: path), sha256: digests[path] ?? "")
          }
        }
        results.append(
          SceneResult(scene: file, status: "ok", cached: cached, outputs: outputs, frames: summary.frames, seconds: summary.seconds, ok: true))
        if !options.json {
          let paths = summary.outputs.map(\.path).joined(separator: ", ")
          Terminal.write(
            "ok      \(file) → \(paths.isEmpty ? "(discarded)" : paths) (\(summary.frames) frames, \(cached ? "cached" : String(format: "%.1f s", summary.seconds)))\n"
          )
        }
      } catch let failure as Failure {
        failed.append(failure.status)
        let what = failure.status == .invalidScene ? "invalid" : failure.status == .usage ? "unusable" : "failed"
        let status = failure.status == .invalidScene ? "invalid" : "failed"
        results.append(SceneResult(scene: file, status: status, cached: false, outputs: [], ok: false, error: what))
        if !options.json { Terminal.write("\(what.padding(toLength: 8, withPad: " ", startingAt: 0))\(file)\n") }
      }
    }
    if options.json { try Terminal.json(results) }
    StepSummary.append(results)
    if !failed.isEmpty { throw Failure(status: failed.allSatisfy { $0 == .invalidScene } ? .invalidScene : .renderFailed) }
  }
}

/// The Markdown summary GitHub Actions shows for a job: appended to the
/// file `$GITHUB_STEP_SUMMARY` names, when it is set.
enum StepSummary {
  static func markdown(_ results: [Batch.SceneResult]) -> String {
    func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
    var text = "### render batch\n\n"
    let counts = Dictionary(grouping: results, by: \.status).map { "\($0.value.count) \($0.key)" }.sorted().joined(separator: ", ")
    text += "\(results.count) scene\(results.count == 1 ? "" : "s"): \(counts.isEmpty ? "none" : counts)\n\n"
    text += "| scene | status | outputs |\n|---|---|---|\n"
    for r in results {
      let outputs =
        r.outputs.count > 3
        ? "\(r.outputs.count) files" : r.outputs.map { "`\(cell($0.path))` (\(OutputSummary.size($0.bytes)))" }.joined(separator: "<br>")
      text += "| `\(cell(r.scene))` | \(r.status)\(r.cached ? " (cached)" : "") | \(outputs.isEmpty ? "—" : outputs) |\n"
    }
    return text + "\n"
  }

  static func append(_ results: [Batch.SceneResult]) {
    guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
    guard
      let handle = FileHandle(forWritingAtPath: path)
        ?? (FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil)
    else {
      Terminal.warning("render: warning: cannot write the step summary to \(path)")
      return
    }
    handle.seekToEndOfFile()
    handle.write(Data(markdown(results).utf8))
    handle.closeFile()
  }
}
