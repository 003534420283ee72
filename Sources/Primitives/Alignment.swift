/// Horizontal alignment of children across a `vstack` (and the horizontal half
/// of a `zstack`'s alignment), as SwiftUI's `HorizontalAlignment`.
///
/// The layout direction is always left-to-right: `leading` is the left edge.
/// Its raw value is the scene format's spelling.
public enum HorizontalAlignment: String, Sendable, Hashable, CaseIterable {
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
}

/// Vertical alignment of children across an `hstack` (and the vertical half of
/// a `zstack`'s alignment), as SwiftUI's `VerticalAlignment`. y points down, so
/// `top` is the smallest y.
/// Its raw value is the scene format's spelling.
public enum VerticalAlignment: String, Sendable, Hashable, CaseIterable {
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
    guard let named = Self.allNamed.first(where: { $0.name == name }) else { return nil }
    self = named
  }

  /// SwiftUI's spelling (see `init(named:)`).
  public var name: String {
    switch (vertical, horizontal) {
    case (.center, .center): "center"
    case (.center, _): horizontal.rawValue
    case (_, .center): vertical.rawValue
    case (_, .leading): vertical.rawValue + "Leading"
    case (_, .trailing): vertical.rawValue + "Trailing"
    }
  }

  public var description: String { "." + name }

  /// The nine standard alignments, in the order the scene format lists
  /// them: the centre, the edges, then the corners.
  public static let allNamed: [Alignment] = [
    .center, .leading, .trailing, .top, .bottom, .topLeading, .topTrailing, .bottomLeading, .bottomTrailing,
  ]
}
