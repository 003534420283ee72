import Primitives

/// The five named materials (SwiftUI's `.ultraThinMaterial` …
/// `.ultraThickMaterial`) as backdrops, in light and dark variants: one
/// table, read by the decoder, the docs' table and the tests
/// (docs/scene-format.md, "Materials", says how the values were chosen).
///
/// Apple publishes no numbers for its materials. Its own recipe for a
/// frosted backdrop, the WWDC 2013 sample `UIImage+ImageEffects`, gives
/// three: light (blur 30 pt, saturation 1.8, white at 30%), extra light
/// (blur 20 pt, saturation 1.8, 97% white at 82%) and dark (blur 20 pt,
/// saturation 1.8, 11% white at 73%). The materials here keep its
/// saturation, blur within its 20 to 30 points, and tint with its light
/// and dark greys, at opacities spread from the thinnest (most of the
/// content shows through) to the thickest (almost opaque, as a sheet's
/// ultra-thick material is): each thicker material blurs at least as much
/// and tints at least as opaquely, and each dark variant is darker than
/// its light one.
public enum Material: String, CaseIterable, Sendable, Hashable {
  case ultraThin, thin, regular, thick, ultraThick

  /// A material's backdrop in one appearance.
  public struct Values: Sendable, Hashable {
    /// σ, points.
    public let blur: Double
    public let saturation: Double
    public let tint: Color
  }

  /// The tint's grey in each appearance: Apple's sample's light and dark.
  static let lightTint = (grey: 0.97, alpha: [0.30, 0.50, 0.70, 0.82, 0.92])
  static let darkTint = (grey: 0.11, alpha: [0.45, 0.58, 0.73, 0.82, 0.92])
  static let blurs = [20.0, 24.0, 27.0, 30.0, 30.0]

  /// The backdrop this material draws in `appearance`.
  public func values(_ appearance: Appearance) -> Values {
    let k = Self.allCases.firstIndex(of: self)!
    let tint = appearance == .light ? Self.lightTint : Self.darkTint
    return Values(
      blur: Self.blurs[k], saturation: 1.8, tint: Color(red: tint.grey, green: tint.grey, blue: tint.grey, alpha: tint.alpha[k]))
  }
}
