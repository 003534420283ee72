import Primitives

// The compositor's row loops, on raw memory.
//
// Safe twins, in Compositor.swift: `Compositor.over(_:weight:onto:)` (the
// rule, per pixel), `referenceBlendOver` (uniform and per-pixel weights),
// `referenceBlendSolid`, `referenceMultiply`, `referenceApplyMask` and
// `referenceBlendShiftedImage`. CompositorTests compares each loop here with
// its twin byte for byte on random rows, at every length from 0 to past two
// vectors (so every tail is met).
//
// Eight pixels ride in the lanes of a vector at a time, written for the
// vectors every x86-64 (SSE2) and arm64 (NEON) machine has: multiplies in
// 16-bit lanes only (SSE2 has no 32-bit lane multiply; LLVM emulates one
// with shuffles) and no narrowing conversion (SSE2 lowers a 16 → 8-bit
// truncation to a long shuffle sequence). Two channels ride in each 32-bit
// pixel word, one per 16-bit lane: red and blue as `word & 0x00FF00FF`,
// green and alpha as `(word >> 8) & 0x00FF00FF`; a product of a channel and
// a weight (255 · 255 + 128 < 2¹⁶) never carries into the next lane.

extension Compositor {
  /// A paint ready for blending rows: its 8-bit colour, or its shader and
  /// scratch rows for it.
  ///
  /// Read for every run of a fill: its scratch rows go without dynamic
  /// exclusivity checks (`@exclusivity(unchecked)`; they cost 4% of
  /// `render --null` on Benchmarks/Scenes/moving-40-1080p.json, once per
  /// row), which is sound because a source belongs to one fill on one
  /// thread and its rows are only passed to the shader it holds. The shader
  /// is called through a class holding its concrete type (`Shading`), not
  /// copied out of an existential's box per run (3% of that command).
  final class RowSource {
    let solid: RGBA8?
    /// The shader's pixels are all opaque: under full coverage they replace
    /// the target's (the over-blend of an opaque source at weight 255 gives
    /// its bytes exactly), so they are shaded straight into it.
    let opaqueShader: Bool
    /// Scratch rows for the shader: floats and bytes, 4 per pixel (freed in deinit).
    @exclusivity(unchecked) private(set) var shadedFloats = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    @exclusivity(unchecked) private(set) var shadedBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    @exclusivity(unchecked) private var capacity = 0

    /// The shader, if the paint has one.
    private let shading: Shading?

    init(_ paint: Paint) {
      if let shader = paint.rowShader {
        solid = nil; opaqueShader = shader.isOpaque
        shading = Self.shading(shader)
      } else {
        solid = paint.solidColor.map(RGBA8.init); opaqueShader = false
        shading = nil
      }
    }

