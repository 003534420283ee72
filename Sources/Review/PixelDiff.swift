import Primitives
import Raster

/// How two frames of the same size differ, as `render diff` counts it: the
/// pixels whose largest channel difference (premultiplied RGBA, 0…255)
/// exceeds a threshold, and the largest difference of any channel.
public struct PixelDiff: Sendable, Hashable {
  public var pixels: Int
  public var maxLevel: Int

  public init(pixels: Int, maxLevel: Int) { self.pixels = pixels; self.maxLevel = maxLevel }

  /// Compares two rendered frames tile by tile: tiles with the same digest
  /// show the same pixels and are skipped; the others are counted.
  public init(_ a: RenderedFrame, _ b: RenderedFrame, threshold: Int) {
    precondition(a.grid == b.grid, "frames of one size")
    var total = PixelDiff(pixels: 0, maxLevel: 0)
    for k in a.tiles.indices where a.tiles[k] != b.tiles[k] {
      let d = Self.count(a.tilePixels[k], b.tilePixels[k], threshold: threshold)
      total.pixels += d.pixels
      total.maxLevel = max(total.maxLevel, d.maxLevel)
    }
    self = total
  }

  /// Compares two pictures of the same size pixel by pixel.
  public init(_ a: Pixmap, _ b: Pixmap, threshold: Int) {
    precondition(a.width == b.width && a.height == b.height, "pictures of one size")
    self = Self.count(a.bytes, b.bytes, threshold: threshold)
  }

  /// The largest channel difference of the pixel at byte `i`.
  static func level(_ x: [UInt8], _ y: [UInt8], _ i: Int) -> Int {
    var d = 0
    for c in 0..<4 {
      let e = Int(x[i + c]) - Int(y[i + c])
      d = max(d, e < 0 ? -e : e)
    }
    return d
  }

  /// Safe twin of `count` (PixelDiff+Unsafe.swift): the same, byte by byte
  /// on the arrays (PixelDiffTests compares them).
  static func referenceCount(_ x: [UInt8], _ y: [UInt8], threshold: Int) -> PixelDiff {
    var pixels = 0, maxLevel = 0
    var i = 0
    while i < x.count {
      let d = level(x, y, i)
      if d > threshold { pixels += 1 }
      maxLevel = max(maxLevel, d)
      i += 4
    }
    return PixelDiff(pixels: pixels, maxLevel: maxLevel)
  }

  /// A heat map of the difference: A dimmed to a grey ghost where the
  /// frames agree (within `threshold`), and where they differ yellow
  /// shading to red as the difference grows to its largest.
  public static func heatMap(_ a: Pixmap, _ b: Pixmap, threshold: Int) -> Pixmap {
    let x = a.bytes, y = b.bytes
    var o = [UInt8](repeating: 255, count: x.count)
    var i = 0
    while i < x.count {
      let d = level(x, y, i)
      if d > threshold {
        // Yellow (small) to red (large).
        let f = min(1.0, Double(d) / 128)
        o[i + 1] = UInt8((220 * (1 - f)).rounded())
        o[i + 2] = 0
      } else {
        // A's light, dimmed to a third over a dark grey.
        let luma = (Int(x[i]) * 54 + Int(x[i + 1]) * 183 + Int(x[i + 2]) * 19) >> 8
        let g = UInt8(40 + luma / 3)
        o[i] = g
        o[i + 1] = g
        o[i + 2] = g
      }
      i += 4
    }
    return Pixmap(width: a.width, height: a.height, bytes: o)
  }

  /// A, B and their heat map side by side (each at the frames' size), over
  /// white where a frame is transparent.
  public static func sideBySide(_ a: Pixmap, _ b: Pixmap, threshold: Int) -> Pixmap {
    let w = a.width, h = a.height
    let canvas = Canvas(width: 3 * w, height: h, background: Color.white.premultiplied)
    canvas.drawImage(a, transform: .identity)
    canvas.drawImage(b, transform: .translation(Double(w), 0))
    canvas.drawImage(heatMap(a, b, threshold: threshold), transform: .translation(Double(2 * w), 0))
    return canvas.pixmap
  }
}
