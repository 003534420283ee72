import Primitives
import SceneModel
import Syntax

/// Bodymovin JSON read into a `LottieAnimation`, every structural problem
/// located in the file (`anim.json:L:C: error: layers[3].ks.p.k[2].s: …`).
public struct LottieDecoder {
  /// Frame size limit, per side (docs/cli.md, "Lottie input").
  public static let maximumSide = 16384
  /// Frame rate limit.
  public static let maximumFrameRate = 1000.0
  /// The largest file read, in bytes.
  public static let maximumBytes = 64 << 20
  /// Layers (over all compositions) a file may hold.
  public static let maximumLayers = 10_000

  let file: String
  var errors: [SceneDiagnostic] = []
  var skipped: [(kind: String, location: SourceLocation, path: JSONPath)] = []
  var oldColors = false
  var layerCount = 0

  /// Whether `root` is a Lottie animation: an object with `layers` and `fr`.
  public static func isLottie(_ root: JSONNode) -> Bool { root["layers"] != nil && root["fr"] != nil }

  /// Decodes `bytes` (already known to be Lottie, or reported as JSON
  /// errors) as the animation in `file`.
  public static func decode(_ bytes: [UInt8], file: String) throws(SceneErrors) -> LottieAnimation {
    if bytes.count > maximumBytes {
      throw SceneErrors(diagnostics: [
        SceneDiagnostic(
          file: file, location: SourceLocation(line: 1, column: 1, offset: 0), path: .root, message: "the file is over \(maximumBytes >> 20) MiB")
      ])
    }
    let root: JSONNode
    do { root = try JSONParser.parse(bytes) } catch {
      throw SceneErrors(diagnostics: [
        SceneDiagnostic(file: file, location: error.location, path: .root, message: "invalid JSON: \(error.message)")
      ])
    }
    return try decode(root, file: file)
  }

  public static func decode(_ root: JSONNode, file: String) throws(SceneErrors) -> LottieAnimation {
    var d = LottieDecoder(file: file)
    let animation = d.animation(root)
    if !d.errors.isEmpty { throw SceneErrors(diagnostics: d.errors) }
    return animation!
  }

  /// A code or an index as an Int: nil for what is not a number within
  /// ±2³¹ (never a trap on 1e300 or NaN).
  static func whole(_ x: Double?) -> Int? {
    guard let x, x.isFinite, abs(x) < 2_147_483_648 else { return nil }
    return Int(x.rounded(.towardZero))
  }

  mutating func error(_ node: JSONNode, _ path: JSONPath, _ message: String) {
    errors.append(SceneDiagnostic(file: file, location: node.location, path: path, message: message))
  }

  mutating func skip(_ kind: String, _ node: JSONNode, _ path: JSONPath) {
    if !skipped.contains(where: { $0.kind == kind }) { skipped.append((kind, node.location, path)) }
  }

  mutating func number(_ node: JSONNode, _ key: String, _ path: JSONPath, required: Bool = false) -> Double? {
    guard let v = node[key] else {
      if required { error(node, path, "missing required key '\(key)'") }
      return nil
    }
    guard let n = v.number ?? v.bool.map({ $0 ? 1 : 0 }) else {
      error(v, path.appending(key), "expected a number, got \(v.typeName)")
      return nil
    }
    return n
  }

