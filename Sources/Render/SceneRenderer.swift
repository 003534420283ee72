import Layout
import Primitives
import Raster
import SceneModel
import Syntax
import Timing
import Typography

/// A layer the renderer cannot draw, located in the scene file (a text or
/// image whose resources were not loaded: a caller's mistake, since
/// `SceneResources.load` reports every resource problem up front).
public struct RenderError: Error, Sendable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String
  public var description: String { "\(location.line):\(location.column): \(message)" }
}

/// Draws a scene at any time t: a pure function of t (frames render in any
/// order). Geometry is in points; `scale` maps points to pixels.
///
/// The layer tree over time comes from `SceneStructure` (insertions and
/// removals); every property's value from `SceneTimeline`. Stacks lay out
/// the children present at t; a layout change caused by an event animates
/// with that event's animation, additively, as Core Animation's additive
/// animations do: each child is drawn at its new slot plus (old − new slot)
/// × (1 − progress). For springs with the same parameters this is exactly a
/// retarget that keeps velocity (the spring equation is linear), and an
/// interrupted layout change never jumps.
public struct SceneRenderer: Sendable {
  public let scene: Scene
  public let timeline: SceneTimeline
  public let structure: SceneStructure
  /// Images and text layouts (`SceneResources.load`).
  public let resources: SceneResources
  /// Each node's laid-out text and image (nil when it has none, or when the
  /// resources were not loaded), looked up once rather than every frame.
  private let nodeTexts: [TextLayout?]
  private let nodeImages: [SceneImage?]
  /// For each stack node, the animated layout changes that moved its children.
  private var layoutAnimations: [Int: [LayoutAnimation]] = [:]
  /// Where a removed stacked child stays during its removal transition, in
  /// its stack's space: its slot at the moment it was removed.
  private var removalSlots: [Int: Vector2] = [:]

  struct LayoutAnimation: Sendable {
    var change: SceneStructure.Change
    /// Old minus new size of the stack.
    var sizeDelta: Vector2
    /// Child node → old minus new position.
    var deltas: [Int: Vector2]

    /// How much of the old layout is still showing at t.
    func weight(at t: Double) -> Double { t < change.at ? 0 : 1 - change.animationProgress(at: t) }
  }

  enum Membership {
    /// The children present at t.
    case time
    /// The children present once events 0...k have happened.
    case afterEvent(Int)
  }

  public init(scene: Scene, resources: SceneResources = SceneResources()) {
    self.scene = scene
    self.resources = resources
    timeline = SceneTimeline(scene: scene)
    structure = SceneStructure(scene: scene)
    nodeTexts = structure.nodes.map { node in SceneResources.key(node.layer).flatMap { resources.texts[$0] } }
    nodeImages = structure.nodes.map { node in node.layer.type == .image ? node.layer.asset.flatMap { resources.images[$0] } : nil }
    // The stacks whose children each animated event inserts or removes.
    var touched: [Int: Set<Int>] = [:]
    for (n, node) in structure.nodes.enumerated() where node.layer.type.isStack {
      for entry in node.children {
        for change in [entry.inserted, entry.removed].compactMap({ $0 }) where change.timing != nil {
          touched[change.event, default: []].insert(n)
        }
      }
    }
    for k in touched.keys.sorted() {
      let at = scene.timeline[k].at
      for stack in touched[k]!.sorted() {
        let before = stackLayout(stack, at: at, membership: .afterEvent(k - 1), animated: false)
        let after = stackLayout(stack, at: at, membership: .afterEvent(k), animated: false)
        let shown = stackLayout(stack, at: at, membership: .afterEvent(k - 1), animated: true)
        var deltas: [Int: Vector2] = [:]
        for (child, old) in before.positions {
          if let new = after.positions[child] {
            deltas[child] = old - new
          } else if let slot = shown.positions[child] {
            removalSlots[child] = slot
          }
        }
        // The event's animation, as the children's insertions and removals run it.
        let change = SceneStructure.Change(event: k, at: at, timing: scene.timeline[k].animation.map { AnimationTiming($0) }, transition: .identity)
        layoutAnimations[stack, default: []].append(LayoutAnimation(change: change, sizeDelta: before.size - after.size, deltas: deltas))
      }
    }
  }

