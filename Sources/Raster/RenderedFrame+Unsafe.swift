// The frame assembled from its tiles, on raw memory. Safe twin:
// `RenderedFrame.referenceAssembled()` in RenderedFrame.swift
// (TileRendererTests compares them on frames of random sizes and tiles).

extension RenderedFrame {
  /// The whole picture from the tiles, row by row of each tile.
  func assemble() -> Pixmap {
    let (w, h) = (width, height)
    let bytes = [UInt8](unsafeUninitializedCapacity: 4 * w * h) { picture, n in
      for row in 0..<rows {
        for column in 0..<columns {
          let tile = grid.rect(column: column, row: row)
          let tw = tile.width
          tilePixels[row * columns + column].withUnsafeBufferPointer { tileBytes in
            for y in 0..<tile.height {
              (picture.baseAddress! + 4 * ((tile.y0 + y) * w + tile.x0)).initialize(from: tileBytes.baseAddress! + 4 * y * tw, count: 4 * tw)
            }
          }
        }
      }
      n = 4 * w * h
    }
    return Pixmap(width: w, height: h, bytes: bytes)
  }
}
