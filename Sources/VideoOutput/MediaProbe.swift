internal import CFFmpeg
internal import CFFmpegShim
import Raster

/// Colour tags of a video, as FFmpeg names them (`av_color_*_name`):
/// "bt709", "smpte170m", "unknown"…; range "tv" (limited) or "pc" (full).
public struct ColorTags: Sendable, Hashable, CustomStringConvertible {
  public var primaries: String
  public var transfer: String
  public var matrix: String
  public var range: String

  public init(primaries: String, transfer: String, matrix: String, range: String) {
    self.primaries = primaries; self.transfer = transfer; self.matrix = matrix; self.range = range
  }

  init(_ p: AVColorPrimaries, _ t: AVColorTransferCharacteristic, _ m: AVColorSpace, _ r: AVColorRange) {
    primaries = av_color_primaries_name(p).map { String(cString: $0) } ?? "unknown"
    transfer = av_color_transfer_name(t).map { String(cString: $0) } ?? "unknown"
    matrix = av_color_space_name(m).map { String(cString: $0) } ?? "unknown"
    range = av_color_range_name(r).map { String(cString: $0) } ?? "unknown"
  }

  public var description: String { "\(primaries)/\(transfer)/\(matrix)/\(range)" }
}

/// What `MediaProbe.info` finds in a video file (its best video stream).
public struct MediaInfo: Sendable {
  /// The container, as FFmpeg names its demuxer ("mov,mp4,m4a,3gp,3g2,mj2", "gif").
  public var container: String
  /// The codec ("h264", "gif").
  public var codec: String
  /// The codec profile ("High"), when it has one.
  public var profile: String?
  /// The sample entry / codec tag ("avc1"), when there is one.
  public var codecTag: String?
  /// The decoded pixel format ("yuv420p", "bgra").
  public var pixelFormat: String
  /// The coded picture size.
  public var width: Int, height: Int
  /// The tags in effect: the stream's own (H.264 VUI), else the container's.
  public var colorPrimaries: String, colorTransfer: String, colorMatrix: String, colorRange: String
  /// The tags the codec stream itself carries (H.264 VUI), read by a decoder
  /// that was told nothing by the container.
  public var streamColor: ColorTags
  /// The tags the container carries (the MP4 `colr` box), "unknown" if none.
  public var containerColor: ColorTags
  /// The chroma siting the stream declares ("left", "center", "unknown").
  public var chromaLocation: String
  /// Frames decoded, counted one by one.
  public var frameCount: Int
  /// The stream's duration in seconds (the container's if the stream has none).
  public var duration: Double
  /// The average frame rate, and as a fraction.
  public var averageFrameRate: Double
  public var averageFrameRateFraction: (num: Int, den: Int)
  /// The real base frame rate (r_frame_rate) as a fraction.
  public var baseFrameRateFraction: (num: Int, den: Int)
  /// The stream's time base as a fraction.
  public var timeBase: (num: Int, den: Int)
  /// The container's overall bit rate, bits per second.
  public var bitRate: Int
}

