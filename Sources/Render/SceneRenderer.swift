import Layout
import Primitives
import Raster
import SceneModel
import Syntax

/// A layer the renderer cannot draw yet, located in the scene file.
public struct RenderError: Error, Sendable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String
  public var description: String { "\(location.line):\(location.column): \(message)" }
}

/// Draws a scene at any time t: a pure function of t (frames render in any
/// order). Geometry is in points; `scale` maps points to pixels.
public struct SceneRenderer: Sendable {
  public let scene: Scene
  public let timeline: SceneTimeline

  public init(scene: Scene) {
    self.scene = scene
    timeline = SceneTimeline(scene: scene)
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
    let s = scale ?? scene.scale
    let (w, h) = pixelSize(scale: s)
    let background = scene.background?.premultiplied ?? .clear
    let canvas = Canvas(width: w, height: h, background: background)
    let root = AffineTransform.scale(s, s)
    for layer in scene.layers {
      try draw(layer, parent: root, placed: nil, at: t, on: canvas)
    }
    return canvas.pixmap
  }

  // MARK: Layers

  /// A layer's values at t: its own, overridden by the timeline's motions.
  struct Resolved {
    var position, size, anchor, offset, scale, trim: Vector2
    var rotation, opacity, cornerRadius, blur: Double
    var hidden: Bool
  }

  /// - Parameter laidOut: a stack's layout, when the caller has it (its
  ///   size is the stack's size unless one is given).
  func resolve(_ layer: Layer, at t: Double, laidOut: LayoutResult? = nil) -> Resolved {
    let p = layer.properties, id = layer.id
    return Resolved(
      position: timeline.pair(id, "position", at: t) ?? p.position ?? .zero,
      size: timeline.pair(id, "size", at: t) ?? p.size ?? laidOut?.size ?? intrinsicSize(layer, at: t),
      anchor: timeline.pair(id, "anchor", at: t) ?? p.anchor ?? Vector2(0.5, 0.5),
      offset: timeline.pair(id, "offset", at: t) ?? p.offset ?? .zero,
      scale: timeline.pair(id, "scale", at: t) ?? p.scale ?? Vector2(1, 1),
      trim: timeline.pair(id, "trim", at: t) ?? p.trim ?? Vector2(0, 1),
      rotation: timeline.number(id, "rotation", at: t) ?? p.rotation ?? 0,
      // Overshoot of an animated opacity is clamped (SCENE.md).
      opacity: min(max(timeline.number(id, "opacity", at: t) ?? p.opacity ?? 1, 0), 1),
      cornerRadius: max(0, timeline.number(id, "cornerRadius", at: t) ?? p.cornerRadius ?? 0),
      blur: max(0, timeline.number(id, "blur", at: t) ?? p.blur ?? 0),
      hidden: (timeline.number(id, "hidden", at: t).map { $0 > 0.5 }) ?? p.hidden ?? false)
  }

  /// A layer's size when none is given: a path's geometric extent, a
  /// stack's content; shapes without one are empty.
  func intrinsicSize(_ layer: Layer, at t: Double) -> Vector2 {
    switch layer.type {
    case .path:
      let b = layer.pathData?.bounds ?? .zero
      return b.isNull ? .zero : Vector2(max(0, b.maxX), max(0, b.maxY))
    case .vstack, .hstack, .zstack:
      return layoutNode(layer, at: t).size
    default:
      return .zero
    }
  }

  /// The layer's map from its own space to device pixels.
  func transform(_ r: Resolved, position: Vector2, parent: AffineTransform) -> AffineTransform {
    AffineTransform.translation(-r.anchor.x * r.size.x, -r.anchor.y * r.size.y)
      .concatenating(.scale(r.scale.x, r.scale.y))
      .concatenating(.rotation(r.rotation * .pi / 180))
      .concatenating(.translation(position.x + r.offset.x, position.y + r.offset.y))
      .concatenating(parent)
  }

