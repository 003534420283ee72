// The default 8-bit shading, on raw memory. Safe twin:
// `RowShaders.bytes(fromFloats:)` in Shader.swift (ShaderTests compares them).

extension RowShader {
  func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    shade(x: x, y: y, count: count, into: scratch)
    RowShaders.round(scratch, count: count, into: output)
  }
}

extension RowShaders {
  /// `count` float pixels as bytes, as `bytes(fromFloats:)` rounds them.
  static func round(_ floats: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<UInt8>) {
    for i in 0..<count {
      let pixelFloats = floats + 4 * i, pixelBytes = output + 4 * i
      let alpha = byte(pixelFloats[3])
      pixelBytes[3] = alpha
      for channel in 0..<3 { pixelBytes[channel] = min(byte(pixelFloats[channel]), alpha) }
    }
  }
}

extension RowShader {
  // MARK: The rows as arrays, for the tests and for whole-tile paints

  /// `count` pixels of row `y` from column `x`, as floats.
  func shadedFloats(x: Int, y: Int, count: Int) -> [Float] {
    [Float](unsafeUninitializedCapacity: 4 * count) { floats, initialized in
      if count > 0 { shade(x: x, y: y, count: count, into: floats.baseAddress!) }
      initialized = 4 * count
    }
  }

  /// `count` pixels of row `y` from column `x`, as bytes (`shade8`).
  func shadedBytes(x: Int, y: Int, count: Int) -> [UInt8] {
    shadedRows(x: x, y: y, width: count, height: 1)
  }

  /// The `width × height` pixels from (x, y), row after row, as bytes.
  func shadedRows(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
    guard width > 0, height > 0 else { return [] }
    let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4 * width)
    defer { scratch.deallocate() }
    return [UInt8](unsafeUninitializedCapacity: 4 * width * height) { bytes, initialized in
      for row in 0..<height { shade8(x: x, y: y + row, count: width, into: bytes.baseAddress! + 4 * width * row, scratch: scratch) }
      initialized = 4 * width * height
    }
  }
}
