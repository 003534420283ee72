import Primitives

/// Draws paths, strokes and images into a pixmap with source-over
/// compositing, anti-aliased clips (nested, to any path) and offscreen
/// layers for group opacity and effects, each bounded to its pixel bounds.
///
/// Every call takes the full transform from the shape's own space to
/// device pixels: the caller (the scene renderer) owns the transform tree.
public final class Canvas {
  /// An offscreen (or the base) target: its pixels and where its top-left
  /// pixel sits in device space.
  struct Target {
    var pixmap: Pixmap
    var origin: (x: Int, y: Int)
    var opacity: Double
    var effects: LayerEffects
    var device: PixelRect { PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + pixmap.width, y1: origin.y + pixmap.height) }
  }

  private var targets: [Target]
  /// The clip in force, in device pixels; nil when nothing is clipped.
  private var clips: [CoverageMask?] = [nil]

  /// Flattening tolerance in device pixels.
  public var tolerance = Path.defaultTolerance

  /// Reused from fill to fill (and, for tiles, from canvas to canvas): the
  /// rasterizer's accumulation buffer.
  private let accumulator: Accumulator

  /// A canvas over `width × height` pixels filled with `background`.
  public convenience init(width: Int, height: Int, background: PremultipliedColor = .clear) {
    self.init(region: PixelRect(width: width, height: height), background: background)
  }

  /// A canvas over the device pixels of `region` (a tile of a larger
  /// frame): `pixmap`'s top-left pixel is the region's.
  public convenience init(region: PixelRect, background: PremultipliedColor = .clear) {
    self.init(Pixmap(width: region.width, height: region.height, fill: RGBA8(background)), at: region)
  }

  /// A canvas over the device pixels of `region` starting from `base`
  /// (`region`'s size), filling through `accumulator` (tiles share one).
  init(_ base: Pixmap, at region: PixelRect, accumulator: Accumulator = Accumulator()) {
    precondition(base.width == region.width && base.height == region.height, "the pixmap is the region's size")
    targets = [Target(pixmap: base, origin: (region.x0, region.y0), opacity: 1, effects: LayerEffects())]
    self.accumulator = accumulator
  }

  /// The finished image. Every layer must have been ended.
  public var pixmap: Pixmap {
    precondition(targets.count == 1, "unbalanced beginLayer/endLayer")
    return targets[0].pixmap
  }

  /// Puts back from `saved` (this canvas's picture taken earlier) every
  /// pixel outside `keep`: what an item cut by a region drew there is
  /// undone, exactly, as a clip to whole pixels would have kept it out.
  func restore(outside keep: PixelRect, from saved: Pixmap) {
    precondition(targets.count == 1, "restoring pixels between layers")
    let origin = targets[0].origin
    let w = saved.width
    let inside = keep.intersection(targets[0].device)
    for y in 0..<saved.height {
      let row = 4 * y * w
      let dy = origin.y + y
      if inside.isEmpty || dy < inside.y0 || dy >= inside.y1 {
        targets[0].pixmap.bytes.replaceSubrange(row..<(row + 4 * w), with: saved.bytes[row..<(row + 4 * w)])
        continue
      }
      let left = inside.x0 - origin.x, right = inside.x1 - origin.x
      if left > 0 { targets[0].pixmap.bytes.replaceSubrange(row..<(row + 4 * left), with: saved.bytes[row..<(row + 4 * left)]) }
      if right < w {
        targets[0].pixmap.bytes.replaceSubrange((row + 4 * right)..<(row + 4 * w), with: saved.bytes[(row + 4 * right)..<(row + 4 * w)])
      }
    }
  }

  private var region: PixelRect {
    let device = targets[targets.count - 1].device
    if let clip = clips[clips.count - 1] { return device.intersection(clip.bounds) }
    return device
  }

  // MARK: Drawing

  /// Fills `path` (mapped to device pixels by `transform`) with `paint`.
  public func fill(_ path: Path, transform: AffineTransform = .identity, paint: Paint, rule: FillRule = .nonZero) {
    fill(path.flattened(tolerance: tolerance, transform: transform), rule: rule, paint: paint)
  }

  /// Fills polygons already in device pixels.
  func fill(_ polylines: [Polyline], rule: FillRule, paint: Paint) {
    let source = Compositor.RowSource(paint)
    guard !source.isInvisible else { return }
    let top = targets.count - 1
    let clip = clips[clips.count - 1]
    let origin = targets[top].origin
    let area = region
    let accumulator = self.accumulator
    _ = Compositor.withTarget(&targets[top].pixmap, origin: origin) { target in
      Compositor.withClipRows(clip) { clip in
        Rasterizer.scan(polylines, rule: rule, clip: area, accumulator: accumulator) { y, x, count, constant, coverage in
          Compositor.blendRow(coverage, x0: x, y: y, count: count, constant: constant, source: source, clip: clip, into: target)
        }
      }
    }
  }

  /// Strokes `path` with `style` (width, dashes and trim in the path's own
  /// units, so a scaled layer's stroke scales with it).
  public func stroke(_ path: Path, transform: AffineTransform = .identity, style: StrokeStyle, paint: Paint) {
    let outline = Stroker.outline(of: path, style: style, transform: transform, deviceTolerance: tolerance)
    fill(outline.map { Polyline(points: $0.map(transform.apply), isClosed: true) }, rule: .nonZero, paint: paint)
  }

  /// Draws `image` mapped into device space by `transform` (image pixels →
  /// device pixels), filtered bilinearly, from mipmaps blended in as it
  /// shrinks past √2× (so zooming never jumps at a level boundary).
  public func drawImage(_ image: Pixmap, transform: AffineTransform, opacity: Double = 1) {
    guard image.width > 0, image.height > 0, opacity > 0 else { return }
    let shader = ImageShader(image: image, imageToDevice: transform, opacity: opacity)
    fill(.rect(image.bounds), transform: transform, paint: .image(shader))
  }

  /// Draws `mask` (coverage in device pixels) with `paint`, under the clip.
  public func composite(_ mask: CoverageMask, paint: Paint) {
    let top = targets.count - 1
    Compositor.blend(mask, paint: paint, clip: clips[clips.count - 1], into: &targets[top].pixmap, origin: targets[top].origin)
  }

  // MARK: Clips

  /// Intersects the clip with `path`, anti-aliased, until `popClip`.
  public func pushClip(_ path: Path, transform: AffineTransform = .identity, rule: FillRule = .nonZero) {
    pushClip(path.flattened(tolerance: tolerance, transform: transform), rule: rule)
  }

  /// Intersects the clip with polygons already in device pixels.
  func pushClip(_ polylines: [Polyline], rule: FillRule) {
    // A rectangle holding every pixel that can be drawn whole (a
    // precomposition's bounds, usually) clips nothing: the clip in force
    // stays, exactly (its coverage would be 255 wherever it matters).
    if let r = Self.rectangle(polylines), Recording.contains(PixelRect(inside: r), region) {
      clips.append(clips[clips.count - 1])
      return
    }
    let mask = Rasterizer.coverage(of: polylines, rule: rule, clip: region) ?? .empty
    if let current = clips[clips.count - 1] {
      clips.append(mask.intersection(current))
    } else {
      clips.append(mask)
    }
  }

  /// The rectangle `polylines` outline, when they are one axis-aligned
  /// rectangle (its four corners in either order, the first maybe repeated).
  static func rectangle(_ polylines: [Polyline]) -> Rect? {
    polylines.count == 1 ? polylines[0].axisAlignedRectangle : nil
  }

  public func popClip() {
    precondition(clips.count > 1, "popClip without pushClip")
    clips.removeLast()
  }

  // MARK: Layers

  /// Starts drawing into an offscreen layer covering `bounds` (device
  /// pixels: the group's drawing, without its effects' spread, which is
  /// added here). `endLayer` composites it with `opacity` after `effects`.
  public func beginLayer(bounds: Rect, opacity: Double = 1, effects: LayerEffects = LayerEffects()) {
    precondition(effects.mask == nil || targets.count > 1, "a mask inside a layer only")
    let spread = effects.spread
    var area = PixelRect(covering: bounds)
    area = PixelRect(x0: area.x0 - spread.left, y0: area.y0 - spread.top, x1: area.x1 + spread.right, y1: area.y1 + spread.bottom)
    // What can show is bounded by the parent's region (and the clip), grown
    // by the blur's reach so that content just outside still bleeds in.
    let reach = effects.reach
    let limit = region
    let visible = PixelRect(x0: limit.x0 - reach, y0: limit.y0 - reach, x1: limit.x1 + reach, y1: limit.y1 + reach)
    area = area.intersection(visible)
    if area.isEmpty { area = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) }
    targets.append(
      Target(pixmap: Pixmap(width: area.width, height: area.height), origin: (area.x0, area.y0), opacity: opacity, effects: effects))
    // Inside the layer, draw unclipped (to its own bounds); the clip applies
    // when the layer is composited.
    clips.append(nil)
  }

  /// Composites a finished image (premultiplied, its top-left pixel at
  /// device `origin`) source-over, under the clip; `shift` moves it further
  /// right and down by a fraction of a pixel, in 1/16 px (bilinearly).
  /// The device pixels of `hidden` are left alone: the caller paints them
  /// opaque next, which replaces whatever lies under them.
  func composite(_ image: Pixmap, origin: (x: Int, y: Int), shift: (x: Int, y: Int) = (0, 0), hidden: PixelRect? = nil) {
    let top = targets.count - 1
    if shift != (0, 0) {
      precondition(clips[clips.count - 1] == nil, "a shifted image is composited unclipped")
      Compositor.blendShiftedImage(
        image, origin: origin, shift: shift, into: &targets[top].pixmap, targetOrigin: targets[top].origin, hidden: hidden)
    } else {
      Compositor.blendLayer(
        image, origin: origin, opacity: 1, clip: clips[clips.count - 1], into: &targets[top].pixmap, targetOrigin: targets[top].origin,
        hidden: hidden)
    }
  }

  /// Composites the current layer into its parent; with `shadowOnly`, only
  /// its shadow (the content is drawn separately).
  public func endLayer(shadowOnly: Bool = false) {
    precondition(targets.count > 1, "endLayer without beginLayer")
    clips.removeLast()
    let layer = targets.removeLast()
    let parent = targets.count - 1
    let clip = clips[clips.count - 1]
    let content = layer.effects.blur > 0 ? layer.pixmap.blurred(sigma: layer.effects.blur) : layer.pixmap
    if let shadow = layer.effects.shadow,
      let coverage = content.shadowCoverage(sigma: shadow.sigma, offset: shadow.offset, colorAlpha: shadow.color.clamped.alpha)
    {
      // The shadow: its colour (times the layer's opacity) under the blurred silhouette.
      let mask = CoverageMask(bounds: layer.device, coverage: coverage)
      Compositor.blend(
        mask, paint: .solid(shadow.color.clamped * min(max(layer.opacity, 0), 1)), clip: clip,
        into: &targets[parent].pixmap, origin: targets[parent].origin)
    }
    if shadowOnly { return }
    if let mask = layer.effects.mask {
      // A mask multiplies its parent, everywhere (what it does not cover is
      // transparent in it): the clip in force does not bound it.
      Compositor.applyMask(
        content, origin: layer.origin, mode: mask, opacity: layer.opacity, to: &targets[parent].pixmap, targetOrigin: targets[parent].origin)
      return
    }
    if layer.effects.crossFade {
      Compositor.crossFadeLayer(
        content, origin: layer.origin, opacity: layer.opacity, clip: clip, into: &targets[parent].pixmap, targetOrigin: targets[parent].origin)
      return
    }
    Compositor.blendLayer(
      content, origin: layer.origin, opacity: layer.opacity, clip: clip, into: &targets[parent].pixmap,
      targetOrigin: targets[parent].origin)
  }
}

