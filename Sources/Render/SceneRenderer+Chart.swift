import Primitives
import SceneModel

extension SceneRenderer {
  /// Every animated property of the scene's layers, in the order the scene
  /// writes the layers (depth first, inserted ones after), then by property:
  /// each component sampled exactly as the timeline moves it.
  public var sampledProperties: [SampledProperty] {
    let order = Self.layerOrder(scene)
    var out: [SampledProperty] = []
    for id in timeline.tracks.keys.sorted(by: { (order[$0] ?? .max, $0) < (order[$1] ?? .max, $1) }) {
      let tracks = timeline.tracks[id]!
      for key in tracks.keys.sorted() {
        let track = tracks[key]!
        guard case .motion = track else { continue }
        out.append(
          SampledProperty(layer: id, property: key.name, unit: Self.unit(key), marks: Self.marks(track)) { t in
            let s = track.sample(at: t)
            return (value: Self.components(key, s.value), velocity: s.velocity.flatMap { Self.components(key, $0) })
          })
      }
    }
    return out
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

  /// Each layer id's place in the order the scene writes them (depth
  /// first), inserted ones after.
  static func layerOrder(_ scene: Scene) -> [String: Int] {
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
  /// done (delays, speeds and repeats included).
  static func marks(_ track: SceneTimeline.Track) -> [ChartMark] {
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
    return marks
  }
}