    /// A shader's `shade8`, called on its concrete type through a class.
    private class Shading {
      func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
        preconditionFailure("abstract")
      }
    }
    private final class TypedShading<S: RowShader>: Shading {
      let shader: S
      init(_ shader: S) { self.shader = shader }
      override func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
        shader.shade8(x: x, y: y, count: count, into: output, scratch: scratch)
      }
    }
    private static func shading<S: RowShader>(_ shader: S) -> Shading { TypedShading(shader) }
    deinit { shadedFloats.deallocate(); shadedBytes.deallocate() }

    var isInvisible: Bool { solid?.a == 0 }

    /// Room for `pixels` pixels in the scratch rows.
    func reserve(_ pixels: Int) {
      guard capacity < pixels else { return }
      shadedFloats.deallocate(); shadedBytes.deallocate()
      shadedFloats = .allocate(capacity: 4 * pixels); shadedBytes = .allocate(capacity: 4 * pixels)
      capacity = pixels
    }

    /// Shades `count` pixels of device row `y` from column `x` into `out`
    /// (or into `shadedBytes` when `out` is nil); false without a shader.
    @inline(__always)
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt8>? = nil) -> Bool {
      guard let shading else { return false }
      reserve(count)
      shading.shade8(x: x, y: y, count: count, into: out ?? shadedBytes, scratch: shadedFloats)
      return true
    }
  }

  /// Where blending writes: a pixmap's bytes and its place in device space.
  struct BlendTarget {
    let pixelBytes: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let origin: (x: Int, y: Int)

    /// The first byte of device pixel (x, y), which must be inside.
    @inline(__always)
    func address(x: Int, y: Int) -> UnsafeMutablePointer<UInt8> {
      pixelBytes + 4 * ((y - origin.y) * width + (x - origin.x))
    }
  }

  /// Runs `body` with `pixmap` as a blending target.
  static func withTarget<R>(_ pixmap: inout Pixmap, origin: (x: Int, y: Int), _ body: (BlendTarget) -> R) -> R {
    let (w, h) = (pixmap.width, pixmap.height)
    return pixmap.bytes.withUnsafeMutableBufferPointer { bytes in
      body(BlendTarget(pixelBytes: bytes.baseAddress!, width: w, height: h, origin: origin))
    }
  }

  /// A clip's coverage as raw memory, valid inside `withClipRows`: read
  /// for every run of a fill, where copying the mask (and counting
  /// references to its array) would cost more than the run.
  struct ClipRows {
    let bounds: PixelRect
    /// Coverage of device pixel (x, y) at `coverage + (y − bounds.y0)·width + x − bounds.x0`.
    let coverage: UnsafePointer<UInt8>

    /// The coverage of device row `y`, indexed by device column.
    @inline(__always)
    func row(_ y: Int) -> UnsafePointer<UInt8> { coverage + (y - bounds.y0) * bounds.width - bounds.x0 }
  }

  /// Runs `body` with `clip` (if any) as raw rows.
  static func withClipRows<R>(_ clip: CoverageMask?, _ body: (ClipRows?) -> R) -> R {
    guard let clip else { return body(nil) }
    return clip.coverage.withUnsafeBufferPointer { coverage in
      // An empty mask has no base address; its rows are never read (no row is inside its bounds).
      body(ClipRows(bounds: clip.bounds, coverage: coverage.baseAddress ?? UnsafePointer(bitPattern: 1)!))
    }
  }

  /// Blends one row of coverage (device row `y`, columns `x0..<x0 + count`)
  /// into the target under the optional clip (multiplied into `coverage`,
  /// which is scratch). `constant`: one coverage for the whole run, and
  /// `coverage` not read.
  static func blendRow(
    _ coverage: UnsafeMutablePointer<UInt8>, x0: Int, y: Int, count: Int, constant: UInt8? = nil, source: RowSource, clip: ClipRows?,
    into target: BlendTarget
  ) {
    // The part of the row inside the target.
    let origin = target.origin
    guard y >= origin.y, y < origin.y + target.height else { return }
    var start = max(x0, origin.x), end = min(x0 + count, origin.x + target.width)
    guard start < end else { return }
    if let constant {
      if clip == nil, let solid = source.solid {
        fillSolid(solid, coverage: constant, into: target.address(x: start, y: y), count: end - start)
        return
      }
      if clip == nil, constant == 255, source.opaqueShader {
        _ = source.shade(x: start, y: y, count: end - start, into: target.address(x: start, y: y))
        return
      }
      (coverage + (start - x0)).update(repeating: constant, count: end - start)
    }
    if let clip {
      guard y >= clip.bounds.y0, y < clip.bounds.y1 else { return }
      start = max(start, clip.bounds.x0); end = min(end, clip.bounds.x1)
      guard start < end else { return }
      multiplyCoverage(coverage + (start - x0), by: clip.row(y) + start, count: end - start)
    }
    if let solid = source.solid {
      // Uncovered pixels are left as they are (weight 0 is the identity),
      // and runs keep their whole groups of eight.
      blendSolid(solid, coverage: coverage + (start - x0), into: target.address(x: start, y: y), count: end - start)
      return
    }
    // Trim uncovered ends: they need no shading.
    while start < end && coverage[start - x0] == 0 { start += 1 }
    while end > start && coverage[end - 1 - x0] == 0 { end -= 1 }
    guard start < end else { return }
    let targetPixels = target.address(x: start, y: y)
    let n = end - start
    if source.shade(x: start, y: y, count: n) {
      blendOver(UnsafeRawPointer(source.shadedBytes), weights: coverage + (start - x0), into: targetPixels, count: n)
    }
  }

  /// `blendRow` on an array of coverage (device row `y` from column `x0`),
  /// into a pixmap whose top-left pixel is at device `origin`.
  static func blendRow(
    _ coverage: inout [UInt8], x0: Int, y: Int, source: RowSource, clip: CoverageMask?, into pixmap: inout Pixmap, origin: (x: Int, y: Int)
  ) {
    let count = coverage.count
    withTarget(&pixmap, origin: origin) { target in
      withClipRows(clip) { clip in
        coverage.withUnsafeMutableBufferPointer { row in
          blendRow(row.baseAddress!, x0: x0, y: y, count: count, source: source, clip: clip, into: target)
        }
      }
    }
  }

  /// The rows of `blendLayer`: `area` (inside the layer, the target and the
  /// clip) under `weight` times the clip's coverage.
  static func blendLayerRows(
    _ layer: Pixmap, origin: (x: Int, y: Int), area: PixelRect, weight: UInt8, clip: CoverageMask?, into pixmap: inout Pixmap,
    targetOrigin: (x: Int, y: Int), hidden: PixelRect?
  ) {
    let width = pixmap.width
    var weights = [UInt8](repeating: weight, count: area.width)
    let uniform = [UInt8](repeating: weight, count: area.width)
    pixmap.bytes.withUnsafeMutableBytes { targetBytes in
      layer.bytes.withUnsafeBytes { layerBytes in
        for y in area.y0..<area.y1 {
          let layerRow = layerBytes.baseAddress! + 4 * ((y - origin.y) * layer.width + (area.x0 - origin.x))
          let targetRow = targetBytes.baseAddress! + 4 * ((y - targetOrigin.y) * width + (area.x0 - targetOrigin.x))
          guard let clip else {
            let (left, right) = visibleSpans(area.x0, area.x1, y: y, hidden: hidden)
            if !left.isEmpty {
              let offset = 4 * (left.lowerBound - area.x0)
              blendOver(layerRow + offset, into: targetRow + offset, count: left.count, weight: weight)
            }
            if !right.isEmpty {
              let offset = 4 * (right.lowerBound - area.x0)
              blendOver(layerRow + offset, into: targetRow + offset, count: right.count, weight: weight)
            }
            continue
          }
          // The weight of each pixel: opacity × clip coverage.
          weights.withUnsafeMutableBufferPointer { weightRow in
            clip.coverage.withUnsafeBufferPointer { clipCoverage in
              let clipRow = clipCoverage.baseAddress! + (y - clip.bounds.y0) * clip.bounds.width + (area.x0 - clip.bounds.x0)
              weightRow.baseAddress!.update(from: clipRow, count: area.width)
            }
            if weight != 255 {
              uniform.withUnsafeBufferPointer { uniformRow in multiplyCoverage(weightRow.baseAddress!, by: uniformRow.baseAddress!, count: area.width)
              }
            }
            blendOver(layerRow, weights: weightRow.baseAddress!, into: targetRow, count: area.width)
          }
        }
      }
    }
  }

  /// Composites an image moved right and down by `shift` sixteenths of a
  /// pixel (0…15 each) past `origin`: each output pixel is the bilinear
  /// blend of the four image pixels it overlaps (transparent outside the
  /// image), in integers (weights summing to 256, rounded once), so colour
  /// ≤ alpha is kept; then over the target. Safe twin:
  /// `referenceBlendShiftedImage`.
  static func blendShiftedImage(
    _ image: Pixmap, origin: (x: Int, y: Int), shift: (x: Int, y: Int), into pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int),
    hidden: PixelRect? = nil
  ) {
    precondition((0...15).contains(shift.x) && (0...15).contains(shift.y))
    let w = image.width, h = image.height
    let area = PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + w + 1, y1: origin.y + h + 1)
      .intersection(PixelRect(x0: targetOrigin.x, y0: targetOrigin.y, x1: targetOrigin.x + pixmap.width, y1: targetOrigin.y + pixmap.height))
    guard !area.isEmpty, w > 0, h > 0 else { return }
    let width = pixmap.width
    // Entry k of a blended row is image column c0 − 1 + k, k in 0..<count
    // (entries outside the image stay zero): red and blue words, green and
    // alpha words, then the output row; each padded to whole vectors.
    let c0 = area.x0 - origin.x, c1 = area.x1 - origin.x
    let count = c1 - c0 + 1
    let padded = count + 8
    var redBlue = [UInt32](repeating: 0, count: padded), greenAlpha = [UInt32](repeating: 0, count: padded)
    var shifted = [UInt32](repeating: 0, count: padded)
    let kStart = max(0, 1 - c0), kEnd = min(count, w + 1 - c0)
    let wx = UInt16(shift.x), wx1 = 16 &- UInt16(shift.x), wy = UInt16(shift.y), wy1 = 16 &- UInt16(shift.y)
    pixmap.bytes.withUnsafeMutableBytes { targetBytes in
      image.bytes.withUnsafeBytes { imageBytes in
        redBlue.withUnsafeMutableBufferPointer { redBlue in
          greenAlpha.withUnsafeMutableBufferPointer { greenAlpha in
            shifted.withUnsafeMutableBufferPointer { shifted in
              let imagePixels = imageBytes.baseAddress!
              for y in area.y0..<area.y1 {
                let (left, right) = visibleSpans(area.x0, area.x1, y: y, hidden: hidden)
                guard !left.isEmpty || !right.isEmpty else { continue }
                let j = y - origin.y
                let below = j < h ? imagePixels + 4 * (j * w + c0 - 1) : nil
                let above = j > 0 ? imagePixels + 4 * ((j - 1) * w + c0 - 1) : nil
                let targetRow = targetBytes.baseAddress! + 4 * ((y - targetOrigin.y) * width + (area.x0 - targetOrigin.x))
                let shiftedPixels = UnsafeRawPointer(shifted.baseAddress!)
                // Output pixel x (from area.x0) reads entries x and x + 1.
                func blend(_ span: Range<Int>) {
                  guard !span.isEmpty else { return }
                  let x = span.lowerBound - area.x0
                  verticalBlend(
                    below: below, above: above, weights: (wy1, wy), range: max(kStart, x)..<min(kEnd, x + span.count + 1),
                    redBlue: redBlue.baseAddress!, greenAlpha: greenAlpha.baseAddress!)
                  horizontalBlend(
                    redBlue: redBlue.baseAddress!, greenAlpha: greenAlpha.baseAddress!, weights: (wx1, wx), range: x..<(x + span.count),
                    into: shifted.baseAddress!)
                  blendOver(shiftedPixels + 4 * x, into: targetRow + 4 * x, count: span.count, weight: 255)
                }
                blend(left)
                blend(right)

              }
            }
          }
        }
      }
    }
  }

  /// Entries `range` of a row's vertical blend: `lower`·(pixel of the row
  /// below) + `upper`·(pixel of the row above) per channel (a missing row is
  /// zero), the two weights summing to 16; red and blue into `redBlue`,
  /// green and alpha into `greenAlpha`, a channel per 16-bit lane (at most
  /// 255 · 16).
  @inline(__always)
  static func verticalBlend(
    below: UnsafeRawPointer?, above: UnsafeRawPointer?, weights: (lower: UInt16, upper: UInt16), range: Range<Int>,
    redBlue: UnsafeMutablePointer<UInt32>, greenAlpha: UnsafeMutablePointer<UInt32>
  ) {
    let lowMask = SIMD8<UInt32>(repeating: 0x00FF_00FF)
    let lower = SIMD16<UInt16>(repeating: weights.lower), upper = SIMD16<UInt16>(repeating: weights.upper)
    let redBlueWords = UnsafeMutableRawPointer(redBlue), greenAlphaWords = UnsafeMutableRawPointer(greenAlpha)
    var k = range.lowerBound
    while k + 8 <= range.upperBound {
      var rb = SIMD16<UInt16>.zero, ga = SIMD16<UInt16>.zero
      if let below {
        let p = below.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<UInt32>.self)
        rb = lanes(p & lowMask) &* lower
        ga = lanes((p &>> 8) & lowMask) &* lower
      }
      if let above {
        let p = above.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<UInt32>.self)
        rb &+= lanes(p & lowMask) &* upper
        ga &+= lanes((p &>> 8) & lowMask) &* upper
      }
      redBlueWords.storeBytes(of: rb, toByteOffset: 4 * k, as: SIMD16<UInt16>.self)
      greenAlphaWords.storeBytes(of: ga, toByteOffset: 4 * k, as: SIMD16<UInt16>.self)
      k += 8
    }
    // The rest one word at a time: a channel times at most 16 stays in its
    // 16-bit half of the word.
    let (l, u) = (UInt32(weights.lower), UInt32(weights.upper))
    while k < range.upperBound {
      var rb: UInt32 = 0, ga: UInt32 = 0
      if let below {
        let p = below.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)
        rb = (p & 0x00FF_00FF) &* l; ga = ((p &>> 8) & 0x00FF_00FF) &* l
      }
      if let above {
        let p = above.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)
        rb &+= (p & 0x00FF_00FF) &* u; ga &+= ((p &>> 8) & 0x00FF_00FF) &* u
      }
      redBlue[k] = rb; greenAlpha[k] = ga
      k += 1
    }
  }

  /// Output pixels `range` of a row's horizontal blend: pixel x is
  /// `(right·v[x + 1] + left·v[x] + 128) >> 8` per channel of the vertical
  /// blend v (at most 255 · 256 + 128 < 2¹⁶), packed back into RGBA8 words.
  /// Reads `v` up to entry `range.upperBound + 8`, writes up to 7 pixels
  /// past the range.
  @inline(__always)
  static func horizontalBlend(
    redBlue: UnsafeMutablePointer<UInt32>, greenAlpha: UnsafeMutablePointer<UInt32>, weights: (right: UInt16, left: UInt16), range: Range<Int>,
    into output: UnsafeMutablePointer<UInt32>
  ) {
    let right = SIMD16<UInt16>(repeating: weights.right), left = SIMD16<UInt16>(repeating: weights.left)
    let half = SIMD16<UInt16>(repeating: 128)
    let redBlueWords = UnsafeRawPointer(redBlue), greenAlphaWords = UnsafeRawPointer(greenAlpha)
    let outputWords = UnsafeMutableRawPointer(output)
    var x = range.lowerBound
    while x < range.upperBound {
      let rb =
        (redBlueWords.loadUnaligned(fromByteOffset: 4 * x + 4, as: SIMD16<UInt16>.self) &* right
          &+ redBlueWords.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt16>.self) &* left &+ half) &>> 8
      let ga =
        (greenAlphaWords.loadUnaligned(fromByteOffset: 4 * x + 4, as: SIMD16<UInt16>.self) &* right
          &+ greenAlphaWords.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt16>.self) &* left &+ half) &>> 8
      outputWords.storeBytes(of: rb | (ga &<< 8), toByteOffset: 4 * x, as: SIMD16<UInt16>.self)
      x += 8
    }
  }

  // MARK: Eight pixels at a time

  /// A vector of eight pixel words seen as sixteen 16-bit lanes.
  @inline(__always)
  static func lanes(_ words: SIMD8<UInt32>) -> SIMD16<UInt16> { unsafeBitCast(words, to: SIMD16<UInt16>.self) }

  /// The words of sixteen 16-bit lanes.
  @inline(__always)
  static func words(_ lanes: SIMD16<UInt16>) -> SIMD8<UInt32> { unsafeBitCast(lanes, to: SIMD8<UInt32>.self) }

  /// `mul255` of each byte of each pixel word by its lane's k (0…255), in
  /// 16-bit lanes: t = c·k + 128; (t + (t >> 8)) >> 8.
  @inline(__always)
  static func scale(_ pixels: SIMD8<UInt32>, by k: SIMD8<UInt32>) -> SIMD8<UInt32> {
    let p = lanes(pixels), weight = lanes(k | (k &<< 16)), round = SIMD16<UInt16>(repeating: 0x80)
    var redBlue = (p & SIMD16<UInt16>(repeating: 0x00FF)) &* weight &+ round
    redBlue = (redBlue &+ (redBlue &>> 8)) &>> 8
    var greenAlpha = (p &>> 8) &* weight &+ round
    greenAlpha = (greenAlpha &+ (greenAlpha &>> 8)) & SIMD16<UInt16>(repeating: 0xFF00)
    return words(redBlue | greenAlpha)
  }

  /// Source-over of eight weighted source pixels onto eight target pixels:
  /// `source + target·(255 − source.a)`. No channel exceeds 255 when colour ≤ alpha.
  @inline(__always)
  static func over(_ source: SIMD8<UInt32>, onto target: SIMD8<UInt32>) -> SIMD8<UInt32> {
    source &+ scale(target, by: SIMD8<UInt32>(repeating: 255) &- (source &>> 24))
  }

  /// Eight weights from eight bytes.
  @inline(__always)
  static func weights(_ bytes: UnsafePointer<UInt8>, at i: Int) -> SIMD8<UInt32> {
    SIMD8<UInt32>(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
  }

  /// The last `count` (< 8) pixels of a row through a vector: `body` maps
  /// the zero-padded source, target and weights to the new target pixels.
  @inline(__always)
  static func tail(
    _ sourcePixels: UnsafeRawPointer?, _ weightBytes: UnsafePointer<UInt8>?, into targetPixels: UnsafeMutableRawPointer, count: Int,
    _ body: (_ source: SIMD8<UInt32>, _ weights: SIMD8<UInt32>, _ target: SIMD8<UInt32>) -> SIMD8<UInt32>
  ) {
    // Copied whole into zeroed vectors and back (lane-by-lane inserts and
    // extracts would go through the stack one element at a time).
    var source = SIMD8<UInt32>.zero, target = SIMD8<UInt32>.zero, weightBytes8 = SIMD8<UInt8>.zero
    withUnsafeMutableBytes(of: &target) { $0.baseAddress!.copyMemory(from: targetPixels, byteCount: 4 * count) }
    if let sourcePixels { withUnsafeMutableBytes(of: &source) { $0.baseAddress!.copyMemory(from: sourcePixels, byteCount: 4 * count) } }
    if let weightBytes { withUnsafeMutableBytes(of: &weightBytes8) { $0.baseAddress!.copyMemory(from: weightBytes, byteCount: count) } }
    var result = body(source, SIMD8<UInt32>(truncatingIfNeeded: weightBytes8), target)
    withUnsafeBytes(of: &result) { targetPixels.copyMemory(from: $0.baseAddress!, byteCount: 4 * count) }
  }

  // MARK: Rows

  /// `target = source·k + target·(1 − source.a·k)` for one weight k over a
  /// row of premultiplied pixels (colour ≤ alpha). Transparent groups of
  /// eight are skipped, opaque ones at full weight copied. Safe twin:
  /// `referenceBlendOver(_:into:weight:)`.
  static func blendOver(_ sourcePixels: UnsafeRawPointer, into targetPixels: UnsafeMutableRawPointer, count: Int, weight: UInt8) {
    let k = SIMD8<UInt32>(repeating: UInt32(weight))
    let alphaMask = SIMD8<UInt32>(repeating: 0xFF00_0000)
    var i = 0
    while i + 8 <= count {
      let source = sourcePixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      let alpha = source & alphaMask
      if all(alpha .== .zero) {
        i += 8
        continue
      }
      if weight == 255 {
        let result =
          all(alpha .== alphaMask) ? source : over(source, onto: targetPixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self))
        targetPixels.storeBytes(of: result, toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      } else {
        let target = targetPixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
        targetPixels.storeBytes(of: over(scale(source, by: k), onto: target), toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      }
      i += 8
    }
    guard i < count else { return }
    tail(sourcePixels + 4 * i, nil, into: targetPixels + 4 * i, count: count - i) { source, _, target in
      over(weight == 255 ? source : scale(source, by: k), onto: target)
    }
  }

  /// The same with a weight per pixel. Safe twin:
  /// `referenceBlendOver(_:weights:into:)`.
  static func blendOver(
    _ sourcePixels: UnsafeRawPointer, weights weightBytes: UnsafePointer<UInt8>, into targetPixels: UnsafeMutableRawPointer, count: Int
  ) {
    let alphaMask = SIMD8<UInt32>(repeating: 0xFF00_0000), full = SIMD8<UInt32>(repeating: 255)
    var i = 0
    while i + 8 <= count {
      let k = weights(weightBytes, at: i)
      let source = sourcePixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      let alpha = source & alphaMask
      if all(k .== .zero) || all(alpha .== .zero) {
        i += 8
        continue
      }
      let result: SIMD8<UInt32>
      if all(k .== full) {
        result =
          all(alpha .== alphaMask) ? source : over(source, onto: targetPixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self))
      } else {
        result = over(scale(source, by: k), onto: targetPixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self))
      }
      targetPixels.storeBytes(of: result, toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      i += 8
    }
    guard i < count else { return }
    tail(sourcePixels + 4 * i, weightBytes + i, into: targetPixels + 4 * i, count: count - i) { source, k, target in
      over(scale(source, by: k), onto: target)
    }
  }

  /// One colour under per-pixel coverage. Safe twin: `referenceBlendSolid`.
  static func blendSolid(_ color: RGBA8, coverage: UnsafePointer<UInt8>, into targetPixels: UnsafeMutablePointer<UInt8>, count: Int) {
    let target = UnsafeMutableRawPointer(targetPixels)
    let pattern = SIMD8<UInt32>(repeating: color.word), full = SIMD8<UInt32>(repeating: 255)
    let opaque = color.a == 255
    var i = 0
    while i + 8 <= count {
      let k = weights(coverage, at: i)
      if all(k .== .zero) {
        i += 8
        continue
      }
      let result =
        opaque && all(k .== full) ? pattern : over(scale(pattern, by: k), onto: target.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self))
      target.storeBytes(of: result, toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      i += 8
    }
    guard i < count else { return }
    tail(nil, coverage + i, into: target + 4 * i, count: count - i) { _, k, target in over(scale(pattern, by: k), onto: target) }
  }

  /// A run of pixels under one coverage value: opaque at full coverage is
  /// a fill with whole-pixel stores; otherwise one weighted source over
  /// every pixel. Safe twin: `referenceBlendSolid` with equal weights.
  static func fillSolid(_ color: RGBA8, coverage c: UInt8, into targetPixels: UnsafeMutablePointer<UInt8>, count: Int) {
    let target = UnsafeMutableRawPointer(targetPixels)
    if c == 255 && color.a == 255 {
      target.initializeMemory(as: UInt32.self, repeating: color.word, count: count)
      return
    }
    let source = scale(SIMD8<UInt32>(repeating: color.word), by: SIMD8<UInt32>(repeating: UInt32(c)))
    guard source[0] >> 24 != 0 else { return }
    var i = 0
    while i + 8 <= count {
      target.storeBytes(
        of: over(source, onto: target.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)), toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
      i += 8
    }
    guard i < count else { return }
    tail(nil, nil, into: target + 4 * i, count: count - i) { _, _, target in over(source, onto: target) }
  }

  /// `coverage[i] = mul255(coverage[i], clip[i])`, 32 bytes at a time: even
  /// and odd bytes in the low and high halves of 16-bit lanes. Safe twin:
  /// `referenceMultiply`.
  static func multiplyCoverage(_ coverage: UnsafeMutablePointer<UInt8>, by clip: UnsafePointer<UInt8>, count: Int) {
    let low = SIMD16<UInt16>(repeating: 0x00FF), round = SIMD16<UInt16>(repeating: 0x80)
    @inline(__always) func mul255(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> SIMD16<UInt16> {
      let t = a &* b &+ round
      return (t &+ (t &>> 8)) &>> 8
    }
    let coverageBytes = UnsafeMutableRawPointer(coverage), clipBytes = UnsafeRawPointer(clip)
    var i = 0
    while i + 32 <= count {
      let a = coverageBytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt16>.self)
      let b = clipBytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt16>.self)
      let even = mul255(a & low, b & low), odd = mul255(a &>> 8, b &>> 8)
      coverageBytes.storeBytes(of: even | (odd &<< 8), toByteOffset: i, as: SIMD16<UInt16>.self)
      i += 32
    }
    while i < count {
      coverage[i] = Raster.mul255(coverage[i], clip[i])
      i += 1
    }
  }
}

