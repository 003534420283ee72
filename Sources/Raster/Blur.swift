import PortableMath
import Primitives

// Gaussian blur and drop shadows of premultiplied pixmaps.
//
// The hot loops (running sums over contiguous float lines) live in
// Blur+Unsafe.swift. This file holds the public API, the filter's parameters
// and the two safe twins the tests compare the fast path against:
// `GaussianBlur.referenceFiltered(line:shift:)` (the same filter, as explicit
// taps, convolved directly) and `Pixmap.gaussianReference(sigma:)` (a direct
// 2-D convolution with the true Gaussian).

extension Pixmap {
  /// This image blurred by a Gaussian of standard deviation `sigma` pixels.
  ///
  /// - Channels are filtered premultiplied, so a coloured edge fades into
  ///   transparency without a dark fringe; each channel is rounded to the
  ///   nearest level once, at the end, and colour never exceeds alpha.
  /// - Pixels outside the pixmap count as transparent and the result has the
  ///   same size, so whatever spreads past the edge is lost. The visible
  ///   spread is about 3σ: pad by `Pixmap.blurPadding(sigma:)` on every side
  ///   beforehand to keep all of it.
  /// - `sigma ≤ 0` (or NaN) returns the pixmap unchanged; a σ so large that
  ///   every output rounds to zero returns a transparent pixmap.
  /// - Below σ = 2 the filter is the sampled Gaussian itself (separable, cut at
  ///   ⌈3σ⌉); from σ = 2 on it is three extended box passes per axis (Gwosdz,
  ///   2011) whose variance is exactly σ², at a cost independent of σ; from
  ///   σ = 16 on, those passes run on a copy reduced 2^n ≤ σ/8 times (see
  ///   Blur+Decimated.swift; measured against the true Gaussian, 4.6 levels
  ///   at σ = 16, where the full-size passes give 4.9 at σ = 15.9).
  ///   Against a direct 2-D convolution with the true Gaussian (the tests), the
  ///   largest error is 0.3% of full scale below σ = 2 and 1.5% from σ = 2 on
  ///   (at the corner of a hard edge; rounding included).
  public func blurred(sigma: Double) -> Pixmap {
    guard sigma > 0, width > 0, height > 0 else { return self }
    let k = GaussianBlur.decimation(for: min(sigma, GaussianBlur.maximumSigma))
    if k > 1 { return decimatedBlur(sigma: min(sigma, GaussianBlur.maximumSigma), k: k) }
    return Self.filtered(
      planes: floatPlanes(), width: width, height: height,
      blur: GaussianBlur(sigma: sigma), shift: .zero)
  }

  /// How many pixels a blur of `sigma` reaches past the content: the support
  /// of the filter actually used (about 3σ; 0 for σ ≤ 0). Pad a pixmap by
  /// this much on every side before `blurred(sigma:)` or `shadow(…)` to lose
  /// nothing at the edges.
  public static func blurPadding(sigma: Double) -> Int {
    GaussianBlur(sigma: sigma).reach
  }

