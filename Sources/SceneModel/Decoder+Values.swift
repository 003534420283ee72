import Primitives
import Syntax

extension Reader {
  /// `"#RGB"`, `"#RRGGBB"`, `"#RRGGBBAA"` or a named colour, in the
  /// scene's appearance.
  func color(_ node: JSONNode, _ path: JSONPath) -> Color? {
    guard let s = string(node, path) else { return nil }
    if s.hasPrefix("#") {
      guard let c = Color(hex: s) else {
        error("invalid colour \(Excerpt.quoted(s)): write #RGB, #RRGGBB or #RRGGBBAA", node, path)
        return nil
      }
      return c
    }
    if let c = NamedColors.color(s, appearance) { return c }
    error("unknown colour \(Excerpt.quoted(s))" + Suggestions.didYouMean(s, in: NamedColors.all.keys.sorted()), node, path)
    return nil
  }

  /// A colour, or `{"linear": …}` / `{"radial": …}`, premultiplied.
  func paint(_ node: JSONNode, _ path: JSONPath) -> AnimatablePaint? {
    if node.string != nil { return color(node, path).map { .color($0.premultiplied) } }
    guard let o = object(node, path, keys: ["linear", "radial"], what: "a colour or a gradient object") else { return nil }
    if o.count != 1 {
      error("a gradient object has exactly one key, 'linear' or 'radial'", node, path)
      return nil
    }
    if let (n, p) = o["linear"] {
      guard let g = object(n, p, keys: ["from", "to", "stops"], required: ["from", "to", "stops"]),
        let from = g["from"].flatMap({ pair($0.node, $0.path) }), let to = g["to"].flatMap({ pair($0.node, $0.path) }),
        let stops = g["stops"].flatMap({ stops($0.node, $0.path) })
      else { return nil }
      return .linear(from: from, to: to, stops: stops)
    }
    if let (n, p) = o["radial"] {
      guard
        let g = object(n, p, keys: ["center", "startRadius", "endRadius", "stops"], required: ["endRadius", "stops"]),
        let stops = g["stops"].flatMap({ stops($0.node, $0.path) })
      else { return nil }
      let center = g["center"].map { pair($0.node, $0.path) } ?? Vector2(0.5, 0.5)
      let start = g["startRadius"].map { number($0.node, $0.path, .nonNegative) } ?? 0
      guard let center, let start,
        let end = g["endRadius"].flatMap({ number($0.node, $0.path, .nonNegative) })
      else { return nil }
      return .radial(center: center, startRadius: start, endRadius: end, stops: stops)
    }
    return nil
  }

  /// `[[offset, colour], …]`, offsets sorted in 0…1, colours premultiplied.
  func stops(_ node: JSONNode, _ path: JSONPath) -> [AnimatablePaint.Stop]? {
    guard let a = node.array else {
      error("expected a list of stops [[offset, colour], …], got \(node.typeName)", node, path)
      return nil
    }
    guard !a.isEmpty else {
      error("a gradient needs at least one stop", node, path)
      return nil
    }
    var out: [AnimatablePaint.Stop] = []
    var ok = true
    for (i, stop) in a.enumerated() {
      let p = path.appending(i)
      guard let pair = stop.array, pair.count == 2 else {
        error("expected a stop [offset, colour]", stop, p)
        ok = false
        continue
      }
      guard let offset = number(pair[0], p.appending(0), PropertyDomain.unit.range),
        let color = color(pair[1], p.appending(1))
      else { ok = false; continue }
      if let last = out.last, offset < last.offset {
        error("stop offsets must be sorted: \(formatNumber(offset)) comes after \(formatNumber(last.offset))", pair[0], p.appending(0))
        ok = false
      }
      out.append(AnimatablePaint.Stop(offset: offset, color: color.premultiplied))
    }
    return ok ? out : nil
  }

  /// Where a property set is written, which decides the keys it may hold
  /// and the values they take.
  enum PropertyContext {
    /// A layer: every property, in its domain.
    case layer
    /// A `set`: every property an event may change, in its domain.
    case values
    /// An event's `velocity`: units per second of the layer's own numeric
    /// properties (not a stroke's or a shadow's), in any range (an opacity
    /// may fall at −3 per second, a size shrink).
    case rates
    /// A transition modifier's state: geometry, opacity, fill, trim,
    /// corner radius and blur (strokes and shadows change through `set`).
    case transitionState

