import Primitives
import Syntax
import Timing

// Keyframes, phases and interactive animators in an event
// (docs/scene-format.md, "Keyframes", "Phases", "Interactive animators").

extension SceneDecoding {
  // MARK: Keyframes

  /// `layer id → property → [keyframe, …]`; the fields of `stroke`,
  /// `shadow`, `rotation3D` and `backdrop` are written inside their
  /// objects (`"stroke": {"width": […]}`).
  /// Each track is returned with where its property is written.
  func keyframeTracks(_ node: JSONNode, _ path: JSONPath) -> [(track: PropertyKeyframes, location: SourceLocation, path: JSONPath)] {
    var out: [(track: PropertyKeyframes, location: SourceLocation, path: JSONPath)] = []
    let animated = Properties.all.filter { $0.interpolation == .animated }
    // The objects whose fields animate (stroke, shadow, rotation3D, backdrop).
    var objects: [String] = []
    for p in animated { if let o = p.key.jsonPath.object, !objects.contains(o) { objects.append(o) } }
    for (m, p) in reader.dictionary(node, path, of: "layer id → property → keyframes") ?? [] {
      pendingReferences.append((m.key, m.keyLocation, p))
      guard let members = m.value.members else {
        reader.error("expected an object of property → keyframes, got \(m.value.typeName)", m.value, p)
        continue
      }
      // Each (property, its track node) written, flattening stroke and shadow.
      var written: [(AnyProperty, JSONNode.Member, JSONPath)] = []
      for member in members {
        let memberPath = p.appending(member.key)
        if member.key == "rotation3D" { pendingTurns.append((m.key, member.keyLocation, memberPath)) }
        if objects.contains(member.key) {
          let fields = animated.filter { $0.key.jsonPath.object == member.key }
          guard let inner = member.value.members else {
            reader.error("expected an object of \(member.key) field → keyframes, got \(member.value.typeName)", member.value, memberPath)
            continue
          }
          for field in inner {
            if let property = fields.first(where: { $0.key.jsonPath.field == field.key }) {
              written.append((property, field, memberPath.appending(field.key)))
            } else {
              unknownKeyframed(field, memberPath.appending(field.key), among: fields.map(\.key.jsonPath.field), in: member.key)
            }
          }
          continue
        }
        let topLevel = animated.filter { $0.key.jsonPath.object == nil }
        if let property = topLevel.first(where: { $0.key.jsonPath.field == member.key }) {
          written.append((property, member, memberPath))
        } else {
          unknownKeyframed(member, memberPath, among: topLevel.map(\.key.jsonPath.field) + objects)
        }
      }
      for (property, member, trackPath) in written {
        if property.key == .position {
          pendingPositions.append((m.key, member.keyLocation, trackPath, "move it with \"offset\" instead"))
        }
        guard let keyframes = track(member.value, trackPath, property) else { continue }
        out.append((PropertyKeyframes(id: m.key, key: property.key, keyframes: keyframes), member.keyLocation, trackPath))
      }
    }
    return out
  }

  /// The message for a key that names no property a track may animate.
  private func unknownKeyframed(_ member: JSONNode.Member, _ path: JSONPath, among names: [String], in object: String? = nil) {
    let key = member.key
    let message =
      if let property = PropertyKey(name: object.map { "\($0).\(key)" } ?? key).map(Properties.property), property.interpolation != .animated {
        "\(Excerpt.quoted(key)) changes at once and cannot be keyframed; set it in \"set\""
      } else {
        "unknown property \(Excerpt.quoted(key))" + Suggestions.didYouMean(key, in: names)
      }
    reader.error(message, at: member.keyLocation, path: path)
  }

  /// A track: a list of keyframes in SwiftUI syntax or the object form.
  private func track(_ node: JSONNode, _ path: JSONPath, _ property: AnyProperty) -> [Keyframe<PropertyValue>]? {
    guard let list = node.array else {
      reader.error("expected a list of keyframes, got \(node.typeName)", node, path)
      return nil
    }
    guard !list.isEmpty else {
      reader.error("a track needs at least one keyframe", node, path)
      return nil
    }
    guard list.count <= SceneLimits.maximumEvents else {
      reader.error("\(list.count) keyframes, more than the limit of \(SceneLimits.maximumEvents)", node, path)
      return nil
    }
    var out: [Keyframe<PropertyValue>] = []
    for (i, element) in list.enumerated() {
      let p = path.appending(i)
      do {
        let written = try KeyframeParser.parse(json: element, path: p)
        // Each value read as the property's; a problem is reported where it is.
        let keyframe = try written.map { (value: WrittenValue) throws(Reported) -> PropertyValue in
          let isTarget = value.origin == written.to.origin
          if !isTarget && !property.kind.isNumeric {
            // Velocities are numbers, or points for point properties.
            reader.error(
              "a velocity is given for numbers and points; \(Excerpt.quoted(property.key.name)) is \(property.kind.noun), so leave the velocity out",
              element, p)
            throw Reported()
          }
          guard let read = keyframeValue(value, of: property, rate: !isTarget, keyframe: element, p) else { throw Reported() }
          return read
        }
        out.append(keyframe)
      } catch let error as SyntaxError {
        reader.error(error, fallback: element, path: p)
      } catch {
        // Reported already.
      }
    }
    return out.count == list.count ? out : nil
  }

