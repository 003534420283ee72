/// SwiftUI's `Font.Weight` names and their OpenType weights (the `usWeightClass`
/// scale, 100…900, that font files and fontconfig describe faces by).
public enum FontWeight: String, Sendable, Hashable, CaseIterable {
  case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

  /// As Apple maps them: ultraLight 100 … black 900.
  public var openType: Int {
    switch self {
    case .ultraLight: 100
    case .thin: 200
    case .light: 300
    case .regular: 400
    case .medium: 500
    case .semibold: 600
    case .bold: 700
    case .heavy: 800
    case .black: 900
    }
  }
}
