import Primitives

// The image shader's row loop, on raw pointers into the pyramid's bytes.
// Safe twin: `ImageShader.referenceShade(x:y:count:)` in ImageShader.swift
// (ImageShaderTests compares them on random transforms, levels and rows).

extension ImageShader: RowShader {
  /// Bytes: copied from the image where it lies on whole pixels unscaled
  /// (`pixelOffset`; edges clamped as sampling clamps them), else sampled
  /// and rounded as every shader's are. Safe twin: the default
  /// `RowShaders.bytes(fromFloats: shadedFloats(…))` (ImageShaderTests).
  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    guard count > 0 else { return }
    guard let offset = pixelOffset else {
      shade(x: x, y: y, count: count, into: scratch)
      RowShaders.round(scratch, count: count, into: output)
      return
    }
    let image = pyramid.levels[0]
    let row = min(image.height - 1, max(0, y - offset.y))
    image.bytes.withUnsafeBufferPointer { texels in
      let source = texels.baseAddress! + 4 * image.width * row
      var n = 0
      while n < count {
        let column = x + n - offset.x
        if column >= 0 && column < image.width {
          let run = min(count - n, image.width - column)
          (output + 4 * n).update(from: source + 4 * column, count: 4 * run)
          n += run
        } else {
          let edge = source + 4 * (column < 0 ? 0 : image.width - 1)
          (output + 4 * n).update(from: edge, count: 4)
          n += 1
        }
      }
    }
  }

  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    guard count > 0 else { return }
    guard let inv = deviceToImage, outputScale > 0 else {
      output.update(repeating: 0, count: 4 * count)
      return
    }
    let fine = pyramid.levels[fineLevel], coarse = pyramid.levels[coarseLevel]
    let fineScale = 1 / Double(1 << fineLevel), coarseScale = 1 / Double(1 << coarseLevel)
    let weight = coarseWeight, scale = outputScale
    let py = Double(y) + 0.5
    // The row's image-space start; each pixel adds inv's first column.
    let u0 = inv.c * py + inv.tx, v0 = inv.d * py + inv.ty
    fine.bytes.withUnsafeBufferPointer { fineTexels in
      coarse.bytes.withUnsafeBufferPointer { coarseTexels in
        let fineBytes = fineTexels.baseAddress!, coarseBytes = coarseTexels.baseAddress!
        for n in 0..<count {
          let px = Double(x + n) + 0.5
          let u = inv.a * px + u0, v = inv.b * px + v0
          var s = Self.bilinear(fineBytes, fine.width, fine.height, fineScale, u, v)
          if weight > 0 {
            let t = Self.bilinear(coarseBytes, coarse.width, coarse.height, coarseScale, u, v)
            s = s + (t - s) * weight
          }
          s *= scale
          let pixel = output + 4 * n
          pixel[0] = s.x; pixel[1] = s.y; pixel[2] = s.z; pixel[3] = s.w
        }
      }
    }
  }

  /// Bilinear sample of a `w × h` RGBA8 level at image point (u, v), the
  /// level being `1/scale` image pixels per texel; edges clamped.
  @inline(__always)
  static func bilinear(
    _ texels: UnsafePointer<UInt8>, _ w: Int, _ h: Int, _ scale: Double, _ u: Double, _ v: Double
  ) -> SIMD4<Float> {
    let (x0, x1, tu) = taps(u * scale - 0.5, w)
    let (y0, y1, tv) = taps(v * scale - 0.5, h)
    let upperRow = texels + 4 * w * y0, lowerRow = texels + 4 * w * y1
    let c00 = load(upperRow + 4 * x0), c10 = load(upperRow + 4 * x1)
    let c01 = load(lowerRow + 4 * x0), c11 = load(lowerRow + 4 * x1)
    let top = c00 + (c10 - c00) * tu, bottom = c01 + (c11 - c01) * tu
    return top + (bottom - top) * tv
  }

  /// The two texel indices either side of continuous texel coordinate `f`
  /// (centres at integers), clamped into 0..<n, and the weight of the second.
  @inline(__always)
  static func taps(_ f: Double, _ n: Int) -> (Int, Int, Float) {
    // Clamped to −1…n (everything beyond samples the edge texel anyway), so
    // truncating g + 1 is the floor: no libm call, no trap.
    let g = f < -1 ? -1 : f > Double(n) ? Double(n) : f
    let i = Int(g + 1) - 1
    return (i < 0 ? 0 : i < n ? i : n - 1, i + 1 < n ? i + 1 : n - 1, Float(g - Double(i)))
  }

  @inline(__always)
  static func load(_ texel: UnsafePointer<UInt8>) -> SIMD4<Float> {
    SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(texel).loadUnaligned(as: SIMD4<UInt8>.self)))
  }
}
