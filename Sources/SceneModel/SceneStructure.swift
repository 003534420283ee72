import Primitives
import Syntax
import Timing

/// The layer tree over time: which children every container has at each
/// moment, as the timeline's `insert` and `remove` change it, and where
/// each of those changes stands in its transition.
///
/// Every layer of the scene and every layer an event inserts is one node;
/// `nodes[0]` is the canvas, whose children are the top-level layers. A
/// container's children are entries that remember when they arrived and
/// when they left, so the tree at any time t is a pure function of t.
public struct SceneStructure: Sendable {
  /// One `insert` or `remove`, as it affects one child.
  public struct Change: Sendable {
    /// Index of the event in the scene's (time-ordered) timeline.
    public var event: Int
    public var at: Double
    /// The event's animation for this move; nil when the change is immediate.
    public var timing: AnimationTiming?
    public var transition: Transition

    public init(event: Int, at: Double, timing: AnimationTiming?, transition: Transition) {
      self.event = event; self.at = at; self.timing = timing; self.transition = transition
    }

    /// When the transition is over (the change itself when immediate).
    public var end: Double { at + (timing?.renderingDuration ?? 0) }

    /// The event's animation progress at t: 0 at `at`, 1 when done (a
    /// spring may overshoot).
    public func animationProgress(at t: Double) -> Double {
      guard let timing, t < end || timing.animation.spring != nil else { return 1 }
      let p = timing.progress(at: t - at)
      return p.isComplete ? 1 : p.progress
    }
  }

  /// A child of a container.
  public struct Entry: Sendable {
    public var node: Int
    /// nil: a child from the start.
    public var inserted: Change?
    public var removed: Change?

    /// Whether the child is part of the container's state at t, so that it
    /// takes a slot in layout: inserted at or before t, not yet removed.
    public func isPresent(at t: Double) -> Bool {
      (inserted.map { $0.at <= t } ?? true) && !(removed.map { $0.at <= t } ?? false)
    }

    /// The same once events `0...event` have happened (`event` −1: none).
    public func isPresent(afterEvent event: Int) -> Bool {
      (inserted.map { $0.event <= event } ?? true) && !(removed.map { $0.event <= event } ?? false)
    }

    /// Whether the child is drawn at t: present, or removed with its
    /// removal transition still running.
    public func isVisible(at t: Double) -> Bool {
      guard inserted.map({ $0.at <= t }) ?? true else { return false }
      guard let removed, removed.at <= t else { return true }
      return removed.timing != nil && t < removed.end
    }

    /// The transitions acting on the child at t, each with its progress p
    /// (0: identity, 1: active) and whether it is the insertion.
    public func transitions(at t: Double) -> [(transition: Transition, p: Double, insertion: Bool)] {
      var out: [(Transition, Double, Bool)] = []
      if let inserted, inserted.timing != nil, inserted.at <= t, t < inserted.end {
        out.append((inserted.transition, 1 - inserted.animationProgress(at: t), true))
      }
      if let removed, removed.timing != nil, removed.at <= t, t < removed.end {
        out.append((removed.transition, removed.animationProgress(at: t), false))
      }
      return out
    }
  }

  public struct Node: Sendable {
    /// The layer (its `children` are the initial ones; `children` below is
    /// the truth over time).
    public var layer: Layer
    public var children: [Entry]
    /// The container holding this node (nil for the canvas).
    public var parent: Int?
  }

  public private(set) var nodes: [Node]

  /// A removal of a layer that is not in the scene at that moment, or an
  /// insertion into a container that is not: the decoder reports these.
  public struct Problem: Sendable {
    public var message: String
    public var location: SourceLocation
    public var path: JSONPath
  }
  public private(set) var problems: [Problem] = []

  /// The canvas: the root of the tree.
  public static let root = 0
  /// Every layer's node by id, inserted ones included.
  public private(set) var byID: [String: Int] = [:]

  /// Whether the layer `id` is a stack's child (the stack places it).
  public func isStacked(_ id: String) -> Bool {
    guard let n = byID[id], let parent = nodes[n].parent else { return false }
    return nodes[parent].layer.type.isStack
  }