/// Reads videos back with FFmpeg: what the writers produced, for tests and
/// benchmarks (`render` itself never decodes video).
public enum MediaProbe {
  /// Container, codec, colour tags, size, frame count (every frame is
  /// decoded), duration, frame rate and bit rate of the file's video stream.
  public static func info(path: String) throws(VideoError) -> MediaInfo {
    let input = try Input(path: path)
    var count = 0
    var first: FrameProperties? = nil
    try input.decode(limit: nil) { frame in
      if first == nil { first = FrameProperties(frame) }
      count += 1
    }
    let format: UnsafeMutablePointer<AVFormatContext> = input.format, stream: UnsafeMutablePointer<AVStream> = input.stream
    let par = stream.pointee.codecpar!
    let streamColor = first?.color ?? ColorTags(AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED)
    let container = input.containerColor
    func effective(_ s: String, _ c: String) -> String { s == "unknown" || s == "unspecified" ? c : s }
    let tb = stream.pointee.time_base
    let duration: Double
    if stream.pointee.duration != FFmpeg.noPTS && stream.pointee.duration > 0 {
      duration = Double(stream.pointee.duration) * Double(tb.num) / Double(tb.den)
    } else if format.pointee.duration != FFmpeg.noPTS {
      duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
    } else {
      duration = 0
    }
    let avg = stream.pointee.avg_frame_rate, base = stream.pointee.r_frame_rate
    let tag = par.pointee.codec_tag
    let tagString: String? = tag == 0 ? nil : String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }, as: UTF8.self)
    let pixelFormat = first.map(\.pixelFormat) ?? AVPixelFormat(rawValue: par.pointee.format)
    return MediaInfo(
      container: String(cString: format.pointee.iformat.pointee.name),
      codec: String(cString: avcodec_get_name(par.pointee.codec_id)),
      profile: avcodec_profile_name(par.pointee.codec_id, par.pointee.profile).map { String(cString: $0) },
      codecTag: tagString,
      pixelFormat: av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "unknown",
      width: Int(par.pointee.width), height: Int(par.pointee.height),
      colorPrimaries: effective(streamColor.primaries, container.primaries),
      colorTransfer: effective(streamColor.transfer, container.transfer),
      colorMatrix: effective(streamColor.matrix, container.matrix),
      colorRange: effective(streamColor.range, container.range),
      streamColor: streamColor, containerColor: container,
      chromaLocation: av_chroma_location_name(first?.chromaLocation ?? AVCHROMA_LOC_UNSPECIFIED).map { String(cString: $0) } ?? "unknown",
      frameCount: count, duration: duration,
      averageFrameRate: avg.den == 0 ? 0 : Double(avg.num) / Double(avg.den),
      averageFrameRateFraction: (Int(avg.num), Int(avg.den)),
      baseFrameRateFraction: (Int(base.num), Int(base.den)),
      timeBase: (Int(tb.num), Int(tb.den)),
      bitRate: Int(format.pointee.bit_rate))
  }

  /// Decodes the frames of an MP4 or GIF (at most `limit`) to RGBA8 pixmaps:
  /// straight colour, alpha 255 for video without alpha; a GIF's transparent
  /// pixels are (0, 0, 0, 0), so the bytes are valid premultiplied too.
  /// Y′CbCr is converted with the matrix and range the file declares (the
  /// stream's tags, else the container's; untagged video as BT.709 from 720
  /// lines up and BT.601 below, as players guess), by swscale with accurate
  /// rounding and full chroma interpolation.
  public static func frames(path: String, limit: Int? = nil) throws(VideoError) -> [Pixmap] {
    let input = try Input(path: path)
    var pixmaps: [Pixmap] = []
    var converter: OpaquePointer? = nil
    var rgba = av_frame_alloc()
    defer {
      sws_freeContext(converter)
      av_frame_free(&rgba)
    }
    guard let rgba else { throw VideoError(path: path, message: "out of memory") }
    var failure: VideoError? = nil
    try input.decode(limit: limit) { frame in
      guard failure == nil else { return }
      let w = frame.pointee.width, h = frame.pointee.height
      let source = AVPixelFormat(rawValue: frame.pointee.format)
      if rgba.pointee.width != w || rgba.pointee.height != h {
        av_frame_unref(rgba)
        rgba.pointee.format = AV_PIX_FMT_RGBA.rawValue
        rgba.pointee.width = w
        rgba.pointee.height = h
        let status = av_frame_get_buffer(rgba, 0)
        if status < 0 { failure = FFmpeg.error(path, "cannot allocate a frame", status); return }
      }
      let flags = SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
      converter = sws_getCachedContext(converter, w, h, source, w, h, AV_PIX_FMT_RGBA, flags, nil, nil, nil)
      guard let converter else { failure = FFmpeg.error(path, "swscale cannot convert \(pixelFormatName(source)) to rgba"); return }
      if let descriptor = av_pix_fmt_desc_get(source), descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0,
        descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0
      {
        var matrix = frame.pointee.colorspace
        if matrix == AVCOL_SPC_UNSPECIFIED { matrix = input.containerMatrix }
        if matrix == AVCOL_SPC_UNSPECIFIED || matrix == AVCOL_SPC_RESERVED { matrix = h >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M }
        var range = frame.pointee.color_range
        if range == AVCOL_RANGE_UNSPECIFIED { range = input.containerRange }
        let fullRange: Int32 = range == AVCOL_RANGE_JPEG || isJPEGFormat(source) ? 1 : 0
        let coefficients = sws_getCoefficients(Int32(matrix.rawValue))
        _ = sws_setColorspaceDetails(converter, coefficients, fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
      }
      let scaled = withUnsafePointer(to: &frame.pointee.data) { sourceData in
        withUnsafePointer(to: &frame.pointee.linesize) { sourceLines in
          withUnsafePointer(to: &rgba.pointee.data) { targetData in
            withUnsafePointer(to: &rgba.pointee.linesize) { targetLines in
              sws_scale(
                converter,
                UnsafeRawPointer(sourceData).assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                UnsafeRawPointer(sourceLines).assumingMemoryBound(to: Int32.self),
                0, h,
                UnsafeRawPointer(targetData).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self),
                UnsafeRawPointer(targetLines).assumingMemoryBound(to: Int32.self))
            }
          }
        }
      }
      if scaled < 0 { failure = FFmpeg.error(path, "cannot convert a frame to RGBA", scaled); return }
      let width = Int(w), height = Int(h)
      let bytes = packedRGBA(rows: rgba.pointee.data.0!, stride: Int(rgba.pointee.linesize.0), width: width, height: height)
      pixmaps.append(Pixmap(width: width, height: height, bytes: bytes))
    }
    if let failure { throw failure }
    return pixmaps
  }

  /// The safe twin of `packedRGBA(rows:stride:width:height:)` (in
  /// MediaProbe+Unsafe.swift): `height` rows of `width` straight RGBA8
  /// pixels, `stride` bytes apart in `rows`, packed, with the colour of
  /// every transparent pixel (alpha 0) cleared, pixel by pixel. For tests.
  static func referencePackedRGBA(rows: [UInt8], stride: Int, width: Int, height: Int) -> [UInt8] {
    var packed = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for x in 0..<width where rows[y * stride + 4 * x + 3] != 0 {
        for channel in 0..<4 { packed[4 * (y * width + x) + channel] = rows[y * stride + 4 * x + channel] }
      }
    }
    return packed
  }

  private static func isJPEGFormat(_ format: AVPixelFormat) -> Bool {
    [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(format)
  }

  private static func pixelFormatName(_ format: AVPixelFormat) -> String {
    av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
  }
}

