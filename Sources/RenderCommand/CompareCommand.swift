import ArgumentParser
import Foundation
import Jobs
import Pipeline
import Primitives
import Render
import Review
import SceneFiles
import SceneModel
import Syntax

/// `render compare SCENE... [--vary PATH=V1|V2|…] [--label TEXT]... -o OUT`:
/// scenes, or variants of one, side by side in sync (docs/cli.md,
/// "Comparisons").
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Scenes, or the --vary variants of one, side by side in sync, labelled, in any output format.")

  /// Panels at most.
  static let maximumPanels = 16

  @Argument(help: "The scene files (one with --vary).")
  var scenes: [String]

  @Option(help: "PATH=V1|V2|…: one variant per value, replacing the JSON value at PATH (timeline[1].animation); repeatable.")
  var vary: [String] = []

  @Option(help: "A panel's label, in panel order (repeatable; default: the scene's name or the varied values).")
  var label: [String] = []

  @Option(
    name: [.short, .customLong("output")],
    help: "The file to write (.mp4, .gif, .png, a folder ending in / or a %05d pattern). Default renders/NAME-compare.mp4.")
  var output: String?

  @OptionGroup var options: RenderOptions

  func validate() throws {
    guard !scenes.isEmpty else { throw ValidationError("give the scenes to compare") }
    if !vary.isEmpty && scenes.count != 1 { throw ValidationError("--vary makes variants of one scene; give one scene file") }
    if vary.isEmpty && scenes.count < 2 { throw ValidationError("give two scenes or more, or --vary PATH=V1|V2 to compare variants of one") }
    let panels = try vary.reduce(vary.isEmpty ? scenes.count : 1) { n, v in n * max(1, try Variation(v).values.count) }
    if panels > Self.maximumPanels { throw ValidationError("\(panels) panels is more than the limit of \(Self.maximumPanels)") }
    if label.count > panels { throw ValidationError("\(label.count) --label for \(panels) panels") }
    if options.overlay != nil { throw ValidationError("--overlay is not available on compare") }
  }

  func run() throws {
    Signals.install()
    let request = try options.request(outputs: output.map { [$0] } ?? [], folder: RenderScene.defaultFolder)
    if case .named(let outputs, _, _) = request.outputs, outputs.contains(where: \.overrides) {
      throw Failure.usage("render compare lays its panels out once: give --scale and --fps, not [scale=…,fps=…]")
    }
    // As many panels as validate() counted and allowed, labels included.
    let panels = try loadPanels()
    // The whole labels go into --json; the picture's may be cut short.
    let labels = panels.enumerated().map { i, p in i < label.count ? label[i] : p.label }
    let labelled = zip(panels, labels).map { p, text in (source: p.source, label: Excerpt.capped(text)) }
    let compare = ComparePanels(
      labelled, name: panels[0].source.name + "-compare", scale: options.scale, typesetter: ReviewStyle.typesetter())
    var summary = try JobRun(file: scenes[0], options: options).run(compare, request)
    summary.panels = zip(zip(panels, labels), compare.panels).map { panel, placed in
      let (p, text) = panel
      return CompareSummaryPanel(label: text, scene: p.file, rect: [placed.rect.x0, placed.rect.y0, placed.rect.width, placed.rect.height])
    }
    if options.json { try Terminal.json(summary) }
  }

  /// The scenes, or the variants of the one scene, in panel order.
  func loadPanels() throws -> [(source: any FrameSource, label: String, file: String)] {
    if vary.isEmpty {
      return try scenes.map { path in
        let r = try SceneFile.loadOrReport(path, appearance: options.appearance)
        return (r, r.name, path)
      }
    }
    let path = scenes[0]
    guard let data = FileManager.default.contents(atPath: path) else {
      _ = try SceneFile.loadOrReport(path, appearance: options.appearance)  // reports why
      throw Failure(status: .usage)
    }
    let source = [UInt8](data)
    let variations = try vary.map { try Variation($0) }
    // Every combination, the last --vary fastest.
    var combos: [[(Variation, String)]] = [[]]
    for v in variations { combos = combos.flatMap { c in v.values.map { c + [(v, $0)] } } }
    var panels: [(any FrameSource, String, String)] = []
    for combo in combos {
      var text = source
      for (v, value) in combo {
        do {
          text = try v.apply(value, to: text)
        } catch let error as Variation.Missing {
          throw Failure.usage("--vary \(Excerpt.quoted(v.path)): \(path) has no \(error.what)")
        }
      }
      let description = combo.map { "\($0.0.path)=\($0.1)" }.joined(separator: ", ")
      let file = "\(path) [\(Excerpt.capped(description))]"
      let renderer: SceneRenderer
      do {
        renderer = try SceneRenderer(
          decoding: text, file: file, directory: (path as NSString).deletingLastPathComponent, defaultName: SceneFile.defaultName(path),
          appearance: options.appearance)
      } catch {
        Terminal.error("\(error)")
        throw Failure(status: .invalidScene)
      }
      panels.append((renderer, combo.map(\.1).joined(separator: ", "), path))
    }
    return panels.map { (source: $0.0, label: $0.1, file: $0.2) }
  }
}

