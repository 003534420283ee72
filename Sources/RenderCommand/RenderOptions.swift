import ArgumentParser
import Foundation
import Jobs
import Pipeline
import Primitives
import Render
import Review
import SceneModel
import Syntax

/// The options of `render SCENE` and `render batch` (docs/cli.md).
struct RenderOptions: ParsableArguments {
  @Option(
    help: "Output frames per second: a number or a ratio A/B (29.97 is 30000/1001); default 60, or a Lottie file's own rate.",
    transform: FrameRate.argument)
  var fps: FrameRate?

  @Option(help: "Slow-motion factor: frame i shows scene time from + i / (fps × slow); fractions allowed.")
  var slow: Double = 1

  @OptionGroup var scaleOption: ScaleOption
  var scale: Double? {
    get { scaleOption.scale }
    set { scaleOption.scale = newValue }
  }

  /// `--from` and `--to`, as every command that takes them reads them.
  @OptionGroup var range: TimeRange

  /// `--appearance`.
  @OptionGroup var look: Look
  var appearance: Appearance? { look.chosen }
  var from: Double? { range.from }
  var to: Double? { range.to }

  @Option(help: ArgumentHelp("Formats to write in one pass: a comma list of " + OutputFormats.names.joined(separator: ", ") + "."))
  var format: String?

  @Option(help: "Scene time of a single .png output, in seconds.")
  var at: Double?

  @Option(help: "H.264 quality: constant rate factor, 0 (lossless) … 51; lower is better.")
  var crf: Double = 18

  @Option(help: "x264 preset: ultrafast … veryslow.")
  var preset: String = "veryfast"

  @Option(help: "WebP quality 0 … 100: lossy (default: lossless).")
  var quality: Double?

  @Option(
    name: .customLong("max-size"),
    help: "Keep each GIF and WebP under this size (10MB, 800KB): lower its frame rate, then its scale, then its colours, as far as needed.")
  var maxSize: String?

  @Option(help: "A colour (#RRGGBB, a name) a transparent scene is composited over in outputs without full alpha (MP4, GIF).")
  var matte: String?

  @OptionGroup var workers: Workers
  var jobs: Int? { workers.jobs }

  @OptionGroup var quietFlag: Quiet
  var quiet: Bool {
    get { quietFlag.quiet }
    set { quietFlag.quiet = newValue }
  }

  @OptionGroup var jsonFlag: JSONSummary
  var json: Bool {
    get { jsonFlag.json }
    set { jsonFlag.json = newValue }
  }

  @Flag(name: .customLong("null"), help: "Render every frame and discard it (for timing).")
  var null = false

  @Option(help: ArgumentHelp("Burn-ins, a comma list: " + OverlayKind.allCases.map(\.rawValue).joined(separator: ", ") + "."))
  var overlay: String?

  @Option(name: .customLong("layer"), help: "With --overlay chart: a layer to chart (repeatable; default: all).")
  var chartLayers: [String] = []

  @Option(name: .customLong("property"), help: "With --overlay chart: a property or component to chart (repeatable; default: all).")
  var chartProperties: [String] = []

