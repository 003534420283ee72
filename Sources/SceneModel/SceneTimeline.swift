import Primitives
import Timing

/// Every property that the timeline changes, for every layer with an id:
/// one track per (layer, property), built from the events in time order by
/// the property registry (`Properties`). An animated property's track is a
/// `Motion` — `set` animates with the event's animation (interrupting as
/// the scene format says), `velocity` seeds the springs the event starts,
/// `drag` moves `position` with the finger; an immediate one's is the list
/// of its changes. Evaluation is a pure function of time.
public struct SceneTimeline: Sendable {
  /// A property's values over time.
  public enum Track: Sendable {
    /// An animated property: its motion.
    case motion(any PropertyMotion)
    /// Changes at once: (time, value) in time order.
    case steps([Step])

    public struct Step: Sendable {
      public var time: Double
      public var value: PropertyValue
    }

    /// When the first event changed the property: before it, the layer's
    /// own value (or its default) holds.
    public var start: Double {
      switch self {
      case .motion(let m): m.firstEventTime ?? .infinity
      case .steps(let steps): steps.count > 1 ? steps[1].time : .infinity
      }
    }

    /// The value and velocity (units per second; nil for a step's) at t.
    public func sample(at t: Double) -> (value: PropertyValue, velocity: PropertyValue?) {
      switch self {
      case .motion(let m): return m.propertySample(at: t)
      case .steps(let steps): return (steps.last { $0.time <= t }?.value ?? steps[0].value, nil)
      }
    }

    /// The motion, when it moves values of type V.
    func motion<V: PropertyValueType>(of type: V.Type) -> Motion<V>? {
      if case .motion(let m) = self { return m as? Motion<V> }
      return nil
    }
  }

  /// What a property shows before the first event that changes it, when
  /// the layer does not give it and its default is the layer's intrinsic
  /// size (known to the renderer alone): the value of `key` of `layer` at
  /// `time` under the events applied so far (`timeline`).
  public typealias StartValue = @Sendable (_ layer: Layer, _ key: PropertyKey, _ time: Double, _ timeline: SceneTimeline) -> PropertyValue

  /// Layer id → its tracks.
  public private(set) var tracks: [String: [PropertyKey: Track]] = [:]
  /// The end of every event's animation (for the default duration), in
  /// the scene's time order.
  public private(set) var eventEnds: [Double] = []
  /// Each event's settling duration: the longest base duration its
  /// animation got for the moves it made (a spring's settling duration for
  /// those moves and velocities, a curve's duration); nil without animation.
  public private(set) var eventSettling: [Double?] = []

  /// - Parameter startValue: the value of a property whose default is
  ///   intrinsic, before an event first changes it; without it, zero.
  public init(scene: Scene, startValue: StartValue? = nil) {
    var layers: [String: Layer] = [:]
    func register(_ layer: Layer) {
      if let id = layer.id { layers[id] = layer }
      for child in layer.children { register(child) }
    }
    for layer in scene.layers { register(layer) }
    for event in scene.timeline { for insertion in event.insert { register(insertion.layer) } }

    for event in scene.timeline {
      var end = event.at
      var settling: Double?
      let velocities = Dictionary(event.velocity.map { ($0.id, $0.values) }, uniquingKeysWith: { a, _ in a })
      for (id, values) in event.set {
        guard let layer = layers[id] else { continue }
        for key in values.keys {
          let applied = apply(
            key, to: values[key]!, velocity: velocities[id]?[key], layer: layer, at: event.at, animation: event.animation, startValue: startValue)
          end = max(end, applied.end)
          if let base = applied.settling { settling = max(settling ?? 0, base) }
        }
      }
      if let drag = event.drag {
        let start = layers[drag.layer].map { startingValue(.position, of: $0, at: event.at, startValue) }
        var motion = tracks[drag.layer]?[.position]?.motion(of: Vector2.self) ?? Motion(start.flatMap(Vector2.unwrap) ?? .zero)
        motion.drag(at: event.at, points: drag.points.map { .init(time: $0.0, value: Vector2($0.1, $0.2)) })
        tracks[drag.layer, default: [:]][.position] = .motion(motion)
        end = max(end, motion.endTime)
      }
      if let animation = event.animation, !event.insert.isEmpty || !event.remove.isEmpty {
        let timing = AnimationTiming(animation)
        end = max(end, event.at + timing.renderingDuration)
        settling = max(settling ?? 0, timing.baseDuration)
      }
      eventEnds.append(end)
      eventSettling.append(event.animation == nil ? nil : settling)
    }
  }

