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
    /// The same, repeating from `start` what it did over the `period`
    /// before (a repeating phase cycle).
    case cycle([Step], start: Double, period: Double)

    public struct Step: Sendable {
      public var time: Double
      public var value: PropertyValue
      /// For a transitioned property: the animation showing the change.
      public var transition: AnimationTiming? = nil
    }

    /// When the first event changed the property: before it, the layer's
    /// own value (or its default) holds.
    public var start: Double {
      switch self {
      case .motion(let m): m.firstEventTime ?? .infinity
      case .steps(let steps), .cycle(let steps, _, _): steps.count > 1 ? steps[1].time : .infinity
      }
    }

    /// The value and velocity (units per second; nil for a step's) at t.
    public func sample(at t: Double) -> (value: PropertyValue, velocity: PropertyValue?) {
      switch self {
      case .motion(let m): return m.propertySample(at: t)
      case .steps(let steps): return (steps.last { $0.time <= t }?.value ?? steps[0].value, nil)
      case .cycle(let steps, let start, let period):
        let u = t < start ? t : start - period + (t - start).truncatingRemainder(dividingBy: period)
        return Track.steps(steps).sample(at: u)
      }
    }

    /// While a change of a transitioned property (a text) shows: the value
    /// before it and its animation's progress at t (0 → 1, a spring's
    /// overshoot included); nil once it is done, or for other tracks.
    public func transition(at t: Double) -> (from: PropertyValue, progress: Double)? {
      switch self {
      case .motion: return nil
      case .steps(let steps):
        guard let k = steps.lastIndex(where: { $0.time <= t }), k > 0, let timing = steps[k].transition else { return nil }
        let elapsed = t - steps[k].time
        guard elapsed < timing.duration else { return nil }
        return (steps[k - 1].value, timing.progress(at: elapsed).progress)
      case .cycle(let steps, let start, let period):
        let u = t < start ? t : start - period + (t - start).truncatingRemainder(dividingBy: period)
        return Track.steps(steps).transition(at: u)
      }
    }

    /// The track repeating from `start` what it did over the `period` before.
    func repeating(from start: Double, period: Double) -> Track {
      switch self {
      case .motion(let m): return .motion(m.repeating(from: start, period: period))
      case .steps(let steps), .cycle(let steps, _, _): return .cycle(steps, start: start, period: period)
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

  /// Each event's keyframe tracks as played: every keyframe's kind, start
  /// (scene time) and duration, in the event's time order.
  public private(set) var keyframeLayouts: [[KeyframeLayout]] = []

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

    eventEnds = scene.timeline.map(\.at)
    eventSettling = scene.timeline.map { _ in nil }
    keyframeLayouts = scene.timeline.map { _ in [] }
    // Every change in time order: each event at its time, each step of its
    // phases at the step's (docs/scene-format.md, "Phases"). A repeating
    // cycle is stepped past every other event, until it repeats itself.
    // Past every event, and every step of a phase animation that does not repeat.
    var horizon = max(scene.duration ?? 0, scene.timeline.last?.at ?? 0)
    for event in scene.timeline {
      guard let phases = event.phases, !phases.cyclesForever else { continue }
      horizon = max(horizon, event.at + phases.period)
    }
    var items: [(time: Double, event: Int, order: Int, step: PhaseSchedule.Step?)] = []
    var cycles: [Int: CycleState] = [:]
    for (e, event) in scene.timeline.enumerated() {
      items.append((event.at, e, 0, nil))
      guard let phases = event.phases else { continue }
      let period = phases.period
      let repeats = phases.cyclesForever
      let until = repeats ? max(horizon, event.at) + period * Double(Self.convergenceCycles) : 0
      let steps = PhaseSchedule.steps(
        phases: phases.phases.count, animations: phases.animations, start: event.at, repeating: repeats, until: until,
        limit: max(SceneLimits.maximumEvents, phases.phases.count + 1))
      for (k, step) in steps.enumerated() { items.append((step.time, e, k + 1, step)) }
      if repeats {
        var keys: [(String, PropertyKey)] = []
        for phase in phases.phases {
          for (id, values) in phase { for key in values.keys where !keys.contains(where: { $0 == (id, key) }) { keys.append((id, key)) } }
        }
        // A later repeating cycle takes over the properties it shares.
        for (earlier, var cycle) in cycles {
          let shared = cycle.keys.filter { k in keys.contains { $0 == k } }
          guard !shared.isEmpty else { continue }
          for (id, key) in shared where cycle.handover["\(id).\(key.name)"] == nil { cycle.handover["\(id).\(key.name)"] = event.at }
          cycle.keys.removeAll { k in shared.contains { $0 == k } }
          cycles[earlier] = cycle
        }
        cycles[e] = CycleState(period: period, keys: keys)
        // A repeating cycle counts one pass toward the default duration.
        eventEnds[e] = event.at + period
      }
    }
    items.sort { ($0.time, $0.event, $0.order) < ($1.time, $1.event, $1.order) }

    for item in items {
      let event = scene.timeline[item.event]
      guard let step = item.step else {
        let (end, settling) = applyEvent(event, layers: layers, startValue: startValue, position: item.event)
        eventEnds[item.event] = max(eventEnds[item.event], end)
        eventSettling[item.event] = settling
        continue
      }
      var handover: [String: Double] = [:]
      if var cycle = cycles[item.event] {
        if cycle.converged { continue }
        handover = cycle.handover
        // Each cycle starts by setting phase 1: once the values and
        // velocities there are those of the cycle before, it repeats.
        if step.phase == 1 && step.time > horizon {
          if cycle.keys.isEmpty {
            // Every property it set has been taken over: nothing left to cycle.
            cycle.converged = true
            cycles[item.event] = cycle
            continue
          }
          let state = cycle.keys.map { track($0.1, of: $0.0)?.sample(at: step.time) }
          if let previous = cycle.boundary, Self.agree(previous, state) {
            for (id, key) in cycle.keys {
              if let repeated = tracks[id]?[key]?.repeating(from: step.time, period: cycle.period) { tracks[id]![key] = repeated }
            }
            cycle.converged = true
            cycles[item.event] = cycle
            continue
          }
          cycle.boundary = state
          cycles[item.event] = cycle
        }
      }
      for (id, values) in event.phases!.phases[step.phase] {
        guard let layer = layers[id] else { continue }
        for key in values.keys where step.time < handover["\(id).\(key.name)"] ?? .infinity {
          let applied = apply(key, to: values[key]!, velocity: nil, layer: layer, at: step.time, animation: step.animation, startValue: startValue)
          if cycles[item.event] == nil { eventEnds[item.event] = max(eventEnds[item.event], applied.end) }
        }
      }
    }
  }

  /// How many cycles past the last event a repeating cycle may take to
  /// repeat itself (springs carry velocity from one cycle into the next,
  /// converging geometrically); one that has not by then stops.
  static let convergenceCycles = 200

  /// A repeating phase cycle while the timeline is built.
  struct CycleState {
    var period: Double
    /// The properties its phases set and it still drives.
    var keys: [(String, PropertyKey)]
    /// "id.property" → when a later repeating cycle takes it over.
    var handover: [String: Double] = [:]
    /// Values and velocities where the last cycle began.
    var boundary: [(value: PropertyValue, velocity: PropertyValue?)?]?
    var converged = false
  }

  /// Whether two cycles began alike: every component within 1e-9 (relative
  /// above 1), velocities too.
  static func agree(_ a: [(value: PropertyValue, velocity: PropertyValue?)?], _ b: [(value: PropertyValue, velocity: PropertyValue?)?]) -> Bool {
    func close(_ x: PropertyValue?, _ y: PropertyValue?) -> Bool {
      guard let x, let y else { return x == nil && y == nil }
      guard let cx = x.components, let cy = y.components, cx.count == cy.count else { return x == y }
      return zip(cx, cy).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0)) }
    }
    return a.count == b.count && zip(a, b).allSatisfy { p, q in close(p?.value, q?.value) && close(p?.velocity, q?.velocity) }
  }

  /// Applies an event's own changes at its time: `set`, `drag`, keyframes,
  /// an animator, and the layout its insertions and removals animate.
  /// Returns when they end and the event's settling duration.
  mutating func applyEvent(_ event: Event, layers: [String: Layer], startValue: StartValue?, position: Int) -> (end: Double, settling: Double?) {
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
    // A repeating timeline starts over when its longest track ends: play
    // the tracks once to measure them (a spring keyframe lasts as long as
    // its move needs), then again with that period.
    let first = keyframeLayouts[position].count
    var longest = 0.0
    for track in event.keyframes {
      guard let layer = layers[track.id] else { continue }
      let played = play(track, layer: layer, at: event.at, startValue: startValue)
      end = max(end, played.end)
      longest = max(longest, played.end - event.at)
      keyframeLayouts[position].append(
        KeyframeLayout(
          layer: track.id, property: track.key.name, start: event.at, duration: played.end - event.at, repeating: event.repeating,
          period: nil,
          keyframes: played.layout.map { KeyframeLayout.Piece(kind: $0.kind, start: event.at + $0.start, duration: $0.duration) }))
    }
    // A repeating timeline starts over when its longest track ends (a
    // spring keyframe lasts as long as its move needs: known once played).
    if event.repeating {
      for k in first..<keyframeLayouts[position].count {
        keyframeLayouts[position][k].period = longest
        let id = keyframeLayouts[position][k].layer
        if let key = PropertyKey(name: keyframeLayouts[position][k].property), case .motion(let m)? = tracks[id]?[key] {
          tracks[id]![key] = .motion(m.repeatingLastTrack(every: longest))
        }
      }
    }
    if let run = event.animator {
      for (id, values) in run.set {
        guard let layer = layers[id] else { continue }
        for key in values.keys {
          end = max(end, animate(key, to: values[key]!, with: run.animator, layer: layer, at: event.at, startValue: startValue))
        }
      }
    }
    if let animation = event.animation, !event.insert.isEmpty || !event.remove.isEmpty {
      let timing = AnimationTiming(animation)
      end = max(end, event.at + timing.renderingDuration)
      settling = max(settling ?? 0, timing.baseDuration)
    }
    return (end, event.animation == nil ? nil : settling)
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
    // Taken out while it grows, so that appending does not copy it.
    let existing = tracks[id]?.removeValue(forKey: key)
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
    case (_, .immediate), (_, .fixed), (_, .transitioned):
      var steps: [Track.Step]
      if case .steps(let s) = existing { steps = s } else { steps = [Track.Step(time: -.infinity, value: initial)] }
      var step = Track.Step(time: t, value: value)
      let transitioned = Properties.property(key).interpolation == .transitioned
      // Setting a text to what it is changes nothing (a change running goes on).
      if transitioned, steps.last?.value == value {
        tracks[id, default: [:]][key] = .steps(steps)
        return (end, nil)
      }
      if transitioned, let animation {
        let timing = AnimationTiming(animation)
        step.transition = timing
        end = t + timing.renderingDuration
        settling = timing.baseDuration
      }
      steps.append(step)
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

  /// Plays a keyframe track from `t`, from the value and velocity the
  /// property has then; returns when one pass ends.
  mutating func play(
    _ spec: PropertyKeyframes, layer: Layer, at t: Double, startValue: StartValue?
  ) -> (end: Double, layout: [(kind: String, start: Double, duration: Double)]) {
    guard let id = layer.id else { return (t, []) }
    // Taken out while it grows, so that appending does not copy it.
    let existing = tracks[id]?.removeValue(forKey: spec.key)
    let initial = existing == nil ? startingValue(spec.key, of: layer, at: t, startValue) : spec.keyframes[0].to
    var end = t
    var layout: [(kind: String, start: Double, duration: Double)] = []
    func play<V: VectorArithmetic & PropertyValueType>(_: V.Type, jumps: (V, V) -> Bool = { _, _ in false }) -> Track {
      var m = existing?.motion(of: V.self) ?? Motion(V.unwrap(initial)!)
      var keyframes: [Keyframe<V>] = []
      var previous = m.sample(at: t).value
      for k in spec.keyframes {
        let keyframe = k.map { V.unwrap($0)! }
        // A paint that cannot interpolate with the one before (a colour
        // and a gradient) jumps to it at its start, and holds for its time.
        if jumps(previous, keyframe.to) {
          keyframes.append(.move(keyframe.to))
          if let d = keyframe.duration, d > 0 { keyframes.append(Keyframe(.linear(.linear), to: keyframe.to, duration: d)) }
        } else {
          keyframes.append(keyframe)
        }
        previous = keyframe.to
      }
      m.play(keyframes, at: t)
      end = m.endTime
      layout = m.lastKeyframeTrack!.layout
      return .motion(m)
    }
    let track: Track
    switch spec.keyframes[0].to {
    case .number: track = play(Double.self)
    case .point: track = play(Vector2.self)
    case .color: track = play(PremultipliedColor.self)
    case .paint: track = play(AnimatablePaint.self, jumps: { !$0.isCompatible(with: $1) })
    default: preconditionFailure("a keyframe of a property that does not animate")
    }
    tracks[id, default: [:]][spec.key] = track
    return (end, layout)
  }

  /// Runs an interactive animator on one property from `t`: points split
  /// into the animator's channels (x, y), everything else on channel 0; a
  /// property that changes at once, or a paint that cannot interpolate,
  /// changes at `t`. Returns when it ends.
  mutating func animate(
    _ key: PropertyKey, to value: PropertyValue, with animator: InteractiveAnimator, layer: Layer, at t: Double, startValue: StartValue?
  ) -> Double {
    guard let id = layer.id else { return t }
    let existing = tracks[id]?.removeValue(forKey: key)
    let initial = existing == nil ? startingValue(key, of: layer, at: t, startValue) : value
    func run<V: VectorArithmetic & PropertyValueType>(_ target: V, split: @escaping (V) -> (V, V) = { ($0, .zero) }) -> Track? {
      var m = existing?.motion(of: V.self) ?? Motion(V.unwrap(initial) ?? target)
      m.animate(to: target, at: t, with: animator, split: split)
      return .motion(m)
    }
    let track: Track?
    switch (value, Properties.property(key).interpolation) {
    case (.number(let v), .animated): track = run(v)
    case (.point(let v), .animated): track = run(v) { (Vector2($0.x, 0), Vector2(0, $0.y)) }
    case (.color(let v), .animated): track = run(v)
    case (.paint(let v), .animated):
      let current = existing?.motion(of: AnimatablePaint.self)?.target ?? AnimatablePaint.unwrap(initial) ?? v
      track = current.isCompatible(with: v) ? run(v) : nil
    default: track = nil
    }
    guard let track else {
      if let existing { tracks[id]![key] = existing }
      return apply(key, to: value, velocity: nil, layer: layer, at: t, animation: nil, startValue: startValue).end
    }
    tracks[id, default: [:]][key] = track
    return t + animator.duration
  }
}

