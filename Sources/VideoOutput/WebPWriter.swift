internal import CWebP
import Glibc
import Raster

/// How `WebPWriter` encodes.
public struct WebPOptions: Sendable, Hashable {
  /// nil: lossless (the pixels exactly, colour under full transparency
  /// aside); 0…100: lossy at that quality.
  public var quality: Double?
  /// libwebp's effort, 0 (fast) … 6 (small).
  public var method: Int = 4
  /// libwebp's second thread (`thread_level`), which analyses a lossy
  /// frame's two halves at once: the same bytes (WebPWriterTests), a
  /// lossy encode 12% sooner on two cores.
  public var threaded: Bool = true

  public init(quality: Double? = nil, method: Int = 4, threaded: Bool = true) {
    self.quality = quality
    self.method = method
    self.threaded = threaded
  }
}

/// An animated WebP through libwebp's `WebPAnimEncoder`: each frame given
/// with its start in milliseconds, the encoder left to find what changed
/// from the frame before (sub-frames, blending) and, for lossy frames,
/// whether a key frame is smaller; loops forever. The file is assembled in
/// memory by `finish` and written to `path` at once.
///
/// Use from one thread: `append` frames in order, then `finish`.
public final class WebPWriter {
  public let path: String
  public let width: Int, height: Int
  public let options: WebPOptions
  public private(set) var frameCount = 0
  private var encoder: OpaquePointer?
  private var config = WebPConfig()

  public init(path: String, width: Int, height: Int, options: WebPOptions) throws(VideoError) {
    self.path = path
    self.width = width
    self.height = height
    self.options = options
    guard width > 0, height > 0, width <= 16383, height <= 16383 else {
      throw VideoError(path: path, message: "a WebP is at most 16383 pixels a side, not \(width)×\(height)")
    }
    var animation = WebPAnimEncoderOptions()
    guard WebPAnimEncoderOptionsInit(&animation) != 0, WebPConfigInit(&config) != 0 else {
      throw VideoError(path: path, message: "libwebp's version does not match its headers")
    }
    animation.anim_params.loop_count = 0
    // Key frames as libwebp chooses them (its defaults), never forced.
    animation.allow_mixed = 0
    if let quality = options.quality {
      config.lossless = 0
      config.quality = Float(min(max(quality, 0), 100))
      // Sharper RGB → YUV: edges between saturated colours keep their hue.
      config.use_sharp_yuv = 1
    } else {
      config.lossless = 1
      config.quality = 75
    }
    config.method = Int32(min(max(options.method, 0), 6))
    config.thread_level = options.threaded ? 1 : 0
    guard WebPValidateConfig(&config) != 0 else { throw VideoError(path: path, message: "invalid WebP settings") }
    encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animation)
    guard encoder != nil else { throw VideoError(path: path, message: "cannot create libwebp's animation encoder") }
  }

  /// Adds a frame: `straight` holds its pixels as RGBA with straight alpha,
  /// rows packed (`Pixmap.straightened`); it shows from `milliseconds`.
  public func append(straight: [UInt8], milliseconds: Int) throws(VideoError) {
    guard let encoder else { throw VideoError(path: path, message: "the WebP is already finished") }
    guard straight.count == 4 * width * height else {
      throw VideoError(path: path, message: "frame has \(straight.count / 4) pixels, the WebP \(width)×\(height)")
    }
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else { throw VideoError(path: path, message: "libwebp's version does not match its headers") }
    defer { WebPPictureFree(&picture) }
    picture.use_argb = 1
    picture.width = Int32(width)
    picture.height = Int32(height)
    let imported = straight.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(4 * width)) }
    guard imported != 0 else { throw VideoError(path: path, message: "out of memory for a \(width)×\(height) frame") }
    guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: milliseconds), &config) != 0 else {
      throw VideoError(path: path, message: "cannot encode frame \(frameCount): " + String(cString: WebPAnimEncoderGetError(encoder)))
    }
    frameCount += 1
  }

  /// Ends the last frame at `milliseconds`, assembles the file and writes it.
  public func finish(endingAt milliseconds: Int) throws(VideoError) {
    guard let encoder else { throw VideoError(path: path, message: "the WebP is already finished") }
    defer {
      WebPAnimEncoderDelete(encoder)
      self.encoder = nil
    }
    guard frameCount > 0 else { throw VideoError(path: path, message: "no frames to write") }
    guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: milliseconds), nil) != 0 else {
      throw VideoError(path: path, message: "cannot end the animation: " + String(cString: WebPAnimEncoderGetError(encoder)))
    }
    var data = WebPData()
    WebPDataInit(&data)
    defer { WebPDataClear(&data) }
    guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
      throw VideoError(path: path, message: "cannot assemble the WebP: " + String(cString: WebPAnimEncoderGetError(encoder)))
    }
    guard let file = fopen(path, "wb") else { throw VideoError(path: path, message: "cannot open for writing") }
    let written = fwrite(bytes, 1, data.size, file)
    let closed = fclose(file)
    guard written == data.size, closed == 0 else { throw VideoError(path: path, message: "cannot write the file") }
  }

  deinit { if let encoder { WebPAnimEncoderDelete(encoder) } }
}
