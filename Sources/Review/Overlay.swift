import Primitives
import Raster
import Render
import SceneModel
import Syntax
import Typography

/// The burn-ins of `--overlay` (docs/cli.md, "Overlays").
public enum OverlayKind: String, Sendable, CaseIterable {
  case timecode, chart
}

/// The review overlays of a render: the timecode band in a corner of the
/// scene's pixels, and the chart beside the scene with a playhead. Laid
/// out once; the chart is drawn once, as an image every frame shares (the
/// tile cache keeps its tiles), so only the playhead and the band change.
public struct ReviewOverlay: FrameDecoration {
  public let frame: (size: (width: Int, height: Int), scene: (x: Int, y: Int))
  /// The scene's pixels within the frame.
  public let scene: PixelRect
  /// The timecode band, in frame pixels.
  public let timecode: PixelRect?
  public var showsFrameNumber: Bool { timecode != nil }
  /// The chart, in frame pixels, and its plot area (t0 at its left edge,
  /// t1 at its right).
  public let chart: PixelRect?
  public let plot: (rect: Rect, t0: Double, t1: Double)?

  let chartImage: ImagePyramid?
  let glyphs: Glyphs?
  let textSize: Double
  let slow: Double
  let scale: Double

  /// Outlines and advances of the characters a timecode uses, set once.
  struct Glyphs: Sendable {
    var outlines: [Character: (path: Path, advance: Double)]
    var ascent: Double

    init(_ typesetter: Typesetter, size: Double) {
      var outlines: [Character: (Path, Double)] = [:]
      var ascent = size
      for ch in "0123456789.,:-−×/ sframelow" {
        guard let layout = try? typesetter.layout(String(ch), family: nil, weight: .semibold, size: size), let line = layout.lines.first else {
          continue
        }
        outlines[ch] = (line.path, line.width)
        ascent = layout.ascent
      }
      self.outlines = outlines
      self.ascent = ascent
    }

    func width(_ text: String) -> Double { text.reduce(0) { $0 + (outlines[$1]?.advance ?? 0) } }
  }

  /// The timecode's text at scene time t of frame `frame`.
  public static func timecodeText(time: Double, frame: Int, slow: Double) -> String {
    var text = "\(Ticks.format(time, decimals: 2)) s  frame \(frame)"
    if slow != 1 { text += "  ×\(formatNumber(slow, significantDigits: 4)) slow" }
    return text
  }

  /// - Parameters:
  ///   - sceneSize: the scene's pixels; `scale` its pixels per point.
  ///   - chart: the chart's data when `chart` is on.
  ///   - lastTime, lastFrame: the largest time and frame number shown (the
  ///     band is as wide as their text, so it never changes size).
  /// A chart too large to draw: its size in pixels.
  public struct TooLarge: Error, Sendable {
    public let width: Int, height: Int
  }

