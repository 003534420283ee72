import Foundation
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import Synchronization

/// A contact sheet laid out: stills fitted into cells of a grid, each drawn
/// at the scale that fits it (so a cell is exactly the still `render still
/// --scale` gives at that scale), its time under it (docs/cli.md, "Contact
/// sheets").
public struct ContactSheet: Sendable {
  /// The largest cell image, in pixels a side.
  static let cellBox = 480.0
  static let margin = 16, gap = 16, labelBand = 26
  static let labelSize = 14.0
  /// How many cells at most (a sheet is for looking at).
  public static let maximumCells = 400

  public let times: [Double]
  /// The scale each still is drawn at.
  public let cellScale: Double
  /// Where each still's pixels are.
  public let cells: [PixelRect]
  public let size: (width: Int, height: Int)

  public init(source: any FrameSource, times: [Double], columns: Int?, scale: Double) {
    self.times = times
    let (w, h) = source.pixelSize(scale: scale)
    let fit = min(1, Self.cellBox / Double(max(w, 1)), Self.cellBox / Double(max(h, 1)))
    cellScale = scale * fit
    let c = min(times.count, columns ?? Int(Double(times.count).squareRoot().rounded(.up)))
    let rows = (times.count + c - 1) / c
    let cell = source.pixelSize(scale: cellScale)
    let pitchX = cell.width + Self.gap, pitchY = cell.height + Self.labelBand + Self.gap
    cells = times.indices.map { i in
      let x = Self.margin + (i % c) * pitchX, y = Self.margin + (i / c) * pitchY
      return PixelRect(x0: x, y0: y, x1: x + cell.width, y1: y + cell.height)
    }
    size = (2 * Self.margin + c * pitchX - Self.gap, 2 * Self.margin + rows * pitchY - Self.gap)
  }

  /// The cells' times: `count` evenly spaced over t0 … t1 (12 by default),
  /// or one every `every` seconds from t0; nil when that makes more than
  /// `maximumCells`.
  public static func times(from t0: Double, to t1: Double, count: Int?, every: Double?) -> [Double]? {
    if let every {
      let n = ((t1 - t0) / every + 1e-9).rounded(.down)
      guard n + 1 <= Double(maximumCells) else { return nil }
      return (0...max(0, Int(n))).map { t0 + Double($0) * every }
    }
    let n = count ?? 12
    return n == 1 ? [t0] : (0..<n).map { k in k == n - 1 ? t1 : t0 + Double(k) * (t1 - t0) / Double(n - 1) }
  }

  /// Renders the stills through the pipeline (all cores, a few stills in
  /// flight, each drawn into its cell as soon as it is done: cells do not
  /// overlap, so the order changes no pixel) and writes the sheet to
  /// `path` as a PNG, atomically.
  public func write(_ source: any FrameSource, to path: String, workers: Int?, cancellation: CancellationToken) throws(JobError) {
    let sink = SheetSink(sheet: self, path: path)
    let pipeline = FramePipeline(source: source, scale: cellScale, sinks: [sink], workers: workers, cancellation: cancellation)
    do { _ = try pipeline.run() } catch {
      switch error {
      case .render(let e): throw .render(e)
      case .output(let e): throw .output("\(path): cannot write: \(e)")
      case .cancelled(let signal): throw .cancelled(reason: signal)
      }
    }
  }

  /// The sheet's canvas and a surface drawing into it.
  static func canvas(_ size: (width: Int, height: Int)) -> sending (Canvas, RasterSurface) {
    let canvas = Canvas(width: size.width, height: size.height, background: ReviewStyle.backdrop.premultiplied)
    return (canvas, RasterSurface(canvas: canvas, scale: 1, typesetter: ReviewStyle.typesetter()))
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

/// A contact sheet as the pipeline's sink: each still drawn into its cell
/// on the worker that rendered it; the sheet written when all are in.
final class SheetSink: FrameSink {
  let schedule: FrameSchedule
  let sheet: ContactSheet
  let path: String
  private let canvas: Mutex<(Canvas, RasterSurface)>

  init(sheet: ContactSheet, path: String) {
    self.sheet = sheet
    self.path = path
    schedule = FrameSchedule(times: sheet.times)
    canvas = Mutex(ContactSheet.canvas(sheet.size))
  }

  func prepare(_ frame: RenderedFrame, index: Int) throws {
    let still = frame.pixmap
    canvas.withLock { sheet.drawCell(index, still, canvas: $0.0, surface: $0.1) }
  }

  func consume(_ frame: Void, index: Int) throws {}

  func finish() throws -> OutputSummary? {
    let image = canvas.withLock { $0.0.pixmap }
    try TemporaryFile.write(to: path) { file in try PNG.write(image, to: file) }
    return OutputSummary(path: path, format: "png", frames: sheet.times.count, bytes: fileSize(atPath: path))
  }

  func abort() {}
}
