import Raster

/// A GIF's global colour table: at most 255 opaque colours, plus, when
/// `transparentIndex` is set, one transparent entry (so ≤ 256 in all).
///
/// An opaque palette leaves index `colors.count` free: `GIFWriter` uses it as
/// the transparent index of its changed-rectangle frames.
public struct GIFPalette: Sendable, Hashable {
  /// The entries, opaque (alpha 255) except the transparent one
  /// (`RGBA8(0, 0, 0, 0)` at `transparentIndex`).
  public var colors: [RGBA8]
  /// The entry that stands for "no pixel", for scenes without a background.
  public var transparentIndex: Int?

  /// The most opaque colours a built palette holds.
  public static let maxOpaqueColors = 255

  public init(colors: [RGBA8], transparentIndex: Int? = nil) {
    precondition(colors.count <= 256, "a GIF palette holds at most 256 colours")
    precondition(transparentIndex.map { colors.indices.contains($0) } ?? true, "transparent index out of range")
    self.colors = colors
    self.transparentIndex = transparentIndex
  }

  /// A palette for frames like `samples`, chosen in Oklab, deterministic.
  ///
  /// - Colours that fill areas (pixels equal to their left and upper
  ///   neighbours: flat UI fills, not gradients or anti-aliased edges) get
  ///   exact entries, most-covering first, so flat areas are never dithered.
  ///   When all the colours fit, every colour is exact.
  /// - The remaining entries go to the other colours by weighted k-means in
  ///   Oklab (median-cut start, exact entries held fixed).
  ///
  /// With `transparent`, pixels with alpha < 128 are left out (they become
  /// the transparent index) and the others are unpremultiplied; without it,
  /// colour bytes are taken as they are (premultiplied over black).
  public static func build(samples: [Pixmap], transparent: Bool) -> GIFPalette {
    var builder = Builder(transparent: transparent)
    for sample in samples { builder.add(sample) }
    return builder.build()
  }

  /// Accumulates the colours of sample frames one at a time, so that a
  /// render can sample many frames without keeping them. The palette depends
  /// on the order of the frames (past 2^17 colours, which ones are kept
  /// exactly): add them in a fixed order.
  public struct Builder: Sendable {
    var histogram: Histogram
    /// At most this many opaque colours (`maxOpaqueColors` unless fewer are asked for).
    let colors: Int
    public init(transparent: Bool, colors: Int = GIFPalette.maxOpaqueColors) {
      histogram = Histogram(transparent: transparent)
      self.colors = min(max(colors, 2), GIFPalette.maxOpaqueColors)
    }
    public mutating func add(_ frame: Pixmap) { histogram.add(frame) }
    public func build() -> GIFPalette { GIFPalette.build(histogram, colors: colors) }
  }

  static func build(_ histogram: Histogram, colors: Int = maxOpaqueColors) -> GIFPalette {
    let transparent = histogram.transparent
    var opaque = choose(histogram, slots: colors)
    if opaque.isEmpty { opaque = [RGBA8(r: 0, g: 0, b: 0, a: 255)] }
    guard transparent else { return GIFPalette(colors: opaque) }
    return GIFPalette(colors: opaque + [.transparent], transparentIndex: opaque.count)
  }

  // MARK: - Choosing the colours

  /// A flat colour covers at least this fraction of the sampled pixels with
  /// interior pixels (1/8192: ~250 pixels of a 1080p frame).
  static let flatFraction = 1.0 / 8192
  /// At most this many exact entries; the rest of the table always goes to
  /// k-means so gradients and edges keep enough colours.
  static let maxExact = 192
  /// k-means takes this many colours one by one, less frequent ones in bins.
  static let maxPoints = 16384

