import Primitives
import Testing

@testable import Raster

/// The largest difference, in levels (0…255), between a pixmap and unrounded reference values.
private func maxError(_ p: Pixmap, _ reference: [Double]) -> Double {
  zip(p.bytes, reference).reduce(0) { max($0, abs(Double($1.0) - $1.1)) }
}

/// A deterministic pseudo-random premultiplied image (colour ≤ alpha).
private func noise(width: Int, height: Int, seed: UInt64) -> Pixmap {
  var state = seed
  func next() -> UInt8 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt8(truncatingIfNeeded: state >> 56)
  }
  var p = Pixmap(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      let a = next()
      func c() -> UInt8 { UInt8(UInt16(next()) * UInt16(a) / 255) }
      p[x, y] = RGBA8(r: c(), g: c(), b: c(), a: a)
    }
  }
  return p
}

private func filledRect(width: Int, height: Int, _ r: (x: Int, y: Int, w: Int, h: Int), _ fill: RGBA8) -> Pixmap {
  var p = Pixmap(width: width, height: height)
  for y in r.y..<(r.y + r.h) { for x in r.x..<(r.x + r.w) { p[x, y] = fill } }
  return p
}

private func alphaMass(_ p: Pixmap) -> Double {
  stride(from: 3, to: p.bytes.count, by: 4).reduce(0) { $0 + Double(p.bytes[$1]) } / 255
}

extension Pixmap {
  /// `blurred(sigma:)` followed by a shift: the same pipeline `shadow` runs, on the colours.
  fileprivate func shadowlessBlur(sigma: Double, dx: Double, dy: Double) -> Pixmap {
    Pixmap.filtered(planes: floatPlanes(), width: width, height: height, blur: GaussianBlur(sigma: sigma), shift: Vector2(dx, dy))
  }
}

/// 2% of full scale, in levels.
private let twoPercent = 0.02 * 255

@Suite struct BlurTests {
  static let sigmas: [Double] = [0.5, 1, 1.5, 2, 3, 5, 8]

  // MARK: Against the true Gaussian (naive 2-D twin)

  @Test(arguments: sigmas) func impulseMatchesTrueGaussian(sigma: Double) {
    let pad = Pixmap.blurPadding(sigma: sigma) + 2
    var p = Pixmap(width: 2 * pad + 1, height: 2 * pad + 1)
    p[pad, pad] = RGBA8(r: 255, g: 255, b: 255, a: 255)
    let error = maxError(p.blurred(sigma: sigma), p.gaussianReference(sigma: sigma))
    #expect(error <= twoPercent, "σ = \(sigma): \(error) levels")
  }

  @Test(arguments: sigmas) func hardEdgeMatchesTrueGaussian(sigma: Double) {
    // An opaque orange half-plane ending mid-image, with transparent margins.
    let pad = Pixmap.blurPadding(sigma: sigma) + 2
    let size = 4 * pad + 8
    let p = filledRect(width: size, height: size, (pad, pad, size / 2 - pad, size - 2 * pad), RGBA8(r: 255, g: 128, b: 0, a: 255))
    let error = maxError(p.blurred(sigma: sigma), p.gaussianReference(sigma: sigma))
    #expect(error <= twoPercent, "σ = \(sigma): \(error) levels")
  }

  @Test(arguments: [0.7, 1.3, 2.6, 4.2]) func noiseMatchesTrueGaussian(sigma: Double) {
    let p = noise(width: 24, height: 19, seed: 7)
    let error = maxError(p.blurred(sigma: sigma), p.gaussianReference(sigma: sigma))
    #expect(error <= twoPercent, "σ = \(sigma): \(error) levels")
  }

  // MARK: The fast line filter against its safe twin (explicit taps)