  mutating func animation(_ root: JSONNode) -> LottieAnimation? {
    guard root.members != nil else {
      error(root, .root, "expected an object, got \(root.typeName)")
      return nil
    }
    let version = root["v"]?.string ?? "5.0.0"
    oldColors = Self.isBefore(version, [4, 1, 9])
    let w = number(root, "w", .root, required: true), h = number(root, "h", .root, required: true)
    let fr = number(root, "fr", .root, required: true)
    let ip = number(root, "ip", .root, required: true), op = number(root, "op", .root, required: true)
    for (key, value) in [("w", w), ("h", h)] {
      if let value, !(value >= 1 && value <= Double(Self.maximumSide) && value == value.rounded()) {
        error(root[key]!, JSONPath.root.appending(key), "\(key) must be a whole number of pixels from 1 to \(Self.maximumSide), got \(value)")
      }
    }
    if let fr, !(fr > 0 && fr <= Self.maximumFrameRate) {
      error(root["fr"]!, JSONPath.root.appending("fr"), "the frame rate must be above 0 and at most \(Int(Self.maximumFrameRate)), got \(fr)")
    }
    if let ip, let op, !(op > ip) || !ip.isFinite || !op.isFinite {
      error(root["op"]!, JSONPath.root.appending("op"), "the out point (\(op)) must come after the in point (\(ip))")
    }
    var precomps: [String: [LottieLayer]] = [:]
    var images: [String: LottieImageAsset] = [:]
    if let assets = root["assets"]?.array {
      for (i, asset) in assets.enumerated() {
        let path = JSONPath.root.appending("assets").appending(i)
        guard let id = asset["id"]?.string else { continue }
        if let layers = asset["layers"] {
          precomps[id] = self.layers(layers, path.appending("layers"))
        } else if let p = asset["p"]?.string {
          // An image: a data URI (`e` 1, or any `p` that is one), or a
          // file in the folder `u` beside the animation.
          let embedded = asset["e"]?.number == 1 || p.hasPrefix("data:")
          images[id] = LottieImageAsset(
            id: id, width: number(asset, "w", path) ?? 0, height: number(asset, "h", path) ?? 0,
            file: embedded ? nil : (asset["u"]?.string ?? "") + p, dataURI: embedded ? p : nil, location: (asset["p"] ?? asset).location,
            path: path.appending("p"))
        }
      }
    }
    guard let layersNode = root["layers"] else {
      error(root, .root, "missing required key 'layers'")
      return nil
    }
    let layers = self.layers(layersNode, JSONPath.root.appending("layers"))
    checkReferences(layers, path: JSONPath.root.appending("layers"), node: layersNode, precomps: precomps, images: images, root: root)
    guard errors.isEmpty, let w, let h, let fr, let ip, let op else { return nil }
    return LottieAnimation(
      width: Int(w), height: Int(h), frameRate: fr, inPoint: ip, outPoint: op, layers: layers, precomps: precomps, images: images,
      name: root["nm"]?.string, oldColors: oldColors, skipped: skipped)
  }

  /// Parents exist in their composition; precompositions exist and never
  /// contain themselves.
  mutating func checkReferences(
    _ layers: [LottieLayer], path: JSONPath, node: JSONNode, precomps: [String: [LottieLayer]], images: [String: LottieImageAsset], root: JSONNode
  ) {
    var visiting: [String] = []
    // Precompositions already known not to contain themselves: each is
    // walked once, however many layers refer to it.
    var acyclic: Set<String> = []
    func cycle(_ id: String, _ precomps: [String: [LottieLayer]]) -> Bool {
      if acyclic.contains(id) { return false }
      if visiting.contains(id) { return true }
      // Deeper than any player draws: reported as a loop would be.
      if visiting.count > LottiePainter.maximumNesting { return true }
      visiting.append(id)
      defer { visiting.removeLast() }
      for layer in precomps[id] ?? [] where layer.type == 0 {
        if let ref = layer.reference, cycle(ref, precomps) { return true }
      }
      acyclic.insert(id)
      return false
    }
    func check(_ layers: [LottieLayer], _ nodes: [JSONNode], _ path: JSONPath) {
      let indices = Set(layers.compactMap(\.index))
      for (i, layer) in layers.enumerated() where i < nodes.count {
        if let parent = layer.parent, !indices.contains(parent) {
          error(nodes[i]["parent"] ?? nodes[i], path.appending(i).appending("parent"), "no layer of this composition has ind \(parent)")
        }
        if let parent = layer.parent, parent == layer.index {
          error(nodes[i]["parent"] ?? nodes[i], path.appending(i).appending("parent"), "a layer cannot be its own parent")
        }
        if layer.type == 2, images[layer.reference ?? ""] == nil {
          error(nodes[i]["refId"] ?? nodes[i], path.appending(i).appending("refId"), "no image asset has id '\(layer.reference ?? "")'")
        }
        if layer.type == 0 {
          guard let ref = layer.reference, precomps[ref] != nil else {
            error(nodes[i]["refId"] ?? nodes[i], path.appending(i).appending("refId"), "no asset has id '\(layer.reference ?? "")'")
            continue
          }
          if cycle(ref, precomps) {
            error(
              nodes[i]["refId"] ?? nodes[i], path.appending(i).appending("refId"),
              "the precomposition '\(ref)' contains itself, or nests more than \(LottiePainter.maximumNesting) deep")
          }
        }
      }
      // Parent chains that loop.
      let byIndex = Dictionary(layers.compactMap { l in l.index.map { ($0, l) } }, uniquingKeysWith: { a, _ in a })
      for (i, layer) in layers.enumerated() where i < nodes.count {
        var seen: Set<Int> = []
        var current = layer
        while let p = current.parent, let next = byIndex[p] {
          if !seen.insert(p).inserted {
            error(nodes[i]["parent"] ?? nodes[i], path.appending(i).appending("parent"), "the chain of parents loops back")
            break
          }
          current = next
        }
      }
    }
    check(layers, node.array ?? [], path)
    if let assets = root["assets"]?.array {
      for (i, asset) in assets.enumerated() {
        guard let id = asset["id"]?.string, let nodes = asset["layers"]?.array, let layers = precomps[id] else { continue }
        check(layers, nodes, JSONPath.root.appending("assets").appending(i).appending("layers"))
      }
    }
  }

