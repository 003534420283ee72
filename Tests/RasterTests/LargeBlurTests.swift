import PortableMath
import Primitives
import Testing

@testable import Raster

/// The true Gaussian of σ applied to one channel of a pixmap (0…255,
/// unrounded), sampled at each pixel moved by `shift` (output (x, y) takes
/// the blurred value at (x, y) − shift): the 2-D Gaussian is separable, so
/// this is rows then columns, each a 1-D convolution with exp(−d²/2σ²)
/// evaluated at the exact (fractional) distances, cut at 6σ. Zeros outside.
private func trueGaussian(_ p: Pixmap, channel: Int, sigma: Double, shift: Vector2 = .zero) -> [Double] {
  let w = p.width, h = p.height
  let k = Int((6 * sigma).rounded(.up)) + 2
  func weights(_ s: Double) -> (first: Int, taps: [Double]) {
    // Output x reads inputs x − s + d for d in −k…k: weight of input j is g(x − s − j).
    let whole = Int(s.rounded(.down)), f = s - Double(whole)
    var taps: [Double] = []
    for d in -k...k { taps.append(Elementary.exp(-(Double(d) + f) * (Double(d) + f) / (2 * sigma * sigma))) }
    let total = taps.reduce(0, +)
    return (-k - whole, taps.map { $0 / total })
  }
  // One 1-D pass over the w × h grid `value(x, y)`, along x or along y.
  func pass(_ value: (Int, Int) -> Double, shift: Double, alongX: Bool) -> [Double] {
    let (first, taps) = weights(shift)
    var out = [Double](repeating: 0, count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        var sum = 0.0
        for (i, t) in taps.enumerated() {
          let j = (alongX ? x : y) + first + i
          if j >= 0 && j < (alongX ? w : h) { sum += t * (alongX ? value(j, y) : value(x, j)) }
        }
        out[y * w + x] = sum
      }
    }
    return out
  }
  let rows = pass({ Double(p.bytes[4 * ($1 * w + $0) + channel]) }, shift: shift.x, alongX: true)
  return pass({ rows[$1 * w + $0] }, shift: shift.y, alongX: false)
}

/// Large blurs run at reduced resolution (Blur+Decimated.swift): checked
/// here against the true Gaussian, within the 2% of full scale `BlurTests`
/// allows the box passes. Measured: 4.9 levels at σ = 15.9 (full resolution,
/// the box passes' own shape error), 4.6 at σ = 16 (reduced twice), so the
/// reduction adds nothing visible.
@Suite struct LargeBlurTests {
  @Test func theReductionIsAPowerOfTwoAtMostAnEighthOfSigma() {
    #expect(GaussianBlur.decimation(for: 15.9) == 1)
    #expect(GaussianBlur.decimation(for: 16) == 2)
    #expect(GaussianBlur.decimation(for: 31.9) == 2)
    #expect(GaussianBlur.decimation(for: 32) == 4)
    #expect(GaussianBlur.decimation(for: 64) == 8)
    #expect(GaussianBlur.decimation(for: 127) == 8)
  }

  /// A shape with hard edges, a thin line and a lone pixel, at odd offsets
  /// from the reduction grid.
  static func shapes(sigma: Double) -> Pixmap {
    let pad = Pixmap.blurPadding(sigma: sigma) + 3
    let size = 2 * pad + 41
    var p = Pixmap(width: size, height: size + 7)
    for y in (pad + 3)..<(pad + 3 + 23) { for x in (pad + 1)..<(pad + 1 + 17) { p[x, y] = RGBA8(r: 0, g: 200, b: 255, a: 255) } }
    for y in (pad + 5)..<(pad + 40) { p[pad + 30, y] = RGBA8(r: 255, g: 0, b: 0, a: 255) }
    p[pad + 37, pad + 33] = RGBA8(r: 255, g: 255, b: 255, a: 255)
    return p
  }

  @Test(arguments: [15.9, 16.0, 23.3, 33])
  func colourBlurMatchesTheTrueGaussian(sigma: Double) {
    let p = Self.shapes(sigma: sigma)
    let blurred = p.blurred(sigma: sigma)
    var worst = 0.0
    for channel in [1, 3] {
      let reference = trueGaussian(p, channel: channel, sigma: sigma)
      for i in 0..<(p.width * p.height) { worst = max(worst, abs(Double(blurred.bytes[4 * i + channel]) - reference[i])) }
    }
    #expect(worst <= 0.02 * 255, "σ = \(sigma): \(worst) levels")
  }

  @Test(arguments: [(16.0, 3.25, -2.5), (34, -0.375, 7)])
  func shadowCoverageMatchesTheShiftedTrueGaussian(sigma: Double, dx: Double, dy: Double) throws {
    let offset = Vector2(dx, dy)
    let p = Self.shapes(sigma: sigma)
    let coverage = try #require(p.shadowCoverage(sigma: sigma, offset: offset))
    let reference = trueGaussian(p, channel: 3, sigma: sigma, shift: offset)
    let worst = zip(coverage, reference).reduce(0) { max($0, abs(Double($1.0) - $1.1)) }
    #expect(worst <= 0.02 * 255, "σ = \(sigma), offset \(offset): \(worst) levels")
  }

  @Test func massIsKeptAndColourStaysWithinAlpha() {
    let p = Self.shapes(sigma: 20)
    let b = p.blurred(sigma: 20)
    let before = stride(from: 3, to: p.bytes.count, by: 4).reduce(0) { $0 + Int(p.bytes[$1]) }
    let after = stride(from: 3, to: b.bytes.count, by: 4).reduce(0) { $0 + Int(b.bytes[$1]) }
    // Rounding each of the ~25,000 pixels moves the total by far less than 1%.
    #expect(abs(Double(after - before)) < 0.01 * Double(before), "\(before) → \(after)")
    for i in stride(from: 0, to: b.bytes.count, by: 4) {
      #expect(b.bytes[i] <= b.bytes[i + 3] && b.bytes[i + 1] <= b.bytes[i + 3] && b.bytes[i + 2] <= b.bytes[i + 3])
    }
  }
}