  func draw(_ layer: Layer, parent: AffineTransform, placed: Vector2?, at t: Double, on canvas: Canvas) throws(RenderError) {
    switch layer.type {
    case .text:
      throw RenderError(location: layer.location, message: "text layers are not drawn yet (they arrive with the typography work); the scene is valid")
    case .image:
      throw RenderError(location: layer.location, message: "image layers are not drawn yet (they arrive with the image work); the scene is valid")
    default: break
    }
    // A stack is laid out once per frame: its size and its children's places.
    let laidOut = layer.type.isStack ? layoutNode(layer, at: t).layout() : nil
    let r = resolve(layer, at: t, laidOut: laidOut)
    if r.hidden || r.opacity <= 0 { return }
    let positions = laidOut?.children.map(\.position)
    let world = transform(r, position: placed ?? r.position, parent: parent)
    let deviceScale = world.maximumScale
    let bounds = Rect(x: 0, y: 0, width: r.size.x, height: r.size.y)

    var effects = LayerEffects(blur: r.blur * deviceScale)
    if let shadowColor = shadowColor(layer, at: t), shadowColor.alpha > 0 {
      let radius = timeline.number(layer.id, "shadow.radius", at: t) ?? layer.properties.shadow?.radius ?? 0
      let offset = timeline.pair(layer.id, "shadow.offset", at: t) ?? layer.properties.shadow?.offset ?? .zero
      effects.shadow = (shadowColor, radius * deviceScale, world.applyToVector(offset) + Vector2.zero)
    }
    let needsLayer = r.opacity < 1 || effects.blur > 0 || effects.shadow != nil
    if needsLayer {
      canvas.beginLayer(bounds: deviceBounds(layer, r, world: world, positions: positions, at: t), opacity: r.opacity, effects: effects)
    }
    drawOwnContent(layer, r, bounds: bounds, world: world, at: t, on: canvas)
    if !layer.children.isEmpty {
      if layer.clip { canvas.pushClip(shape(.rect, r, bounds: bounds, style: layer.cornerStyle), transform: world) }
      for (i, child) in layer.children.enumerated() {
        try draw(child, parent: world, placed: positions?[i], at: t, on: canvas)
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

  func drawOwnContent(_ layer: Layer, _ r: Resolved, bounds: Rect, world: AffineTransform, at t: Double, on canvas: Canvas) {
    let outline: Path
    switch layer.type {
    case .path: outline = layer.pathData ?? Path()
    default: outline = shape(layer.type, r, bounds: bounds, style: layer.cornerStyle)
    }
    let hasStroke = layer.properties.stroke != nil || timeline.vector(layer.id, "stroke.color", at: t) != nil
    // Fill: shapes default to black unless stroked; containers fill only when asked.
    let fill = timeline.vector(layer.id, "fill", at: t) ?? layer.properties.fill.map(PaintVector.vector)
      ?? ((layer.type.isContainer || hasStroke) ? nil : PaintVector.vector(.color(.black)))
    if let fill, let paint = paint(fill, size: r.size, world: world) {
      canvas.fill(outline, transform: world, paint: paint, rule: layer.fillRule == "evenodd" ? .evenOdd : .nonZero)
    }
    if hasStroke {
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

  func layoutNode(_ layer: Layer, at t: Double) -> LayoutNode {
    guard layer.type.isStack else {
      let r = resolve(layer, at: t)
      return LayoutNode(size: r.size, anchor: r.anchor, participatesInLayout: !r.hidden)
    }
    // A stack's own size comes out of this layout: read only what it is given.
    let anchor = timeline.pair(layer.id, "anchor", at: t) ?? layer.properties.anchor ?? Vector2(0.5, 0.5)
    let children = layer.children.map { layoutNode($0, at: t) }
    let padding = EdgeInsets(top: layer.padding.0, leading: layer.padding.1, bottom: layer.padding.2, trailing: layer.padding.3)
    let alignment = Alignment(named: layer.alignment) ?? .center
    let explicit = timeline.pair(layer.id, "size", at: t) ?? layer.properties.size
    let kind: LayoutContainer.Kind = layer.type == .vstack ? .vstack : layer.type == .hstack ? .hstack : .zstack
    return LayoutNode(
      container: LayoutContainer(kind: kind, spacing: layer.spacing, alignment: alignment, padding: padding, explicitSize: explicit, children: children),
      anchor: anchor)
  }

  /// A generous device-space box around a layer and its descendants, for
  /// sizing offscreen layers: the bounds, grown by the stroke, through every
  /// descendant's transform.
  func deviceBounds(_ layer: Layer, _ r: Resolved, world: AffineTransform, positions: [Vector2?]?, at t: Double) -> Rect {
    let stroke = (timeline.number(layer.id, "stroke.width", at: t) ?? layer.properties.stroke?.width ?? 0) / 2 + 1
    var local = Rect(x: 0, y: 0, width: r.size.x, height: r.size.y)
    if layer.type == .path, let b = layer.pathData?.bounds, !b.isNull { local = local.union(b) }
    var box = world.apply(local.insetBy(dx: -stroke, dy: -stroke))
    for (i, child) in layer.children.enumerated() {
      let laidOut = child.type.isStack ? layoutNode(child, at: t).layout() : nil
      let cr = resolve(child, at: t, laidOut: laidOut)
      let childWorld = transform(cr, position: positions?[i] ?? cr.position, parent: world)
      box = box.union(deviceBounds(child, cr, world: childWorld, positions: laidOut?.children.map(\.position), at: t))
    }
    return box
  }
}
