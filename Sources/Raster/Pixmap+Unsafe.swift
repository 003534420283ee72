// A pixmap filled with one pixel, whole words at a time. Safe twin:
// `Pixmap.referenceFilledBytes(_:count:)` in Pixmap.swift (PixmapTests).

extension Pixmap {
  /// `count` pixels of `value`, as bytes.
  static func filledBytes(_ value: RGBA8, count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
      if count > 0 { UnsafeMutableRawPointer(buffer.baseAddress!).initializeMemory(as: UInt32.self, repeating: value.word, count: count) }
      initialized = count * 4
    }
  }
}
