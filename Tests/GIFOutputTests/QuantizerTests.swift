import Foundation
import GIFOutput
import Primitives
import Raster
import Testing

@Suite struct QuantizerTests {
  /// A 2-D gradient: thousands of colours, far more than a palette holds.
  static func gradient(_ w: Int = 320, _ h: Int = 120, phase: Int = 0) -> Pixmap {
    pixmap(w, h) { x, y in rgb(20 + (x + phase) * 215 / (w - 1 + phase), 40 + y * 150 / (h - 1), 220 - x * 180 / (w - 1)) }
  }

  @Test func exactColoursMapToThemselves() {
    let colors = [rgb(0, 0, 0), rgb(255, 255, 255), rgb(242, 242, 247), rgb(0, 122, 255), rgb(88, 86, 214), rgb(255, 59, 48), rgb(128, 128, 128)]
    let palette = GIFPalette(colors: colors)
    let frame = pixmap(64, 64) { x, y in colors[(x / 9 + y / 5) % colors.count] }
    let q = GIFQuantizer(palette: palette).quantize(frame)
    for y in 0..<64 { for x in 0..<64 { #expect(Int(q.indices[y * 64 + x]) == (x / 9 + y / 5) % colors.count) } }
  }

  /// Flat areas keep their exact colour even among thousands of gradient colours.
  @Test func flatAreasAreExactAndUndithered() {
    let flats = [
      rgb(242, 242, 247), rgb(255, 255, 255), rgb(88, 86, 214), rgb(52, 199, 89), rgb(255, 149, 0), rgb(175, 82, 222), rgb(90, 200, 250),
      rgb(28, 28, 30),
    ]
    let base = Self.gradient(400, 200)
    var frame = base
    for (k, c) in flats.enumerated() {
      for y in 100..<140 { for x in (k * 48 + 8)..<(k * 48 + 40) { frame[x, y] = c } }
    }
    let palette = GIFPalette.build(samples: [frame], transparent: false)
    #expect(palette.colors.count <= 255)
    for c in flats { #expect(palette.colors.contains(c)) }
    let q = GIFQuantizer(palette: palette).quantize(frame)
    for (k, c) in flats.enumerated() {
      let index = palette.colors.firstIndex(of: c)!
      for y in 100..<140 { for x in (k * 48 + 8)..<(k * 48 + 40) { #expect(Int(q.indices[y * 400 + x]) == index) } }
    }
  }

  /// Dithered gradients average to the source: small error per pixel and
  /// very small error after averaging 4×4 blocks (what the eye sees).
  @Test func gradientDecodesWithinASmallMeanError() throws {
    let frame = Self.gradient()
    let palette = GIFPalette.build(samples: [frame], transparent: false)
    let q = GIFQuantizer(palette: palette).quantize(frame)
    let (_, gif) = try writeAndDecode([q], delays: [4], palette: palette)
    let out = gif.canvases[0]
    var raw = 0.0, blocks = 0.0, n = 0
    for i in 0..<(320 * 120) { for c in 0..<3 { raw += abs(Double(out[4 * i + c]) - Double(frame.bytes[4 * i + c])) } }
    for by in 0..<(120 / 4) {
      for bx in 0..<(320 / 4) {
        for c in 0..<3 {
          var s = 0.0
          for y in (4 * by)..<(4 * by + 4) {
            for x in (4 * bx)..<(4 * bx + 4) { s += Double(out[4 * (y * 320 + x) + c]) - Double(frame.bytes[4 * (y * 320 + x) + c]) }
          }
          blocks += abs(s / 16); n += 1
        }
      }
    }
    raw /= Double(320 * 120 * 3); blocks /= Double(n)
    // In 8-bit levels per channel: 255 entries over this sheet of colours lie
    // ~11 levels apart, so a pixel is off by a few levels, a 4×4 average by ~1.
    #expect(raw < 4)
    #expect(blocks < 1.2)
  }

  /// The same colours at the same place dither the same way in every frame,
  /// whatever changes elsewhere (no shimmer). (A pixel next to a change may
  /// switch between dithered and not, as it may become an edge: x = 127 here.)
  @Test(arguments: [GIFDither.bayer, .blueNoise]) func ditheringIsStableBetweenFrames(dither: GIFDither) {
    let a = Self.gradient(256, 96)
    var b = a
    for y in 0..<96 { for x in 128..<256 { b[x, y] = rgb(255 - x / 2, (x * y) % 256, 90 + y) } }
    let palette = GIFPalette.build(samples: [a, b], transparent: false)
    let quantizer = GIFQuantizer(palette: palette, dither: dither)
    let qa = quantizer.quantize(a), qb = quantizer.quantize(b)
    var differ = 0, same = 0
    for y in 0..<96 {
      for x in 0..<256 {
        let equal = qa.indices[y * 256 + x] == qb.indices[y * 256 + x]
        if x < 127 { #expect(equal, "(\(x), \(y))") } else if x >= 128 { if equal { same += 1 } else { differ += 1 } }
      }
    }
    #expect(differ > 1000)  // the other half did change
    // And the left half really is dithered (more than one index per colour column).
    #expect(Set(qa.indices.enumerated().filter { $0.offset % 256 < 128 }.map(\.element)).count > 20)
  }

  /// An anti-aliased edge between two entries is not dithered: its pixels,
  /// halfway in colour, all take the nearest entry instead of a 50% pattern.
  @Test func edgesAreNotDithered() {
    let blue = rgb(0, 122, 255), white = rgb(255, 255, 255), half = rgb(128, 189, 255)
    let palette = GIFPalette(colors: [blue, white])
    let frame = pixmap(100, 64) { x, _ in x < 50 ? blue : x == 50 ? half : white }
    let q = GIFQuantizer(palette: palette).quantize(frame)
    let column = (0..<64).map { q.indices[$0 * 100 + 50] }
    #expect(Set(column).count == 1)
    // The same colour over an area (no edge) is dithered about half and half.
    let flat = GIFQuantizer(palette: palette).quantize(pixmap(64, 64) { _, _ in half })
    let whites = flat.indices.filter { $0 == 1 }.count
    let range: ClosedRange<Int> = 1638...2458  // 40% to 60% of 4,096
    #expect(range.contains(whites))
  }

  @Test func paletteAndQuantizationAreDeterministicAndThreadSafe() async {
    let frame = Self.gradient()
    let p1 = GIFPalette.build(samples: [frame], transparent: false)
    let p2 = GIFPalette.build(samples: [frame], transparent: false)
    #expect(p1 == p2)
    let quantizer = GIFQuantizer(palette: p1)
    let reference = quantizer.quantize(frame)
    let results = await withTaskGroup(of: IndexedFrame.self) { group in
      for _ in 0..<4 { group.addTask { quantizer.quantize(frame) } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.allSatisfy { $0 == reference })
  }

  /// Far more colours than the histogram keeps one by one (2¹⁸ distinct):
  /// still a full palette, deterministic, with the flat colours exact.
  @Test func photoLikeFramesWithEveryColour() {
    let flat = [rgb(242, 242, 247), rgb(0, 122, 255)]
    let frame = pixmap(512, 512) { x, y in
      if (40..<140).contains(x) && (40..<140).contains(y) { return flat[0] }
      if (300..<400).contains(x) && (300..<400).contains(y) { return flat[1] }
      let i = y * 512 + x  // every 18-bit value once, spread over the cube
      return rgb((i & 63) << 2 | 1, (i >> 6 & 63) << 2 | 2, (i >> 12) << 2 | 3)
    }
    let palette = GIFPalette.build(samples: [frame], transparent: false)
    #expect(palette.colors.count == 255)
    #expect(palette == GIFPalette.build(samples: [frame], transparent: false))
    for c in flat { #expect(palette.colors.contains(c)) }
  }

  @Test func paletteSizes() {
    let frame = Self.gradient()
    #expect(GIFPalette.build(samples: [frame], transparent: false).colors.count == 255)
    let t = GIFPalette.build(samples: [frame], transparent: true)
    #expect(t.colors.count == 256 && t.transparentIndex == 255)
    let empty = GIFPalette.build(samples: [Pixmap(width: 4, height: 4)], transparent: true)
    #expect(empty.colors.count == 2 && empty.transparentIndex == 1)
    let few = GIFPalette.build(samples: [WriterTests.uiFrame(squareX: 3)], transparent: false)
    #expect(Set(few.colors) == Set(WriterTests.uiColors))
  }

  /// Each threshold map dithers a mid-grey between black and 254 into
  /// exactly half white pixels, evenly: every 8×8 block close to half.
  @Test(arguments: [GIFDither.bayer, .blueNoise]) func thresholdMapsAreEven(dither: GIFDither) {
    let palette = GIFPalette(colors: [rgb(0, 0, 0), rgb(254, 254, 254)])
    // Mid-grey 127 lies at α = 0.5 between black and 254.
    let frame = pixmap(128, 128) { _, _ in rgb(127, 127, 127) }
    let q = GIFQuantizer(palette: palette, noisePenalty: 0, dither: dither).quantize(frame)
    #expect(q.indices.filter { $0 == 1 }.count == 128 * 128 / 2)
    for by in 0..<16 {
      for bx in 0..<16 {
        var n = 0
        for y in (8 * by)..<(8 * by + 8) { for x in (8 * bx)..<(8 * bx + 8) where q.indices[y * 128 + x] == 1 { n += 1 } }
        #expect((24...40).contains(n), "block (\(bx), \(by)): \(n)")
      }
    }
  }
}
