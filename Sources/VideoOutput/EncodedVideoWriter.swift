internal import CFFmpeg
internal import CFFmpegShim
import Raster
import Synchronization

/// What an `EncodedVideoWriter` writes: a container, a codec and the
/// pixel format it encodes, with their options. One value per output
/// format (`.proRes4444`, `.vp9(alpha:)`, `.apng`).
public struct VideoProfile: Sendable, Hashable {
  /// The pixel formats the writer converts to.
  public enum PixelFormat: String, Sendable, Hashable {
    /// 10-bit Y′CbCr 4:4:4 with a 10-bit alpha plane, BT.709, limited range.
    case yuva444p10le
    /// 8-bit Y′CbCr 4:2:0 with an alpha plane, BT.709, limited range.
    case yuva420p
    /// 8-bit Y′CbCr 4:2:0, BT.709, limited range.
    case yuv420p
    /// 8-bit RGBA, straight alpha.
    case rgba
    /// 8-bit RGB.
    case rgb24

    var av: AVPixelFormat {
      switch self {
      case .yuva444p10le: AV_PIX_FMT_YUVA444P10LE
      case .yuva420p: AV_PIX_FMT_YUVA420P
      case .yuv420p: AV_PIX_FMT_YUV420P
      case .rgba: AV_PIX_FMT_RGBA
      case .rgb24: AV_PIX_FMT_RGB24
      }
    }

    var isYUV: Bool { self != .rgba && self != .rgb24 }
  }

  /// FFmpeg's muxer: "mov", "webm", "apng".
  public var muxer: String
  /// FFmpeg's encoder: "prores_ks", "libvpx-vp9", "apng".
  public var codec: String
  public var pixelFormat: PixelFormat
  /// The encoder's private options, in order.
  public var codecOptions: [String: String]
  public var muxerOptions: [String: String]
  /// The container's four-character code for the stream, if it needs one.
  public var codecTag: String?
  /// Encoder threads: fixed, so that the bytes do not depend on the machine.
  public var threads: Int

  /// ProRes 4444 (`ap4h`) in QuickTime, 10-bit 4:4:4 with alpha (straight),
  /// BT.709, as Final Cut, Motion and Keynote take it.
  public static let proRes4444 = VideoProfile(
    muxer: "mov", codec: "prores_ks", pixelFormat: .yuva444p10le,
    codecOptions: ["profile": "4444", "alpha_bits": "16", "vendor": "apl0"], muxerOptions: [:], codecTag: "ap4h", threads: 2)

  /// VP9 in WebM for browsers, with an alpha channel (`yuva420p`) when the
  /// scene is transparent. Constant quality (CRF 24, no bitrate cap),
  /// `good` deadline at speed 2, two tile columns.
  public static func vp9(alpha: Bool) -> VideoProfile {
    VideoProfile(
      muxer: "webm", codec: "libvpx-vp9", pixelFormat: alpha ? .yuva420p : .yuv420p,
      codecOptions: ["crf": "24", "deadline": "good", "cpu-used": "2", "row-mt": "0", "tile-columns": "1", "auto-alt-ref": "1"],
      muxerOptions: [:], codecTag: nil, threads: 2)
  }

  /// Animated PNG: lossless, RGBA when the scene is transparent, else RGB;
  /// FFmpeg's own filtering; loops forever.
  public static func apng(alpha: Bool) -> VideoProfile {
    VideoProfile(
      muxer: "apng", codec: "apng", pixelFormat: alpha ? .rgba : .rgb24, codecOptions: [:], muxerOptions: ["plays": "0"], codecTag: nil, threads: 1)
  }
}

/// Writes frames (premultiplied RGBA pixmaps) with one of FFmpeg's encoders
/// into one of its containers, as a `VideoProfile` says: each frame's
/// colours straightened (unpremultiplied), then converted by libswscale in
/// its bit-exact C code (the same bytes on every machine), BT.709 and
/// limited range for Y′CbCr, tagged so; the exact frame rate (time base
/// 1/fps, each packet one frame long); no encoder version or time in the
/// container.
///
/// Use from one thread: `append` frames in order, then `finish`. A writer
/// dropped without `finish` leaves an incomplete file, which the caller
/// (writing to a temporary path) deletes.
public final class EncodedVideoWriter {
  public let path: String
  public let width: Int, height: Int
  public let profile: VideoProfile

