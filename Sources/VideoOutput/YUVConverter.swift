import Raster

/// One picture in planar 8-bit Y′CbCr 4:2:0 (FFmpeg's yuv420p): a full-size
/// luma plane and two chroma planes of half the width and height, rows packed
/// with no padding, top row first.
public struct YUVFrame: Sendable, Hashable {
  /// The coded width: even (an odd picture is padded by one column).
  public let width: Int
  /// The coded height: even (an odd picture is padded by one row).
  public let height: Int
  /// `width × height` luma samples.
  public var y: [UInt8]
  /// `width/2 × height/2` Cb samples.
  public var u: [UInt8]
  /// `width/2 × height/2` Cr samples.
  public var v: [UInt8]

  /// Planes of the sizes above (checked).
  public init(width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8]) {
    precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "YUV 4:2:0 needs an even, positive size")
    precondition(y.count == width * height && u.count == width * height / 4 && v.count == u.count, "plane sizes do not match")
    self.width = width; self.height = height; self.y = y; self.u = u; self.v = v
  }
}

/// RGB → Y′CbCr for video.
///
/// The conversion's pointer loops are in YUVConverter+Unsafe.swift; this
/// file holds the public entry points, the arithmetic they share, and their
/// safe twin `referenceBT709(_:)`.
public enum YUVConverter {
  // BT.709 (ITU-R BT.709-6, item 3.2-3.3): Kr = 0.2126, Kb = 0.0722, applied
  // to the gamma-encoded (here sRGB-encoded) R′G′B′ as every encoder does.
  // Limited ("video", "tv", MPEG) range: Y′ = 16 + 219·E′y, C = 128 + 224·E′c.
  // Fixed point with 16 fractional bits; the chroma coefficients are applied
  // to the sum of a 2×2 block, so they are shifted by 2 more bits.
  //
  // The coefficients are literals, so that the vector loop multiplies by
  // known constants (x86's SSE2 has no 32-bit lane multiply; a constant that
  // fits 16 signed bits lets LLVM use pmaddwd). `coefficients` derives each
  // one from Kr and Kb, and a test checks the two agree.

  /// Luma: round(2¹⁶ · 219/255 · K) for Kr, Kg = 1 − Kr − Kb, Kb.
  static let lumaRed: Int32 = 11966, lumaGreen: Int32 = 40254, lumaBlue: Int32 = 4064
  /// Cb: round(2¹⁶ · 224/255 · (−Kr, ·, 1 − Kb) / (2 (1 − Kb))); the green
  /// coefficient is chosen so the three sum to exactly zero (greys → 128).
  static let cbRed: Int32 = -6596, cbGreen: Int32 = -22188, cbBlue: Int32 = 28784
  /// Cr: round(2¹⁶ · 224/255 · (1 − Kr, ·, −Kb) / (2 (1 − Kr))), green as for Cb.
  static let crRed: Int32 = 28784, crGreen: Int32 = -26145, crBlue: Int32 = -2639
  /// Luma's offset 16 and half a step (rounding), in 16 fractional bits.
  static let lumaBias: Int32 = 16 << lumaShift + 1 << (lumaShift - 1)
  /// Chroma's offset 128 and half a step, in 18 fractional bits (the
  /// coefficients' 16 and 2 for the sum of four pixels).
  static let chromaBias: Int32 = 128 << chromaShift + 1 << (chromaShift - 1)
  static let lumaShift: Int32 = 16, chromaShift: Int32 = 18

  /// The nine coefficients as BT.709 defines them (luma row, Cb row, Cr
  /// row; red, green, blue), computed in doubles and rounded: what the
  /// literals above must equal.
  static var coefficients: [[Int32]] {
    let kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb
    func fixed(_ x: Double) -> Int32 { Int32((x * 65536).rounded()) }
    let yr = fixed(219 / 255 * kr), yg = fixed(219 / 255 * kg), yb = fixed(219 / 255 * kb)
    let ur = fixed(-224 / 255 * kr / (2 * (1 - kb))), ub = fixed(224 / 255 * 0.5)
    let vr = fixed(224 / 255 * 0.5), vb = fixed(-224 / 255 * kb / (2 * (1 - kr)))
    return [[yr, yg, yb], [ur, -(ur + ub), ub], [vr, -(vr + vb), vb]]
  }

  /// Y′ of one pixel from its R′, G′, B′ bytes (0...255): a limited-range
  /// byte, 16...235.
  @inline(__always) static func luma(red: Int32, green: Int32, blue: Int32) -> UInt8 {
    UInt8(truncatingIfNeeded: (lumaRed &* red &+ lumaGreen &* green &+ lumaBlue &* blue &+ lumaBias) >> lumaShift)
  }

