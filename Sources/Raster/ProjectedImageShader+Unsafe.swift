import Primitives

// The projected image shader's row loop, writing into the compositor's
// row buffer. Safe twin: `ProjectedImageShader.referenceShade(x:y:count:)`
// (ProjectedImageShaderTests compares them).

extension ProjectedImageShader: RowShader {
  func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    for n in 0..<max(0, count) {
      let c = shadePixel(x: x + n, y: y)
      let out = output + 4 * n
      out[0] = c[0]; out[1] = c[1]; out[2] = c[2]; out[3] = c[3]
    }
  }
}