  private let maker: VideoFrameMaker
  private let session: EncoderSession
  public var frameCount: Int { session.frameCount }

  public init(path: String, width: Int, height: Int, fps: (num: Int, den: Int), profile: VideoProfile) throws(VideoError) {
    self.path = path
    self.width = width
    self.height = height
    self.profile = profile
    maker = VideoFrameMaker(width: width, height: height, pixelFormat: profile.pixelFormat, path: path)
    session = try EncoderSession(
      path: path, fps: fps,
      setup: EncoderSetup(
        muxer: profile.muxer, container: profile.muxer, codec: profile.codec, encoderName: profile.codec, width: width, height: height,
        pixelFormat: profile.pixelFormat.av, bt709: profile.pixelFormat.isYUV, chromaLocation: nil, threads: profile.threads,
        keyframeInterval: nil, codecTag: profile.codecTag, muxerOptions: profile.muxerOptions.map { ($0.key, $0.value) },
        configure: { encoder, check throws(VideoError) in
          for (key, value) in profile.codecOptions.sorted(by: { $0.key < $1.key }) {
            try check(av_opt_set(encoder.pointee.priv_data, key, value, 0), "cannot set the \(profile.codec) option \(key)=\(value)")
          }
        }, openFailure: "cannot open the \(profile.codec) encoder"))
  }

  /// Converts frames for this writer, from any thread.
  public var frameMaker: VideoFrameMaker { maker }

  /// Encodes the next frame: `straight` holds its pixels as RGBA with
  /// straight (not premultiplied) alpha, rows packed (`Pixmap.straightened`).
  public func append(straight: [UInt8]) throws(VideoError) {
    try append(try maker.frame(straight))
  }

  /// Encodes the next frame, converted by `frameMaker` (on any thread).
  public func append(_ converted: VideoFrame) throws(VideoError) {
    guard let frame = converted.frame else { throw VideoError(path: path, message: "the video is already finished") }
    try session.send(frame)
  }

  /// Flushes the encoder, writes the trailer and closes the file. The
  /// writer is unusable afterwards, also if this fails.
  public func finish() throws(VideoError) { try session.finish() }
}

/// A frame converted for a writer's encoder (its pixel format, BT.709),
/// in FFmpeg's own memory.
public final class VideoFrame: @unchecked Sendable {
  var frame: UnsafeMutablePointer<AVFrame>?
  init(_ frame: UnsafeMutablePointer<AVFrame>) { self.frame = frame }
  deinit { av_frame_free(&frame) }
}

/// Converts straight RGBA into a writer's pixel format, on any thread
/// (each conversion takes a libswscale context of its own from a pool):
/// the workers convert while the encoder encodes.
public final class VideoFrameMaker: @unchecked Sendable {
  let width: Int, height: Int
  let pixelFormat: VideoProfile.PixelFormat
  let path: String
  /// A libswscale context, used by one conversion at a time.
  struct Scaler: @unchecked Sendable { let context: OpaquePointer }
  private let pool = Mutex<[Scaler]>([])

  init(width: Int, height: Int, pixelFormat: VideoProfile.PixelFormat, path: String) {
    self.width = width; self.height = height; self.pixelFormat = pixelFormat; self.path = path
  }

  deinit { pool.withLock { for s in $0 { sws_freeContext(s.context) } } }

