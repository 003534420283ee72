import Primitives

/// A frame's drawing, recorded rather than drawn: `Canvas`'s calls with
/// their geometry already flattened to device pixels, grouped into items
/// that `TileRenderer` draws tile by tile and caches.
///
/// Values are recorded at the precision that reaches the pixels, so that a
/// spring's endless convergence (it never snaps to its target) does not
/// make every frame look new: points are snapped to 1/1024 px (FreeType's
/// outlines use 1/64 px; no pixel's coverage changes by more than 1/2000),
/// solid colours and layer opacity to the 8-bit values the compositor
/// uses, blur and shadow radii and offsets to 1/1024 px.
///
/// An item is one top-level call: a fill, or everything between a top-level
/// `beginLayer` and its `endLayer` (or `pushClip` and its `popClip`). Each
/// item carries the pixels it can touch and a digest of everything that
/// decides them, so a tile's pixels are known to be unchanged when the
/// digests of the items over it are.
///
/// A layer with a blur or a shadow becomes a texture, drawn once per frame
/// rather than by every tile it reaches. A shadowed layer without blur is
/// split in two: its shadow (the texture) and its content (drawn by the
/// tiles, sharp as ever). A texture whose every pixel is blurred by σ ≥ 8
/// px and whose paints are solid colours is drawn relative to its first
/// shape's origin and cached under that relative digest: moved, it is the
/// same texture, composited at its new place to the nearest 1/16 px with a
/// bilinear shift for the fraction (the place is off by at most 1/32 px,
/// which moves a blur of σ ≥ 8 by under 0.4 of a level; the shift widens
/// it by under 0.4%), so a moving card's shadow or a drifting glow is
/// blurred once, not every frame. That policy is MovingTexture.swift's.
public final class Recording {
  /// A shape in its own place: its outline flattened by the transform
  /// without its translation, and the translation. Inside a layer that may
  /// become a moving texture, so that the shape moved is the same shape.
  struct Local {
    var polylines: [Polyline]
    var origin: Point
  }

  enum Op {
    case fill([Polyline], FillRule, Paint, Local?)
    case pushClip([Polyline], FillRule, Local?)
    case popClip
    /// The group's bounds (device pixels, before its effects' spread).
    case beginLayer(Rect, opacity: Double, LayerEffects)
    case endLayer
    /// Ends a layer compositing its shadow only (its content is drawn by
    /// the next item).
    case endShadow
    /// What lies beneath, as `backdrops[index]` says, painted in the shape.
    case backdrop([Polyline], FillRule, index: Int)
  }

  /// A material's backdrop: what the frame shows beneath a shape, blurred
  /// and saturated, drawn in the shape (docs/scene-format.md, "Materials").
  /// Each tile under the shape makes its part from what lies beneath it
  /// within the blur's reach (`TileRenderer.SharedImages.backdrop`).
  struct BackdropSource {
    var style: Backdrop
    /// The device pixels the shape can touch (within the frame).
    var area: PixelRect
    /// The items beneath it: `items[0..<below]`.
    var below: Int
    /// Its own item's ops before it, with the layers and clips open there
    /// closed: what its item has drawn beneath it.
    var prefix: [Op]
    /// What decides its image besides the items beneath: its style, the
    /// background and the ops before it.
    var digest = Digest(high: 0, low: 0)

    /// The pixels whose content the blur reads for the pixels of `rect`:
    /// it grown by the blur's reach.
    func source(for rect: PixelRect) -> PixelRect {
      let r = style.reach
      return PixelRect(x0: rect.x0 - r, y0: rect.y0 - r, x1: rect.x1 + r, y1: rect.y1 + r)
    }
  }

  enum Kind: Equatable {
    /// Drawn by every tile it covers.
    case tiles
    /// Drawn once per frame over its bounds, composited by the tiles.
    case texture
    /// Drawn once for every place, its ops moved by −anchor, over `area`
    /// (pixels relative to the anchor); composited with its top-left
    /// pixel at `area`'s origin + anchor.
    case movingTexture(anchor: Point, area: PixelRect)
  }

  struct Item {
    var ops: Range<Int>
    /// The device pixels the item can change (within the frame).
    var bounds: PixelRect
    /// Of the ops as drawn; for a moving texture, of the ops relative to its anchor.
    var digest: Digest
    var kind: Kind
    /// The backdrops its ops paint (what lies beneath them is digested
    /// where it is read: per tile, `TileRenderer.beneathDigest`).
    var backdrops: [Int] = []
    /// The whole pixels it may change, when a region (`pushRegion`) cuts
    /// it: the tiles leave the pixels outside as they were.
    var region: PixelRect? = nil
  }

