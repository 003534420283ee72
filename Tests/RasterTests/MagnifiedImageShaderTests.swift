import Primitives
import Testing

@testable import Raster

/// The magnified image: its row loop against its safe twin, and both
/// against the general image shader's bilinear sampling of the same
/// placement.
@Suite struct MagnifiedImageShaderTests {
  func image(_ w: Int, _ h: Int, seed: UInt64) -> Pixmap {
    var random = SplitMix64(seed: seed)
    var p = Pixmap(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let a = UInt8(random.next() % 256)
        p[x, y] = RGBA8(
          r: UInt8(random.next() % (UInt64(a) + 1)), g: UInt8(random.next() % (UInt64(a) + 1)), b: UInt8(random.next() % (UInt64(a) + 1)), a: a)
      }
    }
    return p
  }

  @Test(arguments: [1, 2, 4, 8, 16])
  func theRowLoopIsItsSafeTwin(factor: Int) {
    var random = SplitMix64(seed: UInt64(factor))
    let picture = image(9, 7, seed: 7)
    for _ in 0..<40 {
      let origin = (x: Int(random.next() % 64) - 32, y: Int(random.next() % 64) - 32)
      let shader = MagnifiedImageShader(image: picture, digest: Digest(high: 1, low: 2), factor: factor, origin: origin)
      let (x, y, count) = (Int(random.next() % 200) - 60, Int(random.next() % 200) - 60, Int(random.next() % 90) + 1)
      #expect(shader.shadedBytes(x: x, y: y, count: count) == shader.referenceShade8(x: x, y: y, count: count))
    }
  }

  /// The same picture as `ImageShader` gives for the image scaled k times
  /// and moved to the origin, within a level (its floats round once too).
  @Test(arguments: [2, 4, 8])
  func itSamplesAsTheImageShaderDoes(factor: Int) {
    let picture = image(6, 5, seed: 3)
    let magnified = MagnifiedImageShader(image: picture, digest: Digest(high: 1, low: 2), factor: factor, origin: (5, -3))
    let general = ImageShader(
      image: picture, imageToDevice: AffineTransform.scale(Double(factor), Double(factor)).concatenating(.translation(5, -3)))
    for y in -8..<(5 * factor + 8) {
      let a = magnified.referenceShade8(x: -4, y: y, count: 6 * factor + 16)
      let b = general.shadedBytes(x: -4, y: y, count: 6 * factor + 16)
      #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "row \(y)")
    }
  }
}
