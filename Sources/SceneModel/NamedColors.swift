import Primitives

/// Light or dark: which variant of each named colour a scene draws
/// (docs/scene-format.md, "Colours").
public enum Appearance: String, CaseIterable, Sendable, Hashable {
  case light, dark
}

/// The named colours a scene may write, each with UIKit's light and dark
/// values as of iOS 17 (base interface level, normal contrast): the system
/// colours under their SwiftUI names (`blue`) and UIKit's (`systemBlue`),
/// the grays `systemGray2` … `systemGray6`, and the semantic colours
/// (`label`, `secondarySystemBackground`, …), the translucent ones with
/// their alpha. One table, read by the decoder, the docs' list and the tests.
public enum NamedColors {
  public struct Variants: Sendable, Hashable {
    public let light: Color
    public let dark: Color
    public func color(_ appearance: Appearance) -> Color { appearance == .light ? light : dark }
  }

  /// sRGB 0…255 and alpha 0…1.
  private static func rgb(_ r: Int, _ g: Int, _ b: Int, _ a: Double = 1) -> Color {
    Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: a)
  }
  private static func pair(_ light: Color, _ dark: Color) -> Variants { Variants(light: light, dark: dark) }

  /// The system colours: (SwiftUI name, light, dark); UIKit spells each
  /// `system` + the name capitalised.
  static let system: [(String, Variants)] = [
    ("red", pair(rgb(255, 59, 48), rgb(255, 69, 58))),
    ("orange", pair(rgb(255, 149, 0), rgb(255, 159, 10))),
    ("yellow", pair(rgb(255, 204, 0), rgb(255, 214, 10))),
    ("green", pair(rgb(52, 199, 89), rgb(48, 209, 88))),
    ("mint", pair(rgb(0, 199, 190), rgb(99, 230, 226))),
    ("teal", pair(rgb(48, 176, 199), rgb(64, 200, 224))),
    ("cyan", pair(rgb(50, 173, 230), rgb(100, 210, 255))),
    ("blue", pair(rgb(0, 122, 255), rgb(10, 132, 255))),
    ("indigo", pair(rgb(88, 86, 214), rgb(94, 92, 230))),
    ("purple", pair(rgb(175, 82, 222), rgb(191, 90, 242))),
    ("pink", pair(rgb(255, 45, 85), rgb(255, 55, 95))),
    ("brown", pair(rgb(162, 132, 94), rgb(172, 142, 104))),
    ("gray", pair(rgb(142, 142, 147), rgb(142, 142, 147))),
  ]

  /// `systemGray2` … `systemGray6`.
  static let grays: [(String, Variants)] = [
    ("systemGray2", pair(rgb(174, 174, 178), rgb(99, 99, 102))),
    ("systemGray3", pair(rgb(199, 199, 204), rgb(72, 72, 74))),
    ("systemGray4", pair(rgb(209, 209, 214), rgb(58, 58, 60))),
    ("systemGray5", pair(rgb(229, 229, 234), rgb(44, 44, 46))),
    ("systemGray6", pair(rgb(242, 242, 247), rgb(28, 28, 30))),
  ]

  /// UIKit's semantic colours.
  static let semantic: [(String, Variants)] = [
    ("label", pair(rgb(0, 0, 0), rgb(255, 255, 255))),
    ("secondaryLabel", pair(rgb(60, 60, 67, 0.6), rgb(235, 235, 245, 0.6))),
    ("tertiaryLabel", pair(rgb(60, 60, 67, 0.3), rgb(235, 235, 245, 0.3))),
    ("quaternaryLabel", pair(rgb(60, 60, 67, 0.18), rgb(235, 235, 245, 0.16))),
    ("systemBackground", pair(rgb(255, 255, 255), rgb(0, 0, 0))),
    ("secondarySystemBackground", pair(rgb(242, 242, 247), rgb(28, 28, 30))),
    ("tertiarySystemBackground", pair(rgb(255, 255, 255), rgb(44, 44, 46))),
    ("systemGroupedBackground", pair(rgb(242, 242, 247), rgb(0, 0, 0))),
    ("secondarySystemGroupedBackground", pair(rgb(255, 255, 255), rgb(28, 28, 30))),
    ("tertiarySystemGroupedBackground", pair(rgb(242, 242, 247), rgb(44, 44, 46))),
    ("separator", pair(rgb(60, 60, 67, 0.29), rgb(84, 84, 88, 0.6))),
    ("opaqueSeparator", pair(rgb(198, 198, 200), rgb(56, 56, 58))),
    ("link", pair(rgb(0, 122, 255), rgb(9, 132, 255))),
    ("placeholderText", pair(rgb(60, 60, 67, 0.3), rgb(235, 235, 245, 0.3))),
    ("systemFill", pair(rgb(120, 120, 128, 0.2), rgb(120, 120, 128, 0.36))),
    ("secondarySystemFill", pair(rgb(120, 120, 128, 0.16), rgb(120, 120, 128, 0.32))),
    ("tertiarySystemFill", pair(rgb(118, 118, 128, 0.12), rgb(118, 118, 128, 0.24))),
    ("quaternarySystemFill", pair(rgb(116, 116, 128, 0.08), rgb(118, 118, 128, 0.18))),
  ]

  /// Every name → its variants.
  public static let all: [String: Variants] = {
    var table: [String: Variants] = [:]
    for (name, variants) in system {
      table[name] = variants
      table["system" + name.prefix(1).uppercased() + name.dropFirst()] = variants
    }
    for (name, variants) in grays + semantic { table[name] = variants }
    table["black"] = pair(.black, .black)
    table["white"] = pair(.white, .white)
    table["clear"] = pair(.clear, .clear)
    return table
  }()

  /// The colour `name` draws in `appearance`; nil for an unknown name.
  public static func color(_ name: String, _ appearance: Appearance) -> Color? { all[name]?.color(appearance) }
}
