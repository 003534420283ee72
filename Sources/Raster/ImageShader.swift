import PortableMath
import Primitives
import Synchronization

private let pyramidCounter = Atomic<UInt64>(0)

/// An image and its box-filtered 2× reductions: level k is 2^k times smaller
/// on each axis (rounded up), down to 1 × 1 or to the levels asked for.
///
/// Level k + 1's texel (i, j) is the rounded mean of level k's texels
/// (2i…2i+1, 2j…2j+1), the edge texel repeated where a size is odd, so texel
/// (i, j) of level k is centred on image point ((i + ½)·2^k, (j + ½)·2^k).
/// Build one per image and share it between frames; `ImageShader` builds the
/// levels it needs when given a bare pixmap.
public struct ImagePyramid: Sendable {
  /// `levels[0]` is the image itself.
  public let levels: [Pixmap]
  /// True when every pixel of the image has alpha 255.
  public let isOpaque: Bool
  /// Distinct for every pyramid built in this process: its identity in
  /// the tile caches (shaders of the same pyramid and placement are equal).
  public let identity: UInt64 = pyramidCounter.add(1, ordering: .relaxed).newValue

  /// Builds levels 0 ..< `levelCount` (fewer if the image reaches 1 × 1 first).
  public init(_ image: Pixmap, levelCount: Int = .max) {
    var levels = [image]
    while levels.count < levelCount, let last = levels.last, last.width > 1 || last.height > 1 {
      levels.append(Self.halved(last))
    }
    self.levels = levels
    var opaque = true
    for i in stride(from: 3, to: image.bytes.count, by: 4) where image.bytes[i] != 255 {
      opaque = false; break
    }
    isOpaque = opaque
  }

  /// One 2× box reduction, rounding to nearest (halves up). Colour ≤ alpha
  /// survives: rounding is monotone.
  static func halved(_ p: Pixmap) -> Pixmap {
    let w = (p.width + 1) / 2, h = (p.height + 1) / 2
    var out = [UInt8](repeating: 0, count: 4 * w * h)
    let src = p.bytes
    for y in 0..<h {
      let y0 = 2 * y, y1 = min(2 * y + 1, p.height - 1)
      for x in 0..<w {
        let x0 = 2 * x, x1 = min(2 * x + 1, p.width - 1)
        let i00 = 4 * (y0 * p.width + x0), i10 = 4 * (y0 * p.width + x1)
        let i01 = 4 * (y1 * p.width + x0), i11 = 4 * (y1 * p.width + x1)
        for ch in 0..<4 {
          let sum = Int(src[i00 + ch]) + Int(src[i10 + ch]) + Int(src[i01 + ch]) + Int(src[i11 + ch])
          out[4 * (y * w + x) + ch] = UInt8((sum + 2) / 4)
        }
      }
    }
    return Pixmap(width: w, height: h, bytes: out)
  }
}

/// Paints an image placed by an affine transform, filtered and faded.
///
/// - `imageToDevice` maps image pixel space (texel (i, j) covers
///   [i, i + 1) × [j, j + 1)) to device pixels. Each device pixel centre is
///   mapped back into the image and sampled bilinearly between texel centres.
/// - Beyond the image the edge texels are repeated, so the image's own edge is
///   not darkened by transparent neighbours; the caller clips to the image's
///   rectangle (`deviceBounds` is its bounding box).
/// - Reduced more than √2× (`s`, the most image pixels one device pixel spans,
///   is `imageToDevice.inverted.maximumScale`), it samples the pyramid:
///   trilinearly at level log2 s from 2× on, and blending level 1 in between
///   √2× and 2× (level 2·log2 s − 1) so the level changes continuously with
///   the scale and a zoom never pops. From 2× on, the finest level it reads has
///   at most one texel per device pixel, so fine patterns average out instead
///   of aliasing.
/// - Output is premultiplied, times `opacity`.
public struct ImageShader: Sendable {
  public let pyramid: ImagePyramid
  public let imageToDevice: AffineTransform
  /// 0…1; multiplies every premultiplied component.
  public let opacity: Double
  public let isOpaque: Bool

  /// Device → image; nil when nothing is drawn (a singular or non-finite
  /// transform, an empty image).
  let deviceToImage: AffineTransform?
  /// The pyramid level sampled (fractional: trilinear).
  let levelOfDetail: Double
  /// The finer and coarser levels read, and the coarser one's weight.
  let fineLevel: Int, coarseLevel: Int, coarseWeight: Float
  /// opacity / 255: bytes to output.
  let outputScale: Float
  /// Where the image's top-left pixel lands when it is drawn unscaled,
  /// opaque and on whole pixels (an overlay's chart): its pixels are then
  /// copied, not sampled (the same bytes: each centre is a texel's).
  let pixelOffset: (x: Int, y: Int)?

