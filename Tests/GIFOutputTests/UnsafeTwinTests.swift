import Foundation
import Primitives
import Raster
import Testing

@testable import GIFOutput

/// Each pointer loop of GIFOutput (the +Unsafe.swift files) against its
/// safe twin on random frames from a seeded generator, exactly.
@Suite struct UnsafeTwinTests {
  /// A UI-like random frame: a random gradient under random rectangles of a
  /// few flat colours, some of them translucent (premultiplied), and a
  /// sprinkle of random pixels: exact colours, mixes, edges and, with
  /// `transparentHoles`, pixels with alpha below and above 128.
  static func randomFrame(width: Int, height: Int, transparentHoles: Bool, using random: inout SplitMix64) -> Pixmap {
    func byte() -> UInt8 { UInt8(truncatingIfNeeded: random.next()) }
    let base = (0..<3).map { _ in Double(byte()) }, slope = (0..<6).map { _ in random.range(-2, 2) }
    var frame = Pixmap(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        func channel(_ c: Int) -> UInt8 { UInt8(min(255, max(0, base[c] + slope[2 * c] * Double(x) + slope[2 * c + 1] * Double(y)))) }
        frame[x, y] = RGBA8(r: channel(0), g: channel(1), b: channel(2), a: 255)
      }
    }
    let flats = (0..<5).map { _ in RGBA8(r: byte(), g: byte(), b: byte(), a: 255) }
    for _ in 0..<8 {
      let x0 = Int(random.next() % UInt64(width)), y0 = Int(random.next() % UInt64(height))
      let x1 = min(width, x0 + 1 + Int(random.next() % 24)), y1 = min(height, y0 + 1 + Int(random.next() % 24))
      let flat = flats[Int(random.next() % 5)]
      let alpha: UInt8 = transparentHoles && random.next() % 3 == 0 ? [0, 40, 127, 128, 200][Int(random.next() % 5)] : 255
      func scaled(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(alpha) + 127) / 255) }
      for y in y0..<y1 {
        for x in x0..<x1 { frame[x, y] = RGBA8(r: scaled(flat.r), g: scaled(flat.g), b: scaled(flat.b), a: alpha) }
      }
    }
    for _ in 0..<(width * height / 16) {
      let x = Int(random.next() % UInt64(width)), y = Int(random.next() % UInt64(height))
      let alpha = transparentHoles ? byte() : 255
      frame[x, y] = RGBA8(r: min(byte(), alpha), g: min(byte(), alpha), b: min(byte(), alpha), a: alpha)
    }
    return frame
  }

  struct Setting: Sendable, CustomTestStringConvertible {
    let transparent: Bool, dither: GIFDither, seed: UInt64
    var testDescription: String { "\(transparent ? "transparent" : "opaque"), \(dither), seed \(seed)" }
  }
  static let settings = [
    Setting(transparent: false, dither: .bayer, seed: 1), Setting(transparent: false, dither: .blueNoise, seed: 2),
    Setting(transparent: true, dither: .bayer, seed: 3), Setting(transparent: true, dither: .blueNoise, seed: 4),
  ]

  /// The quantizer on random frames, with a palette built from them and with
  /// a small fixed one (far more mixes), and random penalties and edge
  /// thresholds: every index equal to the twin's.
  @Test(arguments: settings) func quantizerMatchesItsSafeTwin(_ setting: Setting) {
    var random = SplitMix64(seed: setting.seed)
    for (width, height) in [(97, 61), (64, 64), (1, 9), (13, 1)] {
      let frame = Self.randomFrame(width: width, height: height, transparentHoles: setting.transparent, using: &random)
      let built = GIFPalette.build(samples: [frame], transparent: setting.transparent)
      let few = GIFPalette(
        colors: [RGBA8(r: 0, g: 0, b: 0, a: 255), RGBA8(r: 255, g: 255, b: 255, a: 255), RGBA8(r: 0, g: 122, b: 255, a: 255)]
          + (setting.transparent ? [.transparent] : []),
        transparentIndex: setting.transparent ? 3 : nil)
      for palette in [built, few] {
        let quantizer = GIFQuantizer(
          palette: palette, noisePenalty: Float(random.range(0, 1)), edgeThreshold: Int(random.next() % 64), dither: setting.dither)
        let fast = quantizer.quantize(frame), reference = quantizer.referenceQuantize(frame)
        #expect(fast == reference, "\(width)×\(height), \(palette.colors.count) colours")
      }
    }
  }

  /// The twin itself is not trivial on these frames: it dithers (more
  /// indices than the frame has flat colours) and keeps flat areas exact.
  @Test func theRandomFramesAreDitheredAndExact() {
    var random = SplitMix64(seed: 5)
    let frame = Self.randomFrame(width: 97, height: 61, transparentHoles: false, using: &random)
    let palette = GIFPalette(colors: [RGBA8(r: 0, g: 0, b: 0, a: 255), RGBA8(r: 255, g: 255, b: 255, a: 255)])
    let indices = GIFQuantizer(palette: palette).referenceQuantize(frame).indices
    // Two entries for a gradient of many greys: both used, in a mix.
    #expect(Set(indices) == [0, 1])
    let whites = indices.filter { $0 == 1 }.count
    #expect(whites > indices.count / 20 && whites < indices.count * 19 / 20)
  }

  @Test(arguments: [false, true]) func histogramMatchesItsSafeTwin(transparent: Bool) {
    var random = SplitMix64(seed: transparent ? 6 : 7)
    var fast = Histogram(transparent: transparent), reference = Histogram(transparent: transparent)
    for (width, height) in [(97, 61), (1, 1), (1, 30), (40, 1), (64, 64)] {
      let frame = Self.randomFrame(width: width, height: height, transparentHoles: transparent, using: &random)
      fast.add(frame); reference.referenceAdd(frame)
    }
    #expect(fast.keys.count > 100)
    #expect(Self.same(fast, reference))
  }

  /// Past the histogram's 2¹⁷ colours, runs go to the overflow bins unless
  /// they have interior pixels: the same bins in both.
  @Test func histogramOverflowMatchesItsSafeTwin() {
    var random = SplitMix64(seed: 8)
    let width = 640, height = 400
    var bytes = [UInt8](repeating: 255, count: 4 * width * height)
    for i in 0..<(width * height) {
      let value = random.next()
      // Runs of a few equal pixels, and rows that repeat (interior pixels).
      let source = i % 3 == 0 || (i / width) % 7 == 6 ? (i % 3 == 0 ? i - 1 : i - width) : -1
      for channel in 0..<3 { bytes[4 * i + channel] = source >= 0 ? bytes[4 * source + channel] : UInt8(truncatingIfNeeded: value >> (8 * channel)) }
    }
    let frame = Pixmap(width: width, height: height, bytes: bytes)
    var fast = Histogram(transparent: false), reference = Histogram(transparent: false)
    fast.add(frame); reference.referenceAdd(frame)
    #expect(fast.overflowed)
    #expect(Self.same(fast, reference))
  }

  /// Whether two histograms hold the same colours, counts and bins (a
  /// Bool, not the arrays: an expectation on them would print them whole).
  static func same(_ a: Histogram, _ b: Histogram) -> Bool {
    a.keys == b.keys && a.counts == b.counts && a.interior == b.interior && a.total == b.total && a.overflow == b.overflow
  }

  @Test func changedRectanglesMatchTheSafeTwin() throws {
    var random = SplitMix64(seed: 9)
    for (width, height) in [(37, 23), (1, 1), (1, 17), (64, 2)] {
      let path = temporaryPath("twin.gif")
      defer { try? FileManager.default.removeItem(atPath: path) }
      let writer = try GIFWriter(path: path, width: width, height: height, palette: GIFPalette(colors: [rgb(0, 0, 0), rgb(255, 255, 255)]))
      for _ in 0..<50 {
        let first = (0..<(width * height)).map { _ in UInt8(random.next() % 2) }
        var second = first
        // Zero to four changed pixels anywhere.
        for _ in 0..<Int(random.next() % 5) { second[Int(random.next() % UInt64(width * height))] ^= 1 }
        let expected = writer.referenceChangedRectangle(first, second)
        let found = writer.changedRectangle(first, second)
        #expect(found.map { [$0.x, $0.y, $0.w, $0.h] } == expected.map { [$0.x, $0.y, $0.w, $0.h] }, "\(width)×\(height)")
      }
    }
  }
}
