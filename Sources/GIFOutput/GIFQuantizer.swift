import Raster

/// A frame as palette indices, row-major, top row first.
public struct IndexedFrame: Sendable, Hashable {
  public var width: Int
  public var height: Int
  public var indices: [UInt8]

  public init(width: Int, height: Int, indices: [UInt8]) {
    precondition(indices.count == width * height, "index count does not match the size")
    self.width = width; self.height = height; self.indices = indices
  }
}

/// The threshold map of ordered dithering.
///
/// Measured with gif-compare on UI scenes: the Bayer map gives files 0–15%
/// smaller than blue noise (its rows repeat every few pixels, which LZW
/// likes) and equal or slightly better PSNR after a σ = 1 blur (it puts its
/// noise at the highest frequencies), at the price of a fine regular
/// cross-hatch instead of grain where gradients are dithered. Bayer is the
/// default: it is what keeps single-frame GIFs of large gradients no larger
/// than FFmpeg's.
public enum GIFDither: Sendable, Hashable {
  /// A 64×64 void-and-cluster blue-noise map: no visible pattern.
  case blueNoise
  /// The 64×64 Bayer (recursive) matrix, as in Yliluoma's pattern dithering.
  case bayer

  var ranks: [UInt16] {
    switch self {
    case .blueNoise: BlueNoise.ranks
    case .bayer: BlueNoise.bayer
    }
  }
}

/// Maps frames to a palette with ordered dithering.
///
/// Each colour is rendered as a mix of one to three palette entries with
/// weights w (chosen in sRGB, the space pixels are stored and mixed in):
/// the entries and weights minimise |c − Σwᵢeᵢ|² + λ·Σwᵢ|eᵢ − mix|², the mix's
/// colour error plus a penalty on the noise it adds (its variance), so
/// colours that are in the palette, or close to an entry, map to one entry
/// with no noise, and others mix the entries that surround them best. A
/// pixel takes the entry whose share of 0..<256 holds the threshold map's
/// rank at its position (x mod 64, y mod 64; 4,096 ranks in 256 levels):
/// the same colour at the same place gives the same index in every frame,
/// so nothing shimmers where nothing moves.
///
/// Anti-aliased edges are not dithered: a pixel with a neighbour that is far
/// off in colour and exactly in the palette (a flat fill, or transparency)
/// takes its nearest entry, which keeps edges crisp. (So a pixel next to one
/// that changes may itself switch between its nearest entry and its mix;
/// gif-compare measures 0.00–0.01% of unchanged pixels changing.)
///
/// Speed: a colour's candidates are the 6 entries nearest the centre of its
/// cell in a 64×64×64 grid over sRGB, found once per cell and frame (from a
/// precomputed 16×16×16 grid of candidate lists); the choice among them is
/// made for the exact colour, once per distinct colour in the frame.
///
/// Immutable; `quantize` may run on several threads at once.
public struct GIFQuantizer: Sendable {
  public let palette: GIFPalette
  /// The noise penalty λ. 0 would mix wherever it reduces the mean error;
  /// 1 would minimise the per-pixel error (no mixing that adds noise).
  public let noisePenalty: Float
  /// Pixels with a neighbour further than this (sum of absolute
  /// differences of the premultiplied bytes) that is exactly in the palette
  /// are edges, not dithered.
  public let edgeThreshold: Int
  public let dither: GIFDither

  public static let defaultNoisePenalty: Float = 0.25
  public static let defaultEdgeThreshold = 32
  public static let defaultDither = GIFDither.bayer
  /// Candidates the pair search considers: the nearest few entries (at
  /// most 7: a cell's list is their count and them in 8 lanes).
  static let nearest = 6

  let red: [Float], green: [Float], blue: [Float]
  /// The palette's colours (0xBBGGRR) as a 2²⁴-bit set, and their indices.
  let exactBits: [UInt64]
  let exact: [UInt32: UInt8]
  /// 16×16×16 cells of sRGB space (16 levels each): `cellEntries[cellStart[c]..<cellStart[c+1]]`
  /// holds every entry that can be nearest to a colour in cell c, and those
  /// up to twice that distance (mixing partners).
  let cellStart: [Int32]
  let cellEntries: [UInt8]
  let transparentIndex: UInt8?
  let ranks: [UInt8]