  /// The latest end of any event's animation: the scene format's default
  /// duration (a spring ends at its settling duration, `repeatForever`
  /// counts one pass, or two with `autoreverses`). 0 for a scene without
  /// events.
  public var defaultDuration: Double { eventEnds.max() ?? 0 }

  // MARK: Values

  /// The track of `key` for the layer `id`, when an event changes it.
  public func track(_ key: PropertyKey, of id: String?) -> Track? { id.flatMap { tracks[$0]?[key] } }

  /// The value of `key` for the layer `id` at t; nil when no event changes
  /// it (the layer's own value, or its default, holds).
  public func value(_ key: PropertyKey, of id: String?, at t: Double) -> PropertyValue? { track(key, of: id)?.sample(at: t).value }

  /// The same, typed.
  public func value<V>(_ property: Property<V>, of id: String?, at t: Double) -> V? {
    value(property.key, of: id, at: t).flatMap(V.unwrap)
  }

  // MARK: Building

  /// A property's value just before `time`: its track's, else the layer's
  /// own, else its default, else (intrinsic) what `startValue` says.
  func startingValue(_ key: PropertyKey, of layer: Layer, at time: Double, _ startValue: StartValue?) -> PropertyValue {
    if let id = layer.id, let track = tracks[id]?[key] { return track.sample(at: time).value }
    if let own = layer.properties[key] { return own }
    if let value = Properties.property(key).defaultValue(for: layer) { return value }
    return startValue?(layer, key, time, self) ?? .point(.zero)
  }

  /// Applies one property change; returns when its track's motion ends and
  /// its animation's base duration for this move.
  mutating func apply(
    _ key: PropertyKey, to value: PropertyValue, velocity: PropertyValue?, layer: Layer, at t: Double, animation: Animation?,
    startValue: StartValue?
  ) -> (end: Double, settling: Double?) {
    guard let id = layer.id else { return (t, nil) }
    let existing = tracks[id]?[key]
    // Only needed when the property has no track yet.
    let initial = existing == nil ? startingValue(key, of: layer, at: t, startValue) : value
    var settling: Double?
    var end = t
    /// The property's motion toward `target`: the one it has, or one from
    /// its value before the event.
    func animate<V: VectorArithmetic & PropertyValueType>(
      _ target: V, velocity: PropertyValue?, interpolates: (V) -> Bool = { _ in true }
    ) -> Track {
      var m = existing?.motion(of: V.self) ?? Motion(V.unwrap(initial) ?? target)
      m.animate(to: target, at: t, with: interpolates(m.target) ? animation : nil, velocity: velocity.flatMap(V.unwrap))
      settling = m.lastEvent?.settlingDuration
      end = m.endTime
      return .motion(m)
    }
    let track: Track
    switch (value, Properties.property(key).interpolation) {
    case (_, .immediate), (_, .fixed):
      var steps: [Track.Step]
      if case .steps(let s) = existing { steps = s } else { steps = [Track.Step(time: -.infinity, value: initial)] }
      steps.append(Track.Step(time: t, value: value))
      track = .steps(steps)
    case (.number(let v), .animated): track = animate(v, velocity: velocity)
    case (.point(let v), .animated): track = animate(v, velocity: velocity)
    case (.color(let v), .animated): track = animate(v, velocity: nil)
    case (.paint(let v), .animated):
      // Paints of different shapes (a colour and a gradient, or gradients
      // with different stops) cannot interpolate: they change at once.
      track = animate(v, velocity: nil, interpolates: { $0.isCompatible(with: v) })
    default:
      preconditionFailure("a value of the wrong kind for \(key)")
    }
    tracks[id, default: [:]][key] = track
    return (end, settling)
  }
}

/// A property's motion with its value type erased, as a track holds it.
public protocol PropertyMotion: Sendable {
  /// The value and velocity at t.
  func propertySample(at t: Double) -> (value: PropertyValue, velocity: PropertyValue?)
  /// When the first event changed the value; nil before any.
  var firstEventTime: Double? { get }
  /// Every event the motion went through, with when each is done.
  var motionEvents: [MotionEvent] { get }
}

extension Motion: PropertyMotion where Value: PropertyValueType {
  public var motionEvents: [MotionEvent] { events }

  public func propertySample(at t: Double) -> (value: PropertyValue, velocity: PropertyValue?) {
    let s = sample(at: t)
    return (Value.wrap(s.value), Value.wrap(s.velocity))
  }
}
