import Primitives

/// Source-over compositing in premultiplied 8-bit sRGB, as UIKit and Skia
/// do by default: for a source pixel s under a weight k (coverage, clip,
/// opacity, all 0…255),
///
///     target = s·k + target·(1 − (s·k).a)        per channel, each product by `mul255`
///
/// This file holds the rule and the safe twins: plain per-pixel code on
/// arrays, obviously the rule. The rows the canvas blends go through the
/// vector loops of Compositor+Unsafe.swift, which tests compare with these
/// twins byte for byte on random rows (pixels whose colour ≤ alpha, as
/// every premultiplied pixel here is).
enum Compositor {
  /// One pixel of source-over: `source` under `weight`, over `target`.
  /// The two rounded terms cannot exceed 255 for colour ≤ alpha (each is
  /// at most the share its alpha leaves); the sum saturates anyway.
  @inline(__always)
  static func over(_ source: RGBA8, weight k: UInt8, onto target: RGBA8) -> RGBA8 {
    let alpha = mul255(source.a, k)
    let keep = 255 &- alpha
    return RGBA8(
      r: add(mul255(source.r, k), mul255(target.r, keep)), g: add(mul255(source.g, k), mul255(target.g, keep)),
      b: add(mul255(source.b, k), mul255(target.b, keep)), a: add(alpha, mul255(target.a, keep)))
  }

  /// a + b, saturating at 255.
  @inline(__always)
  static func add(_ a: UInt8, _ b: UInt8) -> UInt8 {
    let s = UInt16(a) &+ UInt16(b)
    return s > 255 ? 255 : UInt8(truncatingIfNeeded: s)
  }

  // MARK: Safe twins

  /// Safe twin of `blendOver(_:into:count:weight:)`: every pixel of
  /// `source` (RGBA8, 4 bytes each) over the same pixel of `target`, under
  /// one weight.
  static func referenceBlendOver(_ source: [UInt8], into target: inout [UInt8], weight: UInt8) {
    for i in 0..<(source.count / 4) { setPixel(&target, i, over(pixel(source, i), weight: weight, onto: pixel(target, i))) }
  }

  /// Safe twin of `blendOver(_:weights:into:count:)`: each pixel under its
  /// own weight.
  static func referenceBlendOver(_ source: [UInt8], weights: [UInt8], into target: inout [UInt8]) {
    for i in weights.indices { setPixel(&target, i, over(pixel(source, i), weight: weights[i], onto: pixel(target, i))) }
  }

  /// Safe twin of `blendSolid(_:coverage:into:count:)` and
  /// `fillSolid(_:coverage:into:count:)`: one colour under per-pixel weights.
  static func referenceBlendSolid(_ color: RGBA8, weights: [UInt8], into target: inout [UInt8]) {
    for i in weights.indices { setPixel(&target, i, over(color, weight: weights[i], onto: pixel(target, i))) }
  }

  /// Safe twin of `multiplyCoverage(_:by:count:)`: coverage times a clip's.
  static func referenceMultiply(_ coverage: [UInt8], by clip: [UInt8]) -> [UInt8] {
    zip(coverage, clip).map { mul255($0, $1) }
  }

  /// Safe twin of `blendShiftedImage`: each target pixel over which the
  /// image, moved by (`origin` + `shift`/16) device pixels, lies takes the
  /// bilinear blend of the four image pixels it overlaps (transparent
  /// outside the image), in integers: each channel
  /// `((16 − fx)·v(x) + fx·v(x − 1) + 128) >> 8` with
  /// `v(x) = (16 − fy)·image(x, y) + fy·image(x, y − 1)`, then over at
  /// full weight.
  static func referenceBlendShiftedImage(
    _ image: Pixmap, origin: (x: Int, y: Int), shift: (x: Int, y: Int), into target: inout Pixmap, targetOrigin: (x: Int, y: Int)
  ) {
    let (fx, fy) = (shift.x, shift.y)
    func texel(_ x: Int, _ y: Int, _ channel: Int) -> Int {
      guard x >= 0, x < image.width, y >= 0, y < image.height else { return 0 }
      return Int(image.bytes[4 * (y * image.width + x) + channel])
    }
    for ty in 0..<target.height {
      for tx in 0..<target.width {
        let x = tx + targetOrigin.x - origin.x, y = ty + targetOrigin.y - origin.y
        guard x >= 0, x <= image.width, y >= 0, y <= image.height else { continue }
        var channels = [UInt8](repeating: 0, count: 4)
        for c in 0..<4 {
          let right = (16 - fy) * texel(x, y, c) + fy * texel(x, y - 1, c)
          let left = (16 - fy) * texel(x - 1, y, c) + fy * texel(x - 1, y - 1, c)
          channels[c] = UInt8(((16 - fx) * right + fx * left + 128) >> 8)
        }
        let source = RGBA8(r: channels[0], g: channels[1], b: channels[2], a: channels[3])
        target[tx, ty] = over(source, weight: 255, onto: target[tx, ty])
      }
    }
  }