extension Compositor {
  // MARK: The loops on arrays, for the tests

  static func blendOver(_ source: [UInt8], into target: inout [UInt8], weight: UInt8) {
    source.withUnsafeBytes { sourceBytes in
      target.withUnsafeMutableBytes { targetBytes in
        blendOver(sourceBytes.baseAddress!, into: targetBytes.baseAddress!, count: source.count / 4, weight: weight)
      }
    }
  }

  static func blendOver(_ source: [UInt8], weights: [UInt8], into target: inout [UInt8]) {
    source.withUnsafeBytes { sourceBytes in
      weights.withUnsafeBufferPointer { weightBytes in
        target.withUnsafeMutableBytes { targetBytes in
          blendOver(sourceBytes.baseAddress!, weights: weightBytes.baseAddress!, into: targetBytes.baseAddress!, count: weights.count)
        }
      }
    }
  }

  static func blendSolid(_ color: RGBA8, coverage: [UInt8], into target: inout [UInt8]) {
    coverage.withUnsafeBufferPointer { coverageBytes in
      target.withUnsafeMutableBufferPointer { targetBytes in
        blendSolid(color, coverage: coverageBytes.baseAddress!, into: targetBytes.baseAddress!, count: coverage.count)
      }
    }
  }

  static func fillSolid(_ color: RGBA8, coverage: UInt8, into target: inout [UInt8]) {
    let count = target.count / 4
    target.withUnsafeMutableBufferPointer { targetBytes in fillSolid(color, coverage: coverage, into: targetBytes.baseAddress!, count: count) }
  }

