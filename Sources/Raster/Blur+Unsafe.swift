import Primitives

// The blur's hot loops, on raw pointers into contiguous Float buffers.
//
// A line (a row, or a strip of columns) is a sequence of `count` elements of
// `lanes` floats (4 for a row: RGBA; 4 × columns for a strip, so the vertical
// passes run along whole rows of memory). It is copied into a zero-padded work
// buffer wide enough that nothing the filter spreads is cut off between
// passes, filtered there, then copied back (with the optional bilinear shift).
//
// Safe twins: `GaussianBlur.referenceFiltered(line:shift:)` (same filter,
// explicit taps), `Pixmap.gaussianReference(sigma:)` (the true Gaussian) and
// `Pixmap.referenceAlphaPlane()` and `Pixmap.referenceCoverageBytes(_:)`, in Blur.swift; BlurTests and LargeBlurTests
// compare them.

extension Pixmap {
  /// Floats (0…255) clamped and rounded to the nearest byte: a shadow's
  /// coverage.
  static func coverageBytes(_ alpha: [Float]) -> [UInt8] {
    let count = alpha.count
    return [UInt8](unsafeUninitializedCapacity: count) { coverage, initialized in
      alpha.withUnsafeBufferPointer { values in
        for i in 0..<count {
          let v = values[i]
          coverage[i] = UInt8((v < 0 ? 0 : v > 255 ? 255 : v) + 0.5)
        }
      }
      initialized = count
    }
  }

  /// The alpha channel as floats (0…255), and their sum.
  func alphaPlane() -> (alpha: [Float], mass: Float) {
    let count = width * height
    var mass: Float = 0
    let alpha = bytes.withUnsafeBufferPointer { pixelBytes in
      [Float](unsafeUninitializedCapacity: count) { plane, initialized in
        for i in 0..<count {
          let value = Float(pixelBytes[4 * i + 3])
          plane[i] = value
          mass += value
        }
        initialized = count
      }
    }
    return (alpha, mass)
  }

  /// `blurred(sigma:)` at 1/k resolution, from bytes to bytes.
  func decimatedBlur(sigma: Double, k: Int) -> Pixmap {
    let (w, h) = (width, height)
    let n = 4 * w * h
    let out = bytes.withUnsafeBufferPointer { sourceBuffer in
      [UInt8](unsafeUninitializedCapacity: n) { blurredBuffer, initialized in
        let sourceBytes = sourceBuffer.baseAddress!, blurredBytes = blurredBuffer.baseAddress!
        GaussianBlur.decimatedBlur(
          width: w, height: h, lanes: 4, sigma: sigma, k: k, shift: .zero,
          loadRow: { y, row in Self.widen(sourceBytes + 4 * y * w, into: row, pixels: w) },
          storeRow: { y, row in Self.quantize(row, into: blurredBytes + 4 * y * w, pixels: w) })
        initialized = n
      }
    }
    return Pixmap(width: w, height: h, bytes: out)
  }

  /// The bytes as floats, 0…255.
  func floatPlanes() -> [Float] {
    let n = bytes.count
    return bytes.withUnsafeBufferPointer { byteBuffer in
      [Float](unsafeUninitializedCapacity: n) { floatBuffer, initialized in
        Self.widen(byteBuffer.baseAddress!, into: floatBuffer.baseAddress!, pixels: n / 4)
        initialized = n
      }
    }
  }

  /// `pixels` RGBA8 pixels as floats, 0…255.
  @inline(__always)
  static func widen(_ bytes: UnsafePointer<UInt8>, into floats: UnsafeMutablePointer<Float>, pixels: Int) {
    let byteMemory = UnsafeRawPointer(bytes), floatMemory = UnsafeMutableRawPointer(floats)
    for i in 0..<pixels {
      let pixel = byteMemory.loadUnaligned(fromByteOffset: 4 * i, as: SIMD4<UInt8>.self)
      floatMemory.storeBytes(of: SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel)), toByteOffset: 16 * i, as: SIMD4<Float>.self)
    }
  }

  /// `pixels` float RGBA pixels (0…255, premultiplied) rounded to the
  /// nearest level, clamped (first, so the conversion cannot trap), with
  /// colour ≤ alpha.
  @inline(__always)
  static func quantize(_ floats: UnsafePointer<Float>, into bytes: UnsafeMutablePointer<UInt8>, pixels: Int) {
    @inline(__always) func byte(_ v: Float) -> UInt8 { UInt8((v < 0 ? 0 : v > 255 ? 255 : v) + 0.5) }
    for i in 0..<pixels {
      let a = byte(floats[4 * i + 3])
      bytes[4 * i] = min(byte(floats[4 * i]), a)
      bytes[4 * i + 1] = min(byte(floats[4 * i + 1]), a)
      bytes[4 * i + 2] = min(byte(floats[4 * i + 2]), a)
      bytes[4 * i + 3] = a
    }
  }

  /// Rounds float planes (0…255, premultiplied) to the nearest level,
  /// clamped, with colour ≤ alpha.
  init(quantizing planes: [Float], width: Int, height: Int) {
    let n = width * height * 4
    precondition(planes.count == n)
    let bytes = planes.withUnsafeBufferPointer { floatBuffer in
      [UInt8](unsafeUninitializedCapacity: n) { byteBuffer, initialized in
        Self.quantize(floatBuffer.baseAddress!, into: byteBuffer.baseAddress!, pixels: n / 4)
        initialized = n
      }
    }
    self.init(width: width, height: height, bytes: bytes)
  }
}

