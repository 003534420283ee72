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
public final class Recording {
  enum Op {
    case fill([Polyline], FillRule, Paint)
    case pushClip([Polyline], FillRule)
    case popClip
    case beginLayer(Rect, opacity: Double, LayerEffects)
    case endLayer
  }

  struct Item {
    var ops: Range<Int>
    /// The device pixels the item can change (within the frame).
    var bounds: PixelRect
    var digest: Digest
    /// A layer with a blur or a shadow: drawn once per frame into a texture
    /// (cached by digest) that the tiles composite, since every tile would
    /// otherwise blur the whole neighbourhood it can see.
    var isTexture: Bool
  }

  /// The frame: device pixels (0, 0)–(width, height).
  public let frame: PixelRect
  public let background: PremultipliedColor
  /// Flattening tolerance in device pixels.
  public var tolerance = Path.defaultTolerance

  private(set) var ops: [Op] = []
  private(set) var items: [Item] = []

  // The item being recorded.
  private var depth = 0
  private var start = 0
  private var bounds = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
  private var digester = Digester()
  private var isTexture = false

  public init(width: Int, height: Int, background: PremultipliedColor = .clear) {
    frame = PixelRect(width: width, height: height)
    self.background = background
  }

  // MARK: Recording (Canvas's drawing calls)

  public func fill(_ path: Path, transform: AffineTransform = .identity, paint: Paint, rule: FillRule = .nonZero) {
    fill(path.flattened(tolerance: tolerance, transform: transform), rule: rule, paint: paint)
  }

  public func stroke(_ path: Path, transform: AffineTransform = .identity, style: StrokeStyle, paint: Paint) {
    let scale = max(transform.maximumScale, 1e-12)
    let outline = Stroker.outline(of: path, style: style, tolerance: tolerance / scale)
    fill(outline.map { Polyline(points: $0.map(transform.apply), isClosed: true) }, rule: .nonZero, paint: paint)
  }

  func fill(_ polylines: [Polyline], rule: FillRule, paint: Paint) {
    var paint = paint
    if case .solid(let c) = paint {
      let bytes = RGBA8(c)
      if bytes.a == 0 { return }
      paint = .solid(bytes.premultipliedColor)
    }
    let polylines = Self.snapped(polylines)
    let area = Self.pixels(of: polylines)
    guard !area.isEmpty else { return }
    open(area)
    digester.add(1)
    add(polylines, rule)
    switch paint {
    case .solid(let c): digester.add(0); digester.add(c)
    case .shader(let s): digester.add(1); s.digest(into: &digester)
    }
    ops.append(.fill(polylines, rule, paint))
    close()
  }

  public func pushClip(_ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero) {
    let polylines = Self.snapped(path.flattened(tolerance: tolerance, transform: transform))
    open(Self.pixels(of: polylines))
    digester.add(2)
    add(polylines, rule)
    ops.append(.pushClip(polylines, rule))
    depth += 1
  }

  public func popClip() {
    precondition(depth > 0, "popClip without pushClip")
    digester.add(3)
    ops.append(.popClip)
    depth -= 1
    close()
  }

  /// As `Canvas.beginLayer`: the group's device bounds, without the spread
  /// of its effects.
  public func beginLayer(bounds: Rect, opacity: Double = 1, effects: LayerEffects = LayerEffects()) {
    // Canvas uses the pixels the bounds cover, and the opacity as a byte.
    let bounds = PixelRect(covering: bounds).rect
    let opacity = (min(max(opacity, 0), 1) * 255).rounded() / 255
    var effects = effects
    effects.blur = Self.snap(effects.blur)
    if let s = effects.shadow {
      effects.shadow = (RGBA8(s.color).premultipliedColor, Self.snap(s.sigma), Vector2(Self.snap(s.offset.x), Self.snap(s.offset.y)))
    }
    let spread = effects.spread
    var area = PixelRect(covering: bounds)
    area = PixelRect(x0: area.x0 - spread.left, y0: area.y0 - spread.top, x1: area.x1 + spread.right, y1: area.y1 + spread.bottom)
    let topLevel = depth == 0
    open(area)
    if topLevel { isTexture = effects.blur > 0 || effects.shadow != nil }
    digester.add(4)
    digester.add(bounds.minX); digester.add(bounds.minY); digester.add(bounds.maxX); digester.add(bounds.maxY)
    digester.add(opacity)
    digester.add(effects.blur)
    if let s = effects.shadow {
      digester.add(1); digester.add(s.color); digester.add(s.sigma); digester.add(s.offset.x); digester.add(s.offset.y)
    } else {
      digester.add(0)
    }
    ops.append(.beginLayer(bounds, opacity: opacity, effects))
    depth += 1
  }

  public func endLayer() {
    precondition(depth > 0, "endLayer without beginLayer")
    digester.add(5)
    ops.append(.endLayer)
    depth -= 1
    close()
  }

  /// Starts an item at top level (its bounds are those of its first call:
  /// a layer or a clip bounds everything inside it).
  private func open(_ area: PixelRect) {
    guard depth == 0 else { return }
    start = ops.count
    bounds = area.intersection(frame)
    digester = Digester()
    isTexture = false
  }

  /// Ends the item when back at top level; an item that cannot touch the
  /// frame is dropped.
  private func close() {
    guard depth == 0 else { return }
    if bounds.isEmpty {
      ops.removeSubrange(start...)
    } else {
      items.append(Item(ops: start..<ops.count, bounds: bounds, digest: digester.digest, isTexture: isTexture))
    }
  }

  private func add(_ polylines: [Polyline], _ rule: FillRule) {
    digester.add(rule == .nonZero ? 0 : 1)
    digester.add(polylines.count)
    for line in polylines {
      digester.add(line.points.count)
      for p in line.points { digester.add(p) }
    }
  }

  /// `x` to the nearest 1/1024 (non-finite values kept).
  @inline(__always)
  static func snap(_ x: Double) -> Double {
    guard abs(x) < 1e15 else { return x }
    return (x * 1024).rounded() / 1024
  }

  static func snapped(_ polylines: [Polyline]) -> [Polyline] {
    polylines.map { line in Polyline(points: line.points.map { Point(snap($0.x), snap($0.y)) }, isClosed: line.isClosed) }
  }

  /// The pixels a fill of `polylines` can touch (as the rasterizer bounds them).
  static func pixels(of polylines: [Polyline]) -> PixelRect {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    for line in polylines where line.points.count > 1 {
      for p in line.points {
        minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
      }
    }
    guard minX <= maxX, minY <= maxY else { return PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) }
    return PixelRect(covering: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
  }

  /// True when every layer and clip has been closed.
  public var isBalanced: Bool { depth == 0 }
}

extension Canvas {
  /// Draws recorded calls.
  func replay(_ ops: ArraySlice<Recording.Op>) {
    for op in ops {
      switch op {
      case .fill(let polylines, let rule, let paint): fill(polylines, rule: rule, paint: paint)
      case .pushClip(let polylines, let rule): pushClip(polylines, rule: rule)
      case .popClip: popClip()
      case .beginLayer(let bounds, let opacity, let effects): beginLayer(bounds: bounds, opacity: opacity, effects: effects)
      case .endLayer: endLayer()
      }
    }
  }
}
