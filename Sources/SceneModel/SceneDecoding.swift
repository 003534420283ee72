import Primitives
import Syntax
import Timing

/// State while decoding one scene: the reader and the layer ids seen.
final class SceneDecoding {
  let reader: Reader
  /// Every layer id, where it was declared.
  var ids: [String: SourceLocation] = [:]
  /// Containers by id (for `insert.into`).
  var containers: Set<String> = []
  /// Layers that give a `rotation3D` (an axis): events may turn them.
  var turned: Set<String> = []
  /// Their rotation3D's fixed parts (axis, anchor, anchorZ, perspective) by id.
  var turns: [String: Rotation3D] = [:]
  /// The fixed parts of rotation3D that `set`s write: (layer id, part,
  /// its numbers, where, path), checked against the layer's once every
  /// layer is known.
  var pendingTurnParts: [(id: String, key: String, values: [Double], location: SourceLocation, path: JSONPath)] = []
  /// `rotation3D.angle` set by events: (layer id, where, path), checked
  /// once every layer is known.
  var pendingTurns: [(id: String, location: SourceLocation, path: JSONPath)] = []
  /// Text layers by id, and the events that change a layer's text.
  var textLayers: Set<String> = []
  var pendingTexts: [(id: String, location: SourceLocation, path: JSONPath)] = []
  /// Where events move a layer's `position` (`set`, `drag`): a stack's
  /// child has none of its own, checked against the layer tree.
  var pendingPositions: [(id: String, location: SourceLocation, path: JSONPath, remedy: String)] = []
  var layerCount = 0
  /// Ids that events name, checked once every layer (inserted ones too) is known.
  var pendingReferences: [(String, SourceLocation, JSONPath)] = []
  var pendingContainers: [(String, SourceLocation, JSONPath)] = []

  init(reader: Reader) { self.reader = reader }

  static let fileKeys = [
    "$schema", "version", "name", "size", "scale", "appearance", "background", "duration", "assets", "fonts", "layers", "timeline",
  ]

  /// The scene's `name`: one file-name component (outputs are NAME.EXT and
  /// NAME_00000.png in the output folder, never anywhere else).
  static func name(_ node: JSONNode, _ path: JSONPath, _ reader: Reader) -> String? {
    guard let name = reader.string(node, path) else { return nil }
    if let problem = SceneDecoder.fileNameProblem(name) {
      reader.error("the name \(Excerpt.quoted(name)) \(problem): a name is one file-name component, used for the outputs' names", node, path)
      return nil
    }
    return name
  }

