import Primitives

/// Source-over compositing in premultiplied 8-bit sRGB:
/// `dst = src·c + dst·(1 − src.a·c)` for coverage c.
enum Compositor {
  /// a + b, saturating at 255: the two rounded terms of source-over may
  /// exceed 255 by one.
  @inline(__always) static func add(_ a: UInt8, _ b: UInt8) -> UInt8 {
    let s = UInt16(a) &+ UInt16(b)
    return s > 255 ? 255 : UInt8(truncatingIfNeeded: s)
  }

  /// A paint ready for blending rows: 8-bit source colour, or a shader
  /// and its row buffer.
  final class Source {
    let solid: RGBA8?
    let shader: (any Shader)?
    /// The shader's pixels are all opaque: under full coverage they replace
    /// the target's (the over-blend of an opaque source at weight 255 gives
    /// its bytes exactly), so they are shaded straight into it.
    let opaqueShader: Bool
    /// Scratch rows for shaders (raw memory, freed in deinit).
    private(set) var floats = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    private(set) var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var capacity = 0
    deinit { floats.deallocate(); bytes.deallocate() }
    func reserve(_ pixels: Int) {
      guard capacity < pixels else { return }
      floats.deallocate(); bytes.deallocate()
      floats = .allocate(capacity: 4 * pixels); bytes = .allocate(capacity: 4 * pixels)
      capacity = pixels
    }
    init(_ paint: Paint) {
      switch paint {
      case .solid(let c): solid = RGBA8(c); shader = nil; opaqueShader = false
      case .shader(let s): solid = nil; shader = s; opaqueShader = s.isOpaque
      }
    }
    var isInvisible: Bool { solid?.a == 0 }
  }

