import Primitives
import Raster
import SceneModel
import Syntax

/// A layer the renderer cannot draw, located in the scene file (a text or
/// image whose resources were not loaded: a caller's mistake, since
/// `SceneResources.load` reports every resource problem up front).
public struct RenderError: Error, Sendable, CustomStringConvertible {
  public var location: SourceLocation
  public var message: String
  public var description: String { "\(location.line):\(location.column): \(message)" }
}

/// Stage 3: the laid-out tree as drawing calls in device pixels. Each
/// layer's transform is found top-down, the device box of it and its
/// descendants bottom-up (for sizing offscreen layers), then the layers are
/// drawn: fill, text or image, stroke, children (clipped when the layer
/// clips), as a group with opacity, blur and shadow when it has them.
struct LayerPainter {
  let structure: SceneStructure
  /// Each node's laid-out texts (its own and those its events change it
  /// to, by what they say; none when the resources were not loaded) and
  /// image, looked up once rather than every frame.
  let texts: [[String: SetText]]
  let images: [SceneImage?]

  /// A text laid out, with its colour glyphs (emoji) as image pyramids
  /// (keyed by their place in the line and cluster): built once, so every
  /// frame samples (and caches tiles of) the same images.
  struct SetText {
    let layout: TextLayout
    let pyramids: [GlyphKey: ImagePyramid]

    struct GlyphKey: Hashable {
      var line: Int, cluster: Int, image: Int
    }