  /// A drop shadow of this pixmap: its silhouette (alpha only, the colours
  /// are ignored) filled with `color` (premultiplied, so each pixel becomes
  /// `color × alpha`), blurred by `sigma` and moved by `offset` device pixels.
  ///
  /// The result has this pixmap's size; pixels outside it are transparent.
  /// Pad beforehand by `blurPadding(sigma:)` plus the offset's magnitude
  /// (rounded up) on each side to keep the whole shadow. A fractional offset
  /// is a bilinear shift, applied before rounding (so it costs no second
  /// rounding; it adds a little blur, f·(1 − f) px² of variance). An integer
  /// offset moves the pixels exactly. The shadow is not composited: draw it,
  /// then the pixmap over it.
  public func shadow(color: PremultipliedColor, sigma: Double, offset: Vector2 = .zero) -> Pixmap {
    var out = Pixmap(width: width, height: height)
    let c = color.clamped
    guard let alpha = shadowAlpha(sigma: sigma, offset: offset, colorAlpha: c.alpha) else { return out }
    let tint = SIMD4<Float>(Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha))
    for (i, a) in alpha.enumerated() {
      let v = tint * min(max(a, 0), 255) + 0.5
      let alphaByte = UInt8(min(v[3], 255))
      out.bytes[4 * i + 3] = alphaByte
      for channel in 0..<3 { out.bytes[4 * i + channel] = min(UInt8(min(v[channel], 255)), alphaByte) }
    }
    return out
  }

  /// The blurred, shifted alpha of this pixmap as 8-bit coverage (row-major,
  /// width × height), or nil when a shadow of `colorAlpha` would round to
  /// nothing everywhere. A shadow is one colour under this coverage: the
  /// canvas composites it with the solid-colour blender.
  public func shadowCoverage(sigma: Double, offset: Vector2, colorAlpha: Double = 1) -> [UInt8]? {
    guard let alpha = shadowAlpha(sigma: sigma, offset: offset, colorAlpha: colorAlpha) else { return nil }
    return Self.coverageBytes(alpha)
  }

  /// The alpha channel as floats (0…255), blurred and shifted; nil when a
  /// shadow of `colorAlpha` would round to nothing everywhere.
  func shadowAlpha(sigma: Double, offset: Vector2, colorAlpha: Double) -> [Float]? {
    guard width > 0, height > 0 else { return nil }
    let blur = GaussianBlur(sigma: sigma)
    var (alpha, mass) = alphaPlane()
    let peak = Float(blur.peakWeight)
    let reach = Double(blur.reach + 1)
    guard mass * Float(colorAlpha) * peak * peak >= 0.25, offset.x.isFinite, offset.y.isFinite,
      abs(offset.x) < Double(width) + reach, abs(offset.y) < Double(height) + reach
    else { return nil }
    let k = GaussianBlur.decimation(for: blur.sigma)
    if k > 1 { return GaussianBlur.decimatedBlur(plane: alpha, width: width, height: height, sigma: blur.sigma, k: k, shift: offset) }
    if !(blur.isIdentity && offset == .zero) {
      blur.applyToPlane(&alpha, width: width, height: height, shift: offset)
    }
    return alpha
  }

  /// Safe twin of `coverageBytes(_:)` (Blur+Unsafe.swift): each float
  /// (0…255) clamped and rounded to the nearest byte.
  static func referenceCoverageBytes(_ alpha: [Float]) -> [UInt8] {
    alpha.map { UInt8(($0 < 0 ? 0 : $0 > 255 ? 255 : $0) + 0.5) }
  }

  /// Safe twin of `alphaPlane()` (Blur+Unsafe.swift): the alpha channel
  /// as floats, and their sum.
  func referenceAlphaPlane() -> (alpha: [Float], mass: Float) {
    let alpha = stride(from: 3, to: bytes.count, by: 4).map { Float(bytes[$0]) }
    return (alpha, alpha.reduce(0, +))
  }

  /// Blurs and shifts premultiplied float planes (w × h × 4, 0…255) and
  /// rounds them back to a pixmap.
  static func filtered(planes: consuming [Float], width: Int, height: Int, blur: GaussianBlur, shift: Vector2) -> Pixmap {
    // Nothing to draw if every output value is below half a level: each
    // output is at most the total mass times the peak 2-D weight. This also
    // bounds the buffers for absurd σ or offsets.
    var mass: Float = 0
    for i in stride(from: 3, to: planes.count, by: 4) { mass += planes[i] }
    let peak = Float(blur.peakWeight)
    let reach = Double(blur.reach + 1)
    guard mass * peak * peak >= 0.25,
      shift.x.isFinite, shift.y.isFinite,
      abs(shift.x) < Double(width) + reach, abs(shift.y) < Double(height) + reach
    else { return Pixmap(width: width, height: height) }

    if !(blur.isIdentity && shift == .zero) {
      blur.apply(to: &planes, width: width, height: height, shift: shift)
    }
    return Pixmap(quantizing: planes, width: width, height: height)
  }
}

/// The separable filter that approximates a Gaussian of standard deviation
/// `sigma` along one axis, and its parameters.
struct GaussianBlur: Sendable {
  /// One extended box: weight 1 on offsets −r…r, `tail` (0 ≤ α < 1) on ±(r + 1),
  /// normalized. Its variance is `(r(r+1)(2r+1)/3 + 2α(r+1)²) / (2r + 1 + 2α)`.
  struct Box: Sendable, Equatable {
    var radius: Int
    var tail: Double
    var weight: Double { 1 / (Double(2 * radius + 1) + 2 * tail) }
    var variance: Double {
      let r = Double(radius)
      return (r * (r + 1) * (2 * r + 1) / 3 + 2 * tail * (r + 1) * (r + 1)) * weight
    }
  }

  enum Method: Sendable, Equatable {
    case identity
    /// Sampled Gaussian taps for offsets 0…K, normalized over −K…K.
    case kernel([Float])
    /// Box passes applied one after another.
    case boxes([Box])
  }

  /// Below this σ the sampled Gaussian itself is used (at most 13 taps);
  /// from it on, three boxes (the sampled kernel's cost grows with σ, the
  /// boxes' does not, and their shape error shrinks with σ).
  static let kernelLimit = 2.0

  let sigma: Double
  let method: Method

  /// Larger σ are treated as this one: at σ = 10⁶ an image would need over
  /// 10⁹ opaque pixels for any output to reach half a level.
  static let maximumSigma = 1e6

