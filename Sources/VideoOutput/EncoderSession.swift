internal import CFFmpeg
internal import CFFmpegShim

/// How an `EncoderSession` opens: the container and the encoder, the
/// picture's size and pixel format, and what the writer sets besides.
struct EncoderSetup {
  /// FFmpeg's muxer ("mp4", "mov", "webm", "apng") and, for messages, the
  /// file's kind ("MP4").
  var muxer: String
  var container: String
  /// FFmpeg's encoder ("libx264") and, for messages, its name ("H.264").
  var codec: String
  var encoderName: String
  var width: Int, height: Int
  var pixelFormat: AVPixelFormat
  /// Tag the stream BT.709, limited range (Y′CbCr formats).
  var bt709: Bool
  /// Where chroma samples sit, if the format says.
  var chromaLocation: AVChromaLocation?
  /// Encoder threads: fixed, so that the bytes do not depend on the machine.
  var threads: Int
  /// The longest run of frames between keyframes; nil keeps the encoder's.
  var keyframeInterval: Int?
  /// The container's four-character code for the stream, if it needs one.
  var codecTag: String?
  /// The muxer's options, in order.
  var muxerOptions: [(String, String)]
  /// Sets the encoder's private options before it opens.
  var configure: (UnsafeMutablePointer<AVCodecContext>, (Int32, String) throws(VideoError) -> Void) throws(VideoError) -> Void
  /// The message when the encoder does not open.
  var openFailure: String
}

/// One encoder writing into one container, from open to close: the
/// lifecycle every FFmpeg writer shares. Frames go in with `send` in
/// order; `finish` flushes the encoder, writes the trailer and closes the
/// file. Every FFmpeg object is released by `finish`, by a failure, or at
/// the latest in `deinit`; the exact frame rate (time base 1/fps, every
/// packet one frame long), no encoder version or time in the file
/// (bit-exact flags).
final class EncoderSession {
  let path: String
  let setup: EncoderSetup
  /// Frames sent so far.
  private(set) var frameCount = 0
  private(set) var finished = false
  private var format: UnsafeMutablePointer<AVFormatContext>?
  private var encoder: UnsafeMutablePointer<AVCodecContext>?
  private var stream: UnsafeMutablePointer<AVStream>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private let timeBase: AVRational

  /// Opens `path` for writing and writes the header.
  init(path: String, fps: (num: Int, den: Int), setup: EncoderSetup) throws(VideoError) {
    self.path = path
    self.setup = setup
    timeBase = AVRational(num: Int32(clamping: fps.den), den: Int32(clamping: fps.num))
    guard setup.width > 0, setup.height > 0, setup.width <= 16384, setup.height <= 16384 else {
      throw VideoError(path: path, message: "invalid video size \(setup.width)×\(setup.height)")
    }
    guard fps.num > 0, fps.den > 0, fps.num <= Int32.max, fps.den <= Int32.max else {
      throw VideoError(path: path, message: "invalid frame rate \(fps.num)/\(fps.den)")
    }
    try FFmpeg.load(path)
    FFmpeg.beginCapture()
    do throws(VideoError) {
      try open(fps: AVRational(num: Int32(fps.num), den: Int32(fps.den)))
    } catch {
      release()
      throw error
    }
  }

  func check(_ code: Int32, _ what: String) throws(VideoError) {
    if code < 0 { throw FFmpeg.error(path, what, code) }
  }