  mutating func layers(_ node: JSONNode, _ path: JSONPath) -> [LottieLayer] {
    guard let items = node.array else {
      error(node, path, "expected an array of layers, got \(node.typeName)")
      return []
    }
    var out: [LottieLayer] = []
    for (i, item) in items.enumerated() {
      layerCount += 1
      if layerCount > Self.maximumLayers {
        error(item, path.appending(i), "more than \(Self.maximumLayers) layers")
        return out
      }
      if let layer = layer(item, path.appending(i)) { out.append(layer) }
    }
    return out
  }

  mutating func layer(_ node: JSONNode, _ path: JSONPath) -> LottieLayer? {
    guard node.members != nil else {
      error(node, path, "expected a layer object, got \(node.typeName)")
      return nil
    }
    let type = Self.whole(number(node, "ty", path, required: true)) ?? (node["ty"] == nil ? 3 : -1)
    let ip = number(node, "ip", path, required: true) ?? 0, op = number(node, "op", path, required: true) ?? 0
    let st = number(node, "st", path) ?? 0
    let sr = number(node, "sr", path) ?? 1
    if node["ddd"]?.number == 1 { skip("3D layers", node["ddd"]!, path.appending("ddd")) }
    if let bm = node["bm"]?.number, bm != 0 { skip("blend modes", node["bm"]!, path.appending("bm")) }
    if let ef = node["ef"]?.array, !ef.isEmpty { skip("effects", node["ef"]!, path.appending("ef")) }
    switch type {
    case 0, 1, 2, 3, 4: break
    case 5: skip("text layers", node, path)
    default: skip("layers of type \(type)", node, path)
    }
    var transform = LottieTransform()
    if let ks = node["ks"] { transform = self.transform(ks, path.appending("ks")) }
    var shapes: [LottieShape] = []
    if type == 4, let items = node["shapes"] { shapes = self.shapes(items, path.appending("shapes")) }
    var masks: [LottieMask] = []
    if let list = node["masksProperties"]?.array {
      for (i, m) in list.enumerated() {
        let mp = path.appending("masksProperties").appending(i)
        guard let pt = m["pt"], let prop = property(pt, mp.appending("pt")) else {
          error(m, mp, "a mask needs a path 'pt'")
          continue
        }
        let mode = m["mode"]?.string ?? "a"
        if !["a", "s", "i", "n"].contains(mode) { skip("mask modes other than add, subtract and intersect", m, mp) }
        masks.append(
          LottieMask(
            path: prop, mode: mode, inverted: m["inv"]?.bool ?? false, opacity: m["o"].flatMap { property($0, mp.appending("o")) },
            expansion: m["x"].flatMap { property($0, mp.appending("x")) }))
      }
    }
    var solidColor: [Double]?
    if type == 1, let sc = node["sc"]?.string { solidColor = Self.hexColor(sc) }
    return LottieLayer(
      type: type, index: Self.whole(node["ind"]?.number), parent: Self.whole(node["parent"]?.number), name: node["nm"]?.string,
      inPoint: ip, outPoint: op, startTime: st, stretch: sr == 0 ? 1 : sr, transform: transform, shapes: shapes,
      reference: node["refId"]?.string, solidColor: solidColor,
      solidSize: type == 0
        ? (number(node, "w", path) ?? 0, number(node, "h", path) ?? 0) : (number(node, "sw", path) ?? 0, number(node, "sh", path) ?? 0),
      hidden: node["hd"]?.bool ?? false, timeRemap: node["tm"].flatMap { property($0, path.appending("tm")) }, masks: masks,
      matteMode: Self.whole(node["tt"]?.number), matteParent: Self.whole(node["tp"]?.number),
      isMatte: node["td"]?.number.map { $0 != 0 } ?? false)
  }

