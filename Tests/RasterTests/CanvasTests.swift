import Primitives
import Testing

@testable import Raster

@Suite struct CanvasTests {
  let white = PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)

  @Test func sourceOverByHand() {
    let canvas = Canvas(width: 4, height: 4, background: white)
    canvas.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: .color(Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)))
    // (128, 0, 0, 128) over opaque white: 128 + 255·127/255 = 255, 0 + 127.
    #expect(canvas.pixmap[1, 1] == RGBA8(r: 255, g: 127, b: 127, a: 255))
    // Over transparent: the source itself.
    let clear = Canvas(width: 2, height: 2)
    clear.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), paint: .color(Color(red: 0, green: 0, blue: 1, alpha: 0.5)))
    #expect(clear.pixmap[0, 0] == RGBA8(r: 0, g: 0, b: 128, a: 128))
  }

  /// A mask layer multiplies the layer it is drawn in: by alpha, by
  /// luminance, inverted, times its opacity, and by 0 (1 inverted) where it
  /// draws nothing.
  @Test func masksByHand() {
    func masked(_ mask: LayerMask, opacity: Double = 1, _ color: Color) -> (inside: RGBA8, outside: RGBA8) {
      let canvas = Canvas(width: 4, height: 2)
      canvas.beginLayer(bounds: Rect(x: 0, y: 0, width: 4, height: 2))
      canvas.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 2)), paint: .color(Color(red: 1, green: 0, blue: 0, alpha: 1)))
      canvas.beginLayer(bounds: Rect(x: 0, y: 0, width: 2, height: 2), opacity: opacity, effects: LayerEffects(mask: mask))
      canvas.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 2)), paint: .color(color))
      canvas.endLayer()
      canvas.endLayer()
      return (canvas.pixmap[0, 0], canvas.pixmap[3, 1])
    }
    let red = RGBA8(r: 255, g: 0, b: 0, a: 255), clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
    // Alpha 128: 255 × 128 / 255.
    let half = Color(red: 0, green: 0, blue: 0, alpha: 128.0 / 255)
    #expect(masked(LayerMask(.alpha), half) == (RGBA8(r: 128, g: 0, b: 0, a: 128), clear))
    // Inverted: 255 − 128 = 127; outside, kept.
    #expect(masked(LayerMask(.alpha, inverted: true), half) == (RGBA8(r: 127, g: 0, b: 0, a: 127), red))
    // Luminance of opaque green: 0.7154 × 255 = 182.4 → 182; opaque black masks all.
    let green = Color(red: 0, green: 1, blue: 0, alpha: 1)
    #expect(masked(LayerMask(.luminance), green).inside == RGBA8(r: 182, g: 0, b: 0, a: 182))
    #expect(masked(LayerMask(.luminance), Color(red: 0, green: 0, blue: 0, alpha: 1)).inside == clear)
    // Opacity 0.5 (a byte of 128) of opaque white: w = 128; inverted 127.
    let white = Color(red: 1, green: 1, blue: 1, alpha: 1)
    #expect(masked(LayerMask(.luminance), opacity: 0.5, white).inside == RGBA8(r: 128, g: 0, b: 0, a: 128))
    #expect(masked(LayerMask(.luminance, inverted: true), opacity: 0.5, white).inside == RGBA8(r: 127, g: 0, b: 0, a: 127))
  }

  /// Found by fuzzing (Fuzz/Regressions/svg-path): an edge of subnormal
  /// height has an infinite slope; it trapped on a NaN, and covers nothing.
  /// A path far beyond any integer is clamped, not converted.
  @Test func degenerateEdgesCoverNothing() throws {
    let canvas = Canvas(width: 64, height: 64, background: white)
    canvas.fill(try Path(svgPathData: "M0 1e-310 L1 0"), paint: .color(Color(red: 0, green: 0, blue: 0, alpha: 1)))
    canvas.fill(try Path(svgPathData: "M9e99 0 V1"), paint: .color(Color(red: 0, green: 0, blue: 0, alpha: 1)))
    #expect(canvas.pixmap[0, 0] == RGBA8(r: 255, g: 255, b: 255, a: 255))
  }

  @Test func linearGradientInterpolatesPremultiplied() {
    let canvas = Canvas(width: 100, height: 2)
    let shader = LinearGradientShader(
      start: Point(0, 0), end: Point(100, 0),
      stops: [
        GradientStop(offset: 0, color: Color(red: 1, green: 0, blue: 0).premultiplied),
        GradientStop(offset: 1, color: Color.clear.premultiplied),
      ])
    canvas.fill(.rect(Rect(x: 0, y: 0, width: 100, height: 2)), paint: .linearGradient(shader))
    // Pixel 49 is sampled at x = 49.5: t = 0.495, premultiplied (0.505, 0, 0, 0.505).
    let p = canvas.pixmap[49, 0]
    #expect(abs(Int(p.r) - 129) <= 1 && p.g == 0 && p.b == 0 && abs(Int(p.a) - 129) <= 1)
    // Pad beyond the ends.
    #expect(canvas.pixmap[0, 0].r >= 253 && canvas.pixmap[99, 1].a <= 2)
  }

  @Test(arguments: [(Point(3, 1), Point(93, 31)), (Point(91, 30), Point(12, 2)), (Point(40, 0), Point(41, 39))])
  func anOpaqueGradientReplacesWhatItCoversWhole(start: Point, end: Point) {
    // Under full coverage an opaque gradient is shaded straight into the
    // target: its pixels are the gradient's own, whatever lies beneath, at
    // t = ((x + ½ − sx)·dx + (y + ½ − sy)·dy) / |d|², interpolated by hand,
    // padded past either end (both directions along the row, and steep).
    let stops = [(0.0, (255.0, 0.0, 40.0)), (0.4, (20.0, 220.0, 90.0)), (1.0, (10.0, 30.0, 250.0))]
    let shader = LinearGradientShader(
      start: start, end: end,
      stops: stops.map {
        GradientStop(offset: $0.0, color: Color(red: $0.1.0 / 255, green: $0.1.1 / 255, blue: $0.1.2 / 255).premultiplied)
      })
    func expected(_ x: Int, _ y: Int) -> (Double, Double, Double) {
      let dx = end.x - start.x, dy = end.y - start.y
      let t = min(max(((Double(x) + 0.5 - start.x) * dx + (Double(y) + 0.5 - start.y) * dy) / (dx * dx + dy * dy), 0), 1)
      let (a, b) = t <= 0.4 ? (stops[0], stops[1]) : (stops[1], stops[2])
      let f = (t - a.0) / (b.0 - a.0)
      return (a.1.0 + (b.1.0 - a.1.0) * f, a.1.1 + (b.1.1 - a.1.1) * f, a.1.2 + (b.1.2 - a.1.2) * f)
    }
    var results: [Pixmap] = []
    for background in [white, PremultipliedColor(red: 0.2, green: 0, blue: 0.3, alpha: 0.6)] {
      let canvas = Canvas(width: 100, height: 40, background: background)
      canvas.fill(.rect(Rect(x: 2.5, y: 1.5, width: 94, height: 34)), paint: .linearGradient(shader))
      results.append(canvas.pixmap)
    }
    for y in 2..<35 {
      for x in 3..<96 {
        let p = results[0][x, y]
        #expect(p == results[1][x, y] && p.a == 255)
        let (r, g, b) = expected(x, y)
        #expect(abs(Double(p.r) - r) <= 1 && abs(Double(p.g) - g) <= 1 && abs(Double(p.b) - b) <= 1, "(\(x), \(y)): \(p)")
      }
    }
    // Its half-covered edge is blended: the backgrounds show through.
    #expect(results[0][2, 10] != results[1][2, 10])
  }

  @Test(arguments: [1, 15, 16, 37, 100])
  func aClippedRowBlendsEachPixelByItsCoverageTimesTheClips(width: Int) {
    // Per-pixel coverage under a clip, opaque and translucent colour: each
    // pixel is the over-blend at weight mul255(coverage, clip), by hand;
    // runs of full coverage (filled in one go) included.
    var state: UInt64 = 17
    func next() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let v = UInt8(truncatingIfNeeded: state >> 56)
      return v > 200 ? 255 : v < 20 ? 0 : v
    }
    for colour in [RGBA8(r: 200, g: 30, b: 90, a: 255), RGBA8(r: 60, g: 10, b: 40, a: 128)] {
      // A long run of full coverage under a full clip first, then noise.
      let coverage = (0..<width).map { $0 < width / 2 ? 255 : next() }
      let clip = CoverageMask(bounds: PixelRect(x0: 3, y0: 5, x1: 3 + width, y1: 6), coverage: (0..<width).map { $0 < width / 3 ? 255 : next() })
      var target = Pixmap(width: width + 6, height: 8, fill: RGBA8(r: 10, g: 200, b: 120, a: 255))
      let before = target
      var row = coverage
      Compositor.blendRow(
        &row, x0: 3, y: 5, source: Compositor.RowSource(.solid(colour.premultipliedColor)), clip: clip, into: &target, origin: (0, 0))
      for x in 0..<(width + 6) {
        let d = before[x, 5]
        guard x >= 3 && x < 3 + width else { #expect(target[x, 5] == d); continue }
        let k = mul255(coverage[x - 3], clip.coverage[x - 3])
        let a = mul255(colour.a, k), keep = 255 - a
        let expected = RGBA8(
          r: mul255(colour.r, k) + mul255(d.r, keep), g: mul255(colour.g, k) + mul255(d.g, keep),
          b: mul255(colour.b, k) + mul255(d.b, keep), a: a + mul255(d.a, keep))
        #expect(target[x, 5] == expected, "x = \(x), k = \(k)")
      }
    }
  }

  @Test func radialGradient() {
    let canvas = Canvas(width: 101, height: 101)
    let shader = RadialGradientShader(
      center: Point(50.5, 50.5), startRadius: 0, endRadius: 50,
      stops: [GradientStop(offset: 0, color: Color.black.premultiplied), GradientStop(offset: 1, color: Color.white.premultiplied)])
    canvas.fill(.rect(Rect(x: 0, y: 0, width: 101, height: 101)), paint: .radialGradient(shader))
    #expect(canvas.pixmap[50, 50].r == 0)
    #expect(abs(Int(canvas.pixmap[75, 50].r) - 128) <= 1)  // distance 25: t = 0.5
    #expect(canvas.pixmap[100, 50].r == 255)
  }

  @Test func clipThenFillEqualsFillingTheIntersection() {
    // Rects whose edges fall in different pixels: coverage products are exact there.
    let a = Rect(x: 3.25, y: 2.5, width: 20.4, height: 14.2)
    let b = Rect(x: 10.7, y: 6.3, width: 20.6, height: 20.1)
    let clipped = Canvas(width: 40, height: 40, background: white)
    clipped.pushClip(.rect(a))
    clipped.fill(.rect(b), paint: .color(.black))
    clipped.popClip()
    let direct = Canvas(width: 40, height: 40, background: white)
    direct.fill(.rect(a.intersection(b)), paint: .color(.black))
    let diff = zip(clipped.pixmap.bytes, direct.pixmap.bytes).map { abs(Int($0) - Int($1)) }.max()!
    #expect(diff <= 1)
    // A circle clip over a covering fill is the circle.
    let circle = Path.circle(in: Rect(x: 5.3, y: 4.1, width: 28, height: 28))
    let byClip = Canvas(width: 40, height: 40, background: white)
    byClip.pushClip(circle)
    byClip.fill(.rect(Rect(x: 0, y: 0, width: 40, height: 40)), paint: .color(.black))
    byClip.popClip()
    let byFill = Canvas(width: 40, height: 40, background: white)
    byFill.fill(circle, paint: .color(.black))
    #expect(byClip.pixmap == byFill.pixmap)
  }

  @Test func nestedClipsIntersect() {
    let canvas = Canvas(width: 20, height: 20, background: white)
    canvas.pushClip(.rect(Rect(x: 0, y: 0, width: 10, height: 20)))
    canvas.pushClip(.rect(Rect(x: 5, y: 0, width: 15, height: 20)))
    canvas.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), paint: .color(.black))
    canvas.popClip()
    canvas.fill(.rect(Rect(x: 0, y: 15, width: 20, height: 5)), paint: .color(Color(red: 1, green: 0, blue: 0)))
    canvas.popClip()
    let p = canvas.pixmap
    #expect(p[4, 5] == RGBA8(r: 255, g: 255, b: 255, a: 255) && p[5, 5] == RGBA8(r: 0, g: 0, b: 0, a: 255))
    #expect(p[10, 5] == RGBA8(r: 255, g: 255, b: 255, a: 255))
    #expect(p[2, 17] == RGBA8(r: 255, g: 0, b: 0, a: 255) && p[12, 17] == RGBA8(r: 255, g: 255, b: 255, a: 255))
  }

  @Test func groupOpacityIsUniformOverOverlaps() {
    let red = Color(red: 1, green: 0, blue: 0)
    let first = Rect(x: 2, y: 2, width: 12, height: 12), second = Rect(x: 8, y: 8, width: 12, height: 12)
    let group = Canvas(width: 24, height: 24, background: white)
    group.beginLayer(bounds: first.union(second), opacity: 0.5)
    group.fill(.rect(first), paint: .color(red))
    group.fill(.rect(second), paint: .color(red))
    group.endLayer()
    #expect(group.pixmap[10, 10] == group.pixmap[4, 4])  // overlap = single
    #expect(group.pixmap[4, 4] == RGBA8(r: 255, g: 127, b: 127, a: 255))
    // Without the group, the overlap is darker.
    let separate = Canvas(width: 24, height: 24, background: white)
    separate.fill(.rect(first), paint: .color(red.withAlpha(0.5)))
    separate.fill(.rect(second), paint: .color(red.withAlpha(0.5)))
    #expect(separate.pixmap[10, 10].g < separate.pixmap[4, 4].g)
  }

  @Test func layerIsBoundedAndClipped() {
    // A layer under a clip composites only inside the clip.
    let canvas = Canvas(width: 20, height: 20, background: white)
    canvas.pushClip(.rect(Rect(x: 0, y: 0, width: 10, height: 20)))
    canvas.beginLayer(bounds: Rect(x: 0, y: 0, width: 20, height: 20), opacity: 1)
    canvas.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), paint: .color(.black))
    canvas.endLayer()
    canvas.popClip()
    #expect(canvas.pixmap[9, 3].r == 0 && canvas.pixmap[10, 3].r == 255)
  }

  @Test func blurAndShadowEffects() {
    let card = Rect(x: 30, y: 30, width: 40, height: 40)
    let canvas = Canvas(width: 100, height: 110, background: white)
    canvas.beginLayer(bounds: card, effects: LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: 0.5).premultiplied, 4, Vector2(0, 10))))
    canvas.fill(.rect(card), paint: .color(.white))
    canvas.endLayer()
    let p = canvas.pixmap
    // Under the card's bottom edge, shifted down 10: about half of 50% black.
    #expect(p[50, 80].r < 200 && p[50, 80].r > 100)
    #expect(p[50, 50] == RGBA8(r: 255, g: 255, b: 255, a: 255))  // the card itself on top
    #expect(p[50, 5] == RGBA8(r: 255, g: 255, b: 255, a: 255))  // nothing above
    // A blurred layer equals the blurred pixmap of its content.
    let blurred = Canvas(width: 60, height: 60)
    blurred.beginLayer(bounds: Rect(x: 20, y: 20, width: 20, height: 20), effects: LayerEffects(blur: 3))
    blurred.fill(.rect(Rect(x: 20, y: 20, width: 20, height: 20)), paint: .color(.black))
    blurred.endLayer()
    var reference = Pixmap(width: 60, height: 60)
    for y in 20..<40 { for x in 20..<40 { reference[x, y] = RGBA8(r: 0, g: 0, b: 0, a: 255) } }
    reference = reference.blurred(sigma: 3)
    let diff = zip(blurred.pixmap.bytes, reference.bytes).map { abs(Int($0) - Int($1)) }.max()!
    #expect(diff <= 1)
  }

  @Test func imagesThroughTheCanvas() {
    var image = Pixmap(width: 3, height: 2)
    image[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
    image[2, 1] = RGBA8(r: 0, g: 0, b: 128, a: 128)
    let canvas = Canvas(width: 10, height: 10)
    canvas.drawImage(image, transform: .translation(4, 5))
    #expect(canvas.pixmap[4, 5] == RGBA8(r: 255, g: 0, b: 0, a: 255))
    #expect(canvas.pixmap[6, 6] == RGBA8(r: 0, g: 0, b: 128, a: 128))
    #expect(canvas.pixmap[3, 5] == .transparent && canvas.pixmap[7, 5] == .transparent)
  }
}
