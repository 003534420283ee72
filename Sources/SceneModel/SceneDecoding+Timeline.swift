import Primitives
import Syntax
import Timing

extension SceneDecoding {
  static let eventKeys = [
    "at", "animation", "set", "insert", "remove", "velocity", "drag", "keyframes", "repeating", "phases", "animations", "repeat", "animator",
  ]
  /// The keys an event needs at least one of.
  static let changeKeys = ["set", "insert", "remove", "velocity", "drag", "keyframes", "phases", "animator"]

  func event(_ node: JSONNode, _ path: JSONPath, index: Int, assets: [String: Asset]) -> Event? {
    guard let o = reader.object(node, path, keys: Self.eventKeys, required: ["at"], what: "an event object") else { return nil }
    guard let at = o["at"].flatMap({ reader.number($0.node, $0.path, .nonNegative) }) else { return nil }
    var event = Event(at: at, animation: nil, set: [], insert: [], remove: [], velocity: [], drag: nil, index: index, location: node.location)
    if let (n, p) = o["animation"] {
      do {
        event.animation = try AnimationParser.parse(json: n, path: p)
      } catch {
        reader.error(error, fallback: n, path: p)
      }
    }
    if let (n, p) = o["set"] { event.set = changes(n, p, numericOnly: false) }
    if let (n, p) = o["velocity"] {
      event.velocity = changes(n, p, numericOnly: true)
      checkVelocity(n, p, set: event.set, animated: o["animation"] != nil)
    }
    if let (n, p) = o["insert"] {
      if let a = n.array {
        event.insert = a.enumerated().compactMap { insertion($0.element, p.appending($0.offset), assets: assets) }
      } else {
        reader.error("expected a list of insertions, got \(n.typeName)", n, p)
      }
    }
    if let (n, p) = o["remove"] {
      if let a = n.array {
        event.remove = a.enumerated().compactMap { removal($0.element, p.appending($0.offset)) }
      } else {
        reader.error("expected a list of removals, got \(n.typeName)", n, p)
      }
    }
    if let (n, p) = o["drag"] { event.drag = drag(n, p) }
    motion(o, into: &event)
    if !Self.changeKeys.contains(where: { o[$0] != nil }) {
      reader.error("an event needs at least one of \(Self.changeKeys.joined(separator: ", "))", node, path)
    }
    return event
  }

  /// An event's keyframes, phases and animator, and the keys that only go with them.
  private func motion(_ o: [String: (node: JSONNode, path: JSONPath)], into event: inout Event) {
    var claimed: [String: String] = [:]
    func claim(_ id: String, _ key: PropertyKey) -> String { "\(id)\u{0}\(key.name)" }
    for (id, values) in event.set { for key in values.keys { claimed[claim(id, key)] = "set" } }
    if let drag = event.drag { claimed[claim(drag.layer, .position)] = "a drag" }
    /// Reports a property this event already changes another way.
    func conflicts(_ id: String, _ key: PropertyKey, as what: String, at location: SourceLocation, _ path: JSONPath) -> Bool {
      if let other = claimed[claim(id, key)] {
        reader.error(
          "\(Excerpt.quoted(id))'s \(Excerpt.quoted(key.name)) is both \(other == "set" ? "set" : "changed by \(other)") and \(what) in this event; an event changes a property one way",
          at: location, path: path)
        return true
      }
      claimed[claim(id, key)] = what
      return false
    }
    if let (n, p) = o["keyframes"] {
      for (track, location, trackPath) in keyframeTracks(n, p) where !conflicts(track.id, track.key, as: "keyframed", at: location, trackPath) {
        event.keyframes.append(track)
      }
    }
    if let (n, p) = o["repeating"] {
      if o["keyframes"] == nil {
        reader.error("\"repeating\" repeats an event's keyframes, and this event has none", n, p)
      } else if let r = reader.bool(n, p) {
        event.repeating = r
      }
    }
    var repeats = false
    if let (n, p) = o["repeat"] {
      if o["phases"] == nil {
        reader.error("\"repeat\" repeats an event's phases, and this event has none", n, p)
      } else if let r = reader.bool(n, p) {
        repeats = r
      }
    }
    if let (n, p) = o["animations"], o["phases"] == nil {
      reader.error("\"animations\" gives each phase its animation, and this event has no \"phases\"", n, p)
    }
    if let (n, p) = o["phases"] {
      if let (an, ap) = o["animations"], o["animation"] != nil {
        reader.error("give one \"animation\" for every phase or \"animations\", one per phase, not both", an, ap)
      } else if let cycle = phaseCycle(n, p, animations: o["animations"], animation: event.animation, repeats: repeats) {
        var ok = true
        for (k, phase) in cycle.phases.enumerated() {
          for (id, values) in phase {
            for key in values.keys {
              let before = claimed[claim(id, key)]
              // Phases set a property many times: only other ways conflict.
              if before == "phases" { continue }
              let phase = n.array![k]
              let location = phase.members?.first { $0.key == id }?.keyLocation ?? phase.location
              if conflicts(id, key, as: "phases", at: location, p.appending(k).appending(id)) { ok = false }
            }
          }
        }
        if ok { event.phases = cycle }
      }
    }
    if let (n, p) = o["animator"], let run = animatorRun(n, p) {
      var ok = true
      for (id, values) in run.set {
        let setPath = p.appending("set").appending(id)
        let location = n["set"]?.members?.first { $0.key == id }?.keyLocation ?? n.location
        for key in values.keys where conflicts(id, key, as: "an animator", at: location, setPath) { ok = false }
      }
      if ok { event.animator = run }
    }
  }