  @Test(arguments: [0.4, 1.2, 1.99, 2, 2.5, 3.7, 6, 11.3])
  func lineFilterMatchesExplicitTaps(sigma: Double) {
    let blur = GaussianBlur(sigma: sigma)
    var line = [Float](repeating: 0, count: 61)
    for i in 0..<line.count where (i * 7) % 11 < 4 { line[i] = Float((i * 37) % 256) }
    line[0] = 255; line[60] = 200  // content at both ends: spreads past them
    for shift in [0.0, 3, -2, 0.25, -1.75] {
      let fast = blur.filtered(line: line, shift: shift)
      let slow = blur.referenceFiltered(line: line.map(Double.init), shift: shift)
      let error = zip(fast, slow).reduce(0) { max($0, abs(Double($1.0) - $1.1)) }
      #expect(error < 1e-3, "σ = \(sigma), shift \(shift): \(error)")
    }
  }

  @Test(arguments: [0.3, 0.8, 1.5, 2, 2.2, 4.5, 9.9, 30])
  func filterHasUnitMassNoShiftAndVarianceSigmaSquared(sigma: Double) {
    let blur = GaussianBlur(sigma: sigma)
    let taps = blur.taps, k = blur.reach
    #expect(taps.count == 2 * k + 1)
    let mass = taps.reduce(0, +)
    let mean = taps.enumerated().reduce(0) { $0 + Double($1.offset - k) * $1.element }
    let variance = taps.enumerated().reduce(0) { $0 + Double(($1.offset - k) * ($1.offset - k)) * $1.element }
    #expect(abs(mass - 1) < 1e-6)
    #expect(abs(mean) < 1e-6)
    if sigma >= GaussianBlur.kernelLimit {
      // Box passes: the variance is σ² by construction.
      #expect(abs(variance - sigma * sigma) < 1e-9 * sigma * sigma, "\(variance)")
    } else {
      // The sampled Gaussian, cut at 3σ: variance within 3% of σ² (for σ ≥ 0.5).
      if sigma >= 0.5 { #expect(abs(variance / (sigma * sigma) - 1) < 0.03, "\(variance)") }
    }
    #expect(zip(taps, taps.reversed()).allSatisfy { abs($0 - $1) < 1e-15 })
  }

  @Test func extendedBoxParameters() {
    // σ = 2, three passes: variance 4/3 each. The widest plain box with
    // r(r+1)/3 ≤ 4/3 is r = 1; α = 3·(2 − 4) / (6·(4/3 − 4)) = 3/8.
    let box = GaussianBlur.extendedBox(variance: 4.0 / 3)
    #expect(box.radius == 1)
    #expect(abs(box.tail - 0.375) < 1e-12)
    // Exactly a plain box: r(r+1)/3 = 2 for r = 2 → α = 0.
    let plain = GaussianBlur.extendedBox(variance: 2)
    #expect(plain.radius == 2 && abs(plain.tail) < 1e-12)
    #expect(GaussianBlur(sigma: 2).method == .boxes([box, box, box]))
  }

  @Test(arguments: [(1.2, 0.0, 0.0), (3.5, 0.0, 0.0), (3.5, 2.25, -1.5), (0.0, -3.0, 0.5)])
  func wholeImageMatchesSeparableTwin(sigma: Double, dx: Double, dy: Double) {
    // 310 columns: more than one vertical strip. The twin filters rows, then
    // columns, in Double with explicit taps; the fast path may differ only by
    // its final rounding.
    let (w, h) = (310, 100)
    let p = noise(width: w, height: h, seed: 5)
    let blur = GaussianBlur(sigma: sigma)
    var planes = p.bytes.map(Double.init)
    for y in 0..<h {
      for ch in 0..<4 {
        let row = blur.referenceFiltered(line: (0..<w).map { planes[4 * (y * w + $0) + ch] }, shift: dx)
        for x in 0..<w { planes[4 * (y * w + x) + ch] = row[x] }
      }
    }
    for x in 0..<w {
      for ch in 0..<4 {
        let column = blur.referenceFiltered(line: (0..<h).map { planes[4 * ($0 * w + x) + ch] }, shift: dy)
        for y in 0..<h { planes[4 * (y * w + x) + ch] = column[y] }
      }
    }
    let fast = p.shadowlessBlur(sigma: sigma, dx: dx, dy: dy)
    #expect(maxError(fast, planes) <= 0.5 + 1e-3)
  }

  // MARK: Behaviour

  @Test func nonPositiveSigmaReturnsSelf() {
    let p = noise(width: 5, height: 4, seed: 3)
    #expect(p.blurred(sigma: 0) == p)
    #expect(p.blurred(sigma: -2) == p)
    #expect(p.blurred(sigma: .nan) == p)
    #expect(Pixmap.blurPadding(sigma: 0) == 0)
  }

  @Test func paddingCoversTheSpread() {
    for sigma in [0.5, 1, 1.9, 2, 3, 7.5] {
      let pad = Pixmap.blurPadding(sigma: sigma)
      #expect(pad >= Int((3 * sigma).rounded(.down)) - 1 && pad <= Int(3 * sigma) + 3, "σ = \(sigma): \(pad)")
      // An opaque block blurred in a canvas with `pad` + 1 margins: the outer ring stays empty.
      let n = 2 * pad + 2 + 6
      let p = filledRect(width: n, height: n, (pad + 1, pad + 1, 6, 6), RGBA8(r: 255, g: 255, b: 255, a: 255))
      let b = p.blurred(sigma: sigma)
      for i in 0..<n {
        #expect(b[i, 0] == .transparent && b[0, i] == .transparent)
        #expect(b[i, n - 1] == .transparent && b[n - 1, i] == .transparent)
      }
      // …and nothing was lost: alpha mass conserved within 1%.
      #expect(abs(alphaMass(b) / 36 - 1) < 0.01)
    }
  }

  @Test func premultipliedEdgeHasNoDarkFringe() {
    // Pure opaque red: every blurred pixel stays pure red (r = a, g = b = 0),
    // i.e. unpremultiplied it is still #FF0000 wherever it is visible.
    let p = filledRect(width: 30, height: 30, (10, 10, 10, 10), RGBA8(r: 255, g: 0, b: 0, a: 255))
    for sigma in [1.0, 4.0] {
      let b = p.blurred(sigma: sigma)
      for y in 0..<30 {
        for x in 0..<30 {
          let q = b[x, y]
          #expect(q.r == q.a && q.g == 0 && q.b == 0)
        }
      }
    }
  }

  @Test func alphaStaysAtLeastColour() {
    let p = noise(width: 40, height: 33, seed: 11)
    for sigma in [0.6, 2.5, 6] {
      let b = p.blurred(sigma: sigma)
      for i in stride(from: 0, to: b.bytes.count, by: 4) {
        #expect(b.bytes[i] <= b.bytes[i + 3] && b.bytes[i + 1] <= b.bytes[i + 3] && b.bytes[i + 2] <= b.bytes[i + 3])
      }
    }
  }

  @Test func uniformInteriorIsUnchanged() {
    // Far from the edges a constant image stays constant (the weights sum to 1).
    let p = Pixmap(width: 60, height: 60, fill: RGBA8(r: 10, g: 100, b: 200, a: 220))
    let b = p.blurred(sigma: 3)
    for y in 15..<45 { for x in 15..<45 { #expect(b[x, y] == RGBA8(r: 10, g: 100, b: 200, a: 220)) } }
  }

  @Test func hugeSigmaFadesToNothing() {
    let p = filledRect(width: 16, height: 16, (4, 4, 8, 8), RGBA8(r: 255, g: 255, b: 255, a: 255))
    #expect(p.blurred(sigma: 1e9) == Pixmap(width: 16, height: 16))
    #expect(p.blurred(sigma: .infinity) == Pixmap(width: 16, height: 16))
    #expect(Pixmap(width: 0, height: 5).blurred(sigma: 3) == Pixmap(width: 0, height: 5))
  }

  // MARK: Shadows

  @Test func shadowOfOpaqueSquareIsBlurOfColouredSquare() {
    let colour = RGBA8(r: 20, g: 40, b: 60, a: 128)
    let sigma = 3.0
    let pad = Pixmap.blurPadding(sigma: sigma) + 4
    let size = 2 * pad + 12
    // Source: an opaque square in arbitrary colours (only its alpha counts).
    var source = filledRect(width: size, height: size, (pad, pad, 12, 12), RGBA8(r: 255, g: 0, b: 90, a: 255))
    source[pad + 3, pad + 5] = RGBA8(r: 0, g: 255, b: 0, a: 255)
    let expected = filledRect(width: size, height: size, (pad, pad, 12, 12), colour).blurred(sigma: sigma)
    #expect(source.shadow(color: colour.premultipliedColor, sigma: sigma) == expected)

    // An integer offset moves it exactly.
    let moved = source.shadow(color: colour.premultipliedColor, sigma: sigma, offset: Vector2(3, -2))
    for y in 0..<size {
      for x in 0..<size {
        let (sx, sy) = (x - 3, y + 2)
        let want = sx >= 0 && sx < size && sy >= 0 && sy < size ? expected[sx, sy] : .transparent
        #expect(moved[x, y] == want)
      }
    }
  }

  @Test(arguments: [(0.0, 0.0), (2.0, 1.0), (2.5, -1.25), (-0.3, 0.7)])
  func shadowConservesAlphaMass(dx: Double, dy: Double) {
    let colour = PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.6)
    let sigma = 4.0
    let pad = Pixmap.blurPadding(sigma: sigma) + 4
    let size = 2 * pad + 10
    let source = filledRect(width: size, height: size, (pad, pad, 10, 10), RGBA8(r: 200, g: 200, b: 200, a: 255))
    let s = source.shadow(color: colour, sigma: sigma, offset: Vector2(dx, dy))
    let mass = alphaMass(s)
    #expect(abs(mass / (0.6 * 100) - 1) < 0.01, "\(mass)")
  }

  @Test func fractionalOffsetMovesTheCentroid() {
    let colour = PremultipliedColor(red: 0.5, green: 0, blue: 0, alpha: 1)
    let sigma = 2.5
    let pad = Pixmap.blurPadding(sigma: sigma) + 4
    let size = 2 * pad + 8
    let source = filledRect(width: size, height: size, (pad, pad, 8, 8), RGBA8(r: 0, g: 0, b: 0, a: 255))
    func centroid(_ p: Pixmap) -> (Double, Double) {
      var (m, mx, my) = (0.0, 0.0, 0.0)
      for y in 0..<p.height {
        for x in 0..<p.width {
          let a = Double(p[x, y].a)
          m += a; mx += a * Double(x); my += a * Double(y)
        }
      }
      return (mx / m, my / m)
    }
    let (cx, cy) = centroid(source)
    let (sx, sy) = centroid(source.shadow(color: colour, sigma: sigma, offset: Vector2(1.25, -0.5)))
    #expect(abs(sx - cx - 1.25) < 0.02 && abs(sy - cy + 0.5) < 0.02, "\(sx - cx), \(sy - cy)")
  }

  @Test func shadowFollowsSourceAlpha() {
    // A half-transparent source casts a shadow of half the colour's alpha:
    // with σ = 0 and no offset, exactly colour × alpha per pixel.
    var source = Pixmap(width: 3, height: 1)
    source[0, 0] = RGBA8(r: 0, g: 0, b: 0, a: 255)
    source[1, 0] = RGBA8(r: 51, g: 51, b: 0, a: 102)
    let s = source.shadow(color: PremultipliedColor(red: 0.2, green: 0.4, blue: 0, alpha: 0.8), sigma: 0)
    #expect(s[0, 0] == RGBA8(r: 51, g: 102, b: 0, a: 204))
    // 102/255 = 0.4: (0.08, 0.16, 0, 0.32) × 255 = (20.4, 40.8, 0, 81.6).
    #expect(s[1, 0] == RGBA8(r: 20, g: 41, b: 0, a: 82))
    #expect(s[2, 0] == .transparent)
  }
}
