// The pointer loop of `MediaProbe.frames`: the RGBA rows swscale wrote into
// FFmpeg's frame memory, packed into a pixmap's bytes.
//
// Safe twin: `MediaProbe.referencePackedRGBA(rows:stride:width:height:)` in
// MediaProbe.swift, the same rows pixel by pixel from an array.
// MediaProbeTests compares the two on random rows, strides and alphas.
extension MediaProbe {
  /// `height` rows of `width` straight RGBA8 pixels, `stride` bytes apart
  /// from `rows`, packed; a transparent pixel (alpha 0) gets colour 0 too,
  /// so the bytes are valid premultiplied as well.
  static func packedRGBA(rows: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> [UInt8] {
    precondition(stride >= 4 * width, "rows overlap")
    return [UInt8](unsafeUninitializedCapacity: 4 * width * height) { packed, initialized in
      for y in 0..<height {
        let packedRow = packed.baseAddress! + 4 * width * y
        packedRow.initialize(from: rows + stride * y, count: 4 * width)
        for x in 0..<width where packedRow[4 * x + 3] == 0 {
          packedRow[4 * x] = 0; packedRow[4 * x + 1] = 0; packedRow[4 * x + 2] = 0
        }
      }
      initialized = 4 * width * height
    }
  }
}
