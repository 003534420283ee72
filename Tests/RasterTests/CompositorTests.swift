import Primitives
import Testing

@testable import Raster

/// The compositor's vector loops (Compositor+Unsafe.swift) against their
/// safe twins (Compositor.swift), byte for byte, on random rows of every
/// length from 0 to past three vectors, so that every tail is met.
struct CompositorTests {
  /// Random premultiplied pixels (colour ≤ alpha), with runs of transparent
  /// and opaque ones (which the loops skip and copy eight at a time).
  static func pixels(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
    var out: [UInt8] = []
    let kind = random.next() % 4
    for _ in 0..<count {
      let alpha: UInt8 =
        switch kind {
        case 0: 0
        case 1: 255
        default: random.next() % 3 == 0 ? (random.next() % 2 == 0 ? 0 : 255) : UInt8(truncatingIfNeeded: random.next())
        }
      for _ in 0..<3 { out.append(UInt8(Int(truncatingIfNeeded: random.next() % 256) * Int(alpha) / 255)) }
      out.append(alpha)
    }
    return out
  }

  static func weights(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
    let kind = random.next() % 4
    return (0..<count).map { _ in
      switch kind {
      case 0: 0
      case 1: 255
      default: random.next() % 3 == 0 ? (random.next() % 2 == 0 ? 0 : 255) : UInt8(truncatingIfNeeded: random.next())
      }
    }
  }

  static let lengths = Array(0...27) + [64, 100, 255]

  @Test func blendOverWithOneWeight() {
    var random = SplitMix64(seed: 1)
    for n in Self.lengths {
      for weight: UInt8 in [255, 254, 200, 128, 1, 0] {
        for _ in 0..<8 {
          let source = Self.pixels(n, &random), target = Self.pixels(n, &random)
          var fast = target, reference = target
          Compositor.blendOver(source, into: &fast, weight: weight)
          Compositor.referenceBlendOver(source, into: &reference, weight: weight)
          #expect(fast == reference, "\(n) pixels, weight \(weight)")
        }
      }
    }
  }

  @Test func blendOverWithAWeightPerPixel() {
    var random = SplitMix64(seed: 2)
    for n in Self.lengths {
      for _ in 0..<40 {
        let source = Self.pixels(n, &random), target = Self.pixels(n, &random), weights = Self.weights(n, &random)
        var fast = target, reference = target
        Compositor.blendOver(source, weights: weights, into: &fast)
        Compositor.referenceBlendOver(source, weights: weights, into: &reference)
        #expect(fast == reference, "\(n) pixels")
      }
    }
  }

  @Test func solidColourRowsAndRuns() {
    var random = SplitMix64(seed: 3)
    for n in Self.lengths {
      for _ in 0..<40 {
        let colour = Self.pixels(1, &random)
        let color = RGBA8(r: colour[0], g: colour[1], b: colour[2], a: colour[3])
        let target = Self.pixels(n, &random), weights = Self.weights(n, &random)
        var fast = target, reference = target
        Compositor.blendSolid(color, coverage: weights, into: &fast)
        Compositor.referenceBlendSolid(color, weights: weights, into: &reference)
        #expect(fast == reference, "\(n) pixels of \(color)")
        let c = UInt8(truncatingIfNeeded: random.next())
        var run = target, runReference = target
        Compositor.fillSolid(color, coverage: c, into: &run)
        Compositor.referenceBlendSolid(color, weights: [UInt8](repeating: c, count: n), into: &runReference)
        #expect(run == runReference, "a run of \(n) pixels of \(color) at \(c)")
      }
    }
  }

  @Test func coverageTimesAClip() {
    var random = SplitMix64(seed: 4)
    for n in Self.lengths + [31, 32, 33, 65] {
      var coverage = Self.weights(n, &random)
      let clip = Self.weights(n, &random)
      let expected = Compositor.referenceMultiply(coverage, by: clip)
      Compositor.multiplyCoverage(&coverage, by: clip)
      #expect(coverage == expected, "\(n) bytes")
    }
  }

