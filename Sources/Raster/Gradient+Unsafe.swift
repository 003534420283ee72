import Primitives

// The gradients' row loops, on raw memory. Safe twins, in Gradient.swift:
// `LinearGradientShader.referenceShade8(x:y:count:)` and
// `RadialGradientShader.referenceShade8(x:y:count:)`; GradientTests
// compares them on random gradients and rows.

extension GradientRamp {
  /// Entry i as four floats.
  @inline(__always)
  func write(entry i: Int, to output: UnsafeMutablePointer<Float>) {
    table.withUnsafeBufferPointer { entries in
      (output).update(from: entries.baseAddress! + 4 * i, count: 4)
    }
  }
}

extension LinearGradientShader: RowShader {
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    let t0 = parameter(x, y)
    for i in 0..<count { ramp.write(entry: ramp.index(t0 + Double(i) * direction.x), to: output + 4 * i) }
  }

  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    let words = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt32.self)
    ramp.bytes.withUnsafeBufferPointer { table in
      let entries = table.baseAddress!
      guard let (rowStart, step) = fixedPointStep(row: y) else {
        let t0 = parameter(x, y)
        if direction.x == 0 {
          // A vertical gradient: one colour along the row.
          words.initialize(repeating: entries[ramp.index(t0)], count: count)
          return
        }
        let last = Double(GradientRamp.resolution - 1)
        let u0 = (t0.isNaN ? 0 : t0) * last + 0.5, du = direction.x * last
        for i in 0..<count { words[i] = entries[Int(min(max(u0 + Double(i) * du, 0.5), last + 0.5))] }
        return
      }
      // The pixels whose entry is inside the table, widened by one each
      // side; beyond them the row is one colour (the pad).
      let last = Double(GradientRamp.resolution - 1)
      let t0 = parameter(x, y)
      let u0 = (t0.isNaN ? 0 : t0) * last + 0.5, du = direction.x * last
      let enter = (0.5 - u0) / du, leave = (last + 0.5 - u0) / du
      let (a, b) = du > 0 ? (enter, leave) : (leave, enter)
      let start = Int(min(max(a.roundedDown - 1, 0), Double(count)))
      let end = Int(min(max(b.roundedUp + 1, Double(start)), Double(count)))
      let first = entries[0], final = entries[GradientRamp.resolution - 1]
      if start > 0 { words.initialize(repeating: du > 0 ? first : final, count: start) }
      if end < count { (words + end).initialize(repeating: du > 0 ? final : first, count: count - end) }
      guard start < end else { return }
      let top = Int64(GradientRamp.resolution - 1)
      @inline(__always) func entry(_ i: Int) -> Int64 { (rowStart &+ Int64(x + i) &* step) >> 32 }
      // The entry moves one way along the row: clamp the ends that leave
      // the table, then look up the pixels between without clamping.
      var lo = start, hi = end
      while lo < hi, !(0...top).contains(entry(lo)) {
        words[lo] = entries[Int(min(max(entry(lo), 0), top))]
        lo += 1
      }
      while hi > lo, !(0...top).contains(entry(hi - 1)) {
        words[hi - 1] = entries[Int(min(max(entry(hi - 1), 0), top))]
        hi -= 1
      }
      var u = rowStart &+ Int64(x + lo) &* step
      for i in lo..<hi {
        words[i] = entries[Int(truncatingIfNeeded: u >> 32)]
        u &+= step
      }
    }
  }
}

extension RadialGradientShader: RowShader {
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    for i in 0..<count { ramp.write(entry: ramp.index(parameter(x + i, y)), to: output + 4 * i) }
  }

  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    let words = UnsafeMutableRawPointer(output)
    ramp.bytes.withUnsafeBufferPointer { table in
      var i = 0
      if focus.x == 0 && focus.y == 0 && inverseSpan != 0 {
        // Four pixels at a time, each lane the very operations of
        // `parameter` and `GradientRamp.index` (the same bits).
        let m = deviceToGradient
        let py = Double(y) + 0.5
        let cpy = SIMD4<Double>(repeating: m.c * py), dpy = SIMD4<Double>(repeating: m.d * py)
        let a = SIMD4<Double>(repeating: m.a), b = SIMD4<Double>(repeating: m.b)
        let tx = SIMD4<Double>(repeating: m.tx), ty = SIMD4<Double>(repeating: m.ty)
        let cx = SIMD4<Double>(repeating: center.x), cy = SIMD4<Double>(repeating: center.y)
        let r0 = SIMD4<Double>(repeating: startRadius), inverse = SIMD4<Double>(repeating: inverseSpan)
        let last = SIMD4<Double>(repeating: Double(GradientRamp.resolution - 1)), half = SIMD4<Double>(repeating: 0.5)
        let zero = SIMD4<Double>(repeating: 0), one = SIMD4<Double>(repeating: 1)
        let lanes = SIMD4<Double>(0.5, 1.5, 2.5, 3.5)
        while i + 4 <= count {
          let px = SIMD4<Double>(repeating: Double(x + i)) + lanes
          let gx = a * px + cpy + tx - cx, gy = b * px + dpy + ty - cy
          let t = ((gx * gx + gy * gy).squareRoot() - r0) * inverse
          var clamped = t.replacing(with: zero, where: t .!= t)
          clamped = clamped.replacing(with: zero, where: clamped .< zero).replacing(with: one, where: clamped .> one)
          // Truncated lane by lane (the generic SIMD conversion is slow).
          let index = clamped * last + half
          for lane in 0..<4 { words.storeBytes(of: table[Int(index[lane])], toByteOffset: 4 * (i + lane), as: UInt32.self) }
          i += 4
        }
      }
      while i < count {
        words.storeBytes(of: table[ramp.index(parameter(x + i, y))], toByteOffset: 4 * i, as: UInt32.self)
        i += 1
      }
    }
  }
}
