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

  @Option(help: "Pixels per point of the stills before they are fitted to a cell (overrides the scene's).")
  var scale: Double?

  @Option(help: "Worker threads (default: all cores).")
  var jobs: Int?

  @Flag(help: "No warnings on standard error.")
  var quiet = false

  @Flag(help: "Print each cell's time and rectangle as JSON.")
  var json = false

  func validate() throws {
    guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must name a .png file") }
    if count != nil && every != nil { throw ValidationError("give --count or --every, not both") }
    if let count, count < 1 || count > Self.maximumCells { throw ValidationError("--count must be between 1 and \(Self.maximumCells), got \(count)") }
    if let every, !(every.isFinite && every > 0) { throw ValidationError("--every must be a positive number of seconds") }
    if let columns, columns < 1 || columns > Self.maximumCells {
      throw ValidationError("--columns must be between 1 and \(Self.maximumCells), got \(columns)")
    }
    if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
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
    let renderer = try SceneFile.loadOrReport(scene)
    let (t0, t1) = try range.resolve(duration: renderer.duration)
    guard let times = Self.times(from: t0, to: t1, count: count, every: every) else {
      Terminal.error("render: error: --every \(formatNumber(every ?? 0)) makes more stills than the limit of \(Self.maximumCells)")
      throw Failure(status: .usage)
    }
    try Frames.checkSize(renderer, scale: scale)
    let sheet = ContactSheet(renderer: renderer, times: times, columns: columns, scale: scale ?? renderer.scene.scale)
    try Frames.checkSize(
      width: sheet.size.width, height: sheet.size.height, what: "the sheet", hint: "give fewer stills, --columns or a smaller --scale")
    let image: Pixmap
    do {
      image = try sheet.draw(typesetter: ChartOutput.typesetter(), workers: jobs)
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
  static let background = Color(hex: "#F3F4F6")!

  let renderer: SceneRenderer
  let times: [Double]
  /// The scale each still is drawn at.
  let cellScale: Double
  let columns: Int, rows: Int
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
    self.columns = max(1, c)
    rows = (times.count + self.columns - 1) / self.columns
    let cell = renderer.pixelSize(scale: cellScale)
    let pitchX = cell.width + Self.gap, pitchY = cell.height + Self.labelBand + Self.gap
    cells = times.indices.map { i in
      let x = Self.margin + (i % c) * pitchX, y = Self.margin + (i / c) * pitchY
      return PixelRect(x0: x, y0: y, x1: x + cell.width, y1: y + cell.height)
    }
    size = (2 * Self.margin + self.columns * pitchX - Self.gap, 2 * Self.margin + rows * pitchY - Self.gap)
  }

  func draw(typesetter: Typesetter, workers: Int?) throws(RenderError) -> Pixmap {
    let stills = Mutex<[Pixmap?]>(Array(repeating: nil, count: times.count))
    let failure = Mutex<RenderError?>(nil)
    let next = Atomic<Int>(0)
    let threads = max(1, min(times.count, workers ?? ProcessInfo.processInfo.activeProcessorCount))
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < times.count else { return }
        do throws(RenderError) {
          let still = try renderer.render(at: times[i], scale: cellScale)
          stills.withLock { $0[i] = still }
        } catch {
          failure.withLock { $0 = $0 ?? error }
          return
        }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    let canvas = Canvas(width: size.width, height: size.height, background: Self.background.premultiplied)
    let surface = RasterSurface(canvas: canvas, scale: 1, typesetter: typesetter)
    for (i, still) in stills.withLock({ $0 }).enumerated() {
      guard let still else { continue }
      let cell = cells[i]
      surface.fill(
        Rect(x: Double(cell.x0 - 1), y: Double(cell.y0 - 1), width: Double(cell.width + 2), height: Double(cell.height + 2)), Color(hex: "#D0D7DE")!)
      surface.fill(Rect(x: Double(cell.x0), y: Double(cell.y0), width: Double(cell.width), height: Double(cell.height)), .white)
      canvas.drawImage(still, transform: .translation(Double(cell.x0), Double(cell.y0)))
      surface.text(
        "\(Ticks.format(times[i], decimals: 2)) s", at: Point(Double(cell.x0) + Double(cell.width) / 2, Double(cell.y1) + 19), size: Self.labelSize,
        bold: true, Color(hex: "#1F2328")!, anchor: .middle)
    }
    return canvas.pixmap
  }
}