  @inline(__always)
  private static func pixel(_ bytes: [UInt8], _ i: Int) -> RGBA8 {
    RGBA8(r: bytes[4 * i], g: bytes[4 * i + 1], b: bytes[4 * i + 2], a: bytes[4 * i + 3])
  }

  @inline(__always)
  private static func setPixel(_ bytes: inout [UInt8], _ i: Int, _ p: RGBA8) {
    bytes[4 * i] = p.r; bytes[4 * i + 1] = p.g; bytes[4 * i + 2] = p.b; bytes[4 * i + 3] = p.a
  }
}

extension Compositor {
  /// Blends `paint` under coverage `mask` (device pixels) into `pixmap`,
  /// whose top-left pixel is at device `origin`, under an optional clip.
  static func blend(_ mask: CoverageMask, paint: Paint, clip: CoverageMask? = nil, into pixmap: inout Pixmap, origin: (x: Int, y: Int)) {
    let source = RowSource(paint)
    guard !source.isInvisible, !mask.bounds.isEmpty else { return }
    var row = [UInt8](repeating: 0, count: mask.bounds.width)
    for y in mask.bounds.y0..<mask.bounds.y1 {
      let start = (y - mask.bounds.y0) * mask.bounds.width
      row.replaceSubrange(0..<mask.bounds.width, with: mask.coverage[start..<(start + mask.bounds.width)])
      blendRow(&row, x0: mask.bounds.x0, y: y, source: source, clip: clip, into: &pixmap, origin: origin)
    }
  }

