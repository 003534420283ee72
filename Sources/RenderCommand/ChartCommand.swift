import ArgumentParser
import Foundation
import Jobs
import PNGCodec
import Pipeline
import Primitives
import Raster
import Review
import SceneModel
import Syntax
import Timing
import Typography

/// `render chart SCENE -o F.png|F.svg`: each animated property's value and
/// velocity over scene time (docs/cli.md, "Charts").
struct ChartCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chart",
    abstract: "Chart each animated property's value and velocity over time, as PNG or SVG.")

  @Argument(help: "The scene file.")
  var scene: String

  @Option(name: [.short, .customLong("output")], help: "The chart to write: a .png or an .svg.")
  var output: String

  @Option(name: .customLong("layer"), help: "A layer to chart (repeatable; default: every layer with an animated property).")
  var layers: [String] = []

  @Option(name: .customLong("property"), help: "A property (position) or component (position.x) to chart (repeatable; default: all).")
  var properties: [String] = []

  @OptionGroup var range: TimeRange

  @OptionGroup var look: Look

  @OptionGroup var scaleOption: ScaleOption

  @OptionGroup var quietFlag: Quiet

  /// The series and each panel's geometry.
  @OptionGroup var jsonFlag: JSONSummary

  func validate() throws {
    try ChartOutput.check(output)
  }

  func run() throws {
    let source = try SceneFile.loadOrReport(scene, appearance: look.chosen)
    SceneFile.warn(source, file: scene, quiet: quietFlag.quiet)
    let (t0, t1) = try range.resolve(duration: source.duration)
    let selection = ChartData.Selection(layers: layers, properties: properties)
    let all = ChartData(source: source, from: t0, to: t1)
    do { try RenderJob.check(selection, in: all) } catch { throw JobRun.report(error, file: scene) }
    let data = all.selecting(selection)
    guard !data.groups.isEmpty else {
      throw Failure.usage(
        layers.isEmpty && properties.isEmpty ? "\(scene) animates nothing to chart" : "the chosen layers animate none of the chosen properties")
    }
    try ChartOutput.write(data, to: output, scale: scaleOption.scale, json: jsonFlag.json)
  }
}

/// Writing a chart: PNG or SVG by the extension, atomically; `--json`.
enum ChartOutput {
  static let defaultScale = 2.0

  static func check(_ output: String) throws {
    let lower = output.lowercased()
    guard lower.hasSuffix(".png") || lower.hasSuffix(".svg") else {
      throw ValidationError("-o must name a .png or an .svg file, got \(Excerpt.quoted(output))")
    }
  }

  /// A chart's pixels must be within the frame limits (exit 2).
  static func checkSize(_ chart: Chart, scale: Double) throws {
    let (w, h) = chart.pixelSize(scale: scale)
    try Frames.checkSize(width: w, height: h, what: "the chart", hint: FrameLimits.chartHint)
  }

  static func write(_ data: ChartData, to output: String, scale: Double?, json: Bool) throws {
    let typesetter = ReviewStyle.typesetter()
    let chart = Chart(data, measure: RasterSurface.measure(typesetter))
    let svg = output.lowercased().hasSuffix(".svg")
    let pixels = svg ? 1 : (scale ?? defaultScale)
    try checkSize(chart, scale: pixels)
    do {
      if svg {
        let text = chart.svg()
        try TemporaryFile.write(to: output) { path in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
      } else {
        let image = chart.pixmap(scale: pixels, typesetter: typesetter)
        try TemporaryFile.write(to: output) { path in try PNG.write(image, to: path) }
      }
    } catch {
      Terminal.error("render: error: \(output): cannot write: \(error)")
      throw Failure(status: .renderFailed)
    }
    if json { try Terminal.json(ChartSummary(chart, scale: pixels)) }
  }
}

/// `render chart --json`: each series with its samples and panels, in
/// output pixels.
struct ChartSummary: Encodable {
  struct Panel: Encodable {
    var rect: [Double]
    var t: [Double]
    var range: [Double]
  }
  struct Series: Encodable {
    var layer: String?
    var property: String
    var samples: [ChartSample]
    var value: Panel
    var velocity: Panel
  }
  var series: [Series]

  init(_ chart: Chart, scale: Double) {
    func rect(_ r: Rect) -> [Double] { [r.origin.x * scale, r.origin.y * scale, r.size.x * scale, r.size.y * scale] }
    func panel(_ p: ChartLayout.Panel) -> Panel {
      Panel(rect: rect(p.rect), t: [chart.layout.t0, chart.layout.t1], range: [p.range.lo, p.range.hi])
    }
    series = zip(chart.data.groups, chart.layout.groups).flatMap { group, placed in
      group.series.map { s in
        Series(
          layer: s.layer, property: s.name,
          samples: s.samples.filter { $0.value.isFinite && $0.velocity.isFinite },
          value: panel(placed.value), velocity: panel(placed.velocity))
      }
    }
  }
}