  /// Cb and Cr of a 2×2 block from the sums of its four pixels' R′, G′, B′
  /// bytes (each 0...1020): limited-range bytes, 16...240.
  @inline(__always) static func chroma(redSum: Int32, greenSum: Int32, blueSum: Int32) -> (cb: UInt8, cr: UInt8) {
    let cb = (cbRed &* redSum &+ cbGreen &* greenSum &+ cbBlue &* blueSum &+ chromaBias) >> chromaShift
    let cr = (crRed &* redSum &+ crGreen &* greenSum &+ crBlue &* blueSum &+ chromaBias) >> chromaShift
    return (UInt8(truncatingIfNeeded: cb), UInt8(truncatingIfNeeded: cr))
  }

  /// BT.709 limited-range 4:2:0 from a premultiplied sRGB pixmap.
  ///
  /// Video has no alpha: premultiplied colours are shown over black, which
  /// is to say the alpha byte is ignored. Luma is rounded per pixel; chroma
  /// is computed from the mean R′G′B′ of each 2×2 block (the same, since the
  /// transform is linear, as averaging the exact chroma of the four pixels),
  /// then rounded: chroma sited at the block's centre, which `MP4Writer` tags.
  /// An odd width or height is padded to even by repeating the last column
  /// or row, never scaled. Pure and thread-safe; about 1.2 ms for a 1080p
  /// frame not in cache, on one core (video-benchmark). The same bytes as
  /// `referenceBT709(_:)`.
  public static func bt709(_ frame: Pixmap) -> YUVFrame {
    precondition(frame.width > 0 && frame.height > 0, "empty pixmap")
    return convertWhole(frame)
  }

  /// The conversion into a picture the encoder reads, in place, from a
  /// frame's tiles (never assembled into one picture): only the tiles that
  /// differ from what the picture shows are converted.
  public static func bt709(_ frame: RenderedFrame, into picture: VideoPicture) {
    precondition(
      picture.width == frame.width + (frame.width & 1) && picture.height == frame.height + (frame.height & 1), "picture and frame sizes differ")
    picture.use(frame.grid)
    for row in 0..<frame.rows {
      for column in 0..<frame.columns {
        let i = row * frame.columns + column
        convert(tile: i, showing: frame.tiles[i], rect: frame.grid.rect(column: column, row: row), pixels: frame.tilePixels[i], into: picture)
      }
    }
  }

  /// One tile as it is drawn, into `picture` (unless it shows it already);
  /// the frame's conversion then skips it.
  public static func bt709(_ tile: DrawnTile, into picture: VideoPicture) {
    precondition(tile.rect.x0 % 2 == 0 && tile.rect.y0 % 2 == 0, "odd tiles")
    picture.use(tile.grid)
    convert(tile: tile.index, showing: tile.digest, rect: tile.rect, pixels: tile.pixels, into: picture)
  }

  /// Tile `index` (showing `digest`, its premultiplied RGBA8 `pixels` over
  /// `rect`, rows packed) into `picture`, unless the picture shows it already.
  ///
  /// Converted tiles are not kept for later frames: a tile that changes
  /// and then stands still is converted again for each picture still
  /// showing its old samples (a few), which costs less than copying every
  /// converted tile aside in case it stands still (measured: −3.7% CPU
  /// end to end on the 1080p benchmark scene without such a cache).
  static func convert(tile index: Int, showing digest: Digest, rect: PixelRect, pixels: [UInt8], into picture: VideoPicture) {
    if picture.tiles[index] == digest { return }
    picture.tiles[index] = digest
    convertTile(pixels, covering: rect, into: picture)
  }

  /// The safe twin of the conversion (`bt709(_:)` and the tiled conversion
  /// into a `VideoPicture`): the same arithmetic, pixel by pixel, through
  /// the pixmap's subscript. Slow; for tests.
  static func referenceBT709(_ frame: Pixmap) -> YUVFrame {
    precondition(frame.width > 0 && frame.height > 0, "empty pixmap")
    let chromaWidth = (frame.width + 1) / 2, chromaHeight = (frame.height + 1) / 2
    let width = 2 * chromaWidth, height = 2 * chromaHeight
    var lumaPlane = [UInt8](repeating: 0, count: width * height)
    var cbPlane = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
    var crPlane = cbPlane
    for blockRow in 0..<chromaHeight {
      for block in 0..<chromaWidth {
        var redSum: Int32 = 0, greenSum: Int32 = 0, blueSum: Int32 = 0
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
          let x = 2 * block + dx, y = 2 * blockRow + dy
          // The padding repeats the last column and row.
          let pixel = frame[min(x, frame.width - 1), min(y, frame.height - 1)]
          let red = Int32(pixel.r), green = Int32(pixel.g), blue = Int32(pixel.b)
          lumaPlane[y * width + x] = luma(red: red, green: green, blue: blue)
          redSum += red; greenSum += green; blueSum += blue
        }
        (cbPlane[blockRow * chromaWidth + block], crPlane[blockRow * chromaWidth + block]) = chroma(
          redSum: redSum, greenSum: greenSum, blueSum: blueSum)
      }
    }
    return YUVFrame(width: width, height: height, y: lumaPlane, u: cbPlane, v: crPlane)
  }
}