  /// Composites a finished layer (premultiplied pixels at device `origin`)
  /// with `opacity`, under an optional clip, into the parent target.
  /// The device pixels of `hidden` are left alone (the caller paints them
  /// opaque next).
  static func blendLayer(
    _ layer: Pixmap, origin: (x: Int, y: Int), opacity: Double, clip: CoverageMask?, into pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int),
    hidden: PixelRect? = nil
  ) {
    var area = PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + layer.width, y1: origin.y + layer.height)
      .intersection(PixelRect(x0: targetOrigin.x, y0: targetOrigin.y, x1: targetOrigin.x + pixmap.width, y1: targetOrigin.y + pixmap.height))
    if let clip { area = area.intersection(clip.bounds) }
    guard !area.isEmpty, opacity > 0 else { return }
    let alpha = UInt8((min(opacity, 1) * 255).rounded())
    blendLayerRows(layer, origin: origin, area: area, weight: alpha, clip: clip, into: &pixmap, targetOrigin: targetOrigin, hidden: hidden)
  }

  /// Multiplies every pixel of `pixmap` (its top-left pixel at device
  /// `targetOrigin`) by a mask layer's value there (`LayerMask`): the
  /// weight w = m × opacity as a byte, rounded (255 − w when inverted),
  /// each channel c becoming (c × w + 127) / 255; m is 0 outside the mask.
  /// A mask layer's opacity as a byte.
  static func maskAlpha(_ opacity: Double) -> Int { Int((min(max(opacity, 0), 1) * 255).rounded()) }

  /// The weight a mask's pixel gives (`LayerMask`): its alpha or its
  /// luminance, times the mask's opacity `alpha` (a byte), inverted or not.
  @inline(__always)
  static func maskWeight(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, luminance: Bool, alpha: Int, inverted: Bool) -> Int {
    let m = luminance ? (2125 * Int(r) + 7154 * Int(g) + 721 * Int(b) + 5000) / 10000 : Int(a)
    let w = (m * alpha + 127) / 255
    return inverted ? 255 - w : w
  }

  /// Safe twin of `applyMask` (Compositor+Unsafe.swift).
  static func referenceApplyMask(
    _ mask: Pixmap, origin: (x: Int, y: Int), mode: LayerMask, opacity: Double, to pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int)
  ) {
    let alpha = maskAlpha(opacity)
    let outside = mode.inverted ? 255 : 0
    let luminance = mode.source == .luminance
    for y in 0..<pixmap.height {
      let my = y + targetOrigin.y - origin.y
      for x in 0..<pixmap.width {
        let mx = x + targetOrigin.x - origin.x
        var w = outside
        if my >= 0, my < mask.height, mx >= 0, mx < mask.width {
          let i = 4 * (my * mask.width + mx)
          w = maskWeight(
            mask.bytes[i], mask.bytes[i + 1], mask.bytes[i + 2], mask.bytes[i + 3], luminance: luminance, alpha: alpha, inverted: mode.inverted)
        }
        guard w < 255 else { continue }
        let t = 4 * (y * pixmap.width + x)
        for c in 0..<4 { pixmap.bytes[t + c] = UInt8((Int(pixmap.bytes[t + c]) * w + 127) / 255) }
      }
    }
  }

  /// Composites a finished layer as a cross-fade: each target pixel t
  /// under the layer's pixel l becomes t + w·(l − t), w the opacity (a
  /// byte) times the clip's coverage, rounded once, so a pixel the layer
  /// and the target share does not change. Rare (a text's change), so
  /// plain code.
  static func crossFadeLayer(
    _ layer: Pixmap, origin: (x: Int, y: Int), opacity: Double, clip: CoverageMask?, into pixmap: inout Pixmap, targetOrigin: (x: Int, y: Int)
  ) {
    var area = PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + layer.width, y1: origin.y + layer.height)
      .intersection(PixelRect(x0: targetOrigin.x, y0: targetOrigin.y, x1: targetOrigin.x + pixmap.width, y1: targetOrigin.y + pixmap.height))
    if let clip { area = area.intersection(clip.bounds) }
    guard !area.isEmpty, opacity > 0 else { return }
    let alpha = Int((min(opacity, 1) * 255).rounded())
    for y in area.y0..<area.y1 {
      for x in area.x0..<area.x1 {
        let w = clip.map { (alpha * Int($0[x, y]) + 127) / 255 } ?? alpha
        guard w > 0 else { continue }
        let l = 4 * ((y - origin.y) * layer.width + (x - origin.x))
        let t = 4 * ((y - targetOrigin.y) * pixmap.width + (x - targetOrigin.x))
        // Rounded to nearest, halves away from the target; colour kept ≤ alpha.
        func mixed(_ c: Int) -> Int {
          let target = Int(pixmap.bytes[t + c]), change = (Int(layer.bytes[l + c]) - target) * w
          return target + (change >= 0 ? (change + 127) / 255 : -((-change + 127) / 255))
        }
        let a = mixed(3)
        pixmap.bytes[t + 3] = UInt8(a)
        for c in 0..<3 { pixmap.bytes[t + c] = UInt8(min(mixed(c), a)) }
      }
    }
  }

  /// The columns `x0..<x1` of row `y` outside `hidden`: up to two spans
  /// (empty ranges where there are none).
  @inline(__always)
  static func visibleSpans(_ x0: Int, _ x1: Int, y: Int, hidden: PixelRect?) -> (Range<Int>, Range<Int>) {
    guard let hidden, y >= hidden.y0, y < hidden.y1, hidden.x0 < x1, hidden.x1 > x0 else { return (x0..<x1, x1..<x1) }
    return (x0..<max(x0, hidden.x0), min(x1, hidden.x1)..<x1)
  }
}
