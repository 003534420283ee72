import Testing

@testable import Primitives

/// The libm-free rounding against the standard library's, bit for bit.
struct RoundingTests {
  static let edges: [Double] = [
    0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.5000000000000001,
    1 - 0x1p-53, -(1 - 0x1p-53), 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52, 0x1p52 + 1, 0x1p53, -0x1p53, 0x1p63, -0x1p63, 1e300, -1e300,
    .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
    .infinity, -.infinity, 4_503_599_627_370_495.5, -4_503_599_627_370_495.5,
  ]

  static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

  @Test func edgeValues() {
    for x in Self.edges + [.nan] {
      #expect(Self.same(x.roundedDown, x.rounded(.down)), "⌊\(x)⌋")
      #expect(Self.same(x.roundedUp, x.rounded(.up)), "⌈\(x)⌉")
      #expect(Self.same(x.roundedToNearest, x.rounded()), "round(\(x))")
    }
  }

  @Test func randomValues() {
    var random = SplitMix64(seed: 0x5EED)
    for i in 0..<200_000 {
      // Pixel-sized numbers, halves and near-halves, and any bit pattern.
      let x: Double
      switch i % 3 {
      case 0: x = random.range(-5000, 5000)
      case 1: x = (random.range(-4000, 4000)).rounded() / 2 + (Double(Int(random.next() % 3)) - 1) * 0x1p-40
      default: x = Double(bitPattern: random.next())
      }
      #expect(Self.same(x.roundedDown, x.rounded(.down)), "⌊\(x)⌋")
      #expect(Self.same(x.roundedUp, x.rounded(.up)), "⌈\(x)⌉")
      #expect(Self.same(x.roundedToNearest, x.rounded()), "round(\(x))")
    }
  }

  @Test func integers() {
    var random = SplitMix64(seed: 0x1A7)
    for x in Self.edges.filter({ abs($0) < 0x1p62 }) + (0..<100_000).map({ _ in random.range(-1e6, 1e6) }) {
      #expect(Int(flooring: x) == Int(x.rounded(.down)), "⌊\(x)⌋")
      #expect(Int(ceiling: x) == Int(x.rounded(.up)), "⌈\(x)⌉")
    }
  }
}
