import Primitives

/// One node of the layout tree: SwiftUI-style stack layout (`VStack`, `HStack`,
/// `ZStack`) over a tree of its own, independent of the scene model.
///
/// # The model
///
/// The caller (the scene model) mirrors its layer tree as `LayoutNode`s:
/// every layer becomes a node, and a container layer (`group`, `vstack`,
/// `hstack`, `zstack`) becomes a node whose `content` is a `LayoutContainer`
/// holding the child nodes in the layers' order. `layout()` then returns a
/// `LayoutResult` tree of the same shape with every node's size and, for each
/// child placed by a stack, its `position`.
///
/// # Coordinates
///
/// As in the scene format: a layer's children live in the layer's own space,
/// whose origin is the top-left corner of its bounds, y pointing down; a layer
/// maps into its parent as
/// `p_parent = position + offset + R·S·(p_local − anchor ⊙ size)`.
/// The layout computes `position` (where the child's anchor sits, in the
/// stack's own space) from the child's frame: `position = frame.origin +
/// anchor ⊙ size`. So a child whose anchor is not the centre lands in the same
/// slot as a centred one; only the point that `position` names differs.
///
/// # Notes for the caller
///
/// - `size` is the *layout* size: the layer's explicit `size` or its intrinsic
///   size. Scale and rotation never change it (as in SwiftUI, layout uses the
///   frame, not the transformed bounds); neither does `offset`, which the
///   caller adds after layout (a stacked child's `offset` still applies).
/// - A stacked child's own `position` is replaced by the computed one. A child
///   of a `group`, or of anything that is not a stack, keeps its own position:
///   its result has `position == nil`.
/// - Set `participatesInLayout = false` for a child that must not take a slot:
///   a removed child whose transition has finished, or one that has not been
///   inserted yet. Whether a `hidden` layer keeps its slot is the caller's
///   choice: SwiftUI's `.hidden()` keeps the space (leave the flag on), while a
///   view removed by an `if` does not (turn it off). A non-participating
///   child gets `position == nil`, takes no slot and no spacing, and does not
///   count toward the stack's size; its own subtree is still laid out, so a
///   removed stack can keep drawing its children during its transition.
/// - To animate a layout change, lay out the old and the new state and
///   animate each child's position (and each stack's size) between the two.
/// - Positions are not rounded to the pixel grid (SwiftUI rounds them; here
///   fractional positions are kept so that animations stay smooth).
public struct LayoutNode: Sendable, Hashable {
  /// What a node is for layout: a leaf with a size, or a container of children.
  public enum Content: Sendable, Hashable {
    /// A node that lays out nothing: its size is resolved by the caller (the
    /// layer's explicit size or its intrinsic size), in points.
    case leaf(size: Vector2)
    /// A container; its size is its explicit size, or what its layout gives.
    case container(LayoutContainer)
  }

  /// A leaf with its size, or a container.
  public var content: Content
  /// The unit point of the bounds that `position` names: (0, 0) top-left,
  /// (½, ½) centre (the default), (1, 1) bottom-right. Values outside 0…1 are
  /// allowed and name points outside the bounds.
  public var anchor: Vector2
  /// Whether the node takes a slot in its parent stack. See the type's notes.
  public var participatesInLayout: Bool

  /// A leaf node of the given size.
  public init(size: Vector2, anchor: Vector2 = Vector2(0.5, 0.5), participatesInLayout: Bool = true) {
    self.content = .leaf(size: size)
    self.anchor = anchor
    self.participatesInLayout = participatesInLayout
  }

  /// A container node.
  public init(container: LayoutContainer, anchor: Vector2 = Vector2(0.5, 0.5), participatesInLayout: Bool = true) {
    self.content = .container(container)
    self.anchor = anchor
    self.participatesInLayout = participatesInLayout
  }

  /// A `vstack` node: children in a column, top to bottom. `alignment` uses
  /// only its horizontal half (`.leading`, `.center`, `.trailing`).
  public static func vstack(
    spacing: Double = LayoutContainer.defaultSpacing, alignment: Alignment = .center,
    padding: EdgeInsets = .zero, size: Vector2? = nil,
    anchor: Vector2 = Vector2(0.5, 0.5), participatesInLayout: Bool = true,
    _ children: [LayoutNode]
  ) -> LayoutNode {
    stack(.vstack, spacing, alignment, padding, size, anchor, participatesInLayout, children)
  }

  /// An `hstack` node: children in a row, leading to trailing (left to right).
  /// `alignment` uses only its vertical half (`.top`, `.center`, `.bottom`).
  public static func hstack(
    spacing: Double = LayoutContainer.defaultSpacing, alignment: Alignment = .center,
    padding: EdgeInsets = .zero, size: Vector2? = nil,
    anchor: Vector2 = Vector2(0.5, 0.5), participatesInLayout: Bool = true,
    _ children: [LayoutNode]
  ) -> LayoutNode {
    stack(.hstack, spacing, alignment, padding, size, anchor, participatesInLayout, children)
  }

