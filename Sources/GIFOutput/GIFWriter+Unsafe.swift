// The pointer loop of `GIFWriter`: the rectangle where two frames of indices
// differ, found row by row with memcmp.
//
// Safe twin: `GIFWriter.referenceChangedRectangle(_:_:)` in GIFWriter.swift,
// index by index through `rectangle(where:)`. WriterTests compares the two
// on random frames with random changes.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension GIFWriter {
  /// The bounding rectangle of the pixels that differ between two frames
  /// of indices of this writer's size, nil if none do.
  func changedRectangle(_ a: [UInt8], _ b: [UInt8]) -> Rect? {
    precondition(a.count == width * height && b.count == width * height, "frames of another size")
    return a.withUnsafeBufferPointer { firstIndices in
      b.withUnsafeBufferPointer { secondIndices in
        let w = width
        func rowDiffers(_ y: Int) -> Bool { memcmp(firstIndices.baseAddress! + y * w, secondIndices.baseAddress! + y * w, w) != 0 }
        guard let top = (0..<height).first(where: rowDiffers) else { return nil }
        let bottom = (top..<height).last(where: rowDiffers)!
        var left = w, right = -1
        for y in top...bottom where rowDiffers(y) {
          let row = y * w
          var x = 0
          while x < left && firstIndices[row + x] == secondIndices[row + x] { x += 1 }
          left = min(left, x)
          var r = w - 1
          while r > right && firstIndices[row + r] == secondIndices[row + r] { r -= 1 }
          right = max(right, r)
        }
        return (left, top, right - left + 1, bottom - top + 1)
      }
    }
  }
}