  /// A velocity is handed to the springs its event starts (docs/scene-format.md):
  /// the event needs an animation, and each property given a velocity must
  /// be one the event sets on that layer.
  func checkVelocity(_ node: JSONNode, _ path: JSONPath, set: [(id: String, values: PropertyValues)], animated: Bool) {
    guard animated else {
      reader.error("a velocity is handed to the springs the event starts, and this event has no animation; add an \"animation\"", node, path)
      return
    }
    for layer in node.members ?? [] {
      let values = set.first { $0.id == layer.key }?.values
      for property in layer.value.members ?? [] where PropertyKey(name: property.key).flatMap({ values?[$0] }) == nil {
        reader.error(
          "this event does not animate \(Excerpt.quoted(layer.key))'s \(Excerpt.quoted(property.key)), so it has no spring to hand the velocity to; set the property in the same event",
          at: property.keyLocation, path: path.appending(layer.key).appending(property.key))
      }
    }
  }

  /// `id → properties`, for `set` (any property) and `velocity` (numbers only).
  func changes(_ node: JSONNode, _ path: JSONPath, numericOnly: Bool) -> [(id: String, values: PropertyValues)] {
    var out: [(id: String, values: PropertyValues)] = []
    for (m, p) in reader.dictionary(node, path, of: "layer id → properties") ?? [] {
      pendingReferences.append((m.key, m.keyLocation, p))
      let context: Reader.PropertyContext = numericOnly ? .rates : .values
      guard let o = reader.object(m.value, p, keys: context.keys) else { continue }
      if !numericOnly, let position = m.value.members?.first(where: { $0.key == Properties.position.key.name }) {
        pendingPositions.append((m.key, position.keyLocation, p.appending(position.key), "move it with \"offset\" instead"))
      }
      if !numericOnly, let turn = m.value.members?.first(where: { $0.key == "rotation3D" }) {
        pendingTurns.append((m.key, turn.keyLocation, p.appending(turn.key)))
        for part in reader.rotation3DParts(turn.value, p.appending(turn.key)) {
          pendingTurnParts.append((m.key, part.key, part.values, part.node.location, part.path))
        }
      }
      if !numericOnly, let text = m.value.members?.first(where: { $0.key == Properties.text.key.name }) {
        pendingTexts.append((m.key, text.keyLocation, p.appending(text.key)))
      }
      out.append((m.key, reader.properties(o, context: context).values))
    }
    return out
  }

  func insertion(_ node: JSONNode, _ path: JSONPath, assets: [String: Asset]) -> Insertion? {
    guard let o = reader.object(node, path, keys: ["into", "index", "transition", "layer"], required: ["into", "layer"]) else { return nil }
    let into = o["into"].flatMap { reader.string($0.node, $0.path) }
    if let into, let (n, p) = o["into"] { pendingContainers.append((into, n.location, p)) }
    let index = o["index"].map { reader.integer($0.node, $0.path, .nonNegative) } ?? nil
    let transition: Transition? = o["transition"].map { self.transition($0.node, $0.path) } ?? Transition.opacity
    guard let layerEntry = o["layer"], let layer = layer(layerEntry.node, layerEntry.path, depth: 2, assets: assets) else { return nil }
    if layer.id == nil {
      reader.error("an inserted layer needs an 'id', so that later events can name it", layerEntry.node, layerEntry.path)
    }
    guard let into, let transition, let (intoNode, intoPath) = o["into"] else { return nil }
    let indexAt = o["index"].flatMap { entry in index.map { ($0, entry.node.location, entry.path) } }
    return Insertion(into: into, intoLocation: intoNode.location, intoPath: intoPath, index: indexAt, transition: transition, layer: layer)
  }

  func removal(_ node: JSONNode, _ path: JSONPath) -> Removal? {
    guard let o = reader.object(node, path, keys: ["id", "transition"], required: ["id"]) else { return nil }
    guard let (n, p) = o["id"], let id = reader.string(n, p) else { return nil }
    pendingReferences.append((id, n.location, p))
    let transition: Transition? = o["transition"].map { self.transition($0.node, $0.path) } ?? Transition.opacity
    guard let transition else { return nil }
    return Removal(id: id, idLocation: n.location, idPath: p, transition: transition)
  }

