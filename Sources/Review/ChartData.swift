import Primitives
import Render
import SceneModel
import Timing

/// One line of a chart: a component of an animated property (`position.x`,
/// `opacity`) over scene time, with its velocity, sampled exactly as the
/// timeline moves it.
public struct ChartSeries: Sendable {
  /// The layer's id; nil for a bare animation (`render curve`).
  public var layer: String?
  /// The property as messages spell it (`position`, `stroke.width`), or the
  /// animation's text for a bare animation.
  public var property: String
  /// The component's name (`x`, `width`, `red`), nil for a single number.
  public var component: String?
  /// Samples in time order: time, value, velocity (units per second).
  public var samples: [ChartSample]

  /// `position.x`, `opacity`: the series' name in `--json` and legends.
  public var name: String { component.map { "\(property).\($0)" } ?? property }
}

/// A value and its velocity at time t: a chart's point, and a sample in
/// `render chart --json` and `render curve --json`.
public struct ChartSample: Sendable, Hashable, Encodable {
  public var t: Double
  public var value: Double
  public var velocity: Double
  public init(t: Double, value: Double, velocity: Double) { self.t = t; self.value = value; self.velocity = velocity }
}

/// What one panel pair (value above velocity) shows: every component of one
/// property of one layer, or every bare animation of `render curve`.
public struct ChartGroup: Sendable {
  public var title: String
  public var series: [ChartSeries]
  public var marks: [ChartMark]
  /// The values' unit (`pt`, `°`), empty for none.
  public var unit: String = ""
}

/// The data of a chart, before layout.
public struct ChartData: Sendable {
  public var groups: [ChartGroup]
  /// The plotted range of time.
  public var t0: Double, t1: Double

  /// Samples per second of plotted time, at least (CLI contract: 120).
  public static let samplesPerSecond = 240.0
  /// Most samples in one series: a chart of an hour-long scene is still
  /// drawn from a bounded number of points.
  public static let maximumSamples = 100_000

  /// The sample times over t0 … t1: evenly spaced, both ends included, at
  /// least `samplesPerSecond` (fewer only past `maximumSamples`).
  public static func times(_ t0: Double, _ t1: Double) -> [Double] {
    let span = max(0, t1 - t0)
    let n = Int(min(Double(maximumSamples), max(2, (span * samplesPerSecond).rounded(.up) + 1)))
    return (0..<n).map { i in i == n - 1 ? t1 : t0 + span * Double(i) / Double(n - 1) }
  }

  /// Which series a selection keeps: `--layer` ids and `--property` names
  /// (`position` keeps its components, `position.x` one). Empty keeps all.
  public struct Selection: Sendable {
    public var layers: [String]
    public var properties: [String]
    public init(layers: [String] = [], properties: [String] = []) { self.layers = layers; self.properties = properties }

    func keeps(layer: String) -> Bool { layers.isEmpty || layers.contains(layer) }
    func keeps(property: String, component: String?) -> Bool {
      properties.isEmpty || properties.contains(property) || component.map { properties.contains("\(property).\($0)") } == true
    }
  }

  /// Every property `source` can sample, in its order, over t0 … t1.
  public init(source: some FrameSource, from t0: Double, to t1: Double) {
    self.t0 = t0
    self.t1 = t1
    let times = Self.times(t0, t1)
    var groups: [ChartGroup] = []
    for property in source.sampledProperties {
      // Each sample's components, once.
      let sampled = times.map(property.sample)
      guard let first = sampled[0].value else { continue }
      let series = first.indices.map { c in
        ChartSeries(
          layer: property.layer, property: property.property, component: first[c].name,
          samples: zip(times, sampled).map { t, s in
            ChartSample(t: t, value: s.value?[safe: c]?.value ?? .nan, velocity: s.velocity?[safe: c]?.value ?? 0)
          })
      }
      let marks = property.marks.filter { $0.time >= t0 - 1e-9 && $0.time <= t1 + 1e-9 }
      groups.append(ChartGroup(title: "\(property.layer) · \(property.property)", series: series, marks: marks, unit: property.unit))
    }
    self.groups = groups
  }

  /// The series `selection` keeps, in the same groups (groups left empty
  /// are dropped).
  public func selecting(_ selection: Selection) -> ChartData {
    var kept = self
    kept.groups = groups.compactMap { group in
      var g = group
      g.series = group.series.filter { s in
        s.layer.map(selection.keeps(layer:)) ?? true && selection.keeps(property: s.property, component: s.component)
      }
      return g.series.isEmpty ? nil : g
    }
    return kept
  }

  /// A chart of bare animations, each moving a value from `from` to `to`
  /// at time 0: one group, one series per animation, labelled with its text.
  public init(animations: [(text: String, animation: Animation)], from: Double, to: Double, velocity: Double? = nil) {
    self.init(
      motions: animations.map { text, animation in
        var motion = Motion(from)
        motion.animate(to: to, at: 0, with: animation, velocity: velocity)
        return (text, motion)
      }, title: animations.count == 1 ? animations[0].text : "\(animations.count) animations")
  }

  /// Motions of bare values from t = 0 (animations, a keyframe track),
  /// each labelled, charted until the last is done.
  public init(motions: [(text: String, motion: Motion<Double>)], title: String) {
    var end = 0.0
    var marks: [ChartMark] = [ChartMark(kind: .event, time: 0)]
    for (_, motion) in motions {
      let event = motion.events[0]
      end = max(end, event.end)
      if event.settlingDuration != nil { marks.append(ChartMark(kind: .settled, time: event.end)) }
    }
    t0 = 0
    t1 = end > 0 ? end : 1
    let times = Self.times(t0, t1)
    let series = motions.map { text, motion in
      ChartSeries(
        layer: nil, property: text, component: nil,
        samples: times.map { t in
          let s = motion.sample(at: t)
          return ChartSample(t: t, value: s.value, velocity: s.velocity)
        })
    }
    groups = [ChartGroup(title: title, series: series, marks: marks)]
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
