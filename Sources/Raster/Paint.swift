import Primitives

/// What fills a shape: one colour, a gradient or an image.
public enum Paint: Sendable {
  case solid(PremultipliedColor)
  /// SwiftUI's `LinearGradient`.
  case linearGradient(LinearGradientShader)
  /// SwiftUI's `RadialGradient`.
  case radialGradient(RadialGradientShader)
  /// An image placed by an affine transform.
  case image(ImageShader)
  /// An image placed by a projective map (a layer turned in 3D).
  case projectedImage(ProjectedImageShader)
  /// An image enlarged a whole number of times, on whole pixels (a
  /// material's backdrop).
  case magnifiedImage(MagnifiedImageShader)

  public static func color(_ c: Color) -> Paint { .solid(c.premultiplied) }

  /// The colour, for a solid paint.
  var solidColor: PremultipliedColor? {
    if case .solid(let c) = self { return c }
    return nil
  }

  /// The shader that shades rows of this paint; nil for a solid colour.
  var rowShader: (any RowShader)? {
    switch self {
    case .solid: nil
    case .linearGradient(let s): s
    case .radialGradient(let s): s
    case .image(let s): s
    case .projectedImage(let s): s
    case .magnifiedImage(let s): s
    }
  }

  /// True when every pixel the paint gives has alpha 1.
  public var isOpaque: Bool {
    switch self {
    case .solid(let c): RGBA8(c).a == 255
    case .linearGradient(let s): s.isOpaque
    case .radialGradient(let s): s.isOpaque
    case .image(let s): s.isOpaque
    case .projectedImage(let s): s.isOpaque
    case .magnifiedImage(let s): s.isOpaque
    }
  }

  /// Everything that decides the pixels the paint gives, for the tile caches.
  func digest(into d: inout Digester) {
    if let shader = rowShader {
      d.add(1)
      shader.digest(into: &d)
    } else if let c = solidColor {
      d.add(0)
      d.add(c)
    }
  }
}
