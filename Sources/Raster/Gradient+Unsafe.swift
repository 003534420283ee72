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
      for i in 0..<count { words.storeBytes(of: table[ramp.index(parameter(x + i, y))], toByteOffset: 4 * i, as: UInt32.self) }
    }
  }
}