  /// Blends one row of coverage (device row `y`, columns `x0..<x0 + count`)
  /// into `pixmap`, whose top-left pixel is at device `origin`, under the
  /// optional clip (which it multiplies into `coverage`).
  static func blendRow(
    _ coverage: UnsafeMutablePointer<UInt8>, x0: Int, y: Int, count: Int, constant: UInt8? = nil, source: Source,
    clip: CoverageMask?, into target: Target
  ) {
    // The part of the row inside the target.
    let origin = target.origin
    let py = y - origin.y
    guard py >= 0, py < target.height else { return }
    var start = max(x0, origin.x), end = min(x0 + count, origin.x + target.width)
    guard start < end else { return }
    if let constant {
      if clip == nil, let solid = source.solid {
        // One coverage for the whole run: no per-pixel coverage to read.
        let d = target.pixels + 4 * (py * target.width + (start - origin.x))
        fillSolidRun(solid, coverage: constant, into: d, count: end - start)
        return
      }
      if clip == nil, constant == 255, source.opaqueShader, let shader = source.shader {
        let d = target.pixels + 4 * (py * target.width + (start - origin.x))
        source.reserve(end - start)
        shader.shade8(x: start, y: y, count: end - start, into: d, scratch: source.floats)
        return
      }
      (coverage + (start - x0)).update(repeating: constant, count: end - start)
    }
    if let clip {
      guard y >= clip.bounds.y0, y < clip.bounds.y1 else { return }
      start = max(start, clip.bounds.x0); end = min(end, clip.bounds.x1)
      guard start < end else { return }
      clip.coverage.withUnsafeBufferPointer { c in
        let clipRow = c.baseAddress! + (y - clip.bounds.y0) * clip.bounds.width - clip.bounds.x0
        // mul255 sixteen pixels at a time in 16-bit lanes (a·b + 128 and its
        // rounding stay below 2¹⁶), then the rest one by one.
        var x = start
        while x + 16 <= end {
          let a = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(coverage + (x - x0)).loadUnaligned(as: SIMD16<UInt8>.self))
          let b = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(clipRow + x).loadUnaligned(as: SIMD16<UInt8>.self))
          let t = a &* b &+ 128
          UnsafeMutableRawPointer(coverage + (x - x0)).storeBytes(
            of: SIMD16<UInt8>(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8), as: SIMD16<UInt8>.self)
          x += 16
        }
        while x < end {
          coverage[x - x0] = mul255(coverage[x - x0], clipRow[x])
          x += 1
        }
      }
    }
    // Trim uncovered ends.
    while start < end && coverage[start - x0] == 0 { start += 1 }
    while end > start && coverage[end - 1 - x0] == 0 { end -= 1 }
    guard start < end else { return }
    let d = target.pixels + 4 * (py * target.width + (start - origin.x))
    if let solid = source.solid {
      blendSolidRow(solid, coverage: coverage + (start - x0), into: d, count: end - start)
    } else if let shader = source.shader {
      let n = end - start
      source.reserve(n)
      shader.shade8(x: start, y: y, count: n, into: source.bytes, scratch: source.floats)
      blendPremultipliedRow(source.bytes, weights: coverage + (start - x0), into: d, count: n)
    }
  }

  /// Where blending writes: a pixmap's bytes and its place in device space.
  struct Target {
    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let origin: (x: Int, y: Int)
  }

  /// Runs `body` with `pixmap` as a blending target.
  static func withTarget<R>(_ pixmap: inout Pixmap, origin: (x: Int, y: Int), _ body: (Target) -> R) -> R {
    let (w, h) = (pixmap.width, pixmap.height)
    return pixmap.bytes.withUnsafeMutableBufferPointer { bytes in
      body(Target(pixels: bytes.baseAddress!, width: w, height: h, origin: origin))
    }
  }

  /// Blends `paint` under coverage `mask` (device pixels) into `pixmap`,
  /// whose top-left pixel is at device `origin`.
  static func blend(
    _ mask: CoverageMask, paint: Paint, clip: CoverageMask? = nil, into pixmap: inout Pixmap, origin: (x: Int, y: Int)
  ) {
    let source = Source(paint)
    guard !source.isInvisible, !mask.bounds.isEmpty else { return }
    var row = [UInt8](repeating: 0, count: mask.bounds.width)
    withTarget(&pixmap, origin: origin) { target in
      row.withUnsafeMutableBufferPointer { row in
        mask.coverage.withUnsafeBufferPointer { coverage in
          for y in mask.bounds.y0..<mask.bounds.y1 {
            row.baseAddress!.update(from: coverage.baseAddress! + (y - mask.bounds.y0) * mask.bounds.width, count: mask.bounds.width)
            blendRow(row.baseAddress!, x0: mask.bounds.x0, y: y, count: mask.bounds.width, source: source, clip: clip, into: target)
          }
        }
      }
    }
  }

  /// A run of pixels under one coverage value: opaque at full coverage is
  /// a fill with whole-pixel stores; otherwise one premultiplied source.
  @inline(__always)
  static func fillSolidRun(_ src: RGBA8, coverage c: UInt8, into d: UnsafeMutablePointer<UInt8>, count: Int) {
    if c == 255 && src.a == 255 {
      let pattern = UInt32(src.r) | UInt32(src.g) << 8 | UInt32(src.b) << 16 | UInt32(src.a) << 24
      UnsafeMutableRawPointer(d).initializeMemory(as: UInt32.self, repeating: pattern.littleEndian, count: count)
      return
    }
    let (r, g, b, a) = (mul255(src.r, c), mul255(src.g, c), mul255(src.b, c), mul255(src.a, c))
    let keep = 255 &- a
    for i in 0..<count {
      let p = d + 4 * i
      p[0] = add(r, mul255(p[0], keep)); p[1] = add(g, mul255(p[1], keep))
      p[2] = add(b, mul255(p[2], keep)); p[3] = add(a, mul255(p[3], keep))
    }
  }

  @inline(__always)
  static func blendSolidRow(_ src: RGBA8, coverage m: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>, count: Int) {
    let opaque = src.a == 255
    let pattern = UInt32(src.r) | UInt32(src.g) << 8 | UInt32(src.b) << 16 | UInt32(src.a) << 24
    let raw = UnsafeMutableRawPointer(d)
    var i = 0
    while i < count {
      let c = m[i]
      if c == 0 { i += 1; continue }
      if c == 255 && opaque {
        // A run of full coverage (found eight bytes at a time): one fill.
        var end = i + 1
        while end + 8 <= count && UnsafeRawPointer(m + end).loadUnaligned(as: UInt64.self) == UInt64.max { end += 8 }
        while end < count && m[end] == 255 { end += 1 }
        (raw + 4 * i).initializeMemory(as: UInt32.self, repeating: pattern.littleEndian, count: end - i)
        i = end
        continue
      }
      let p = d + 4 * i
      i += 1
      let sa = mul255(src.a, c)
      let keep = 255 &- sa
      p[0] = add(mul255(src.r, c), mul255(p[0], keep))
      p[1] = add(mul255(src.g, c), mul255(p[1], keep))
      p[2] = add(mul255(src.b, c), mul255(p[2], keep))
      p[3] = add(sa, mul255(p[3], keep))
    }
  }

  /// Composites a finished layer (premultiplied pixels at device `origin`)
  /// with `opacity`, under an optional clip, into the parent target.
  static func blendLayer(
    _ layer: Pixmap, origin: (x: Int, y: Int), opacity: Double, clip: CoverageMask?,
    into pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int)
  ) {
    var area = PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + layer.width, y1: origin.y + layer.height)
      .intersection(PixelRect(x0: targetOrigin.x, y0: targetOrigin.y, x1: targetOrigin.x + pixmap.width, y1: targetOrigin.y + pixmap.height))
    if let clip { area = area.intersection(clip.bounds) }
    guard !area.isEmpty, opacity > 0 else { return }
    let alpha = UInt8((min(opacity, 1) * 255).rounded())
    let width = pixmap.width
    if clip == nil {
      // One weight for every pixel: whole rows at a time.
      pixmap.bytes.withUnsafeMutableBytes { dst in
        layer.bytes.withUnsafeBytes { src in
          for y in area.y0..<area.y1 {
            let s = src.baseAddress! + 4 * ((y - origin.y) * layer.width + (area.x0 - origin.x))
            let d = dst.baseAddress! + 4 * ((y - targetOrigin.y) * width + (area.x0 - targetOrigin.x))
            blendOverRow(s, into: d, count: area.width, weight: alpha)
          }
        }
      }
      return
    }
    var clipRow = [UInt8](repeating: alpha, count: area.width)
    pixmap.bytes.withUnsafeMutableBufferPointer { dst in
      layer.bytes.withUnsafeBufferPointer { src in
        for y in area.y0..<area.y1 {
          // The weight of each pixel: opacity × clip coverage.
          if let clip {
            clip.coverage.withUnsafeBufferPointer { c in
              let row = c.baseAddress! + (y - clip.bounds.y0) * clip.bounds.width + (area.x0 - clip.bounds.x0)
              for i in 0..<area.width { clipRow[i] = mul255(alpha, row[i]) }
            }
          }
          let s = src.baseAddress! + 4 * ((y - origin.y) * layer.width + (area.x0 - origin.x))
          let d = dst.baseAddress! + 4 * ((y - targetOrigin.y) * width + (area.x0 - targetOrigin.x))
          clipRow.withUnsafeBufferPointer { weights in
            blendPremultipliedRow(s, weights: weights.baseAddress!, into: d, count: area.width)
          }
        }
      }
    }
  }

  /// Composites an image moved right and down by `shift` sixteenths of a
  /// pixel (0…15 each) past `origin`: each output pixel is the bilinear
  /// blend of the four image pixels it overlaps (transparent outside the
  /// image), in integers (weights summing to 256, rounded once), so colour
  /// ≤ alpha is kept; then over the target. Four pixels at a time in 16-bit
  /// lanes.
  static func blendShiftedImage(
    _ image: Pixmap, origin: (x: Int, y: Int), shift: (x: Int, y: Int), into pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int)
  ) {
    precondition((0...15).contains(shift.x) && (0...15).contains(shift.y))
    let w = image.width, h = image.height
    let area = PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + w + 1, y1: origin.y + h + 1)
      .intersection(PixelRect(x0: targetOrigin.x, y0: targetOrigin.y, x1: targetOrigin.x + pixmap.width, y1: targetOrigin.y + pixmap.height))
    guard !area.isEmpty, w > 0, h > 0 else { return }
    let fx = UInt16(shift.x), fy = UInt16(shift.y)
    let width = pixmap.width
    // The image columns the area reads: c0 − 1 … c1 − 1 (those outside the
    // image are zero), as 16-bit channels, vertically blended, one pixel of
    // zeros first; rounded up to whole groups of four.
    let c0 = area.x0 - origin.x, c1 = area.x1 - origin.x
    let count = c1 - c0 + 1
    let groups = (count + 3) / 4
    var column = [UInt16](repeating: 0, count: 16 * (groups + 1))
    var out = [UInt8](repeating: 0, count: 16 * (groups + 1))
    pixmap.bytes.withUnsafeMutableBytes { dst in
      image.bytes.withUnsafeBytes { src in
        column.withUnsafeMutableBytes { v in
          out.withUnsafeMutableBytes { o in
            let s = src.baseAddress!, vp = v.baseAddress!
            let wx = SIMD16<UInt16>(repeating: fx), wx1 = SIMD16<UInt16>(repeating: 16 &- fx)
            let wy = SIMD16<UInt16>(repeating: fy), wy1 = SIMD16<UInt16>(repeating: 16 &- fy)
            let half = SIMD16<UInt16>(repeating: 128)
            // The entries inside the image: column c0 − 1 + k in 0..<w.
            let kStart = max(0, 1 - c0), kEnd = min(count, w + 1 - c0)
            for y in area.y0..<area.y1 {
              let j = y - origin.y
              // Vertical: v[k] for image column c0 − 1 + k, k in 0..<count
              // (outside the image the entries stay zero).
              let below = j < h ? s + 4 * (j * w + c0 - 1) : nil, above = j > 0 ? s + 4 * ((j - 1) * w + c0 - 1) : nil
              var k = kStart
              while k + 4 <= kEnd {
                var sum = SIMD16<UInt16>.zero
                if let below { sum = SIMD16<UInt16>(truncatingIfNeeded: below.loadUnaligned(fromByteOffset: 4 * k, as: SIMD16<UInt8>.self)) &* wy1 }
                if let above { sum &+= SIMD16<UInt16>(truncatingIfNeeded: above.loadUnaligned(fromByteOffset: 4 * k, as: SIMD16<UInt8>.self)) &* wy }
                vp.storeBytes(of: sum, toByteOffset: 8 * k, as: SIMD16<UInt16>.self)
                k += 4
              }
              while k < kEnd {
                var sum = SIMD4<UInt16>.zero
                if let below {
                  sum = SIMD4<UInt16>(truncatingIfNeeded: below.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<UInt8>.self)) &* (16 &- fy)
                }
                if let above { sum &+= SIMD4<UInt16>(truncatingIfNeeded: above.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<UInt8>.self)) &* fy }
                vp.storeBytes(of: sum, toByteOffset: 8 * k, as: SIMD4<UInt16>.self)
                k += 1
              }
              // Horizontal, four output pixels at a time: out[x] = (16 − fx)·v[x + 1] + fx·v[x].
              for g in 0..<groups {
                let left = vp.loadUnaligned(fromByteOffset: 32 * g, as: SIMD16<UInt16>.self)
                let right = vp.loadUnaligned(fromByteOffset: 32 * g + 8, as: SIMD16<UInt16>.self)
                let sum = (wx1 &* right &+ wx &* left &+ half) &>> 8
                o.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: sum), toByteOffset: 16 * g, as: SIMD16<UInt8>.self)
              }
              let d = dst.baseAddress! + 4 * ((y - targetOrigin.y) * width + (area.x0 - targetOrigin.x))
              blendOverRow(UnsafeRawPointer(o.baseAddress!), into: d, count: area.width)
            }
          }
        }
      }
    }
  }

  /// `dst = src·k + dst·(1 − src.a·k)` for one weight k, with `mul255`'s
  /// rounding: the bytes of `blendPremultipliedRow` with every weight k, for
  /// pixels whose colour ≤ alpha (so no channel can exceed 255 and carry into
  /// the next). Eight pixels at a time in the lanes of a vector, the last few
  /// through a zero-padded vector; no branches (alpha 0 gives keep 255 and
  /// mul255(c, 255) = c; alpha 255 gives keep 0, the source itself).
  @inline(__always)
  static func blendOverRow(_ s: UnsafeRawPointer, into d: UnsafeMutableRawPointer, count: Int, weight: UInt8 = 255) {
    let k = SIMD8<UInt32>(repeating: UInt32(weight)), full = SIMD8<UInt32>(repeating: 255)
    @inline(__always) func over(_ sp: SIMD8<UInt32>, _ dp: SIMD8<UInt32>) -> SIMD8<UInt32> {
      let source = weight == 255 ? sp : scale(sp, by: k)
      return source &+ scale(dp, by: full &- (source &>> 24))
    }
    var i = 0
    while i + 8 <= count {
      let sp = s.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      let dp = d.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      d.storeBytes(of: over(sp, dp), toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      i += 8
    }
    guard i < count else { return }
    var sp = SIMD8<UInt32>.zero, dp = SIMD8<UInt32>.zero
    for j in 0..<(count - i) {
      sp[j] = s.loadUnaligned(fromByteOffset: 4 * (i + j), as: UInt32.self)
      dp[j] = d.loadUnaligned(fromByteOffset: 4 * (i + j), as: UInt32.self)
    }
    let result = over(sp, dp)
    for j in 0..<(count - i) { d.storeBytes(of: result[j], toByteOffset: 4 * (i + j), as: UInt32.self) }
  }

  /// `mul255` of each byte of each lane (packed little-endian RGBA) by the
  /// lane's k (0…255): red and blue, then green and alpha, in one 32-bit
  /// word each (t = c·k + 128; (t + (t >> 8)) >> 8, within 16 bits per byte).
  @inline(__always)
  static func scale(_ x: SIMD8<UInt32>, by k: SIMD8<UInt32>) -> SIMD8<UInt32> {
    let low = SIMD8<UInt32>(repeating: 0x00FF_00FF), round = SIMD8<UInt32>(repeating: 0x0080_0080)
    var rb = (x & low) &* k &+ round
    rb = ((rb &+ ((rb &>> 8) & low)) &>> 8) & low
    var ga = ((x &>> 8) & low) &* k &+ round
    ga = (ga &+ ((ga &>> 8) & low)) & SIMD8<UInt32>(repeating: 0xFF00_FF00)
    return rb | ga
  }

  /// `dst = src·k + dst·(1 − src.a·k)` for premultiplied 8-bit pixels, with
  /// per-pixel weights k; transparent sources are skipped and opaque ones
  /// at full weight copied.
  @inline(__always)
  static func blendPremultipliedRow(
    _ s: UnsafePointer<UInt8>, weights: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    let source = UnsafeRawPointer(s), target = UnsafeMutableRawPointer(d)
    for i in 0..<count {
      let k = weights[i]
      let sp = s + 4 * i
      let sa = sp[3]
      if sa == 0 || k == 0 { continue }
      if sa == 255 && k == 255 {
        target.storeBytes(of: source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self), toByteOffset: 4 * i, as: UInt32.self)
        continue
      }
      let p = d + 4 * i
      let a = mul255(sa, k)
      let keep = 255 &- a
      p[0] = add(mul255(sp[0], k), mul255(p[0], keep))
      p[1] = add(mul255(sp[1], k), mul255(p[1], keep))
      p[2] = add(mul255(sp[2], k), mul255(p[2], keep))
      p[3] = add(a, mul255(p[3], keep))
    }
  }
}