  static func choose(_ h: Histogram, slots: Int) -> [RGBA8] {
    let n = h.keys.count
    func color(_ key: UInt32) -> RGBA8 {
      RGBA8(r: UInt8(key & 0xFF), g: UInt8(key >> 8 & 0xFF), b: UInt8(key >> 16 & 0xFF), a: 255)
    }
    // Everything fits: every colour exact, most frequent first.
    if n <= slots && !h.overflowed {
      let order = (0..<n).sorted { h.counts[$0] != h.counts[$1] ? h.counts[$0] > h.counts[$1] : h.keys[$0] < h.keys[$1] }
      return order.map { color(h.keys[$0]) }
    }
    let threshold = max(4, Int((Double(h.total) * flatFraction).rounded(.up)))
    // A flat colour stands alone: its interior outweighs all the colours
    // within 2 levels of it (a fill's anti-aliased edge is spread thinly
    // between it and its surroundings), unlike one band of a gradient or of
    // a blur, whose neighbouring levels cover as much as it does.
    var slot: [UInt32: Int] = [:]
    for (i, k) in h.keys.enumerated() { slot[k] = i }
    func standsAlone(_ i: Int) -> Bool {
      let k = h.keys[i]
      let r = Int(k & 0xFF), g = Int(k >> 8 & 0xFF), b = Int(k >> 16 & 0xFF)
      var around = 0
      for dr in -2...2 where (0...255).contains(r + dr) {
        for dg in -2...2 where (0...255).contains(g + dg) {
          for db in -2...2 where (0...255).contains(b + db) && (dr, dg, db) != (0, 0, 0) {
            if let j = slot[UInt32(r + dr) | UInt32(g + dg) << 8 | UInt32(b + db) << 16] { around += h.counts[j] }
          }
        }
      }
      return h.interior[i] >= around
    }
    let flat = (0..<n).filter { h.interior[$0] >= threshold && standsAlone($0) }
      .sorted { h.interior[$0] != h.interior[$1] ? h.interior[$0] > h.interior[$1] : h.keys[$0] < h.keys[$1] }
      .prefix(maxExact)
    var isExact = [Bool](repeating: false, count: n)
    for i in flat { isExact[i] = true }
    let exact = flat.map { color(h.keys[$0]) }
    let fixed = flat.map { i in Oklab(r: Int(h.keys[i] & 0xFF), g: Int(h.keys[i] >> 8 & 0xFF), b: Int(h.keys[i] >> 16 & 0xFF)) }

    // The other colours for k-means: the most frequent `maxPoints` as they
    // are, the rest binned at 5 bits per channel (a bin is the weighted mean
    // of its colours in Oklab).
    let others = (0..<n).filter { !isExact[$0] }
      .sorted { h.counts[$0] != h.counts[$1] ? h.counts[$0] > h.counts[$1] : h.keys[$0] < h.keys[$1] }
    var binOf: [UInt32: Int] = [:]
    var sums: [(w: Double, l: Double, a: Double, b: Double)] = []
    for (rank, i) in others.enumerated() {
      let k = h.keys[i]
      let r = Int(k & 0xFF), g = Int(k >> 8 & 0xFF), b = Int(k >> 16 & 0xFF)
      let j: Int
      if rank < maxPoints {
        j = sums.count; sums.append((0, 0, 0, 0))
      } else {
        let bin = UInt32(r >> 3) << 10 | UInt32(g >> 3) << 5 | UInt32(b >> 3)
        if let existing = binOf[bin] { j = existing } else { j = sums.count; binOf[bin] = j; sums.append((0, 0, 0, 0)) }
      }
      let p = Oklab(r: r, g: g, b: b), w = Double(h.counts[i])
      sums[j].w += w; sums[j].l += w * p.l; sums[j].a += w * p.a; sums[j].b += w * p.b
    }
    // Colours past the histogram's limit, by bin (at their mean colour).
    for bin in 0..<(h.overflow.count / 4) where h.overflow[4 * bin] > 0 {
      let w = Double(h.overflow[4 * bin])
      let p = Oklab(
        r: Int((Double(h.overflow[4 * bin + 1]) / w).rounded()), g: Int((Double(h.overflow[4 * bin + 2]) / w).rounded()),
        b: Int((Double(h.overflow[4 * bin + 3]) / w).rounded()))
      let key = UInt32(bin >> 10) << 10 | UInt32(bin >> 5 & 0x1F) << 5 | UInt32(bin & 0x1F)
      let j: Int
      if let existing = binOf[key] { j = existing } else { j = sums.count; binOf[key] = j; sums.append((0, 0, 0, 0)) }
      sums[j].w += w; sums[j].l += w * p.l; sums[j].a += w * p.a; sums[j].b += w * p.b
    }
    let points = sums.map { Oklab(l: $0.l / $0.w, a: $0.a / $0.w, b: $0.b / $0.w) }
    let weights = sums.map(\.w)
    let free = slots - exact.count
    let centres = KMeans.run(points: points, weights: weights, fixed: fixed, free: free)

    var result = exact
    var seen = Set(exact)
    for c in centres {
      let (r, g, b) = c.srgbBytes
      let entry = RGBA8(r: r, g: g, b: b, a: 255)
      if seen.insert(entry).inserted { result.append(entry) }
    }
    return result
  }
}

