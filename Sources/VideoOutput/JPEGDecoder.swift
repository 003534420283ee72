internal import CFFmpeg
internal import CFFmpegShim
import Raster

/// JPEG pictures (a Lottie animation's embedded photographs) decoded by
/// FFmpeg's MJPEG decoder, bit-exact, converted to RGBA by libswscale's
/// bit-exact C code: the same pixels on every machine.
public enum JPEGDecoder {
  /// The most pixels a picture may have (as PNG's reader allows).
  public static let maxPixelCount = 1 << 28

  public static func decode(_ bytes: [UInt8], name: String) throws(VideoError) -> Pixmap {
    try FFmpeg.load(name)
    FFmpeg.beginCapture()
    var pixels: UnsafeMutablePointer<UInt8>?
    var width: Int32 = 0, height: Int32 = 0
    let status = bytes.withUnsafeBufferPointer {
      spf_decode_jpeg($0.baseAddress, $0.count, Int64(maxPixelCount), &pixels, &width, &height)
    }
    guard status == 0, let pixels else { throw FFmpeg.error(name, "cannot decode the JPEG picture", status) }
    defer { spf_free(pixels) }
    let count = Int(width) * Int(height) * 4
    return Pixmap(width: Int(width), height: Int(height), bytes: Array(UnsafeBufferPointer(start: pixels, count: count)))
  }
}
