import Primitives

/// ⌊a / b⌋ for b > 0.
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

/// Paints an image enlarged a whole number of times, k, its top-left
/// texel's corner at a device pixel: texel (i, j) covers device pixels
/// origin + (ik … ik + k − 1, jk … jk + k − 1). Each device pixel centre is
/// sampled bilinearly between texel centres, the edge texels repeated
/// beyond the image, as `ImageShader` samples; the fractions are multiples
/// of 1/(2k), so for k a power of two up to 128 the weights are exact in
/// 1/256ths and the whole blend is integer arithmetic, rounded once. A
/// material's backdrop, blurred k times smaller, is drawn back this way.
public struct MagnifiedImageShader: Sendable {
  public let image: Pixmap
  public let factor: Int
  public let origin: (x: Int, y: Int)
  /// Decides the image's pixels, for the tile caches.
  let imageDigest: Digest

  public init(image: Pixmap, digest: Digest, factor: Int, origin: (x: Int, y: Int)) {
    precondition(factor >= 1 && factor <= 128 && factor & (factor - 1) == 0, "a power of two up to 128")
    precondition(image.width > 0 && image.height > 0, "an image")
    self.image = image
    self.imageDigest = digest
    self.factor = factor
    self.origin = origin
    var opaque = true
    for i in stride(from: 3, to: image.bytes.count, by: 4) where image.bytes[i] != 255 {
      opaque = false
      break
    }
    isOpaque = opaque
  }

  /// Every texel is opaque, so every pixel it shades is (bilinear weights
  /// add up to one).
  public let isOpaque: Bool

  func digest(into d: inout Digester) {
    d.add(0x6D61_676E_6966_79 as UInt64)
    d.add(imageDigest); d.add(factor); d.add(origin.x); d.add(origin.y)
  }

  /// The texel left of (or above) device column (row) `x` relative to the
  /// origin, clamped, and the weight of the one after it in 1/256ths.
  @inline(__always)
  func tap(_ x: Int, size: Int) -> (index: Int, next: Int, weight: Int) {
    // Texel coordinate of the pixel's centre, minus ½, in 1/(2k)ths:
    // (2x + 1 − k) / 2k; its floor and fraction.
    let twice = 2 * x + 1 - factor, span = 2 * factor
    let floor = floorDivide(twice, span)
    let weight = (twice - floor * span) * 256 / span
    let i = min(max(floor, 0), size - 1), j = min(max(floor + 1, 0), size - 1)
    return (i, j, weight)
  }

  /// Safe twin of `shade8` (MagnifiedImageShaderTests compares them).
  func referenceShade8(x: Int, y: Int, count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 4 * count)
    let row = tap(y - origin.y, size: image.height)
    for n in 0..<count {
      let column = tap(x + n - origin.x, size: image.width)
      for c in 0..<4 {
        func texel(_ i: Int, _ j: Int) -> Int { Int(image.bytes[4 * (j * image.width + i) + c]) }
        let top = texel(column.index, row.index) * (256 - column.weight) + texel(column.next, row.index) * column.weight
        let bottom = texel(column.index, row.next) * (256 - column.weight) + texel(column.next, row.next) * column.weight
        out[4 * n + c] = UInt8((top * (256 - row.weight) + bottom * row.weight + 32768) >> 16)
      }
    }
    return out
  }
}
