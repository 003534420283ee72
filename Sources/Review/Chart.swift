import PortableMath
import Primitives
import Render
import Typography

/// Where a drawing goes: the raster (PNG, overlays) or SVG. Coordinates in
/// points, y down; text is placed by its baseline.
public protocol ChartSurface {
  mutating func fill(_ rect: Rect, _ color: Color)
  mutating func polyline(_ points: [Point], _ color: Color, width: Double, dash: [Double])
  mutating func dot(_ center: Point, radius: Double, _ color: Color)
  mutating func text(_ text: String, at baseline: Point, size: Double, bold: Bool, _ color: Color, anchor: TextAnchor)
}

public enum TextAnchor: Sendable { case start, middle, end }

/// Measures a text's advance in points at a size (the typesetter's, so
/// the PNG and the SVG are laid out alike).
public typealias TextMeasure = (_ text: String, _ size: Double, _ bold: Bool) -> Double

/// The look of charts, declared once: sizes in points, colours.
/// The colours every review picture shares (charts, compare panels,
/// contact sheets): ink for text, a light backdrop around pictures, a
/// border around each.
public enum ReviewStyle {
  public static let ink = Color(hex: "#1F2328")!
  public static let backdrop = Color(hex: "#F3F4F6")!
  public static let border = Color(hex: "#D0D7DE")!

  /// One typesetter for review pictures' text: the system's fonts.
  public static func typesetter() -> Typesetter { Typesetter(library: FontLibrary()) }
}

public enum ChartStyle {
  public static let width = 720.0
  /// The narrowest chart: under a scene narrower than this, it is wider.
  public static let minimumWidth = 480.0
  static let marginLeft = 72.0, marginRight = 28.0, marginTop = 14.0, marginBottom = 10.0
  static let titleSize = 13.0, labelSize = 11.0, legendRow = 17.0
  static let minimumValueHeight = 44.0, minimumVelocityHeight = 30.0
  static let valueHeight = 150.0, velocityHeight = 90.0, panelGap = 14.0, axisBand = 20.0, groupGap = 22.0, captionBand = 16.0
  static let background = Color(hex: "#FFFFFF")!
  static let panel = Color(hex: "#FAFBFC")!
  static let frame = Color(hex: "#C9CED6")!
  static let grid = Color(hex: "#E6E9EE")!
  static let zero = Color(hex: "#A0A7B2")!
  static let ink = ReviewStyle.ink
  static let secondaryInk = Color(hex: "#59636E")!
  static let eventMark = Color(hex: "#6E7781")!
  static let settledMark = Color(hex: "#8C959F")!
  /// One colour per component, in order (x, y, …): the same in every chart.
  public static let components = ["#0969DA", "#D1580B", "#1A7F37", "#8250DF", "#BF3989", "#0A7A8A"].map { Color(hex: $0)! }
  public static let playhead = Color(hex: "#CF222E")!

  static func color(_ index: Int) -> Color { components[index % components.count] }
}

/// A chart laid out: every panel's rectangle and range, in points.
public struct ChartLayout: Sendable {
  public struct Panel: Sendable {
    public var rect: Rect
    public var range: (lo: Double, hi: Double)
    public var ticks: [Double]
    public var step: Double
  }
  public struct Group: Sendable {
    public var titleBaseline: Double
    public var legend: [(text: String, color: Color?, dashed: Bool, at: Point)]
    public var value: Panel
    public var velocity: Panel
    /// Overshoot labels: the peak's dot, the text's baseline start, the
    /// series' index.
    public var notes: [(text: String, dot: Point, at: Point, series: Int)] = []
  }
  public var width: Double, height: Double
  public var groups: [Group]
  public var t0: Double, t1: Double
  public var timeTicks: [Double], timeStep: Double

