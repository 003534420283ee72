import Primitives
import Syntax

extension Reader {
  /// The iOS system colours in light mode, as SCENE.md lists them.
  static let namedColors: [String: Color] = [
    "red": Color(hex: "#FF3B30")!, "orange": Color(hex: "#FF9500")!, "yellow": Color(hex: "#FFCC00")!,
    "green": Color(hex: "#34C759")!, "mint": Color(hex: "#00C7BE")!, "teal": Color(hex: "#30B0C7")!,
    "cyan": Color(hex: "#32ADE6")!, "blue": Color(hex: "#007AFF")!, "indigo": Color(hex: "#5856D6")!,
    "purple": Color(hex: "#AF52DE")!, "pink": Color(hex: "#FF2D55")!, "brown": Color(hex: "#A2845E")!,
    "gray": Color(hex: "#8E8E93")!, "black": .black, "white": .white, "clear": .clear,
  ]

  /// `"#RGB"`, `"#RRGGBB"`, `"#RRGGBBAA"` or a named colour.
  func color(_ node: JSONNode, _ path: JSONPath) -> Color? {
    guard let s = string(node, path) else { return nil }
    if s.hasPrefix("#") {
      guard let c = Color(hex: s) else {
        error("invalid colour '\(s)': write #RGB, #RRGGBB or #RRGGBBAA", node, path)
        return nil
      }
      return c
    }
    if let c = Self.namedColors[s] { return c }
    error("unknown colour '\(s)'" + Suggestions.didYouMean(s, in: Self.namedColors.keys.sorted()), node, path)
    return nil
  }

