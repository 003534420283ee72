import Primitives
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

/// A vertical mark on a chart's time axis.
public struct ChartMark: Sendable, Hashable {
  public enum Kind: Sendable, Hashable { case event, settled }
  public var kind: Kind
  public var time: Double
  /// For an event: whether it moves toward a target, so that passing the
  /// target is an overshoot worth labelling (an animation); a keyframe
  /// track, an animator's scrub or a drag goes where it is told.
  public var movesToTarget = true
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

  /// The components of a property value: names and numbers (nil for a
  /// value that has no chartable numbers: a gradient, a flag).
  static func components(_ key: PropertyKey, _ value: PropertyValue) -> [(name: String?, value: Double)]? {
    switch value {
    case .number(let v): return [(nil, v)]
    case .point(let p):
      return key == .size ? [("width", p.x), ("height", p.y)] : [("x", p.x), ("y", p.y)]
    case .color(let c): return colorComponents(c)
    case .paint(.color(let c)): return colorComponents(c)
    default: return nil
    }
  }

  /// The unit of a property's values, as the scene format gives them.
  static func unit(_ key: PropertyKey) -> String {
    switch key {
    case .position, .size, .offset, .cornerRadius, .strokeWidth, .strokeDashPhase, .shadowRadius, .shadowOffset, .blur: "pt"
    case .rotation, .rotation3DAngle: "°"
    default: ""
    }
  }

  /// Premultiplied values as drawn, per channel.
  static func colorComponents(_ c: PremultipliedColor) -> [(name: String?, value: Double)] {
    [("red", c.red), ("green", c.green), ("blue", c.blue), ("opacity", c.alpha)]
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

  /// Every animated property of the scene's layers (in layer, then
  /// property order), over t0 … t1.
  public init(scene: Scene, timeline: SceneTimeline, from t0: Double, to t1: Double) {
    self.t0 = t0
    self.t1 = t1
    let times = Self.times(t0, t1)
    let order = Self.order(scene)
    var groups: [ChartGroup] = []
    for id in timeline.tracks.keys.sorted(by: { (order[$0] ?? .max, $0) < (order[$1] ?? .max, $1) }) {
      let tracks = timeline.tracks[id]!
      for key in tracks.keys.sorted() {
        let track = tracks[key]!
        guard case .motion = track else { continue }
        // Each sample's components, once.
        let sampled = times.map { t in
          let s = track.sample(at: t)
          return (value: Self.components(key, s.value), velocity: s.velocity.flatMap { Self.components(key, $0) })
        }
        guard let first = sampled[0].value else { continue }
        let series = first.indices.map { c in
          ChartSeries(
            layer: id, property: key.name, component: first[c].name,
            samples: zip(times, sampled).map { t, s in
              ChartSample(t: t, value: s.value?[safe: c]?.value ?? .nan, velocity: s.velocity?[safe: c]?.value ?? 0)
            })
        }
        groups.append(ChartGroup(title: "\(id) · \(key.name)", series: series, marks: Self.marks(track, t0, t1), unit: Self.unit(key)))
      }
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

  /// Each layer id's place in the order the scene writes them (depth
  /// first), inserted ones after.
  static func order(_ scene: Scene) -> [String: Int] {
    var order: [String: Int] = [:]
    func visit(_ layer: Layer) {
      if let id = layer.id, order[id] == nil { order[id] = order.count }
      for child in layer.children { visit(child) }
    }
    for layer in scene.layers { visit(layer) }
    for event in scene.timeline { for insertion in event.insert { visit(insertion.layer) } }
    return order
  }

  /// The events that change a track, and when each one's animation is
  /// done (delays, speeds and repeats included), within t0 … t1.
  static func marks(_ track: SceneTimeline.Track, _ t0: Double, _ t1: Double) -> [ChartMark] {
    guard case .motion(let motion) = track else { return [] }
    var marks: [ChartMark] = []
    for event in motion.motionEvents {
      var mark = ChartMark(kind: .event, time: event.time)
      if case .animation = event.kind {
        marks.append(ChartMark(kind: .settled, time: event.end))
      } else {
        mark.movesToTarget = false
      }
      marks.append(mark)
    }
    return marks.filter { $0.time >= t0 - 1e-9 && $0.time <= t1 + 1e-9 }
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