/// What happens to a layer before it is composited: a drop shadow under
/// it, and a Gaussian blur of it. Radii are σ in device pixels. A
/// cross-fading layer is composited by moving each pixel beneath toward
/// its own by the opacity (what lies beneath times 1 − opacity, plus the
/// layer times opacity) rather than over it. A mask layer is not
/// composited: it multiplies the layer it is drawn in (`LayerMask`).
public struct LayerEffects: Sendable {
  public var blur: Double
  public var shadow: (color: PremultipliedColor, sigma: Double, offset: Vector2)?
  public var crossFade: Bool
  public var mask: LayerMask?

  public init(
    blur: Double = 0, shadow: (color: PremultipliedColor, sigma: Double, offset: Vector2)? = nil, crossFade: Bool = false,
    mask: LayerMask? = nil
  ) {
    self.blur = blur; self.shadow = shadow; self.crossFade = crossFade; self.mask = mask
  }

  /// Pixels the blur filter of σ reaches (about 3σ: the filter's exact support).
  static func reach(_ sigma: Double) -> Int { sigma > 0 ? Pixmap.blurPadding(sigma: sigma) : 0 }

  var reach: Int {
    max(Self.reach(blur), shadow.map { Self.reach($0.sigma + blur) + Self.pixels(max(abs($0.offset.x), abs($0.offset.y))) } ?? 0)
  }

