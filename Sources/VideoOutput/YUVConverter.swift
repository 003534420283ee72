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
public enum YUVConverter {
  // BT.709 (ITU-R BT.709-6, item 3.2-3.3): Kr = 0.2126, Kb = 0.0722, applied
  // to the gamma-encoded (here sRGB-encoded) R′G′B′ as every encoder does.
  // Limited ("video", "tv", MPEG) range: Y′ = 16 + 219·E′y, C = 128 + 224·E′c.
  // Fixed point with 16 fractional bits; the chroma coefficients are applied
  // to the sum of a 2×2 block, so they are shifted by 2 more bits.
  private static let kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb
  private static let one = 65536.0
  private static func fixed(_ x: Double) -> Int32 { Int32((x * one).rounded()) }
  private static let yr = fixed(219 / 255 * kr), yg = fixed(219 / 255 * kg), yb = fixed(219 / 255 * kb)
  // Cb = (B′ − Y′) / (2 (1 − Kb)), Cr = (R′ − Y′) / (2 (1 − Kr)); the green
  // coefficient is chosen so each row sums to exactly zero (greys → 128).
  private static let ur = fixed(-224 / 255 * kr / (2 * (1 - kb))), ub = fixed(224 / 255 * 0.5)
  private static let ug = -(ur + ub)
  private static let vr = fixed(224 / 255 * 0.5), vb = fixed(-224 / 255 * kb / (2 * (1 - kr)))
  private static let vg = -(vr + vb)

  /// BT.709 limited-range 4:2:0 from a premultiplied sRGB pixmap.
  ///
  /// Video has no alpha: premultiplied colours are shown over black, which
  /// is to say the alpha byte is ignored. Luma is rounded per pixel; chroma
  /// is computed from the mean R′G′B′ of each 2×2 block (the same, since the
  /// transform is linear, as averaging the exact chroma of the four pixels),
  /// then rounded: chroma sited at the block's centre, which `MP4Writer` tags.
  /// An odd width or height is padded to even by repeating the last column
  /// or row, never scaled. Pure and thread-safe; about 2–4 ms for 1080p on
  /// one core.
  public static func bt709(_ frame: Pixmap) -> YUVFrame {
    precondition(frame.width > 0 && frame.height > 0, "empty pixmap")
    let w = frame.width, h = frame.height
    let cw = (w + 1) / 2, ch = (h + 1) / 2
    return makeFrame(width: w, height: h) { planes in
      frame.bytes.withUnsafeBytes { raw in
        convert(raw.baseAddress!.assumingMemoryBound(to: UInt32.self), width: w, height: h, blocks: 0..<cw, rows: 0..<ch, into: planes)
      }
    }
  }

  /// The conversion into a picture the encoder reads, in place, from a
  /// frame's tiles (never assembled into one picture): only the tiles that
  /// differ from what the picture shows are converted.
  public static func bt709(_ frame: RenderedFrame, into picture: VideoPicture) {
    precondition(frame.tileSize % 2 == 0, "odd tiles")
    precondition(
      picture.width == frame.width + (frame.width & 1) && picture.height == frame.height + (frame.height & 1), "picture and frame sizes differ")
    picture.use(tileSize: frame.tileSize, columns: frame.columns, rows: frame.rows)
    let planes = picture.planes
    for row in 0..<frame.rows {
      for column in 0..<frame.columns {
        let i = row * frame.columns + column
        frame.tilePixels[i].withUnsafeBytes { raw in
          convert(i, frame.tiles[i], frame.tileRect(column: column, row: row), raw, into: planes, held: &picture.tiles)
        }
      }
    }
  }

  /// One tile as it is drawn, into `picture` (unless it shows it already);
  /// the frame's conversion then skips it.
  public static func bt709(_ tile: DrawnTile, into picture: VideoPicture) {
    precondition(tile.rect.x0 % 2 == 0 && tile.rect.y0 % 2 == 0, "odd tiles")
    picture.use(tileSize: tile.tileSize, columns: tile.columns, rows: tile.rows)
    let planes = picture.planes
    tile.pixels.withUnsafeBytes { raw in
      convert(tile.index, tile.digest, tile.rect, raw, into: planes, held: &picture.tiles)
    }
  }