  /// The frame: device pixels (0, 0)–(width, height).
  public let frame: PixelRect
  public let background: PremultipliedColor
  /// Flattening tolerance in device pixels.
  public var tolerance = Path.defaultTolerance

  private(set) var ops: [Op] = []
  private(set) var items: [Item] = []
  private(set) var backdrops: [BackdropSource] = []
  /// The ops that close the layers and clips open now, innermost last.
  private var closers: [Op] = []
  /// The regions open now (`pushRegion`), each within the one before.
  private var regions: [PixelRect] = []
  /// Every region pushed: the tiles start new columns and rows at their
  /// edges (`TileGrid`), so no tile holds two.
  private(set) var regionsPushed: [PixelRect] = []
  /// The backdrops of the item being recorded, and of the one just closed.
  private var pendingBackdrops: [Int] = []
  private(set) var finished: [Int] = []

  // The item being recorded.
  private var depth = 0
  private var start = 0
  /// Its pixels: a fill's, a clip's, or a layer's (with its effects' spread).
  private(set) var area = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
  /// The union of the pixels its fills and nested layers can touch.
  private var ink = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
  /// The layers open now, innermost last: where each began (its
  /// `beginLayer` op), and the pixels its own drawing can touch.
  private var openLayers: [(op: Int, ink: PixelRect)] = []

  /// Pixels drawn: the innermost open layer's, else the item's.
  private func addInk(_ pixels: PixelRect) {
    if openLayers.isEmpty {
      ink = ink.union(pixels)
    } else {
      openLayers[openLayers.count - 1].ink = openLayers[openLayers.count - 1].ink.union(pixels)
    }
  }

  public init(width: Int, height: Int, background: PremultipliedColor = .clear) {
    frame = PixelRect(width: width, height: height)
    self.background = background
  }

  // MARK: Recording (Canvas's drawing calls)

  public func fill(_ path: Path, transform: AffineTransform = .identity, paint: Paint, rule: FillRule = .nonZero) {
    let shape = { path.flattened(tolerance: self.tolerance, transform: $0) }
    fill(shape(transform), rule: rule, paint: paint, local: local(shape, transform))
  }

  public func stroke(_ path: Path, transform: AffineTransform = .identity, style: StrokeStyle, paint: Paint) {
    let outline = Stroker.outline(of: path, style: style, transform: transform, deviceTolerance: tolerance)
    let shape = { (t: AffineTransform) in outline.map { Polyline(points: $0.map(t.apply), isClosed: true) } }
    fill(shape(transform), rule: .nonZero, paint: paint, local: local(shape, transform))
  }

  /// The shape in its own place (`shape` under the transform without its
  /// translation), when it may be part of a moving texture.
  private func local(_ shape: (AffineTransform) -> [Polyline], _ transform: AffineTransform) -> Local? {
    guard inEffectLayer else { return nil }
    return Local(polylines: Self.snapped(shape(transform.linear)), origin: transform.origin)
  }

  /// True inside a top-level layer with a blur or a shadow.
  private var inEffectLayer = false

  func fill(_ polylines: [Polyline], rule: FillRule, paint: Paint, local: Local? = nil) {
    var paint = paint
    if case .solid(let c) = paint {
      let bytes = RGBA8(c)
      if bytes.a == 0 { return }
      paint = .solid(bytes.premultipliedColor)
    }
    let polylines = Self.snapped(polylines)
    let pixels = Self.pixels(of: polylines)
    guard !pixels.isEmpty else { return }
    open(pixels)
    addInk(pixels)
    ops.append(.fill(polylines, rule, paint, local))
    close()
  }

  public func pushClip(_ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero) {
    let shape = { path.flattened(tolerance: self.tolerance, transform: $0) }
    let polylines = Self.snapped(shape(transform))
    open(Self.pixels(of: polylines))
    ops.append(.pushClip(polylines, rule, local(shape, transform)))
    closers.append(.popClip)
    depth += 1
  }

  public func popClip() { end(.popClip, "popClip without pushClip") }

  /// Clips what is drawn next, until `popRegion`, to the whole pixels of
  /// `rect`, item by item (top level only): each item is recorded as it is
  /// (so tiles still find what hides what and blurred layers stay
  /// textures), and one reaching past the region carries it, so that the
  /// tiles leave the pixels outside as they were. The same pixels as a
  /// `pushClip` of the rectangle around it all, without a coverage mask.
  public func pushRegion(_ rect: PixelRect) {
    precondition(depth == 0, "a region at top level only")
    regions.append(regions.last.map { $0.intersection(rect) } ?? rect)
    regionsPushed.append(regions.last!)
  }