  func scene(_ root: JSONNode, defaultName: String, appearance override: Appearance?) -> Scene? {
    guard let o = reader.object(root, .root, keys: Self.fileKeys, required: ["version", "size", "layers"], what: "a scene object") else {
      return nil
    }
    // First: every named colour depends on it.
    let written = o["appearance"].flatMap { reader.choice($0.node, $0.path, of: Appearance.self) }
    reader.appearance = override ?? written ?? .light
    if let (n, p) = o["version"], let v = reader.number(n, p), v != 1 {
      reader.error("unsupported version \(formatNumber(v)): this renderer reads version 1", n, p)
    }
    let name = o["name"].flatMap { Self.name($0.node, $0.path, reader) } ?? defaultName
    let size = o["size"].flatMap { reader.pair($0.node, $0.path, .positive) }
    let scale = o["scale"].map { reader.number($0.node, $0.path, .positive) } ?? 1
    if let size, let scale, let (n, p) = o["size"] {
      let (w, h) = (size.x * scale, size.y * scale)
      if w > Double(SceneLimits.maximumSide) || h > Double(SceneLimits.maximumSide) || w * h > Double(SceneLimits.maximumPixels) {
        reader.error(
          "the canvas is \(formatNumber(w.rounded(.up)))×\(formatNumber(h.rounded(.up))) pixels at scale \(formatNumber(scale)), more than the limit of \(SceneLimits.maximumSide) pixels a side and \(SceneLimits.maximumPixels) pixels",
          n, p)
      }
    }
    var background: Color? = NamedColors.color("systemBackground", reader.appearance)
    if let (n, p) = o["background"] {
      background = n.string == "transparent" ? nil : reader.color(n, p)
    }
    // `$schema` names the JSON Schema for editors; it must be a string.
    if let (n, p) = o["$schema"] { _ = reader.string(n, p) }
    let duration = o["duration"].flatMap { reader.number($0.node, $0.path, .positive) }
    let assets = o["assets"].map { self.assets($0.node, $0.path) } ?? [:]
    let fonts = o["fonts"].map { self.fonts($0.node, $0.path) } ?? [:]
    var layers: [Layer] = []
    if let (n, p) = o["layers"] {
      if let a = n.array {
        layers = a.enumerated().compactMap { layer($0.element, p.appending($0.offset), depth: 1, assets: assets) }
      } else {
        reader.error("expected a list of layers, got \(n.typeName)", n, p)
      }
    }
    var events: [Event] = []
    if let (n, p) = o["timeline"] {
      if let a = n.array {
        if a.count > SceneLimits.maximumEvents {
          reader.error("\(a.count) events, more than the limit of \(SceneLimits.maximumEvents)", n, p)
        } else {
          // Inserted layers declare ids that later events may use: read inserts first.
          events = a.enumerated().compactMap { event($0.element, p.appending($0.offset), index: $0.offset, assets: assets) }
          checkReferences(events, nodes: a, path: p)
        }
      } else {
        reader.error("expected a list of events, got \(n.typeName)", n, p)
      }
    }
    guard let size, let scale else { return nil }
    // Stable: events at the same time keep the order written.
    events.sort { ($0.at, $0.index) < ($1.at, $1.index) }
    let scene = Scene(
      name: name, size: size, scale: scale, background: background, appearance: reader.appearance, duration: duration, assets: assets,
      fonts: fonts, layers: layers, timeline: events)
    // Replaying the insertions and removals finds the ones that name a layer
    // absent at that moment.
    let structure = SceneStructure(scene: scene)
    for problem in structure.problems { reader.error(problem.message, at: problem.location, path: problem.path) }
    // A stack places its children, inserted ones too: moving one would do nothing.
    for moved in pendingPositions where structure.isStacked(moved.id) {
      reader.error(
        "\(Excerpt.quoted(moved.id)) is a stack's child, and the stack decides its position; \(moved.remedy)", at: moved.location,
        path: moved.path)
    }
    return scene
  }

  func assets(_ node: JSONNode, _ path: JSONPath) -> [String: Asset] {
    var out: [String: Asset] = [:]
    for (m, p) in reader.dictionary(node, path, of: "name → file") ?? [] {
      if let file = m.value.string {
        out[m.key] = Asset(file: file, scale: Self.scale(ofFile: file), location: m.value.location, path: p)
      } else if let o = reader.object(m.value, p, keys: ["file", "scale"], required: ["file"], what: "a file path or {\"file\", \"scale\"}"),
        let file = o["file"].flatMap({ reader.string($0.node, $0.path) })
      {
        let scale = o["scale"].map { reader.number($0.node, $0.path, .positive) } ?? Self.scale(ofFile: file)
        if let scale { out[m.key] = Asset(file: file, scale: scale, location: m.value.location, path: p) }
      }
    }
    return out
  }

  /// 2 or 3 for `name@2x.png` / `name@3x.png`, as on iOS; else 1.
  static func scale(ofFile file: String) -> Double {
    let base = file.split(separator: "/").last.map(String.init) ?? file
    let stem = base.split(separator: ".").first.map(String.init) ?? base
    if stem.hasSuffix("@3x") { return 3 }
    if stem.hasSuffix("@2x") { return 2 }
    return 1
  }

  func fonts(_ node: JSONNode, _ path: JSONPath) -> [String: FontFile] {
    var out: [String: FontFile] = [:]
    for (m, p) in reader.dictionary(node, path, of: "family → font file") ?? [] {
      if let f = reader.string(m.value, p) { out[m.key] = FontFile(file: f, location: m.value.location, path: p) }
    }
    return out
  }