  /// A problem already reported to the reader.
  private struct Reported: Error {}

  /// A keyframe's target or velocity as a value of `property`: read from
  /// the JSON where the object form writes it, else from the SwiftUI text.
  private func keyframeValue(_ value: WrittenValue, of property: AnyProperty, rate: Bool, keyframe: JSONNode, _ path: JSONPath) -> PropertyValue? {
    var node: JSONNode
    var valuePath = path
    switch value.origin {
    case .json(let p, let location):
      // The object form: the value as the file writes it (a gradient object too).
      if let found = Self.descend(keyframe, from: path, to: p) { node = found } else { node = JSONNode(.null, at: location) }
      valuePath = p
    case .text(let range):
      var location = keyframe.location
      location.column += 1 + range.lowerBound
      guard let synthesized = Self.node(value.value, at: location) else {
        reader.error("expected \(property.kind.expectation), got \(value.value.kindName)", at: location, path: path)
        return nil
      }
      node = synthesized
    }
    let name = Excerpt.quoted(property.key.name)
    switch (property.kind, node.value) {
    case (.number, .array):
      reader.error("\(name) is a number, and this keyframe's value is a point [x, y]; write a number", node, valuePath)
      return nil
    case (.point, .number) where !property.key.acceptsSingleNumber:
      reader.error("\(name) is a point [x, y], and this keyframe's value is a number; write [x, y]", node, valuePath)
      return nil
    default:
      return reader.value(of: property, node, valuePath, rate: rate)
    }
  }

  /// The node at `target`, a path below `node`'s own `path`.
  private static func descend(_ node: JSONNode, from path: JSONPath, to target: JSONPath) -> JSONNode? {
    guard target.components.starts(with: path.components) else { return nil }
    var current = node
    for component in target.components.dropFirst(path.components.count) {
      switch component {
      case .key(let k): guard let next = current[k] else { return nil }; current = next
      case .index(let i): guard let a = current.array, a.indices.contains(i) else { return nil }; current = a[i]
      }
    }
    return current
  }

  /// A JSON node for a value written in SwiftUI syntax (a number, `[x, y]`,
  /// a colour string); nil for a name.
  private static func node(_ value: ArgumentValue, at location: SourceLocation) -> JSONNode? {
    switch value {
    case .number(let n): return JSONNode(.number(n, text: formatNumber(n)), at: location)
    case .bool(let b): return JSONNode(.bool(b), at: location)
    case .string(let s): return JSONNode(.string(s), at: location)
    case .array(let elements):
      var nodes: [JSONNode] = []
      for element in elements {
        guard let n = node(element.value, at: location) else { return nil }
        nodes.append(n)
      }
      return JSONNode(.array(nodes), at: location)
    case .chain: return nil
    }
  }

  // MARK: Phases

  /// `phases` with `animations` (one per phase) or one `animation` for all
  /// (default `default`), and `repeat`.
  func phaseCycle(
    _ node: JSONNode, _ path: JSONPath, animations: (node: JSONNode, path: JSONPath)?, animation: Animation?, repeats: Bool
  ) -> PhaseCycle? {
    guard let list = node.array else {
      reader.error("expected a list of phases (each like \"set\": layer id → properties), got \(node.typeName)", node, path)
      return nil
    }
    guard list.count >= 2 else {
      reader.error("a phase animation needs at least two phases, got \(list.count)", node, path)
      return nil
    }
    guard list.count <= SceneLimits.maximumEvents else {
      reader.error("\(list.count) phases, more than the limit of \(SceneLimits.maximumEvents)", node, path)
      return nil
    }
    let phases = list.enumerated().map { changes($0.element, path.appending($0.offset), numericOnly: false) }
    var perPhase: [Animation]
    if let (n, p) = animations {
      guard let a = n.array else {
        reader.error("expected a list of animations, one per phase, got \(n.typeName)", n, p)
        return nil
      }
      guard a.count == list.count else {
        reader.error(
          "\(list.count) phases and \(a.count) animations: give one animation per phase, or one \"animation\" for them all", n, p)
        return nil
      }
      perPhase = []
      for (i, element) in a.enumerated() {
        do {
          perPhase.append(try AnimationParser.parse(json: element, path: p.appending(i)))
        } catch {
          reader.error(error, fallback: element, path: p.appending(i))
        }
      }
      guard perPhase.count == a.count else { return nil }
    } else {
      perPhase = Array(repeating: animation ?? Animation(.spring(.default, initialVelocity: 0)), count: list.count)
    }
    return PhaseCycle(phases: phases, animations: perPhase, repeats: repeats)
  }