    /// The properties a set of this context may give.
    var properties: [AnyProperty] {
      switch self {
      // A text layer's text is read with its font (`TextContent`).
      case .layer: Properties.all.filter { $0.key != .text }
      case .values: Properties.all.filter { $0.interpolation != .fixed }
      case .rates: Properties.all.filter { $0.kind.isNumeric && $0.interpolation == .animated && $0.key.jsonPath.object == nil }
      case .transitionState:
        Properties.all.filter { $0.key.jsonPath.object == nil && $0.interpolation == .animated && $0.key != .color }
      }
    }

    /// The keys an object of this context may have: top-level property
    /// keys and the `stroke` and `shadow` objects.
    var keys: [String] {
      var out: [String] = []
      for p in properties {
        let key = p.key.jsonPath.object ?? p.key.jsonPath.field
        if !out.contains(key) { out.append(key) }
      }
      // A named backdrop.
      if self == .layer || self == .values { out.append("material") }
      return out
    }
  }

  /// The properties given among `o`'s members (their keys already checked
  /// against `context.keys`), read by the property registry (a `material`
  /// gives the backdrop fields the `backdrop` object does not); and whether
  /// a `stroke`, a `shadow` and a backdrop were written.
  func properties(
    _ o: [String: (node: JSONNode, path: JSONPath)], context: PropertyContext = .layer
  ) -> (values: PropertyValues, stroke: Bool, shadow: Bool, backdrop: Bool) {
    var values = PropertyValues()
    let readable = context.properties
    var objects: [String: [String: (node: JSONNode, path: JSONPath)]] = [:]
    for name in ["stroke", "shadow", "rotation3D", "backdrop"] {
      guard let (n, p) = o[name] else { continue }
      var fields = readable.filter { $0.key.jsonPath.object == name }.map(\.key.jsonPath.field)
      // A layer also gives rotation3D's fixed parts (read by the layer
      // decoder); a `set` may repeat the layer's own (checked by the
      // timeline decoder, `rotation3DParts`).
      if name == "rotation3D" && (context == .layer || context == .values) { fields += Self.rotation3DFixedKeys }
      objects[name] = object(n, p, keys: fields) ?? [:]
    }
    for property in readable {
      let (objectName, field) = property.key.jsonPath
      let member = objectName.map { objects[$0]?[field] } ?? o[field]
      guard let (n, p) = member else { continue }
      if let value = value(of: property, n, p, rate: context == .rates) { values[property.key] = value }
    }
    if let (n, p) = o["material"], let material = self.material(n, p) {
      let v = material.values(appearance)
      if values[Properties.backdropBlur] == nil { values[Properties.backdropBlur] = v.blur }
      if values[Properties.backdropSaturation] == nil { values[Properties.backdropSaturation] = v.saturation }
      if values[Properties.backdropTint] == nil { values[Properties.backdropTint] = v.tint.premultiplied }
    }
    return (values, o["stroke"] != nil, o["shadow"] != nil, o["backdrop"] != nil || o["material"] != nil)
  }

  /// A material's name: `regular`, or SwiftUI's `regularMaterial`.
  func material(_ node: JSONNode, _ path: JSONPath) -> Material? {
    let names = Material.allCases.map(\.rawValue)
    if let s = node.string, s.hasSuffix("Material"), let m = Material(rawValue: String(s.dropLast("Material".count))) { return m }
    return choice(node, path, names).flatMap(Material.init(rawValue:))
  }

  /// The keys of a layer's `rotation3D` besides `angle`: fixed, not animated.
  static let rotation3DFixedKeys = ["axis", "anchor", "anchorZ", "perspective"]

  /// The fixed parts a `set`'s `rotation3D` object writes besides its
  /// angle, each as numbers (axis [x, y, z], anchor [u, v], anchorZ,
  /// perspective) with where it is; a part of the wrong shape is reported
  /// as on a layer and left out.
  func rotation3DParts(_ node: JSONNode, _ path: JSONPath) -> [(key: String, values: [Double], node: JSONNode, path: JSONPath)] {
    var out: [(key: String, values: [Double], node: JSONNode, path: JSONPath)] = []
    for member in node.members ?? [] where Self.rotation3DFixedKeys.contains(member.key) {
      let (n, p) = (member.value, path.appending(member.key))
      let values: [Double]?
      switch member.key {
      case "axis":
        guard let a = n.array, a.count == 3 else {
          error("expected an axis [x, y, z], got \(n.array.map { "\($0.count) numbers" } ?? n.typeName)", n, p)
          continue
        }
        let parts = a.enumerated().compactMap { number($0.element, p.appending($0.offset)) }
        values = parts.count == 3 ? parts : nil
      case "anchor": values = pair(n, p).map { [$0.x, $0.y] }
      case "anchorZ": values = number(n, p).map { [$0] }
      default: values = number(n, p, .nonNegative).map { [$0] }
      }
      if let values { out.append((member.key, values, n, p)) }
    }
    return out
  }