  /// The plot area spanning all panels: its left edge is t0, its right t1.
  public var plot: Rect {
    guard let first = groups.first, let last = groups.last else { return Rect(x: 0, y: 0, width: 0, height: 0) }
    let top = first.value.rect.origin.y, bottom = last.velocity.rect.origin.y + last.velocity.rect.size.y
    return Rect(x: first.value.rect.origin.x, y: top, width: first.value.rect.size.x, height: bottom - top)
  }

  /// x of scene time t.
  public func x(_ t: Double) -> Double {
    let r = groups.first?.value.rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
    return r.origin.x + (t1 > t0 ? (t - t0) / (t1 - t0) : 0) * r.size.x
  }
}

extension ChartLayout.Panel {
  func y(_ v: Double) -> Double {
    let f = range.hi > range.lo ? (v - range.lo) / (range.hi - range.lo) : 0.5
    return rect.origin.y + (1 - f) * rect.size.y
  }
}

/// A chart of `ChartData`: laid out once, drawn on any surface.
public struct Chart: Sendable {
  public let data: ChartData
  public let layout: ChartLayout
  /// Laid out to fit beside a scene: no panel captions, units in titles.
  let compact: Bool

  /// A group's title: `layer · property`, with its unit when compact.
  static func title(_ group: ChartGroup, compact: Bool) -> String {
    compact && !group.unit.isEmpty ? "\(group.title) (\(group.unit))" : group.title
  }

  /// - Parameter fit: a height in points to fit the panels into (the
  ///   breakdown beside a scene); the panels shrink down to a floor.
  public init(_ data: ChartData, width: Double = ChartStyle.width, fit: Double? = nil, measure: TextMeasure) {
    self.data = data
    typealias S = ChartStyle
    // Beside a scene (fit), compact: the legend on the title's row, units
    // in the title, no captions, tighter gaps.
    let compact = fit != nil
    let captionBand = compact ? 0 : S.captionBand, panelGap = compact ? 6 : S.panelGap
    let axisBand = compact ? 17 : S.axisBand, groupGap = compact ? 12 : S.groupGap
    var valueHeight = S.valueHeight, velocityHeight = S.velocityHeight
    if let fit, !data.groups.isEmpty {
      let n = Double(data.groups.count)
      let fixed = S.titleSize + 8 + 2 * captionBand + panelGap + axisBand + groupGap
      let each = (fit - S.marginTop - S.marginBottom + groupGap) / n - fixed
      valueHeight = min(S.valueHeight, max(S.minimumValueHeight, each * 0.6))
      velocityHeight = min(S.velocityHeight, max(S.minimumVelocityHeight, each * 0.4))
    }
    self.compact = compact
    let plotX = S.marginLeft, plotW = width - S.marginLeft - S.marginRight
    var y = S.marginTop
    var groups: [ChartLayout.Group] = []
    for (g, group) in data.groups.enumerated() {
      let titleBaseline = y + S.titleSize
      y += S.titleSize + 8
      // The legend: one entry per line, then the marks, flowing in rows.
      var legend: [(String, Color?, Bool, Point)] = []
      var x = compact ? plotX + measure(Self.title(group, compact: true), S.titleSize, true) + 18 : plotX
      var rowBaseline = compact ? titleBaseline : y + S.labelSize
      let entries: [(String, Color?, Bool)] =
        group.series.enumerated().map { ($0.element.legendName, S.color($0.offset), false) }
        + [("event", nil, false), ("settled", nil, true)]
      for (text, color, dashed) in entries {
        let w = 22 + measure(text, S.labelSize, false) + 16
        if x + w > plotX + plotW, x > plotX {
          x = plotX
          rowBaseline += S.legendRow
        }
        legend.append((text, color, dashed, Point(x, rowBaseline)))
        x += w
      }
      y = compact ? max(y, rowBaseline + 8) : rowBaseline + 10 + captionBand
      let value = Self.panel(
        group.series.map { $0.samples.map(\.value) }, rect: Rect(x: plotX, y: y, width: plotW, height: valueHeight), headroom: 0.22)
      y += valueHeight + panelGap + captionBand
      let velocity = Self.panel(
        group.series.map { $0.samples.map(\.velocity) }, rect: Rect(x: plotX, y: y, width: plotW, height: velocityHeight), includeZero: true)
      y += velocityHeight + axisBand
      if g < data.groups.count - 1 { y += groupGap }
      groups.append(ChartLayout.Group(titleBaseline: titleBaseline, legend: legend, value: value, velocity: velocity))
    }
    var laid = ChartLayout(
      width: width, height: y + S.marginBottom, groups: groups, t0: data.t0, t1: data.t1,
      timeTicks: [], timeStep: 1)
    for g in groups.indices {
      laid.groups[g].notes = Self.placeOvershoots(data.groups[g], panel: groups[g].value, layout: laid, measure: measure)
    }
    laid.timeStep = Ticks.step(span: data.t1 - data.t0, target: max(3, Int(plotW / 80)))
    laid.timeTicks = Ticks.values(data.t0, data.t1, target: max(3, Int(plotW / 80)))
    layout = laid
  }

