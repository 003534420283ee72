// The pointer loops of the RGB → Y′CbCr conversion: whole pixmaps into new
// planes, tiles into a `VideoPicture`'s planes in place.
//
// Safe twin: `YUVConverter.referenceBT709(_:)` in YUVConverter.swift, the
// same arithmetic (`luma`, `chroma`) pixel by pixel on arrays.
// YUVConverterTests compares the two byte for byte on random pictures of
// every parity, whole and tile by tile.
import Raster

extension YUVConverter {
  /// Where conversion writes: the three planes and the distance between
  /// their rows in bytes (the picture's width and half of it, or FFmpeg's
  /// padded line sizes).
  struct Planes {
    let lumaPlane, cbPlane, crPlane: UnsafeMutablePointer<UInt8>
    /// Luma and chroma row strides, bytes.
    let lumaStride, chromaStride: Int
  }

  /// `bt709(_:)`: the whole pixmap into new packed planes.
  static func convertWhole(_ frame: Pixmap) -> YUVFrame {
    let width = frame.width, height = frame.height
    let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
    let codedWidth = 2 * chromaWidth, codedHeight = 2 * chromaHeight
    // Every byte of the planes is written by `convertBlocks`.
    var lumaPlane = [UInt8](unsafeUninitializedCapacity: codedWidth * codedHeight) { $1 = codedWidth * codedHeight }
    var cbPlane = [UInt8](unsafeUninitializedCapacity: chromaWidth * chromaHeight) { $1 = chromaWidth * chromaHeight }
    var crPlane = [UInt8](unsafeUninitializedCapacity: chromaWidth * chromaHeight) { $1 = chromaWidth * chromaHeight }
    lumaPlane.withUnsafeMutableBufferPointer { luma in
      cbPlane.withUnsafeMutableBufferPointer { cb in
        crPlane.withUnsafeMutableBufferPointer { cr in
          let planes = Planes(
            lumaPlane: luma.baseAddress!, cbPlane: cb.baseAddress!, crPlane: cr.baseAddress!, lumaStride: codedWidth, chromaStride: chromaWidth)
          frame.bytes.withUnsafeBytes { pixelBytes in
            convertBlocks(
              pixelBytes.baseAddress!.assumingMemoryBound(to: UInt32.self), width: width, height: height, blocks: chromaWidth,
              blockRows: chromaHeight, into: planes)
          }
        }
      }
    }
    return YUVFrame(width: codedWidth, height: codedHeight, y: lumaPlane, u: cbPlane, v: crPlane)
  }

  /// A tile's premultiplied RGBA8 `pixels` (rows packed, `rect.width`
  /// pixels each) into `picture` at `rect`. The tile is a picture of its
  /// own: its chroma blocks include the padding at an odd right or bottom
  /// edge, which repeats the tile's last column or row, the frame's.
  static func convertTile(_ pixels: [UInt8], covering rect: PixelRect, into picture: VideoPicture) {
    precondition(rect.x0 % 2 == 0 && rect.y0 % 2 == 0 && pixels.count == 4 * rect.width * rect.height, "a tile starts at an even pixel")
    let planes = picture.planes
    let firstBlock = rect.x0 / 2, firstBlockRow = rect.y0 / 2
    precondition(
      (rect.x1 + 1) / 2 <= picture.width / 2 && (rect.y1 + 1) / 2 <= picture.height / 2, "the tile lies outside the picture")
    let origin = Planes(
      lumaPlane: planes.lumaPlane + 2 * firstBlockRow * planes.lumaStride + 2 * firstBlock,
      cbPlane: planes.cbPlane + firstBlockRow * planes.chromaStride + firstBlock,
      crPlane: planes.crPlane + firstBlockRow * planes.chromaStride + firstBlock,
      lumaStride: planes.lumaStride, chromaStride: planes.chromaStride)
    pixels.withUnsafeBytes { pixelBytes in
      convertBlocks(
        pixelBytes.baseAddress!.assumingMemoryBound(to: UInt32.self), width: rect.width, height: rect.height,
        blocks: (rect.width + 1) / 2, blockRows: (rect.height + 1) / 2, into: origin)
    }
  }