  /// A layer's `rotation3D` object: its axis ([x, y, z], not zero), anchor
  /// (unit point, default centre), anchorZ (points, default 0) and
  /// perspective (0 or more, default 1).
  func rotation3D(_ node: JSONNode, _ path: JSONPath) -> Rotation3D? {
    guard let members = node.members else { return nil }  // reported by `properties`
    let o = Dictionary(uniqueKeysWithValues: members.map { ($0.key, (node: $0.value, path: path.appending($0.key))) })
    guard let (an, ap) = o["axis"] else {
      error("rotation3D needs an \"axis\": [x, y, z], the line it turns about (as rotation3DEffect's axis:)", node, path)
      return nil
    }
    guard let a = an.array, a.count == 3 else {
      error("expected an axis [x, y, z], got \(an.array.map { "\($0.count) numbers" } ?? an.typeName)", an, ap)
      return nil
    }
    let parts = a.enumerated().compactMap { number($0.element, ap.appending($0.offset)) }
    guard parts.count == 3 else { return nil }
    guard parts.contains(where: { $0 != 0 }) else {
      error("the rotation3D axis [0, 0, 0] is no direction: give [x, y, z] not all zero, such as [0, 1, 0] for a card flip", an, ap)
      return nil
    }
    let anchor = o["anchor"].map { pair($0.node, $0.path) } ?? Vector2(0.5, 0.5)
    let anchorZ = o["anchorZ"].map { number($0.node, $0.path) } ?? 0
    let perspective = o["perspective"].map { number($0.node, $0.path, .nonNegative) } ?? 1
    guard let anchor, let anchorZ, let perspective else { return nil }
    return Rotation3D(angle: 0, axis: (parts[0], parts[1], parts[2]), anchor: anchor, anchorZ: anchorZ, perspective: perspective)
  }

  /// One of an enumeration's cases, by its raw value.
  func choice<E: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: JSONPath, of type: E.Type) -> E? where E.RawValue == String {
    choice(node, path, E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
  }

  /// One property's value as written.
  func value(of property: AnyProperty, _ node: JSONNode, _ path: JSONPath, rate: Bool) -> PropertyValue? {
    let range = rate ? NumberRange.any : property.domain.range
    switch property.kind {
    case .number:
      return number(node, path, range).map(PropertyValue.number)
    case .point:
      if property.key.acceptsSingleNumber { return numberOrPair(node, path, range).map(PropertyValue.point) }
      guard let v = pair(node, path, range) else { return nil }
      if property.domain == .orderedUnitPair && !rate && v.x > v.y {
        error("\(property.key.name) from \(formatNumber(v.x)) is after to \(formatNumber(v.y))", node, path)
        return nil
      }
      return .point(v)
    case .paint:
      return paint(node, path).map(PropertyValue.paint)
    case .color:
      return color(node, path).map { .color($0.premultiplied) }
    case .flag:
      return bool(node, path).map(PropertyValue.flag)
    case .choice(let names):
      return choice(node, path, names).flatMap(property.value(named:))
    case .lengths:
      guard let a = node.array else {
        error("expected a list of lengths [on, off, …], got \(node.typeName)", node, path)
        return nil
      }
      let lengths = a.enumerated().compactMap { number($0.element, path.appending($0.offset), range) }
      guard lengths.count == a.count else { return nil }
      if !lengths.isEmpty && lengths.allSatisfy({ $0 == 0 }) {
        error("a dash pattern of zeros draws nothing; leave 'dash' out for a solid line", node, path)
        return nil
      }
      return .lengths(lengths)
    case .text:
      return string(node, path, limit: SceneLimits.maximumText, noun: "text").map(PropertyValue.text)
    }
  }
}
