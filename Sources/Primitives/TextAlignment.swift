/// Horizontal alignment of the lines of a text (SwiftUI's
/// `multilineTextAlignment`).
public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
  case leading, center, trailing
}
