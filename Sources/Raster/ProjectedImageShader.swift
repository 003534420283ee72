import Primitives

/// Paints an image through a projective map (a layer turned in 3D,
/// `rotation3D`): each device pixel centre is mapped back into the image
/// by the inverse homography and sampled bilinearly between texel centres,
/// the edge texels repeated beyond the image (the caller fills only the
/// projected outline, whose edges the rasterizer anti-aliases). The image
/// is the layer drawn flat at device resolution, so a turn shrinks it by
/// at most the perspective's foreshortening: one level, no pyramid.
/// Output is premultiplied, times `opacity`.
public struct ProjectedImageShader: Sendable {
  public let image: Pixmap
  public let imageToDevice: Homography
  public let opacity: Double
  /// Device → image; nil when nothing is drawn.
  let deviceToImage: Homography?
  let outputScale: Float
  /// Decides the image's pixels, for the tile caches.
  let imageDigest: Digest

  /// `digest` decides `image`'s pixels (a rendered frame's tile digests):
  /// the same flat layer gives the same digest frame after frame.
  public init(image: Pixmap, digest: Digest, imageToDevice: Homography, opacity: Double = 1) {
    self.image = image
    self.imageToDevice = imageToDevice
    self.opacity = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
    deviceToImage = image.width > 0 && image.height > 0 ? imageToDevice.inverted : nil
    outputScale = Float(self.opacity) / 255
    imageDigest = digest
  }

  /// An image rendered from tiles, digested by its tiles' digests.
  public init(frame: RenderedFrame, imageToDevice: Homography, opacity: Double = 1) {
    var d = Digester()
    d.add(frame.width); d.add(frame.height)
    for tile in frame.tiles { d.add(tile) }
    self.init(image: frame.pixmap, digest: d.digest, imageToDevice: imageToDevice, opacity: opacity)
  }

  public var isOpaque: Bool { false }

  func digest(into d: inout Digester) {
    d.add(0x7072_6F6A as UInt64)
    d.add(imageDigest)
    for x in imageToDevice.m { d.add(x) }
    d.add(opacity)
  }

  /// The image point a device point shows; nil behind the eye.
  @inline(__always)
  func imagePoint(_ device: Point) -> Point? {
    guard let inv = deviceToImage else { return nil }
    let (p, w) = inv.map(device)
    return w > 0 && p.x.isFinite && p.y.isFinite ? p : nil
  }

  /// The image bilinearly between texel centres at image point `p`, the
  /// edge texels repeated beyond it (bytes, 0…255).
  @inline(__always)
  func bilinear(_ p: Point) -> SIMD4<Float> {
    let fu = min(max(p.x - 0.5, -1), Double(image.width)), fv = min(max(p.y - 0.5, -1), Double(image.height))
    let i = Int(fu.rounded(.down)), j = Int(fv.rounded(.down))
    let tu = Float(fu - fu.rounded(.down)), tv = Float(fv - fv.rounded(.down))
    func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
      let t = image[min(max(i, 0), image.width - 1), min(max(j, 0), image.height - 1)]
      return SIMD4(Float(t.r), Float(t.g), Float(t.b), Float(t.a))
    }
    let top = texel(i, j) * (1 - tu) + texel(i + 1, j) * tu
    let bottom = texel(i, j + 1) * (1 - tu) + texel(i + 1, j + 1) * tu
    return top * (1 - tv) + bottom * tv
  }

  /// Most samples a side per device pixel.
  static let maximumSamples = 4

  /// Device pixel (x, y), premultiplied 0…1 times the opacity: the mean of
  /// n × n bilinear samples spread over the pixel, n the most image texels
  /// the pixel spans along a side (1 where the image is magnified, up to
  /// 4), so that an edge inside the image keeps its coverage where the
  /// turn shrinks it. Nothing behind the eye.
  func shadePixel(x: Int, y: Int) -> SIMD4<Float> { shadePixel(x: x, y: y, bilinear: bilinear) }

  /// The same with the texel sampling given (the row loop's reads the
  /// bytes through a pointer).
  @inline(__always)
  func shadePixel(x: Int, y: Int, bilinear: (Point) -> SIMD4<Float>) -> SIMD4<Float> {
    let corner = Point(Double(x), Double(y))
    guard let p00 = imagePoint(corner), let p10 = imagePoint(Point(corner.x + 1, corner.y)),
      let p01 = imagePoint(Point(corner.x, corner.y + 1))
    else { return .zero }
    let span = max(
      ((p10.x - p00.x) * (p10.x - p00.x) + (p10.y - p00.y) * (p10.y - p00.y)).squareRoot(),
      ((p01.x - p00.x) * (p01.x - p00.x) + (p01.y - p00.y) * (p01.y - p00.y)).squareRoot())
    let n = !(span < Double(Self.maximumSamples)) ? Self.maximumSamples : max(1, Int(span.rounded(.up)))
    var sum = SIMD4<Float>.zero
    var count: Float = 0
    for a in 0..<n {
      for b in 0..<n {
        let device = Point(Double(x) + (Double(b) + 0.5) / Double(n), Double(y) + (Double(a) + 0.5) / Double(n))
        guard let p = imagePoint(device) else { continue }
        sum += bilinear(p)
        count += 1
      }
    }
    return count > 0 ? sum / Float(n * n) * outputScale : .zero
  }

  /// Safe twin of `shade`: the same pixels into an array.
  func referenceShade(x: Int, y: Int, count: Int) -> [Float] {
    var out = [Float](repeating: 0, count: 4 * count)
    for n in 0..<count {
      let c = shadePixel(x: x + n, y: y)
      for ch in 0..<4 { out[4 * n + ch] = c[ch] }
    }
    return out
  }
}
