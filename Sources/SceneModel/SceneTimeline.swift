import Primitives
import Timing

/// Every animatable property of every layer with an id, as a `Motion`
/// built from the timeline's events in time order: `set` animates with the
/// event's animation (interrupting as SCENE.md says), `velocity` seeds the
/// springs the event starts, `drag` moves `position` with the finger.
/// Evaluation is a pure function of time.
public struct SceneTimeline: Sendable {
  /// One motion per (layer id, property key); stroke and shadow fields are
  /// separate keys (`stroke.width`, `shadow.color`…), so a `set` of some
  /// fields changes those and keeps the rest.
  var numbers: [Key: Motion<Double>] = [:]
  var pairs: [Key: Motion<Vector2>] = [:]
  var vectors: [Key: Motion<AnimatableVector>] = [:]
  /// The end of every event's animation (for the default duration), in
  /// the scene's time order.
  public private(set) var eventEnds: [Double] = []
  /// Each event's settling duration: the longest base duration its
  /// animation got for the moves it made (a spring's settling duration for
  /// those moves and velocities, a curve's duration); nil without animation.
  public private(set) var eventSettling: [Double?] = []

  struct Key: Hashable, Sendable {
    var id: String
    var property: String
  }

  public init(scene: Scene) {
    var layers: [String: Layer] = [:]
    func register(_ layer: Layer) {
      if let id = layer.id { layers[id] = layer }
      layer.children.forEach(register)
    }
    scene.layers.forEach(register)
    for event in scene.timeline { for insertion in event.insert { register(insertion.layer) } }

    for event in scene.timeline {
      var end = event.at
      var settling: Double?
      let velocities = Dictionary(event.velocity.map { ($0.id, $0.values) }, uniquingKeysWith: { a, _ in a })
      for (id, values) in event.set {
        guard let layer = layers[id] else { continue }
        let v = velocities[id]
        for change in Self.changes(values, velocity: v) {
          let applied = apply(change, id: id, layer: layer, at: event.at, animation: event.animation)
          end = max(end, applied.end)
          if let base = applied.settling { settling = max(settling ?? 0, base) }
        }
      }
      if let drag = event.drag {
        let key = Key(id: drag.layer, property: "position")
        var motion = pairs[key] ?? Motion(layers[drag.layer].map { Self.initialPair("position", $0) } ?? .zero)
        motion.drag(at: event.at, points: drag.points.map { .init(time: $0.0, value: Vector2($0.1, $0.2)) })
        pairs[key] = motion
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

  /// The latest end of any event's animation: SCENE.md's default duration
  /// (a spring ends at its settling duration, `repeatForever` counts one
  /// pass, or two with `autoreverses`). 0 for a scene without events.
  public var defaultDuration: Double { eventEnds.max() ?? 0 }

  // MARK: Values

  public func number(_ id: String?, _ property: String, at t: Double) -> Double? {
    id.flatMap { numbers[Key(id: $0, property: property)]?.value(at: t) }
  }
  public func pair(_ id: String?, _ property: String, at t: Double) -> Vector2? {
    id.flatMap { pairs[Key(id: $0, property: property)]?.value(at: t) }
  }
  public func vector(_ id: String?, _ property: String, at t: Double) -> AnimatableVector? {
    id.flatMap { vectors[Key(id: $0, property: property)]?.value(at: t) }
  }

  // MARK: Building

  enum Value {
    case number(Double, velocity: Double?)
    case pair(Vector2, velocity: Vector2?)
    case vector(AnimatableVector)
  }

  /// The changes a property set makes, one per motion key.
  static func changes(_ v: PropertyValues, velocity w: PropertyValues?) -> [(String, Value)] {
    var out: [(String, Value)] = []
    func pair(_ key: String, _ value: Vector2?, _ velocity: Vector2?) { if let value { out.append((key, .pair(value, velocity: velocity))) } }
    func number(_ key: String, _ value: Double?, _ velocity: Double?) { if let value { out.append((key, .number(value, velocity: velocity))) } }
    pair("position", v.position, w?.position)
    pair("size", v.size, w?.size)
    pair("anchor", v.anchor, w?.anchor)
    pair("offset", v.offset, w?.offset)
    pair("scale", v.scale, w?.scale)
    pair("trim", v.trim, w?.trim)
    number("rotation", v.rotation, w?.rotation)
    number("opacity", v.opacity, w?.opacity)
    number("cornerRadius", v.cornerRadius, w?.cornerRadius)
    number("blur", v.blur, w?.blur)
    if let fill = v.fill { out.append(("fill", .vector(PaintVector.vector(fill)))) }
    if let color = v.color { out.append(("color", .vector(PaintVector.vector(color)))) }
    if let s = v.stroke {
      if let c = s.color { out.append(("stroke.color", .vector(PaintVector.vector(c)))) }
      number("stroke.width", s.width, nil)
      number("stroke.dashPhase", s.dashPhase, nil)
    }
    if let s = v.shadow {
      if let c = s.color { out.append(("shadow.color", .vector(PaintVector.vector(.color(c))))) }
      number("shadow.radius", s.radius, nil)
      pair("shadow.offset", s.offset, nil)
    }
    if let hidden = v.hidden { number("hidden", hidden ? 1 : 0, nil) }
    return out
  }

  /// Applies one change; returns when its motion ends and its animation's
  /// base duration for this move.
  mutating func apply(_ change: (String, Value), id: String, layer: Layer, at t: Double, animation: Animation?) -> (end: Double, settling: Double?) {
    let key = Key(id: id, property: change.0)
    // `hidden` never animates.
    let animation = change.0 == "hidden" ? nil : animation
    switch change.1 {
    case .number(let value, let velocity):
      var m = numbers[key] ?? Motion(Self.initialNumber(change.0, layer))
      m.animate(to: value, at: t, with: animation, velocity: velocity)
      numbers[key] = m
      return (m.endTime, m.lastTiming?.baseDuration)
    case .pair(let value, let velocity):
      var m = pairs[key] ?? Motion(Self.initialPair(change.0, layer))
      m.animate(to: value, at: t, with: animation, velocity: velocity)
      pairs[key] = m
      return (m.endTime, m.lastTiming?.baseDuration)
    case .vector(let value):
      var m = vectors[key] ?? Motion(Self.initialVector(change.0, layer))
      // Paints of different shapes (a colour and a gradient, or gradients
      // with different stops) cannot interpolate: they change at once.
      let compatible = m.target.components.count == value.components.count
      m.animate(to: value, at: t, with: compatible ? animation : nil)
      vectors[key] = m
      return (m.endTime, m.lastTiming?.baseDuration)
    }
  }

  static func initialPair(_ key: String, _ layer: Layer) -> Vector2 {
    let p = layer.properties
    switch key {
    case "position": return p.position ?? .zero
    case "size": return p.size ?? .zero
    case "anchor": return p.anchor ?? Vector2(0.5, 0.5)
    case "offset": return p.offset ?? .zero
    case "scale": return p.scale ?? Vector2(1, 1)
    case "trim": return p.trim ?? Vector2(0, 1)
    case "shadow.offset": return p.shadow?.offset ?? .zero
    default: return .zero
    }
  }

  static func initialNumber(_ key: String, _ layer: Layer) -> Double {
    let p = layer.properties
    switch key {
    case "rotation": return p.rotation ?? 0
    case "opacity": return p.opacity ?? 1
    case "cornerRadius": return p.cornerRadius ?? 0
    case "blur": return p.blur ?? 0
    case "stroke.width": return p.stroke?.width ?? 1
    case "stroke.dashPhase": return p.stroke?.dashPhase ?? 0
    case "shadow.radius": return p.shadow?.radius ?? 0
    case "hidden": return (p.hidden ?? false) ? 1 : 0
    default: return 0
    }
  }

  static func initialVector(_ key: String, _ layer: Layer) -> AnimatableVector {
    let p = layer.properties
    switch key {
    case "fill": return PaintVector.vector(p.fill ?? .color(.clear))
    case "color": return PaintVector.vector(p.color ?? .color(.black))
    case "stroke.color": return PaintVector.vector(p.stroke?.color ?? .color(.clear))
    case "shadow.color": return PaintVector.vector(.color(p.shadow?.color ?? Color(red: 0, green: 0, blue: 0, alpha: 1.0 / 3)))
    default: return .zero
    }
  }
}

/// Paints as vectors, so they animate component-wise in premultiplied
/// sRGB (SCENE.md: "colours interpolate component-wise on premultiplied
/// sRGB values, in gradients too; gradients animate stop by stop").
/// Layout: a kind tag, the geometry, then (offset, r, g, b, a) per stop.
public enum PaintVector {
  public static let colorKind = 0.0, linearKind = 1.0, radialKind = 2.0

  public static func vector(_ paint: PaintValue) -> AnimatableVector {
    func stops(_ s: [GradientStopValue]) -> [Double] {
      s.flatMap { stop -> [Double] in
        let c = stop.color.premultiplied
        return [stop.offset, c.red, c.green, c.blue, c.alpha]
      }
    }
    switch paint {
    case .color(let c):
      let p = c.premultiplied
      return AnimatableVector([colorKind, p.red, p.green, p.blue, p.alpha])
    case .linear(let from, let to, let s):
      return AnimatableVector([linearKind, from.x, from.y, to.x, to.y] + stops(s))
    case .radial(let center, let r0, let r1, let s):
      return AnimatableVector([radialKind, center.x, center.y, r0, r1] + stops(s))
    }
  }

  /// The paint a vector stands for; colours are premultiplied (clamped
  /// into range: a spring may overshoot).
  public static func paint(_ v: AnimatableVector) -> (kind: Double, geometry: [Double], stops: [(Double, PremultipliedColor)])? {
    let c = v.components
    guard let kind = c.first else { return nil }
    if kind == colorKind, c.count == 5 {
      return (kind, [], [(0, PremultipliedColor(red: c[1], green: c[2], blue: c[3], alpha: c[4]).clamped)])
    }
    guard c.count >= 5, (c.count - 5) % 5 == 0 else { return nil }
    var stops: [(Double, PremultipliedColor)] = []
    var i = 5
    while i + 4 < c.count {
      stops.append((min(max(c[i], 0), 1), PremultipliedColor(red: c[i + 1], green: c[i + 2], blue: c[i + 3], alpha: c[i + 4]).clamped))
      i += 5
    }
    return (kind.rounded(), Array(c[1..<5]), stops)
  }
}