/// Colour counts over the samples, in first-seen order (deterministic).
struct Histogram {
  /// 0xBBGGRR, straight (unpremultiplied) colour.
  var keys: [UInt32] = []
  var counts: [Int] = []
  /// Pixels equal to both their left and upper neighbours.
  var interior: [Int] = []
  var total = 0
  /// Past `maxColors` colours, a new colour is kept only when it fills an
  /// area (has interior pixels); the others are counted in 5-bit bins
  /// (count and sums of r, g, b), which bounds time and memory for photos.
  static let maxColors = 1 << 17
  var overflow = [Int](repeating: 0, count: 0)
  var overflowed: Bool { !overflow.isEmpty }

  let transparent: Bool
  var index: [UInt32: Int] = [:]
  // A direct-mapped cache in front of the dictionary (keys are 24-bit, so
  // the all-ones key marks an empty entry).
  var cacheKeys = [UInt32](repeating: .max, count: 1 << 16), cacheSlots = [Int](repeating: 0, count: 1 << 16)

  init(transparent: Bool) { self.transparent = transparent }

  /// Counts a run of `length` equal pixels `value` (premultiplied, little
  /// endian), `interior` of them equal to the pixel above: pixels are
  /// counted run by run, as `add(_:)` and its twin find them.
  mutating func count(run value: UInt32, length: Int, interior: Int) {
    guard let key = Histogram.key(value, transparent: transparent) else { return }
    let slot: Int
    let c = Int((key &* 0x9E37_79B1) >> 16) & 0xFFFF
    if cacheKeys[c] == key {
      slot = cacheSlots[c]
    } else if let s = index[key] {
      slot = s
      cacheKeys[c] = key; cacheSlots[c] = s
    } else if keys.count < Histogram.maxColors || interior > 0 {
      slot = keys.count
      index[key] = slot
      keys.append(key); counts.append(0); self.interior.append(0)
    } else {
      if overflow.isEmpty { overflow = [Int](repeating: 0, count: 4 << 15) }
      let bin = Int(key >> 3 & 0x1F) << 10 | Int(key >> 11 & 0x1F) << 5 | Int(key >> 19 & 0x1F)
      overflow[4 * bin] += length
      overflow[4 * bin + 1] += length * Int(key & 0xFF)
      overflow[4 * bin + 2] += length * Int(key >> 8 & 0xFF)
      overflow[4 * bin + 3] += length * Int(key >> 16 & 0xFF)
      total += length
      return
    }
    counts[slot] += length
    self.interior[slot] += interior
    total += length
  }

  /// The safe twin of `add(_:)` (in GIFPalette+Unsafe.swift): each row
  /// read through the pixmap's subscript and cut into runs of equal pixels,
  /// each counted with the pixels above it that equal it, first excepted.
  /// Slow; for tests.
  mutating func referenceAdd(_ pixmap: Pixmap) {
    func row(_ y: Int) -> [UInt32] {
      (0..<pixmap.width).map { x in
        let p = pixmap[x, y]
        return UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16 | UInt32(p.a) << 24
      }
    }
    var above: [UInt32]? = nil
    for y in 0..<pixmap.height {
      let pixels = row(y)
      var start = 0
      for end in 1...pixels.count where end == pixels.count || pixels[end] != pixels[start] {
        let interior = above.map { above in ((start + 1)..<end).filter { above[$0] == pixels[start] }.count } ?? 0
        count(run: pixels[start], length: end - start, interior: interior)
        start = end
      }
      above = pixels
    }
  }

  /// The straight colour of a premultiplied little-endian pixel, nil when it
  /// is transparent (alpha < 128) in a palette with transparency.
  @inline(__always) static func key(_ v: UInt32, transparent: Bool) -> UInt32? {
    guard transparent else { return v & 0xFF_FFFF }
    let a = v >> 24
    if a < 128 { return nil }
    if a == 255 { return v & 0xFF_FFFF }
    return unpremultiply(v)
  }

  /// round(c · 255 / a) per channel, clamped (PNGCodec's rule).
  @inline(__always) static func unpremultiply(_ v: UInt32) -> UInt32 {
    let a = v >> 24
    @inline(__always) func ch(_ c: UInt32) -> UInt32 { min(255, (c * 255 + a / 2) / a) }
    return ch(v & 0xFF) | ch(v >> 8 & 0xFF) << 8 | ch(v >> 16 & 0xFF) << 16
  }
}

/// Weighted k-means in Oklab with some centres held fixed.
enum KMeans {
  static let iterations = 12