struct CompareSummaryPanel: Encodable {
  var label: String
  var scene: String
  var rect: [Int]
}

/// One `--vary PATH=V1|V2|…`: where in the scene's JSON, and the values.
struct Variation {
  let path: String
  let segments: [Segment]
  let values: [String]

  enum Segment: Equatable {
    case key(String)
    case index(Int)
  }

  struct Missing: Error { let what: String }

  init(_ argument: String) throws {
    guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
      throw ValidationError("--vary takes PATH=V1|V2|…, e.g. 'timeline[1].animation=bouncy|smooth', got \(Excerpt.quoted(argument))")
    }
    path = String(argument[..<equals])
    values = argument[argument.index(after: equals)...].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    guard let segments = Self.parse(path) else { throw ValidationError("--vary: \(Excerpt.quoted(path)) is not a path like timeline[1].animation") }
    self.segments = segments
  }

  /// `timeline[1].animation` → key, index, key.
  static func parse(_ path: String) -> [Segment]? {
    var segments: [Segment] = []
    for part in path.split(separator: ".", omittingEmptySubsequences: false) {
      var rest = Substring(part)
      let key = rest.prefix { $0 != "[" }
      guard !key.isEmpty || !segments.isEmpty else { return nil }
      if !key.isEmpty { segments.append(.key(String(key))) } else if rest.first != "[" { return nil }
      rest = rest.dropFirst(key.count)
      while rest.first == "[" {
        guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]), i >= 0 else { return nil }
        segments.append(.index(i))
        rest = rest[rest.index(after: close)...]
      }
      guard rest.isEmpty else { return nil }
    }
    return segments.isEmpty ? nil : segments
  }

  /// The JSON text of a value: itself when it parses as JSON, else a string.
  static func json(_ value: String) -> String {
    if (try? JSONParser.parse(value)) != nil { return value }
    return JSONWriter.string(value)
  }

  /// `text` with the value at the path replaced by `value`, everything else
  /// byte for byte as written (so messages still point into the file).
  func apply(_ value: String, to text: [UInt8]) throws -> [UInt8] {
    let root: JSONNode
    do { root = try JSONParser.parse(text) } catch { return text }  // the decoder reports it
    var node = root
    var walked = ""
    for segment in segments {
      switch (segment, node.value) {
      case (.key(let k), .object(let members)):
        guard let m = members.first(where: { $0.key == k }) else { throw Missing(what: walked.isEmpty ? "'\(k)'" : "'\(k)' in \(walked)") }
        node = m.value
        walked += walked.isEmpty ? k : ".\(k)"
      case (.index(let i), .array(let items)):
        guard i < items.count else { throw Missing(what: "\(walked)[\(i)] (it has \(items.count))") }
        node = items[i]
        walked += "[\(i)]"
      case (.key(let k), _): throw Missing(what: "'\(k)' in \(walked.isEmpty ? "it" : walked) (not an object)")
      case (.index(let i), _): throw Missing(what: "\(walked)[\(i)] (not an array)")
      }
    }
    let start = node.location.offset
    let end = Self.endOfValue(text, from: start)
    return Array(text[..<start]) + Array(Self.json(value).utf8) + Array(text[end...])
  }

  /// The offset just past the JSON value that starts at `start`.
  static func endOfValue(_ t: [UInt8], from start: Int) -> Int {
    var i = start
    guard i < t.count else { return i }
    switch t[i] {
    case UInt8(ascii: "\""):
      i += 1
      while i < t.count, t[i] != UInt8(ascii: "\"") { i += t[i] == UInt8(ascii: "\\") ? 2 : 1 }
      return min(t.count, i + 1)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while i < t.count {
        switch t[i] {
        case UInt8(ascii: "\""): i = endOfValue(t, from: i) - 1
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return i + 1 }
        default: break
        }
        i += 1
      }
      return i
    default:
      while i < t.count, !",}] \t\r\n".utf8.contains(t[i]) { i += 1 }
      return i
    }
  }
}
