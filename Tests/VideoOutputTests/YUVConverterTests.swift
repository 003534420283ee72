import Raster
import Testing
import VideoOutput

/// BT.709 limited range, by hand (ITU-R BT.709-6 with Kr = 0.2126,
/// Kb = 0.0722 on the 8-bit gamma-encoded values; Y′ = 16 + 219 E′y,
/// Cb = 128 + 224 (B′ − Y′) / 1.8556, Cr = 128 + 224 (R′ − Y′) / 1.5748):
///   white  (255, 255, 255) → Y 235,    Cb 128,    Cr 128
///   black  (0, 0, 0)       → Y 16,     Cb 128,    Cr 128
///   red    (255, 0, 0)     → Y 62.56,  Cb 102.34, Cr 240
///   green  (0, 255, 0)     → Y 172.63, Cb 41.66,  Cr 26.27
///   blue   (0, 0, 255)     → Y 31.81,  Cb 240,    Cr 117.73
/// (BT.601's matrix would give red Y 81, Cb 90, Cr 240 and green Y 145,
/// Cb 54, Cr 34: a 601 conversion fails these at once.)
@Suite struct YUVConverterTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String, rgb: (UInt8, UInt8, UInt8), yuv: (UInt8, UInt8, UInt8)
    var testDescription: String { name }
  }
  static let primaries: [Case] = [
    Case(name: "white", rgb: (255, 255, 255), yuv: (235, 128, 128)),
    Case(name: "black", rgb: (0, 0, 0), yuv: (16, 128, 128)),
    Case(name: "red", rgb: (255, 0, 0), yuv: (63, 102, 240)),
    Case(name: "green", rgb: (0, 255, 0), yuv: (173, 42, 26)),
    Case(name: "blue", rgb: (0, 0, 255), yuv: (32, 240, 118)),
    // 50% grey (128): Y = 16 + 219 × 128/255 = 125.93.
    Case(name: "grey", rgb: (128, 128, 128), yuv: (126, 128, 128)),
  ]

  @Test(arguments: primaries)
  func solidColours(_ c: Case) {
    let frame = YUVConverter.bt709(pixmap(4, 4) { _, _ in c.rgb })
    #expect(frame.width == 4 && frame.height == 4)
    #expect(frame.y == [UInt8](repeating: c.yuv.0, count: 16))
    #expect(frame.u == [UInt8](repeating: c.yuv.1, count: 4))
    #expect(frame.v == [UInt8](repeating: c.yuv.2, count: 4))
  }

  /// Premultiplied pixels are shown over black: half-transparent red
  /// (128, 0, 0, 128) is the opaque colour (128, 0, 0):
  /// Y = 16 + 219 × 0.2126 × 128/255 = 39.37, Cb = 128 − 224 × 0.2126 × 128/255 / 1.8556 = 115.12,
  /// Cr = 128 + 224 × 0.7874 × 128/255 / 1.5748 = 184.22.
  @Test func alphaIsDropped() {
    let frame = YUVConverter.bt709(Pixmap(width: 2, height: 2, fill: RGBA8(r: 128, g: 0, b: 0, a: 128)))
    #expect(frame.y == [39, 39, 39, 39])
    #expect(frame.u == [115] && frame.v == [184])
  }

  /// Chroma is the average over each 2×2 block: two red and two blue pixels
  /// give Cb = (102.34 + 240) / 2 = 171.17 → 171 and Cr = (240 + 117.73) / 2
  /// = 178.87 → 179, while luma stays per pixel (63 and 32).
  @Test func chromaIsAveragedOver2x2() {
    let frame = YUVConverter.bt709(pixmap(2, 2) { x, y in (x + y) % 2 == 0 ? (255, 0, 0) : (0, 0, 255) })
    #expect(frame.y == [63, 32, 32, 63])
    #expect(frame.u == [171] && frame.v == [179])
  }

  /// Every value is the formula in doubles, rounded to nearest (up to the
  /// fixed point's 0.01 at ties), over many colours, in the SIMD and the
  /// scalar loop.
  @Test func matchesTheFormula() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
    let w = 70, h = 66  // 8 SIMD groups of 8 columns and 3 blocks after them per row
    let image = pixmap(w, h) { _, _ in (next(), next(), next()) }
    let frame = YUVConverter.bt709(image)
    var worst = 0.0
    for y in 0..<h {
      for x in 0..<w {
        let p = image[x, y]
        let luma = (0.2126 * Double(p.r) + 0.7152 * Double(p.g) + 0.0722 * Double(p.b)) / 255
        worst = max(worst, abs(Double(frame.y[y * w + x]) - (16 + 219 * luma)))
      }
    }
    for cy in 0..<(h / 2) {
      for cx in 0..<(w / 2) {
        var r = 0.0, g = 0.0, b = 0.0
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
          let p = image[2 * cx + dx, 2 * cy + dy]
          r += Double(p.r) / 1020; g += Double(p.g) / 1020; b += Double(p.b) / 1020
        }
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let cb = 128 + 224 * (b - luma) / 1.8556, cr = 128 + 224 * (r - luma) / 1.5748
        worst = max(worst, abs(Double(frame.u[cy * w / 2 + cx]) - cb), abs(Double(frame.v[cy * w / 2 + cx]) - cr))
      }
    }
    #expect(worst <= 0.51, "largest error \(worst)")
  }

  /// An odd 5×3 picture is padded to 6×4 by repeating its last column and row.
  @Test func oddSizesArePaddedNotScaled() {
    let image = pixmap(5, 3) { x, y in (UInt8(40 * x), UInt8(60 * y), 0) }
    let frame = YUVConverter.bt709(image)
    #expect(frame.width == 6 && frame.height == 4)
    let exact = YUVConverter.bt709(pixmap(6, 4) { x, y in (UInt8(40 * min(x, 4)), UInt8(60 * min(y, 2)), 0) })
    #expect(frame == exact)
    // The picture itself is untouched: each pixel's luma is its own.
    for y in 0..<3 {
      for x in 0..<5 {
        let p = image[x, y]
        let luma = 16 + 219 * (0.2126 * Double(p.r) + 0.7152 * Double(p.g) + 0.0722 * Double(p.b)) / 255
        #expect(abs(Double(frame.y[y * 6 + x]) - luma) <= 0.51)
      }
    }
  }
}

