import Primitives
import Raster
import Render
import SceneModel
import Typography

/// Sources side by side at the same scene time, each scaled to one common
/// height and labelled above (docs/cli.md, "Comparisons"): a source made of
/// sources. A source shorter than the comparison shows its frame at its own
/// duration from then on. Laid out once, in pixels, for the scale it was
/// made with: every scale gives the same frame.
public struct ComparePanels: FrameSource {
  public struct Panel: Sendable {
    public let source: any FrameSource
    public let label: String
    /// Where its pixels are in the frame, and its pixels per point.
    public let rect: PixelRect
    public let scale: Double
    let labelPath: Path
  }

  public let panels: [Panel]
  /// The label band's height in pixels.
  let band: Int
  /// The whole frame's size in pixels.
  public let size: (width: Int, height: Int)
  public let name: String
  public var background: PremultipliedColor? { Self.backdrop.premultiplied }
  public var defaultScale: Double { 1 }
  public var pointSize: Vector2 { Vector2(Double(size.width), Double(size.height)) }
  public var appearance: Appearance { panels[0].source.appearance }
  public func pixelSize(scale: Double?) -> (width: Int, height: Int) { size }
  public func warnings(file: String) -> [SceneDiagnostic] { panels[0].source.warnings(file: file) }

  /// The panels' digests, in order, with their labels.
  public var inputDigest: String {
    var h = SHA256()
    for panel in panels { h.update("\(panel.source.inputDigest) \(panel.label)\n") }
    return h.hex()
  }

  static let backdrop = ReviewStyle.backdrop
  static let ink = ReviewStyle.ink
  static let border = ReviewStyle.border
  /// Pixels: around the panels, between them, and the label band's height
  /// and text size (at 1×; they grow with the scale).
  static let margin = 12.0, gap = 12.0, band = 30.0, textSize = 15.0

  /// - Parameters:
  ///   - height: the common height of the panels' pixels (by default the
  ///     first scene's at `scale`).
  ///   - name: what its outputs are named after by default.
  public init(_ sources: [(source: any FrameSource, label: String)], name: String, scale: Double?, typesetter: Typesetter) {
    precondition(!sources.isEmpty, "a comparison of no sources")
    self.name = name
    let first = sources[0].source
    let s0 = scale ?? first.defaultScale
    let height = first.pixelSize(scale: s0).height
    let unit = max(1, s0)
    let margin = Int((Self.margin * unit).rounded()), gap = Int((Self.gap * unit).rounded()), band = Int((Self.band * unit).rounded())
    let textSize = Self.textSize * unit
    var x = margin
    var panels: [Panel] = []
    for (source, label) in sources {
      let pointsHigh = max(source.pointSize.y, 1e-9)
      let s = Double(height) / pointsHigh
      let (w, _) = source.pixelSize(scale: s)
      let rect = PixelRect(x0: x, y0: margin + band, x1: x + w, y1: margin + band + height)
      var path = Path()
      if let layout = try? typesetter.layout(label, family: nil, weight: .semibold, size: textSize), let line = layout.lines.first {
        // Centred over the panel, cut to its width.
        let left = Double(x) + max(0, (Double(w) - line.width) / 2)
        path = line.path.transformed(by: .translation(left, Double(margin) + (Double(band) - layout.lineHeight) / 2))
      }
      panels.append(Panel(source: source, label: label, rect: rect, scale: s, labelPath: path))
      x += w + gap
    }
    self.panels = panels
    self.band = band
    size = (x - gap + margin, margin + band + height + margin)
  }

  /// The comparison's length: the longest source's.
  public var duration: Double { panels.map(\.source.duration).max() ?? 0 }

  public func recording(at t: Double, scale: Double?, frame: Int) throws(RenderError) -> Recording {
    let list = Recording(width: size.width, height: size.height, background: background ?? .clear)
    try draw(at: t, on: list, transform: .identity, frame: frame)
    return list
  }

  /// The frames, borders and labels, then each source in its panel at its
  /// own time (`t`, or its duration once it has ended); the comparison's
  /// pixels mapped by `transform`.
  public func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError) {
    for panel in panels {
      let r = panel.rect
      list.fill(Path.rect(r.insetBy(-1).rect), transform: transform, paint: .color(Self.border))
      list.pushClip(Path.rect(PixelRect(x0: r.x0, y0: r.y0 - band, x1: r.x1, y1: r.y0).rect), transform: transform)
      list.fill(panel.labelPath, transform: transform, paint: .color(Self.ink))
      list.popClip()
    }
    for panel in panels {
      let r = panel.rect
      let placed = AffineTransform.scale(panel.scale, panel.scale).concatenating(.translation(Double(r.x0), Double(r.y0)))
      try panel.source.draw(
        at: min(t, panel.source.duration), on: list, transform: placed.concatenating(transform), area: Path.rect(r.rect).transformed(by: transform),
        frame: frame)
    }
  }
}