  /// The scene's length: the file's `duration`, else SCENE.md's default
  /// (the latest end of any event's animation).
  public var duration: Double { scene.duration ?? timeline.defaultDuration }

  /// Pixel size at `scale` (the scene's when nil).
  public func pixelSize(scale: Double? = nil) -> (width: Int, height: Int) {
    let s = scale ?? scene.scale
    return (Int((scene.size.x * s).rounded(.up)), Int((scene.size.y * s).rounded(.up)))
  }

  /// The frame at scene time `t`.
  public func render(at t: Double, scale: Double? = nil) throws(RenderError) -> Pixmap {
    try renderFrame(at: t, scale: scale).pixmap
  }

  /// The frame at scene time `t` with its tiles' digests, drawn tile by
  /// tile (`TileRenderer`), reusing the tiles in `cache` that frames
  /// rendered before left unchanged. The pixels never depend on the cache.
  public func renderFrame(
    at t: Double, scale: Double? = nil, cache: TileCache? = nil, tileSize: Int = TileRenderer.tileSize,
    drawn: ((DrawnTile) -> Void)? = nil
  ) throws(RenderError) -> RenderedFrame {
    TileRenderer.render(try recording(at: t, scale: scale), cache: cache, tileSize: tileSize, drawn: drawn)
  }

  /// The frame at scene time `t` as drawing commands in device pixels.
  public func recording(at t: Double, scale: Double? = nil) throws(RenderError) -> Recording {
    let s = scale ?? scene.scale
    let (w, h) = pixelSize(scale: s)
    let background = scene.background?.premultiplied ?? .clear
    let list = Recording(width: w, height: h, background: background)
    let root = AffineTransform.scale(s, s)
    for entry in structure.nodes[SceneStructure.root].children where entry.isVisible(at: t) {
      try draw(entry, placed: nil, parent: root, at: t, on: list)
    }
    return list
  }

  /// The ids of the layers drawn at t, in drawing order (for tests and tools).
  public func visibleLayerIDs(at t: Double) -> [String] {
    var out: [String] = []
    func walk(_ n: Int) {
      for entry in structure.nodes[n].children where entry.isVisible(at: t) {
        if let id = structure.nodes[entry.node].layer.id { out.append(id) }
        walk(entry.node)
      }
    }
    walk(SceneStructure.root)
    return out
  }

  // MARK: Layers

  /// A layer's values at t: its own, overridden by the timeline's motions,
  /// then by the transitions acting on it.
  struct Resolved {
    var position, size, anchor, offset, scale, trim: Vector2
    var rotation, opacity, cornerRadius, blur: Double
    var hidden: Bool
    var fill: AnimatableVector?
    /// Applied in the layer's own space before its own transform (a
    /// transition's scale around its anchor).
    var pre: AffineTransform = .identity
  }

