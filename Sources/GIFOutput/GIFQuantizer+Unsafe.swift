// The pointer loop of `GIFQuantizer.quantize`: every pixel of a frame, with
// the renderings of the colours seen so far and the candidates of the cells
// visited cached for the frame.
//
// Safe twin: `GIFQuantizer.referenceQuantize(_:)` in GIFQuantizer.swift,
// each pixel on its own through the pixmap's subscript, its rendering
// decided afresh. QuantizerTests compares the two index for index on random
// frames (opaque and transparent palettes, both threshold maps).
import Raster

extension GIFQuantizer {
  /// Bits of the direct-mapped cache of renderings (2¹⁶ entries: a UI
  /// frame's distinct colours, with few collisions).
  static let cacheBits: UInt32 = 16
  /// The cells of the 64-level grid over sRGB (`cell(of:)`): 64³.
  static let cellCount = 1 << 18
  /// Fibonacci hashing's multiplier, 2³² / φ: a key's top bits spread.
  static let hashMultiplier: UInt32 = 0x9E37_79B1

  /// `quantize(_:)`'s indices, row by row.
  func indices(of frame: Pixmap) -> [UInt8] {
    let width = frame.width, height = frame.height
    var indices = [UInt8](repeating: 0, count: width * height)
    guard width > 0 && height > 0 else { return indices }
    // A rendering per pixel value (key: the pixel, alpha forced opaque
    // without transparency; 0 is never a key that is looked up, as a
    // looked-up pixel is opaque or has alpha ≥ 128).
    var cachedKeys = [UInt32](repeating: 0, count: 1 << Self.cacheBits)
    var cachedRenderings = [UInt64](repeating: 0, count: 1 << Self.cacheBits)
    // Each 6-bit cell's candidates, found on first use (a count of 0: not yet).
    var cellCandidates = [Candidates](repeating: Candidates(repeating: 0), count: Self.cellCount)
    let transparent = transparentIndex != nil
    let clear = transparentIndex ?? 0
    frame.bytes.withUnsafeBytes { pixelBytes in
      let pixels = pixelBytes.assumingMemoryBound(to: UInt32.self)
      indices.withUnsafeMutableBufferPointer { indices in
        ranks.withUnsafeBufferPointer { ranks in
          cachedKeys.withUnsafeMutableBufferPointer { cachedKeys in
            cachedRenderings.withUnsafeMutableBufferPointer { cachedRenderings in
              var lastKey: UInt32 = 0, last: UInt64 = 0
              for y in 0..<height {
                let rankRow = (y & 63) << 6, row = y * width
                for x in 0..<width {
                  let value = UInt32(littleEndian: pixels[row + x])
                  if transparent && value >> 24 < 128 {
                    indices[row + x] = clear
                    continue
                  }
                  let key = transparent ? value : value | 0xFF00_0000
                  if key != lastKey {
                    let slot = Int((key &* Self.hashMultiplier) >> (32 - Self.cacheBits))
                    if cachedKeys[slot] == key {
                      last = cachedRenderings[slot]
                    } else {
                      let color = straightColor(key)!
                      if isExact(color) {
                        last = Self.single(exact[color]!)
                      } else {
                        let cell = Self.cell(of: color)
                        if cellCandidates[cell][0] == 0 { cellCandidates[cell] = nearestEntries(cell) }
                        last = decide(color, cellCandidates[cell])
                      }
                      cachedKeys[slot] = key; cachedRenderings[slot] = last
                    }
                    lastKey = key
                  }
                  guard Self.isMix(last) else {
                    indices[row + x] = Self.majority(last)
                    continue
                  }
                  let edge =
                    (x > 0 && makesEdge(value, UInt32(littleEndian: pixels[row + x - 1])))
                    || (x + 1 < width && makesEdge(value, UInt32(littleEndian: pixels[row + x + 1])))
                    || (y > 0 && makesEdge(value, UInt32(littleEndian: pixels[row + x - width])))
                    || (y + 1 < height && makesEdge(value, UInt32(littleEndian: pixels[row + x + width])))
                  indices[row + x] = edge ? Self.nearest(last) : Self.dithered(last, rank: ranks[rankRow | (x & 63)])
                }
              }
            }
          }
        }
      }
    }
    return indices
  }
}
