import ArgumentParser
import Foundation
import Jobs
import Pipeline
import Primitives
import Render
import SceneModel
import Syntax

/// `render batch PATH... --out DIR`: every scene (files, or folders searched
/// recursively for *.json and *.lottie) with the same options, each on all cores, its
/// outputs in the same relative folder under DIR; keeps going past a
/// failing scene, prints one line per scene (or JSON), and exits non-zero
/// if any failed: 65 when every failure was an invalid scene, else 1.
/// `--shard I/N` renders one of N disjoint parts; `--cache DIR` copies
/// outputs rendered before instead of rendering them again; `--baseline
/// DIR` compares each scene with the one at the same relative path under
/// DIR and `--report DIR` shows what changed (docs/cli.md, "Batch at scale").
struct Batch: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render many scenes (files or folders of *.json and *.lottie) into one folder.")

  @Argument(help: "Scene files or folders of scenes (searched recursively).")
  var paths: [String]

  @Option(help: "The folder to write into; a scene's outputs go to its relative folder under it.")
  var out: String

  @Option(help: "I/N: render only shard I of N (1 ≤ I ≤ N), the scenes dealt round-robin by relative path.")
  var shard: String?

  @Option(help: "A folder of outputs keyed by content: a scene rendered before with the same files and options is copied from it.")
  var cache: String?

  @Option(help: "A folder of earlier scenes (a checkout of the main branch): each scene is compared with the one at its relative path.")
  var baseline: String?

  @Option(help: "With --baseline: a folder for summary.md and, per changed scene, its pictures side by side.")
  var report: String?

  @OptionGroup var options: RenderOptions

  @OptionGroup var allowance: DiffAllowance

  func validate() throws {
    if paths.isEmpty { throw ValidationError("name at least one scene file or folder") }
    if let shard { _ = try Self.shard(shard) }
    if report != nil && baseline == nil { throw ValidationError("--report writes what --baseline finds; add --baseline DIR") }
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
  /// PATHs were given breaks ties), and whether every PATH is a folder.
  func scenes() throws -> (entries: [Entry], allFolders: Bool) {
    var found: [(Entry, Int)] = []
    var allFolders = true
    for (p, path) in paths.enumerated() {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ValidationError("no such file or folder: \(path)")
      }
      if isDirectory.boolValue {
        found += Self.sceneFiles(in: path).map { (Entry(file: OutputCache.join(path, $0), relative: $0), p) }
      } else {
        allFolders = false
        found.append((Entry(file: path, relative: (path as NSString).lastPathComponent), p))
      }
    }
    let sorted = found.sorted { a, b in a.0.relative != b.0.relative ? Self.byteOrder(a.0.relative, b.0.relative) : a.1 < b.1 }
    return (sorted.map(\.0), allFolders)
  }

  /// Paths in byte order (not Unicode collation): the same on every machine.
  static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

  /// The endings of the files a folder's walk takes: scenes and Lottie
  /// animations (`.json`), dotLottie archives (`.lottie`).
  static let sceneExtensions = [".json", ".lottie"]

  /// The relative paths of the scene files below `folder`, hidden files
  /// and folders left out.
  static func sceneFiles(in folder: String) -> [String] {
    let all = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
    return all.filter { file in
      sceneExtensions.contains { file.hasSuffix($0) } && !file.split(separator: "/").contains(where: { $0.hasPrefix(".") })
    }
  }

  /// A relative path without its scene file's ending.
  static func stem(_ relative: String) -> String {
    for ending in sceneExtensions where relative.hasSuffix(ending) { return String(relative.dropLast(ending.count)) }
    return relative
  }

  /// Baseline scenes with no scene at their relative path, in byte order,
  /// dealt to shards as the scenes are. Only when every PATH is a folder:
  /// a file given alone says nothing of its neighbours.
  static func removed(_ all: [Entry], baseline: String, shard: (index: Int, count: Int)?) -> [String] {
    let present = Set(all.map(\.relative))
    return dealt(sceneFiles(in: baseline).filter { !present.contains($0) }.sorted(by: byteOrder), shard: shard)
  }

  /// Shard `index` of `count`: the k-th scene (from 0) goes to shard k mod N + 1.
  static func dealt<T>(_ all: [T], shard: (index: Int, count: Int)?) -> [T] {
    guard let shard else { return all }
    return all.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
  }

  func folder(_ entry: Entry) -> String {
    entry.folder.isEmpty ? out : OutputCache.join(out, entry.folder)
  }

  /// Two scenes that would write the same output are a usage error before
  /// anything is rendered (docs/cli.md), naming both files. Scenes that are
  /// not JSON or have an invalid name are left to fail on their own.
  func checkConflicts(_ entries: [Entry]) throws {
    let formats: [String]?
    do { formats = try options.format.map(RenderOptions.formats) } catch let error as ValidationError {
      throw Failure.usage(error.message)
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
          throw Failure.usage(
            "\(first) and \(entry.file) both write \(claim) (both scenes are named \(Excerpt.quoted(name))); give one a different \"name\"")
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
    /// With --baseline: how the scene compares with its baseline.
    var diff: BaselineDiff?
  }

  /// A scene against its baseline in `--json` and the report.
  struct BaselineDiff: Encodable {
    /// The baseline scene's file.
    var baseline: String
    var frames: Int
    var differingFrames: Int
    var differing: [FrameComparison.Range]
    var worst: FrameComparison.Worst?
    /// The worst frame's differing pixels as a share of its pixels.
    var worstRatio: Double?
    /// Why no frames were compared (the baseline is invalid, the size changed).
    var note: String?
    /// The report's folder of pictures for this scene, relative to the report.
    var pictures: String?
    /// The two scenes, their assets and fonts are the same bytes: nothing
    /// was rendered to know they are unchanged.
    var identical: Bool?
  }

  func run() throws {
    Signals.install()
    let all: [Entry], allFolders: Bool
    do { (all, allFolders) = try scenes() } catch let error as ValidationError {
      throw Failure.usage(error.message)
    }
    if let baseline {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: baseline, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw Failure.usage("the baseline folder \(baseline) does not exist")
      }
    }
    // Over every scene, not only this shard's: two shards must not write
    // one output file either.
    if !options.null { try checkConflicts(all) }
    let store = try cache.map { folder throws(Failure) in try OutputCache.open(folder) }
    if let report { _ = try OutputCache.writableFolder(report, option: "--report") }
    let dealing = try shard.map(Self.shard)
    var results: [SceneResult] = []
    var failed: [ExitStatus] = []
    for entry in Self.dealt(all, shard: dealing) {
      let file = entry.file
      do {
        // Read and decoded once, for the key, the render and the comparison.
        let source = try SceneFile.loadOrReport(file, appearance: options.appearance)
        let key = store != nil || baseline != nil ? OutputCache.key(source, options: options) : ""
        var quiet = options
        quiet.json = false
        var cached = false
        let summary: RenderSummary
        // Each file's SHA-256, for --json and the cache: read once.
        var digests: [String: String] = [:]
        if let store, !options.null, let hit = store.copy(key, into: folder(entry)) {
          summary = RenderSummary(scene: "", frames: hit.frames, seconds: 0, outputs: hit.outputs)
          digests = hit.digests
          cached = true
        } else {
          summary = try JobRun(file: file, options: quiet).run(source, try options.request(folder: folder(entry)))
          if store != nil || options.json {
            for o in summary.outputs { for path in o.files.isEmpty ? [o.path] : o.files { digests[path] = OutputCache.sha256(file: path) } }
          }
          store?.keep(frames: summary.frames, outputs: summary.outputs, under: key, from: folder(entry), digests: digests)
        }
        let outputs = summary.outputs.flatMap { o in
          (o.files.isEmpty ? [o.path] : o.files).map { path in
            SceneResult.Output(
              path: path, format: o.format, frames: o.files.isEmpty ? o.frames : 1, bytes: fileSize(atPath: path), sha256: digests[path] ?? "")
          }
        }
        var result = SceneResult(
          scene: file, status: "ok", cached: cached, outputs: outputs, frames: summary.frames, seconds: summary.seconds, ok: true)
        if let baseline {
          result.diff = try compare(entry, source, key: key, baseline: baseline)
          result.status = result.diff == nil ? "new" : result.diff!.differingFrames > 0 || result.diff!.note != nil ? "changed" : "unchanged"
        }
        results.append(result)
        if !options.json {
          let paths = summary.outputs.map(\.path).joined(separator: ", ")
          let when = result.diff.map { d in d.note ?? (d.differing.isEmpty ? "" : " at " + FrameComparison.text(d.differing)) } ?? ""
          Terminal.write(
            "\(result.status.padding(toLength: 10, withPad: " ", startingAt: 0))\(file) → \(paths.isEmpty ? "(discarded)" : paths) (\(summary.frames) frames, \(cached ? "cached" : String(format: "%.1f s", summary.seconds)))\(when.isEmpty ? "" : ";" + when)\n"
          )
        }
      } catch let failure as Failure {
        failed.append(failure.status)
        let what = failure.status == .invalidScene ? "invalid" : failure.status == .usage ? "unusable" : "failed"
        let status = failure.status == .invalidScene ? "invalid" : "failed"
        results.append(SceneResult(scene: file, status: status, cached: false, outputs: [], ok: false, error: what))
        if !options.json { Terminal.write("\(what.padding(toLength: 10, withPad: " ", startingAt: 0))\(file)\n") }
      }
    }
    var reportFailed = false
    if let baseline {
      for relative in allFolders ? Self.removed(all, baseline: baseline, shard: dealing) : [] {
        let file = OutputCache.join(baseline, relative)
        results.append(SceneResult(scene: file, status: "removed", cached: false, outputs: [], ok: true))
        if !options.json { Terminal.write("removed   \(file)\n") }
      }
      if let report {
        do {
          try DiffReport.write(BaselineReport.markdown(results, baseline: baseline, allowance: allowance), to: OutputCache.join(report, "summary.md"))
        } catch {
          Terminal.error("render: error: \(report): \(error)")
          reportFailed = true
        }
      }
    }
    // The scenes' results are printed whatever happened to the report.
    if options.json { try Terminal.json(results) }
    StepSummary.append(results)
    if !failed.isEmpty { throw Failure(status: failed.allSatisfy { $0 == .invalidScene } ? .invalidScene : .renderFailed) }
    if reportFailed || results.contains(where: { $0.status == "changed" }) { throw Failure(status: .renderFailed) }
  }

  /// The scene (loaded, with its cache `key`) compared with the baseline
  /// scene at its relative path — nil when there is none — as `render
  /// diff` compares them; a changed scene's pictures go to the report. A
  /// baseline that does not load or render, or of another size, is a
  /// change (`note` says which); bad options or the scene's own failure
  /// fail the scene.
  func compare(_ entry: Entry, _ current: any FrameSource, key: String, baseline: String) throws -> BaselineDiff? {
    let old = OutputCache.join(baseline, entry.relative)
    guard FileManager.default.fileExists(atPath: old) else { return nil }
    var diff = BaselineDiff(baseline: old, frames: 0, differingFrames: 0, differing: [])
    let earlier: any FrameSource
    do { earlier = try SceneFile.load(old, appearance: options.appearance) } catch {
      diff.note = "the baseline scene does not load"
      return diff
    }
    // The same scene, assets and fonts render the same pixels: unchanged
    // without rendering (the usual case in a pull request).
    if OutputCache.key(earlier, options: options) == key {
      diff.identical = true
      return diff
    }
    let folder = Self.stem(entry.relative)
    // One pass, with pictures when there is a report: they are kept only
    // if some frame differs.
    let pictures = report.map { DiffReport(folder: OutputCache.join($0, folder)) }
    let comparison: FrameComparison
    do {
      comparison = try FrameComparison.compare(
        earlier, current, fps: options.fps ?? FrameRate.sceneDefault, from: options.from, to: options.to, scale: options.scale, rule: allowance.rule,
        workers: options.jobs, report: pictures, cancellation: Signals.cancellation)
    } catch {
      pictures?.removeFolders(keepingFoldersDownTo: report)
      switch error {
      case .job(.usage(let message)): throw Failure.usage("\(entry.file): \(message)")
      case .job(let e): throw JobRun.report(e, file: entry.file)
      case .render(1, let e): throw Frames.report(e, scene: entry.file)
      case .render(_, let e):
        diff.note = "the baseline scene does not render (\(e))"
        return diff
      case .sizes:
        diff.note = error.description
        return diff
      }
    }
    if let pictures {
      if comparison.differs, let worst = comparison.worstPicture {
        do { try pictures.finish(worst: worst, markdown: nil) } catch {
          Terminal.error("render: error: \(error)")
          throw Failure(status: .renderFailed)
        }
        diff.pictures = folder
      } else {
        pictures.discard(keepingFoldersDownTo: report)
      }
    }
    diff.frames = comparison.frames.count
    diff.differingFrames = comparison.differingFrames
    diff.differing = comparison.ranges
    diff.worst = comparison.worstSummary
    diff.worstRatio = comparison.worstSummary.map { Double($0.pixels) / Double(comparison.framePixels) }
    return diff
  }
}