  public init(
    kinds: Set<OverlayKind>, sceneSize: (width: Int, height: Int), scale: Double, slow: Double, lastTime: Double, lastFrame: Int,
    chart data: ChartData?, typesetter: Typesetter
  ) throws(TooLarge) {
    self.scale = scale
    self.slow = slow
    let w = sceneSize.width, h = sceneSize.height
    var size = (width: w, height: h)
    var chartRect: PixelRect?
    var plot: (Rect, Double, Double)?
    var image: ImagePyramid?
    if kinds.contains(.chart), let data {
      let measure = RasterSurface.measure(typesetter)
      // Beside a tall scene, as tall as it; under a wide one, as wide.
      let tall = h > w
      let chart: Chart
      if tall {
        chart = Chart(data, width: ChartStyle.width, fit: Double(h) / scale, measure: measure)
      } else {
        chart = Chart(data, width: max(ChartStyle.minimumWidth, Double(w) / scale), measure: measure)
      }
      let (cw, ch) = chart.pixelSize(scale: scale)
      let fw = tall ? w + cw : max(w, cw), fh = tall ? max(h, ch) : h + ch
      guard SceneLimits.fits(width: fw, height: fh) else {
        throw TooLarge(width: fw, height: fh)
      }
      let pixmap = chart.pixmap(scale: scale, typesetter: typesetter)
      let at = tall ? (x: w, y: 0) : (x: 0, y: h)
      chartRect = PixelRect(x0: at.x, y0: at.y, x1: at.x + cw, y1: at.y + ch)
      size = (fw, fh)
      let p = chart.layout.plot
      plot = (
        Rect(x: Double(at.x) + p.origin.x * scale, y: Double(at.y) + p.origin.y * scale, width: p.size.x * scale, height: p.size.y * scale),
        chart.layout.t0, chart.layout.t1
      )
      image = ImagePyramid(pixmap, levelCount: 1)
    }
    frame = (size, (0, 0))
    scene = PixelRect(x0: 0, y0: 0, x1: w, y1: h)
    chart = chartRect
    self.plot = plot
    chartImage = image

    if kinds.contains(.timecode) {
      // 12 pt text in a band 8 pt from the scene's bottom-left corner,
      // smaller when the scene is too narrow for it.
      var textSize = 12.0 * scale
      var glyphs = Glyphs(typesetter, size: textSize)
      let template = Self.timecodeText(time: lastTime, frame: lastFrame, slow: slow)
      let widest = "0123456789".map { d in glyphs.width(String(template.map { $0.isNumber ? d : $0 })) }.max() ?? 0
      let inset = (8 * scale).rounded(), pad = (8 * scale).rounded()
      let room = Double(w) - 2 * inset - 2 * pad
      if widest > room, room > 0 {
        textSize *= room / widest
        glyphs = Glyphs(typesetter, size: textSize)
      }
      let bandW = Int((min(widest, max(room, 1)) + 2 * pad).rounded(.up))
      let bandH = Int((textSize * 1.7).rounded(.up))
      let x0 = Int(inset), y1 = h - Int(inset)
      let band = PixelRect(x0: x0, y0: max(0, y1 - bandH), x1: min(w, x0 + bandW), y1: y1).intersection(PixelRect(x0: 0, y0: 0, x1: w, y1: h))
      // A scene too small for a band has none.
      timecode = band.width > 0 && band.height > 0 ? band : nil
      self.glyphs = glyphs
      self.textSize = textSize
    } else {
      timecode = nil
      glyphs = nil
      textSize = 0
    }
  }

  /// The frame's pixels that are neither the scene's nor the chart's.
  var outside: [PixelRect] {
    guard let chart else { return [] }
    let (width, height) = frame.size
    return chart.x0 >= scene.x1
      ? [PixelRect(x0: scene.x0, y0: scene.y1, x1: scene.x1, y1: height), PixelRect(x0: chart.x0, y0: chart.y1, x1: width, y1: height)]
      : [PixelRect(x0: scene.x1, y0: scene.y0, x1: width, y1: scene.y1), PixelRect(x0: chart.x1, y0: chart.y0, x1: width, y1: height)]
  }

  public func drawUnder(_ list: Recording, time: Double, frame: Int) {
    // Where the chart outgrows the scene, the scene sits on the chart's
    // background: the rest of the frame beside the scene and the chart (below
    // a tall scene, right of a wide one's chart). The frame's own
    // background stays the scene's, so the scene's pixels are those of a
    // render without the overlay.
    for area in outside where area.width > 0 && area.height > 0 {
      list.fill(Path.rect(area.rect), paint: .color(ChartStyle.background))
    }
    guard let chart, let chartImage else { return }
    let shader = ImageShader(pyramid: chartImage, imageToDevice: .translation(Double(chart.x0), Double(chart.y0)))
    list.fill(Path.rect(chart.rect), paint: .image(shader))
  }

  public func drawOver(_ list: Recording, time: Double, frame: Int) {
    if let plot, plot.t1 > plot.t0 {
      let f = min(1, max(0, (time - plot.t0) / (plot.t1 - plot.t0)))
      let x = plot.rect.origin.x + f * plot.rect.size.x
      var line = Path()
      line.move(to: Point(x, plot.rect.origin.y - 4 * scale))
      line.line(to: Point(x, plot.rect.origin.y + plot.rect.size.y))
      list.stroke(line, style: StrokeStyle(width: 2 * scale), paint: .color(ChartStyle.playhead))
    }
    if let timecode, let glyphs {
      list.fill(Path.rect(timecode.rect), paint: .color(Color(red: 0.08, green: 0.09, blue: 0.11, alpha: 0.72)))
      list.pushClip(Path.rect(timecode.rect))
      let text = Self.timecodeText(time: time, frame: frame, slow: slow)
      var x = Double(timecode.x0) + (8 * scale).rounded()
      let top = Double(timecode.y0) + (Double(timecode.height) - textSize * 1.2) / 2 + textSize * 0.1
      var path = Path()
      for ch in text {
        guard let g = glyphs.outlines[ch] else { continue }
        path.append(g.path.transformed(by: .translation(x, top)))
        x += g.advance
      }
      list.fill(path, paint: .color(.white))
      list.popClip()
    }
  }
}
