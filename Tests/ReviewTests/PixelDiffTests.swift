import Testing

@testable import Review

/// The fast difference count against its safe twin, on random frames that
/// differ in scattered pixels, at every kind of threshold.
@Suite struct PixelDiffTests {
  @Test(arguments: [0, 1, 2, 17, 128, 254, 255])
  func fastCountIsTheReferences(threshold: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(threshold)
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for length in [4, 28, 32, 36, 1024, 4100] {
      let x = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
      var y = x
      for _ in 0..<(length / 8 + 1) {
        let i = Int(next() % UInt64(length))
        y[i] = UInt8(truncatingIfNeeded: next())
      }
      let fast = PixelDiff.count(x, y, threshold: threshold), safe = PixelDiff.referenceCount(x, y, threshold: threshold)
      #expect(fast == safe, "length \(length)")
    }
    #expect(PixelDiff.count([1, 2, 3, 4], [1, 2, 3, 4], threshold: threshold) == PixelDiff(pixels: 0, maxLevel: 0))
  }
}