  /// - Parameter stackSize: a stack's laid-out size, when the caller has it
  ///   (it is the stack's size unless one is given).
  func resolve(_ n: Int, at t: Double, stackSize: Vector2? = nil) -> Resolved {
    let layer = structure.nodes[n].layer
    let p = layer.properties, id = layer.id
    let hasStroke = p.stroke != nil || timeline.vector(id, "stroke.color", at: t) != nil
    return Resolved(
      position: timeline.pair(id, "position", at: t) ?? p.position ?? .zero,
      size: timeline.pair(id, "size", at: t) ?? p.size ?? stackSize ?? intrinsicSize(n, at: t),
      anchor: timeline.pair(id, "anchor", at: t) ?? p.anchor ?? Vector2(0.5, 0.5),
      offset: timeline.pair(id, "offset", at: t) ?? p.offset ?? .zero,
      scale: timeline.pair(id, "scale", at: t) ?? p.scale ?? Vector2(1, 1),
      trim: timeline.pair(id, "trim", at: t) ?? p.trim ?? Vector2(0, 1),
      rotation: timeline.number(id, "rotation", at: t) ?? p.rotation ?? 0,
      // Overshoot of an animated opacity is clamped (SCENE.md).
      opacity: min(max(timeline.number(id, "opacity", at: t) ?? p.opacity ?? 1, 0), 1),
      cornerRadius: max(0, timeline.number(id, "cornerRadius", at: t) ?? p.cornerRadius ?? 0),
      blur: max(0, timeline.number(id, "blur", at: t) ?? p.blur ?? 0),
      hidden: (timeline.number(id, "hidden", at: t).map { $0 > 0.5 }) ?? p.hidden ?? false,
      // Shapes default to black unless stroked; containers fill only when asked.
      // Text and images have their own content; their fill is a background.
      fill: timeline.vector(id, "fill", at: t) ?? p.fill.map(PaintVector.vector)
        ?? ((layer.type.isContainer || hasStroke || layer.type == .text || layer.type == .image) ? nil : PaintVector.vector(.color(.black))))
  }

  /// A layer's size when none is given: a path's geometric extent, a
  /// stack's content, the measured text, the image's pixels over its
  /// scale; shapes without one are empty.
  func intrinsicSize(_ n: Int, at t: Double) -> Vector2 {
    let layer = structure.nodes[n].layer
    switch layer.type {
    case .text: return nodeTexts[n]?.size ?? .zero
    case .image: return nodeImages[n]?.size ?? .zero
    case .path:
      let b = layer.pathData?.bounds ?? .zero
      return b.isNull ? .zero : Vector2(max(0, b.maxX), max(0, b.maxY))
    case .vstack, .hstack, .zstack:
      return stackLayout(n, at: t).size
    default:
      return .zero
    }
  }

  /// Applies the transitions acting on a layer.
  func apply(_ transitions: [(transition: Transition, p: Double, insertion: Bool)], to r: inout Resolved) {
    for (transition, p, insertion) in transitions {
      for effect in transition.effects(p: p, insertion: insertion, size: r.size) {
        switch effect {
        case .opacity(let f): r.opacity = min(max(r.opacity * f, 0), 1)
        case .offset(let d): r.offset = r.offset + d
        case .blur(let b): r.blur = max(0, r.blur + b)
        case .scale(let s, let anchor):
          let a = Vector2(anchor.x * r.size.x, anchor.y * r.size.y)
          r.pre = r.pre.concatenating(.translation(-a.x, -a.y)).concatenating(.scale(s.x, s.y)).concatenating(.translation(a.x, a.y))
        case .modifier(let active, let expressions, let identity, let p):
          applyModifier(active: active, expressions: expressions, identity: identity, p: p, to: &r)
        }
      }
    }
  }

