// A pixmap filled with one pixel, whole words at a time, maybe but for a
// hole. Safe twin: `Pixmap.referenceFilledBytes(_:count:)` in Pixmap.swift
// (RowLoopTests; the hole's: TileRendererTests, with the hole poisoned).

extension Pixmap {
  /// `count` pixels of `value`, as bytes.
  static func filledBytes(_ value: RGBA8, count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
      if count > 0 { UnsafeMutableRawPointer(buffer.baseAddress!).initializeMemory(as: UInt32.self, repeating: value.word, count: count) }
      initialized = count * 4
    }
  }

  /// `width × height` pixels of `value`, except those of `hole` (in the
  /// pixmap's own coordinates), which are left as the allocator gave them
  /// (or `poison` when given: tests' way to see a hole that was not painted
  /// over). The caller must write every pixel of the hole before reading it.
  static func filledBytes(_ value: RGBA8, width: Int, height: Int, except hole: PixelRect, poison: RGBA8? = nil) -> [UInt8] {
    let hole = hole.intersection(PixelRect(x0: 0, y0: 0, x1: width, y1: height))
    guard !hole.isEmpty else { return filledBytes(value, count: width * height) }
    return [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
      let base = UnsafeMutableRawPointer(buffer.baseAddress!)
      func fill(_ pixel: Int, _ count: Int, _ v: RGBA8) { (base + 4 * pixel).initializeMemory(as: UInt32.self, repeating: v.word, count: count) }
      // Above the hole and up to it on its first row, in one stretch.
      fill(0, hole.y0 * width + hole.x0, value)
      for y in hole.y0..<hole.y1 {
        if let poison { fill(y * width + hole.x0, hole.width, poison) }
        // From the hole's right edge to its left edge on the next row (or
        // to the end, below it) is one stretch.
        let end = y + 1 < hole.y1 ? (y + 1) * width + hole.x0 : width * height
        fill(y * width + hole.x1, end - (y * width + hole.x1), value)
      }
      initialized = width * height * 4
    }
  }
}
