import Primitives

// The reduced-resolution blur's loops, on raw memory. Safe twin:
// `Pixmap.gaussianReference(sigma:)` in Blur.swift, the true Gaussian, which
// LargeBlurTests compares the whole path with (within the bound stated
// there), and `GaussianBlur.decimation(for:)`'s reasoning in Blur+Decimated.swift.

extension GaussianBlur {
  /// `decimatedBlur` of one float plane (a shadow's alpha).
  static func decimatedBlur(plane: [Float], width w: Int, height: Int, sigma: Double, k: Int, shift: Vector2) -> [Float] {
    var out = [Float](repeating: 0, count: plane.count)
    plane.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { blurred in
        decimatedBlur(
          width: w, height: height, lanes: 1, sigma: sigma, k: k, shift: shift,
          loadRow: { y, row in row.update(from: source.baseAddress! + y * w, count: w) },
          storeRow: { y, row in (blurred.baseAddress! + y * w).update(from: row, count: w) })
      }
    }
    return out
  }

  /// Blurs a `width × height` image of `lanes` floats per pixel (1 or 4) by
  /// σ at 1/k resolution and moves it by `shift` (output (x, y) takes the
  /// value at (x, y) − shift), reading the image a row at a time through
  /// `loadRow` and handing each output row to `storeRow`. Outside the image
  /// is zero; the output has the image's size.
  static func decimatedBlur(
    width w: Int, height h: Int, lanes m: Int, sigma: Double, k: Int, shift: Vector2,
    loadRow: (Int, UnsafeMutablePointer<Float>) -> Void, storeRow: (Int, UnsafePointer<Float>) -> Void
  ) {
    precondition(k >= 2 && (m == 1 || m == 4))
    // The tent's taps over 2k pixels, centred between taps k − 1 and k.
    let taps = 2 * k
    let weights = (0..<taps).map { Float(min($0, taps - 1 - $0)) + 0.5 }.map { $0 / Float(k * k) }
    var tentVariance = 0.0
    for j in 0..<taps {
      let d = Double(j) - Double(k) + 0.5
      tentVariance += Double(weights[j]) * d * d
    }
    // The enlargement is a tent of half-width k: variance k²/6.
    let reduced = (max(sigma * sigma - tentVariance - Double(k * k) / 6, 0)).squareRoot() / Double(k)

    // Small grid: sample i (of `columns`) is the tent over pixels ik − k …
    // ik + k − 1, centred on pixel coordinate ik (pixel x's centre is x + ½);
    // margins on each side hold what the shift brings in.
    let mx = Int((abs(shift.x) / Double(k)).rounded(.up)) + 2
    let my = Int((abs(shift.y) / Double(k)).rounded(.up)) + 2
    let columns = (w - 1) / k + 2, rows = (h - 1) / k + 2
    let sw = columns + 2 * mx, sh = rows + 2 * my
    var small = [Float](repeating: 0, count: sw * sh * m)
    let row = UnsafeMutablePointer<Float>.allocate(capacity: max(w, sw) * m)
    let reducedRow = UnsafeMutablePointer<Float>.allocate(capacity: sw * m)
    defer { row.deallocate(); reducedRow.deallocate() }

    small.withUnsafeMutableBufferPointer { smallBuffer in
      let smallPixels = smallBuffer.baseAddress!
      weights.withUnsafeBufferPointer { taps in
        for y in 0..<h {
          loadRow(y, row)
          // Across: pixel x = ik + r feeds samples i (tap r + k) and i + 1
          // (tap r), x in increasing order, with no division per pixel.
          reducedRow.update(repeating: 0, count: sw * m)
          var x = 0, i = mx
          while x < w {
            let lo = reducedRow + i * m, hi = lo + m
            if m == 1 {
              for r in 0..<min(k, w - x) {
                let pixel = row[x + r]
                lo[0] += taps[r + k] * pixel
                hi[0] += taps[r] * pixel
              }
            } else {
              var low = load4(lo), high = load4(hi)
              for r in 0..<min(k, w - x) {
                let pixel = load4(row + 4 * (x + r))
                low += taps[r + k] * pixel
                high += taps[r] * pixel
              }
              store4(low, lo)
              store4(high, hi)
            }
            x += k
            i += 1
          }
          // Down: row y feeds sample rows y/k and y/k + 1 the same way.
          let j = y / k + my, r = y % k
          let a = taps[r + k], b = taps[r]
          let lo = smallPixels + j * sw * m, hi = lo + sw * m
          for e in 0..<(columns * m) {
            let v = reducedRow[mx * m + e]
            lo[mx * m + e] += a * v
            hi[mx * m + e] += b * v
          }
        }
      }
    }

    let blur = GaussianBlur(sigma: reduced)
    if m == 4 {
      blur.apply(to: &small, width: sw, height: sh, shift: .zero)
    } else {
      blur.applyToPlane(&small, width: sw, height: sh, shift: .zero)
    }

    // Enlarge: output pixel x reads the small grid at (x + ½ − shift)/k.
    let scale = 1 / Double(k)
    var left = [Int](repeating: 0, count: w)
    var fraction = [Float](repeating: 0, count: w)
    for x in 0..<w {
      let u = (Double(x) + 0.5 - shift.x) * scale + Double(mx)
      let i = min(max(Int(u.roundedDown), 0), sw - 2)
      left[x] = i
      fraction[x] = Float(min(max(u - Double(i), 0), 1))
    }
    let out = UnsafeMutablePointer<Float>.allocate(capacity: w * m)
    defer { out.deallocate() }
    small.withUnsafeBufferPointer { smallBuffer in
      let smallPixels = smallBuffer.baseAddress!
      for y in 0..<h {
        let v = (Double(y) + 0.5 - shift.y) * scale + Double(my)
        let j = min(max(Int(v.roundedDown), 0), sh - 2)
        let g = Float(min(max(v - Double(j), 0), 1))
        let top = smallPixels + j * sw * m, bottom = top + sw * m
        for e in 0..<(sw * m) { reducedRow[e] = top[e] + g * (bottom[e] - top[e]) }
        if m == 4 {
          for x in 0..<w {
            let a = load4(reducedRow + 4 * left[x]), b = load4(reducedRow + 4 * left[x] + 4)
            store4(a + fraction[x] * (b - a), out + 4 * x)
          }
        } else {
          for x in 0..<w {
            let a = reducedRow[left[x]], b = reducedRow[left[x] + 1]
            out[x] = a + fraction[x] * (b - a)
          }
        }
        storeRow(y, out)
      }
    }
  }
}