  func drag(_ node: JSONNode, _ path: JSONPath) -> Drag? {
    guard let o = reader.object(node, path, keys: ["layer", "points"], required: ["layer", "points"]),
      let (ln, lp) = o["layer"], let layer = reader.string(ln, lp), let (pn, pp) = o["points"]
    else { return nil }
    pendingReferences.append((layer, ln.location, lp))
    pendingPositions.append((layer, ln.location, lp, "a drag cannot move it (drag a layer outside the stack)"))
    guard let rows = timedRows(pn, pp, values: 2, shape: "[t, x, y]", minimum: 2, noun: "drag", value: { reader.number($0, $1) }) else { return nil }
    return Drag(layer: layer, points: rows.map { ($0.t, $0.values[0], $0.values[1]) })
  }

  /// A list of rows `[t, v1, …, v_values]` (written as `shape`; a drag's
  /// points, an animator's scrub), at least `minimum` and at most
  /// `SceneLimits.maximumDragPoints`, times 0 or more and increasing; each
  /// value read by `value` (which reports its own error). Nil when any is wrong.
  func timedRows(
    _ node: JSONNode, _ path: JSONPath, values count: Int, shape: String, minimum: Int, noun: String, value: (JSONNode, JSONPath) -> Double?
  ) -> [(t: Double, values: [Double])]? {
    let width = 1 + count
    guard let a = node.array, a.count >= minimum else {
      if let a = node.array {
        reader.error("a \(noun) needs at least \(minimum == 1 ? "one point" : "two points") \(shape), got \(a.count)", node, path)
      } else {
        reader.error("expected a list of points [\(shape), …], got \(node.typeName)", node, path)
      }
      return nil
    }
    guard a.count <= SceneLimits.maximumDragPoints else {
      reader.error("\(a.count) points, more than the limit of \(SceneLimits.maximumDragPoints)", node, path)
      return nil
    }
    var rows: [(t: Double, values: [Double])] = []
    for (i, point) in a.enumerated() {
      let p = path.appending(i)
      guard let v = point.array, v.count == width else {
        reader.error("expected a point \(shape)", point, p)
        return nil
      }
      guard let t = reader.number(v[0], p.appending(0), .nonNegative) else { return nil }
      var values: [Double] = []
      for k in 1..<width {
        guard let x = value(v[k], p.appending(k)) else { return nil }
        values.append(x)
      }
      if let last = rows.last, t <= last.t {
        reader.error("\(noun) times must increase: \(formatNumber(t)) after \(formatNumber(last.t))", v[0], p.appending(0))
        return nil
      }
      rows.append((t, values))
    }
    return rows
  }

  /// Every id that events name must be a layer of the scene or one that an
  /// event inserts; insertions go into containers; a turned layer gives its axis.
  func checkReferences(_ events: [Event], nodes: [JSONNode], path: JSONPath) {
    for (id, location, p) in pendingTurns where ids[id] != nil && !turned.contains(id) {
      reader.error(
        "\(Excerpt.quoted(id)) gives no rotation3D axis, so an event cannot turn it: give the layer \"rotation3D\": {\"axis\": [0, 1, 0]}",
        at: location, path: p)
    }
    // Only a rotation3D's angle animates: a `set` may repeat the layer's
    // axis, anchor, anchorZ and perspective, never change them.
    for part in pendingTurnParts {
      guard let turn = turns[part.id] else { continue }  // reported above
      let (own, given): ([Double], Bool) =
        switch part.key {
        case "axis": ([turn.axis.x, turn.axis.y, turn.axis.z], true)
        case "anchor": ([turn.anchor.x, turn.anchor.y], turn.anchor != Vector2(0.5, 0.5))
        case "anchorZ": ([turn.anchorZ], turn.anchorZ != 0)
        default: ([turn.perspective], turn.perspective != 1)
        }
      guard part.values != own else { continue }
      let text = { (v: [Double]) in v.count == 1 ? formatNumber(v[0]) : "[" + v.map { formatNumber($0) }.joined(separator: ", ") + "]" }
      reader.error(
        "only rotation3D's angle animates: this \(part.key) \(text(part.values)) is not the layer's \(text(own))\(given ? "" : " (the default)")",
        at: part.location, path: part.path)
    }
    for (id, location, p) in pendingTexts where ids[id] != nil && !textLayers.contains(id) {
      reader.error("\(Excerpt.quoted(id)) is not a text layer: only a text layer's \"text\" can change", at: location, path: p)
    }
    for (id, location, p) in pendingReferences where ids[id] == nil {
      reader.error("no layer has id \(Excerpt.quoted(id))" + Suggestions.didYouMean(id, in: ids.keys.sorted()), at: location, path: p)
    }
    for (id, location, p) in pendingContainers {
      if ids[id] == nil {
        reader.error("no layer has id \(Excerpt.quoted(id))" + Suggestions.didYouMean(id, in: containers.sorted()), at: location, path: p)
      } else if !containers.contains(id) {
        reader.error(
          "\(Excerpt.quoted(id)) is not a container (group, vstack, hstack, zstack): layers can only be inserted into one", at: location, path: p)
      }
    }
  }
}