  /// A panel's range: the values' extent with a margin, on round ticks;
  /// a flat line sits in the middle of a unit range around it.
  static func panel(_ values: [[Double]], rect: Rect, includeZero: Bool = false, headroom: Double = 0.08) -> ChartLayout.Panel {
    var lo = Double.infinity, hi = -Double.infinity
    for series in values { for v in series where v.isFinite { lo = min(lo, v); hi = max(hi, v) } }
    if !lo.isFinite { lo = 0; hi = 1 }
    if includeZero { lo = min(lo, 0); hi = max(hi, 0) }
    if hi - lo < 1e-9 * max(1, abs(hi)) {
      let half = max(0.5, abs(hi) * 0.1)
      lo -= half
      hi += half
    }
    let span = hi - lo
    lo -= span * 0.08
    hi += span * headroom
    let target = rect.size.y >= 120 ? 5 : 3
    let step = Ticks.step(span: hi - lo, target: target)
    return ChartLayout.Panel(rect: rect, range: (lo, hi), ticks: Ticks.values(lo, hi, target: target), step: step)
  }

  // MARK: Drawing

  public func draw<S: ChartSurface>(on surface: inout S) {
    typealias St = ChartStyle
    surface.fill(Rect(x: 0, y: 0, width: layout.width, height: layout.height), St.background)
    for (g, group) in data.groups.enumerated() {
      let placed = layout.groups[g]
      surface.text(
        Self.title(group, compact: compact), at: Point(placed.value.rect.origin.x, placed.titleBaseline), size: St.titleSize, bold: true, St.ink,
        anchor: .start)
      for entry in placed.legend {
        let mid = entry.at.y - St.labelSize * 0.35
        if let color = entry.color {
          surface.polyline([Point(entry.at.x, mid), Point(entry.at.x + 16, mid)], color, width: 2.5, dash: [])
        } else {
          let markColor = entry.dashed ? St.settledMark : St.eventMark
          surface.polyline(
            [Point(entry.at.x + 8, mid - 6), Point(entry.at.x + 8, mid + 6)], markColor, width: 1.2, dash: entry.dashed ? [2, 2] : [4, 3])
        }
        surface.text(entry.text, at: Point(entry.at.x + 22, entry.at.y), size: St.labelSize, bold: false, St.secondaryInk, anchor: .start)
      }
      let unit = group.unit
      drawPanel(placed.value, caption: unit.isEmpty ? "value" : "value (\(unit))", series: group.series, marks: group.marks, on: &surface) {
        $0.value
      }
      drawPanel(
        placed.velocity, caption: unit.isEmpty ? "velocity (/s)" : "velocity (\(unit)/s)", series: group.series, marks: group.marks,
        on: &surface
      ) { $0.velocity }
      drawOvershoots(placed, on: &surface)
      // The time axis under the velocity panel.
      let axisY = placed.velocity.rect.origin.y + placed.velocity.rect.size.y + St.labelSize + 4
      for t in layout.timeTicks {
        surface.text(
          Ticks.label(t, step: layout.timeStep), at: Point(layout.x(t), axisY), size: St.labelSize, bold: false, St.secondaryInk, anchor: .middle)
      }
      surface.text("time (s)", at: Point(placed.velocity.rect.origin.x - 16, axisY), size: St.labelSize, bold: false, St.secondaryInk, anchor: .end)
    }
  }

