import Primitives
import Testing

@testable import Raster

/// The row loops of the shaders, the pixmap, the stretched textures, the
/// blur's alpha plane and the frame assembly (their `+Unsafe.swift` files)
/// against their safe twins, on random inputs.
struct RowLoopTests {
  static func color(_ random: inout SplitMix64, opaque: Bool = false) -> PremultipliedColor {
    let alpha = opaque ? 1 : random.unit()
    return PremultipliedColor(red: random.unit() * alpha, green: random.unit() * alpha, blue: random.unit() * alpha, alpha: alpha)
  }

  static func pixmap(_ w: Int, _ h: Int, _ random: inout SplitMix64) -> Pixmap {
    var p = Pixmap(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w { p[x, y] = RGBA8(color(&random)) }
    }
    return p
  }

  static func stops(_ random: inout SplitMix64) -> [GradientStop] {
    let n = Int(random.next() % 4) + 1
    let offsets = (0..<n).map { _ in random.unit() }.sorted()
    return offsets.map { GradientStop(offset: $0, color: color(&random, opaque: random.next() % 2 == 0)) }
  }

  @Test func linearGradientRows() {
    var random = SplitMix64(seed: 11)
    for i in 0..<300 {
      let start = Point(random.range(-300, 300), random.range(-300, 300))
      // Some vertical, some steep, some as long as a pixel, some huge.
      let end: Point =
        switch i % 4 {
        case 0: Point(start.x, start.y + random.range(-400, 400))
        case 1: Point(start.x + random.range(-2, 2), start.y + random.range(-2, 2))
        case 2: Point(start.x + random.range(-1e7, 1e7), start.y + random.range(-1e-3, 1e-3))
        default: Point(random.range(-300, 300), random.range(-300, 300))
        }
      let shader = LinearGradientShader(start: start, end: end, stops: Self.stops(&random))
      let x = Int(random.next() % 400) - 200, y = Int(random.next() % 400) - 200, count = Int(random.next() % 300)
      #expect(shader.shadedBytes(x: x, y: y, count: count) == shader.referenceShade8(x: x, y: y, count: count), "\(start) → \(end)")
    }
  }

  @Test func radialGradientRows() {
    var random = SplitMix64(seed: 12)
    for _ in 0..<200 {
      let transform = AffineTransform.scale(random.range(0.2, 3), random.range(0.2, 3)).concatenating(.rotation(random.range(-3, 3)))
      let shader = RadialGradientShader(
        center: Point(random.range(-50, 50), random.range(-50, 50)), startRadius: random.range(0, 20), endRadius: random.range(0, 200),
        stops: Self.stops(&random), transform: transform)
      let x = Int(random.next() % 200) - 100, y = Int(random.next() % 200) - 100, count = Int(random.next() % 120)
      #expect(shader.shadedBytes(x: x, y: y, count: count) == shader.referenceShade8(x: x, y: y, count: count))
      // From a focal point inside the circle.
      let radius = random.range(1, 200)
      let focal = RadialGradientShader(
        center: Point(random.range(-50, 50), random.range(-50, 50)), radius: radius,
        focus: Vector2(random.range(-radius, radius), random.range(-radius, radius)), stops: Self.stops(&random), transform: transform)
      #expect(focal.shadedBytes(x: x, y: y, count: count) == focal.referenceShade8(x: x, y: y, count: count))
    }
  }

  @Test func floatRowsRoundToBytes() {
    // The default 8-bit shading: an image shader's floats, rounded.
    var random = SplitMix64(seed: 13)
    for _ in 0..<100 {
      let (w, h) = (Int(random.next() % 9) + 1, Int(random.next() % 9) + 1)
      let image = Self.pixmap(w, h, &random)
      let shader = ImageShader(
        image: image, imageToDevice: AffineTransform.scale(random.range(0.1, 8), random.range(0.1, 8)), opacity: random.range(0, 1))
      let x = Int(random.next() % 40) - 20, y = Int(random.next() % 40) - 20, count = Int(random.next() % 64)
      #expect(shader.shadedBytes(x: x, y: y, count: count) == RowShaders.bytes(fromFloats: shader.shadedFloats(x: x, y: y, count: count)))
    }
  }

  @Test func filledPixmaps() {
    var random = SplitMix64(seed: 14)
    for count in [0, 1, 7, 8, 9, 1000] {
      let value = RGBA8(Self.color(&random))
      #expect(Pixmap.filledBytes(value, count: count) == Pixmap.referenceFilledBytes(value, count: count))
    }
  }

  @Test func stretchedTextures() {
    var random = SplitMix64(seed: 15)
    for _ in 0..<100 {
      let (w, h) = (Int(random.next() % 12) + 1, Int(random.next() % 12) + 1)
      let small = Self.pixmap(w, h, &random)
      let sx = random.next() % 3 == 0 ? 0 : Int(random.next() % 20), sy = random.next() % 3 == 0 ? 0 : Int(random.next() % 20)
      let cx: Int? = sx > 0 ? Int(random.next() % UInt64(w)) : nil, cy: Int? = sy > 0 ? Int(random.next() % UInt64(h)) : nil
      let region = PixelRect(x0: 5, y0: -3, x1: 5 + w + sx, y1: -3 + h + sy)
      #expect(
        StretchedTexture.stretch(small, to: region, columnsAt: cx, sx, rowsAt: cy, sy)
          == StretchedTexture.referenceStretch(small, to: region, columnsAt: cx, sx, rowsAt: cy, sy))
    }
  }

  @Test func alphaPlanes() {
    var random = SplitMix64(seed: 16)
    for (w, h) in [(1, 1), (7, 3), (64, 9)] {
      let p = Self.pixmap(w, h, &random)
      let (alpha, mass) = p.alphaPlane(), reference = p.referenceAlphaPlane()
      #expect(alpha == reference.alpha && mass == reference.mass)
      let blurred = alpha.map { $0 * Float(random.range(-0.2, 1.2)) }
      #expect(Pixmap.coverageBytes(blurred) == Pixmap.referenceCoverageBytes(blurred))
    }
  }

  @Test func framesAssembledFromTiles() {
    var random = SplitMix64(seed: 17)
    for (w, h, tile) in [(1, 1, 2), (5, 3, 2), (70, 33, 16), (64, 64, 32)] {
      let picture = Self.pixmap(w, h, &random)
      let columns = (w + tile - 1) / tile, rows = (h + tile - 1) / tile
      let frame = RenderedFrame(pixmap: picture, tileSize: .squares(tile), tiles: [Digest](repeating: Digester().digest, count: columns * rows))
      #expect(frame.assemble() == frame.referenceAssembled())
      #expect(frame.assemble() == picture)
    }
  }
}