  // MARK: Layers

  /// The keys every layer may have: its id, its type and its properties.
  static let commonKeys = ["id", "type"] + Reader.PropertyContext.layer.keys.filter { $0 != "color" }
  static func keys(for type: LayerType) -> [String] {
    var keys = commonKeys
    switch type {
    case .path: keys += ["d", "fillRule"]
    case .text: keys += ["text", "font", "color", "align", "width", "lineLimit", "lineSpacing", "contentTransition"]
    case .image: keys += ["asset", "contentMode"]
    case .vstack, .hstack: keys += ["spacing", "alignment", "padding", "children"]
    case .zstack: keys += ["alignment", "padding", "children"]
    case .group: keys += ["children"]
    case .rect, .circle, .ellipse, .capsule: break
    }
    return keys
  }

  /// What to say of a key other layer types take and `type` does not.
  static func explainedKeys(for type: LayerType) -> [String: String] {
    guard !keys(for: type).contains("children") else { return [:] }
    let containers = LayerType.allCases.filter { keys(for: $0).contains("children") }.map(\.rawValue).joined(separator: ", ")
    return ["children": "a layer of type '\(type.rawValue)' holds no children: only groups and stacks (\(containers)) do"]
  }

  /// The alignments a stack of `type` takes, by name.
  static func alignments(for type: LayerType) -> [String: Alignment] {
    switch type {
    case .vstack: Dictionary(uniqueKeysWithValues: HorizontalAlignment.allCases.map { ($0.rawValue, Alignment(horizontal: $0, vertical: .center)) })
    case .hstack: Dictionary(uniqueKeysWithValues: VerticalAlignment.allCases.map { ($0.rawValue, Alignment(horizontal: .center, vertical: $0)) })
    default: Dictionary(uniqueKeysWithValues: Alignment.allNamed.map { ($0.name, $0) })
    }
  }

  func layer(_ node: JSONNode, _ path: JSONPath, depth: Int, assets: [String: Asset]) -> Layer? {
    layerCount += 1
    if layerCount == SceneLimits.maximumLayers + 1 {
      reader.error("more than the limit of \(SceneLimits.maximumLayers) layers", node, path)
    }
    guard depth <= SceneLimits.maximumDepth else {
      reader.error("layers nested deeper than the limit of \(SceneLimits.maximumDepth)", node, path)
      return nil
    }
    guard node.members != nil else {
      reader.error("expected a layer object, got \(node.typeName)", node, path)
      return nil
    }
    guard let typeNode = node["type"] else {
      reader.error("missing required key 'type' (one of \(LayerType.allCases.map(\.rawValue).joined(separator: ", ")))", node, path)
      return nil
    }
    guard let typeName = reader.choice(typeNode, path.appending("type"), LayerType.allCases.map(\.rawValue)),
      let type = LayerType(rawValue: typeName)
    else { return nil }
    guard let o = reader.object(node, path, keys: Self.keys(for: type), explained: Self.explainedKeys(for: type)) else { return nil }
    var id: String?
    if let (n, p) = o["id"], let s = reader.string(n, p) {
      if !Self.isValidID(s) {
        reader.error("invalid id \(Excerpt.quoted(s)): ids match [A-Za-z_][A-Za-z0-9_-]*", n, p)
      } else if let first = ids[s] {
        reader.error("duplicate id \(Excerpt.quoted(s)) (first declared at line \(first.line))", n, p)
      } else {
        ids[s] = n.location
        if type.isContainer { containers.insert(s) }
        if type == .text { textLayers.insert(s) }
        id = s
      }
    }
    var layer = Layer(id: id, type: type, location: node.location)
    (layer.properties, layer.hasStroke, layer.hasShadow, layer.hasBackdrop) = reader.properties(o)
    // Text is SwiftUI's `.primary` unless coloured: `label` in the appearance.
    if type == .text, layer.properties[Properties.color] == nil, let label = NamedColors.color("label", reader.appearance) {
      layer.properties[Properties.color] = .color(label.premultiplied)
    }
    if let (n, p) = o["rotation3D"] {
      layer.rotation3D = reader.rotation3D(n, p)
      if let id, let turn = layer.rotation3D {
        turned.insert(id)
        turns[id] = turn
      }
    }
    switch type {
    case .path: layer.path = pathContent(o, node, path)
    case .text: layer.text = textContent(o, node, path)
    case .image: layer.image = imageContent(o, node, path, assets: assets)
    case .vstack, .hstack, .zstack: layer.stack = stackContent(o, type: type)
    default: break
    }
    if let (n, p) = o["children"] {
      if let a = n.array {
        layer.children = a.enumerated().compactMap { self.layer($0.element, p.appending($0.offset), depth: depth + 1, assets: assets) }
      } else {
        reader.error("expected a list of layers, got \(n.typeName)", n, p)
      }
    }
    return layer
  }

