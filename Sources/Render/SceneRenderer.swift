import Primitives
import Raster
import SceneModel

/// Draws a scene at any time t, a pure function of t (frames render in any
/// order), in three stages:
///
/// 1. resolve (`ResolveStage`): the layer tree at t (`SceneStructure`: the
///    insertions and removals so far) with every property's value
///    (`SceneTimeline`, else the layer's own, else the property's default);
/// 2. layout (`LayoutStage`): stacks place their children, layout changes
///    animate, removed children keep their slots, transitions act;
/// 3. paint (`LayerPainter`): transforms, device boxes, and the drawing
///    calls of shapes, text, images and effects, recorded in device pixels
///    (`Recording`) and drawn tile by tile (`TileRenderer`).
///
/// Geometry is in points; `scale` maps points to pixels. Images and text
/// come in through `SceneResources`: the renderer reads no file.
public struct SceneRenderer: FrameSource {
  public let scene: Scene
  public let timeline: SceneTimeline
  public let structure: SceneStructure
  public let resources: SceneResources
  let resolver: ResolveStage
  let layout: LayoutStage
  let painter: LayerPainter
  /// The digest of the inputs the loader read (`FrameSource.inputDigest`).
  let digest: String?

  /// - Parameter inputDigest: a digest of every input the scene was made
  ///   from (its file's bytes, the images and fonts it names); by default a
  ///   digest of the decoded scene itself.
  public init(scene: Scene, resources: SceneResources = SceneResources(), inputDigest: String? = nil) {
    self.scene = scene
    self.resources = resources
    digest = inputDigest
    let structure = SceneStructure(scene: scene)
    self.structure = structure
    // Each text layer's texts: its own and every one its events change it to.
    var changes: [String: [String]] = [:]
    for event in scene.timeline { for (id, text) in event.textChanges { changes[id, default: []].append(text) } }
    let texts = structure.nodes.map { node -> [String: TextLayout] in
      guard let content = node.layer.text else { return [:] }
      var out: [String: TextLayout] = [:]
      for text in [content.text] + (node.layer.id.flatMap { changes[$0] } ?? []) {
        out[text] = resources.texts[SceneResources.TextKey(content.showing(text))]
      }
      return out
    }
    let images = structure.nodes.map { node in node.layer.image.flatMap { resources.images[$0.asset] } }
    painter = LayerPainter(structure: structure, texts: texts, images: images)
    // The sizes a layer has of itself: a path's geometric extent, the
    // measured text, the image's pixels over its scale; a stack's is its
    // laid-out content's; other shapes without one are empty.
    let base = structure.nodes.indices.map { n in
      let layer = structure.nodes[n].layer
      return ResolvedValues(layer, intrinsicSize: Self.intrinsicSize(of: layer, text: layer.text.flatMap { texts[n][$0.text] }, image: images[n]))
    }
    // A text layer that gives no size is as large as the text it shows.
    let textSizes = texts.map { $0.mapValues(\.size) }
    let byID = Dictionary(structure.nodes.indices.compactMap { n in structure.nodes[n].layer.id.map { ($0, n) } }, uniquingKeysWith: { a, _ in a })
    // An event that first sizes a stack starts from its laid-out size then.
    timeline = SceneTimeline(scene: scene) { layer, key, t, partial in
      guard key == .size, let n = layer.id.flatMap({ byID[$0] }) else { return base[0][key] }
      var tree = ResolveStage(structure: structure, timeline: partial, base: base, textSizes: textSizes).resolve(n, at: t, membership: .drawn(at: t))
      LayoutStage(structure: structure).layOut(&tree, at: t, animated: false)
      return tree.values[key]
    }
    resolver = ResolveStage(structure: structure, timeline: timeline, base: base, textSizes: textSizes)
    layout = LayoutStage(structure: structure, scene: scene, resolver: resolver)
  }

  /// A layer's size when it gives none (stacks: their laid-out size).
  static func intrinsicSize(of layer: Layer, text: TextLayout?, image: SceneImage?) -> Vector2 {
    switch layer.type {
    case .text: return text?.size ?? .zero
    case .image: return image?.size ?? .zero
    case .path:
      let b = layer.path?.path.bounds ?? .null
      return b.isNull ? .zero : Vector2(max(0, b.maxX), max(0, b.maxY))
    default: return .zero
    }
  }

  /// The scene's length: the file's `duration`, else the scene format's
  /// default (the latest end of any event's animation).
  public var duration: Double { scene.duration ?? timeline.defaultDuration }

  public var name: String { scene.name }
  public var defaultScale: Double { scene.scale }
  public var pointSize: Vector2 { scene.size }
  public var background: PremultipliedColor? { scene.background?.premultiplied }
  public var appearance: Appearance { scene.appearance }

  /// Pixel size at `scale` (the scene's when nil).
  public func pixelSize(scale: Double? = nil) -> (width: Int, height: Int) {
    let s = scale ?? scene.scale
    return (Int((scene.size.x * s).rounded(.up)), Int((scene.size.y * s).rounded(.up)))
  }

  /// The layer tree at t through the first two stages: resolved and laid out.
  func laidOut(at t: Double) -> ResolvedLayer {
    var tree = resolver.resolve(SceneStructure.root, at: t, membership: .drawn(at: t))
    layout.layOut(&tree, at: t, animated: true)
    layout.applyTransitions(&tree)
    return tree
  }

  /// The third stage: the scene's layers at t painted into `list`, its
  /// points mapped to pixels by `transform`.
  public func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int = 0) throws(RenderError) {
    var tree = laidOut(at: t)
    for i in tree.children.indices {
      painter.place(&tree.children[i], parent: transform)
      try painter.draw(tree.children[i], on: list)
    }
  }

  public var inputDigest: String {
    if let digest { return digest }
    var h = SHA256()
    h.update(String(describing: scene))
    return h.hex()
  }

  public func warnings(file: String) -> [SceneDiagnostic] {
    (scene.warnings(file: file) + resources.warnings).sorted { $0.location < $1.location }
  }

  /// A stack's laid-out size and its children's slots at t, in its own
  /// space (for tests and tools).
  func stackLayout(_ node: Int, at t: Double) -> LayoutStage.StackPlacement {
    layout.placement(node, at: t, membership: .drawn(at: t), animated: true, resolver: resolver)
  }

  /// The ids of the layers drawn at t, in drawing order (for tests and tools).
  public func visibleLayerIDs(at t: Double) -> [String] {
    var out: [String] = []
    func walk(_ layer: ResolvedLayer) {
      for child in layer.children {
        if let id = structure.nodes[child.node].layer.id { out.append(id) }
        walk(child)
      }
    }
    walk(resolver.resolve(SceneStructure.root, at: t, membership: .drawn(at: t)))
    return out
  }

  /// A scene's bytes decoded and validated, its images and texts loaded
  /// through the providers: every problem in the file or its resources as
  /// located errors.
  public init(
    decoding bytes: [UInt8], file: String, defaultName: String, images: some ImageProvider, text: some TextProvider
  ) throws(SceneErrors) {
    let scene = try SceneDecoder.decode(bytes, file: file, defaultName: defaultName)
    self.init(scene: scene, resources: try SceneResources.load(scene, file: file, images: images, text: text), inputDigest: SHA256.hex(bytes))
  }
}