  private func open(fps: AVRational) throws(VideoError) {
    let s = setup
    try check(avformat_alloc_output_context2(&format, nil, s.muxer, path), "cannot create the \(s.container) muxer")
    guard let format else { throw FFmpeg.error(path, "cannot create the \(s.container) muxer") }
    format.pointee.flags |= AVFMT_FLAG_BITEXACT
    guard let codec = avcodec_find_encoder_by_name(s.codec) else {
      throw FFmpeg.error(path, "FFmpeg's libavcodec has no \(s.codec) encoder")
    }
    guard let stream = avformat_new_stream(format, nil) else { throw FFmpeg.error(path, "cannot add a video stream") }
    self.stream = stream
    encoder = avcodec_alloc_context3(codec)
    guard let encoder else { throw FFmpeg.error(path, "cannot allocate the \(s.encoderName) encoder") }
    encoder.pointee.width = Int32(s.width)
    encoder.pointee.height = Int32(s.height)
    encoder.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
    encoder.pointee.pix_fmt = s.pixelFormat
    encoder.pointee.time_base = timeBase
    encoder.pointee.framerate = fps
    if s.bt709 {
      encoder.pointee.color_primaries = AVCOL_PRI_BT709
      encoder.pointee.color_trc = AVCOL_TRC_BT709
      encoder.pointee.colorspace = AVCOL_SPC_BT709
      encoder.pointee.color_range = AVCOL_RANGE_MPEG
    }
    if let location = s.chromaLocation { encoder.pointee.chroma_sample_location = location }
    encoder.pointee.thread_count = Int32(s.threads)
    if let keyint = s.keyframeInterval { encoder.pointee.gop_size = Int32(clamping: max(1, keyint)) }
    encoder.pointee.flags |= AV_CODEC_FLAG_BITEXACT
    if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
    try s.configure(encoder) { code, what throws(VideoError) in try check(code, what) }
    try check(avcodec_open2(encoder, codec, nil), s.openFailure)
    try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "cannot copy the encoder's parameters")
    if let tag = s.codecTag {
      let bytes = Array(tag.utf8)
      stream.pointee.codecpar.pointee.codec_tag = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }
    stream.pointee.time_base = timeBase
    stream.pointee.avg_frame_rate = fps
    stream.pointee.r_frame_rate = fps

    try check(avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE), "cannot open for writing")
    var options: OpaquePointer? = nil
    defer { av_dict_free(&options) }
    for (key, value) in s.muxerOptions { av_dict_set(&options, key, value, 0) }
    try check(avformat_write_header(format, &options), "cannot write the \(s.container) header")
    packet = av_packet_alloc()
    guard packet != nil else { throw FFmpeg.error(path, "out of memory") }
  }

  /// Encodes the next frame and writes the packets it makes ready; a
  /// failure releases everything.
  func send(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) {
    guard !finished, let encoder else { throw VideoError(path: path, message: "the video is already finished") }
    FFmpeg.beginCapture()
    do throws(VideoError) {
      frame.pointee.pts = Int64(frameCount)
      try check(avcodec_send_frame(encoder, frame), "cannot encode frame \(frameCount)")
      frameCount += 1
      try drain()
    } catch {
      release()
      throw error
    }
  }

  /// Flushes the encoder, writes the trailer and closes the file. The
  /// session is unusable afterwards, also if this fails.
  func finish() throws(VideoError) {
    guard !finished, let encoder, let format else { throw VideoError(path: path, message: "the video is already finished") }
    FFmpeg.beginCapture()
    defer { release() }
    guard frameCount > 0 else { throw VideoError(path: path, message: "no frames to write") }
    try check(avcodec_send_frame(encoder, nil), "cannot flush the encoder")
    try drain()
    try check(av_write_trailer(format), "cannot finish the \(setup.container) file")
    try check(avio_closep(&format.pointee.pb), "cannot close the file")
  }

  /// Writes every packet the encoder has ready, each one frame long
  /// (libx264 and others leave durations at 0: one packet is one frame, 1
  /// in the time base).
  private func drain() throws(VideoError) {
    guard let encoder, let format, let packet, let stream else { return }
    while true {
      let status = avcodec_receive_packet(encoder, packet)
      if status == FFmpeg.eagain || status == FFmpeg.eof { return }
      if status < 0 { throw FFmpeg.error(path, "cannot encode", status) }
      if packet.pointee.duration == 0 { packet.pointee.duration = 1 }
      av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
      packet.pointee.stream_index = stream.pointee.index
      let written = av_interleaved_write_frame(format, packet)  // takes the packet's data
      av_packet_unref(packet)
      if written < 0 { throw FFmpeg.error(path, "cannot write a packet", written) }
    }
  }

  /// Frees every FFmpeg object (closing the file if still open). Idempotent.
  func release() {
    finished = true
    if let format {
      if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
      avformat_free_context(format)
      self.format = nil
    }
    stream = nil
    // (Nothing to free calls nothing: without FFmpeg's libraries, a session
    // that could not open them is released too.)
    if encoder != nil { avcodec_free_context(&encoder) }
    if packet != nil { av_packet_free(&packet) }
  }

  deinit { release() }
}
