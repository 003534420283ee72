import Primitives

// The magnified image's row loop, on raw pointers into its bytes. Safe
// twin: `MagnifiedImageShader.referenceShade8(x:y:count:)`
// (MagnifiedImageShaderTests compares them on random rows and factors).

extension MagnifiedImageShader: RowShader {
  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    guard count > 0 else { return }
    let row = tap(y - origin.y, size: image.height)
    let w = image.width
    let (a, b) = (UInt32(256 - row.weight), UInt32(row.weight))
    // Column x + n's centre in texels, minus ½, in 1/(2k)ths: t = 2c + 1 − k
    // (c relative to the origin); its floor is t >> log2(2k), its weight
    // (t mod 2k)·128/k in 1/256ths. k is a power of two: shifts, no division.
    let span = 2 * factor, shift = span.trailingZeroBitCount, mask = span - 1, unit = 128 / factor
    image.bytes.withUnsafeBufferPointer { texels in
      let top = texels.baseAddress! + 4 * w * row.index, bottom = texels.baseAddress! + 4 * w * row.next
      @inline(__always) func blended(_ i: Int) -> SIMD4<UInt32> {
        let p = top + 4 * i, q = bottom + 4 * i
        return SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3])) &* a
          &+ SIMD4(UInt32(q[0]), UInt32(q[1]), UInt32(q[2]), UInt32(q[3])) &* b
      }
      var n = 0
      var t = 2 * (x - origin.x) + 1 - factor
      while n < count {
        let floor = t >> shift
        // The pixels between the same two texels, the two texel columns
        // blended down the rows once for them; across, the value grows by
        // the same step from pixel to pixel: additions only.
        let run = min(count - n, ((floor + 1) * span - t + 1) / 2)
        let left = blended(min(max(floor, 0), w - 1)), right = blended(min(max(floor + 1, 0), w - 1))
        let weight = UInt32((t & mask) * unit), step = UInt32(2 * unit)
        // left·(256 − w) + right·w = left·256 + (right − left)·w, in
        // wrapping arithmetic (the sum is the true one, 0…2^24).
        let delta = right &- left
        var v = (left &<< 8) &+ delta &* weight &+ 32768
        let stepped = delta &* step
        var pixel = output + 4 * n
        for _ in 0..<run {
          let out = v &>> 16
          pixel[0] = UInt8(truncatingIfNeeded: out[0]); pixel[1] = UInt8(truncatingIfNeeded: out[1])
          pixel[2] = UInt8(truncatingIfNeeded: out[2]); pixel[3] = UInt8(truncatingIfNeeded: out[3])
          v = v &+ stepped
          pixel += 4
        }
        n += run
        t += 2 * run
      }
    }
  }

  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    let bytes = referenceShade8(x: x, y: y, count: count)
    for i in 0..<(4 * count) { output[i] = Float(bytes[i]) / 255 }
  }
}
