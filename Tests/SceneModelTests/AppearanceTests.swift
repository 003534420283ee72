import Foundation
import Primitives
import SceneModel
import Testing

/// Named colours in both appearances, against UIKit's published values
/// (iOS 17, base level, normal contrast), written here independently of
/// the decoder's table as UIKit's sRGB components and alpha.
@Suite struct AppearanceTests {
  /// name → (light, dark) as (r, g, b, alpha).
  static let uikit: [(String, (Int, Int, Int, Double), (Int, Int, Int, Double))] = [
    ("systemBlue", (0, 122, 255, 1), (10, 132, 255, 1)),
    ("systemRed", (255, 59, 48, 1), (255, 69, 58, 1)),
    ("systemGreen", (52, 199, 89, 1), (48, 209, 88, 1)),
    ("systemOrange", (255, 149, 0, 1), (255, 159, 10, 1)),
    ("systemYellow", (255, 204, 0, 1), (255, 214, 10, 1)),
    ("systemPink", (255, 45, 85, 1), (255, 55, 95, 1)),
    ("systemPurple", (175, 82, 222, 1), (191, 90, 242, 1)),
    ("systemIndigo", (88, 86, 214, 1), (94, 92, 230, 1)),
    ("systemTeal", (48, 176, 199, 1), (64, 200, 224, 1)),
    ("systemCyan", (50, 173, 230, 1), (100, 210, 255, 1)),
    ("systemMint", (0, 199, 190, 1), (99, 230, 226, 1)),
    ("systemBrown", (162, 132, 94, 1), (172, 142, 104, 1)),
    ("systemGray", (142, 142, 147, 1), (142, 142, 147, 1)),
    ("systemGray2", (174, 174, 178, 1), (99, 99, 102, 1)),
    ("systemGray3", (199, 199, 204, 1), (72, 72, 74, 1)),
    ("systemGray4", (209, 209, 214, 1), (58, 58, 60, 1)),
    ("systemGray5", (229, 229, 234, 1), (44, 44, 46, 1)),
    ("systemGray6", (242, 242, 247, 1), (28, 28, 30, 1)),
    ("label", (0, 0, 0, 1), (255, 255, 255, 1)),
    ("secondaryLabel", (60, 60, 67, 0.6), (235, 235, 245, 0.6)),
    ("tertiaryLabel", (60, 60, 67, 0.3), (235, 235, 245, 0.3)),
    ("quaternaryLabel", (60, 60, 67, 0.18), (235, 235, 245, 0.16)),
    ("systemBackground", (255, 255, 255, 1), (0, 0, 0, 1)),
    ("secondarySystemBackground", (242, 242, 247, 1), (28, 28, 30, 1)),
    ("tertiarySystemBackground", (255, 255, 255, 1), (44, 44, 46, 1)),
    ("systemGroupedBackground", (242, 242, 247, 1), (0, 0, 0, 1)),
    ("secondarySystemGroupedBackground", (255, 255, 255, 1), (28, 28, 30, 1)),
    ("tertiarySystemGroupedBackground", (242, 242, 247, 1), (44, 44, 46, 1)),
    ("separator", (60, 60, 67, 0.29), (84, 84, 88, 0.6)),
    ("opaqueSeparator", (198, 198, 200, 1), (56, 56, 58, 1)),
    ("link", (0, 122, 255, 1), (9, 132, 255, 1)),
    ("placeholderText", (60, 60, 67, 0.3), (235, 235, 245, 0.3)),
    ("systemFill", (120, 120, 128, 0.2), (120, 120, 128, 0.36)),
    ("secondarySystemFill", (120, 120, 128, 0.16), (120, 120, 128, 0.32)),
    ("tertiarySystemFill", (118, 118, 128, 0.12), (118, 118, 128, 0.24)),
    ("quaternarySystemFill", (116, 116, 128, 0.08), (118, 118, 128, 0.18)),
  ]

