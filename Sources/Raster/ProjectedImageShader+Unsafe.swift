import Primitives

// The projected image shader's row loop, on a raw pointer into the
// image's bytes. Safe twin: `ProjectedImageShader.referenceShade(x:y:count:)`
// (`shadePixel`, with pixmap subscripts); ProjectedImageShaderTests compares them.

extension ProjectedImageShader: RowShader {
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    guard count > 0 else { return }
    let width = image.width, height = image.height
    image.bytes.withUnsafeBufferPointer { texels in
      guard let base = texels.baseAddress, width > 0, height > 0 else {
        output.update(repeating: 0, count: 4 * count)
        return
      }
      /// `bilinear` on the bytes: between texel centres, edges repeated.
      func sample(_ p: Point) -> SIMD4<Float> {
        let fu = min(max(p.x - 0.5, -1), Double(width)), fv = min(max(p.y - 0.5, -1), Double(height))
        let i = Int(fu.rounded(.down)), j = Int(fv.rounded(.down))
        let tu = Float(fu - fu.rounded(.down)), tv = Float(fv - fv.rounded(.down))
        let i0 = min(max(i, 0), width - 1), i1 = min(max(i + 1, 0), width - 1)
        let j0 = min(max(j, 0), height - 1), j1 = min(max(j + 1, 0), height - 1)
        func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
          let t = base + 4 * (j * width + i)
          return SIMD4(Float(t[0]), Float(t[1]), Float(t[2]), Float(t[3]))
        }
        let top = texel(i0, j0) * (1 - tu) + texel(i1, j0) * tu
        let bottom = texel(i0, j1) * (1 - tu) + texel(i1, j1) * tu
        return top * (1 - tv) + bottom * tv
      }
      for n in 0..<count {
        let c = shadePixel(x: x + n, y: y, bilinear: sample)
        let out = output + 4 * n
        out[0] = c[0]; out[1] = c[1]; out[2] = c[2]; out[3] = c[3]
      }
    }
  }
}