extension GaussianBlur {
  /// Work space for one line: the padded buffer, a second one for passes,
  /// the running sums and a row of zeros (what lies outside the line).
  struct LineBuffers {
    let work, spare, sums, zeros: UnsafeMutablePointer<Float>

    init(capacity: Int, lanes: Int) {
      work = .allocate(capacity: capacity); work.initialize(repeating: 0, count: capacity)
      spare = .allocate(capacity: capacity); spare.initialize(repeating: 0, count: capacity)
      sums = .allocate(capacity: lanes); sums.initialize(repeating: 0, count: lanes)
      zeros = .allocate(capacity: lanes); zeros.initialize(repeating: 0, count: lanes)
    }
    func deallocate() { work.deallocate(); spare.deallocate(); sums.deallocate(); zeros.deallocate() }
  }

  /// A shift split into whole pixels (rounded down) and the fraction left.
  static func split(_ shift: Double) -> (whole: Int, fraction: Float) {
    let w = shift.rounded(.down)
    return (Int(w), Float(shift - w))
  }

  /// Floats per strip buffer in the vertical pass (512 KB): strips stay in cache.
  static let stripBudget = 1 << 17

  /// Blurs a `width × height` RGBA float image in place, then moves it by
  /// `shift` pixels (bilinear; output (x, y) takes the value at (x, y) − shift).
  func apply(to planes: inout [Float], width w: Int, height h: Int, shift: Vector2) {
    let sx = Self.split(shift.x), sy = Self.split(shift.y)
    let padX = reach + abs(sx.whole) + 1, padY = reach + abs(sy.whole) + 1
    let lengthX = w + 2 * padX, lengthY = h + 2 * padY
    let stripColumns = max(1, min(w, Self.stripBudget / (4 * lengthY)))
    let lanes = 4 * stripColumns
    let buffers = LineBuffers(capacity: max(4 * lengthX, lanes * lengthY), lanes: lanes)
    defer { buffers.deallocate() }
    planes.withUnsafeMutableBufferPointer { image in
      let base = image.baseAddress!
      for y in 0..<h {
        filterLine(base + 4 * w * y, count: w, stride: 4, lanes: 4, pad: padX, shift: sx, buffers)
      }
      var x0 = 0
      while x0 < w {
        let columns = min(stripColumns, w - x0)
        filterLine(base + 4 * x0, count: h, stride: 4 * w, lanes: 4 * columns, pad: padY, shift: sy, buffers)
        x0 += columns
      }
    }
  }