  func fill(_ name: String, appearance: String?, override: Appearance? = nil) throws -> Color {
    let extra = appearance.map { " \"appearance\": \"\($0)\"," } ?? ""
    let text = scene(layers: ##"[{"type": "rect", "size": [1, 1], "fill": "## + "\"\(name)\"}]", extra: extra)
    let s = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t", appearance: override)
    guard case .paint(.color(let c))? = s.layers[0].properties[.fill] else { throw CocoaError(.coderInvalidValue) }
    return c.unpremultiplied
  }

  @Test func namedColoursMatchUIKitInBothAppearances() throws {
    #expect(Self.uikit.count == 36)
    for (name, light, dark) in Self.uikit {
      for (appearance, expected) in [("light", light), ("dark", dark)] {
        let c = try fill(name, appearance: appearance)
        let want = [Double(expected.0) / 255, Double(expected.1) / 255, Double(expected.2) / 255, expected.3]
        let got = [c.red, c.green, c.blue, c.alpha]
        #expect(zip(got, want).allSatisfy { abs($0 - $1) < 1e-6 }, "\(name) \(appearance): \(got) vs \(want)")
      }
      // The SwiftUI spelling is the same colour.
      if name.hasPrefix("system"), !name.hasSuffix("2"), !name.dropFirst(6).contains(where: \.isNumber),
        !name.contains("Background"), !name.contains("Fill")
      {
        let short = name.dropFirst(6).prefix(1).lowercased() + name.dropFirst(7)
        #expect(try fill(short, appearance: "dark") == fill(name, appearance: "dark"), "\(short)")
      }
    }
  }

  @Test func theCommandLineOverridesTheScene() throws {
    #expect(try fill("label", appearance: "light", override: .dark) == Color(red: 1, green: 1, blue: 1, alpha: 1))
    #expect(try fill("label", appearance: "dark", override: .light) == Color(red: 0, green: 0, blue: 0, alpha: 1))
    #expect(try fill("label", appearance: nil) == Color(red: 0, green: 0, blue: 0, alpha: 1), "light by default")
  }

  /// Text is `label` unless coloured (SwiftUI's `.primary`): white in dark mode.
  @Test func textDefaultsToLabel() throws {
    let dark = try decode(scene(layers: ##"[{"type": "text", "text": "a"}]"##, extra: ##" "appearance": "dark","##))
    #expect(dark.layers[0].properties[Properties.color] == .color(Color(red: 1, green: 1, blue: 1, alpha: 1).premultiplied))
    let light = try decode(scene(layers: ##"[{"type": "text", "text": "a"}]"##))
    #expect(light.layers[0].properties[Properties.color] == .color(Color(red: 0, green: 0, blue: 0, alpha: 1).premultiplied))
    // A group turned in 3D without a size is warned about.
    let turned = try decode(scene(layers: ##"[{"type": "group", "rotation3D": {"angle": 10, "axis": [0, 1, 0]}}]"##))
    #expect(turned.warnings(file: "t.json").map(\.message).contains { $0.hasPrefix("this group turns in 3D without a size") })
  }

  /// The default background is systemBackground: white, or black in dark mode.
  @Test func theDefaultBackgroundFollowsTheAppearance() throws {
    let light = try decode(scene(layers: "[]"))
    let dark = try decode(scene(layers: "[]", extra: ##" "appearance": "dark","##))
    #expect(light.background == Color(red: 1, green: 1, blue: 1, alpha: 1) && light.appearance == .light)
    #expect(dark.background == Color(red: 0, green: 0, blue: 0, alpha: 1) && dark.appearance == .dark)
  }

  @Test(
    arguments: [
      ("systemblue", "unknown colour 'systemblue'; did you mean 'systemBlue'?"),
      ("secondaryLabelColor", "unknown colour 'secondaryLabelColor'; did you mean 'secondaryLabel'?"),
      ("systemGrey6", "unknown colour 'systemGrey6'; did you mean 'systemGray6'?"),
    ])
  func nearMissesAreSuggested(_ name: String, _ message: String) {
    let found = problems(scene(layers: ##"[{"type": "rect", "fill": "## + "\"\(name)\"" + "}]"))
    #expect(found.count == 1 && found[0].hasSuffix("layers[0].fill: " + message), "\(found)")
  }

  @Test func anUnknownAppearanceIsLocated() {
    let text = scene(layers: "[]", extra: ##" "appearance": "dim","##)
    let found = problems(text)
    let column = text.distance(from: text.startIndex, to: text.range(of: "\"dim\"")!.lowerBound) + 1
    #expect(found == ["t.json:1:\(column): error: appearance: 'dim' is not one of light, dark"], "\(found)")
  }
}