  /// Tile `i` (showing `digest`, its pixels `raw` over `rect`) into
  /// `planes`, unless `held` says they show it already.
  ///
  /// Converted tiles are not kept for later frames: a tile that changes
  /// and then stands still is converted again for each picture still
  /// showing its old samples (a few), which costs less than copying every
  /// converted tile aside in case it stands still (measured: −3.7% CPU
  /// end to end on the 1080p benchmark scene without such a cache).
  static func convert(_ i: Int, _ digest: Digest, _ rect: PixelRect, _ raw: UnsafeRawBufferPointer, into planes: Planes, held: inout [Digest?]) {
    if held[i] == digest { return }
    held[i] = digest
    // The tile's chroma blocks (a tile at an odd right or bottom edge
    // includes the padding) and the luma they cover. The tile is a picture
    // of its own: its last column or row is the frame's when it pads, so
    // the padding repeats the same pixels.
    let blocks = (rect.x0 / 2)..<((rect.x1 + 1) / 2), rows = (rect.y0 / 2)..<((rect.y1 + 1) / 2)
    let at = Planes(
      y: planes.y + 2 * rows.lowerBound * planes.width + 2 * blocks.lowerBound,
      u: planes.u + rows.lowerBound * planes.chromaWidth + blocks.lowerBound,
      v: planes.v + rows.lowerBound * planes.chromaWidth + blocks.lowerBound,
      width: planes.width, chromaWidth: planes.chromaWidth)
    convert(
      raw.baseAddress!.assumingMemoryBound(to: UInt32.self), width: rect.width, height: rect.height,
      blocks: 0..<blocks.count, rows: 0..<rows.count, into: at)
  }

  /// Where conversion writes: the three planes and the distance between
  /// their rows (the picture's width and half of it, or FFmpeg's padded
  /// line sizes).
  struct Planes {
    let y, u, v: UnsafeMutablePointer<UInt8>
    /// Luma and chroma row strides.
    let width, chromaWidth: Int
  }

  static func makeFrame(width w: Int, height h: Int, _ body: (Planes) -> Void) -> YUVFrame {
    let cw = (w + 1) / 2, ch = (h + 1) / 2
    let width = 2 * cw, height = 2 * ch
    // Every byte of the planes is written by `body`.
    var yPlane = [UInt8](unsafeUninitializedCapacity: width * height) { $1 = width * height }
    var uPlane = [UInt8](unsafeUninitializedCapacity: cw * ch) { $1 = cw * ch }
    var vPlane = [UInt8](unsafeUninitializedCapacity: cw * ch) { $1 = cw * ch }
    yPlane.withUnsafeMutableBufferPointer { yBuffer in
      uPlane.withUnsafeMutableBufferPointer { uBuffer in
        vPlane.withUnsafeMutableBufferPointer { vBuffer in
          body(Planes(y: yBuffer.baseAddress!, u: uBuffer.baseAddress!, v: vBuffer.baseAddress!, width: width, chromaWidth: cw))
        }
      }
    }
    return YUVFrame(width: width, height: height, y: yPlane, u: uPlane, v: vPlane)
  }