  /// `.modifier(active:identity:)` at p: an expression gives its property's
  /// value; other properties interpolate from the identity state (or the
  /// layer's own value) to the active state (or the layer's own value).
  func applyModifier(active: PropertyValues, expressions: [String: ProgressExpression], identity: PropertyValues, p: Double, to r: inout Resolved) {
    func number(_ key: String, _ current: Double, _ a: Double?, _ i: Double?) -> Double {
      if let e = expressions[key] { return e.evaluate(p: p) }
      guard a != nil || i != nil else { return current }
      let from = i ?? current, to = a ?? current
      return from + (to - from) * p
    }
    func pair(_ key: String, _ current: Vector2, _ a: Vector2?, _ i: Vector2?) -> Vector2 {
      if let e = expressions[key] {
        let v = e.evaluate(p: p)
        return Vector2(v, v)
      }
      guard a != nil || i != nil else { return current }
      let from = i ?? current, to = a ?? current
      return from + (to - from) * p
    }
    r.position = pair("position", r.position, active.position, identity.position)
    r.size = pair("size", r.size, active.size, identity.size)
    r.anchor = pair("anchor", r.anchor, active.anchor, identity.anchor)
    r.offset = pair("offset", r.offset, active.offset, identity.offset)
    r.scale = pair("scale", r.scale, active.scale, identity.scale)
    r.trim = pair("trim", r.trim, active.trim, identity.trim)
    r.rotation = number("rotation", r.rotation, active.rotation, identity.rotation)
    r.opacity = min(max(number("opacity", r.opacity, active.opacity, identity.opacity), 0), 1)
    r.cornerRadius = max(0, number("cornerRadius", r.cornerRadius, active.cornerRadius, identity.cornerRadius))
    r.blur = max(0, number("blur", r.blur, active.blur, identity.blur))
    if active.fill != nil || identity.fill != nil {
      let current = r.fill ?? PaintVector.vector(.color(.clear))
      let from = identity.fill.map(PaintVector.vector) ?? current, to = active.fill.map(PaintVector.vector) ?? current
      // Paints of different shapes cannot interpolate: they change halfway.
      r.fill = from.components.count == to.components.count ? from + (to - from) * p : (p < 0.5 ? from : to)
    }
  }

  /// The layer's map from its own space to device pixels.
  func transform(_ r: Resolved, parent: AffineTransform) -> AffineTransform {
    r.pre
      .concatenating(.translation(-r.anchor.x * r.size.x, -r.anchor.y * r.size.y))
      .concatenating(.scale(r.scale.x, r.scale.y))
      .concatenating(.rotation(r.rotation * .pi / 180))
      .concatenating(.translation(r.position.x + r.offset.x, r.position.y + r.offset.y))
      .concatenating(parent)
  }

  /// A child's values at t: placed by its stack when it is stacked, with
  /// its transitions applied; and its own layout when it is a stack.
  func place(_ entry: SceneStructure.Entry, placed: Vector2?, at t: Double) -> (Resolved, StackPlacement?) {
    let n = entry.node
    let stack = structure.nodes[n].layer.type.isStack ? stackLayout(n, at: t) : nil
    var r = resolve(n, at: t, stackSize: stack?.size)
    if let placed { r.position = placed }
    apply(entry.transitions(at: t), to: &r)
    return (r, stack)
  }

  /// Where each visible child of a layer goes: its stack slot (or, removed,
  /// the slot it left), or nil to keep its own position.
  func childPlacements(_ n: Int, stack: StackPlacement?, at t: Double) -> [(SceneStructure.Entry, Vector2?)] {
    structure.nodes[n].children.compactMap { entry in
      guard entry.isVisible(at: t) else { return nil }
      guard let stack else { return (entry, nil) }
      return (entry, stack.positions[entry.node] ?? removalSlots[entry.node])
    }
  }

  func draw(_ entry: SceneStructure.Entry, placed: Vector2?, parent: AffineTransform, at t: Double, on canvas: Recording) throws(RenderError) {
    let n = entry.node
    let layer = structure.nodes[n].layer
    let (r, stack) = place(entry, placed: placed, at: t)
    if r.hidden || r.opacity <= 0 { return }
    let world = transform(r, parent: parent)
    let deviceScale = world.maximumScale
    let bounds = Rect(x: 0, y: 0, width: r.size.x, height: r.size.y)

    var effects = LayerEffects(blur: r.blur * deviceScale)
    if let shadowColor = shadowColor(layer, at: t), shadowColor.alpha > 0 {
      let radius = timeline.number(layer.id, "shadow.radius", at: t) ?? layer.properties.shadow?.radius ?? 0
      let offset = timeline.pair(layer.id, "shadow.offset", at: t) ?? layer.properties.shadow?.offset ?? .zero
      effects.shadow = (shadowColor, radius * deviceScale, world.applyToVector(offset) + Vector2.zero)
    }
    let children = childPlacements(n, stack: stack, at: t)
    let needsLayer = r.opacity < 1 || effects.blur > 0 || effects.shadow != nil
    if needsLayer {
      canvas.beginLayer(bounds: deviceBounds(n, r, world: world, children: children, at: t), opacity: r.opacity, effects: effects)
    }
    try drawOwnContent(n, r, bounds: bounds, world: world, at: t, on: canvas)
    if !children.isEmpty {
      if layer.clip { canvas.pushClip(shape(.rect, r, bounds: bounds, style: layer.cornerStyle), transform: world) }
      for (child, placed) in children {
        try draw(child, placed: placed, parent: world, at: t, on: canvas)
      }
      if layer.clip { canvas.popClip() }
    }
    if needsLayer { canvas.endLayer() }
  }

