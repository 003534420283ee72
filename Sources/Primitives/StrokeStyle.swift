/// How a stroke ends at open ends of a subpath.
public enum LineCap: String, Sendable, Hashable, CaseIterable { case butt, round, square }
/// How a stroke turns at a corner.
public enum LineJoin: String, Sendable, Hashable, CaseIterable { case miter, round, bevel }

/// SwiftUI's `StrokeStyle`, plus `trim` (SwiftUI's `trim(from:to:)` applied
/// to the shape before stroking). Lengths are in the path's own units.
public struct StrokeStyle: Sendable, Hashable {
  public var width: Double
  public var cap: LineCap
  public var join: LineJoin
  /// The longest miter, as a multiple of the width, before a miter join becomes a bevel.
  public var miterLimit: Double
  /// Alternating on and off lengths; empty for a solid line. An odd count repeats twice, as in SVG.
  public var dash: [Double]
  public var dashPhase: Double
  /// The part of the whole path drawn, as fractions of its length.
  public var trim: (from: Double, to: Double)

  public init(
    width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
    dash: [Double] = [], dashPhase: Double = 0, trim: (from: Double, to: Double) = (0, 1)
  ) {
    self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
    self.dash = dash; self.dashPhase = dashPhase; self.trim = trim
  }

  public static func == (a: StrokeStyle, b: StrokeStyle) -> Bool {
    a.width == b.width && a.cap == b.cap && a.join == b.join && a.miterLimit == b.miterLimit && a.dash == b.dash
      && a.dashPhase == b.dashPhase && a.trim.from == b.trim.from && a.trim.to == b.trim.to
  }
  public func hash(into h: inout Hasher) {
    h.combine(width); h.combine(cap); h.combine(join); h.combine(miterLimit); h.combine(dash); h.combine(dashPhase)
    h.combine(trim.from); h.combine(trim.to)
  }
}