  /// Multiplies every pixel of `pixmap` by a mask layer's weight there
  /// (`referenceApplyMask` says how), eight pixels at a time.
  static func applyMask(
    _ mask: Pixmap, origin: (x: Int, y: Int), mode: LayerMask, opacity: Double, to pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int)
  ) {
    let alpha = maskAlpha(opacity)
    let outside: UInt8 = mode.inverted ? 255 : 0
    let luminance = mode.source == .luminance, inverted = mode.inverted
    let width = pixmap.width, height = pixmap.height
    guard width > 0, height > 0 else { return }
    var weights = [UInt8](repeating: 0, count: width)
    let dx = targetOrigin.x - origin.x, dy = targetOrigin.y - origin.y
    // The target columns the mask covers.
    let first = min(max(-dx, 0), width), end = min(max(mask.width - dx, first), width)
    pixmap.bytes.withUnsafeMutableBytes { target in
      mask.bytes.withUnsafeBytes { maskBytes in
        weights.withUnsafeMutableBufferPointer { weightRow in
          let w = weightRow.baseAddress!
          for y in 0..<height {
            let my = y + dy
            if my < 0 || my >= mask.height || first >= end {
              if outside == 255 { continue }
              w.update(repeating: outside, count: width)
            } else {
              w.update(repeating: outside, count: first)
              (w + end).update(repeating: outside, count: width - end)
              let row = 4 * (my * mask.width + dx)
              for x in first..<end {
                let p = maskBytes.baseAddress! + (row + 4 * x)
                w[x] = UInt8(
                  truncatingIfNeeded: maskWeight(
                    p.load(as: UInt8.self), p.load(fromByteOffset: 1, as: UInt8.self), p.load(fromByteOffset: 2, as: UInt8.self),
                    p.load(fromByteOffset: 3, as: UInt8.self), luminance: luminance, alpha: alpha, inverted: inverted))
              }
            }
            let pixels = target.baseAddress! + 4 * y * width
            var i = 0
            while i + 8 <= width {
              let k = SIMD8<UInt32>(truncatingIfNeeded: UnsafeRawPointer(w + i).loadUnaligned(as: SIMD8<UInt8>.self))
              let p = pixels.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
              pixels.storeBytes(of: scale(p, by: k), toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
              i += 8
            }
            while i < width {
              let k = UInt32(w[i])
              for c in 0..<4 {
                let v = UInt32(pixels.load(fromByteOffset: 4 * i + c, as: UInt8.self))
                let t = v &* k &+ 128
                pixels.storeBytes(of: UInt8(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8), toByteOffset: 4 * i + c, as: UInt8.self)
              }
              i += 1
            }
          }
        }
      }
    }
  }

  static func multiplyCoverage(_ coverage: inout [UInt8], by clip: [UInt8]) {
    let count = clip.count
    clip.withUnsafeBufferPointer { clipBytes in
      coverage.withUnsafeMutableBufferPointer { coverageBytes in
        multiplyCoverage(coverageBytes.baseAddress!, by: clipBytes.baseAddress!, count: count)
      }
    }
  }
}

extension RGBA8 {
  /// The pixel as one little-endian word, as it lies in memory.
  var word: UInt32 { (UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24).littleEndian }
}
