import PortableMath
import Primitives

/// A 64×64 blue-noise threshold map by Ulichney's void-and-cluster method
/// (Gaussian energy σ = 1.5 on the torus), computed once, deterministically.
/// `ranks[y * 64 + x]` is a permutation of 0..<4096: thresholding it at any
/// level gives an even, pattern-free scatter of pixels, so a dithered area
/// has noise only at high spatial frequencies (invisible after a slight blur)
/// and, being indexed by position, the same colour dithers the same way in
/// every frame.
enum BlueNoise {
  static let size = 64
  static let count = size * size

  static let ranks: [UInt16] = generate()

  /// The 64×64 Bayer (recursive ordered-dither) matrix, for comparison.
  static let bayer: [UInt16] = (0..<count).map { i in
    let x = i & (size - 1), y = i >> 6
    var v = 0
    for bit in 0..<6 { v = v << 2 | (((x ^ y) >> bit) & 1) << 1 | ((y >> bit) & 1) }
    return UInt16(v)
  }

  static func generate(seed: UInt64 = 0x5EED_61F0) -> [UInt16] {
    let n = size, mask = n - 1, radius = 7
    let sigma = 1.5
    // Kernel over a (2r+1)² window; beyond 7 px the Gaussian is < 2e-5.
    var kernel = [Double]()
    for dy in -radius...radius {
      for dx in -radius...radius { kernel.append(Elementary.exp(-Double(dx * dx + dy * dy) / (2 * sigma * sigma))) }
    }
    var energy = [Double](repeating: 0, count: count)
    var on = [Bool](repeating: false, count: count)
    func splat(_ p: Int, _ sign: Double) {
      let px = p & mask, py = p >> 6
      var k = 0
      for dy in -radius...radius {
        let row = ((py + dy) & mask) << 6
        for dx in -radius...radius {
          energy[row | ((px + dx) & mask)] += sign * kernel[k]
          k += 1
        }
      }
    }
    func tightestCluster() -> Int {
      var best = -1, e = -Double.infinity
      for i in 0..<count where on[i] && energy[i] > e { e = energy[i]; best = i }
      return best
    }
    func largestVoid() -> Int {
      var best = -1, e = Double.infinity
      for i in 0..<count where !on[i] && energy[i] < e { e = energy[i]; best = i }
      return best
    }
    // The initial pattern: 10% of pixels at random, then relaxed by moving
    // the tightest cluster's pixel into the largest void until stable.
    var random = SplitMix64(seed: seed)
    var placed = 0
    while placed < count / 10 {
      let p = Int(random.next() % UInt64(count))
      if !on[p] { on[p] = true; splat(p, 1); placed += 1 }
    }
    for _ in 0..<(4 * count) {
      let c = tightestCluster()
      on[c] = false; splat(c, -1)
      let v = largestVoid()
      on[v] = true; splat(v, 1)
      if v == c { break }
    }
    let initialOn = on, initialEnergy = energy
    var ranks = [UInt16](repeating: 0, count: count)
    // Phase 1: remove the tightest clusters, ranking downwards.
    for rank in stride(from: placed - 1, through: 0, by: -1) {
      let c = tightestCluster()
      on[c] = false; splat(c, -1)
      ranks[c] = UInt16(rank)
    }
    // Phases 2 and 3: fill the largest voids, ranking upwards. (Past half,
    // Ulichney's tightest cluster of zeros is the zero with the least energy
    // of ones, since the two energies add up to a constant.)
    on = initialOn; energy = initialEnergy
    for rank in placed..<count {
      let v = largestVoid()
      on[v] = true; splat(v, 1)
      ranks[v] = UInt16(rank)
    }
    return ranks
  }
}