  init(sigma: Double) {
    let sigma = min(sigma, Self.maximumSigma)
    self.sigma = sigma
    if !(sigma > 0) {
      method = .identity
    } else if sigma < Self.kernelLimit {
      let k = Int((3 * sigma).rounded(.up))
      let g = (0...k).map { Elementary.exp(-Double($0 * $0) / (2 * sigma * sigma)) }
      let total = g.dropFirst().reduce(g[0]) { $0 + 2 * $1 }
      method = .kernel(g.map { Float($0 / total) })
    } else {
      let box = Self.extendedBox(variance: sigma * sigma / 3)
      method = .boxes([box, box, box])
    }
  }

  /// The extended box of exactly `variance` (≥ 0): the widest plain box whose
  /// variance r(r+1)/3 does not exceed it, plus the fractional end taps that
  /// make up the rest.
  static func extendedBox(variance v: Double) -> Box {
    var r = Int(((1 + 12 * v).squareRoot() - 1) / 2)
    while r > 0 && Double(r * (r + 1)) > 3 * v { r -= 1 }
    while Double((r + 1) * (r + 2)) <= 3 * v { r += 1 }
    let rr = Double(r)
    let alpha = (2 * rr + 1) * (rr * (rr + 1) - 3 * v) / (6 * (v - (rr + 1) * (rr + 1)))
    return Box(radius: r, tail: alpha)
  }

  var isIdentity: Bool { method == .identity }

  /// The filter's support radius along one axis, in pixels.
  var reach: Int {
    switch method {
    case .identity: 0
    case .kernel(let w): w.count - 1
    case .boxes(let boxes): boxes.reduce(0) { $0 + $1.radius + ($1.tail > 0 ? 1 : 0) }
    }
  }

  /// An upper bound on any single 1-D weight.
  var peakWeight: Double {
    switch method {
    case .identity: 1
    case .kernel(let w): Double(w[0])
    case .boxes(let boxes): boxes.map(\.weight).min() ?? 1
    }
  }

  /// The whole 1-D filter as explicit taps for offsets −reach…reach (the
  /// boxes convolved together). Safe and slow: for the twins and tests.
  var taps: [Double] {
    switch method {
    case .identity:
      return [1]
    case .kernel(let w):
      let k = w.count - 1
      return (-k...k).map { Double(w[abs($0)]) }
    case .boxes(let boxes):
      var taps = [1.0]
      for box in boxes {
        let r = box.radius, c = box.weight
        let boxTaps = [box.tail * c] + [Double](repeating: c, count: 2 * r + 1) + [box.tail * c]
        var next = [Double](repeating: 0, count: taps.count + boxTaps.count - 1)
        for (i, a) in taps.enumerated() {
          for (j, b) in boxTaps.enumerated() { next[i + j] += a * b }
        }
        taps = next
      }
      // Drop zero end taps (tail 0) so the array is centred on `reach`.
      let extra = (taps.count - 1) / 2 - reach
      return Array(taps[extra..<(taps.count - extra)])
    }
  }

  /// Safe twin of the line filter: direct convolution with `taps`, zeros
  /// outside the line, then a bilinear shift by `shift` (output x takes the
  /// value at x − shift).
  func referenceFiltered(line: [Double], shift: Double = 0) -> [Double] {
    let t = taps, k = reach, n = line.count
    func blurredAt(_ x: Int) -> Double {
      guard x >= -k && x < n + k else { return 0 }
      var s = 0.0
      for (i, w) in t.enumerated() {
        let j = x + i - k
        if j >= 0 && j < n { s += w * line[j] }
      }
      return s
    }
    let whole = shift.rounded(.down), f = shift - whole
    return (0..<n).map { x in
      let j = x - Int(whole)
      return (1 - f) * blurredAt(j) + f * blurredAt(j - 1)
    }
  }
}

extension Pixmap {
  /// Safe twin of `blurred(sigma:)`: a direct 2-D convolution with the true
  /// Gaussian `exp(−(dx² + dy²) / 2σ²)` over ±⌈5σ⌉ (normalized), zeros
  /// outside, unrounded: premultiplied channel values in 0…255, four per
  /// pixel. O(w·h·σ²): tests only.
  func gaussianReference(sigma: Double) -> [Double] {
    let k = Int((5 * sigma).rounded(.up))
    var weights = [Double]()
    var total = 0.0
    for dy in -k...k {
      for dx in -k...k {
        let w = Elementary.exp(-Double(dx * dx + dy * dy) / (2 * sigma * sigma))
        weights.append(w); total += w
      }
    }
    var out = [Double](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        for dy in -k...k {
          let sy = y + dy
          guard sy >= 0 && sy < height else { continue }
          for dx in -k...k {
            let sx = x + dx
            guard sx >= 0 && sx < width else { continue }
            let w = weights[(dy + k) * (2 * k + 1) + dx + k] / total
            let p = self[sx, sy]
            out[4 * (y * width + x)] += w * Double(p.r)
            out[4 * (y * width + x) + 1] += w * Double(p.g)
            out[4 * (y * width + x) + 2] += w * Double(p.b)
            out[4 * (y * width + x) + 3] += w * Double(p.a)
          }
        }
      }
    }
    return out
  }
}
