import Layout
import Primitives
import SceneModel
import Syntax
import Timing

/// Stage 2: stacks lay out their children, and transitions act.
///
/// A stack's size is its content's (plus padding) unless it gives one; its
/// present children take slots in order (a hidden child keeps none), and a
/// child leaving with a removal transition stays in the slot it had when it
/// was removed. A layout change caused by an animated event animates with
/// that event's animation, additively, as Core Animation's additive
/// animations do: each child is drawn at its new slot plus (old − new slot)
/// × (1 − progress) of every change still running, the stack's size alike.
/// For springs with the same parameters this is exactly a retarget that
/// keeps velocity (the spring equation is linear), and an interrupted layout
/// change never jumps.
struct LayoutStage {
  /// One animated layout change of a stack: an event's insertions and
  /// removals in it.
  struct LayoutAnimation: Sendable {
    var change: SceneStructure.Change
    /// Old minus new size of the stack.
    var sizeDelta: Vector2
    /// Child node → old minus new position.
    var deltas: [Int: Vector2]

    /// How much of the old layout is still showing at t.
    func weight(at t: Double) -> Double { t < change.at ? 0 : 1 - change.animationProgress(at: t) }
  }

  let structure: SceneStructure
  /// For each stack node, the animated layout changes of its children.
  private(set) var animations: [Int: [LayoutAnimation]] = [:]
  /// Where a removed stacked child stays during its removal transition: its
  /// slot at the moment it was removed, relative to its stack's anchor point.
  private(set) var removalSlots: [Int: Vector2] = [:]

  init(structure: SceneStructure) { self.structure = structure }