  func shadowColor(_ layer: Layer, at t: Double) -> PremultipliedColor? {
    if let v = timeline.vector(layer.id, "shadow.color", at: t), let p = PaintVector.paint(v) { return p.stops.first?.1 }
    guard layer.properties.shadow != nil else { return nil }
    return (layer.properties.shadow?.color ?? Color(red: 0, green: 0, blue: 0, alpha: 1.0 / 3)).premultiplied
  }

  /// The outline of a shape layer in its own space.
  func shape(_ type: LayerType, _ r: Resolved, bounds: Rect, style: CornerStyle) -> Path {
    switch type {
    case .circle: return .circle(in: bounds)
    case .ellipse: return .ellipse(in: bounds)
    case .capsule: return .capsule(in: bounds)
    default: return r.cornerRadius > 0 ? .roundedRect(bounds, cornerRadius: r.cornerRadius, style: style) : .rect(bounds)
    }
  }

  /// A layer's fill, its text or image, then its stroke. On text and image
  /// layers, `fill` and `stroke` paint the bounds (with `cornerRadius`):
  /// a background and a border.
  func drawOwnContent(_ n: Int, _ r: Resolved, bounds: Rect, world: AffineTransform, at t: Double, on canvas: Recording) throws(RenderError) {
    let layer = structure.nodes[n].layer
    let outline: Path
    switch layer.type {
    case .path: outline = layer.pathData ?? Path()
    default: outline = shape(layer.type, r, bounds: bounds, style: layer.cornerStyle)
    }
    if let fill = r.fill, let paint = paint(fill, size: r.size, world: world) {
      canvas.fill(outline, transform: world, paint: paint, rule: layer.fillRule == "evenodd" ? .evenOdd : .nonZero)
    }
    switch layer.type {
    case .text: try drawText(n, r, world: world, at: t, on: canvas)
    case .image: try drawImage(n, r, outline: outline, world: world, on: canvas)
    default: break
    }
    if layer.properties.stroke != nil || timeline.vector(layer.id, "stroke.color", at: t) != nil {
      let s = layer.properties.stroke
      let color = timeline.vector(layer.id, "stroke.color", at: t) ?? s?.color.map(PaintVector.vector) ?? PaintVector.vector(.color(.black))
      let width = timeline.number(layer.id, "stroke.width", at: t) ?? s?.width ?? 1
      let style = StrokeStyle(
        width: max(0, width), cap: LineCap(rawValue: s?.cap ?? "butt") ?? .butt, join: LineJoin(rawValue: s?.join ?? "miter") ?? .miter,
        miterLimit: s?.miterLimit ?? 10, dash: s?.dash ?? [], dashPhase: timeline.number(layer.id, "stroke.dashPhase", at: t) ?? s?.dashPhase ?? 0,
        trim: (min(r.trim.x, r.trim.y), max(r.trim.x, r.trim.y)))
      if let paint = paint(color, size: r.size, world: world), style.width > 0 {
        canvas.stroke(outline, transform: world, style: style, paint: paint)
      }
    }
  }

