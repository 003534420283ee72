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
    /// Colour glyphs (emoji), drawn as images, in the line's space as `path`.
    public var images: [GlyphImage] = []
    /// The same glyphs cluster by cluster (a character, or the characters
    /// shaped together), in the order of the text: what a numeric text
    /// transition rolls one by one.
    public var clusters: [Cluster] = []

    public init(path: Path, width: Double, images: [GlyphImage] = [], clusters: [Cluster] = []) {
      self.path = path
      self.width = width
      self.images = images
      self.clusters = clusters
    }
  }

  /// A cluster of glyphs in its line: the text it draws, where it starts
  /// (the pen's x), its outlines and colour glyphs, in the line's space.
  public struct Cluster: Sendable, Hashable {
    public var text: String
    public var x: Double
    public var path: Path
    public var images: [GlyphImage]
    public init(text: String, x: Double, path: Path, images: [GlyphImage]) {
      self.text = text; self.x = x; self.path = path; self.images = images
    }
  }

  /// A colour glyph's bitmap (premultiplied RGBA) and the rectangle it
  /// fills, in points.
  public struct GlyphImage: Sendable, Hashable {
    public var width: Int, height: Int
    public var rgba: [UInt8]
    public var rect: Rect
    public init(width: Int, height: Int, rgba: [UInt8], rect: Rect) {
      self.width = width; self.height = height; self.rgba = rgba; self.rect = rect
    }
  }

  public var lines: [Line]
  /// Points: the ascender, descender (positive, below the baseline) and
  /// line height (ascender + descender + line gap) of the tallest font the
  /// text draws with (the primary, or a fallback).
  public var ascent: Double, descent: Double, lineHeight: Double
  /// Points added between lines.
  public var lineSpacing: Double
  /// The width the text wrapped within, which is its box's; nil when it
  /// did not wrap (the box is as wide as its widest line).
  public var wrapWidth: Double?
  /// The characters no font has (drawn as the primary font's missing-glyph
  /// box), each once, in order.
  public var missing: [Unicode.Scalar] = []

  public init(lines: [Line], ascent: Double, descent: Double, lineHeight: Double, lineSpacing: Double = 0, wrapWidth: Double? = nil) {
    self.lines = lines
    self.ascent = ascent
    self.descent = descent
    self.lineHeight = lineHeight
    self.lineSpacing = lineSpacing
    self.wrapWidth = wrapWidth
  }

  /// The measured box: the wrapping width (else the widest line's advance)
  /// by the lines' height, the spacing between them included.
  public var size: Vector2 {
    let n = Double(lines.count)
    return Vector2(wrapWidth ?? lines.map(\.width).max() ?? 0, n * lineHeight + max(0, n - 1) * lineSpacing)
  }

  /// The glyphs placed in a box of `bounds` points: each line aligned
  /// within the box's width, the block centred vertically (as SwiftUI's
  /// frame centres its content).
  public func path(in bounds: Vector2, alignment: TextAlignment) -> Path {
    var out = Path()
    for (i, line) in lines.enumerated() where !line.path.isEmpty {
      out.append(line.path.transformed(by: origin(of: i, in: bounds, alignment: alignment)))
    }
    return out
  }

  /// The box the lines fill when placed in a box of `bounds` points.
  public func box(in bounds: Vector2, alignment: TextAlignment) -> Rect {
    var box = Rect.null
    for i in lines.indices {
      let o = origin(of: i, in: bounds, alignment: alignment)
      box = box.union(Rect(x: o.tx, y: o.ty, width: lines[i].width, height: lineHeight))
    }
    return box
  }

  /// Where line `i` starts in a box of `bounds` points.
  public func origin(of i: Int, in bounds: Vector2, alignment: TextAlignment) -> AffineTransform {
    let top = (bounds.y - size.y) / 2
    let x: Double
    switch alignment {
    case .leading: x = 0
    case .center: x = (bounds.x - lines[i].width) / 2
    case .trailing: x = bounds.x - lines[i].width
    }
    return .translation(x, top + Double(i) * (lineHeight + lineSpacing))
  }
}

/// How a text wraps: within `width` points (nil: only at line breaks in
/// the text), at most `lineLimit` lines (the last ending with `…` when
/// text is left over), `lineSpacing` points between lines.
public struct TextWrapping: Sendable, Hashable {
  public var width: Double?
  public var lineLimit: Int?
  public var lineSpacing: Double

  public init(width: Double? = nil, lineLimit: Int? = nil, lineSpacing: Double = 0) {
    self.width = width; self.lineLimit = lineLimit; self.lineSpacing = lineSpacing
  }

  /// No wrapping: lines break only where the text does.
  public static let none = TextWrapping()
}
