// The pointer loops of `VideoPicture`: its planes in FFmpeg's frame memory
// (rows `linesize` apart), and the strided row copies in and out of them.
//
// Safe twin: `referenceCopyRows(from:stride:to:stride:width:height:)` in
// MP4Writer.swift, the same copy byte by byte on arrays. MP4WriterTests
// compares the two on random planes and strides, and round-trips random
// frames through a picture.
internal import CFFmpeg

extension VideoPicture {
  /// The planes, rows `linesize` apart, for `YUVConverter` to write.
  var planes: YUVConverter.Planes {
    let frame = frame!.pointee
    return YUVConverter.Planes(
      lumaPlane: frame.data.0!, cbPlane: frame.data.1!, crPlane: frame.data.2!, lumaStride: Int(frame.linesize.0),
      chromaStride: Int(frame.linesize.1))
  }

  /// A copy of the three planes, rows packed (`width` and `width / 2` bytes).
  func packedPlanes() -> (luma: [UInt8], cb: [UInt8], cr: [UInt8]) {
    let planes = self.planes
    func packed(_ planeRows: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) -> [UInt8] {
      [UInt8](unsafeUninitializedCapacity: width * height) { packedRows, initialized in
        copyRows(from: planeRows, stride: stride, to: packedRows.baseAddress!, stride: width, width: width, height: height)
        initialized = width * height
      }
    }
    return (
      packed(planes.lumaPlane, stride: planes.lumaStride, width: width, height: height),
      packed(planes.cbPlane, stride: planes.chromaStride, width: width / 2, height: height / 2),
      packed(planes.crPlane, stride: planes.chromaStride, width: width / 2, height: height / 2)
    )
  }

  /// Copies `yuv`'s packed planes in (the picture's size), forgetting what
  /// the tiles showed.
  func write(_ yuv: YUVFrame) {
    precondition(yuv.width == width && yuv.height == height, "frame and picture sizes differ")
    forgetTiles()
    let planes = self.planes
    func copy(_ packed: [UInt8], to planeRows: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
      packed.withUnsafeBufferPointer { packedRows in
        copyRows(from: packedRows.baseAddress!, stride: width, to: planeRows, stride: stride, width: width, height: height)
      }
    }
    copy(yuv.y, to: planes.lumaPlane, stride: planes.lumaStride, width: width, height: height)
    copy(yuv.u, to: planes.cbPlane, stride: planes.chromaStride, width: width / 2, height: height / 2)
    copy(yuv.v, to: planes.crPlane, stride: planes.chromaStride, width: width / 2, height: height / 2)
  }
}

/// Copies `height` rows of `width` bytes between planes whose rows lie
/// `stride` bytes apart (packed rows, or FFmpeg's padded line sizes).
func copyRows(
  from sourceRows: UnsafePointer<UInt8>, stride sourceStride: Int, to targetRows: UnsafeMutablePointer<UInt8>, stride targetStride: Int,
  width: Int, height: Int
) {
  for row in 0..<height { (targetRows + row * targetStride).update(from: sourceRows + row * sourceStride, count: width) }
}
