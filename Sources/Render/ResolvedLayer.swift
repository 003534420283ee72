import Primitives
import SceneModel
import Timing

/// A layer's properties at one moment: every property of the registry
/// (`Properties`), from the timeline, else the layer's own value, else its
/// default (the intrinsic size included).
public struct ResolvedValues: Sendable {
  /// By `PropertyKey.index`.
  private var storage: [PropertyValue]

  /// The layer's values before any event: its own, else its defaults, its
  /// size its own, else `intrinsicSize`.
  init(_ layer: Layer, intrinsicSize: Vector2) {
    storage = PropertyKey.allCases.map { key in
      layer.properties[key] ?? Properties.property(key).defaultValue(for: layer) ?? .point(intrinsicSize)
    }
  }

  public subscript<V>(_ property: Property<V>) -> V {
    get { V.unwrap(storage[property.key.index])! }
    set { storage[property.key.index] = V.wrap(newValue) }
  }

  public subscript(_ key: PropertyKey) -> PropertyValue {
    get { storage[key.index] }
    set { storage[key.index] = newValue }
  }

  /// Clamps what an animation's overshoot (or a transition's expression)
  /// may push past what can be drawn: opacity into 0…1, corner radius to 0
  /// or more, blur, shadow and backdrop radii into their domain (0…100
  /// points: a blur's work grows with its radius), saturation into 0…10.
  mutating func clampToDrawable() {
    self[Properties.opacity] = min(max(self[Properties.opacity], 0), 1)
    self[Properties.cornerRadius] = max(0, self[Properties.cornerRadius])
    self[Properties.blur] = Self.radius(self[Properties.blur])
    self[Properties.shadowRadius] = Self.radius(self[Properties.shadowRadius])
    self[Properties.backdropBlur] = Self.radius(self[Properties.backdropBlur])
    self[Properties.backdropSaturation] = min(max(self[Properties.backdropSaturation], 0), SceneLimits.maximumSaturation)
  }

  /// A blur or shadow radius held in 0…`SceneLimits.maximumRadius`.
  static func radius(_ r: Double) -> Double { min(max(r, 0), SceneLimits.maximumRadius) }
}

/// A layer of the tree at one moment, as the three stages fill it in:
/// resolve (its values), layout (a stack's size and its children's slots,
/// then the transitions acting on it), paint (its transform to device
/// pixels and the device box of it and its descendants).
struct ResolvedLayer {
  /// The layer's node in `SceneStructure`.
  let node: Int
  var values: ResolvedValues
  /// A stack that gives no size of its own takes its laid-out size.
  let sizeFromLayout: Bool
  /// Part of its container's state (it takes a slot in a stack), rather
  /// than leaving with its removal transition running.
  let isPresent: Bool
  /// The scene gives its stroke width (written, or changed by an event):
  /// the paint stage grows its device box by half of it.
  let givesStrokeWidth: Bool
  /// The insertion and removal transitions acting on it, with their progress.
  let transitions: [(transition: Transition, p: Double, insertion: Bool)]
  var children: [ResolvedLayer]
  /// Applied in the layer's own space before its own transform (a
  /// transition's scale around its anchor).
  var pre: AffineTransform = .identity
  /// Its own space to device pixels (the paint stage's).
  var world: AffineTransform = .identity
  /// A generous device-space box around it and its descendants (the paint
  /// stage's, bottom-up), for sizing offscreen layers: where it is drawn,
  /// turned by its `rotation3D` when it has one.
  var deviceBounds = Rect.null
  /// The same before its `rotation3D` turns it: where it is drawn flat.
  var flatBounds = Rect.null
  /// Its `rotation3D` as a map of device pixels (drawn flat, then mapped);
  /// nil when it does not turn.
  var projection: Homography?
  /// While a change of its text shows: the text before and the change's
  /// progress (0 → 1).
  var textChange: (from: String, progress: Double, box: Vector2?)?