  /// A scaler: bit-exact C code, accurate rounding, full chroma (the same
  /// bytes on every machine); RGB full range, Y′CbCr limited, both BT.709.
  private func scaler() throws(VideoError) -> Scaler {
    if let free = pool.withLock({ $0.popLast() }) { return free }
    let flags = Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP)
    guard let s = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(width), Int32(height), pixelFormat.av, flags, nil, nil, nil)
    else { throw FFmpeg.error(path, "cannot convert RGBA to \(pixelFormat.rawValue)") }
    let coefficients = sws_getCoefficients(SWS_CS_ITU709)
    guard sws_setColorspaceDetails(s, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16) >= 0 else {
      sws_freeContext(s)
      throw FFmpeg.error(path, "cannot set BT.709 conversion")
    }
    return Scaler(context: s)
  }

  /// `straight` (RGBA, straight alpha, rows packed) as a frame: copied for
  /// RGBA, else through libswscale.
  public func frame(_ straight: [UInt8]) throws(VideoError) -> VideoFrame {
    guard straight.count == 4 * width * height else {
      throw VideoError(path: path, message: "frame has \(straight.count / 4) pixels, the video \(width)×\(height)")
    }
    guard let frame = av_frame_alloc() else { throw FFmpeg.error(path, "out of memory") }
    let made = VideoFrame(frame)
    frame.pointee.format = pixelFormat.av.rawValue
    frame.pointee.width = Int32(width)
    frame.pointee.height = Int32(height)
    if pixelFormat.isYUV {
      frame.pointee.color_primaries = AVCOL_PRI_BT709
      frame.pointee.color_trc = AVCOL_TRC_BT709
      frame.pointee.colorspace = AVCOL_SPC_BT709
      frame.pointee.color_range = AVCOL_RANGE_MPEG
    }
    guard av_frame_get_buffer(frame, 0) >= 0 else { throw FFmpeg.error(path, "cannot allocate a \(width)×\(height) frame") }
    // The encoder may read past a row's end: the same bytes there every run
    // (the samples themselves are all written below).
    spf_av_frame_fill_padding(frame)
    let rowBytes = 4 * width
    if pixelFormat == .rgba {
      straight.withUnsafeBufferPointer { source in
        copyRows(
          from: source.baseAddress!, stride: rowBytes, to: frame.pointee.data.0!, stride: Int(frame.pointee.linesize.0), width: rowBytes,
          height: height)
      }
      return made
    }
    let scaler = try self.scaler()
    defer { pool.withLock { $0.append(scaler) } }
    let scaled = straight.withUnsafeBufferPointer { source -> Int32 in
      var sources: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
      var strides: [Int32] = [Int32(rowBytes), 0, 0, 0]
      var targets: [UnsafeMutablePointer<UInt8>?] = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
      var targetStrides: [Int32] = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
      return sources.withUnsafeMutableBufferPointer { s in
        strides.withUnsafeMutableBufferPointer { ss in
          targets.withUnsafeMutableBufferPointer { t in
            targetStrides.withUnsafeMutableBufferPointer { ts in
              sws_scale(scaler.context, s.baseAddress, ss.baseAddress, 0, Int32(height), t.baseAddress, ts.baseAddress)
            }
          }
        }
      }
    }
    guard scaled == Int32(height) else { throw FFmpeg.error(path, "cannot convert a frame to \(pixelFormat.rawValue)") }
    return made
  }
}

extension Pixmap {
  /// The pixels as RGBA with straight alpha (each colour divided by its
  /// alpha, rounded to nearest; fully transparent pixels black), rows
  /// packed: what video encoders with an alpha channel take.
  public func straightened() -> [UInt8] {
    var out = bytes
    var i = 0
    while i < out.count {
      let a = Int(out[i + 3])
      if a == 0 {
        out[i] = 0; out[i + 1] = 0; out[i + 2] = 0
      } else if a < 255 {
        for c in 0..<3 { out[i + c] = UInt8(min(255, (Int(out[i + c]) * 255 + a / 2) / a)) }
      }
      i += 4
    }
    return out
  }

  /// `straightened()` with each fully transparent pixel given the colour
  /// of the nearest visible pixel in its row (else in its column): what
  /// chroma subsampling averages across an edge is then the edge's own
  /// colour, not black (no dark fringe in 4:2:0 video with alpha).
  public func straightenedBleeding() -> [UInt8] {
    var out = straightened()
    let w = width, h = height
    func bleed(_ indices: [Int]) {
      // Forward then backward: each transparent pixel takes the nearest
      // visible one's colour along the line.
      var last: Int? = nil
      var distance = [Int](repeating: Int.max, count: indices.count)
      for (k, i) in indices.enumerated() {
        if out[4 * i + 3] > 0 {
          last = k; distance[k] = 0
        } else if let l = last {
          distance[k] = k - l
          for c in 0..<3 { out[4 * i + c] = out[4 * indices[l] + c] }
        }
      }
      last = nil
      for (k, i) in indices.enumerated().reversed() {
        if out[4 * i + 3] > 0 {
          last = k
        } else if let l = last, l - k < distance[k] {
          distance[k] = l - k
          for c in 0..<3 { out[4 * i + c] = out[4 * indices[l] + c] }
        }
      }
    }
    for y in 0..<h { bleed(Array((y * w)..<((y + 1) * w))) }
    return out
  }
}