  /// A colour, or `{"linear": …}` / `{"radial": …}`.
  func paint(_ node: JSONNode, _ path: JSONPath) -> PaintValue? {
    if node.string != nil { return color(node, path).map(PaintValue.color) }
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
      let start = g["startRadius"].map { number($0.node, $0.path, "0 or more", { $0 >= 0 }) } ?? 0
      guard let center, let start,
        let end = g["endRadius"].flatMap({ number($0.node, $0.path, "0 or more", { $0 >= 0 }) })
      else { return nil }
      return .radial(center: center, startRadius: start, endRadius: end, stops: stops)
    }
    return nil
  }

  /// `[[offset, colour], …]`, offsets sorted in 0…1.
  func stops(_ node: JSONNode, _ path: JSONPath) -> [GradientStopValue]? {
    guard let a = node.array else {
      error("expected a list of stops [[offset, colour], …], got \(node.typeName)", node, path)
      return nil
    }
    guard !a.isEmpty else {
      error("a gradient needs at least one stop", node, path)
      return nil
    }
    var out: [GradientStopValue] = []
    var ok = true
    for (i, stop) in a.enumerated() {
      let p = path.appending(i)
      guard let pair = stop.array, pair.count == 2 else {
        error("expected a stop [offset, colour]", stop, p)
        ok = false
        continue
      }
      guard let offset = number(pair[0], p.appending(0), "between 0 and 1", { (0...1).contains($0) }),
        let color = color(pair[1], p.appending(1))
      else { ok = false; continue }
      if let last = out.last, offset < last.offset {
        error("stop offsets must be sorted: \(formatNumber(offset)) comes after \(formatNumber(last.offset))", pair[0], p.appending(0))
        ok = false
      }
      out.append(GradientStopValue(offset: offset, color: color))
    }
    return ok ? out : nil
  }

  func stroke(_ node: JSONNode, _ path: JSONPath) -> StrokeValue? {
    guard let o = object(node, path, keys: ["color", "width", "cap", "join", "miterLimit", "dash", "dashPhase"]) else { return nil }
    var s = StrokeValue()
    if let (n, p) = o["color"] { s.color = paint(n, p) }
    if let (n, p) = o["width"] { s.width = number(n, p, "0 or more", { $0 >= 0 }) }
    if let (n, p) = o["cap"] { s.cap = choice(n, p, ["butt", "round", "square"]) }
    if let (n, p) = o["join"] { s.join = choice(n, p, ["miter", "round", "bevel"]) }
    if let (n, p) = o["miterLimit"] { s.miterLimit = number(n, p, "1 or more", { $0 >= 1 }) }
    if let (n, p) = o["dashPhase"] { s.dashPhase = number(n, p) }
    if let (n, p) = o["dash"] {
      if let a = n.array {
        let values = a.enumerated().compactMap { number($0.element, p.appending($0.offset), "0 or more", { $0 >= 0 }) }
        if values.count == a.count {
          if !values.isEmpty && values.allSatisfy({ $0 == 0 }) {
            error("a dash pattern of zeros draws nothing; leave 'dash' out for a solid line", n, p)
          } else {
            s.dash = values
          }
        }
      } else {
        error("expected a list of lengths [on, off, …], got \(n.typeName)", n, p)
      }
    }
    return s
  }

  func shadow(_ node: JSONNode, _ path: JSONPath) -> ShadowValue? {
    guard let o = object(node, path, keys: ["color", "radius", "offset"]) else { return nil }
    var s = ShadowValue()
    if let (n, p) = o["color"] { s.color = color(n, p) }
    if let (n, p) = o["radius"] { s.radius = number(n, p, "0 or more", { $0 >= 0 }) }
    if let (n, p) = o["offset"] { s.offset = pair(n, p) }
    return s
  }

  /// The animatable properties (and `hidden`) present in `o`. As `rates`
  /// (an event's `velocity`, units per second) the values' ranges do not
  /// apply: an opacity may fall at −3 per second, a size shrink.
  func properties(_ o: [String: (node: JSONNode, path: JSONPath)], rates: Bool = false) -> PropertyValues {
    var v = PropertyValues()
    let anyNumber: (String?, (Double) -> Bool) = (nil, { _ in true })
    let nonNegative = rates ? anyNumber : ("0 or more", { $0 >= 0 })
    let unit = rates ? anyNumber : ("between 0 and 1", { (0...1).contains($0) })
    if let (n, p) = o["position"] { v.position = pair(n, p) }
    if let (n, p) = o["size"] { v.size = pair(n, p, nonNegative.0, nonNegative.1) }
    if let (n, p) = o["anchor"] { v.anchor = pair(n, p) }
    if let (n, p) = o["offset"] { v.offset = pair(n, p) }
    if let (n, p) = o["scale"] { v.scale = numberOrPair(n, p) }
    if let (n, p) = o["rotation"] { v.rotation = number(n, p) }
    if let (n, p) = o["opacity"] { v.opacity = number(n, p, unit.0, unit.1) }
    if let (n, p) = o["fill"] { v.fill = paint(n, p) }
    if let (n, p) = o["stroke"] { v.stroke = stroke(n, p) }
    if let (n, p) = o["trim"] {
      if let t = pair(n, p, unit.0, unit.1) {
        if t.x > t.y && !rates { error("trim from \(formatNumber(t.x)) is after to \(formatNumber(t.y))", n, p) } else { v.trim = t }
      }
    }
    if let (n, p) = o["cornerRadius"] { v.cornerRadius = number(n, p, nonNegative.0, nonNegative.1) }
    if let (n, p) = o["shadow"] { v.shadow = shadow(n, p) }
    if let (n, p) = o["blur"] { v.blur = number(n, p, nonNegative.0, nonNegative.1) }
    if let (n, p) = o["color"] { v.color = paint(n, p) }
    if let (n, p) = o["hidden"] { v.hidden = bool(n, p) }
    return v
  }

  static let animatableKeys = [
    "position", "size", "anchor", "offset", "scale", "rotation", "opacity", "fill", "stroke", "trim", "cornerRadius",
    "shadow", "blur",
  ]
}