/// What the first decoded frame says about itself.
private struct FrameProperties {
  var color: ColorTags
  var pixelFormat: AVPixelFormat
  var chromaLocation: AVChromaLocation
  init(_ frame: UnsafeMutablePointer<AVFrame>) {
    color = ColorTags(frame.pointee.color_primaries, frame.pointee.color_trc, frame.pointee.colorspace, frame.pointee.color_range)
    pixelFormat = AVPixelFormat(rawValue: frame.pointee.format)
    chromaLocation = frame.pointee.chroma_location
  }
}

/// An open file, its best video stream and a decoder for it, all freed on
/// deinit.
private final class Input {
  let path: String
  var format: UnsafeMutablePointer<AVFormatContext>!
  var stream: UnsafeMutablePointer<AVStream>!
  var decoder: UnsafeMutablePointer<AVCodecContext>?
  var packet: UnsafeMutablePointer<AVPacket>?
  var frame: UnsafeMutablePointer<AVFrame>?
  /// The container's colour tags, read before any decoding could fill them in.
  var containerColor = ColorTags(AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED)
  var containerMatrix = AVCOL_SPC_UNSPECIFIED
  var containerRange = AVCOL_RANGE_UNSPECIFIED

  init(path: String) throws(VideoError) {
    self.path = path
    try FFmpeg.load(path)
    FFmpeg.beginCapture()
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    try check(avformat_open_input(&context, path, nil, nil), "cannot open")
    format = context
    let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
    try check(index, "no video stream")
    stream = format.pointee.streams[Int(index)]
    let par = stream.pointee.codecpar!
    containerColor = ColorTags(par.pointee.color_primaries, par.pointee.color_trc, par.pointee.color_space, par.pointee.color_range)
    containerMatrix = par.pointee.color_space
    containerRange = par.pointee.color_range
    try check(avformat_find_stream_info(format, nil), "cannot read the stream parameters")

    guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
      throw FFmpeg.error(path, "no decoder for \(String(cString: avcodec_get_name(par.pointee.codec_id)))")
    }
    decoder = avcodec_alloc_context3(codec)
    packet = av_packet_alloc()
    frame = av_frame_alloc()
    guard let decoder, packet != nil, frame != nil else { throw FFmpeg.error(path, "out of memory") }
    try check(avcodec_parameters_to_context(decoder, par), "cannot configure the decoder")
    // Forget the container's tags, so decoded frames carry the stream's own.
    decoder.pointee.color_primaries = AVCOL_PRI_UNSPECIFIED
    decoder.pointee.color_trc = AVCOL_TRC_UNSPECIFIED
    decoder.pointee.colorspace = AVCOL_SPC_UNSPECIFIED
    decoder.pointee.color_range = AVCOL_RANGE_UNSPECIFIED
    decoder.pointee.chroma_sample_location = AVCHROMA_LOC_UNSPECIFIED
    decoder.pointee.thread_count = 1
    try check(avcodec_open2(decoder, codec, nil), "cannot open the decoder")
  }

  private func check(_ code: Int32, _ what: String) throws(VideoError) {
    if code < 0 { throw FFmpeg.error(path, what, code) }
  }

  /// Decodes frames in order, handing each to `body` (valid during the call),
  /// until the end of the file or `limit` frames.
  func decode(limit: Int?, _ body: (UnsafeMutablePointer<AVFrame>) -> Void) throws(VideoError) {
    guard let decoder, let packet, let frame else { return }
    var count = 0
    if let limit, limit <= 0 { return }
    func receive() throws(VideoError) -> Bool {
      while true {
        let status = avcodec_receive_frame(decoder, frame)
        if status == FFmpeg.eagain || status == FFmpeg.eof { return true }
        try check(status, "cannot decode frame \(count)")
        body(frame)
        av_frame_unref(frame)
        count += 1
        if let limit, count >= limit { return false }
      }
    }
    while true {
      let status = av_read_frame(format, packet)
      if status == FFmpeg.eof { break }
      try check(status, "cannot read")
      defer { av_packet_unref(packet) }
      guard packet.pointee.stream_index == stream.pointee.index else { continue }
      try check(avcodec_send_packet(decoder, packet), "cannot decode")
      if try !receive() { return }
    }
    try check(avcodec_send_packet(decoder, nil), "cannot flush the decoder")
    _ = try receive()
  }

  deinit {
    // Nothing to free calls nothing (FFmpeg's libraries may not have opened).
    if decoder != nil { avcodec_free_context(&decoder) }
    if packet != nil { av_packet_free(&packet) }
    if frame != nil { av_frame_free(&frame) }
    if format != nil { avformat_close_input(&format) }
  }
}