/// Text as one Markdown table cell: pipes escaped, lines joined.
func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }

/// The Markdown summary GitHub Actions shows for a job: appended to the
/// file `$GITHUB_STEP_SUMMARY` names, when it is set.
enum StepSummary {
  static func markdown(_ results: [Batch.SceneResult]) -> String {
    var text = "### render batch\n\n"
    let counts = Dictionary(grouping: results, by: \.status).map { "\($0.value.count) \($0.key)" }.sorted().joined(separator: ", ")
    text += "\(results.count) scene\(results.count == 1 ? "" : "s"): \(counts.isEmpty ? "none" : counts)\n\n"
    let compared = results.contains { $0.diff != nil }
    text += compared ? "| scene | status | changed at | outputs |\n|---|---|---|---|\n" : "| scene | status | outputs |\n|---|---|---|\n"
    for r in results {
      let outputs =
        r.outputs.count > 3
        ? "\(r.outputs.count) files" : r.outputs.map { "`\(cell($0.path))` (\(OutputSummary.size($0.bytes)))" }.joined(separator: "<br>")
      let when = r.diff.map { $0.note ?? FrameComparison.text($0.differing) } ?? ""
      text +=
        "| `\(cell(r.scene))` | \(r.status)\(r.cached ? " (cached)" : "") |\(compared ? " \(when.isEmpty ? "—" : cell(when)) |" : "") \(outputs.isEmpty ? "—" : outputs) |\n"
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

/// `render batch --baseline --report DIR`: DIR/summary.md, what changed,
/// when and by how much, with each changed scene's pictures.
enum BaselineReport {
  static func markdown(_ results: [Batch.SceneResult], baseline: String, allowance: DiffAllowance) -> String {
    func link(_ s: String) -> String {
      s.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/")
    }
    func much(_ d: Batch.BaselineDiff) -> String {
      if let note = d.note { return note }
      if d.identical == true { return "the same files as the baseline" }
      guard d.differingFrames > 0, let w = d.worst else { return "no frame differs (\(d.frames) compared)" }
      let share = (d.worstRatio ?? 0) * 100
      return
        "\(d.differingFrames) of \(d.frames) frames; at worst \(w.pixels) pixels (\(String(format: share < 0.1 ? "%.3f" : "%.1f", share)) %), up to \(w.maxLevel) levels, at \(String(format: "%.3f", w.t)) s"
    }
    let counts = ["changed", "new", "removed", "unchanged", "invalid", "failed"].compactMap { status -> String? in
      let n = results.filter { $0.status == status }.count
      return n == 0 ? nil : "\(n) \(status)"
    }
    var text = "# Visual changes\n\n"
    text += "Compared with `\(baseline)`: \(counts.isEmpty ? "no scenes" : counts.joined(separator: ", ")).\n"
    var rule = "A pixel differs when a channel moved by more than \(allowance.threshold) levels; a frame differs when "
    switch (allowance.maxDiffPixels, allowance.maxDiffRatio) {
    case (nil, nil): rule += "any pixel does."
    case (let n?, nil): rule += "more than \(n) pixels do."
    case (nil, let r?): rule += "more than \(formatShare(r)) of its pixels do."
    case (let n?, let r?): rule += "more than \(n) pixels or \(formatShare(r)) of its pixels do, whichever is more."
    }
    text += rule + "\n\n| scene | status | when | how much |\n|---|---|---|---|\n"
    for r in results {
      let when = r.diff.map { FrameComparison.text($0.differing) } ?? ""
      let how = r.diff.map(much) ?? (r.status == "new" ? "no baseline" : r.status == "removed" ? "no longer exists" : "—")
      text += "| `\(cell(r.scene))` | \(r.status) | \(when.isEmpty ? "—" : when) | \(cell(how)) |\n"
    }
    for r in results where r.status == "changed" {
      guard let d = r.diff else { continue }
      text += "\n## `\(r.scene)`\n\n"
      text += d.differing.isEmpty ? "\(much(d)).\n" : "Changed at \(FrameComparison.text(d.differing)): \(much(d)).\n"
      if let folder = d.pictures {
        text += "\nThe most different frame — baseline, new render and their difference:\n\n"
        text +=
          "![baseline, new and difference](\(link(folder))/diff.png)\n\nEvery frame side by side: [\(folder)/diff.mp4](\(link(folder))/diff.mp4)\n"
      }
    }
    return text
  }

  static func formatShare(_ r: Double) -> String { "\(formatNumber(r * 100)) %" }
}