  private static func stack(
    _ kind: LayoutContainer.Kind, _ spacing: Double, _ alignment: Alignment, _ padding: EdgeInsets, _ size: Vector2?,
    _ anchor: Vector2, _ participatesInLayout: Bool, _ children: [LayoutNode]
  ) -> LayoutNode {
    LayoutNode(
      container: LayoutContainer(
        kind: kind, spacing: spacing, alignment: alignment, padding: padding, explicitSize: size, children: children),
      anchor: anchor, participatesInLayout: participatesInLayout)
  }

  /// A `zstack` node: children on top of each other, aligned by `alignment`.
  public static func zstack(
    alignment: Alignment = .center, padding: EdgeInsets = .zero, size: Vector2? = nil,
    anchor: Vector2 = Vector2(0.5, 0.5), participatesInLayout: Bool = true,
    _ children: [LayoutNode]
  ) -> LayoutNode {
    LayoutNode(
      container: LayoutContainer(
        kind: .zstack, alignment: alignment, padding: padding, explicitSize: size, children: children),
      anchor: anchor, participatesInLayout: participatesInLayout)
  }

  /// A `group` node: a container with no layout of its own. Its size is `size`
  /// (the scene format's default for a group is [0, 0]); its children keep
  /// their own positions.
  public static func group(
    size: Vector2 = .zero, anchor: Vector2 = Vector2(0.5, 0.5), participatesInLayout: Bool = true,
    _ children: [LayoutNode]
  ) -> LayoutNode {
    LayoutNode(
      container: LayoutContainer(kind: .group, explicitSize: size, children: children),
      anchor: anchor, participatesInLayout: participatesInLayout)
  }

  /// The node's layout size: a leaf's size; a container's explicit size, or
  /// for a stack without one its content's size plus padding (computed
  /// bottom-up through nested stacks), or zero for a group without one.
  ///
  /// This walks the subtree; to lay out a whole tree use `layout()`, which
  /// measures every node once.
  public var size: Vector2 { layout().size }

  /// The container, or nil for a leaf.
  public var container: LayoutContainer? {
    if case .container(let c) = content { return c }
    return nil
  }

  /// The children of a container; empty for a leaf.
  public var children: [LayoutNode] { container?.children ?? [] }
}

/// A container node's parameters and children.
public struct LayoutContainer: Sendable, Hashable {
  /// How a container arranges its children.
  public enum Kind: Sendable, Hashable, CaseIterable {
    /// No layout (the scene's `group`): children keep their own positions. This
    /// is the "none" kind; it is not spelled `.none` so that it never reads as
    /// `Optional.none`.
    case group
    /// A column, top to bottom (SwiftUI's `VStack`).
    case vstack
    /// A row, leading to trailing (SwiftUI's `HStack`).
    case hstack
    /// Children on top of one another, sharing the stack's centre or another
    /// alignment point (SwiftUI's `ZStack`).
    case zstack
  }

  /// The scene format's default spacing between stacked children, in points.
  /// (SwiftUI's default spacing depends on the adjacent views; the scene format
  /// fixes it at 8.)
  public static let defaultSpacing = defaultStackSpacing

  public var kind: Kind
  /// Space between adjacent participating children along the stack's axis, in
  /// points. Ignored by `zstack` and `group`. Zero butts children against each
  /// other; negative values overlap them (allowed, as in SwiftUI).
  public var spacing: Double
  /// How children are aligned across the stack (see `Alignment`): a `vstack`
  /// uses the horizontal half, an `hstack` the vertical half, a `zstack` both.
  /// Ignored by `group`.
  public var alignment: Alignment
  /// Space around the content, inside the stack's bounds. Ignored by `group`.
  public var padding: EdgeInsets
  /// The stack's size when given (the layer's `size`), which then replaces
  /// content + padding. As SwiftUI's `.padding(…).frame(width:height:)` does,
  /// the padded content box is centred in this size, whether larger or
  /// smaller (it then overflows equally on both sides). For a group, its size
  /// (nil means zero).
  public var explicitSize: Vector2?
  /// All children, in order, participating or not.
  public var children: [LayoutNode]

  public init(
    kind: Kind, spacing: Double = LayoutContainer.defaultSpacing, alignment: Alignment = .center,
    padding: EdgeInsets = .zero, explicitSize: Vector2? = nil, children: [LayoutNode] = []
  ) {
    self.kind = kind
    self.spacing = spacing
    self.alignment = alignment
    self.padding = padding
    self.explicitSize = explicitSize
    self.children = children
  }
}