  /// Mask layers over targets of every width to past two vectors, the
  /// mask offset every way (partly outside, wholly outside), each mode.
  @Test func masksMultiplyAsTheirTwin() {
    var random = SplitMix64(seed: 7)
    for width in Array(0...20) + [31, 33] {
      for _ in 0..<6 {
        let height = Int(random.next() % 5) + 1
        let target = Pixmap(width: width, height: height, bytes: Self.pixels(width * height, &random))
        let (mw, mh) = (Int(random.next() % 24), Int(random.next() % 7))
        let mask = Pixmap(width: mw, height: mh, bytes: Self.pixels(mw * mh, &random))
        let origin = (Int(random.next() % 30) - 15, Int(random.next() % 10) - 5), targetOrigin = (Int(random.next() % 6) - 3, 0)
        let mode = LayerMask(random.next() % 2 == 0 ? .alpha : .luminance, inverted: random.next() % 2 == 0)
        let opacity = [1, 0.5, 0, 0.3][Int(random.next() % 4)]
        var expected = target, got = target
        Compositor.referenceApplyMask(mask, origin: origin, mode: mode, opacity: opacity, to: &expected, targetOrigin: targetOrigin)
        Compositor.applyMask(mask, origin: origin, mode: mode, opacity: opacity, to: &got, targetOrigin: targetOrigin)
        #expect(got.bytes == expected.bytes, "\(width)×\(height), mask \(mw)×\(mh) at \(origin), \(mode), \(opacity)")
      }
    }
  }

  @Test func shiftedImages() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<60 {
      let w = Int(random.next() % 40) + 1, h = Int(random.next() % 12) + 1
      let image = Pixmap(width: w, height: h, bytes: Self.pixels(w * h, &random))
      let targetBytes = Self.pixels(48 * 16, &random)
      let origin = (Int(random.next() % 20) - 8, Int(random.next() % 10) - 4)
      let shift = (Int(random.next() % 16), Int(random.next() % 16))
      // Sometimes part of the target is left alone, as an opaque card over a shadow is.
      let hidden: PixelRect? =
        random.next() % 2 == 0 ? PixelRect(x0: Int(random.next() % 30), y0: Int(random.next() % 10), x1: 34, y1: 12) : nil
      var fast = Pixmap(width: 48, height: 16, bytes: targetBytes), reference = fast
      Compositor.blendShiftedImage(image, origin: origin, shift: shift, into: &fast, targetOrigin: (0, 0), hidden: hidden)
      Compositor.referenceBlendShiftedImage(image, origin: origin, shift: shift, into: &reference, targetOrigin: (0, 0))
      for y in 0..<16 {
        for x in 0..<48 {
          if let hidden, x >= hidden.x0, x < hidden.x1, y >= hidden.y0, y < hidden.y1 {
            #expect(fast[x, y] == Pixmap(width: 48, height: 16, bytes: targetBytes)[x, y], "hidden pixel (\(x), \(y)) untouched")
          } else {
            #expect(fast[x, y] == reference[x, y], "pixel (\(x), \(y)) of a \(w)×\(h) image at \(origin) + \(shift)/16")
          }
        }
      }
    }
  }

  @Test func layersWithOpacityAndAClip() {
    var random = SplitMix64(seed: 6)
    for _ in 0..<60 {
      let w = Int(random.next() % 30) + 1, h = Int(random.next() % 8) + 1
      let layer = Pixmap(width: w, height: h, bytes: Self.pixels(w * h, &random))
      let start = Pixmap(width: 40, height: 12, bytes: Self.pixels(40 * 12, &random))
      let opacity = [1, 0.5, 0.25, 0.999, 0.01][Int(random.next() % 5)]
      let clip: CoverageMask? =
        random.next() % 2 == 0 ? CoverageMask(bounds: PixelRect(x0: 2, y0: 1, x1: 38, y1: 11), coverage: Self.weights(36 * 10, &random)) : nil
      let origin = (Int(random.next() % 16) - 4, Int(random.next() % 8) - 2)
      var fast = start
      Compositor.blendLayer(layer, origin: origin, opacity: opacity, clip: clip, into: &fast, targetOrigin: (0, 0))
      // By hand: each pixel under opacity × clip.
      let k = UInt8((opacity * 255).rounded())
      for y in 0..<12 {
        for x in 0..<40 {
          let lx = x - origin.0, ly = y - origin.1
          guard lx >= 0, lx < w, ly >= 0, ly < h else { #expect(fast[x, y] == start[x, y]); continue }
          let weight = clip.map { mul255(k, $0[x, y]) } ?? k
          #expect(fast[x, y] == Compositor.over(layer[lx, ly], weight: weight, onto: start[x, y]), "(\(x), \(y))")
        }
      }
    }
  }
}
