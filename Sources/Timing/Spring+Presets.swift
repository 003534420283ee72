extension Spring {
  /// `.smooth`: duration 0.5, bounce 0, plus `extraBounce`.
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0 + extraBounce)
  }
  /// `.snappy`: duration 0.5, bounce 0.15, plus `extraBounce`.
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.15 + extraBounce)
  }
  /// `.bouncy`: duration 0.5, bounce 0.3, plus `extraBounce`.
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.3 + extraBounce)
  }
  /// `Animation.default` on iOS 17: `spring(duration: 0.55, bounce: 0)`,
  /// Apple's documented default.
  public static let `default` = Spring(duration: 0.55, bounce: 0)
  /// `.interactiveSpring`: duration 0.15, bounce 0.15, plus `extraBounce`.
  public static func interactive(duration: Double = 0.15, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.15 + extraBounce)
  }
  /// The bounce each preset adds `extraBounce` to.
  public static let presetBounces: [String: Double] = [
    "smooth": 0, "snappy": 0.15, "bouncy": 0.3, "spring": 0, "interactiveSpring": 0.15,
  ]
}
