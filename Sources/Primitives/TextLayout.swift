/// A text set in a font at a size: its lines as glyph outlines in points,
/// and its measured box. Built once when the scene loads (by Typography's
/// `Typesetter`, through the renderer's text provider); drawing it is
/// filling a `Path`, so text scales, rotates and animates like any shape.
public struct TextLayout: Sendable, Hashable {
  public struct Line: Sendable, Hashable {
    /// The line's glyphs in points: x from 0 at the line's start, y from 0 at
    /// the top of the line (the baseline is at `ascent`).
    public var path: Path
    /// Sum of the advances, kerning included.
    public var width: Double

    public init(path: Path, width: Double) {
      self.path = path
      self.width = width
    }
  }

  public var lines: [Line]
  /// Points: the primary font's ascender, descender (positive, below the
  /// baseline) and line height (ascender + descender + line gap).
  public var ascent: Double, descent: Double, lineHeight: Double

  public init(lines: [Line], ascent: Double, descent: Double, lineHeight: Double) {
    self.lines = lines
    self.ascent = ascent
    self.descent = descent
    self.lineHeight = lineHeight
  }

  /// The measured box: the widest line's advance by the lines' height.
  public var size: Vector2 {
    Vector2(lines.map(\.width).max() ?? 0, Double(lines.count) * lineHeight)
  }

  /// The glyphs placed in a box of `bounds` points: each line aligned
  /// within the box's width, the block centred vertically (as SwiftUI's
  /// frame centres its content).
  public func path(in bounds: Vector2, alignment: TextAlignment) -> Path {
    let top = (bounds.y - size.y) / 2
    var out = Path()
    for (i, line) in lines.enumerated() where !line.path.isEmpty {
      let x: Double
      switch alignment {
      case .leading: x = 0
      case .center: x = (bounds.x - line.width) / 2
      case .trailing: x = bounds.x - line.width
      }
      out.append(line.path.transformed(by: .translation(x, top + Double(i) * lineHeight)))
    }
    return out
  }
}
