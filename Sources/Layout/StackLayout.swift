import Primitives

/// The layout of one node and, recursively, of its children: the same shape as
/// the `LayoutNode` tree it came from (`children[i]` is the result for the
/// node's `children[i]`, participating or not).
public struct LayoutResult: Sendable, Hashable {
  /// The node's layout size, in points (see `LayoutNode.size`).
  public var size: Vector2
  /// The node's anchor, copied from the node.
  public var anchor: Vector2
  /// Where the node's anchor sits in its parent stack's own space (origin at
  /// the stack's top-left, y down), when a stack placed it. nil for the root,
  /// for children of a `group` or a leaf, and for children that do not
  /// participate in layout: the caller keeps the layer's own position.
  public var position: Point?
  /// The children's layouts, one per child, in order.
  public var children: [LayoutResult]

  public init(size: Vector2, anchor: Vector2, position: Point?, children: [LayoutResult]) {
    self.size = size
    self.anchor = anchor
    self.position = position
    self.children = children
  }

  /// The node's frame (its unrotated, unscaled bounds) in the parent stack's
  /// space, when a stack placed it: origin `position − anchor ⊙ size`.
  public var frame: Rect? {
    guard let position else { return nil }
    return Rect(origin: Point(position.x - anchor.x * size.x, position.y - anchor.y * size.y), size: size)
  }
}

extension LayoutNode {
  /// Lays out the subtree rooted at this node, bottom-up: every container's
  /// children are measured (nested stacks first) before the container places
  /// them. The root's own `position` is nil: the caller places the root.
  ///
  /// Placement, as SwiftUI's stacks do with fixed-size children:
  /// - Only children with `participatesInLayout` count. Each of them takes a
  ///   slot and is separated from its neighbours by `spacing` even when its
  ///   size is zero (SwiftUI gives every non-empty view a slot, a
  ///   `Color.clear.frame(width: 0, height: 0)` included); n participating
  ///   children contribute n − 1 spacings.
  /// - `vstack`: content width = the widest child; content height = the sum
  ///   of heights plus the spacings. Children go top to bottom; each one's
  ///   frame sits across the content width by the horizontal alignment
  ///   (leading: at the left, centre: centred, trailing: at the right).
  /// - `hstack`: the same along x, aligned across the content height by the
  ///   vertical alignment.
  /// - `zstack`: content size = the largest width × the largest height; every
  ///   child's frame is aligned in that box by both halves of the alignment
  ///   (centre: all children share the box's centre).
  /// - The stack's size is content + padding, or `explicitSize` when given. The
  ///   padded content box is centred in the stack's bounds (SwiftUI's
  ///   `.frame` default alignment), so with an explicit size the content keeps
  ///   its own alignment inside the content box, and the box is centred.
  /// - A content length made negative by negative spacing is clamped to zero
  ///   for the stack's size (children keep their overlapping positions); so
  ///   is a size made negative by negative padding.
  /// - `group`: no placement; size `explicitSize` or zero.
  public func layout() -> LayoutResult {
    switch content {
    case .leaf(let size):
      return LayoutResult(size: size, anchor: anchor, position: nil, children: [])
    case .container(let container):
      var results = container.children.map { $0.layout() }
      let size = container.place(&results)
      return LayoutResult(size: size, anchor: anchor, position: nil, children: results)
    }
  }
}

extension LayoutContainer {
  /// Places already measured children, setting `position` on each
  /// participating child's result of a stack, and returns the container's
  /// size. `results[i]` belongs to `children[i]`.
  func place(_ results: inout [LayoutResult]) -> Vector2 {
    let placed = results.indices.filter { children[$0].participatesInLayout }
    let sizes = placed.map { results[$0].size }

    // Content size, before padding.
    let content: Vector2
    switch kind {
    case .group:
      return explicitSize ?? .zero
    case .vstack:
      let gaps = spacing * Double(max(0, sizes.count - 1))
      content = Vector2(
        sizes.map(\.x).max() ?? 0,
        max(0, sizes.reduce(0) { $0 + $1.y } + gaps))
    case .hstack:
      let gaps = spacing * Double(max(0, sizes.count - 1))
      content = Vector2(
        max(0, sizes.reduce(0) { $0 + $1.x } + gaps),
        sizes.map(\.y).max() ?? 0)
    case .zstack:
      content = Vector2(sizes.map(\.x).max() ?? 0, sizes.map(\.y).max() ?? 0)
    }

    let padded = Vector2(max(0, content.x + padding.horizontal), max(0, content.y + padding.vertical))
    let size = explicitSize ?? padded
    // The padded box is centred in the bounds (a no-op without an explicit
    // size); the content box starts inside its padding.
    let origin = Point(
      (size.x - padded.x) / 2 + padding.leading,
      (size.y - padded.y) / 2 + padding.top)

    let h = alignment.horizontal.fraction
    let v = alignment.vertical.fraction
    var cursor = 0.0  // along the stack's axis, from the content box's start
    for (i, childSize) in zip(placed, sizes) {
      // The child's frame origin in the stack's space.
      let frameOrigin: Point
      switch kind {
      case .group:
        return size  // unreachable: handled above
      case .vstack:
        frameOrigin = Point(origin.x + (content.x - childSize.x) * h, origin.y + cursor)
        cursor += childSize.y + spacing
      case .hstack:
        frameOrigin = Point(origin.x + cursor, origin.y + (content.y - childSize.y) * v)
        cursor += childSize.x + spacing
      case .zstack:
        frameOrigin = Point(
          origin.x + (content.x - childSize.x) * h,
          origin.y + (content.y - childSize.y) * v)
      }
      let anchor = results[i].anchor
      results[i].position = Point(frameOrigin.x + anchor.x * childSize.x, frameOrigin.y + anchor.y * childSize.y)
    }
    return size
  }
}