  /// A distance in whole pixels, rounded up (0 for a negative one), clamped
  /// as pixel rectangles are.
  static func pixels(_ d: Double) -> Int { PixelRect.clamped(max(0, d).rounded(.up)) }

  /// How much the layer must grow on each side to hold the effects' spread.
  var spread: (left: Int, top: Int, right: Int, bottom: Int) {
    let blurReach = Self.reach(blur)
    guard let shadow else { return (blurReach, blurReach, blurReach, blurReach) }
    let s = Self.reach(shadow.sigma + blur)
    let dx = shadow.offset.x, dy = shadow.offset.y
    return (
      max(blurReach, s + Self.pixels(-dx)), max(blurReach, s + Self.pixels(-dy)),
      max(blurReach, s + Self.pixels(dx)), max(blurReach, s + Self.pixels(dy))
    )
  }

}

/// How a mask layer multiplies the layer it is drawn in (a track matte, a
/// soft mask): each pixel of the layer (all four premultiplied channels)
/// times m × the mask layer's opacity, or times 1 − that when inverted,
/// where m is the mask's alpha, or its luminance (0.2125 R + 0.7154 G +
/// 0.0721 B of its premultiplied colour, as SVG's luminance masks and
/// ThorVG compute it: a translucent white masks by its alpha). Outside the
/// pixels the mask layer covers, m is 0.
public struct LayerMask: Sendable, Hashable {
  public enum Source: Sendable, Hashable { case alpha, luminance }
  public var source: Source
  public var inverted: Bool
  public init(_ source: Source, inverted: Bool = false) { self.source = source; self.inverted = inverted }
}
