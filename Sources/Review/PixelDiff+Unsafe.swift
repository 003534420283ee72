// The difference count's inner loop, on raw pointers (no bounds checks).
// Safe twin: `PixelDiff.referenceCount` in PixelDiff.swift (PixelDiffTests
// compares them on random frames and thresholds).

extension PixelDiff {
  /// Pixels of `x` and `y` (RGBA8, the same length) whose largest channel
  /// difference is more than `threshold`, and the largest difference.
  static func count(_ x: [UInt8], _ y: [UInt8], threshold: Int) -> PixelDiff {
    precondition(x.count == y.count && x.count % 4 == 0, "pixels of one size")
    var pixels = 0
    var largest: Int32 = 0
    let limit = Int32(threshold)
    x.withUnsafeBufferPointer { a in
      y.withUnsafeBufferPointer { b in
        guard let p = a.baseAddress, let q = b.baseAddress else { return }
        var i = 0
        let n = a.count
        while i < n {
          let d0 = abs(Int32(p[i]) - Int32(q[i])), d1 = abs(Int32(p[i + 1]) - Int32(q[i + 1]))
          let d2 = abs(Int32(p[i + 2]) - Int32(q[i + 2])), d3 = abs(Int32(p[i + 3]) - Int32(q[i + 3]))
          let d = max(max(d0, d1), max(d2, d3))
          pixels &+= d > limit ? 1 : 0
          largest = max(largest, d)
          i &+= 4
        }
      }
    }
    return PixelDiff(pixels: pixels, maxLevel: Int(largest))
  }
}
