import Primitives
import Raster
import Testing

@testable import VideoOutput

/// Each pointer loop of VideoOutput (the +Unsafe.swift files) against its
/// safe twin on random inputs from a seeded generator: byte for byte, since
/// every one is exact integer arithmetic or a copy.
@Suite struct UnsafeTwinTests {
  /// A pixmap of random bytes: uniform, or (one pixel in four) every
  /// channel 0 or 255, so the sums reach their extremes.
  static func randomPixmap(width: Int, height: Int, using random: inout SplitMix64) -> Pixmap {
    var bytes = [UInt8](repeating: 0, count: 4 * width * height)
    for pixel in 0..<(width * height) {
      let value = random.next()
      let extreme = value & 3 == 0
      for channel in 0..<4 {
        let byte = UInt8(truncatingIfNeeded: value >> (8 + 8 * UInt64(channel)))
        bytes[4 * pixel + channel] = extreme ? (byte & 1 == 0 ? 0 : 255) : byte
      }
    }
    return Pixmap(width: width, height: height, bytes: bytes)
  }

  /// Sizes around the vector loop's 8 columns and the scalar tail: every
  /// width 1...40, odd and even heights, and a few large ones.
  static let sizes: [(Int, Int)] = (1...40).map { ($0, 1 + $0 % 7) } + [(1, 1), (2, 2), (1920 / 4, 6), (250, 3), (33, 33), (64, 17)]

  @Test func theCoefficientsAreBT709s() {
    let literals: [[Int32]] = [
      [YUVConverter.lumaRed, YUVConverter.lumaGreen, YUVConverter.lumaBlue],
      [YUVConverter.cbRed, YUVConverter.cbGreen, YUVConverter.cbBlue],
      [YUVConverter.crRed, YUVConverter.crGreen, YUVConverter.crBlue],
    ]
    #expect(literals == YUVConverter.coefficients)
  }

  @Test func wholePicturesMatchTheSafeTwin() {
    var random = SplitMix64(seed: 709)
    for (width, height) in Self.sizes {
      let image = Self.randomPixmap(width: width, height: height, using: &random)
      #expect(YUVConverter.bt709(image) == YUVConverter.referenceBT709(image), "\(width)×\(height)")
    }
  }

  /// Tiles of random even sizes, converted into a picture as they are drawn
  /// (at offsets where the vector loop's columns fall anywhere in a row of
  /// FFmpeg's padded planes): the picture holds the twin's bytes.
  @Test func tilesMatchTheSafeTwin() throws {
    var random = SplitMix64(seed: 420)
    for (width, height) in [(37, 21), (200, 130), (131, 67), (18, 3), (1, 1)] {
      let picture = try VideoPicture(width: width + width % 2, height: height + height % 2)
      for _ in 0..<3 {
        let tileSize = 2 * Int(1 + random.next() % 40)
        let image = Self.randomPixmap(width: width, height: height, using: &random)
        let columns = (width + tileSize - 1) / tileSize, rows = (height + tileSize - 1) / tileSize
        // Random digests: every tile differs from what the picture shows.
        let digests = (0..<(columns * rows)).map { _ in
          var digester = Digester()
          digester.add(Int(truncatingIfNeeded: random.next()))
          return digester.digest
        }
        let frame = RenderedFrame(pixmap: image, tileSize: .squares(tileSize), tiles: digests)
        YUVConverter.bt709(frame, into: picture)
        #expect(picture.samples == YUVConverter.referenceBT709(image), "\(width)×\(height) in tiles of \(tileSize)")
      }
    }
  }

  @Test func stridedRowCopiesMatchTheSafeTwin() {
    var random = SplitMix64(seed: 64)
    for _ in 0..<200 {
      let width = Int(random.next() % 40), height = Int(random.next() % 12)
      let sourceStride = width + Int(random.next() % 9), targetStride = width + Int(random.next() % 9)
      let source = (0..<(sourceStride * height)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let filler = (0..<(targetStride * height)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      var expected = filler, copied = filler
      referenceCopyRows(from: source, stride: sourceStride, to: &expected, stride: targetStride, width: width, height: height)
      source.withUnsafeBufferPointer { sourceRows in
        copied.withUnsafeMutableBufferPointer { targetRows in
          guard let sourceStart = sourceRows.baseAddress, let targetStart = targetRows.baseAddress else { return }
          copyRows(from: sourceStart, stride: sourceStride, to: targetStart, stride: targetStride, width: width, height: height)
        }
      }
      #expect(copied == expected, "\(width)×\(height), strides \(sourceStride) and \(targetStride)")
    }
  }

  /// A frame written into a picture (FFmpeg's padded planes) reads back the same.
  @Test func framesRoundTripThroughAPicture() throws {
    var random = SplitMix64(seed: 2)
    for (width, height) in [(2, 2), (34, 6), (160, 90), (94, 2)] {
      let picture = try VideoPicture(width: width, height: height)
      func plane(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
      let frame = YUVFrame(width: width, height: height, y: plane(width * height), u: plane(width * height / 4), v: plane(width * height / 4))
      picture.write(frame)
      #expect(picture.samples == frame)
    }
  }

  @Test func packedDecodedRowsMatchTheSafeTwin() {
    var random = SplitMix64(seed: 3)
    for _ in 0..<100 {
      let width = Int(1 + random.next() % 30), height = Int(1 + random.next() % 8)
      let stride = 4 * width + Int(random.next() % 33)
      // Alpha 0 for about a third of the pixels.
      let rows = (0..<(stride * height)).map { i in
        let byte = UInt8(truncatingIfNeeded: random.next())
        return i % 4 == 3 && byte % 3 == 0 ? 0 : byte
      }
      let packed = rows.withUnsafeBufferPointer { MediaProbe.packedRGBA(rows: $0.baseAddress!, stride: stride, width: width, height: height) }
      #expect(packed == MediaProbe.referencePackedRGBA(rows: rows, stride: stride, width: width, height: height))
    }
  }
}