  typealias Members = [String: (node: JSONNode, path: JSONPath)]

  /// A `path` layer's `d` and `fillRule`.
  func pathContent(_ o: Members, _ node: JSONNode, _ path: JSONPath) -> PathContent? {
    let fillRule = o["fillRule"].flatMap { reader.choice($0.node, $0.path, of: FillRule.self) } ?? .nonZero
    guard let (n, p) = o["d"] else {
      reader.error("missing required key 'd' (SVG path data)", node, path)
      return nil
    }
    guard let d = reader.string(n, p, limit: SceneLimits.maximumPathData, noun: "path data") else { return nil }
    do {
      return PathContent(path: try Path(svgPathData: d), fillRule: fillRule)
    } catch {
      var location = n.location
      location.column += 1 + error.offset
      reader.error("invalid path data: \(error.message)", at: location, path: p)
      return nil
    }
  }

  /// A `text` layer's text, font and alignment.
  func textContent(_ o: Members, _ node: JSONNode, _ path: JSONPath) -> TextContent? {
    let align = o["align"].flatMap { reader.choice($0.node, $0.path, of: TextAlignment.self) } ?? .leading
    // SwiftUI's body style unless given.
    let font =
      o["font"].map { self.font($0.node, $0.path) } ?? Font(family: nil, size: Font.bodySize, weight: .regular, location: node.location, path: path)
    guard let (n, p) = o["text"] else {
      reader.error("missing required key 'text'", node, path)
      return nil
    }
    guard let text = reader.string(n, p, limit: SceneLimits.maximumText, noun: "text") else { return nil }
    guard let font else { return nil }
    // Wrapping: a width greater than 0 points, at least one line, spacing of 0 or more points.
    let width = o["width"].map { reader.number($0.node, $0.path, .positive) }
    let lineLimit = o["lineLimit"].map {
      reader.integer($0.node, $0.path, NumberRange(lower: .closed(1), upper: .closed(Double(SceneLimits.maximumText))))
    }
    let lineSpacing = o["lineSpacing"].map { reader.number($0.node, $0.path, .nonNegative) }
    if width == .some(nil) || lineLimit == .some(nil) || lineSpacing == .some(nil) { return nil }
    let wrapping = TextWrapping(width: width ?? nil, lineLimit: lineLimit ?? nil, lineSpacing: (lineSpacing ?? nil) ?? 0)
    var content = TextContent(text: text, font: font, align: align, wrapping: wrapping)
    if let (n, p) = o["contentTransition"] {
      guard let transition = contentTransition(n, p) else { return nil }
      content.contentTransition = transition
    }
    return content
  }

  /// A text's content transition in SwiftUI syntax: `opacity`,
  /// `numericText`, `numericText(countsDown: true)`, `identity`.
  func contentTransition(_ node: JSONNode, _ path: JSONPath) -> ContentTransition? {
    guard let text = reader.string(node, path) else { return nil }
    do {
      let chain = try CallParser.parse(text)
      let transition = try Self.contentTransitions.base(of: chain, source: text)
      _ = try Self.contentTransitions.modifiers(of: chain, source: text)
      return transition
    } catch {
      reader.error(error.message, at: locate(error, in: node, path: path), path: path)
      return nil
    }
  }

