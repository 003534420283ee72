import Primitives

// The projected image shader's row loop, writing into the compositor's
// row buffer. Safe twin: `ProjectedImageShader.referenceShade(x:y:count:)`
// (ProjectedImageShaderTests compares them).

extension ProjectedImageShader: RowShader {
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    guard count > 0 else { return }
    let width = image.width, height = image.height, scale = outputScale
    image.bytes.withUnsafeBufferPointer { texels in
      guard let base = texels.baseAddress else {
        output.update(repeating: 0, count: 4 * count)
        return
      }
      for n in 0..<count {
        let out = output + 4 * n
        guard let p = imagePoint(Point(Double(x + n) + 0.5, Double(y) + 0.5)) else {
          out.update(repeating: 0, count: 4)
          continue
        }
        let fu = min(max(p.x - 0.5, -1), Double(width)), fv = min(max(p.y - 0.5, -1), Double(height))
        let i = Int(fu.rounded(.down)), j = Int(fv.rounded(.down))
        let tu = Float(fu - fu.rounded(.down)), tv = Float(fv - fv.rounded(.down))
        let i0 = min(max(i, 0), width - 1), i1 = min(max(i + 1, 0), width - 1)
        let j0 = min(max(j, 0), height - 1), j1 = min(max(j + 1, 0), height - 1)
        for ch in 0..<4 {
          let a = Float(base[4 * (j0 * width + i0) + ch]), b = Float(base[4 * (j0 * width + i1) + ch])
          let c = Float(base[4 * (j1 * width + i0) + ch]), d = Float(base[4 * (j1 * width + i1) + ch])
          let top = a * (1 - tu) + b * tu, bottom = c * (1 - tu) + d * tu
          out[ch] = (top * (1 - tv) + bottom * tv) * scale
        }
      }
    }
  }
}
