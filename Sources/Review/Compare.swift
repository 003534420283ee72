import Primitives
import Raster
import Render
import Typography

/// Scenes side by side at the same scene time, each scaled to one common
/// height and labelled above (docs/cli.md, "Comparisons"). A scene shorter
/// than the comparison shows its frame at its own duration from then on.
public struct ComparePanels: FrameDecoration {
  public struct Panel: Sendable {
    public let renderer: SceneRenderer
    public let label: String
    /// Where its pixels are in the frame, and its pixels per point.
    public let rect: PixelRect
    public let scale: Double
    let labelPath: Path
  }

  public let panels: [Panel]
  /// The label band's height in pixels.
  let band: Int
  public let frame: (size: (width: Int, height: Int), scene: (x: Int, y: Int))
  public var drawsScene: Bool { false }
  public var background: PremultipliedColor? { Self.backdrop.premultiplied }

  static let backdrop = ReviewStyle.backdrop
  static let ink = ReviewStyle.ink
  static let border = ReviewStyle.border
  /// Pixels: around the panels, between them, and the label band's height
  /// and text size (at 1×; they grow with the scale).
  static let margin = 12.0, gap = 12.0, band = 30.0, textSize = 15.0

  /// - Parameters:
  ///   - height: the common height of the panels' pixels (by default the
  ///     first scene's at `scale`).
  public init(_ scenes: [(renderer: SceneRenderer, label: String)], scale: Double?, typesetter: Typesetter) {
    precondition(!scenes.isEmpty, "a comparison of no scenes")
    let first = scenes[0].renderer
    let s0 = scale ?? first.scene.scale
    let height = first.pixelSize(scale: s0).height
    let unit = max(1, s0)
    let margin = Int((Self.margin * unit).rounded()), gap = Int((Self.gap * unit).rounded()), band = Int((Self.band * unit).rounded())
    let textSize = Self.textSize * unit
    var x = margin
    var panels: [Panel] = []
    for (renderer, label) in scenes {
      let pointsHigh = max(renderer.scene.size.y, 1e-9)
      let s = Double(height) / pointsHigh
      let (w, _) = renderer.pixelSize(scale: s)
      let rect = PixelRect(x0: x, y0: margin + band, x1: x + w, y1: margin + band + height)
      var path = Path()
      if let layout = try? typesetter.layout(label, family: nil, weight: .semibold, size: textSize), let line = layout.lines.first {
        // Centred over the panel, cut to its width.
        let left = Double(x) + max(0, (Double(w) - line.width) / 2)
        path = line.path.transformed(by: .translation(left, Double(margin) + (Double(band) - layout.lineHeight) / 2))
      }
      panels.append(Panel(renderer: renderer, label: label, rect: rect, scale: s, labelPath: path))
      x += w + gap
    }
    self.panels = panels
    self.band = band
    frame = ((x - gap + margin, margin + band + height + margin), (panels[0].rect.x0, panels[0].rect.y0))
  }

  /// The comparison's length: the longest scene's.
  public var duration: Double { panels.map(\.renderer.duration).max() ?? 0 }

  public func drawUnder(_ list: Recording, time: Double, frame: Int) {
    for panel in panels {
      let r = panel.rect
      list.fill(Path.rect(r.insetBy(-1).rect), paint: .color(Self.border))
      list.pushClip(Path.rect(PixelRect(x0: r.x0, y0: r.y0 - band, x1: r.x1, y1: r.y0).rect))
      list.fill(panel.labelPath, paint: .color(Self.ink))
      list.popClip()
    }
  }

  public func drawOver(_ list: Recording, time: Double, frame: Int) throws(RenderError) {
    for panel in panels {
      let r = panel.rect
      let t = min(time, panel.renderer.duration)
      let transform = AffineTransform.scale(panel.scale, panel.scale).concatenating(.translation(Double(r.x0), Double(r.y0)))
      try panel.renderer.draw(at: t, on: list, transform: transform, area: Path.rect(r.rect))
    }
  }
}