  mutating func transform(_ node: JSONNode, _ path: JSONPath) -> LottieTransform {
    var t = LottieTransform()
    t.anchor = node["a"].flatMap { property($0, path.appending("a")) }
    if let p = node["p"] {
      if p["s"]?.bool == true || p["s"]?.number == 1, p["x"] != nil {
        t.positionX = p["x"].flatMap { property($0, path.appending("p").appending("x")) }
        t.positionY = p["y"].flatMap { property($0, path.appending("p").appending("y")) }
      } else {
        t.position = property(p, path.appending("p"), spatial: true)
      }
    }
    t.scale = node["s"].flatMap { property($0, path.appending("s")) }
    t.rotation = (node["r"] ?? node["rz"]).flatMap { property($0, path.appending("r")) }
    t.opacity = node["o"].flatMap { property($0, path.appending("o")) }
    t.skew = node["sk"].flatMap { property($0, path.appending("sk")) }
    t.skewAxis = node["sa"].flatMap { property($0, path.appending("sa")) }
    return t
  }

  mutating func shapes(_ node: JSONNode, _ path: JSONPath) -> [LottieShape] {
    guard let items = node.array else {
      error(node, path, "expected an array of shapes, got \(node.typeName)")
      return []
    }
    return items.enumerated().map { shape($1, path.appending($0)) }
  }