  // MARK: Animators

  static let animatorKeys = ["set", "timing", "duration", "scrub", "continue", "reversed"]

  /// `{"set", "timing", "duration", "scrub", "continue", "reversed"}`.
  func animatorRun(_ node: JSONNode, _ path: JSONPath) -> AnimatorRun? {
    guard let o = reader.object(node, path, keys: Self.animatorKeys, required: ["set"], what: "an animator object") else { return nil }
    let set = o["set"].map { changes($0.node, $0.path, numericOnly: false) } ?? []
    var timingText = InteractiveAnimator.defaultTimingText
    var timing = AnimatorTiming.cubic(.easeInOut)
    if let (n, p) = o["timing"] {
      guard let parsed = animatorTiming(n, p) else { return nil }
      timing = parsed
      timingText = n.string ?? "\(parsed)"
    }
    let duration =
      o["duration"].map { reader.number($0.node, $0.path, NumberRange(lower: .open(0), upper: .closed(AnimationParser.maximumSettlingDuration))) }
      ?? InteractiveAnimator.defaultDuration
    guard let duration else { return nil }
    var scrub: [InteractiveAnimator.ScrubPoint] = []
    if let (n, p) = o["scrub"] {
      guard let points = scrubPoints(n, p) else { return nil }
      scrub = points
    }
    var continueTiming: AnimatorTiming?
    var factor = 0.0
    if let (n, p) = o["continue"] {
      guard !scrub.isEmpty else {
        reader.error("an animator continues after a scrub; add \"scrub\" points, or leave \"continue\" out", n, p)
        return nil
      }
      guard let c = reader.object(n, p, keys: ["timing", "durationFactor"], what: "a continue object") else { return nil }
      if let (tn, tp) = c["timing"] {
        guard let parsed = animatorTiming(tn, tp) else { return nil }
        continueTiming = parsed
      }
      if let (fn, fp) = c["durationFactor"] {
        guard let f = reader.number(fn, fp, .nonNegative) else { return nil }
        factor = f
      }
    }
    var reversed = false
    if let (n, p) = o["reversed"] {
      guard let r = reader.bool(n, p) else { return nil }
      if r && scrub.isEmpty {
        reader.error("an animator is reversed after a scrub; add \"scrub\" points", n, p)
        return nil
      }
      reversed = r
    }
    guard
      let animator = InteractiveAnimator(
        timing: timing, duration: duration, scrub: scrub, continueTiming: continueTiming, durationFactor: factor, reversed: reversed)
    else {
      let (n, p) =
        o["continue"]?.node["timing"] != nil
        ? (o["continue"]!.node["timing"]!, o["continue"]!.path.appending("timing")) : (o["timing"] ?? (node, path))
      reader.error("no spring of this damping ratio and initial velocity settles in the time the animator gives it", n, p)
      return nil
    }
    return AnimatorRun(set: set, animator: animator, timing: timingText)
  }

  private func animatorTiming(_ node: JSONNode, _ path: JSONPath) -> AnimatorTiming? {
    do {
      return try AnimatorTimingParser.parse(json: node, path: path)
    } catch {
      reader.error(error, fallback: node, path: path)
      return nil
    }
  }

  /// `[[t, f], …]`: t after the event, increasing; f in 0…1.
  private func scrubPoints(_ node: JSONNode, _ path: JSONPath) -> [InteractiveAnimator.ScrubPoint]? {
    let rows = timedRows(node, path, values: 1, shape: "[t, fractionComplete]", minimum: 1, noun: "scrub") { n, p in
      guard let f = n.number, (0...1).contains(f) else {
        reader.error("fractionComplete must be between 0 and 1, got \(n.number.map { formatNumber($0) } ?? n.typeName)", n, p)
        return nil
      }
      return f
    }
    return rows?.map { InteractiveAnimator.ScrubPoint(time: $0.t, fraction: $0.values[0]) }
  }
}

extension PropertyValueKind {
  /// What a value of the kind is, for messages: "a number".
  var noun: String {
    switch self {
    case .number: "a number"
    case .point: "a point"
    case .paint: "a paint"
    case .color: "a colour"
    case .flag: "a flag"
    case .choice: "a choice"
    case .lengths: "a list of lengths"
    case .text: "a text"
    }
  }

  /// What a value must be, to follow "expected".
  var expectation: String {
    switch self {
    case .number: "a number"
    case .point: "a point [x, y]"
    case .paint: "a colour string or a gradient object"
    case .color: "a colour string"
    case .flag: "true or false"
    case .choice(let names): "one of " + names.joined(separator: ", ")
    case .lengths: "a list of lengths"
    case .text: "a string"
    }
  }
}
