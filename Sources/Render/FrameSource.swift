import Primitives
import Raster
import SceneModel

/// Something that draws frames: a scene, a comparison of sources, a source
/// with review overlays — and, later, other input formats. Everything
/// downstream (the frame pipeline and its sinks, contact sheets, diffs,
/// charts, the batch cache) takes a `FrameSource`, never a concrete scene,
/// so a new input format is a new conformance and nothing else changes.
///
/// A frame is a pure function of its time: `draw(at:)` keeps no state from
/// one call to the next, so frames render in any order, on every core.
public protocol FrameSource: Sendable {
  /// What outputs are named after by default (`renders/NAME.mp4`).
  var name: String { get }
  /// The source's length in seconds of scene time.
  var duration: Double { get }
  /// Pixels per point when no scale is given.
  var defaultScale: Double { get }
  /// The frame's size in points (pixels at scale 1).
  var pointSize: Vector2 { get }
  /// The frame's size in pixels at `scale` (the default scale when nil).
  func pixelSize(scale: Double?) -> (width: Int, height: Int)
  /// What fills the frame before anything is drawn; nil is transparent.
  /// Outputs keep the alpha of a background whose alpha is below 1.
  var background: PremultipliedColor? { get }
  /// The appearance a colour given by name (`--matte white`) is read in.
  var appearance: Appearance { get }
  /// True when the picture depends on the frame's number, not only on its
  /// time (a timecode): frames at one time in outputs of different rates
  /// are then drawn apart.
  var showsFrameNumber: Bool { get }

  /// Draws the frame at scene time `t` (frame number `frame` of its
  /// output) into `list`, the source's points mapped to `list`'s pixels by
  /// `transform`, without its background: a source drawn as a part of
  /// another one's frame (a panel of a comparison, the scene beside its
  /// chart).
  func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError)

  /// The whole frame at scene time `t` as drawing calls in device pixels.
  func recording(at t: Double, scale: Double?, frame: Int) throws(RenderError) -> Recording

  /// The frame at `t`, drawn tile by tile, reusing the tiles in `cache`
  /// that earlier frames left unchanged (the pixels never depend on it).
  func renderFrame(at t: Double, scale: Double?, cache: TileCache?, tileSize: TileLayout, frame: Int, drawn: ((DrawnTile) -> Void)?)
    throws(RenderError)
    -> RenderedFrame

  /// What loaded but will not look as written, located in `file`.
  func warnings(file: String) -> [SceneDiagnostic]
  /// The animated properties a chart can sample, in the source's order.
  var sampledProperties: [SampledProperty] { get }
  /// The frame rate the source was made at (a Lottie file's `fr`): outputs
  /// default to it; nil for a scene (continuous time: 60).
  var naturalFrameRate: Double? { get }
  /// A digest of every input the frames depend on (the file's bytes, the
  /// images and fonts it names): two sources with one digest, rendered with
  /// the same options by the same binary, give the same bytes. The batch
  /// cache keys on it.
  var inputDigest: String { get }
  /// Its events and layers, as `render info` shows them; nil for a source
  /// with no timeline of its own (a comparison).
  var outline: SourceOutline? { get }
}

extension FrameSource {
  public var appearance: Appearance { .light }
  public var showsFrameNumber: Bool { false }
  public func warnings(file: String) -> [SceneDiagnostic] { [] }
  public var sampledProperties: [SampledProperty] { [] }
  public var naturalFrameRate: Double? { nil }
  public var outline: SourceOutline? { nil }

  /// The frame as drawing calls: the background, then `draw` with the
  /// source's points scaled to pixels.
  public func recording(at t: Double, scale: Double? = nil, frame: Int = 0) throws(RenderError) -> Recording {
    let s = scale ?? defaultScale
    let (w, h) = pixelSize(scale: s)
    let list = Recording(width: w, height: h, background: background ?? .clear)
    try draw(at: t, on: list, transform: .scale(s, s), frame: frame)
    return list
  }

  public func renderFrame(
    at t: Double, scale: Double? = nil, cache: TileCache? = nil, tileSize: TileLayout = TileRenderer.squares, frame: Int = 0,
    drawn: ((DrawnTile) -> Void)? = nil
  ) throws(RenderError) -> RenderedFrame {
    TileRenderer.render(try recording(at: t, scale: scale, frame: frame), cache: cache, tileSize: tileSize, drawn: drawn)
  }

  /// The frame at scene time `t` as a picture.
  public func render(at t: Double, scale: Double? = nil) throws(RenderError) -> Pixmap {
    try renderFrame(at: t, scale: scale).pixmap
  }

  /// The frame's background leaves it transparent (outputs keep its alpha).
  public var isTransparent: Bool { background.map { $0.alpha < 1 } ?? true }

  /// Draws the frame at `t` as a panel of another frame: `area` filled with
  /// the source's background, then the source, clipped to `area`. An area
  /// of whole pixels (a comparison's panel) is a region: the source's
  /// drawing stays item by item and the tiles are cut at the panel's edges,
  /// so the panel's pixels are those of the source rendered alone, and its
  /// still parts are reused from frame to frame as they are then.
  public func draw(at t: Double, on list: Recording, transform: AffineTransform, area: Path, frame: Int = 0) throws(RenderError) {
    let lines = area.flattened(tolerance: list.tolerance)
    let box = lines.count == 1 ? lines[0].axisAlignedRectangle : nil
    let region = box.flatMap { r -> PixelRect? in
      guard list.isBalanced, [r.minX, r.minY, r.maxX, r.maxY].allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }) else { return nil }
      return PixelRect(x0: Int(r.minX), y0: Int(r.minY), x1: Int(r.maxX), y1: Int(r.maxY))
    }
    if let region { list.pushRegion(region) } else { list.pushClip(area) }
    if let background { list.fill(area, paint: .solid(background)) }
    try draw(at: t, on: list, transform: transform, frame: frame)
    if region != nil { list.popRegion() } else { list.popClip() }
  }
}