  /// Blurs a single `width × height` float plane in place, then moves it by
  /// `shift` (as `apply`): a shadow's alpha, a quarter of the work of RGBA.
  /// Four rows (then four columns) at a time ride in the SIMD lanes of the
  /// four-lane passes.
  func applyToPlane(_ plane: inout [Float], width w: Int, height h: Int, shift: Vector2) {
    let sx = Self.split(shift.x), sy = Self.split(shift.y)
    let padX = reach + abs(sx.whole) + 1, padY = reach + abs(sy.whole) + 1
    let lengthX = w + 2 * padX, lengthY = h + 2 * padY
    let buffers = LineBuffers(capacity: 4 * max(lengthX, lengthY), lanes: 4)
    defer { buffers.deallocate() }
    var interleaved = [Float](repeating: 0, count: 4 * max(w, h))
    plane.withUnsafeMutableBufferPointer { image in
      interleaved.withUnsafeMutableBufferPointer { lanes in
        let base = image.baseAddress!, t = lanes.baseAddress!
        var y = 0
        while y < h {
          let rows = min(4, h - y)
          for x in 0..<w {
            for k in 0..<4 { t[4 * x + k] = k < rows ? base[(y + k) * w + x] : 0 }
          }
          filterLine(t, count: w, stride: 4, lanes: 4, pad: padX, shift: sx, buffers)
          for x in 0..<w {
            for k in 0..<rows { base[(y + k) * w + x] = t[4 * x + k] }
          }
          y += 4
        }
        var x = 0
        while x < w {
          let columns = min(4, w - x)
          if columns == 4 {
            filterLine(base + x, count: h, stride: w, lanes: 4, pad: padY, shift: sy, buffers)
          } else {
            for j in 0..<h {
              for k in 0..<4 { t[4 * j + k] = k < columns ? base[j * w + x + k] : 0 }
            }
            filterLine(t, count: h, stride: 4, lanes: 4, pad: padY, shift: sy, buffers)
            for j in 0..<h {
              for k in 0..<columns { base[j * w + x + k] = t[4 * j + k] }
            }
          }
          x += 4
        }
      }
    }
  }

  /// Filters one line in place: `count` elements of `lanes` floats, element j
  /// at `base + j × stride`. `pad` ≥ reach + |shift.whole| + 1.
  func filterLine(
    _ base: UnsafeMutablePointer<Float>, count n: Int, stride: Int, lanes m: Int, pad p: Int,
    shift: (whole: Int, fraction: Float), _ b: LineBuffers
  ) {
    let length = n + 2 * p
    // Gather into the padded work buffer.
    b.work.update(repeating: 0, count: p * m)
    if stride == m {
      (b.work + p * m).update(from: base, count: n * m)
    } else {
      for j in 0..<n { (b.work + (p + j) * m).update(from: base + j * stride, count: m) }
    }
    (b.work + (p + n) * m).update(repeating: 0, count: p * m)

    // Filter; `result` ends up holding the filtered line.
    var result = b.work
    switch method {
    case .identity:
      break
    case .kernel(let weights):
      weights.withUnsafeBufferPointer { taps in
        if m == 4 {
          Self.kernelPass4(from: b.work, to: b.spare, length: length, weights: taps)
        } else {
          Self.kernelPass(from: b.work, to: b.spare, length: length, lanes: m, weights: taps)
        }
      }
      result = b.spare
    case .boxes(let boxes):
      var (input, output) = (b.work, b.spare)
      for box in boxes {
        if m == 4 {
          Self.boxPass4(
            from: input, to: output, length: length, radius: box.radius,
            tail: Float(box.tail), scale: Float(box.weight))
        } else {
          Self.boxPass(
            from: input, to: output, length: length, lanes: m, radius: box.radius,
            tail: Float(box.tail), scale: Float(box.weight), sums: b.sums, zeros: b.zeros)
        }
        (input, output) = (output, input)
      }
      result = input
    }

    // Scatter back, shifted: out[x] = (1 − f)·line[x − i] + f·line[x − i − 1].
    let f = shift.fraction
    if f == 0 && stride == m {
      base.update(from: result + (p - shift.whole) * m, count: n * m)
      return
    }
    for x in 0..<n {
      let a = result + (p + x - shift.whole) * m, c = a - m, d = base + x * stride
      if f == 0 {
        d.update(from: a, count: m)
      } else {
        for l in 0..<m { d[l] = a[l] + f * (c[l] - a[l]) }
      }
    }
  }

  /// Direct convolution with symmetric taps `weights[0…K]`, written for
  /// elements K ..< length − K (which read only inside the buffer).
  static func kernelPass(
    from input: UnsafeMutablePointer<Float>, to output: UnsafeMutablePointer<Float>,
    length: Int, lanes m: Int, weights taps: UnsafeBufferPointer<Float>
  ) {
    let k = taps.count - 1
    guard length > 2 * k else { return }
    for i in k..<(length - k) {
      let outPixel = output + i * m, inPixel = input + i * m
      let w0 = taps[0]
      for l in 0..<m { outPixel[l] = w0 * inPixel[l] }
      if k == 0 { continue }
      for j in 1...k {
        let before = input + (i - j) * m, after = input + (i + j) * m, wj = taps[j]
        for l in 0..<m { outPixel[l] += wj * (before[l] + after[l]) }
      }
    }
  }