  mutating func shape(_ node: JSONNode, _ path: JSONPath) -> LottieShape {
    guard let ty = node["ty"]?.string else {
      error(node, path, "a shape needs a type 'ty'")
      return .skipped
    }
    let hidden = node["hd"]?.bool ?? false
    let reversed = node["d"]?.number == 3
    func prop(_ key: String) -> LottieProperty? { node[key].flatMap { property($0, path.appending(key), spatial: key == "p") } }
    if hidden, ty != "gr" { return .skipped }
    switch ty {
    case "gr": return .group(node["it"].map { shapes($0, path.appending("it")) } ?? [], hidden: hidden)
    case "rc":
      guard let p = prop("p"), let s = prop("s") else { return missing(node, path, "a rectangle needs 'p' and 's'") }
      return .rect(position: p, size: s, roundness: prop("r"), reversed: reversed)
    case "el":
      guard let p = prop("p"), let s = prop("s") else { return missing(node, path, "an ellipse needs 'p' and 's'") }
      return .ellipse(position: p, size: s, reversed: reversed)
    case "sh":
      guard let ks = prop("ks") else { return missing(node, path, "a path needs 'ks'") }
      return .path(ks, reversed: reversed)
    case "sr":
      return .polystar(
        LottiePolystar(
          star: node["sy"]?.number != 2, position: prop("p"), points: prop("pt"), rotation: prop("r"), outerRadius: prop("or"),
          innerRadius: prop("ir"), outerRoundness: prop("os"), innerRoundness: prop("is"), reversed: reversed))
    case "fl":
      guard let c = prop("c") else { return missing(node, path, "a fill needs a colour 'c'") }
      return .fill(color: c, opacity: prop("o"), evenOdd: node["r"]?.number == 2)
    case "st", "gs":
      var dashes: [LottieProperty] = []
      var offset: LottieProperty?
      for (i, dash) in (node["d"]?.array ?? []).enumerated() {
        guard let v = dash["v"].flatMap({ property($0, path.appending("d").appending(i).appending("v")) }) else { continue }
        if dash["n"]?.string == "o" { offset = v } else { dashes.append(v) }
      }
      let cap: LineCap = [1: .butt, 2: .round, 3: .square][Self.whole(node["lc"]?.number) ?? 2] ?? .round
      let join: LineJoin = [1: .miter, 2: .round, 3: .bevel][Self.whole(node["lj"]?.number) ?? 2] ?? .round
      return .stroke(
        LottieStroke(
          color: prop("c"), gradient: ty == "gs" ? gradient(node, path) : nil, opacity: prop("o"), width: prop("w"), cap: cap, join: join,
          miterLimit: node["ml"]?.number ?? 4, dashes: dashes, offset: offset))
    case "gf": return .gradientFill(gradient(node, path), evenOdd: node["r"]?.number == 2)
    case "tm": return .trim(start: prop("s"), end: prop("e"), offset: prop("o"), individually: node["m"]?.number == 2)
    case "tr": return .transform(transform(node, path))
    case "mm":
      skip("merge paths", node, path)
      return .skipped
    case "rp":
      let tr = node["tr"]
      func trProp(_ key: String) -> LottieProperty? { tr?[key].flatMap { property($0, path.appending("tr").appending(key)) } }
      return .repeater(
        LottieRepeater(
          copies: prop("c"), offset: prop("o"), composite: Self.whole(node["m"]?.number) ?? 1,
          transform: tr.map { transform($0, path.appending("tr")) } ?? LottieTransform(), startOpacity: trProp("so"),
          endOpacity: trProp("eo")))
    case "rd":
      return .roundCorners(radius: prop("r"))
    default:
      skip("shapes of type '\(ty)'", node, path)
      return .skipped
    }
  }

  mutating func missing(_ node: JSONNode, _ path: JSONPath, _ message: String) -> LottieShape {
    error(node, path, message)
    return .skipped
  }

  mutating func gradient(_ node: JSONNode, _ path: JSONPath) -> LottieGradient {
    let g = node["g"]
    return LottieGradient(
      radial: node["t"]?.number == 2, start: node["s"].flatMap { property($0, path.appending("s")) },
      end: node["e"].flatMap { property($0, path.appending("e")) }, count: Self.whole(g?["p"]?.number) ?? 0,
      stops: g?["k"].flatMap { property($0, path.appending("g").appending("k")) }, highlight: node["h"].flatMap { property($0, path.appending("h")) },
      angle: node["a"].flatMap { property($0, path.appending("a")) }, opacity: node["o"].flatMap { property($0, path.appending("o")) })
  }

