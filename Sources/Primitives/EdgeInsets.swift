/// Insets on the four edges, in points, as SwiftUI's `EdgeInsets`. Leading is
/// the left edge (left-to-right layout).
public struct EdgeInsets: Sendable, Hashable, CustomStringConvertible {
  public var top: Double
  public var leading: Double
  public var bottom: Double
  public var trailing: Double

  /// The scene format's four-value padding, `[top, leading, bottom, trailing]`.
  @inlinable public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// The scene format's one-number padding: the same inset on every edge.
  @inlinable public init(_ all: Double) {
    self.init(top: all, leading: all, bottom: all, trailing: all)
  }

  public static let zero = EdgeInsets(0)

  /// leading + trailing.
  @inlinable public var horizontal: Double { leading + trailing }
  /// top + bottom.
  @inlinable public var vertical: Double { top + bottom }

  public var description: String { "EdgeInsets(\(top), \(leading), \(bottom), \(trailing))" }
}

/// SwiftUI's default spacing between the views of a stack, in points (the
/// scene format's default `spacing`).
public let defaultStackSpacing = 8.0