  /// Converts the first `blocks × blockRows` 2×2 blocks of a `width × height`
  /// picture of little-endian RGBA pixels: their four luma samples and one
  /// chroma sample each, into `planes` from their first row and column.
  /// A block past the last column or row repeats it (the padding).
  ///
  /// Eight columns (four blocks) at a time in vector lanes, then one block
  /// at a time with `luma` and `chroma`. The vector loop is written for
  /// SSE2 (baseline x86-64), whose only fast multiply into 32 bits is
  /// pmaddwd: the products of eight pairs of signed 16-bit lanes, added in
  /// pairs into four 32-bit lanes (`multiplyAdd`; LLVM also uses it, or
  /// pmullw and pmulhuw, for a 32-bit lane multiply whose factors fit 16
  /// bits). A pixel's 16-bit halves (little endian) are (R′ | G′ << 8,
  /// B′ | A << 8): masked, the pair (R′, B′), multiplied and added at once;
  /// G′ is taken from the whole pixel and multiplied alone. Luma's green
  /// coefficient (40254) does not fit 16 signed bits: it is applied as its
  /// half to twice G′. The sums are exactly those of `luma` and `chroma`.
  ///
  /// Measured (video benchmark, 1080p, best of 12): sixteen columns a step
  /// spilled registers (+20%); G′ as (G′, G′) pairs or chroma from
  /// (R′ − G′, B′ − G′) pairs let LLVM undo the pmaddwd (+5% to +30%).
  static func convertBlocks(
    _ sourcePixels: UnsafePointer<UInt32>, width: Int, height: Int, blocks: Int, blockRows: Int, into planes: Planes
  ) {
    precondition(lumaGreen % 2 == 0, "the vector loop's green split is exact")
    // Vectors of 8 lanes of 16 bits or 4 of 32 (4 pixels): one SSE2 register.
    typealias Group = (redBlue: SIMD8<UInt16>, green: SIMD4<Int32>)
    let redBlueMask = SIMD8<UInt16>(repeating: 0xFF), greenMask = SIMD4<UInt32>(repeating: 0xFF)
    let lumaRedBlue = pairs(lumaRed, lumaBlue), lumaBiases = SIMD4<Int32>(repeating: lumaBias)
    let cbRedBlue = pairs(cbRed, cbBlue), crRedBlue = pairs(crRed, crBlue)
    let chromaBiases = SIMD4<Int32>(repeating: chromaBias)
    /// Four pixels as (R′, B′) pairs of 16-bit lanes and G′ in 32-bit lanes.
    @inline(__always) func channels(_ pixels: UnsafePointer<UInt32>) -> Group {
      let halves = UnsafeRawPointer(pixels).loadUnaligned(as: SIMD8<UInt16>.self)
      let whole = UnsafeRawPointer(pixels).loadUnaligned(as: SIMD4<UInt32>.self)
      return (halves & redBlueMask, SIMD4<Int32>(truncatingIfNeeded: (whole &>> 8) & greenMask))
    }
    /// The luma of eight pixels given as two groups of four.
    @inline(__always) func lumaBytes(_ first: Group, _ second: Group) -> SIMD8<UInt8> {
      @inline(__always) func sums(_ group: Group) -> SIMD4<Int32> {
        multiplyAdd(group.redBlue, lumaRedBlue) &+ (lumaGreen / 2) &* (group.green &+ group.green) &+ lumaBiases
      }
      return SIMD8<UInt8>(truncatingIfNeeded: SIMD8<Int32>(lowHalf: sums(first), highHalf: sums(second)) &>> lumaShift)
    }
    /// Cb or Cr of four blocks from their eight columns' channels summed
    /// over the two rows, as two groups of four columns.
    @inline(__always) func chromaBytes(_ first: Group, _ second: Group, _ redBlueCoefficients: SIMD8<Int16>, _ greenCoefficient: Int32)
      -> SIMD4<UInt8>
    {
      @inline(__always) func columns(_ group: Group) -> SIMD4<Int32> {
        multiplyAdd(group.redBlue, redBlueCoefficients) &+ greenCoefficient &* group.green
      }
      let both = SIMD8<Int32>(lowHalf: columns(first), highHalf: columns(second))
      return SIMD4<UInt8>(truncatingIfNeeded: (both.evenHalf &+ both.oddHalf &+ chromaBiases) &>> chromaShift)
    }
    @inline(__always) func sum(_ top: Group, _ bottom: Group) -> Group {
      (top.redBlue &+ bottom.redBlue, top.green &+ bottom.green)
    }
    for blockRow in 0..<blockRows {
      let topRow = sourcePixels + 2 * blockRow * width
      let bottomRow = sourcePixels + min(2 * blockRow + 1, height - 1) * width
      let topLuma = planes.lumaPlane + 2 * blockRow * planes.lumaStride, bottomLuma = topLuma + planes.lumaStride
      let cbRow = planes.cbPlane + blockRow * planes.chromaStride, crRow = planes.crPlane + blockRow * planes.chromaStride
      var block = 0
      while block + 4 <= blocks && 2 * block + 8 <= width {
        let x = 2 * block
        let top = (channels(topRow + x), channels(topRow + x + 4))
        let bottom = (channels(bottomRow + x), channels(bottomRow + x + 4))
        UnsafeMutableRawPointer(topLuma + x).storeBytes(of: lumaBytes(top.0, top.1), as: SIMD8<UInt8>.self)
        UnsafeMutableRawPointer(bottomLuma + x).storeBytes(of: lumaBytes(bottom.0, bottom.1), as: SIMD8<UInt8>.self)
        let columns = (sum(top.0, bottom.0), sum(top.1, bottom.1))
        UnsafeMutableRawPointer(cbRow + block).storeBytes(of: chromaBytes(columns.0, columns.1, cbRedBlue, cbGreen), as: SIMD4<UInt8>.self)
        UnsafeMutableRawPointer(crRow + block).storeBytes(of: chromaBytes(columns.0, columns.1, crRedBlue, crGreen), as: SIMD4<UInt8>.self)
        block += 4
      }
      while block < blocks {
        // One block: columns left and right of the top and bottom rows (the
        // padding column repeats the last).
        let left = 2 * block, right = min(2 * block + 1, width - 1)
        var redSum: Int32 = 0, greenSum: Int32 = 0, blueSum: Int32 = 0
        @inline(__always) func convert(_ pixel: UInt32, into lumaSample: UnsafeMutablePointer<UInt8>) {
          let red = Int32(pixel & 0xFF), green = Int32(pixel >> 8 & 0xFF), blue = Int32(pixel >> 16 & 0xFF)
          lumaSample.pointee = luma(red: red, green: green, blue: blue)
          redSum &+= red; greenSum &+= green; blueSum &+= blue
        }
        convert(UInt32(littleEndian: topRow[left]), into: topLuma + left)
        convert(UInt32(littleEndian: topRow[right]), into: topLuma + left + 1)
        convert(UInt32(littleEndian: bottomRow[left]), into: bottomLuma + left)
        convert(UInt32(littleEndian: bottomRow[right]), into: bottomLuma + left + 1)
        (cbRow[block], crRow[block]) = chroma(redSum: redSum, greenSum: greenSum, blueSum: blueSum)
        block += 1
      }
    }
  }

  /// (first, second) repeated in 8 lanes; both fit 16 signed bits.
  @inline(__always) static func pairs(_ first: Int32, _ second: Int32) -> SIMD8<Int16> {
    let a = Int16(first), b = Int16(second)
    return SIMD8<Int16>(a, b, a, b, a, b, a, b)
  }

  /// Σ a·b over each pair of 16-bit lanes, in 32 bits: SSE2's pmaddwd
  /// (LLVM matches the even-plus-odd sum of widened products).
  @inline(__always) static func multiplyAdd(_ a: SIMD8<UInt16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    let products = SIMD8<Int32>(truncatingIfNeeded: SIMD8<Int16>(truncatingIfNeeded: a)) &* SIMD8<Int32>(truncatingIfNeeded: b)
    return products.evenHalf &+ products.oddHalf
  }
}
