// The pointer loop of the palette's histogram: every row of a sample frame
// cut into runs of equal pixels.
//
// Safe twin: `Histogram.referenceAdd(_:)` in GIFPalette.swift, the rows
// read through the pixmap's subscript. PaletteTests compares the two
// histograms (colours, counts, interiors, overflow bins) on random frames.
import Raster

extension Histogram {
  /// Counts the colours of `pixmap`, run by run (`count(run:length:interior:)`).
  mutating func add(_ pixmap: Pixmap) {
    let width = pixmap.width, height = pixmap.height
    guard width > 0 && height > 0 else { return }
    pixmap.bytes.withUnsafeBytes { pixelBytes in
      let pixels = pixelBytes.assumingMemoryBound(to: UInt32.self)
      for y in 0..<height {
        let row = y * width, above = row - width
        var x = 0
        while x < width {
          let value = pixels[row + x]
          var end = x + 1
          while end < width && pixels[row + end] == value { end += 1 }
          var interior = 0
          if y > 0 {
            for pixel in (x + 1)..<max(x + 1, end) where pixels[above + pixel] == value { interior += 1 }
          }
          count(run: UInt32(littleEndian: value), length: end - x, interior: interior)
          x = end
        }
      }
    }
  }
}