  public init(
    palette: GIFPalette, noisePenalty: Float = GIFQuantizer.defaultNoisePenalty,
    edgeThreshold: Int = GIFQuantizer.defaultEdgeThreshold, dither: GIFDither = GIFQuantizer.defaultDither
  ) {
    self.palette = palette
    self.noisePenalty = noisePenalty
    self.edgeThreshold = edgeThreshold
    self.dither = dither
    ranks = dither.ranks.map { UInt8($0 >> 4) }
    transparentIndex = palette.transparentIndex.map { UInt8($0) }
    var red = [Float](), green = [Float](), blue = [Float](), exact: [UInt32: UInt8] = [:]
    var bits = [UInt64](repeating: 0, count: 1 << 18)
    var usable = [Int]()
    for (i, c) in palette.colors.enumerated() {
      red.append(Float(c.r)); green.append(Float(c.g)); blue.append(Float(c.b))
      guard i != palette.transparentIndex else { continue }
      usable.append(i)
      let key = UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16
      if exact[key] == nil { exact[key] = UInt8(i) }
      bits[Int(key >> 6)] |= 1 << UInt64(key & 63)
    }
    if usable.isEmpty {  // a palette of only the transparent entry: everything maps to it
      usable = [palette.transparentIndex ?? 0]
      if red.isEmpty { red = [0]; green = [0]; blue = [0] }
    }
    self.red = red; self.green = green; self.blue = blue; self.exact = exact; exactBits = bits

    var starts = [Int32](), entries = [UInt8]()
    starts.reserveCapacity(4097)
    var minD = [Float](repeating: 0, count: usable.count)
    for cell in 0..<4096 {
      starts.append(Int32(entries.count))
      let lr = Float((cell >> 8) << 4), lg = Float((cell >> 4 & 15) << 4), lb = Float((cell & 15) << 4)
      var bound = Float.infinity
      @inline(__always) func span(_ p: Float, _ l: Float) -> (near: Float, far: Float) {
        let inside = min(max(p, l), l + 15) - p
        let out = max(abs(p - l), abs(p - l - 15))
        return (inside * inside, out * out)
      }
      for (k, i) in usable.enumerated() {
        let r = span(red[i], lr), g = span(green[i], lg), b = span(blue[i], lb)
        minD[k] = r.near + g.near + b.near
        bound = min(bound, r.far + g.far + b.far)
      }
      for (k, i) in usable.enumerated() where minD[k] <= 4 * bound { entries.append(UInt8(i)) }
    }
    starts.append(Int32(entries.count))
    cellStart = starts; cellEntries = entries
  }

  /// The frame as indices: pixels with alpha < 128 become the transparent
  /// index when the palette has one (the others are unpremultiplied);
  /// without one, colour bytes are used as they are. The same indices as
  /// `referenceQuantize(_:)`, faster (GIFQuantizer+Unsafe.swift).
  public func quantize(_ frame: Pixmap) -> IndexedFrame {
    IndexedFrame(width: frame.width, height: frame.height, indices: indices(of: frame))
  }

