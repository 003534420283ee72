import Primitives
import Testing

@testable import Raster

/// Shades a `width × height` device area; floats, 4 per pixel, row-major.
private func render(_ s: ImageShader, width: Int, height: Int, x: Int = 0, y: Int = 0) -> [Float] {
  (0..<height).flatMap { row in s.shadedFloats(x: x, y: y + row, count: width) }
}

private func floats(_ p: RGBA8) -> [Float] { [Float(p.r), Float(p.g), Float(p.b), Float(p.a)].map { $0 / 255 } }

private func close(_ a: [Float], _ b: [Float], _ tolerance: Float = 1e-6) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

/// A deterministic premultiplied test image.
private func pattern(width: Int, height: Int) -> Pixmap {
  var p = Pixmap(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      let a = UInt8(80 + (x * 53 + y * 31) % 176)
      p[x, y] = RGBA8(r: UInt8(Int(a) * ((x * 7 + y) % 10) / 9), g: UInt8(Int(a) * (y % 4) / 3), b: a / 2, a: a)
    }
  }
  return p
}

private func checkerboard(_ n: Int) -> Pixmap {
  var p = Pixmap(width: n, height: n)
  for y in 0..<n { for x in 0..<n { p[x, y] = (x + y) % 2 == 0 ? RGBA8(r: 255, g: 255, b: 255, a: 255) : RGBA8(r: 0, g: 0, b: 0, a: 255) } }
  return p
}

@Suite struct ImageShaderTests {
  @Test func identityReproducesPixels() {
    let image = pattern(width: 7, height: 5)
    let out = render(ImageShader(image: image, imageToDevice: .identity), width: 7, height: 5)
    for y in 0..<5 {
      for x in 0..<7 {
        let got = Array(out[(4 * (7 * y + x))..<(4 * (7 * y + x) + 4)])
        #expect(close(got, floats(image[x, y]), 1e-7))
        #expect(got.map { UInt8(($0 * 255).rounded()) } == [image[x, y].r, image[x, y].g, image[x, y].b, image[x, y].a])
      }
    }
  }

  @Test func integerTranslationShiftsExactly() {
    let image = pattern(width: 6, height: 4)
    let shader = ImageShader(image: image, imageToDevice: .translation(3, -2))
    // Device (x, y) shows image (x − 3, y + 2); shade the image's device rectangle, starting at x = 3.
    let out = render(shader, width: 6, height: 4, x: 3, y: -2)
    for y in 0..<4 {
      for x in 0..<6 {
        #expect(close(Array(out[(4 * (6 * y + x))..<(4 * (6 * y + x) + 4)]), floats(image[x, y]), 1e-7))
      }
    }
  }

