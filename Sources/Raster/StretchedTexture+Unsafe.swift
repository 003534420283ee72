// The stretch of a narrowed texture back to its size, on raw memory. Safe
// twin: `StretchedTexture.referenceStretch` in StretchedTexture.swift
// (TileRendererTests compares them).

extension StretchedTexture {
  /// `small` widened by `sx` copies of its column `cx` and heightened by
  /// `sy` copies of its row `cy` (none when nil), to `region`'s size.
  static func stretch(_ small: Pixmap, to region: PixelRect, columnsAt cx: Int?, _ sx: Int, rowsAt cy: Int?, _ sy: Int) -> Pixmap {
    let w = region.width, h = region.height, sw = small.width
    let bytes = small.bytes.withUnsafeBufferPointer { smallBytes in
      [UInt8](unsafeUninitializedCapacity: 4 * w * h) { stretchedBytes, n in
        let smallPixels = UnsafeRawPointer(smallBytes.baseAddress!), stretchedPixels = UnsafeMutableRawPointer(stretchedBytes.baseAddress!)
        for y in 0..<h {
          let row: Int
          if let cy, y >= cy { row = y < cy + sy ? cy : y - sy } else { row = y }
          let from = smallPixels + 4 * row * sw, to = stretchedPixels + 4 * y * w
          guard let cx else {
            to.copyMemory(from: from, byteCount: 4 * w)
            continue
          }
          to.copyMemory(from: from, byteCount: 4 * cx)
          (to + 4 * cx).initializeMemory(as: UInt32.self, repeating: from.loadUnaligned(fromByteOffset: 4 * cx, as: UInt32.self), count: sx)
          (to + 4 * (cx + sx)).copyMemory(from: from + 4 * cx, byteCount: 4 * (sw - cx))
        }
        n = 4 * w * h
      }
    }
    return Pixmap(width: w, height: h, bytes: bytes)
  }
}