    init(_ layout: TextLayout) {
      self.layout = layout
      var pyramids: [GlyphKey: ImagePyramid] = [:]
      for (l, line) in layout.lines.enumerated() {
        for (c, cluster) in line.clusters.enumerated() {
          for (i, image) in cluster.images.enumerated() {
            pyramids[GlyphKey(line: l, cluster: c, image: i)] = ImagePyramid(Pixmap(width: image.width, height: image.height, bytes: image.rgba))
          }
        }
      }
      self.pyramids = pyramids
      imageClusters = pyramids.keys.filter { $0.image == 0 }.map { ($0.line, $0.cluster, Vector2.zero) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// The clusters holding colour glyphs, in order.
    let imageClusters: [(line: Int, cluster: Int, offset: Vector2)]
  }

  init(structure: SceneStructure, texts: [[String: TextLayout]], images: [SceneImage?]) {
    self.structure = structure
    self.texts = texts.map { $0.mapValues(SetText.init) }
    self.images = images
  }

  /// Fills in `world` (its own space to device pixels) and `deviceBounds`
  /// for `layer` and its descendants.
  func place(_ layer: inout ResolvedLayer, parent: AffineTransform) {
    let v = layer.values
    let size = v[Properties.size], anchor = v[Properties.anchor], scale = v[Properties.scale]
    let position = v[Properties.position], offset = v[Properties.offset]
    layer.world = layer.pre
      .concatenating(.translation(-anchor.x * size.x, -anchor.y * size.y))
      .concatenating(.scale(scale.x, scale.y))
      .concatenating(.rotation(v[Properties.rotation] * .pi / 180))
      .concatenating(.translation(position.x + offset.x, position.y + offset.y))
      .concatenating(parent)
    // The bounds, grown by the stroke the scene gives and a pixel, and any
    // path drawn beyond them; then the descendants.
    let source = structure.nodes[layer.node].layer
    let grow = (layer.givesStrokeWidth ? v[Properties.strokeWidth] : 0) / 2 + 1
    var local = Rect(x: 0, y: 0, width: size.x, height: size.y)
    if let path = source.path?.path.bounds, !path.isNull { local = local.union(path) }
    // A text changing: the text before too, and a line's height above and
    // below, where a numeric transition's characters roll.
    if let change = layer.textChange, let before = texts[layer.node][change.from] {
      let placed = textBoxes(layer).before
      let box = before.layout.box(in: placed.size, alignment: source.text?.align ?? .leading)
      if !box.isNull { local = local.union(AffineTransform.translation(placed.offset.x, placed.offset.y).apply(box)) }
      local = local.insetBy(dx: 0, dy: -max(before.layout.lineHeight, texts[layer.node][v[Properties.text]]?.layout.lineHeight ?? 0))
    }
    var box = layer.world.apply(local.insetBy(dx: -grow, dy: -grow))
    for i in layer.children.indices {
      place(&layer.children[i], parent: layer.world)
      box = box.union(layer.children[i].deviceBounds)
    }
    layer.flatBounds = box
    layer.deviceBounds = box
    layer.projection = nil
    if var turn = source.rotation3D, let inverse = layer.world.inverted {
      turn.angle = v[Properties.rotation3DAngle]
      if !turn.isIdentity {
        // In device pixels: back to the layer's points, turned, and forward again.
        let projection = Homography(inverse).concatenating(turn.homography(size: size)).concatenating(Homography(layer.world))
        layer.projection = projection
        let corners = [Point(box.minX, box.minY), Point(box.maxX, box.minY), Point(box.maxX, box.maxY), Point(box.minX, box.maxY)]
        let projected = projection.projectPolygon(corners)
        var bounds = Rect.null
        for p in projected { bounds = bounds.union(p) }
        layer.deviceBounds = bounds.isNull ? bounds : bounds.insetBy(dx: -1, dy: -1)
      }
    }
  }

  /// How far (device pixels) the blurs and shadows of a layer and its
  /// descendants reach past their shapes: 3σ, plus a shadow's offset.
  static func effectReach(_ layer: ResolvedLayer) -> Double {
    let v = layer.values
    let scale = layer.world.maximumScale
    var reach = 3 * v[Properties.blur] * scale
    if v[Properties.shadowColor].alpha > 0 {
      let offset = v[Properties.shadowOffset]
      reach = max(reach, 3 * (v[Properties.shadowRadius] + v[Properties.blur]) * scale + max(abs(offset.x), abs(offset.y)) * scale)
    }
    for child in layer.children { reach = max(reach, effectReach(child)) }
    return reach.isFinite ? reach + 1 : 0
  }

  /// Draws a layer that `rotation3D` turns: it and its children flat, at
  /// device resolution, into an image of their flat box (within three
  /// frames' extent), then that image mapped by the projection, sampled
  /// bilinearly inside the projected outline (whose edges are anti-aliased).
  func drawTurned(_ layer: ResolvedLayer, projection: Homography, on canvas: Recording) throws(RenderError) {
    let frame = canvas.frame
    // Nothing to draw where the turned layer misses the frame.
    guard !layer.deviceBounds.isNull, !PixelRect(covering: layer.deviceBounds).intersection(frame).isEmpty else { return }
    let reach = PixelRect(x0: frame.x0 - frame.width, y0: frame.y0 - frame.height, x1: frame.x1 + frame.width, y1: frame.y1 + frame.height)
    // The flat box grown by the blurs' and shadows' spread within it.
    let spread = Self.effectReach(layer)
    let region = PixelRect(covering: layer.flatBounds.insetBy(dx: -spread, dy: -spread)).intersection(reach)
    guard !region.isEmpty, region.width * region.height <= SceneLimits.maximumPixels else { return }
    var flat = layer
    flat.projection = nil
    flat.shift(-Double(region.x0), -Double(region.y0))
    // Drawn flat: its own group (opacity, effects) spans its flat box.
    flat.deviceBounds = flat.flatBounds
    let sub = Recording(width: region.width, height: region.height)
    sub.tolerance = canvas.tolerance
    try draw(flat, on: sub)
    let image = TileRenderer.render(sub)
    let corners = [
      Point(Double(region.x0), Double(region.y0)), Point(Double(region.x1), Double(region.y0)),
      Point(Double(region.x1), Double(region.y1)), Point(Double(region.x0), Double(region.y1)),
    ]
    let outline = projection.projectPolygon(corners)
    guard outline.count >= 3, outline.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
    var path = Path()
    path.move(to: outline[0])
    for p in outline.dropFirst() { path.line(to: p) }
    path.close()
    let imageToDevice = Homography(.translation(Double(region.x0), Double(region.y0))).concatenating(projection)
    canvas.fill(path, paint: .projectedImage(ProjectedImageShader(frame: image, imageToDevice: imageToDevice)))
  }

  func draw(_ layer: ResolvedLayer, on canvas: Recording) throws(RenderError) {
    if let projection = layer.projection {
      if !layer.values[Properties.hidden] && layer.values[Properties.opacity] > 0 { try drawTurned(layer, projection: projection, on: canvas) }
      return
    }
    let v = layer.values
    let opacity = v[Properties.opacity]
    if v[Properties.hidden] || opacity <= 0 { return }
    let source = structure.nodes[layer.node].layer
    let world = layer.world
    let deviceScale = world.maximumScale
    let size = v[Properties.size]
    let bounds = Rect(x: 0, y: 0, width: size.x, height: size.y)

    var effects = LayerEffects(blur: v[Properties.blur] * deviceScale)
    let shadowColor = v[Properties.shadowColor].clamped
    if shadowColor.alpha > 0 {
      effects.shadow = (shadowColor, v[Properties.shadowRadius] * deviceScale, world.applyToVector(v[Properties.shadowOffset]) + Vector2.zero)
    }
    let needsLayer = opacity < 1 || effects.blur > 0 || effects.shadow != nil
    if needsLayer { canvas.beginLayer(bounds: layer.deviceBounds, opacity: opacity, effects: effects) }
    try drawOwnContent(layer, source: source, bounds: bounds, on: canvas)
    if !layer.children.isEmpty {
      let clip = v[Properties.clip]
      if clip { canvas.pushClip(shape(.rect, v, bounds: bounds), transform: world) }
      for child in layer.children { try draw(child, on: canvas) }
      if clip { canvas.popClip() }
    }
    if needsLayer { canvas.endLayer() }
  }

  /// The outline of a shape layer in its own space.
  func shape(_ type: LayerType, _ v: ResolvedValues, bounds: Rect) -> Path {
    switch type {
    case .circle: return .circle(in: bounds)
    case .ellipse: return .ellipse(in: bounds)
    case .capsule: return .capsule(in: bounds)
    default:
      let radius = v[Properties.cornerRadius]
      return radius > 0 ? .roundedRect(bounds, cornerRadius: radius, style: v[Properties.cornerStyle]) : .rect(bounds)
    }
  }

  /// A layer's backdrop and its tint, its fill, its text or image, then its
  /// stroke. On text and image layers, `fill` and `stroke` paint the bounds
  /// (with `cornerRadius`): a background and a border.
  func drawOwnContent(_ layer: ResolvedLayer, source: Layer, bounds: Rect, on canvas: Recording) throws(RenderError) {
    let v = layer.values, world = layer.world, size = v[Properties.size]
    let outline = source.path?.path ?? shape(source.type, v, bounds: bounds)
    let rule = source.path?.fillRule ?? .nonZero
    let backdrop = Backdrop(
      sigma: v[Properties.backdropBlur] * world.maximumScale, saturation: v[Properties.backdropSaturation], tint: v[Properties.backdropTint].clamped)
    if backdrop.sigma > 0 || backdrop.saturation != 1 {
      canvas.backdrop(outline, transform: world, style: backdrop, rule: rule)
    } else if backdrop.tint.alpha > 0 {
      // What lies beneath unchanged: the tint alone.
      canvas.fill(outline, transform: world, paint: .solid(backdrop.tint), rule: rule)
    }
    if let paint = Self.paint(v[Properties.fill], size: size, world: world) {
      canvas.fill(outline, transform: world, paint: paint, rule: source.path?.fillRule ?? .nonZero)
    }
    if let text = source.text { try drawText(layer, text, on: canvas) }
    if let image = source.image { try drawImage(layer, image, outline: outline, on: canvas) }
    let trim = v[Properties.trim]
    let style = StrokeStyle(
      width: max(0, v[Properties.strokeWidth]), cap: v[Properties.strokeCap], join: v[Properties.strokeJoin],
      miterLimit: v[Properties.strokeMiterLimit], dash: v[Properties.strokeDash], dashPhase: v[Properties.strokeDashPhase],
      trim: (min(trim.x, trim.y), max(trim.x, trim.y)))
    if style.width > 0, let paint = Self.paint(v[Properties.strokeColor], size: size, world: world) {
      canvas.stroke(outline, transform: world, style: style, paint: paint)
    }
  }

  /// Where a text is laid out in its layer: in a box of `size` points
  /// whose top-left corner is at `offset` in the layer's space.
  struct TextBox {
    var size: Vector2
    var offset: Vector2 = .zero
  }

  /// The boxes of the text shown and of the text before it: the layer's;
  /// when the layer's box is the shown text's (it gives no size), the text
  /// before keeps its own box, pinned at the layer's anchor.
  func textBoxes(_ layer: ResolvedLayer) -> (shown: TextBox, before: TextBox) {
    let size = layer.values[Properties.size]
    guard let box = layer.textChange?.box else { return (TextBox(size: size), TextBox(size: size)) }
    let anchor = layer.values[Properties.anchor]
    return (TextBox(size: size), TextBox(size: box, offset: Vector2(anchor.x * (size.x - box.x), anchor.y * (size.y - box.y))))
  }

  /// The glyphs, in `color`, aligned in the bounds; while a change of the
  /// text shows, the text before and the text shown, as the layer's
  /// content transition says (docs/scene-format.md, "Text").
  func drawText(_ layer: ResolvedLayer, _ content: TextContent, on canvas: Recording) throws(RenderError) {
    let texts = self.texts[layer.node]
    guard let shown = texts[layer.values[Properties.text]] else {
      throw RenderError(
        location: structure.nodes[layer.node].layer.location, message: "the text's font was not loaded (load the scene's resources first)")
    }
    let align = content.align
    let boxes = textBoxes(layer)
    guard let change = layer.textChange, let before = texts[change.from], content.contentTransition != .identity else {
      drawWhole(shown, boxes.shown, layer, align, on: canvas)
      return
    }
    let p = change.progress, opacity = min(max(p, 0), 1)
    switch content.contentTransition {
    case .opacity, .identity:
      // (1 − p)·before + p·shown in premultiplied colour: the text before,
      // then the one shown cross-fading into it, as a group of its own.
      canvas.beginLayer(bounds: layer.deviceBounds)
      drawWhole(before, boxes.before, layer, align, on: canvas)
      if opacity > 0 {
        canvas.beginLayer(bounds: layer.deviceBounds, opacity: opacity, effects: LayerEffects(crossFade: true))
        drawWhole(shown, boxes.shown, layer, align, on: canvas)
        canvas.endLayer()
      }
      canvas.endLayer()
    case .numericText(let countsDown):
      let roll = Self.roll(from: before.layout, in: boxes.before, to: shown.layout, in: boxes.shown, alignment: align)
      // Up (outgoing characters rise) when counting up.
      let up =
        countsDown.map { !$0 }
        ?? !(Self.number(in: change.from).flatMap { a in Self.number(in: layer.values[Properties.text]).map { $0 < a } } ?? false)
      let h = shown.layout.lineHeight * (up ? 1 : -1)
      draw(
        shown, roll.staying.map { ($0.line, $0.cluster, Vector2($0.from.x * (1 - p), $0.from.y * (1 - p))) }, boxes.shown, layer, align, on: canvas)
      if opacity < 1, !roll.outgoing.isEmpty {
        canvas.beginLayer(bounds: layer.deviceBounds, opacity: 1 - opacity)
        draw(before, roll.outgoing.map { ($0.line, $0.cluster, Vector2(0, -h * p)) }, boxes.before, layer, align, on: canvas)
        canvas.endLayer()
      }
      if opacity > 0, !roll.incoming.isEmpty {
        canvas.beginLayer(bounds: layer.deviceBounds, opacity: opacity)
        draw(shown, roll.incoming.map { ($0.line, $0.cluster, Vector2(0, h * (1 - p))) }, boxes.shown, layer, align, on: canvas)
        canvas.endLayer()
      }
    }
  }

  /// A whole text laid out in `box`: its lines' outlines (one path each,
  /// not cluster by cluster: this is every frame's text), and the clusters
  /// that hold colour glyphs.
  func drawWhole(_ text: SetText, _ box: TextBox, _ layer: ResolvedLayer, _ alignment: TextAlignment, on canvas: Recording) {
    let size = layer.values[Properties.size]
    if let paint = Self.paint(layer.values[Properties.color], size: size, world: layer.world) {
      let outlines = text.layout.path(in: box.size, alignment: alignment).transformed(by: .translation(box.offset.x, box.offset.y))
      if !outlines.isEmpty { canvas.fill(outlines, transform: layer.world, paint: paint) }
    }
    drawImages(text, text.imageClusters, box, layer, alignment, on: canvas)
  }

  /// A numeric text transition's clusters, line by line: those at the
  /// start and the end that both texts share stay (each shown cluster with
  /// the offset from where it was before: it slides there as the change
  /// runs); the others of the text before go out, those of the text shown
  /// come in.
  static func roll(from before: TextLayout, in beforeBox: TextBox, to shown: TextLayout, in shownBox: TextBox, alignment: TextAlignment) -> (
    staying: [(line: Int, cluster: Int, from: Vector2)], outgoing: [(line: Int, cluster: Int)], incoming: [(line: Int, cluster: Int)]
  ) {
    var staying: [(line: Int, cluster: Int, from: Vector2)] = [], outgoing: [(line: Int, cluster: Int)] = []
    var incoming: [(line: Int, cluster: Int)] = []
    for l in 0..<max(before.lines.count, shown.lines.count) {
      let old = l < before.lines.count ? before.lines[l].clusters : [], new = l < shown.lines.count ? shown.lines[l].clusters : []
      var k = 0
      while k < min(old.count, new.count), old[k].text == new[k].text { k += 1 }
      var m = 0
      while m < min(old.count, new.count) - k, old[old.count - 1 - m].text == new[new.count - 1 - m].text { m += 1 }
      let pairs = Array(0..<k).map { ($0, $0) } + (0..<m).map { (old.count - 1 - $0, new.count - 1 - $0) }
      if !pairs.isEmpty {
        let a = before.origin(of: l, in: beforeBox.size, alignment: alignment), b = shown.origin(of: l, in: shownBox.size, alignment: alignment)
        let (ax, ay) = (a.tx + beforeBox.offset.x, a.ty + beforeBox.offset.y), (bx, by) = (b.tx + shownBox.offset.x, b.ty + shownBox.offset.y)
        for (i, j) in pairs { staying.append((l, j, Vector2(ax + old[i].x - bx - new[j].x, ay - by))) }
      }
      outgoing += (k..<(old.count - m)).map { (l, $0) }
      incoming += (k..<(new.count - m)).map { (l, $0) }
    }
    return (staying, outgoing, incoming)
  }

  /// The number a text shows (its digits, sign and decimal point; group
  /// separators and units ignored); nil when it shows none.
  static func number(in text: String) -> Double? {
    Double(String(text.filter { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }))
  }

  /// Clusters of a text laid out in `box`, each moved by its offset
  /// (points): outlines in the layer's colour; colour glyphs keep their
  /// own colours (as emoji do on iOS), filtered from the strike's bitmap
  /// down (or up) to their size.
  func draw(
    _ text: SetText, _ pieces: [(line: Int, cluster: Int, offset: Vector2)], _ box: TextBox, _ layer: ResolvedLayer,
    _ alignment: TextAlignment, on canvas: Recording
  ) {
    guard !pieces.isEmpty else { return }
    let size = layer.values[Properties.size]
    func place(_ l: Int, _ offset: Vector2) -> AffineTransform {
      text.layout.origin(of: l, in: box.size, alignment: alignment).concatenating(.translation(box.offset.x + offset.x, box.offset.y + offset.y))
    }
    if let paint = Self.paint(layer.values[Properties.color], size: size, world: layer.world) {
      var outlines = Path()
      for (l, c, offset) in pieces { outlines.append(text.layout.lines[l].clusters[c].path.transformed(by: place(l, offset))) }
      if !outlines.isEmpty { canvas.fill(outlines, transform: layer.world, paint: paint) }
    }
    drawImages(text, pieces, box, layer, alignment, on: canvas)
  }

  /// The colour glyphs of some clusters, keeping their own colours.
  func drawImages(
    _ text: SetText, _ pieces: [(line: Int, cluster: Int, offset: Vector2)], _ box: TextBox, _ layer: ResolvedLayer,
    _ alignment: TextAlignment, on canvas: Recording
  ) {
    func place(_ l: Int, _ offset: Vector2) -> AffineTransform {
      text.layout.origin(of: l, in: box.size, alignment: alignment).concatenating(.translation(box.offset.x + offset.x, box.offset.y + offset.y))
    }
    for (l, c, offset) in pieces {
      let line = place(l, offset)
      for (i, glyph) in text.layout.lines[l].clusters[c].images.enumerated() {
        guard let pyramid = text.pyramids[SetText.GlyphKey(line: l, cluster: c, image: i)] else { continue }
        let rect = line.apply(glyph.rect)
        let place = AffineTransform.scale(rect.size.x / Double(glyph.width), rect.size.y / Double(glyph.height))
          .concatenating(.translation(rect.origin.x, rect.origin.y)).concatenating(layer.world)
        canvas.fill(.rect(pyramid.levels[0].bounds), transform: place, paint: .image(ImageShader(pyramid: pyramid, imageToDevice: place)))
      }
    }
  }

  /// The image placed by its content mode in the bounds, sampled with
  /// filtering (bilinear, from the image's reductions when drawn smaller).
  func drawImage(_ layer: ResolvedLayer, _ content: ImageContent, outline: Path, on canvas: Recording) throws(RenderError) {
    guard let image = images[layer.node] else {
      throw RenderError(
        location: structure.nodes[layer.node].layer.location, message: "the image asset was not loaded (load the scene's resources first)")
    }
    guard let placed = Self.imageRect(contentMode: content.contentMode, bounds: layer.values[Properties.size], image: image.size),
      image.pixelWidth > 0, image.pixelHeight > 0
    else { return }
    let world = layer.world
    let imageToLocal = AffineTransform.scale(placed.width / Double(image.pixelWidth), placed.height / Double(image.pixelHeight))
      .concatenating(.translation(placed.minX, placed.minY))
    let shader = ImageShader(pyramid: image.pyramid, imageToDevice: imageToLocal.concatenating(world))
    if content.contentMode == .fit {
      // Letterboxed: the image's own rectangle, inside the rounded bounds.
      let rounded = layer.values[Properties.cornerRadius] > 0
      if rounded { canvas.pushClip(outline, transform: world) }
      canvas.fill(.rect(placed), transform: world, paint: .image(shader))
      if rounded { canvas.popClip() }
    } else {
      canvas.fill(outline, transform: world, paint: .image(shader))
    }
  }

  /// Where an image of `image` points goes in `bounds`, in the layer's
  /// space, by `contentMode`: `fill` covers them keeping the aspect ratio
  /// (cropped by the caller), `fit` fits inside them (letterboxed),
  /// `stretch` fills them exactly; nil when either is empty.
  static func imageRect(contentMode: ContentMode, bounds: Vector2, image: Vector2) -> Rect? {
    guard bounds.x > 0, bounds.y > 0, image.x > 0, image.y > 0 else { return nil }
    let scale: Double
    switch contentMode {
    case .stretch: return Rect(x: 0, y: 0, width: bounds.x, height: bounds.y)
    case .fit: scale = min(bounds.x / image.x, bounds.y / image.y)
    case .fill: scale = max(bounds.x / image.x, bounds.y / image.y)
    }
    let size = Vector2(image.x * scale, image.y * scale)
    return Rect(x: (bounds.x - size.x) / 2, y: (bounds.y - size.y) / 2, width: size.x, height: size.y)
  }

  /// A paint as a raster paint, gradients mapped from unit points of the
  /// bounds (in points) to device pixels; nil when it paints nothing.
  static func paint(_ paint: AnimatablePaint, size: Vector2, world: AffineTransform) -> Paint? {
    func stops(_ s: [AnimatablePaint.Stop]) -> [GradientStop] { s.map { GradientStop(offset: $0.offset, color: $0.color) } }
    switch paint.clamped {
    case .color(let c):
      return c.alpha > 0 ? .solid(c) : nil
    case .linear(let from, let to, let s):
      let start = world.apply(Point(from.x * size.x, from.y * size.y)), end = world.apply(Point(to.x * size.x, to.y * size.y))
      return .linearGradient(LinearGradientShader(start: start, end: end, stops: stops(s)))
    case .radial(let center, let r0, let r1, let s):
      return .radialGradient(
        RadialGradientShader(center: Point(center.x * size.x, center.y * size.y), startRadius: r0, endRadius: r1, stops: stops(s), transform: world))
    }
  }
}