  /// A property object `{"a": 0|1, "k": …}` (or a bare value). Only a
  /// position (`spatial`) moves along its keyframes' tangents `to`, `ti`;
  /// other points (a gradient's ends) move straight, as the players do.
  mutating func property(_ node: JSONNode, _ path: JSONPath, spatial: Bool = false) -> LottieProperty? {
    if node["x"]?.string != nil { skip("expressions", node["x"]!, path.appending("x")) }
    guard let k = node["k"] else {
      if let v = value(node, path, quiet: true) { return .constant(v) }
      error(node, path, "a property needs a value 'k'")
      return nil
    }
    let animated = node["a"]?.number == 1 || (node["a"] == nil && Self.looksKeyframed(k))
    guard animated else {
      guard let v = value(k, path.appending("k")) else { return nil }
      return .constant(v)
    }
    guard let keys = k.array else {
      error(k, path.appending("k"), "expected an array of keyframes, got \(k.typeName)")
      return nil
    }
    var out: [LottieKeyframe] = []
    for (i, key) in keys.enumerated() {
      let kp = path.appending("k").appending(i)
      guard key.members != nil else {
        error(key, kp, "expected a keyframe object, got \(key.typeName)")
        continue
      }
      guard let t = key["t"]?.number else {
        error(key, kp, "a keyframe needs its frame 't'")
        continue
      }
      let start = key["s"].flatMap { value($0, kp.appending("s")) }
      let end = key["e"].flatMap { value($0, kp.appending("e")) }
      // Old exports end with a keyframe that has only its frame.
      if start == nil, i < keys.count - 1 {
        error(key, kp, "a keyframe needs its value 's'")
        continue
      }
      func ease(_ e: JSONNode?) -> [Point] {
        guard let e, let x = e["x"], let y = e["y"] else { return [] }
        let xs = x.array?.compactMap(\.number) ?? x.number.map { [$0] } ?? []
        let ys = y.array?.compactMap(\.number) ?? y.number.map { [$0] } ?? []
        return zip(xs, ys).map { Point($0, $1) }
      }
      if let previous = out.last, t < previous.time { error(key["t"]!, kp.appending("t"), "keyframes must be in time order") }
      out.append(
        LottieKeyframe(
          time: t, start: start, end: end, easeOut: ease(key["o"]), easeIn: ease(key["i"]), hold: key["h"]?.number == 1,
          tangentOut: spatial ? key["to"]?.array?.compactMap(\.number) : nil, tangentIn: spatial ? key["ti"]?.array?.compactMap(\.number) : nil))
    }
    guard !out.isEmpty else {
      error(k, path.appending("k"), "an animated property needs at least one keyframe")
      return nil
    }
    return .animated(out)
  }

  static func looksKeyframed(_ k: JSONNode) -> Bool {
    guard let first = k.array?.first else { return false }
    return first["t"] != nil && first.members != nil
  }

  /// A value: a number, an array of numbers, or a shape (or an array of one).
  mutating func value(_ node: JSONNode, _ path: JSONPath, quiet: Bool = false) -> LottieValue? {
    if let n = node.number { return .numbers([n]) }
    if let items = node.array {
      if let first = items.first, first.members != nil { return value(first, path.appending(0), quiet: quiet) }
      var numbers: [Double] = []
      for (i, item) in items.enumerated() {
        guard let n = item.number else {
          if !quiet { error(item, path.appending(i), "expected a number, got \(item.typeName)") }
          return nil
        }
        numbers.append(n)
      }
      return .numbers(numbers)
    }
    if node["v"] != nil {
      func points(_ key: String) -> [Point]? {
        node[key]?.array?.map { p in Point(p.array?.first?.number ?? 0, (p.array?.count ?? 0) > 1 ? p.array![1].number ?? 0 : 0) }
      }
      guard let v = points("v") else {
        if !quiet { error(node, path, "a shape needs its vertices 'v'") }
        return nil
      }
      let zero = [Point](repeating: Point(0, 0), count: v.count)
      var i = points("i") ?? zero, o = points("o") ?? zero
      if i.count != v.count { i = zero }
      if o.count != v.count { o = zero }
      return .shape(LottieBezier(vertices: v, inTangents: i, outTangents: o, closed: node["c"]?.bool ?? false))
    }
    if !quiet { error(node, path, "expected a number, an array or a shape, got \(node.typeName)") }
    return nil
  }

  /// Whether version `v` ("4.1.8") is before `limit`.
  static func isBefore(_ v: String, _ limit: [Int]) -> Bool {
    let parts = v.split(separator: ".").map { Int($0) ?? 0 }
    for (a, b) in zip(parts + [0, 0, 0], limit) where a != b { return a < b }
    return false
  }

  static func hexColor(_ text: String) -> [Double]? {
    var hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
    if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
    guard hex.count == 6, let v = Int(hex, radix: 16) else { return nil }
    return [Double((v >> 16) & 255) / 255, Double((v >> 8) & 255) / 255, Double(v & 255) / 255, 1]
  }
}
