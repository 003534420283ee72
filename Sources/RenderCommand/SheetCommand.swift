import ArgumentParser
import Dispatch
import Foundation
import Jobs
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import SceneModel
import Synchronization
import Syntax
import Typography

/// `render sheet SCENE -o F.png [--count N | --every S] [--columns C]`:
/// stills side by side, each labelled with its time (docs/cli.md,
/// "Contact sheets").
struct Sheet: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "A contact sheet: stills at evenly spaced times in a grid, each labelled with its time.")

  static var maximumCells: Int { ContactSheet.maximumCells }

  @Argument(help: "The scene file.")
  var scene: String

  @Option(name: [.short, .customLong("output")], help: "The PNG to write.")
  var output: String

  @Option(help: "Stills at from + k (to − from) / (N − 1), k = 0 … N − 1 (default 12).")
  var count: Int?

  @Option(help: "Stills every S seconds from --from.")
  var every: Double?

  @Option(help: "Cells per row (default ⌈√N⌉).")
  var columns: Int?

  @OptionGroup var range: TimeRange

  @OptionGroup var look: Look

  /// Of the stills, before they are fitted to a cell.
  @OptionGroup var scaleOption: ScaleOption

  @OptionGroup var workers: Workers

  @OptionGroup var quietFlag: Quiet

  /// Each cell's time and rectangle.
  @OptionGroup var jsonFlag: JSONSummary

  func validate() throws {
    guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must name a .png file, got \(Excerpt.quoted(output))") }
    if count != nil && every != nil { throw ValidationError("give --count or --every, not both") }
    if let count, count < 1 || count > Self.maximumCells { throw ValidationError("--count must be between 1 and \(Self.maximumCells), got \(count)") }
    if let every, !(every.isFinite && every > 0) { throw ValidationError("--every must be a positive number of seconds") }
    if let columns, columns < 1 || columns > Self.maximumCells {
      throw ValidationError("--columns must be between 1 and \(Self.maximumCells), got \(columns)")
    }
  }

  func run() throws {
    Signals.install()
    let source = try SceneFile.loadOrReport(scene, appearance: look.chosen)
    SceneFile.warn(source, file: scene, quiet: quietFlag.quiet)
    let (t0, t1) = try range.resolve(duration: source.duration)
    guard let times = ContactSheet.times(from: t0, to: t1, count: count, every: every) else {
      throw Failure.usage("--every \(formatNumber(every ?? 0)) makes more stills than the limit of \(Self.maximumCells)")
    }
    try Frames.checkSize(source, scale: scaleOption.scale)
    let sheet = ContactSheet(source: source, times: times, columns: columns, scale: scaleOption.scale ?? source.defaultScale)
    try Frames.checkSize(
      width: sheet.size.width, height: sheet.size.height, what: "the sheet", hint: "give fewer stills, --columns or a smaller --scale")
    do { try sheet.write(source, to: output, workers: workers.jobs, cancellation: Signals.cancellation) } catch {
      throw JobRun.report(error, file: scene)
    }
    if jsonFlag.json {
      try Terminal.json(SheetSummary(cells: zip(times, sheet.cells).map { SheetSummary.Cell(t: $0, rect: [$1.x0, $1.y0, $1.width, $1.height]) }))
    }
  }
}

struct SheetSummary: Encodable {
  struct Cell: Encodable {
    var t: Double
    var rect: [Int]
  }
  var cells: [Cell]
}