  func drawPanel<S: ChartSurface>(
    _ panel: ChartLayout.Panel, caption: String, series: [ChartSeries], marks: [ChartMark], on surface: inout S,
    _ value: (ChartSample) -> Double
  ) {
    typealias St = ChartStyle
    let r = panel.rect
    let left = r.origin.x, right = r.origin.x + r.size.x, top = r.origin.y, bottom = r.origin.y + r.size.y
    surface.fill(r, St.panel)
    for t in layout.timeTicks {
      surface.polyline([Point(layout.x(t), top), Point(layout.x(t), bottom)], St.grid, width: 1, dash: [])
    }
    for v in panel.ticks {
      let y = panel.y(v)
      surface.polyline([Point(left, y), Point(right, y)], v == 0 ? St.zero : St.grid, width: 1, dash: [])
      surface.text(
        Ticks.label(v, step: panel.step), at: Point(left - 6, y + St.labelSize * 0.35), size: St.labelSize, bold: false, St.secondaryInk, anchor: .end
      )
    }
    for mark in marks {
      let x = layout.x(mark.time)
      switch mark.kind {
      case .event: surface.polyline([Point(x, top), Point(x, bottom)], St.eventMark, width: 1.2, dash: [4, 3])
      case .settled: surface.polyline([Point(x, top), Point(x, bottom)], St.settledMark, width: 1.2, dash: [2, 2])
      }
    }
    // The lines, clipped to the panel's range (a NaN sample breaks a line).
    for (i, s) in series.enumerated() {
      var run: [Point] = []
      for sample in s.samples {
        let v = value(sample)
        guard v.isFinite else {
          if run.count > 1 { surface.polyline(run, St.color(i), width: 2, dash: []) }
          run = []
          continue
        }
        run.append(Point(layout.x(sample.t), min(bottom, max(top, panel.y(v)))))
      }
      if run.count > 1 { surface.polyline(run, St.color(i), width: 2, dash: []) }
    }
    surface.polyline(
      [Point(left, top), Point(right, top), Point(right, bottom), Point(left, bottom), Point(left, top)], St.frame, width: 1, dash: [])
    if !compact { surface.text(caption, at: Point(left, top - 5), size: St.labelSize, bold: false, St.secondaryInk, anchor: .start) }
  }