  public func popRegion() {
    precondition(depth == 0 && !regions.isEmpty, "popRegion without pushRegion")
    regions.removeLast()
  }

  /// Paints in `path` what the frame shows beneath it (everything drawn
  /// before), blurred and saturated by `style`.
  public func backdrop(_ path: Path, transform: AffineTransform = .identity, style: Backdrop, rule: FillRule = .nonZero) {
    let polylines = Self.snapped(path.flattened(tolerance: tolerance, transform: transform))
    let pixels = Self.pixels(of: polylines)
    guard !pixels.isEmpty, !pixels.intersection(frame).isEmpty else { return }
    var style = style
    style.sigma = Self.snap(style.sigma)
    style.saturation = Self.snap(style.saturation)
    // The tint at the bytes the compositor uses.
    style.tint = RGBA8(style.tint).premultipliedColor
    open(pixels)
    addInk(pixels)
    let prefix = depth > 0 ? Array(ops[start...]) + closers.reversed() : []
    backdrops.append(BackdropSource(style: style, area: pixels.intersection(frame), below: 0, prefix: prefix))
    pendingBackdrops.append(backdrops.count - 1)
    ops.append(.backdrop(polylines, rule, index: backdrops.count - 1))
    close()
  }

  /// As `Canvas.beginLayer`: the group's device bounds, without the spread
  /// of its effects.
  public func beginLayer(bounds: Rect, opacity: Double = 1, effects: LayerEffects = LayerEffects()) {
    precondition(effects.mask == nil || depth > 0, "a mask inside a layer only")
    // Canvas uses the opacity as a byte.
    let opacity = (min(max(opacity, 0), 1) * 255).roundedToNearest / 255
    var effects = effects
    effects.blur = Self.snap(effects.blur)
    if let s = effects.shadow {
      effects.shadow = (RGBA8(s.color).premultipliedColor, Self.snap(s.sigma), Vector2(Self.snap(s.offset.x), Self.snap(s.offset.y)))
    }
    let bounds = Rect(
      x: Self.snap(bounds.minX), y: Self.snap(bounds.minY), width: Self.snap(bounds.maxX) - Self.snap(bounds.minX),
      height: Self.snap(bounds.maxY) - Self.snap(bounds.minY))
    if depth == 0 { inEffectLayer = effects.blur > 0 || effects.shadow != nil }
    let area = Self.layerArea(bounds, effects)
    open(area)
    openLayers.append((ops.count, PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)))
    ops.append(.beginLayer(bounds, opacity: opacity, effects))
    closers.append(.endLayer)
    depth += 1
  }

  /// A plain layer (or a mask) is bounded by what it draws: its bounds
  /// are narrowed to its drawing, so that one given as everywhere (a
  /// Lottie layer's) costs only the pixels it draws. A mask adds nothing
  /// to its parent's drawing (it only takes away). A layer with effects
  /// spreads past its drawing, and a cross-fade changes what lies beneath
  /// over all its bounds: theirs stay.
  public func endLayer() {
    precondition(!openLayers.isEmpty, "endLayer without beginLayer")
    let layer = openLayers.removeLast()
    guard case .beginLayer(let bounds, let opacity, let effects) = ops[layer.op] else { preconditionFailure("a layer begins with beginLayer") }
    if effects.blur == 0 && effects.shadow == nil && !effects.crossFade {
      let inside = layer.ink.intersection(PixelRect(covering: bounds))
      ops[layer.op] = .beginLayer(inside.rect, opacity: opacity, effects)
      if effects.mask == nil { addInk(inside) }
    } else if depth > 1 {
      // A nested blur or shadow spreads past its shapes.
      addInk(Self.layerArea(bounds, effects).union(layer.ink))
    } else {
      addInk(layer.ink)
    }
    end(.endLayer, "endLayer without beginLayer")
  }

  /// Closes a clip or a layer.
  private func end(_ op: Op, _ unbalanced: String) {
    precondition(depth > 0, unbalanced)
    ops.append(op)
    closers.removeLast()
    depth -= 1
    close()
  }

  /// The pixels a layer's offscreen covers (as `Canvas.beginLayer` sizes it).
  static func layerArea(_ bounds: Rect, _ effects: LayerEffects) -> PixelRect {
    let spread = effects.spread
    let a = PixelRect(covering: bounds)
    return PixelRect(x0: a.x0 - spread.left, y0: a.y0 - spread.top, x1: a.x1 + spread.right, y1: a.y1 + spread.bottom)
  }

  /// Starts an item at top level.
  private func open(_ pixels: PixelRect) {
    guard depth == 0 else { return }
    start = ops.count
    area = pixels
    ink = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    pendingBackdrops.removeAll()
  }

  /// Ends the item when back at top level; an item that cannot touch the
  /// frame is dropped.
  private func close() {
    guard depth == 0 else { return }
    inEffectLayer = false
    let range = start..<ops.count
    if case .beginLayer(let bounds, _, let effects) = ops[start], effects.blur == 0, effects.shadow == nil, !effects.crossFade {
      area = PixelRect(covering: bounds)
    }
    guard !area.intersection(frame).isEmpty else {
      ops.removeSubrange(range)
      return
    }
    // Reaching past the region: the item is drawn as it is, and the tiles
    // keep the pixels outside the region as they were (an exact clip, the
    // region's edges being whole pixels).
    let cut = regions.last.flatMap { Self.contains($0, extent(range)) ? nil : $0 }
    if let cut, area.intersection(cut).isEmpty {
      ops.removeSubrange(range)
      return
    }
    let first = items.count
    defer {
      if let cut {
        for i in first..<items.count {
          items[i].region = cut
          items[i].bounds = items[i].bounds.intersection(cut)
        }
      }
    }
    finishBackdrops()
    guard case .beginLayer(let bounds, let opacity, let effects) = ops[start], effects.blur > 0 || effects.shadow != nil else {
      items.append(Item(ops: range, bounds: area.intersection(frame), digest: digest(ops[range]), kind: .tiles, backdrops: finished))
      return
    }
    // The layer holds its content whole, nested halos included (the bounds
    // given are its shapes' box): its shadow and blur are of all of it.
    if !ink.isEmpty {
      let grown = PixelRect(covering: bounds).union(ink).rect
      ops[start] = .beginLayer(grown, opacity: opacity, effects)
      area = Self.layerArea(grown, effects)
    }
    if effects.blur == 0 {
      // The shadow alone, then the content: as a group if it is translucent.
      ops[range.upperBound - 1] = .endShadow
      items.append(texture(range))
      let inner = ops[(range.lowerBound + 1)..<(range.upperBound - 1)]
      let contentStart = ops.count
      // What the content can reach: its shapes and nested halos (whole,
      // even past the layer's bounds); when translucent, a group over them.
      let pixels = ink
      if opacity < 1 {
        ops.append(.beginLayer(pixels.rect, opacity: opacity, LayerEffects()))
        ops.append(contentsOf: inner)
        ops.append(.endLayer)
      } else {
        ops.append(contentsOf: inner)
      }
      let content = contentStart..<ops.count
      if !content.isEmpty && !pixels.intersection(frame).isEmpty {
        items.append(Item(ops: content, bounds: pixels.intersection(frame), digest: digest(ops[content]), kind: .tiles, backdrops: finished))
      }
    } else {
      items.append(texture(range))
    }
  }

  /// Every pixel the item being closed can touch: its area, its ink, and a
  /// blurred or shadowed layer's spread around both.
  private func extent(_ range: Range<Int>) -> PixelRect {
    var extent = area.union(ink)
    if case .beginLayer(let bounds, _, let effects) = ops[range.lowerBound], effects.blur > 0 || effects.shadow != nil {
      extent = extent.union(Self.layerArea(PixelRect(covering: bounds).union(ink).rect, effects))
    }
    return extent
  }

  static func contains(_ outer: PixelRect, _ inner: PixelRect) -> Bool {
    inner.isEmpty || (inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1)
  }

  /// The item's backdrops lie over every item before it (a shadow its own
  /// layer casts is not beneath: it is split off after this, and drawn
  /// under the content). Each is named by its style, the background and
  /// its own item's ops before it; the items beneath count where a tile
  /// reads them.
  private func finishBackdrops() {
    finished = pendingBackdrops
    for b in pendingBackdrops {
      backdrops[b].below = items.count
      if case .beginLayer(let bounds, let opacity, var effects)? = backdrops[b].prefix.first {
        effects.shadow = nil
        backdrops[b].prefix[0] = .beginLayer(bounds, opacity: opacity, effects)
      }
      var d = Digester()
      d.add(0x6261_636B_6472_6F70 as UInt64)
      d.add(backdrops[b].style.sigma); d.add(backdrops[b].style.saturation); d.add(backdrops[b].style.tint)
      d.add(background)
      d.add(Self.digest(backdrops[b].prefix[...], backdrops: backdrops))
      backdrops[b].digest = d.digest
    }
    pendingBackdrops.removeAll()
  }

  /// Adds an item's digest and how it is drawn.
  static func digest(_ item: Item, into d: inout Digester) {
    d.add(item.digest)
    if let r = item.region {
      d.add(0x7265_6769_6F6E as UInt64); d.add(r.x0); d.add(r.y0); d.add(r.x1); d.add(r.y1)
    }
    switch item.kind {
    case .tiles: d.add(0)
    case .texture: d.add(1)
    case .movingTexture(let anchor, let area):
      // The relative digest, and where it lands (as drawn: a spring's
      // last creep below 1/32 px changes nothing).
      let (qx, qy) = TileRenderer.placement(anchor, area)
      d.add(2); d.add(qx); d.add(qy)
    }
  }

  /// `x` to the nearest 1/1024 (non-finite values kept).
  @inline(__always)
  static func snap(_ x: Double) -> Double { snap(x, to: 1.0 / 1024) }

  /// `x` to the nearest multiple of `grid`, a power of two (non-finite values kept).
  @inline(__always)
  static func snap(_ x: Double, to grid: Double) -> Double {
    guard abs(x) < 1e15 else { return x }
    return (x / grid).roundedToNearest * grid
  }

  static func snapped(_ polylines: [Polyline]) -> [Polyline] {
    polylines.map { line in Polyline(points: line.points.map { Point(snap($0.x), snap($0.y)) }, isClosed: line.isClosed) }
  }

  /// The pixels a fill of `polylines` can touch (as the rasterizer bounds them).
  static func pixels(of polylines: [Polyline]) -> PixelRect { PixelRect(covering: polylines.fillBounds) }

  /// Everything that decides what `ops` draw. A layer's bounds count by the
  /// pixels they cover, as that is all Canvas uses of them.
  func digest(_ ops: ArraySlice<Op>) -> Digest { Self.digest(ops, backdrops: backdrops) }

  static func digest(_ ops: ArraySlice<Op>, backdrops: [BackdropSource]) -> Digest {
    var d = Digester()
    func add(_ polylines: [Polyline], _ rule: FillRule) {
      d.add(rule == .nonZero ? 0 : 1)
      d.add(polylines.count)
      for line in polylines {
        d.add(line.points.count)
        for p in line.points { d.add(p) }
      }
    }
    for op in ops {
      switch op {
      case .fill(let polylines, let rule, let paint, _):
        d.add(1)
        add(polylines, rule)
        paint.digest(into: &d)
      case .pushClip(let polylines, let rule, _):
        d.add(2)
        add(polylines, rule)
      case .popClip:
        d.add(3)
      case .beginLayer(let bounds, let opacity, let effects):
        d.add(4)
        let b = PixelRect(covering: bounds)
        d.add(b.x0); d.add(b.y0); d.add(b.x1); d.add(b.y1)
        d.add(opacity)
        d.add(effects.blur)
        d.add(effects.crossFade ? 1 : 0)
        if let m = effects.mask {
          d.add(m.source == .alpha ? 1 : 2); d.add(m.inverted ? 1 : 0)
        } else {
          d.add(0)
        }
        if let s = effects.shadow {
          d.add(1); d.add(s.color); d.add(s.sigma); d.add(s.offset.x); d.add(s.offset.y)
        } else {
          d.add(0)
        }
      case .endLayer:
        d.add(5)
      case .endShadow:
        d.add(6)
      case .backdrop(let polylines, let rule, let index):
        d.add(7)
        add(polylines, rule)
        d.add(backdrops[index].digest)
      }
    }
    return d.digest
  }

  /// True when every layer and clip has been closed.
  public var isBalanced: Bool { depth == 0 }
}

extension Canvas {
  /// Draws recorded calls; `backdrop` gives each backdrop's paint.
  func replay<C: Collection<Recording.Op>>(_ ops: C, backdrop: (Int) -> Paint? = { _ in nil }) {
    for op in ops {
      switch op {
      case .backdrop(let polylines, let rule, let index): if let paint = backdrop(index) { fill(polylines, rule: rule, paint: paint) }
      case .fill(let polylines, let rule, let paint, _): fill(polylines, rule: rule, paint: paint)
      case .pushClip(let polylines, let rule, _): pushClip(polylines, rule: rule)
      case .popClip: popClip()
      case .beginLayer(let bounds, let opacity, let effects): beginLayer(bounds: bounds, opacity: opacity, effects: effects)
      case .endLayer: endLayer()
      case .endShadow: endLayer(shadowOnly: true)
      }
    }
  }
}

extension AffineTransform {
  /// The map without its translation.
  var linear: AffineTransform { AffineTransform(a: a, b: b, c: c, d: d, tx: 0, ty: 0) }
  /// Where it takes the origin: its translation.
  var origin: Point { Point(tx, ty) }
}