  /// The overlays `--overlay` names.
  static func overlays(_ list: String) throws -> Set<OverlayKind> {
    var kinds: Set<OverlayKind> = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false).map({ String($0).trimmingCharacters(in: .whitespaces) }) {
      guard let kind = OverlayKind(rawValue: name) else {
        let names = OverlayKind.allCases.map(\.rawValue)
        throw ValidationError(
          "unknown overlay \(Excerpt.quoted(name))" + Suggestions.didYouMean(name, in: names) + "; the overlays are " + names.joined(separator: ", "))
      }
      kinds.insert(kind)
    }
    return kinds
  }

  static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

  func validate() throws {
    guard slow.isFinite, slow > 0 else { throw ValidationError("--slow must be greater than 0, got \(slow)") }
    if let at, !(at.isFinite && at >= 0) { throw ValidationError("--at must be a time of 0 seconds or more, got \(at)") }
    guard crf >= 0, crf <= 51 else { throw ValidationError("--crf must be between 0 and 51, got \(crf)") }
    guard Self.presets.contains(preset) else {
      throw ValidationError("unknown --preset '\(preset)'; x264's presets are " + Self.presets.joined(separator: ", "))
    }
    if let format { _ = try Self.formats(format) }
    if let overlay { _ = try Self.overlays(overlay) }
    if (!chartLayers.isEmpty || !chartProperties.isEmpty) && !(overlay.map { (try? Self.overlays($0))?.contains(.chart) } == true) {
      throw ValidationError("--layer and --property choose what --overlay chart plots; add --overlay chart")
    }
  }

  static func formats(_ list: String) throws -> [String] {
    let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    let names = OutputFormats.names.joined(separator: ", ")
    guard !items.isEmpty else { throw ValidationError("--format needs at least one of \(names)") }
    for item in items where OutputFormats.named(item) == nil {
      throw ValidationError("unknown format '\(item)' in --format; the formats are \(names)")
    }
    return items.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
  }

  /// Every option that changes what a render writes, in one canonical
  /// line (the batch cache's key covers it); progress, JSON, worker counts
  /// and `--null` do not change the bytes and are left out.
  var outputKey: String {
    func n(_ x: Double?) -> String { x.map { "\($0)" } ?? "-" }
    return [
      "fps=\(fps.map { "\($0)" } ?? "-")", "slow=\(slow)", "scale=\(n(scale))", "from=\(n(from))", "to=\(n(to))", "format=\(format ?? "-")",
      "at=\(n(at))",
      "crf=\(crf)", "preset=\(preset)", "overlay=\(overlay ?? "-")", "layers=\(chartLayers.joined(separator: ","))",
      "properties=\(chartProperties.joined(separator: ","))", "appearance=\(appearance?.rawValue ?? "-")",
      "quality=\(n(quality))", "max-size=\(maxSize ?? "-")", "matte=\(matte ?? "-")",
    ].joined(separator: ";")
  }

  /// `--from` and `--to` as every command that takes them checks them.
  static func checkRange(from: Double?, to: Double?) throws {
    if let from, !(from.isFinite && from >= 0) { throw ValidationError("--from must be a time of 0 seconds or more, got \(from)") }
    if let to, !(to.isFinite && to >= 0) { throw ValidationError("--to must be a time of 0 seconds or more, got \(to)") }
    if let from, let to, to < from { throw ValidationError("--to (\(to)) must not be before --from (\(from))") }
  }

  /// What the job renders: `-o` (each given) and `--format` into
  /// `folder` without `-o`, or exactly `targets`; every option as the
  /// job's request. A malformed `-o` or `--max-size` is bad usage.
  func request(outputs: [String] = [], folder: String = "", targets: [OutputTarget]? = nil) throws -> RenderRequest {
    do {
      let what: RenderRequest.Outputs
      if let targets {
        what = .targets(targets)
      } else {
        what = .named(outputs: try outputs.map(OutputRequest.init(parsing:)), formats: try format.map(Self.formats), folder: folder)
      }
      var request = RenderRequest(outputs: what)
      request.fps = fps ?? FrameRate.sceneDefault
      request.slow = slow
      request.scale = scale
      request.from = from
      request.to = to
      request.at = at
      request.encoding = EncoderChoices(crf: crf, preset: preset, quality: quality)
      request.matte = matte
      request.maxSize = try maxSize.map(RenderRequest.bytes)
      request.overlays = try overlay.map(Self.overlays) ?? []
      request.chart = ChartData.Selection(layers: chartLayers, properties: chartProperties)
      request.workers = jobs
      request.null = null
      return request
    } catch let error as JobError {
      throw JobRun.report(error, file: "")
    } catch let error as ValidationError {
      throw Failure.usage(error.message)
    }
  }
}

/// `--fps 60`, `--fps 12.5`, `--fps 29.97`, `--fps 30000/1001`.
extension FrameRate {
  static func argument(_ text: String) throws -> FrameRate {
    guard let rate = FrameRate(parsing: text) else { throw ValidationError(FrameRate.usage(text)) }
    return rate
  }
}
