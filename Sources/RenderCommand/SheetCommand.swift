import ArgumentParser
import Dispatch
import Foundation
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

  /// How many cells at most (a sheet is for looking at).
  static let maximumCells = 400

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

  @Option(help: "Pixels per point of the stills before they are fitted to a cell (overrides the scene's).")
  var scale: Double?

  @Option(help: "Worker threads (default: all cores).")
  var jobs: Int?

  @Flag(help: "No warnings on standard error.")
  var quiet = false

  @Flag(help: "Print each cell's time and rectangle as JSON.")
  var json = false

  func validate() throws {
    guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must name a .png file, got \(Excerpt.quoted(output))") }
    if count != nil && every != nil { throw ValidationError("give --count or --every, not both") }
    if let count, count < 1 || count > Self.maximumCells { throw ValidationError("--count must be between 1 and \(Self.maximumCells), got \(count)") }
    if let every, !(every.isFinite && every > 0) { throw ValidationError("--every must be a positive number of seconds") }
    if let columns, columns < 1 || columns > Self.maximumCells {
      throw ValidationError("--columns must be between 1 and \(Self.maximumCells), got \(columns)")
    }
    try RenderOptions.checkJobs(jobs)
    try RenderOptions.checkScale(scale)
  }

  /// The cells' times; nil when `--every` makes more than `maximumCells`.
  static func times(from t0: Double, to t1: Double, count: Int?, every: Double?) -> [Double]? {
    if let every {
      let n = ((t1 - t0) / every + 1e-9).rounded(.down)
      guard n + 1 <= Double(maximumCells) else { return nil }
      return (0...max(0, Int(n))).map { t0 + Double($0) * every }
    }
    let n = count ?? 12
    return n == 1 ? [t0] : (0..<n).map { k in k == n - 1 ? t1 : t0 + Double(k) * (t1 - t0) / Double(n - 1) }
  }

  func run() throws {
    let renderer = try SceneFile.loadOrReport(scene, appearance: look.chosen)
    SceneFile.warn(renderer, file: scene, quiet: quiet)
    let (t0, t1) = try range.resolve(duration: renderer.duration)
    guard let times = Self.times(from: t0, to: t1, count: count, every: every) else {
      throw Failure.usage("--every \(formatNumber(every ?? 0)) makes more stills than the limit of \(Self.maximumCells)")
    }
    try Frames.checkSize(renderer, scale: scale)
    let sheet = ContactSheet(renderer: renderer, times: times, columns: columns, scale: scale ?? renderer.scene.scale)
    try Frames.checkSize(
      width: sheet.size.width, height: sheet.size.height, what: "the sheet", hint: "give fewer stills, --columns or a smaller --scale")
    let image: Pixmap
    do {
      image = try sheet.draw(workers: jobs)
    } catch {
      throw Frames.report(error, scene: scene)
    }
    do {
      try TemporaryFile.write(to: output) { path in try PNG.write(image, to: path) }
    } catch {
      Terminal.error("render: error: \(output): cannot write: \(error)")
      throw Failure(status: .renderFailed)
    }
    if json {
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

/// A contact sheet laid out: stills fitted into cells of a grid, each drawn
/// at the scale that fits it (so a cell is exactly the still `render still
/// --scale` gives at that scale), its time under it.
struct ContactSheet {
  /// The largest cell image, in pixels a side.
  static let cellBox = 480.0
  static let margin = 16, gap = 16, labelBand = 26
  static let labelSize = 14.0

  let renderer: SceneRenderer
  let times: [Double]
  /// The scale each still is drawn at.
  let cellScale: Double
  /// Where each still's pixels are.
  let cells: [PixelRect]
  let size: (width: Int, height: Int)

  init(renderer: SceneRenderer, times: [Double], columns: Int?, scale: Double) {
    self.renderer = renderer
    self.times = times
    let (w, h) = renderer.pixelSize(scale: scale)
    let fit = min(1, Self.cellBox / Double(max(w, 1)), Self.cellBox / Double(max(h, 1)))
    cellScale = scale * fit
    let c = min(times.count, columns ?? Int(Double(times.count).squareRoot().rounded(.up)))
    let rows = (times.count + c - 1) / c
    let cell = renderer.pixelSize(scale: cellScale)
    let pitchX = cell.width + Self.gap, pitchY = cell.height + Self.labelBand + Self.gap
    cells = times.indices.map { i in
      let x = Self.margin + (i % c) * pitchX, y = Self.margin + (i / c) * pitchY
      return PixelRect(x0: x, y0: y, x1: x + cell.width, y1: y + cell.height)
    }
    size = (2 * Self.margin + c * pitchX - Self.gap, 2 * Self.margin + rows * pitchY - Self.gap)
  }

  /// The sheet, its stills rendered in parallel through one tile cache
  /// and each drawn into its cell as soon as it is done (cells do not
  /// overlap, so the order does not change a pixel): memory stays a few
  /// stills, however many cells.
  func draw(workers: Int?) throws(RenderError) -> Pixmap {
    let sheet = Mutex(Self.canvas(size))
    let cell = renderer.pixelSize(scale: cellScale)
    let cache = TileCache(width: cell.width, height: cell.height)
    let failure = Mutex<RenderError?>(nil)
    let next = Atomic<Int>(0)
    let threads = min(times.count, RenderOptions.workers(workers))
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < times.count else { return }
        do throws(RenderError) {
          let still = try renderer.renderFrame(at: times[i], scale: cellScale, cache: cache).pixmap
          sheet.withLock { drawCell(i, still, canvas: $0.0, surface: $0.1) }
        } catch {
          failure.withLock { $0 = $0 ?? error }
          return
        }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return sheet.withLock { $0.0.pixmap }
  }

  /// The sheet's canvas and a surface drawing into it.
  static func canvas(_ size: (width: Int, height: Int)) -> sending (Canvas, RasterSurface) {
    let canvas = Canvas(width: size.width, height: size.height, background: ReviewStyle.backdrop.premultiplied)
    return (canvas, RasterSurface(canvas: canvas, scale: 1, typesetter: ChartOutput.typesetter()))
  }

  /// Still `i` in its cell, framed, its time under it.
  func drawCell(_ i: Int, _ still: Pixmap, canvas: Canvas, surface: RasterSurface) {
    let cell = cells[i]
    surface.fill(cell.insetBy(-1).rect, ReviewStyle.border)
    surface.fill(cell.rect, .white)
    canvas.drawImage(still, transform: .translation(Double(cell.x0), Double(cell.y0)))
    surface.text(
      "\(Ticks.format(times[i], decimals: 2)) s", at: Point(Double(cell.x0) + Double(cell.width) / 2, Double(cell.y1) + 19), size: Self.labelSize,
      bold: true, ReviewStyle.ink, anchor: .middle)
  }
}
