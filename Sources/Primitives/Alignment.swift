/// Horizontal alignment of children across a `vstack` (and the horizontal half
/// of a `zstack`'s alignment), as SwiftUI's `HorizontalAlignment`.
///
/// The layout direction is always left-to-right: `leading` is the left edge.
public enum HorizontalAlignment: Sendable, Hashable, CaseIterable {
  case leading, center, trailing

  /// Where the guide sits across a width: 0 at the leading edge, ½ at the
  /// centre, 1 at the trailing edge.
  @inlinable public var fraction: Double {
    switch self {
    case .leading: 0
    case .center: 0.5
    case .trailing: 1
    }
  }

  /// The scene format's spelling (`"leading"`, `"center"`, `"trailing"`), or
  /// nil for any other string.
  public init?(named name: String) {
    switch name {
    case "leading": self = .leading
    case "center": self = .center
    case "trailing": self = .trailing
    default: return nil
    }
  }

  /// The scene format's spelling.
  public var name: String {
    switch self {
    case .leading: "leading"
    case .center: "center"
    case .trailing: "trailing"
    }
  }
}

/// Vertical alignment of children across an `hstack` (and the vertical half of
/// a `zstack`'s alignment), as SwiftUI's `VerticalAlignment`. y points down, so
/// `top` is the smallest y.
public enum VerticalAlignment: Sendable, Hashable, CaseIterable {
  case top, center, bottom

  /// Where the guide sits across a height: 0 at the top, ½ at the centre, 1 at
  /// the bottom.
  @inlinable public var fraction: Double {
    switch self {
    case .top: 0
    case .center: 0.5
    case .bottom: 1
    }
  }

  /// The scene format's spelling (`"top"`, `"center"`, `"bottom"`), or nil.
  public init?(named name: String) {
    switch name {
    case "top": self = .top
    case "center": self = .center
    case "bottom": self = .bottom
    default: return nil
    }
  }

  /// The scene format's spelling.
  public var name: String {
    switch self {
    case .top: "top"
    case .center: "center"
    case .bottom: "bottom"
    }
  }
}

/// A 2-D alignment, as SwiftUI's `Alignment`: a horizontal and a vertical
/// guide.
///
/// One type serves every stack, as in SwiftUI where `VStack(alignment:)` takes
/// the horizontal half and `HStack(alignment:)` the vertical half:
/// - a `vstack` uses only `horizontal` (so `.leading`, `.center`, `.trailing`
///   are the values to give it);
/// - an `hstack` uses only `vertical` (`.top`, `.center`, `.bottom`);
/// - a `zstack` uses both (`.topLeading`, `.top`, …, `.bottomTrailing`).
public struct Alignment: Sendable, Hashable, CustomStringConvertible {
  public var horizontal: HorizontalAlignment
  public var vertical: VerticalAlignment

  @inlinable public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
    self.horizontal = horizontal
    self.vertical = vertical
  }

  public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
  public static let top = Alignment(horizontal: .center, vertical: .top)
  public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
  public static let leading = Alignment(horizontal: .leading, vertical: .center)
  public static let center = Alignment(horizontal: .center, vertical: .center)
  public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
  public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
  public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
  public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

  /// The unit point of a box that the alignment names: (0, 0) top-leading,
  /// (½, ½) centre, (1, 1) bottom-trailing.
  @inlinable public var unitPoint: Vector2 {
    Vector2(horizontal.fraction, vertical.fraction)
  }

  /// SwiftUI's spelling of the nine standard alignments: `"topLeading"`,
  /// `"top"`, `"topTrailing"`, `"leading"`, `"center"`, `"trailing"`,
  /// `"bottomLeading"`, `"bottom"`, `"bottomTrailing"`; nil for any other
  /// string. This covers the scene format's vstack values (`leading`,
  /// `center`, `trailing`), hstack values (`top`, `center`, `bottom`) and
  /// zstack values alike.
  public init?(named name: String) {
    switch name {
    case "topLeading": self = .topLeading
    case "top": self = .top
    case "topTrailing": self = .topTrailing
    case "leading": self = .leading
    case "center": self = .center
    case "trailing": self = .trailing
    case "bottomLeading": self = .bottomLeading
    case "bottom": self = .bottom
    case "bottomTrailing": self = .bottomTrailing
    default: return nil
    }
  }

  /// SwiftUI's spelling (see `init(named:)`).
  public var name: String {
    switch (vertical, horizontal) {
    case (.center, .center): "center"
    case (.center, _): horizontal.name
    case (_, .center): vertical.name
    case (_, .leading): vertical.name + "Leading"
    case (_, .trailing): vertical.name + "Trailing"
    }
  }

  public var description: String { "." + name }

  /// The nine standard alignments, in the order the scene format lists
  /// them: the centre, the edges, then the corners.
  public static let allNamed: [Alignment] = [
    .center, .leading, .trailing, .top, .bottom, .topLeading, .topTrailing, .bottomLeading, .bottomTrailing,
  ]
}