  /// The glyphs, in `color` (default black), aligned in the bounds.
  func drawText(_ n: Int, _ r: Resolved, world: AffineTransform, at t: Double, on canvas: Recording) throws(RenderError) {
    let layer = structure.nodes[n].layer
    guard let text = nodeTexts[n] else {
      throw RenderError(location: layer.location, message: "the text's font was not loaded (load the scene's resources first)")
    }
    let color = timeline.vector(layer.id, "color", at: t) ?? layer.properties.color.map(PaintVector.vector) ?? PaintVector.vector(.color(.black))
    guard let paint = paint(color, size: r.size, world: world) else { return }
    let glyphs = text.path(in: r.size, alignment: TextAlignment(rawValue: layer.align) ?? .leading)
    if !glyphs.isEmpty { canvas.fill(glyphs, transform: world, paint: paint) }
  }

  /// The image placed by `contentMode` in the bounds: `fill` covers them
  /// keeping the aspect ratio (cropped to the bounds), `fit` fits inside them
  /// (letterboxed), `stretch` fills them exactly; sampled with filtering
  /// (bilinear, from the image's reductions when drawn smaller).
  func drawImage(_ n: Int, _ r: Resolved, outline: Path, world: AffineTransform, on canvas: Recording) throws(RenderError) {
    let layer = structure.nodes[n].layer
    guard let image = nodeImages[n] else {
      throw RenderError(location: layer.location, message: "the image asset was not loaded (load the scene's resources first)")
    }
    guard let placed = Self.imageRect(contentMode: layer.contentMode, bounds: r.size, image: image.size), image.pixelWidth > 0, image.pixelHeight > 0
    else { return }
    let imageToLocal = AffineTransform.scale(placed.width / Double(image.pixelWidth), placed.height / Double(image.pixelHeight))
      .concatenating(.translation(placed.minX, placed.minY))
    let shader = ImageShader(pyramid: image.pyramid, imageToDevice: imageToLocal.concatenating(world))
    if layer.contentMode == "fit" {
      // Letterboxed: the image's own rectangle, inside the rounded bounds.
      let rounded = r.cornerRadius > 0
      if rounded { canvas.pushClip(outline, transform: world) }
      canvas.fill(.rect(placed), transform: world, paint: .shader(shader))
      if rounded { canvas.popClip() }
    } else {
      canvas.fill(outline, transform: world, paint: .shader(shader))
    }
  }

  /// Where an image of `image` points goes in `bounds`, in the layer's
  /// space; nil when either is empty.
  public static func imageRect(contentMode: String, bounds: Vector2, image: Vector2) -> Rect? {
    guard bounds.x > 0, bounds.y > 0, image.x > 0, image.y > 0 else { return nil }
    let size: Vector2
    switch contentMode {
    case "stretch": return Rect(x: 0, y: 0, width: bounds.x, height: bounds.y)
    case "fit":
      let s = min(bounds.x / image.x, bounds.y / image.y)
      size = Vector2(image.x * s, image.y * s)
    default:
      let s = max(bounds.x / image.x, bounds.y / image.y)
      size = Vector2(image.x * s, image.y * s)
    }
    return Rect(x: (bounds.x - size.x) / 2, y: (bounds.y - size.y) / 2, width: size.x, height: size.y)
  }

  /// A paint vector as a raster paint, gradients mapped from unit points of
  /// the bounds (in points) to device pixels.
  func paint(_ v: AnimatableVector, size: Vector2, world: AffineTransform) -> Paint? {
    guard let p = PaintVector.paint(v) else { return nil }
    let stops = p.stops.map { GradientStop(offset: $0.0, color: $0.1) }
    switch p.kind {
    case PaintVector.colorKind:
      guard let c = p.stops.first?.1, c.alpha > 0 else { return nil }
      return .solid(c)
    case PaintVector.linearKind:
      let g = p.geometry
      let from = world.apply(Point(g[0] * size.x, g[1] * size.y)), to = world.apply(Point(g[2] * size.x, g[3] * size.y))
      return .shader(LinearGradientShader(start: from, end: to, stops: stops))
    default:
      let g = p.geometry
      return .shader(
        RadialGradientShader(center: Point(g[0] * size.x, g[1] * size.y), startRadius: g[2], endRadius: g[3], stops: stops, transform: world))
    }
  }

