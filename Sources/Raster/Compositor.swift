import Primitives

/// Source-over compositing in premultiplied 8-bit sRGB:
/// `dst = src·c + dst·(1 − src.a·c)` for coverage c.
enum Compositor {
  /// a + b, saturating at 255: the two rounded terms of source-over may
  /// exceed 255 by one.
  @inline(__always) static func add(_ a: UInt8, _ b: UInt8) -> UInt8 {
    let s = UInt16(a) + UInt16(b)
    return s > 255 ? 255 : UInt8(s)
  }

  /// Blends `paint` under coverage `mask` (device pixels) into `pixmap`,
  /// whose top-left pixel is at device `origin`.
  static func blend(_ mask: CoverageMask, paint: Paint, into pixmap: inout Pixmap, origin: (x: Int, y: Int)) {
    let area = mask.bounds.intersection(PixelRect(x0: origin.x, y0: origin.y, x1: origin.x + pixmap.width, y1: origin.y + pixmap.height))
    guard !area.isEmpty else { return }
    let width = pixmap.width
    let maskWidth = mask.bounds.width
    switch paint {
    case .solid(let color):
      let src = RGBA8(color)
      guard src.a > 0 else { return }
      pixmap.bytes.withUnsafeMutableBufferPointer { dstBuffer in
        mask.coverage.withUnsafeBufferPointer { maskBuffer in
          for y in area.y0..<area.y1 {
            let m = maskBuffer.baseAddress! + (y - mask.bounds.y0) * maskWidth + (area.x0 - mask.bounds.x0)
            let d = dstBuffer.baseAddress! + 4 * ((y - origin.y) * width + (area.x0 - origin.x))
            blendSolidRow(src, coverage: m, into: d, count: area.width)
          }
        }
      }
    case .shader(let shader):
      var row = [Float](repeating: 0, count: 4 * area.width)
      pixmap.bytes.withUnsafeMutableBufferPointer { dstBuffer in
        mask.coverage.withUnsafeBufferPointer { maskBuffer in
          row.withUnsafeMutableBufferPointer { rowBuffer in
            for y in area.y0..<area.y1 {
              let m = maskBuffer.baseAddress! + (y - mask.bounds.y0) * maskWidth + (area.x0 - mask.bounds.x0)
              // Shade only the covered span of the row.
              var first = 0, last = area.width
              while first < last && m[first] == 0 { first += 1 }
              while last > first && m[last - 1] == 0 { last -= 1 }
              guard first < last else { continue }
              shader.shade(x: area.x0 + first, y: y, count: last - first, into: rowBuffer.baseAddress!)
              let d = dstBuffer.baseAddress! + 4 * ((y - origin.y) * width + (area.x0 - origin.x) + first)
              blendFloatRow(rowBuffer.baseAddress!, coverage: m + first, into: d, count: last - first)
            }
          }
        }
      }
    }
  }

  @inline(__always)
  static func blendSolidRow(_ src: RGBA8, coverage m: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>, count: Int) {
    let opaque = src.a == 255
    for i in 0..<count {
      let c = m[i]
      if c == 0 { continue }
      let p = d + 4 * i
      if c == 255 && opaque {
        p[0] = src.r; p[1] = src.g; p[2] = src.b; p[3] = 255
        continue
      }
      let sa = mul255(src.a, c)
      let keep = 255 - sa
      p[0] = add(mul255(src.r, c), mul255(p[0], keep))
      p[1] = add(mul255(src.g, c), mul255(p[1], keep))
      p[2] = add(mul255(src.b, c), mul255(p[2], keep))
      p[3] = add(sa, mul255(p[3], keep))
    }
  }

  @inline(__always)
  static func blendFloatRow(_ s: UnsafePointer<Float>, coverage m: UnsafePointer<UInt8>, into d: UnsafeMutablePointer<UInt8>, count: Int) {
    for i in 0..<count {
      let c = m[i]
      if c == 0 { continue }
      let k = Float(c) * (1 / 255)
      let p = d + 4 * i
      let sa = s[4 * i + 3] * k
      let keep = 1 - sa
      for ch in 0..<3 {
        let v = s[4 * i + ch] * k * 255 + Float(p[ch]) * keep
        p[ch] = UInt8(min(max(v + 0.5, 0), 255))
      }
      p[3] = UInt8(min(max(sa * 255 + Float(p[3]) * keep + 0.5, 0), 255))
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
    pixmap.bytes.withUnsafeMutableBufferPointer { dst in
      layer.bytes.withUnsafeBufferPointer { src in
        for y in area.y0..<area.y1 {
          let s = src.baseAddress! + 4 * ((y - origin.y) * layer.width + (area.x0 - origin.x))
          let d = dst.baseAddress! + 4 * ((y - targetOrigin.y) * width + (area.x0 - targetOrigin.x))
          for i in 0..<area.width {
            var k = alpha
            if let clip { k = mul255(k, clip[area.x0 + i, y]) }
            let sp = s + 4 * i
            if sp[3] == 0 || k == 0 { continue }
            let p = d + 4 * i
            let sa = mul255(sp[3], k)
            let keep = 255 - sa
            p[0] = add(mul255(sp[0], k), mul255(p[0], keep))
            p[1] = add(mul255(sp[1], k), mul255(p[1], keep))
            p[2] = add(mul255(sp[2], k), mul255(p[2], keep))
            p[3] = add(sa, mul255(p[3], keep))
          }
        }
      }
    }
  }
}
