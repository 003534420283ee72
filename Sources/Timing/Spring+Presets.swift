extension Spring {
  /// SwiftUI's spring presets (iOS 17) and their perceptual parameters;
  /// `extraBounce` adds to the preset's bounce.
  public enum Preset: String, Sendable, CaseIterable {
    /// duration 0.5, bounce 0; also `spring` and `spring()`.
    case smooth
    /// duration 0.5, bounce 0.15.
    case snappy
    /// duration 0.5, bounce 0.3.
    case bouncy
    /// duration 0.15, bounce 0.15.
    case interactiveSpring

    public var duration: Double { self == .interactiveSpring ? 0.15 : 0.5 }
    public var bounce: Double {
      switch self {
      case .smooth: 0
      case .snappy, .interactiveSpring: 0.15
      case .bouncy: 0.3
      }
    }
  }

  /// The older response form SwiftUI keeps for `spring` and
  /// `interactiveSpring`: `spring(response: 0.5, dampingFraction: 0.825,
  /// blendDuration: 0)` and `interactiveSpring(response: 0.15,
  /// dampingFraction: 0.86, blendDuration: 0.25)`, its defaults.
  public struct ResponseDefaults: Sendable {
    public var response: Double, dampingFraction: Double, blendDuration: Double
  }
  public static let springResponseDefaults = ResponseDefaults(response: 0.5, dampingFraction: 0.825, blendDuration: 0)
  public static let interactiveSpringResponseDefaults = ResponseDefaults(response: 0.15, dampingFraction: 0.86, blendDuration: 0.25)

  /// A preset, as `.snappy(duration: 0.4, extraBounce: 0.1)`.
  public init(_ preset: Preset, duration: Double? = nil, extraBounce: Double = 0) {
    self.init(duration: duration ?? preset.duration, bounce: preset.bounce + extraBounce)
  }

  /// `Animation.default` on iOS 17: `spring(duration: 0.55, bounce: 0)`,
  /// Apple's documented default.
  public static let `default` = Spring(duration: 0.55, bounce: 0)
}