  /// Converts the 2×2 blocks `blocks × rows` (chroma columns and rows) of a
  /// `w × h` picture: their four luma samples and one chroma sample each.
  static func convert(_ pixels: UnsafePointer<UInt32>, width w: Int, height h: Int, blocks: Range<Int>, rows: Range<Int>, into planes: Planes) {
    let (yr, yg, yb) = (Self.yr, Self.yg, Self.yb)
    let (ur, ug, ub) = (Self.ur, Self.ug, Self.ub)
    let (vr, vg, vb) = (Self.vr, Self.vg, Self.vb)
    let yBias: Int32 = 16 << 16 + 1 << 15
    let cBias: Int32 = 128 << 18 + 1 << 17
    let width = planes.width, cw = planes.chromaWidth
    for j in rows {
      let row0 = pixels + 2 * j * w
      let row1 = pixels + min(2 * j + 1, h - 1) * w
      let y0 = planes.y + 2 * j * width, y1 = y0 + width
      let u = planes.u + j * cw, v = planes.v + j * cw
      // One 2×2 block: columns a and b (b == a for the padding column).
      @inline(__always) func block(_ i: Int, _ a: Int, _ b: Int) {
        let p0 = UInt32(littleEndian: row0[a]), p1 = UInt32(littleEndian: row0[b])
        let p2 = UInt32(littleEndian: row1[a]), p3 = UInt32(littleEndian: row1[b])
        let r0 = Int32(p0 & 0xFF), g0 = Int32(p0 >> 8 & 0xFF), b0 = Int32(p0 >> 16 & 0xFF)
        let r1 = Int32(p1 & 0xFF), g1 = Int32(p1 >> 8 & 0xFF), b1 = Int32(p1 >> 16 & 0xFF)
        let r2 = Int32(p2 & 0xFF), g2 = Int32(p2 >> 8 & 0xFF), b2 = Int32(p2 >> 16 & 0xFF)
        let r3 = Int32(p3 & 0xFF), g3 = Int32(p3 >> 8 & 0xFF), b3 = Int32(p3 >> 16 & 0xFF)
        y0[2 * i] = UInt8(truncatingIfNeeded: (yr &* r0 &+ yg &* g0 &+ yb &* b0 &+ yBias) >> 16)
        y0[2 * i + 1] = UInt8(truncatingIfNeeded: (yr &* r1 &+ yg &* g1 &+ yb &* b1 &+ yBias) >> 16)
        y1[2 * i] = UInt8(truncatingIfNeeded: (yr &* r2 &+ yg &* g2 &+ yb &* b2 &+ yBias) >> 16)
        y1[2 * i + 1] = UInt8(truncatingIfNeeded: (yr &* r3 &+ yg &* g3 &+ yb &* b3 &+ yBias) >> 16)
        let rs = r0 &+ r1 &+ r2 &+ r3, gs = g0 &+ g1 &+ g2 &+ g3, bs = b0 &+ b1 &+ b2 &+ b3
        u[i] = UInt8(truncatingIfNeeded: (ur &* rs &+ ug &* gs &+ ub &* bs &+ cBias) >> 18)
        v[i] = UInt8(truncatingIfNeeded: (vr &* rs &+ vg &* gs &+ vb &* bs &+ cBias) >> 18)
      }
      // Four blocks (eight columns) at a time in SIMD lanes, then the rest.
      var i = blocks.lowerBound
      while i + 4 <= blocks.upperBound && 2 * i + 8 <= w {
        let x = 2 * i
        let q0 = UnsafeRawPointer(row0 + x).loadUnaligned(as: SIMD8<UInt32>.self)
        let q1 = UnsafeRawPointer(row1 + x).loadUnaligned(as: SIMD8<UInt32>.self)
        let mask = SIMD8<UInt32>(repeating: 0xFF)
        let r0 = SIMD8<Int32>(truncatingIfNeeded: q0 & mask), g0 = SIMD8<Int32>(truncatingIfNeeded: (q0 &>> 8) & mask)
        let b0 = SIMD8<Int32>(truncatingIfNeeded: (q0 &>> 16) & mask)
        let r1 = SIMD8<Int32>(truncatingIfNeeded: q1 & mask), g1 = SIMD8<Int32>(truncatingIfNeeded: (q1 &>> 8) & mask)
        let b1 = SIMD8<Int32>(truncatingIfNeeded: (q1 &>> 16) & mask)
        let luma0 = (yr &* r0 &+ yg &* g0 &+ yb &* b0 &+ yBias) &>> 16
        let luma1 = (yr &* r1 &+ yg &* g1 &+ yb &* b1 &+ yBias) &>> 16
        UnsafeMutableRawPointer(y0 + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: luma0), as: SIMD8<UInt8>.self)
        UnsafeMutableRawPointer(y1 + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: luma1), as: SIMD8<UInt8>.self)
        let rv = r0 &+ r1, gv = g0 &+ g1, bv = b0 &+ b1
        let rs = rv.evenHalf &+ rv.oddHalf, gs = gv.evenHalf &+ gv.oddHalf, bs = bv.evenHalf &+ bv.oddHalf
        let cb = (ur &* rs &+ ug &* gs &+ ub &* bs &+ cBias) &>> 18
        let cr = (vr &* rs &+ vg &* gs &+ vb &* bs &+ cBias) &>> 18
        UnsafeMutableRawPointer(u + i).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: cb), as: SIMD4<UInt8>.self)
        UnsafeMutableRawPointer(v + i).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: cr), as: SIMD4<UInt8>.self)
        i += 4
      }
      while i < blocks.upperBound {
        block(i, 2 * i, min(2 * i + 1, w - 1))
        i += 1
      }
    }
  }
}
