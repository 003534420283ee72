/// A straight (not premultiplied) sRGB colour with alpha, components in 0…1:
/// what scenes write (`"#FF3B30"`, `"#00000033"`).
public struct Color: Sendable, Hashable, CustomStringConvertible {
  public var red, green, blue, alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
  }
  /// From 8-bit components.
  public init(r8: Int, g8: Int, b8: Int, a8: Int = 255) {
    self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: Double(a8) / 255)
  }

  /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
  public init?(hex: String) {
    guard hex.hasPrefix("#") else { return nil }
    let digits = hex.dropFirst().map { $0.hexDigitValue }
    guard !digits.contains(where: { $0 == nil }) else { return nil }
    let d = digits.map { $0! }
    switch d.count {
    case 3: self.init(r8: d[0] * 17, g8: d[1] * 17, b8: d[2] * 17)
    case 6: self.init(r8: d[0] * 16 + d[1], g8: d[2] * 16 + d[3], b8: d[4] * 16 + d[5])
    case 8: self.init(r8: d[0] * 16 + d[1], g8: d[2] * 16 + d[3], b8: d[4] * 16 + d[5], a8: d[6] * 16 + d[7])
    default: return nil
    }
  }

  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  public var premultiplied: PremultipliedColor {
    PremultipliedColor(red: red * alpha, green: green * alpha, blue: blue * alpha, alpha: alpha)
  }
  public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }
  public var description: String { "Color(\(red), \(green), \(blue), \(alpha))" }
}

/// A premultiplied sRGB colour, components in 0…1 (colour ≤ alpha): what
/// pixmaps hold and what animations interpolate, so that fading to `clear`
/// never passes through a dark fringe.
public struct PremultipliedColor: VectorArithmetic, Hashable {
  public var red, green, blue, alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double) {
    self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
  }
  public static let zero = PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)
  public static let clear = zero

  public static func + (a: Self, b: Self) -> Self {
    Self(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha)
  }
  public static func - (a: Self, b: Self) -> Self {
    Self(red: a.red - b.red, green: a.green - b.green, blue: a.blue - b.blue, alpha: a.alpha - b.alpha)
  }
  public static func * (a: Self, s: Double) -> Self {
    Self(red: a.red * s, green: a.green * s, blue: a.blue * s, alpha: a.alpha * s)
  }
  public var components: [Double] { [red, green, blue, alpha] }

  /// Clamped into the valid range: 0 ≤ alpha ≤ 1, 0 ≤ colour ≤ alpha
  /// (animation overshoot can leave it).
  public var clamped: Self {
    let a = min(max(alpha, 0), 1)
    return Self(red: min(max(red, 0), a), green: min(max(green, 0), a), blue: min(max(blue, 0), a), alpha: a)
  }
  /// Back to straight colour (black where fully transparent).
  public var unpremultiplied: Color {
    alpha > 0 ? Color(red: red / alpha, green: green / alpha, blue: blue / alpha, alpha: alpha) : .clear
  }
}