/// One property's keyframe track as an event plays it (`render info`).
public struct KeyframeLayout: Sendable, Encodable {
  public struct Piece: Sendable, Encodable {
    /// "linear", "cubic", "spring" or "move".
    public var kind: String
    /// Scene time, seconds.
    public var start: Double
    public var duration: Double
  }
  public var layer: String
  public var property: String
  /// Scene time the track starts.
  public var start: Double
  /// One pass, seconds.
  public var duration: Double
  public var repeating: Bool
  /// When repeating: how often the event's timeline starts over (its
  /// longest track's duration).
  public var period: Double?
  public var keyframes: [Piece]
}

/// A property's motion with its value type erased, as a track holds it.
public protocol PropertyMotion: Sendable {
  /// The motion with its last keyframe track starting over every `period` seconds.
  func repeatingLastTrack(every period: Double) -> any PropertyMotion
  /// The motion repeating from `start` what it did over the `period` before.
  func repeating(from start: Double, period: Double) -> any PropertyMotion
  /// The value and velocity at t.
  func propertySample(at t: Double) -> (value: PropertyValue, velocity: PropertyValue?)
  /// When the first event changed the value; nil before any.
  var firstEventTime: Double? { get }
  /// Every event the motion went through, with when each is done.
  var motionEvents: [MotionEvent] { get }
}

extension Motion: PropertyMotion where Value: PropertyValueType {
  public var motionEvents: [MotionEvent] { events }

  public func repeatingLastTrack(every period: Double) -> any PropertyMotion {
    var copy = self
    copy.repeatLastTrack(every: period)
    return copy
  }

  public func repeating(from start: Double, period: Double) -> any PropertyMotion {
    var copy = self
    copy.repeatPeriodically(from: start, period: period)
    return copy
  }

  public func propertySample(at t: Double) -> (value: PropertyValue, velocity: PropertyValue?) {
    let s = sample(at: t)
    return (Value.wrap(s.value), Value.wrap(s.velocity))
  }
}