  /// The safe twin of `quantize(_:)`: each pixel on its own through the
  /// pixmap's subscript, its colour's rendering decided afresh (no caches).
  /// Slow; for tests.
  func referenceQuantize(_ frame: Pixmap) -> IndexedFrame {
    let width = frame.width, height = frame.height
    var indices = [UInt8](repeating: 0, count: width * height)
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
      let p = frame[x, y]
      return UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16 | UInt32(p.a) << 24
    }
    for y in 0..<height {
      for x in 0..<width {
        let value = pixel(x, y)
        guard let color = straightColor(value) else {
          indices[y * width + x] = transparentIndex ?? 0
          continue
        }
        let rendering = rendering(of: color)
        guard Self.isMix(rendering) else {
          indices[y * width + x] = Self.majority(rendering)
          continue
        }
        let neighbours = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)].filter { (0..<width).contains($0.0) && (0..<height).contains($0.1) }
        let edge = neighbours.contains { makesEdge(value, pixel($0.0, $0.1)) }
        indices[y * width + x] = edge ? Self.nearest(rendering) : Self.dithered(rendering, rank: ranks[(y & 63) << 6 | (x & 63)])
      }
    }
    return IndexedFrame(width: width, height: height, indices: indices)
  }

  /// The straight colour 0xBBGGRR a premultiplied little-endian pixel is
  /// quantized as, nil when it becomes the transparent index (alpha < 128
  /// in a palette with transparency).
  @inline(__always) func straightColor(_ pixel: UInt32) -> UInt32? {
    Histogram.key(pixel, transparent: transparentIndex != nil)
  }

  /// Whether straight colour 0xBBGGRR is exactly a (usable) palette entry.
  @inline(__always) func isExact(_ color: UInt32) -> Bool {
    exactBits[Int(color >> 6)] >> UInt64(color & 63) & 1 != 0
  }

  /// Whether `neighbour` makes `pixel` an edge pixel: it differs by more
  /// than `edgeThreshold` and is transparent or exactly in the palette.
  @inline(__always) func makesEdge(_ pixel: UInt32, _ neighbour: UInt32) -> Bool {
    guard Self.far(pixel, neighbour, edgeThreshold) else { return false }
    guard let color = straightColor(neighbour) else { return true }
    return isExact(color)
  }

  /// The cell of the 64-level grid holding straight colour 0xBBGGRR
  /// (r << 12 | g << 6 | b, 6 bits each), whose candidates `nearestEntries` finds.
  @inline(__always) static func cell(of color: UInt32) -> Int {
    Int(color >> 2 & 0x3F) << 12 | Int(color >> 10 & 0x3F) << 6 | Int(color >> 18 & 0x3F)
  }

  /// The rendering of straight colour 0xBBGGRR (see `decide`): the entry
  /// itself when it is in the palette, else the best mix of its cell's
  /// candidates.
  func rendering(of color: UInt32) -> UInt64 {
    if isExact(color) { return Self.single(exact[color]!) }
    return decide(color, nearestEntries(Self.cell(of: color)))
  }

  /// A rendering by one entry alone (no dithering, also on edges).
  @inline(__always) static func single(_ entry: UInt8) -> UInt64 { UInt64(entry) * 0x01_0101_0101 }
  /// Whether a rendering mixes entries (a3 > 0), so that its pixels are dithered or edges.
  @inline(__always) static func isMix(_ rendering: UInt64) -> Bool { rendering >> 56 != 0 }
  /// The entry of a rendering's majority, e0 (a single entry's only one).
  @inline(__always) static func majority(_ rendering: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: rendering) }
  /// The entry a rendering's pixels take on edges.
  @inline(__always) static func nearest(_ rendering: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: rendering >> 32) }
  /// The entry a mix's pixel takes at threshold `rank` (0..<256).
  @inline(__always) static func dithered(_ rendering: UInt64, rank: UInt8) -> UInt8 {
    let a1 = UInt8(truncatingIfNeeded: rendering >> 40), a2 = UInt8(truncatingIfNeeded: rendering >> 48)
    let a3 = UInt8(truncatingIfNeeded: rendering >> 56)
    let shift: UInt64 = rank < a1 ? 8 : rank < a2 ? 16 : rank < a3 ? 24 : 0
    return UInt8(truncatingIfNeeded: rendering >> shift)
  }

  /// Whether two premultiplied pixels differ by more than `limit` (sum of
  /// absolute channel differences).
  @inline(__always) static func far(_ a: UInt32, _ b: UInt32, _ limit: Int) -> Bool {
    if a == b { return false }
    var sum = 0
    for shift in stride(from: UInt32(0), through: 24, by: 8) {
      sum += abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF))
    }
    return sum > limit
  }

  /// A cell's candidates: element 0 their count n (1...`nearest`),
  /// elements 1...n the entries, nearest first. (An inline array: on the
  /// stack, and its elements are indexed without a vector's lane shuffles.)
  typealias Candidates = InlineArray<8, UInt8>

  /// The entries nearest the centre of 6-bit cell `cell` (r << 12 | g << 6 | b),
  /// nearest first (ties in the order of the 16-level cell's list).
  func nearestEntries(_ cell: Int) -> Candidates {
    let r = Float((cell >> 12) << 2) + 1.5, g = Float((cell >> 6 & 0x3F) << 2) + 1.5, b = Float((cell & 0x3F) << 2) + 1.5
    let grid = (cell >> 14) << 8 | (cell >> 8 & 15) << 4 | (cell >> 2 & 15)
    let k = Self.nearest
    var list = Candidates(repeating: 0), distances = InlineArray<8, Float>(repeating: 0)
    var found = 0
    for e in Int(cellStart[grid])..<Int(cellStart[grid + 1]) {
      let i = cellEntries[e]
      let dr = red[Int(i)] - r, dg = green[Int(i)] - g, db = blue[Int(i)] - b
      let d = dr * dr + dg * dg + db * db
      if found == k && d >= distances[k - 1] { continue }
      var p = found == k ? k - 1 : found
      while p > 0 && distances[p - 1] > d { distances[p] = distances[p - 1]; list[p + 1] = list[p]; p -= 1 }
      distances[p] = d; list[p + 1] = i
      if found < k { found += 1 }
    }
    if found == 0 { found = 1; list[1] = transparentIndex ?? 0 }
    list[0] = UInt8(found)
    return list
  }

  /// The rendering of straight colour 0xBBGGRR given the entries near it:
  /// `e0 | e1 << 8 | e2 << 16 | e3 << 24 | nearest << 32 | a1 << 40 | a2 << 48 | a3 << 56`:
  /// a pixel whose rank (0..<256) is below a1 takes e1, else below a2 e2,
  /// else below a3 e3, else e0 (the majority); on edges, `nearest`. (Mixes
  /// here have at most three entries: e3 = e0 and a3 = a2.) The
  /// cheapest of: a single entry (cost |c − e|²), and the mixes of 2 or 3
  /// entries (cost |c − mix|² + λ times the mix's variance Σ wᵢ|eᵢ − mix|²):
  /// each pair at c's projection on its segment; and, when no segment
  /// passes within half a level of c, each triangle on the closest segment at
  /// c's projection on its plane when that falls inside. (All triangles, and
  /// tetrahedra, tried, gained nothing measurable for their cost.)
  func decide(_ color: UInt32, _ candidates: Candidates) -> UInt64 {
    let cr = Float(color & 0xFF), cg = Float(color >> 8 & 0xFF), cb = Float(color >> 16 & 0xFF)
    let found = Int(candidates[0])
    // Entry − c for each candidate (`nearest` ≤ 8).
    var dx = InlineArray<8, Float>(repeating: 0), dy = dx, dz = dx
    var nearest = Int(candidates[1]), best = Float.infinity
    for u in 0..<found {
      let i = Int(candidates[u + 1])
      let x = red[i] - cr, y = green[i] - cg, z = blue[i] - cb
      dx[u] = x; dy[u] = y; dz[u] = z
      let q = x * x + y * y + z * z
      if q < best { best = q; nearest = i }
    }
    let single = best
    // The best mix so far: up to three candidates (positions) and weights.
    var m0 = 0, m1 = 0, m2 = 0
    var w0: Float = 1, w1: Float = 0, w2: Float = 0
    let lambda = noisePenalty
    var pairCost = Float.infinity, pu = 0, pv = 0
    for u in 0..<found {
      let px = dx[u], py = dy[u], pz = dz[u]  // p − c
      let pp = px * px + py * py + pz * pz
      for v in (u + 1)..<max(u + 1, found) {
        let ax = dx[v] - px, ay = dy[v] - py, az = dz[v] - pz  // q − p
        let a11 = ax * ax + ay * ay + az * az
        if a11 == 0 { continue }
        let b1 = -(px * ax + py * ay + pz * az)  // (c − p)·(q − p)
        let t = min(max(b1 / a11, 0), 1)
        let residual = pp - 2 * t * b1 + t * t * a11
        let cost = residual + lambda * t * (1 - t) * a11
        if cost < best { best = cost; (m0, m1, m2) = (u, v, v); (w0, w1, w2) = (1 - t, t, 0) }
        if residual < pairCost { pairCost = residual; (pu, pv) = (u, v) }
      }
    }
    // Triangles on the pair that comes closest to c, when it misses c.
    if pairCost > 0.25 && found > 2 {
      let px = dx[pu], py = dy[pu], pz = dz[pu], pp = px * px + py * py + pz * pz
      let ax = dx[pv] - px, ay = dy[pv] - py, az = dz[pv] - pz
      let a11 = ax * ax + ay * ay + az * az, b1 = -(px * ax + py * ay + pz * az)
      for z in 0..<found where z != pu && z != pv {
        let bx = dx[z] - px, by = dy[z] - py, bz = dz[z] - pz
        let a12 = ax * bx + ay * by + az * bz, a22 = bx * bx + by * by + bz * bz
        let det = a11 * a22 - a12 * a12
        if det <= 1e-3 * a11 * a22 { continue }  // (nearly) collinear
        let b2 = -(px * bx + py * by + pz * bz)
        let wq = (b1 * a22 - b2 * a12) / det, ws = (a11 * b2 - a12 * b1) / det
        guard wq >= 0 && ws >= 0 && wq + ws <= 1 else { continue }
        let uu = wq * wq * a11 + 2 * wq * ws * a12 + ws * ws * a22
        let cost = (pp - wq * b1 - ws * b2) + lambda * (wq * a11 + ws * a22 - uu)
        if cost < best { best = cost; (m0, m1, m2) = (pu, pv, z); (w0, w1, w2) = (1 - wq - ws, wq, ws) }
      }
    }
    let plain = UInt64(nearest) * 0x01_0101_0101
    guard best < single else { return plain }
    // The majority first, then the others by weight (ties by position).
    if w1 > w0 { swap(&m0, &m1); swap(&w0, &w1) }
    if w2 > w0 { swap(&m0, &m2); swap(&w0, &w2) }
    if w2 > w1 { swap(&m1, &m2); swap(&w1, &w2) }
    let e0 = UInt64(candidates[m0 + 1]), e1 = UInt64(candidates[m1 + 1]), e2 = UInt64(candidates[m2 + 1])
    let a1 = UInt64(min(255, (w1 * 256).rounded())), a2 = UInt64(min(255, ((w1 + w2) * 256).rounded()))
    guard a2 > 0 else { return plain }
    return e0 | e1 << 8 | e2 << 16 | e0 << 24 | UInt64(nearest) << 32 | a1 << 40 | a2 << 48 | a2 << 56
  }
}