  static let contentTransitions = ChainGrammar(
    bases: Vocabulary<ContentTransition>(
      "content transition",
      [
        Function("opacity", Overload { _ in .opacity }),
        Function("identity", Overload { _ in .identity }),
        Function(
          "numericText", Overload { _ in .numericText(countsDown: nil) },
          Overload(Parameter.bool("countsDown")) { _, down in .numericText(countsDown: down) }),
      ]),
    modifiers: Vocabulary<ContentTransition>("content transition modifier", []),
    unknownModifierDetail: " (a content transition is one call: opacity, numericText, numericText(countsDown: true) or identity)")

  /// An `image` layer's asset and content mode.
  func imageContent(_ o: Members, _ node: JSONNode, _ path: JSONPath, assets: [String: Asset]) -> ImageContent? {
    let mode = o["contentMode"].flatMap { reader.choice($0.node, $0.path, of: ContentMode.self) } ?? .fill
    guard let (n, p) = o["asset"] else {
      reader.error("missing required key 'asset'", node, path)
      return nil
    }
    guard let name = reader.string(n, p) else { return nil }
    guard assets[name] != nil else {
      reader.error(
        "unknown asset \(Excerpt.quoted(name))" + Suggestions.didYouMean(name, in: assets.keys.sorted())
          + (assets.isEmpty ? " (the scene lists no assets)" : ""),
        n, p)
      return nil
    }
    return ImageContent(asset: name, contentMode: mode)
  }

  /// A stack's spacing, alignment and padding.
  func stackContent(_ o: Members, type: LayerType) -> StackContent {
    var stack = StackContent(spacing: defaultStackSpacing, alignment: .center, padding: .zero)
    if let (n, p) = o["spacing"], let s = reader.number(n, p) { stack.spacing = s }
    let alignments = Self.alignments(for: type)
    if let (n, p) = o["alignment"], let s = reader.choice(n, p, Self.alignmentNames(for: type)), let a = alignments[s] { stack.alignment = a }
    if let (n, p) = o["padding"] {
      if let x = n.number {
        stack.padding = EdgeInsets(x)
      } else if let a = n.array, a.count == 4 {
        let v = a.enumerated().compactMap { reader.number($0.element, p.appending($0.offset)) }
        if v.count == 4 { stack.padding = EdgeInsets(top: v[0], leading: v[1], bottom: v[2], trailing: v[3]) }
      } else {
        reader.error("expected a number or [top, leading, bottom, trailing]", n, p)
      }
    }
    return stack
  }

  /// The alignment names of a stack type, in the order messages list them.
  static func alignmentNames(for type: LayerType) -> [String] {
    switch type {
    case .vstack: HorizontalAlignment.allCases.map(\.rawValue)
    case .hstack: VerticalAlignment.allCases.map(\.rawValue)
    default: Alignment.allNamed.map(\.name)
    }
  }

  static func isValidID(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first else { return false }
    let letters = ("A"..."Z").contains(first) || ("a"..."z").contains(first) || first == "_"
    return letters
      && s.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
  }

  func font(_ node: JSONNode, _ path: JSONPath) -> Font? {
    guard let o = reader.object(node, path, keys: ["family", "size", "weight"]) else { return nil }
    let family = o["family"].flatMap { reader.string($0.node, $0.path) }
    let size = o["size"].map { reader.number($0.node, $0.path, .positive) } ?? Font.bodySize
    let weight = o["weight"].map { reader.choice($0.node, $0.path, of: FontWeight.self) } ?? .regular
    guard let size, let weight else { return nil }
    let named = o["family"].map { ($0.node.location, $0.path) } ?? (node.location, path)
    return Font(family: family, size: size, weight: weight, location: named.0, path: named.1)
  }
}