  /// Samples `image`, building only the pyramid levels this transform needs.
  public init(image: Pixmap, imageToDevice: AffineTransform, opacity: Double = 1) {
    let lod =
      Self.drawableInverse(imageToDevice, image).map {
        Self.levelOfDetail(inverseScale: $0.maximumScale)
      } ?? 0
    self.init(
      pyramid: ImagePyramid(image, levelCount: Int(lod.rounded(.up)) + 1),
      imageToDevice: imageToDevice, opacity: opacity)
  }

  /// Samples a prebuilt pyramid; levels it lacks are replaced by its coarsest.
  public init(pyramid: ImagePyramid, imageToDevice: AffineTransform, opacity: Double = 1) {
    self.pyramid = pyramid
    self.imageToDevice = imageToDevice
    self.opacity = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
    let inverse = Self.drawableInverse(imageToDevice, pyramid.levels[0])
    deviceToImage = inverse
    let lod = inverse.map { Self.levelOfDetail(inverseScale: $0.maximumScale) } ?? 0
    levelOfDetail = lod
    let deepest = pyramid.levels.count - 1
    let fine = min(Int(lod.rounded(.down)), deepest)
    fineLevel = fine
    coarseLevel = min(fine + 1, deepest)
    coarseWeight = coarseLevel > fine ? Float(lod - lod.rounded(.down)) : 0
    outputScale = Float(self.opacity) / 255
    isOpaque = pyramid.isOpaque && self.opacity >= 1 && inverse != nil
    let t = imageToDevice
    if t.a == 1, t.b == 0, t.c == 0, t.d == 1, t.tx == t.tx.rounded(), t.ty == t.ty.rounded(), abs(t.tx) < 1e9, abs(t.ty) < 1e9,
      self.opacity == 1, fine == 0, coarseWeight == 0, inverse != nil
    {
      pixelOffset = (Int(t.tx), Int(t.ty))
    } else {
      pixelOffset = nil
    }
  }

  func digest(into d: inout Digester) {
    d.add(0x696D_6167_65 as UInt64)
    d.add(pyramid.identity); d.add(pyramid.levels.count); d.add(imageToDevice); d.add(opacity)
  }

  /// The device-space bounding box of the image's rectangle.
  public var deviceBounds: Rect { imageToDevice.apply(pyramid.levels[0].bounds) }

  static func drawableInverse(_ t: AffineTransform, _ image: Pixmap) -> AffineTransform? {
    guard image.width > 0, image.height > 0,
      [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite),
      let inv = t.inverted, [inv.a, inv.b, inv.c, inv.d, inv.tx, inv.ty].allSatisfy(\.isFinite)
    else { return nil }
    return inv
  }

  /// The pyramid level for a reduction `s` (image pixels per device pixel):
  /// 0 up to √2, rising to 1 at 2 (as 2·log2 s − 1), then log2 s.
  static func levelOfDetail(inverseScale s: Double) -> Double {
    guard s > 2.0.squareRoot() else { return 0 }
    let l = Elementary.log2(s)
    return l < 1 ? 2 * l - 1 : l
  }

  /// Safe twin of `shade`: the same sampling written plainly, with pixmap
  /// subscripts and the edge clamp spelled out. Tests compare the two.
  func referenceShade(x: Int, y: Int, count: Int) -> [Float] {
    var out = [Float](repeating: 0, count: 4 * count)
    guard let inv = deviceToImage else { return out }
    func texel(_ p: Pixmap, _ i: Int, _ j: Int) -> SIMD4<Float> {
      let t = p[min(max(i, 0), p.width - 1), min(max(j, 0), p.height - 1)]
      return SIMD4(Float(t.r), Float(t.g), Float(t.b), Float(t.a))
    }
    func sample(level k: Int, _ u: Double, _ v: Double) -> SIMD4<Float> {
      let p = pyramid.levels[k]
      let size = Double(1 << k)
      // Texel centres at (i + ½)·2^k; far-away points clamp to the edge.
      let fu = min(max(u / size - 0.5, -1), Double(p.width))
      let fv = min(max(v / size - 0.5, -1), Double(p.height))
      let i = Int(fu.rounded(.down)), j = Int(fv.rounded(.down))
      let tu = Float(fu - fu.rounded(.down)), tv = Float(fv - fv.rounded(.down))
      let top = texel(p, i, j) * (1 - tu) + texel(p, i + 1, j) * tu
      let bottom = texel(p, i, j + 1) * (1 - tu) + texel(p, i + 1, j + 1) * tu
      return top * (1 - tv) + bottom * tv
    }
    for n in 0..<count {
      let device = Point(Double(x + n) + 0.5, Double(y) + 0.5)
      let image = inv.apply(device)
      var c = sample(level: fineLevel, image.x, image.y)
      if coarseWeight > 0 {
        c = c * (1 - coarseWeight) + sample(level: coarseLevel, image.x, image.y) * coarseWeight
      }
      c *= outputScale
      for ch in 0..<4 { out[4 * n + ch] = c[ch] }
    }
    return out
  }
}