  // MARK: Layout

  /// A stack's size and its children's slots (child node → where its
  /// anchor sits in the stack's space).
  struct StackPlacement {
    var size: Vector2
    var positions: [Int: Vector2]
  }

  /// Lays out a stack's present children at t. With `animated`, the layout
  /// changes of animated events still running are added (see the type's
  /// notes); nested stacks always report their animated size.
  func stackLayout(_ n: Int, at t: Double, membership: Membership = .time, animated: Bool = true) -> StackPlacement {
    let node = structure.nodes[n]
    let layer = node.layer
    let present = node.children.filter { entry in
      switch membership {
      case .time: entry.isPresent(at: t)
      case .afterEvent(let k): entry.isPresent(afterEvent: k)
      }
    }
    let leaves = present.map { entry -> LayoutNode in
      let child = structure.nodes[entry.node].layer
      let r = resolve(entry.node, at: t, stackSize: child.type.isStack ? stackLayout(entry.node, at: t).size : nil)
      return LayoutNode(size: r.size, anchor: r.anchor, participatesInLayout: !r.hidden)
    }
    let anchor = timeline.pair(layer.id, "anchor", at: t) ?? layer.properties.anchor ?? Vector2(0.5, 0.5)
    let padding = EdgeInsets(top: layer.padding.0, leading: layer.padding.1, bottom: layer.padding.2, trailing: layer.padding.3)
    let alignment = Alignment(named: layer.alignment) ?? .center
    let explicit = timeline.pair(layer.id, "size", at: t) ?? layer.properties.size
    let kind: LayoutContainer.Kind = layer.type == .vstack ? .vstack : layer.type == .hstack ? .hstack : .zstack
    let result = LayoutNode(
      container: LayoutContainer(
        kind: kind, spacing: layer.spacing, alignment: alignment, padding: padding, explicitSize: explicit, children: leaves),
      anchor: anchor
    ).layout()
    var placement = StackPlacement(size: result.size, positions: [:])
    for (entry, child) in zip(present, result.children) {
      if let p = child.position { placement.positions[entry.node] = Vector2(p.x, p.y) }
    }
    if animated, let animations = layoutAnimations[n] {
      for animation in animations {
        let w = animation.weight(at: t)
        guard w != 0 else { continue }
        if explicit == nil { placement.size = placement.size + animation.sizeDelta * w }
        for (child, delta) in animation.deltas where placement.positions[child] != nil {
          placement.positions[child] = placement.positions[child]! + delta * w
        }
      }
    }
    return placement
  }

  /// A generous device-space box around a layer and its descendants, for
  /// sizing offscreen layers: the bounds, grown by the stroke, through every
  /// descendant's transform.
  func deviceBounds(_ n: Int, _ r: Resolved, world: AffineTransform, children: [(SceneStructure.Entry, Vector2?)], at t: Double) -> Rect {
    let layer = structure.nodes[n].layer
    let stroke = (timeline.number(layer.id, "stroke.width", at: t) ?? layer.properties.stroke?.width ?? 0) / 2 + 1
    var local = Rect(x: 0, y: 0, width: r.size.x, height: r.size.y)
    if layer.type == .path, let b = layer.pathData?.bounds, !b.isNull { local = local.union(b) }
    var box = world.apply(local.insetBy(dx: -stroke, dy: -stroke))
    for (entry, placed) in children {
      let (cr, stack) = place(entry, placed: placed, at: t)
      let childWorld = transform(cr, parent: world)
      box = box.union(deviceBounds(entry.node, cr, world: childWorld, children: childPlacements(entry.node, stack: stack, at: t), at: t))
    }
    return box
  }
}
