import Primitives
import Testing

@testable import Raster

/// The projective image shader's row loop against its safe twin, and its
/// sampling against a hand-computed case.
@Suite struct ProjectedImageShaderTests {
  func pattern(width: Int, height: Int) -> Pixmap {
    var p = Pixmap(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        let a = UInt8((x * 37 + y * 11) % 200 + 55)
        p[x, y] = RGBA8(r: UInt8(Int(a) * ((x * 7) % 5) / 4), g: UInt8(Int(a) * (y % 3) / 2), b: a / 2, a: a)
      }
    }
    return p
  }

  @Test(arguments: [
    Homography.identity,
    Homography(AffineTransform.scale(1.7, 0.8).concatenating(.translation(4.3, -2.1))),
    Rotation3D(angle: 40, axis: (0, 1, 0)).homography(size: Vector2(30, 20)),
    Rotation3D(angle: -65, axis: (1, 0.4, 0), anchorZ: 8, perspective: 1.5).homography(size: Vector2(30, 20)),
  ])
  func fastShadeMatchesSafeTwin(_ h: Homography) {
    let shader = ProjectedImageShader(image: pattern(width: 30, height: 20), digest: Digester().digest, imageToDevice: h, opacity: 0.8)
    for y in -3..<25 {
      let fast = shader.shadedFloats(x: -4, y: y, count: 40), slow = shader.referenceShade(x: -4, y: y, count: 40)
      #expect(zip(fast, slow).allSatisfy { abs($0 - $1) < 1e-6 }, "row \(y)")
    }
  }

  /// Doubled by the map, the device pixel centre (3.5, 1.5) shows image
  /// point (1.75, 0.75); texel centres sit at i + ½, so it is ¼ of the way
  /// from texel 1 to texel 2 and ¼ of the way from row 0 to row 1.
  @Test func samplesBilinearlyBetweenTexelCentres() {
    var image = Pixmap(width: 3, height: 2)
    let values: [[UInt8]] = [[0, 100, 200], [40, 140, 240]]
    for y in 0..<2 { for x in 0..<3 { image[x, y] = RGBA8(r: values[y][x], g: 0, b: 0, a: 255) } }
    let shader = ProjectedImageShader(image: image, digest: Digester().digest, imageToDevice: Homography(AffineTransform.scale(2, 2)))
    let red = shader.referenceShade(x: 3, y: 1, count: 1)[0] * 255
    let expected: Float = (100 * 0.75 + 200 * 0.25) * 0.75 + (140 * 0.75 + 240 * 0.25) * 0.25
    #expect(abs(red - expected) < 1e-3)
  }
}