  /// Moves it and its descendants by (dx, dy) device pixels.
  mutating func shift(_ dx: Double, _ dy: Double) {
    let by = AffineTransform.translation(dx, dy)
    world = world.concatenating(by)
    deviceBounds = deviceBounds.isNull ? deviceBounds : by.apply(deviceBounds)
    flatBounds = flatBounds.isNull ? flatBounds : by.apply(flatBounds)
    if let p = projection { projection = Homography(by.inverted!).concatenating(p).concatenating(Homography(by)) }
    for i in children.indices { children[i].shift(dx, dy) }
  }
}

/// Which children of a container are in the tree.
enum Membership {
  /// The children drawn at t: present, or leaving with their removal
  /// transition running (these keep the slot they left).
  case drawn(at: Double)
  /// The children present once events 0...k have happened (k = −1: none),
  /// for measuring the layouts an event changes between.
  case afterEvent(Int)

  func includes(_ entry: SceneStructure.Entry) -> Bool {
    switch self {
    case .drawn(let t): entry.isVisible(at: t)
    case .afterEvent(let k): entry.isPresent(afterEvent: k)
    }
  }
}

/// Stage 1: the scene at time t as a tree of layers with every property's
/// value. A pure function of t.
struct ResolveStage {
  let structure: SceneStructure
  let timeline: SceneTimeline
  /// Each node's values before any event.
  let base: [ResolvedValues]
  /// Each node gives its stroke width (written, or changed by an event).
  let givesStrokeWidth: [Bool]
  /// Each text layer's measured size by the text it shows.
  let textSizes: [[String: Vector2]]

  init(structure: SceneStructure, timeline: SceneTimeline, base: [ResolvedValues], textSizes: [[String: Vector2]]) {
    self.structure = structure
    self.timeline = timeline
    self.base = base
    self.textSizes = textSizes
    givesStrokeWidth = structure.nodes.map { node in
      node.layer.properties[Properties.strokeWidth] != nil || timeline.track(.strokeWidth, of: node.layer.id) != nil
    }
  }

  /// The tree under `node` at t.
  func resolve(
    _ node: Int, at t: Double, membership: Membership, isPresent: Bool = true,
    transitions: [(transition: Transition, p: Double, insertion: Bool)] = []
  ) -> ResolvedLayer {
    let layer = structure.nodes[node].layer
    var values = base[node]
    var sizeAnimated = false
    if let id = layer.id, let tracks = timeline.tracks[id] {
      for (key, track) in tracks where t >= track.start {
        values[key] = track.sample(at: t).value
        if key == .size { sizeAnimated = true }
      }
    }
    values.clampToDrawable()
    // A text that changes: its box is the shown text's, unless the layer
    // gives a size; the change shows while its animation runs.
    var textChange: (from: String, progress: Double, box: Vector2?)?
    if let track = timeline.track(.text, of: layer.id) {
      let shown = values[Properties.text]
      let sized = layer.properties[Properties.size] == nil && !sizeAnimated
      if sized, let size = textSizes[node][shown] { values[Properties.size] = size }
      if let change = track.transition(at: t), case .text(let from) = change.from {
        // The text before keeps its own box when the layer's is the text's.
        textChange = (from, change.progress, sized ? textSizes[node][from] : nil)
      }
    }
    let children = structure.nodes[node].children.compactMap { entry -> ResolvedLayer? in
      guard membership.includes(entry) else { return nil }
      guard case .drawn(let t) = membership else { return resolve(entry.node, at: t, membership: membership) }
      return resolve(entry.node, at: t, membership: membership, isPresent: entry.isPresent(at: t), transitions: entry.transitions(at: t))
    }
    var resolved = ResolvedLayer(
      node: node, values: values, sizeFromLayout: layer.type.isStack && layer.properties[Properties.size] == nil && !sizeAnimated,
      isPresent: isPresent,
      givesStrokeWidth: givesStrokeWidth[node],
      transitions: transitions, children: children)
    resolved.textChange = textChange
    return resolved
  }
}