  /// `free` new centres for `points` (median cut, then Lloyd iterations in
  /// which points may also settle on the `fixed` centres).
  static func run(points: [Oklab], weights: [Double], fixed: [Oklab], free: Int) -> [Oklab] {
    guard free > 0, !points.isEmpty else { return [] }
    if points.count <= free { return points }
    var centres = medianCut(points: points, weights: weights, boxes: free)
    let all = fixed.count
    var assignment = [Int](repeating: -1, count: points.count)
    for _ in 0..<iterations {
      // Every centre sorted by lightness: the search for a point's nearest
      // starts at its own lightness and stops once ΔL² alone exceeds the best.
      let everything = fixed + centres
      let order = everything.indices.sorted { everything[$0].l != everything[$1].l ? everything[$0].l < everything[$1].l : $0 < $1 }
      let ls = order.map { everything[$0].l }, aValues = order.map { everything[$0].a }, bs = order.map { everything[$0].b }
      var changed = false
      var sums = [(w: Double, l: Double, a: Double, b: Double)](repeating: (0, 0, 0, 0), count: centres.count)
      let n = ls.count
      for i in points.indices {
        let p = points[i]
        var lo = 0, hi = n
        while lo < hi {
          let mid = (lo + hi) / 2
          if ls[mid] < p.l { lo = mid + 1 } else { hi = mid }
        }
        var best = -1, bestD = Double.infinity
        @inline(__always) func consider(_ k: Int) {
          let dl = ls[k] - p.l, da = aValues[k] - p.a, db = bs[k] - p.b
          let d = dl * dl + da * da + db * db
          if d < bestD || (d == bestD && order[k] < order[best]) { bestD = d; best = k }
        }
        var up = lo, down = lo - 1
        while up < n || down >= 0 {
          if up < n {
            let dl = ls[up] - p.l
            if dl * dl > bestD { up = n } else { consider(up); up += 1 }
          }
          if down >= 0 {
            let dl = p.l - ls[down]
            if dl * dl > bestD { down = -1 } else { consider(down); down -= 1 }
          }
        }
        let owner = order[best]
        if assignment[i] != owner { assignment[i] = owner; changed = true }
        if owner >= all {
          let w = weights[i]
          sums[owner - all].w += w; sums[owner - all].l += w * p.l
          sums[owner - all].a += w * p.a; sums[owner - all].b += w * p.b
        }
      }
      for j in centres.indices where sums[j].w > 0 {
        centres[j] = Oklab(l: sums[j].l / sums[j].w, a: sums[j].a / sums[j].w, b: sums[j].b / sums[j].w)
      }
      if !changed { break }
    }
    return centres
  }

  /// Splits the heaviest box (weighted squared error) at its weighted median
  /// along its widest axis until there are `boxes`; returns their means.
  static func medianCut(points: [Oklab], weights: [Double], boxes count: Int) -> [Oklab] {
    struct Box { var members: [Int]; var mean: Oklab; var error: Double; var axis: Int }
    func coordinate(_ p: Oklab, _ axis: Int) -> Double { axis == 0 ? p.l : axis == 1 ? p.a : p.b }
    func box(_ members: [Int]) -> Box {
      var w = 0.0, s = (0.0, 0.0, 0.0), q = (0.0, 0.0, 0.0)
      for i in members {
        let p = points[i], v = weights[i]
        w += v
        s.0 += v * p.l; s.1 += v * p.a; s.2 += v * p.b
        q.0 += v * p.l * p.l; q.1 += v * p.a * p.a; q.2 += v * p.b * p.b
      }
      let mean = Oklab(l: s.0 / w, a: s.1 / w, b: s.2 / w)
      let variance = [max(0, q.0 - s.0 * mean.l), max(0, q.1 - s.1 * mean.a), max(0, q.2 - s.2 * mean.b)]
      let axis = variance[0] >= variance[1] && variance[0] >= variance[2] ? 0 : (variance[1] >= variance[2] ? 1 : 2)
      return Box(members: members, mean: mean, error: members.count > 1 ? variance.reduce(0, +) : 0, axis: axis)
    }
    var boxes = [box(Array(points.indices))]
    while boxes.count < count {
      var pick = -1, worst = 0.0
      for (i, b) in boxes.enumerated() where b.error > worst { worst = b.error; pick = i }
      if pick < 0 { break }
      let b = boxes[pick]
      let sorted = b.members.sorted {
        let u = coordinate(points[$0], b.axis), v = coordinate(points[$1], b.axis)
        return u != v ? u < v : $0 < $1
      }
      let half = sorted.reduce(0.0) { $0 + weights[$1] } / 2
      var acc = 0.0, cut = 1
      for (k, i) in sorted.enumerated() {
        acc += weights[i]
        if acc >= half { cut = k + 1; break }
      }
      cut = min(max(cut, 1), sorted.count - 1)
      boxes[pick] = box(Array(sorted[..<cut]))
      boxes.append(box(Array(sorted[cut...])))
    }
    return boxes.map(\.mean)
  }
}