/// The tiled conversion into a picture the encoder reads converts only the
/// tiles that differ from what the picture shows; the picture must hold
/// exactly the whole-frame bytes.
@Suite struct TiledYUVTests {
  /// A frame of noise, cut into 64-pixel tiles whose digests are the
  /// tiles' contents (as `TileRenderer` guarantees).
  static func frame(width: Int, height: Int, seed: UInt64, changedTile: Int? = nil) -> RenderedFrame {
    var state = seed
    var p = Pixmap(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let v = UInt32(truncatingIfNeeded: state >> 32)
        p[x, y] = RGBA8(r: UInt8(v & 255), g: UInt8(v >> 8 & 255), b: UInt8(v >> 16 & 255), a: 255)
      }
    }
    // Tiles of 64 with a column and a row cut where a region would end
    // (a third of the way across, half way down): tiles of unequal sizes.
    let grid = TileGrid(width: width, height: height, size: 64, splits: ([width / 3], [height / 2]))
    var tiles: [Digest] = []
    for r in 0..<grid.rows {
      for c in 0..<grid.columns {
        var d = Digester()
        d.add(width); d.add(height); d.add(c); d.add(r)
        var rect = grid.rect(column: c, row: r)
        if r * grid.columns + c == changedTile {
          // This tile gets other pixels: a new digest.
          d.add(99)
          for y in rect.y0..<rect.y1 { for x in rect.x0..<rect.x1 { p[x, y] = RGBA8(r: 200, g: 10, b: UInt8(x & 255), a: 255) } }
        }
        rect = rect.intersection(PixelRect(width: width, height: height))
        for y in rect.y0..<rect.y1 { for x in rect.x0..<rect.x1 { d.add(Int(p[x, y].r) << 16 | Int(p[x, y].g) << 8 | Int(p[x, y].b)) } }
        tiles.append(d.digest)
      }
    }
    return RenderedFrame(pixmap: p, grid: grid, tiles: tiles)
  }

  /// `frame`'s digests over other pixels (zeros) for every tile but
  /// `keep`: a conversion that used any of those pixels would show it.
  static func blanked(_ frame: RenderedFrame, keeping keep: Set<Int> = []) -> RenderedFrame {
    RenderedFrame(
      grid: frame.grid, tiles: frame.tiles,
      tilePixels: frame.tilePixels.enumerated().map { keep.contains($0.offset) ? $0.element : [UInt8](repeating: 0, count: $0.element.count) })
  }

  @Test(arguments: [(200, 130), (131, 67), (64, 64), (1, 1)])
  func aPictureConvertedInPlaceHoldsTheWholeFrame(width: Int, height: Int) throws {
    let picture = try VideoPicture(width: width + width % 2, height: height + height % 2)
    let first = Self.frame(width: width, height: height, seed: 3)
    let second = Self.frame(width: width, height: height, seed: 3, changedTile: 0)
    let other = Self.frame(width: width, height: height, seed: 8)
    for frame in [first, second, first, other, second, second] {
      YUVConverter.bt709(frame, into: picture)
      #expect(picture.samples == YUVConverter.bt709(frame.pixmap))
    }
  }

  @Test(arguments: [(200, 130), (131, 67)])
  func onlyTheTilesThatDifferAreConverted(width: Int, height: Int) throws {
    // The picture shows the first frame; the second differs in tile 0 only,
    // and its other tiles' pixels are blanked: they must not be read.
    let picture = try VideoPicture(width: width + width % 2, height: height + height % 2)
    YUVConverter.bt709(Self.frame(width: width, height: height, seed: 3), into: picture)
    let second = Self.frame(width: width, height: height, seed: 3, changedTile: 0)
    YUVConverter.bt709(Self.blanked(second, keeping: [0]), into: picture)
    #expect(picture.samples == YUVConverter.bt709(second.pixmap))
  }

  /// Tiles converted into the picture as they are drawn (as the pipeline
  /// does, while they are still in the core's caches) leave the frame's
  /// conversion nothing to do (it reads none of its pixels), and the picture
  /// holds the frame's bytes exactly, padding included at odd edges.
  @Test(arguments: [(200, 130), (131, 67), (1, 1)])
  func tilesConvertedAsDrawnAreTheWholeFrame(width: Int, height: Int) throws {
    let picture = try VideoPicture(width: width + width % 2, height: height + height % 2)
    for (seed, changed) in [(5 as UInt64, nil as Int?), (5, 0), (9, nil)] {
      let frame = Self.frame(width: width, height: height, seed: seed, changedTile: changed)
      for row in 0..<frame.rows {
        for column in 0..<frame.columns {
          let i = row * frame.columns + column
          let tile = DrawnTile(index: i, grid: frame.grid, digest: frame.tiles[i], pixels: frame.tilePixels[i])
          YUVConverter.bt709(tile, into: picture)
        }
      }
      YUVConverter.bt709(Self.blanked(frame), into: picture)
      #expect(picture.samples == YUVConverter.bt709(frame.pixmap))
    }
  }
}