  /// Measures every layout change the scene's animated insertions and
  /// removals make: each stack's layout before and after each such event.
  init(structure: SceneStructure, scene: Scene, resolver: ResolveStage) {
    self.init(structure: structure)
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
        let before = placement(stack, at: at, membership: .afterEvent(k - 1), animated: false, resolver: resolver)
        let after = placement(stack, at: at, membership: .afterEvent(k), animated: false, resolver: resolver)
        let shown = placement(stack, at: at, membership: .afterEvent(k - 1), animated: true, resolver: resolver)
        // Slots relative to the stack's anchor point, which holds still
        // while the stack's frame grows or shrinks around it: an inserted
        // child (no delta) appears in its final place on screen, a removed
        // one stays where it was (docs/scene-format.md).
        let old = before.relativePositions, new = after.relativePositions, onScreen = shown.relativePositions
        var deltas: [Int: Vector2] = [:]
        for (child, slot) in old {
          if let now = new[child] {
            deltas[child] = slot - now
          } else if let shownSlot = onScreen[child] {
            removalSlots[child] = shownSlot
          }
        }
        // The event's animation, as the children's insertions and removals run it.
        let change = SceneStructure.Change(
          event: k, at: at, timing: scene.timeline[k].animation.map { AnimationTiming($0) }, transition: .identity)
        animations[stack, default: []].append(LayoutAnimation(change: change, sizeDelta: before.size - after.size, deltas: deltas))
      }
    }
  }

  /// A stack's size and its children's slots (child node → where its
  /// anchor sits in the stack's space).
  struct StackPlacement {
    var size: Vector2
    /// The stack's anchor: its top-left is its position − anchor × size.
    var anchor: Vector2
    var positions: [Int: Vector2]

    /// The slots relative to the stack's anchor point.
    var relativePositions: [Int: Vector2] { positions.mapValues { $0 - anchor * size } }
  }

  /// The placement of one stack at t with the given children.
  func placement(_ stack: Int, at t: Double, membership: Membership, animated: Bool, resolver: ResolveStage) -> StackPlacement {
    var tree = resolver.resolve(stack, at: t, membership: membership)
    return layOut(&tree, at: t, animated: animated)!
  }

  /// Lays out the tree under `layer` (post-order: nested stacks first):
  /// every stack that gives no size takes its laid-out one, and its present
  /// children their slots (a leaving one the slot it left). Returns the
  /// layer's own placement when it is a stack.
  @discardableResult
  func layOut(_ layer: inout ResolvedLayer, at t: Double, animated: Bool) -> StackPlacement? {
    for i in layer.children.indices { layOut(&layer.children[i], at: t, animated: animated) }
    let source = structure.nodes[layer.node].layer
    guard let stack = source.stack else { return nil }
    let present = layer.children.filter(\.isPresent)
    let leaves = present.map { child in
      LayoutNode(size: child.values[Properties.size], anchor: child.values[Properties.anchor], participatesInLayout: !child.values[Properties.hidden])
    }
    let explicit: Vector2? = layer.sizeFromLayout ? nil : layer.values[Properties.size]
    let kind: LayoutContainer.Kind = source.type == .vstack ? .vstack : source.type == .hstack ? .hstack : .zstack
    let result = LayoutNode(
      container: LayoutContainer(
        kind: kind, spacing: stack.spacing, alignment: stack.alignment, padding: stack.padding, explicitSize: explicit, children: leaves),
      anchor: layer.values[Properties.anchor]
    ).layout()
    var placement = StackPlacement(size: result.size, anchor: layer.values[Properties.anchor], positions: [:])
    for (child, slot) in zip(present, result.children) {
      if let p = slot.position { placement.positions[child.node] = Vector2(p.x, p.y) }
    }
    if animated, let running = animations[layer.node] {
      var relative = placement.relativePositions
      for animation in running {
        let w = animation.weight(at: t)
        guard w != 0 else { continue }
        if explicit == nil { placement.size = placement.size + animation.sizeDelta * w }
        for (child, delta) in animation.deltas where relative[child] != nil {
          relative[child] = relative[child]! + delta * w
        }
      }
      placement.positions = relative.mapValues { $0 + placement.anchor * placement.size }
    }
    if layer.sizeFromLayout { layer.values[Properties.size] = placement.size }
    for i in layer.children.indices {
      let child = layer.children[i].node
      if let slot = placement.positions[child] ?? removalSlots[child].map({ $0 + placement.anchor * placement.size }) {
        layer.children[i].values[Properties.position] = slot
      }
    }
    return placement
  }

  /// Applies the transitions acting on every layer of the tree, each on its
  /// laid-out values: a transition moves, fades, scales or blurs a layer
  /// without changing anyone's layout.
  func applyTransitions(_ layer: inout ResolvedLayer) {
    for (transition, p, insertion) in layer.transitions {
      for effect in transition.effects(p: p, insertion: insertion, size: layer.values[Properties.size]) {
        Self.apply(effect, to: &layer)
      }
    }
    for i in layer.children.indices { applyTransitions(&layer.children[i]) }
  }

  static func apply(_ effect: TransitionEffect, to layer: inout ResolvedLayer) {
    switch effect {
    case .opacity(let f): layer.values[Properties.opacity] = min(max(layer.values[Properties.opacity] * f, 0), 1)
    case .offset(let d): layer.values[Properties.offset] = layer.values[Properties.offset] + d
    case .blur(let b): layer.values[Properties.blur] = ResolvedValues.radius(layer.values[Properties.blur] + b)
    case .scale(let s, let anchor):
      let size = layer.values[Properties.size]
      let a = anchor * size
      layer.pre = layer.pre.concatenating(.translation(-a.x, -a.y)).concatenating(.scale(s.x, s.y)).concatenating(.translation(a.x, a.y))
    case .modifier(let active, let expressions, let identity, let p):
      applyModifier(active: active, expressions: expressions, identity: identity, p: p, to: &layer.values)
    }
  }

  /// `.modifier(active:identity:)` at p: an expression gives its property's
  /// value (both components of a point); other properties interpolate from
  /// the identity state (or the layer's own value) to the active state (or
  /// the layer's own value); paints of different shapes change halfway.
  static func applyModifier(
    active: PropertyValues, expressions: [PropertyKey: ProgressExpression], identity: PropertyValues, p: Double, to values: inout ResolvedValues
  ) {
    let keys = Set(active.keys + identity.keys + Array(expressions.keys)).sorted()
    for key in keys {
      let current = values[key]
      if let e = expressions[key] {
        let v = e.evaluate(p: p)
        switch current {
        case .point: values[key] = .point(Vector2(v, v))
        default: values[key] = .number(v)
        }
        continue
      }
      let from = identity[key] ?? current, to = active[key] ?? current
      switch (from, to) {
      case (.number(let a), .number(let b)): values[key] = .number(a + (b - a) * p)
      case (.point(let a), .point(let b)): values[key] = .point(a + (b - a) * p)
      case (.paint(let a), .paint(let b)): values[key] = .paint(a.isCompatible(with: b) ? a + (b - a) * p : (p < 0.5 ? a : b))
      default: values[key] = p < 0.5 ? from : to
      }
    }
    values.clampToDrawable()
  }
}
