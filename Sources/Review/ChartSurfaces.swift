import Primitives
import Raster
import Syntax
import Typography

/// Draws charts (and other review pictures) with our rasterizer and
/// typesetter, at `scale` pixels per point.
public final class RasterSurface: ChartSurface {
  public let canvas: Canvas
  public let scale: Double
  let typesetter: Typesetter
  /// Where the surface's point (0, 0) is, in pixels.
  let origin: Point

  public init(canvas: Canvas, scale: Double, typesetter: Typesetter, origin: Point = Point(0, 0)) {
    self.canvas = canvas; self.scale = scale; self.typesetter = typesetter; self.origin = origin
  }

  func pixel(_ p: Point) -> Point { Point(origin.x + p.x * scale, origin.y + p.y * scale) }

  public func fill(_ rect: Rect, _ color: Color) {
    let a = pixel(rect.origin)
    canvas.fill(.rect(Rect(x: a.x, y: a.y, width: rect.size.x * scale, height: rect.size.y * scale)), paint: .color(color))
  }

  public func polyline(_ points: [Point], _ color: Color, width: Double, dash: [Double]) {
    guard let first = points.first else { return }
    var path = Path()
    path.move(to: pixel(first))
    for p in points.dropFirst() { path.line(to: pixel(p)) }
    let style = StrokeStyle(width: width * scale, cap: dash.isEmpty ? .round : .butt, join: .round, dash: dash.map { $0 * scale })
    canvas.stroke(path, style: style, paint: .color(color))
  }

  public func dot(_ center: Point, radius: Double, _ color: Color) {
    var path = Path()
    path.arc(center: pixel(center), radius: radius * scale, startAngle: 0, endAngle: 2 * Double.pi)
    path.close()
    canvas.fill(path, paint: .color(color))
  }

  public func text(_ text: String, at baseline: Point, size: Double, bold: Bool, _ color: Color, anchor: TextAnchor) {
    guard let layout = try? typesetter.layout(text, family: nil, weight: bold ? .semibold : .regular, size: size), let line = layout.lines.first
    else { return }
    let shift: Double
    switch anchor {
    case .start: shift = 0
    case .middle: shift = line.width / 2
    case .end: shift = line.width
    }
    let p = pixel(Point(baseline.x - shift, baseline.y - layout.ascent))
    canvas.fill(line.path, transform: AffineTransform.scale(scale, scale).concatenating(.translation(p.x, p.y)), paint: .color(color))
  }

  /// A measure of text with this surface's typesetter.
  public static func measure(_ typesetter: Typesetter) -> TextMeasure {
    { text, size, bold in (try? typesetter.layout(text, family: nil, weight: bold ? .semibold : .regular, size: size))?.lines.first?.width ?? 0 }
  }
}

/// Writes a chart as SVG: real paths and text, in user units that are the
/// PNG's pixels at scale 1.
public struct SVGSurface: ChartSurface {
  public private(set) var body = ""
  public init() {}

  /// A coordinate to the hundredth, as short as it goes (`12.3`, `-4`).
  static func n(_ v: Double) -> String { formatNumber((v * 100).rounded() / 100) }
  static func hex(_ c: Color) -> String {
    func h(_ v: Double) -> String {
      let i = Int((min(1, max(0, v)) * 255).rounded())
      let digits = Array("0123456789abcdef")
      return String([digits[i >> 4], digits[i & 15]])
    }
    return "#" + h(c.red) + h(c.green) + h(c.blue)
  }
  static func escape(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(ch)
      }
    }
    return out
  }

  public mutating func fill(_ rect: Rect, _ color: Color) {
    body +=
      "<rect x=\"\(Self.n(rect.origin.x))\" y=\"\(Self.n(rect.origin.y))\" width=\"\(Self.n(rect.size.x))\" height=\"\(Self.n(rect.size.y))\" fill=\"\(Self.hex(color))\"/>\n"
  }

  public mutating func polyline(_ points: [Point], _ color: Color, width: Double, dash: [Double]) {
    guard let first = points.first else { return }
    var d = "M\(Self.n(first.x)) \(Self.n(first.y))"
    for p in points.dropFirst() { d += "L\(Self.n(p.x)) \(Self.n(p.y))" }
    let dashes = dash.isEmpty ? "" : " stroke-dasharray=\"\(dash.map(Self.n).joined(separator: " "))\""
    let cap = dash.isEmpty ? "round" : "butt"
    body +=
      "<path d=\"\(d)\" fill=\"none\" stroke=\"\(Self.hex(color))\" stroke-width=\"\(Self.n(width))\" stroke-linecap=\"\(cap)\" stroke-linejoin=\"round\"\(dashes)/>\n"
  }

  public mutating func dot(_ center: Point, radius: Double, _ color: Color) {
    body += "<circle cx=\"\(Self.n(center.x))\" cy=\"\(Self.n(center.y))\" r=\"\(Self.n(radius))\" fill=\"\(Self.hex(color))\"/>\n"
  }

  public mutating func text(_ text: String, at baseline: Point, size: Double, bold: Bool, _ color: Color, anchor: TextAnchor) {
    let a: String
    switch anchor {
    case .start: a = "start"
    case .middle: a = "middle"
    case .end: a = "end"
    }
    body +=
      "<text x=\"\(Self.n(baseline.x))\" y=\"\(Self.n(baseline.y))\" font-size=\"\(Self.n(size))\"\(bold ? " font-weight=\"600\"" : "") fill=\"\(Self.hex(color))\" text-anchor=\"\(a)\">\(Self.escape(text))</text>\n"
  }

  /// The whole document, `width × height` user units.
  public func document(width: Double, height: Double) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.n(width))" height="\(Self.n(height))" viewBox="0 0 \(Self.n(width)) \(Self.n(height))" font-family="\(FontLibrary.defaultFamilies.map { "'\($0)'" }.joined(separator: ", ")), sans-serif">
    \(body)</svg>

    """
  }
}

extension Chart {
  /// The chart's size in pixels at `scale` pixels per point.
  public func pixelSize(scale: Double) -> (width: Int, height: Int) {
    (Int((layout.width * scale).rounded(.up)), Int((layout.height * scale).rounded(.up)))
  }

  /// The chart as pixels at `scale` pixels per point.
  public func pixmap(scale: Double, typesetter: Typesetter) -> Pixmap {
    let (w, h) = pixelSize(scale: scale)
    let surface = RasterSurface(
      canvas: Canvas(width: w, height: h, background: ChartStyle.background.premultiplied), scale: scale, typesetter: typesetter)
    var s = surface
    draw(on: &s)
    return surface.canvas.pixmap
  }

  /// The chart as an SVG document.
  public func svg() -> String {
    var surface = SVGSurface()
    draw(on: &surface)
    return surface.document(width: layout.width, height: layout.height)
  }
}