  /// The copying path of `shade8` (whole-pixel translations, unscaled,
  /// opaque) against its safe twin, the sampled floats rounded, over rows
  /// that run off every edge; and a scaled shader, which samples.
  @Test(arguments: [(3.0, -2.0, 1.0), (-4.0, 5.0, 1.0), (0.0, 0.0, 1.0), (2.0, 1.0, 0.5), (2.5, 1.0, 1.0)])
  func shade8CopiesWholePixelPlacementsExactly(tx: Double, ty: Double, opacity: Double) {
    let image = pattern(width: 9, height: 6)
    let shader = ImageShader(image: image, imageToDevice: .translation(tx, ty), opacity: opacity)
    #expect((shader.pixelOffset != nil) == (opacity == 1 && tx == tx.rounded()))
    let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4 * 20)
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * 20)
    defer { scratch.deallocate(); bytes.deallocate() }
    for y in -3..<10 {
      shader.shade8(x: -6, y: y, count: 20, into: bytes, scratch: scratch)
      let expected = RowShaders.bytes(fromFloats: shader.shadedFloats(x: -6, y: y, count: 20))
      #expect(Array(UnsafeBufferPointer(start: bytes, count: 80)) == expected, "row \(y)")
    }
  }

  @Test func upscaleByTwoIsTheBilinearRamp() {
    // Texels A, B at image x centres 0.5 and 1.5; device centres 0.5, 1.5, 2.5, 3.5
    // map to image x 0.25, 0.75, 1.25, 1.75: A (clamped), ¾A + ¼B, ¼A + ¾B, B (clamped).
    var image = Pixmap(width: 2, height: 1)
    image[0, 0] = RGBA8(r: 200, g: 100, b: 0, a: 255)
    image[1, 0] = RGBA8(r: 40, g: 20, b: 60, a: 80)
    let out = render(ImageShader(image: image, imageToDevice: .scale(2, 2)), width: 4, height: 2)
    let ramp: [[Float]] = [[200, 100, 0, 255], [160, 80, 15, 211.25], [80, 40, 45, 123.75], [40, 20, 60, 80]]
    for row in 0..<2 {
      for x in 0..<4 {
        #expect(close(Array(out[(4 * (4 * row + x))..<(4 * (4 * row + x) + 4)]), ramp[x].map { $0 / 255 }))
      }
    }
  }

  @Test func opaqueEdgeIsNotDarkened() {
    // 4× upscale of an opaque image: every pixel inside its rectangle keeps alpha 1.
    let image = Pixmap(width: 3, height: 2, fill: RGBA8(r: 10, g: 20, b: 30, a: 255))
    let shader = ImageShader(image: image, imageToDevice: .scale(4, 4))
    #expect(shader.isOpaque)
    let out = render(shader, width: 12, height: 8)
    for i in stride(from: 3, to: out.count, by: 4) { #expect(out[i] == 1) }
  }

  @Test func opacityScalesPremultipliedOutput() {
    let image = pattern(width: 5, height: 5)
    let t = AffineTransform.rotation(0.3).translatedBy(1, 2).scaledBy(1.5, 1.5)
    let full = render(ImageShader(image: image, imageToDevice: t), width: 9, height: 9)
    let faded = ImageShader(image: image, imageToDevice: t, opacity: 0.5)
    #expect(!faded.isOpaque)
    #expect(close(render(faded, width: 9, height: 9), full.map { $0 * 0.5 }))
    #expect(render(ImageShader(image: image, imageToDevice: t, opacity: 0), width: 9, height: 9).allSatisfy { $0 == 0 })
  }

  @Test func quarterTurnSamplesTheRightTexels() {
    // Rotate 90° clockwise about the origin, then move right by the image's height:
    // image (u, v) → device (3 − v, u). Device pixel (x, y) shows texel (y, 2 − x).
    let image = pattern(width: 4, height: 3)
    let t = AffineTransform.rotation(Double.pi / 2).concatenating(.translation(3, 0))
    let out = render(ImageShader(image: image, imageToDevice: t), width: 3, height: 4)
    for y in 0..<4 {
      for x in 0..<3 {
        #expect(close(Array(out[(4 * (3 * y + x))..<(4 * (3 * y + x) + 4)]), floats(image[y, 2 - x]), 1e-5))
      }
    }
  }

  @Test func halfTurnAboutTheCentreMirrorsTexels() {
    // 180° about the image centre: device (x, y) shows texel (w − 1 − x, h − 1 − y).
    let image = pattern(width: 5, height: 4)
    let t = AffineTransform.translation(-2.5, -2).concatenating(.rotation(Double.pi)).concatenating(.translation(2.5, 2))
    let out = render(ImageShader(image: image, imageToDevice: t), width: 5, height: 4)
    for y in 0..<4 {
      for x in 0..<5 {
        #expect(close(Array(out[(4 * (5 * y + x))..<(4 * (5 * y + x) + 4)]), floats(image[4 - x, 3 - y]), 1e-5))
      }
    }
  }

  @Test(arguments: [
    AffineTransform.rotation(0.5).translatedBy(3.3, -1.7),
    AffineTransform.scale(0.6, 0.6).rotatedBy(-1.1),
    AffineTransform.scale(0.3, 0.45).translatedBy(10.2, 4.9),
    AffineTransform.scale(0.1, 0.1),
    AffineTransform(a: 2.5, b: 0.4, c: -0.3, d: 1.2, tx: 40, ty: -3),
  ])
  func fastShadeMatchesSafeTwin(transform: AffineTransform) {
    let image = pattern(width: 37, height: 29)
    for opacity in [1.0, 0.7] {
      let shader = ImageShader(image: image, imageToDevice: transform, opacity: opacity)
      let fast = render(shader, width: 40, height: 30, x: -5, y: -3)
      for row in 0..<30 {
        let slow = shader.referenceShade(x: -5, y: -3 + row, count: 40)
        #expect(close(Array(fast[(160 * row)..<(160 * row + 160)]), slow, 1e-5))
      }
    }
  }

  @Test(arguments: [
    AffineTransform.scale(0.25, 0.25),
    AffineTransform.scale(0.25, 0.25).translatedBy(0.37, 1.61),
    AffineTransform.scale(0.4, 0.4).translatedBy(1.3, 0.2),
    AffineTransform.scale(1 / 3, 1 / 3).rotatedBy(0.3).translatedBy(20, -10),
    AffineTransform.scale(0.17, 0.17).rotatedBy(-0.9),
  ])
  func fineCheckerboardAveragesToMidGrey(transform: AffineTransform) {
    // A 1-pixel checkerboard reduced 2.5× or more: no moiré, every pixel mid grey.
    let shader = ImageShader(image: checkerboard(64), imageToDevice: transform)
    let out = render(shader, width: 24, height: 24, x: -4, y: -4)
    // Colour channels 0.5, alpha 1.
    let colour = out.enumerated().filter { $0.offset % 4 != 3 }.reduce(Float(0)) { max($0, abs($1.element - 0.5)) }
    #expect(colour <= 2 / 255, "\(colour)")
    #expect(stride(from: 3, to: out.count, by: 4).allSatisfy { out[$0] == 1 })
  }

  @Test func levelOfDetailFollowsTheReduction() {
    // 0 up to √2×, 2·log2 s − 1 up to 2×, then log2 s.
    #expect(ImageShader.levelOfDetail(inverseScale: 0.25) == 0)
    #expect(ImageShader.levelOfDetail(inverseScale: 1) == 0)
    #expect(ImageShader.levelOfDetail(inverseScale: 1.4) == 0)
    #expect(abs(ImageShader.levelOfDetail(inverseScale: 1.7) - (2 * 0.765534746362977 - 1)) < 1e-12)
    #expect(ImageShader.levelOfDetail(inverseScale: 2) == 1)
    #expect(abs(ImageShader.levelOfDetail(inverseScale: 3) - 1.584962500721156) < 1e-12)
    #expect(ImageShader.levelOfDetail(inverseScale: 8) == 3)
    // A shader reduced 3× reads levels 1 and 2, the coarser with weight log2 3 − 1.
    let s = ImageShader(image: checkerboard(16), imageToDevice: .scale(1 / 3, 1 / 3))
    #expect(s.fineLevel == 1 && s.coarseLevel == 2 && abs(s.coarseWeight - 0.5849625) < 1e-6)
    #expect(s.pyramid.levels.count == 3)
    // Rotated 4× reduction: the scale ignores the rotation.
    let r = ImageShader(image: checkerboard(16), imageToDevice: AffineTransform.scale(0.25, 0.25).rotatedBy(0.7))
    #expect(abs(r.levelOfDetail - 2) < 1e-12 && r.coarseWeight == 0)
    // An enlarged image needs no pyramid.
    #expect(ImageShader(image: checkerboard(16), imageToDevice: .scale(3, 3)).pyramid.levels.count == 1)
  }

  @Test func pyramidLevelsAreRoundedBoxMeans() {
    // A 3 × 2 image: level 1 is 2 × 1 (the odd column averages with itself), level 2 is 1 × 1.
    var image = Pixmap(width: 3, height: 2)
    image[0, 0] = RGBA8(r: 10, g: 0, b: 0, a: 100)
    image[1, 0] = RGBA8(r: 20, g: 0, b: 0, a: 101)
    image[0, 1] = RGBA8(r: 30, g: 0, b: 0, a: 102)
    image[1, 1] = RGBA8(r: 41, g: 0, b: 0, a: 103)
    image[2, 0] = RGBA8(r: 50, g: 50, b: 50, a: 255)
    image[2, 1] = RGBA8(r: 0, g: 0, b: 0, a: 0)
    let pyramid = ImagePyramid(image)
    #expect(pyramid.levels.count == 3 && !pyramid.isOpaque)
    let one = pyramid.levels[1]
    #expect(one.width == 2 && one.height == 1)
    // (10+20+30+41)/4 = 25.25 → 25; (100+101+102+103)/4 = 101.5 → 102.
    #expect(one[0, 0] == RGBA8(r: 25, g: 0, b: 0, a: 102))
    // (50+50+0+0)/4 = 25; (255+255+0+0)/4 = 127.5 → 128.
    #expect(one[1, 0] == RGBA8(r: 25, g: 25, b: 25, a: 128))
    // (25+25+25+25)/4 = 25; (102+128+102+128)/4 = 115.
    #expect(pyramid.levels[2][0, 0] == RGBA8(r: 25, g: 13, b: 13, a: 115))
    #expect(ImagePyramid(checkerboard(8)).isOpaque)
  }

  @Test func nothingIsDrawnForDegenerateInput() {
    let image = pattern(width: 4, height: 4)
    let flat = ImageShader(image: image, imageToDevice: .scale(0, 1))
    #expect(!flat.isOpaque && render(flat, width: 4, height: 2).allSatisfy { $0 == 0 })
    let empty = ImageShader(image: Pixmap(width: 0, height: 0), imageToDevice: .identity)
    #expect(render(empty, width: 3, height: 1).allSatisfy { $0 == 0 })
    // Far outside the image the edge texels repeat (the caller clips).
    let far = render(ImageShader(image: image, imageToDevice: .identity), width: 1, height: 1, x: 1_000_000, y: -5)
    #expect(close(far, floats(image[3, 0]), 1e-7))
  }
}
