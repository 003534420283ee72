/// How overlapping parts of a path count as inside.
public enum FillRule: String, Sendable, Hashable, CaseIterable {
  /// Inside where the winding number is not zero.
  case nonZero = "nonzero"
  /// Inside where the winding number is odd.
  case evenOdd = "evenodd"
}