/// One animated property of one layer, as a chart samples it: its value's
/// components and their velocities at any time, and the times of the events
/// that move it.
public struct SampledProperty: Sendable {
  /// The layer's name (a scene's layer id).
  public var layer: String
  /// The property as messages spell it (`position`, `stroke.width`).
  public var property: String
  /// The values' unit (`pt`, `°`), empty for none.
  public var unit: String
  /// The events that change it, and when each animation is done.
  public var marks: [ChartMark]
  /// The components at time t (`x`, `y`; nil names a single number) and
  /// their velocities per second; nil values where the property has no
  /// numbers to chart (a gradient).
  public var sample: @Sendable (Double) -> (value: [(name: String?, value: Double)]?, velocity: [(name: String?, value: Double)]?)

  public init(
    layer: String, property: String, unit: String, marks: [ChartMark],
    sample: @escaping @Sendable (Double) -> (value: [(name: String?, value: Double)]?, velocity: [(name: String?, value: Double)]?)
  ) {
    self.layer = layer; self.property = property; self.unit = unit; self.marks = marks; self.sample = sample
  }
}

/// A vertical mark on a chart's time axis.
public struct ChartMark: Sendable, Hashable {
  public enum Kind: Sendable, Hashable { case event, settled }
  public var kind: Kind
  public var time: Double
  /// For an event: whether it moves toward a target, so that passing the
  /// target is an overshoot worth labelling (an animation); a keyframe
  /// track, an animator's scrub or a drag goes where it is told.
  public var movesToTarget = true

  public init(kind: Kind, time: Double, movesToTarget: Bool = true) {
    self.kind = kind; self.time = time; self.movesToTarget = movesToTarget
  }
}

/// What a frame shows besides its source (review overlays): a larger frame
/// with the source's pixels at `frame.scene`, and drawing under and over
/// them. Static parts should be drawn the same way every frame (as one
/// image), so that the tile cache keeps them.
public protocol FrameDecoration: Sendable {
  /// The whole frame's size and where the source's top-left pixel is in it.
  var frame: (size: (width: Int, height: Int), scene: (x: Int, y: Int)) { get }
  /// Before the source is drawn (backgrounds beside it).
  func drawUnder(_ list: Recording, time: Double, frame: Int)
  /// After the source is drawn (burn-ins, playheads).
  func drawOver(_ list: Recording, time: Double, frame: Int) throws(RenderError)
  /// The frame's background instead of the source's.
  var background: PremultipliedColor? { get }
  /// True when the picture depends on the frame's number (a timecode).
  var showsFrameNumber: Bool { get }
}

extension FrameDecoration {
  public var background: PremultipliedColor? { nil }
  public var showsFrameNumber: Bool { false }
}

/// A source with a decoration: a frame of the decoration's size, the
/// source's pixels placed at `frame.scene` and clipped to them. It is laid
/// out once, for the scale the decoration was made for: every scale gives
/// the decoration's frame.
public struct DecoratedSource: FrameSource {
  public let base: any FrameSource
  public let decoration: any FrameDecoration
  /// The pixels per point the decoration was laid out for.
  public let scale: Double

  public init(_ base: any FrameSource, decoration: any FrameDecoration, scale: Double?) {
    self.base = base
    self.decoration = decoration
    self.scale = scale ?? base.defaultScale
  }

  public var name: String { base.name }
  public var duration: Double { base.duration }
  public var defaultScale: Double { scale }
  public var pointSize: Vector2 { Vector2(Double(decoration.frame.size.width) / scale, Double(decoration.frame.size.height) / scale) }
  public func pixelSize(scale: Double?) -> (width: Int, height: Int) { decoration.frame.size }
  public var background: PremultipliedColor? { decoration.background ?? base.background }
  public var appearance: Appearance { base.appearance }
  public var showsFrameNumber: Bool { decoration.showsFrameNumber || base.showsFrameNumber }
  public func warnings(file: String) -> [SceneDiagnostic] { base.warnings(file: file) }
  public var sampledProperties: [SampledProperty] { base.sampledProperties }
  public var inputDigest: String { base.inputDigest }
  public var outline: SourceOutline? { base.outline }

  public func recording(at t: Double, scale: Double?, frame: Int) throws(RenderError) -> Recording {
    let (w, h) = decoration.frame.size
    let list = Recording(width: w, height: h, background: background ?? .clear)
    try draw(at: t, on: list, transform: .identity, frame: frame)
    return list
  }

  /// The decoration and the source, its pixels mapped by `transform`.
  public func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError) {
    precondition(transform == .identity, "a decorated frame is drawn in its own pixels")
    let origin = decoration.frame.scene
    let root = AffineTransform.scale(scale, scale).concatenating(.translation(Double(origin.x), Double(origin.y)))
    decoration.drawUnder(list, time: t, frame: frame)
    // Beside a decoration, the source stays within its own pixels, as the
    // frame's edges keep it without one: a region, so that the tiles treat
    // its drawing as they do without the decoration.
    let (sw, sh) = base.pixelSize(scale: scale)
    list.pushRegion(PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + sw, y1: origin.y + sh))
    try base.draw(at: t, on: list, transform: root, frame: frame)
    list.popRegion()
    try decoration.drawOver(list, time: t, frame: frame)
  }
}