  public init(scene: Scene) {
    var canvas = Layer(id: nil, type: .group, location: SourceLocation(line: 1, column: 1, offset: 0))
    canvas.children = scene.layers
    nodes = [Node(layer: canvas, children: [], parent: nil)]
    let rootChildren = scene.layers.map { add($0, parent: Self.root) }
    nodes[Self.root].children = rootChildren.map { Entry(node: $0) }

    // When each inserted id first arrives, and when each id left the scene:
    // for the problems' explanations.
    var insertedAt: [String: Double] = [:]
    for event in scene.timeline {
      for insertion in event.insert { for id in Self.ids(insertion.layer) { insertedAt[id] = insertedAt[id] ?? event.at } }
    }
    var removedAt: [String: Double] = [:]
    func why(_ id: String) -> String {
      removedAt[id].map { "it was removed at \(formatNumber($0)) s" } ?? insertedAt[id].map { "it is inserted at \(formatNumber($0)) s" }
        ?? "it is not in the scene"
    }

    for (k, event) in scene.timeline.enumerated() {
      let timing = event.animation.map { AnimationTiming($0) }
      // Removals first, so that an insertion's index counts the children
      // that remain: it is the new child's index in the resulting list.
      for removal in event.remove {
        // An id no layer has is the decoder's to report.
        guard byID[removal.id] != nil || insertedAt[removal.id] != nil else { continue }
        guard let n = byID[removal.id], isInScene(n, afterEvent: k), let parent = nodes[n].parent,
          let e = nodes[parent].children.firstIndex(where: { $0.node == n })
        else {
          problems.append(
            Problem(
              message: "\(Excerpt.quoted(removal.id)) cannot be removed at \(formatNumber(event.at)) s: \(why(removal.id))",
              location: removal.idLocation,
              path: removal.idPath))
          continue
        }
        nodes[parent].children[e].removed = Change(event: k, at: event.at, timing: timing, transition: removal.transition)
        for id in Self.ids(nodes[n].layer) { removedAt[id] = event.at }
      }
      for insertion in event.insert {
        guard let parent = byID[insertion.into] else { continue }
        if !isInScene(parent, afterEvent: k) {
          problems.append(
            Problem(
              message: "cannot insert into \(Excerpt.quoted(insertion.into)) at \(formatNumber(event.at)) s: \(why(insertion.into))",
              location: insertion.intoLocation, path: insertion.intoPath))
        }
        let n = add(insertion.layer, parent: parent)
        let entry = Entry(node: n, inserted: Change(event: k, at: event.at, timing: timing, transition: insertion.transition))
        let present = nodes[parent].children.indices.filter { nodes[parent].children[$0].isPresent(afterEvent: k) }
        if let index = insertion.index, index.value > present.count {
          problems.append(
            Problem(
              message:
                "index \(index.value) is past the end of \(Excerpt.quoted(insertion.into)), which has \(present.count) \(present.count == 1 ? "child" : "children") at \(formatNumber(event.at)) s (an index is 0…\(present.count))",
              location: index.location, path: index.path))
        }
        if let index = insertion.index?.value, index < present.count {
          nodes[parent].children.insert(entry, at: present[index])
        } else {
          nodes[parent].children.append(entry)
        }
      }
    }
  }

  /// Whether a node and all its ancestors are present once events 0...k
  /// have happened (the canvas always is).
  func isInScene(_ n: Int, afterEvent k: Int) -> Bool {
    var node = n
    while let parent = nodes[node].parent {
      guard let entry = nodes[parent].children.first(where: { $0.node == node }), entry.isPresent(afterEvent: k) else { return false }
      node = parent
    }
    return true
  }

  /// A layer's id and its descendants' (as first written).
  static func ids(_ layer: Layer) -> [String] { (layer.id.map { [$0] } ?? []) + layer.children.flatMap(ids) }

  /// Adds a layer and its initial children as nodes; returns its index.
  private mutating func add(_ layer: Layer, parent: Int) -> Int {
    let n = nodes.count
    nodes.append(Node(layer: layer, children: [], parent: parent))
    if let id = layer.id { byID[id] = n }
    let children = layer.children.map { add($0, parent: n) }
    nodes[n].children = children.map { Entry(node: $0) }
    return n
  }
}

/// One elementary effect of a transition at progress p on a layer.
public enum TransitionEffect: Sendable {
  /// Multiplies the layer's opacity.
  case opacity(Double)
  /// Scales the layer around the unit point `anchor` of its bounds.
  case scale(Vector2, anchor: Vector2)
  /// Adds to the layer's offset, in points.
  case offset(Vector2)
  /// Adds to the layer's blur radius, in points.
  case blur(Double)
  /// A custom modifier's two states at progress p.
  case modifier(active: PropertyValues, expressions: [PropertyKey: ProgressExpression], identity: PropertyValues, p: Double)
}

extension Transition {
  /// The effects of the transition at progress `p` (0: identity, 1:
  /// active) on a layer of `size`, entering (`insertion`) or leaving.
  public func effects(p: Double, insertion: Bool, size: Vector2) -> [TransitionEffect] {
    func edgeOffset(_ edge: Edge) -> Vector2 {
      switch edge {
      case .leading: Vector2(-size.x * p, 0)
      case .trailing: Vector2(size.x * p, 0)
      case .top: Vector2(0, -size.y * p)
      case .bottom: Vector2(0, size.y * p)
      }
    }
    switch self {
    case .identity: return []
    case .opacity: return [.opacity(1 - p)]
    case .scale(let s, let anchor):
      let k = 1 + (s - 1) * p
      return [.scale(Vector2(k, k), anchor: anchor)]
    case .slide: return [.offset(edgeOffset(insertion ? .leading : .trailing))]
    case .move(let edge): return [.offset(edgeOffset(edge))]
    case .offset(let x, let y): return [.offset(Vector2(x * p, y * p))]
    case .push(let edge):
      let opposite: [Edge: Edge] = [.leading: .trailing, .trailing: .leading, .top: .bottom, .bottom: .top]
      return [.offset(edgeOffset(insertion ? edge : opposite[edge]!)), .opacity(1 - p)]
    case .blur(let radius): return [.blur(radius * p)]
    case .asymmetric(let i, let r): return (insertion ? i : r).effects(p: p, insertion: insertion, size: size)
    case .combined(let parts): return parts.flatMap { $0.effects(p: p, insertion: insertion, size: size) }
    case .modifier(let active, let expressions, let identity):
      return [.modifier(active: active, expressions: expressions, identity: identity, p: p)]
    }
  }
}