  /// One extended box over the whole buffer (zeros beyond it), by a running
  /// sum: out[i] = c·(Σ_{|k| ≤ r} in[i + k] + α·(in[i − r − 1] + in[i + r + 1])).
  static func boxPass(
    from input: UnsafeMutablePointer<Float>, to output: UnsafeMutablePointer<Float>,
    length: Int, lanes m: Int, radius r: Int, tail alpha: Float, scale c: Float,
    sums: UnsafeMutablePointer<Float>, zeros: UnsafeMutablePointer<Float>
  ) {
    sums.update(repeating: 0, count: m)
    for j in 0..<min(r + 1, length) {
      let inPixel = input + j * m
      for l in 0..<m { sums[l] += inPixel[l] }
    }
    for i in 0..<length {
      let left = i - r - 1, entering = i + r + 1, leaving = i - r
      let leftPixel = left >= 0 ? input + left * m : zeros
      let enteringPixel = entering < length ? input + entering * m : zeros
      let leavingPixel = leaving >= 0 ? input + leaving * m : zeros
      let outPixel = output + i * m
      for l in 0..<m {
        let sum = sums[l]
        outPixel[l] = c * (sum + alpha * (leftPixel[l] + enteringPixel[l]))
        sums[l] = sum + enteringPixel[l] - leavingPixel[l]
      }
    }
  }

  /// `kernelPass` for one RGBA pixel per element, the lanes in a SIMD register.
  static func kernelPass4(
    from input: UnsafeMutablePointer<Float>, to output: UnsafeMutablePointer<Float>,
    length: Int, weights taps: UnsafeBufferPointer<Float>
  ) {
    let k = taps.count - 1
    guard length > 2 * k else { return }
    for i in k..<(length - k) {
      var acc = taps[0] * load4(input + 4 * i)
      var j = 1
      while j <= k {
        acc += taps[j] * (load4(input + 4 * (i - j)) + load4(input + 4 * (i + j)))
        j += 1
      }
      store4(acc, output + 4 * i)
    }
  }

  /// `boxPass` for one RGBA pixel per element: the running sum stays in a
  /// SIMD register. It writes only elements r + 1 ..< length − r − 1 (so it
  /// reads inside the buffer, without branches) and zeros the r + 1 at each
  /// end. That is exact where it matters: the line is padded by more than
  /// `reach` = 3ρ zeros (ρ = r + 1, or r when the tail is 0) and each pass
  /// spreads ρ, so the true output of the first two passes is zero within
  /// ρ + 1 ≥ r + 1 of the ends; the third pass's ends are never read back
  /// (`filterLine` reads from `reach` ≥ 3r ≥ r + 1 on; r ≥ 1 for boxes).
  static func boxPass4(
    from input: UnsafeMutablePointer<Float>, to output: UnsafeMutablePointer<Float>,
    length: Int, radius r: Int, tail alpha: Float, scale c: Float
  ) {
    let edge = min(r + 1, length)
    output.update(repeating: 0, count: 4 * edge)
    (output + 4 * (length - edge)).update(repeating: 0, count: 4 * edge)
    guard length > 2 * (r + 1) else { return }
    var sum = SIMD4<Float>.zero
    for j in 1...(2 * r + 1) { sum += load4(input + 4 * j) }
    for i in (r + 1)..<(length - r - 1) {
      let entering = load4(input + 4 * (i + r + 1))
      store4(c * (sum + alpha * (load4(input + 4 * (i - r - 1)) + entering)), output + 4 * i)
      sum += entering - load4(input + 4 * (i - r))
    }
  }

  @inline(__always) static func load4(_ pixel: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(pixel).loadUnaligned(as: SIMD4<Float>.self)
  }
  @inline(__always) static func store4(_ v: SIMD4<Float>, _ pixel: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pixel).storeBytes(of: v, as: SIMD4<Float>.self)
  }

  /// The fast path on a single line of floats (one lane): for the tests,
  /// against `referenceFiltered(line:shift:)`.
  func filtered(line: [Float], shift: Double = 0) -> [Float] {
    var line = line
    let s = Self.split(shift)
    let pad = reach + abs(s.whole) + 1
    let buffers = LineBuffers(capacity: line.count + 2 * pad, lanes: 1)
    defer { buffers.deallocate() }
    let n = line.count
    line.withUnsafeMutableBufferPointer { samples in
      filterLine(samples.baseAddress!, count: n, stride: 1, lanes: 1, pad: pad, shift: s, buffers)
    }
    return line
  }
}