  /// Each move that goes past its target, labelled at its farthest point
  /// with how far, as a share of the move: above the peak (below a trough),
  /// clear of the line near it and of the labels placed before.
  static func placeOvershoots(_ group: ChartGroup, panel: ChartLayout.Panel, layout: ChartLayout, measure: TextMeasure) -> [(
    text: String, dot: Point, at: Point, series: Int
  )] {
    typealias St = ChartStyle
    let events = group.marks.filter { $0.kind == .event }.sorted { $0.time < $1.time }
    let starts = events.map(\.time)
    let quiet = Set(events.filter { !$0.movesToTarget }.map(\.time))
    var placed: [Rect] = []
    var notes: [(String, Point, Point, Int)] = []
    let r = panel.rect
    for (i, series) in group.series.enumerated() {
      for o in overshoots(series, starts: starts, until: layout.t1) where !quiet.contains(o.start) {
        let dot = Point(layout.x(o.time), panel.y(o.value))
        let text = "overshoot \(Ticks.format(o.fraction * 100, decimals: o.fraction < 0.1 ? 1 : 0))%"
        let w = measure(text, St.labelSize, false), h = St.labelSize + 2
        // Candidates: rows stacked away from the line, right then left of the dot.
        var chosen: Rect?
        for row in 0..<6 where chosen == nil {
          let top = o.direction > 0 ? dot.y - 8 - h - Double(row) * h : dot.y + 8 + Double(row) * h
          for x in [dot.x + 6, dot.x - 6 - w, dot.x + 6 + w / 2, dot.x - 6 - 1.5 * w] {
            let box = Rect(x: x, y: top, width: w, height: h)
            guard box.origin.x >= r.origin.x + 2, box.origin.x + w <= r.origin.x + r.size.x - 2, box.origin.y >= r.origin.y + 1,
              box.origin.y + h <= r.origin.y + r.size.y - 1
            else { continue }
            if placed.contains(where: { Self.overlap($0, box) }) { continue }
            if Self.crosses(series, box: box, panel: panel, layout: layout) { continue }
            chosen = box
            break
          }
        }
        guard let box = chosen else { continue }
        placed.append(box)
        notes.append((text, dot, Point(box.origin.x, box.origin.y + St.labelSize - 1), i))
      }
    }
    return notes
  }

  static func overlap(_ a: Rect, _ b: Rect) -> Bool {
    a.origin.x < b.origin.x + b.size.x && b.origin.x < a.origin.x + a.size.x && a.origin.y < b.origin.y + b.size.y
      && b.origin.y < a.origin.y + a.size.y
  }

  /// True when the series' line passes through `box`.
  static func crosses(_ series: ChartSeries, box: Rect, panel: ChartLayout.Panel, layout: ChartLayout) -> Bool {
    let x0 = box.origin.x - 2, x1 = box.origin.x + box.size.x + 2, y0 = box.origin.y - 2, y1 = box.origin.y + box.size.y + 2
    for s in series.samples where s.value.isFinite {
      let x = layout.x(s.t)
      guard x >= x0, x <= x1 else { continue }
      let y = panel.y(s.value)
      if y >= y0, y <= y1 { return true }
    }
    return false
  }

  func drawOvershoots<S: ChartSurface>(_ placed: ChartLayout.Group, on surface: inout S) {
    for note in placed.notes {
      surface.dot(note.dot, radius: 3, ChartStyle.color(note.series))
      surface.text(note.text, at: note.at, size: ChartStyle.labelSize, bold: false, ChartStyle.color(note.series), anchor: .start)
    }
  }

  /// Where a series passes the value it comes to rest at after each event:
  /// the farthest sample past it, when farther than 0.5% of the move.
  static func overshoots(_ series: ChartSeries, starts: [Double], until end: Double) -> [(
    time: Double, value: Double, fraction: Double, direction: Double, start: Double
  )] {
    var found: [(Double, Double, Double, Double, Double)] = []
    for (k, start) in starts.enumerated() {
      let stop = k + 1 < starts.count ? starts[k + 1] : end
      let part = series.samples.filter { $0.t >= start && $0.t <= stop && $0.value.isFinite }
      guard let first = part.first, let last = part.last, part.count > 2 else { continue }
      let move = last.value - first.value
      guard abs(move) > 1e-9 else { continue }
      let sign: Double = move > 0 ? 1 : -1
      guard let peak = part.max(by: { ($0.value - last.value) * sign < ($1.value - last.value) * sign }) else { continue }
      let past = (peak.value - last.value) * sign
      if past > 0.005 * abs(move) { found.append((peak.t, peak.value, past / abs(move), sign, start)) }
    }
    return found
  }
}

extension ChartSeries {
  /// In a legend: the component (`x`), or the whole name for a single
  /// number or a bare animation.
  var legendName: String { component ?? property }
}
