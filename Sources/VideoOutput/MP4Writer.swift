internal import CFFmpeg
internal import CFFmpegShim
import Raster

/// How `MP4Writer` encodes.
public struct MP4Options: Sendable, Hashable {
  /// x264's constant rate factor: 0 is lossless, 51 worst; about 6 up halves
  /// the size. 18 is visually lossless for UI motion (flat fills, gradients,
  /// text) and keeps files small, since such frames compress very well.
  public var crf: Double = 18
  /// x264's speed/size trade-off: ultrafast … veryfast … medium … placebo.
  public var preset: String = "veryfast"
  /// An x264 tune (film, animation, grain, stillimage, …), none by default.
  public var tune: String? = nil
  /// x264's thread count. Fixed rather than "one per core", because x264's
  /// output depends on it: the same frames with the same options give the
  /// same bytes on any machine. Each frame thread holds a reconstructed
  /// frame with its half-pel planes and delays the input by a frame (about
  /// 16 MB at 1080p); the renderer's workers keep the cores busy, so 2 cost
  /// little speed beside 4 (scripts/bench-memory, scripts/bench-pipeline).
  public var threads: Int = 2
  /// How many frames x264 looks ahead to place B-frames and to spend bits
  /// where later frames reuse them (rc-lookahead; veryfast's is 10). Each
  /// is a frame x264 holds, with its quarter-size planes (about 6 MB at
  /// 1080p). 5 loses about 1 dB of PSNR at 8% less size on the benchmark
  /// scene, near the same rate-distortion curve.
  public var lookahead: Int = 5
  /// The longest run of frames between keyframes (x264's keyint); nil keeps
  /// x264's 250.
  public var keyframeInterval: Int? = nil

  public init(
    crf: Double = 18, preset: String = "veryfast", tune: String? = nil, threads: Int = 2, lookahead: Int = 5, keyframeInterval: Int? = nil
  ) {
    self.crf = crf; self.preset = preset; self.tune = tune; self.threads = threads; self.lookahead = lookahead
    self.keyframeInterval = keyframeInterval
  }
}

/// A picture in FFmpeg's own frame memory (yuv420p at a writer's coded
/// size), written in place by `YUVConverter.bt709(_:into:)` and read
/// by `MP4Writer.append(_:)` without a copy. It remembers what each tile of
/// it shows, so the next frame written into it converts only the tiles that
/// differ: a picture reused every few frames costs nothing where the video
/// stands still.
///
/// Not shared: one thread writes it, then hands it to the writer's thread;
/// it is written again only after `append` has returned.
public final class VideoPicture: @unchecked Sendable {
  /// The coded (even) size.
  public let width: Int, height: Int
  /// FFmpeg's frame, its buffers allocated (nil once freed).
  var frame: UnsafeMutablePointer<AVFrame>?
  /// The digest of each tile it shows (of the grid it was last written
  /// with), nil where unknown.
  var tiles: [Digest?] = []
  var tileGrid: TileGrid?

  /// A picture of `width × height` (even) pixels, tagged BT.709 limited.
  public init(width: Int, height: Int) throws(VideoError) {
    precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "YUV 4:2:0 needs an even, positive size")
    self.width = width
    self.height = height
    try FFmpeg.load("")
    frame = av_frame_alloc()
    guard let frame else { throw VideoError(path: "", message: "out of memory") }
    frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
    frame.pointee.width = Int32(width)
    frame.pointee.height = Int32(height)
    frame.pointee.color_primaries = AVCOL_PRI_BT709
    frame.pointee.color_trc = AVCOL_TRC_BT709
    frame.pointee.colorspace = AVCOL_SPC_BT709
    frame.pointee.color_range = AVCOL_RANGE_MPEG
    frame.pointee.chroma_location = AVCHROMA_LOC_CENTER
    guard av_frame_get_buffer(frame, 0) >= 0, frame.pointee.linesize.1 == frame.pointee.linesize.2 else {
      throw VideoError(path: "", message: "cannot allocate a \(width)×\(height) frame")
    }
    // The encoder may read past a row's end: the same bytes there every run.
    spf_av_frame_fill(frame)
  }

  deinit { if frame != nil { av_frame_free(&frame) } }

  /// Forgets what the tiles show (the next write converts every tile).
  func forgetTiles() { tiles = [] }

  /// Tiles of `grid` are written next (what the tiles show is forgotten
  /// when the grid changes).
  func use(_ grid: TileGrid) {
    if tileGrid != grid || tiles.count != grid.count {
      tileGrid = grid
      tiles = Array(repeating: nil, count: grid.count)
    }
  }

  /// A copy of the samples, rows packed.
  public var samples: YUVFrame {
    let planes = packedPlanes()
    return YUVFrame(width: width, height: height, y: planes.luma, u: planes.cb, v: planes.cr)
  }
}

/// Writes H.264 in MP4 with libx264, for browsers and QuickTime: yuv420p, High
/// profile, `avc1`, BT.709 primaries/transfer/matrix and limited range tagged
/// both in the stream's VUI and in the container's `colr` box, the exact
/// frame rate (time base 1/fps, every packet one frame long), `moov` first
/// (`+faststart`), no encoder version or time in the container (bit-exact
/// flags): identical frames and options give identical bytes.
///
/// Use from one thread: `append` frames in order, then `finish`. Every FFmpeg
/// object is released by `finish`, by a failure, or at the latest in
/// `deinit`; a writer dropped without `finish` leaves an incomplete file,
/// which the caller (writing to a temporary path) deletes.
public final class MP4Writer {
  /// The file being written.
  public let path: String
  /// The picture size given to `init`.
  public let width: Int, height: Int
  /// The coded (even) size every appended frame must have.
  public let codedWidth: Int, codedHeight: Int
  /// Frames appended so far.
  public var frameCount: Int { session.frameCount }

  private let session: EncoderSession
  /// What `append(_: YUVFrame)` copies into.
  private var picture: VideoPicture?

  /// Opens `path` for writing (always as MP4, whatever its extension) and
  /// writes the header. `fps` is a rational frame rate (60/1, 30000/1001);
  /// `width`/`height` the picture size, padded to even by `YUVConverter`.
  public init(path: String, width: Int, height: Int, fps: (num: Int, den: Int), options: MP4Options = MP4Options()) throws(VideoError) {
    self.path = path
    self.width = width
    self.height = height
    codedWidth = width + (width & 1)
    codedHeight = height + (height & 1)
    guard options.threads >= 1, options.lookahead >= 0, options.lookahead <= 250, options.crf >= 0, options.crf <= 51 else {
      throw VideoError(
        path: path, message: "invalid encoder options (threads \(options.threads), lookahead \(options.lookahead), crf \(options.crf))")
    }
    session = try EncoderSession(
      path: path, fps: fps,
      setup: EncoderSetup(
        muxer: "mp4", container: "MP4", codec: "libx264", encoderName: "H.264", width: codedWidth, height: codedHeight,
        pixelFormat: AV_PIX_FMT_YUV420P, bt709: true, chromaLocation: AVCHROMA_LOC_CENTER, threads: options.threads,
        keyframeInterval: options.keyframeInterval, codecTag: nil, muxerOptions: [("movflags", "+faststart")],
        configure: { encoder, check throws(VideoError) in
          let privateOptions = encoder.pointee.priv_data
          try check(av_opt_set(privateOptions, "preset", options.preset, 0), "invalid x264 preset '\(options.preset)'")
          if let tune = options.tune { try check(av_opt_set(privateOptions, "tune", tune, 0), "invalid x264 tune '\(tune)'") }
          try check(av_opt_set(privateOptions, "profile", "high", 0), "cannot set the x264 profile")
          try check(av_opt_set_double(privateOptions, "crf", options.crf, 0), "cannot set the x264 CRF")
          try check(av_opt_set_int(privateOptions, "rc-lookahead", Int64(options.lookahead), 0), "cannot set the x264 lookahead")
          // The lookahead runs in the encoding thread rather than in a
          // thread of its own that buffers frames ahead of it (x264's
          // sync-lookahead, 4 frames, 24 MB at 1080p): the same bytes, at
          // about the same speed when the renderer's workers already keep
          // the cores busy.
          try check(av_opt_set(privateOptions, "x264-params", "sync-lookahead=0", 0), "cannot set the x264 parameters")
        },
        openFailure: "cannot open the libx264 encoder (preset '\(options.preset)'\(options.tune.map { ", tune '\($0)'" } ?? ""))"))
  }

  /// A picture of this video's coded size, for `append(_: VideoPicture)`.
  public func makePicture() throws(VideoError) -> VideoPicture {
    do {
      return try VideoPicture(width: codedWidth, height: codedHeight)
    } catch {
      throw VideoError(path: path, message: error.message)
    }
  }

  /// Encodes the next frame (of size `codedWidth × codedHeight`), copied
  /// into the writer's own picture.
  public func append(_ yuv: YUVFrame) throws(VideoError) {
    guard !session.finished else { throw VideoError(path: path, message: "the video is already finished") }
    guard yuv.width == codedWidth, yuv.height == codedHeight else {
      throw VideoError(path: path, message: "frame is \(yuv.width)×\(yuv.height), the video \(codedWidth)×\(codedHeight)")
    }
    if picture == nil { picture = try makePicture() }
    let picture = picture!
    picture.write(yuv)
    try append(picture)
  }

  /// Encodes the next frame from `picture` (of size `codedWidth ×
  /// codedHeight`). x264 copies it before this returns: the picture may be
  /// written again afterwards, and keeps what it shows.
  public func append(_ picture: VideoPicture) throws(VideoError) {
    guard !session.finished, let frame = picture.frame else { throw VideoError(path: path, message: "the video is already finished") }
    guard picture.width == codedWidth, picture.height == codedHeight else {
      throw VideoError(path: path, message: "frame is \(picture.width)×\(picture.height), the video \(codedWidth)×\(codedHeight)")
    }
    try session.send(frame)
    // Should the encoder still hold the buffer, the picture gets a copy of
    // its own (the same samples), so writing it never races the encoder.
    do { try session.check(av_frame_make_writable(frame), "cannot reuse the frame buffer") } catch {
      session.release()
      throw error
    }
  }

  /// Flushes the encoder, writes the trailer (moving `moov` to the front) and
  /// closes the file. The writer is unusable afterwards, also if this fails.
  public func finish() throws(VideoError) {
    defer { picture = nil }
    try session.finish()
  }
}

/// The safe twin of `copyRows(from:stride:to:stride:width:height:)` (in
/// MP4Writer+Unsafe.swift): `height` rows of `width` bytes from `source`,
/// rows `sourceStride` apart, into `target`, rows `targetStride` apart, byte
/// by byte. For tests.
func referenceCopyRows(
  from source: [UInt8], stride sourceStride: Int, to target: inout [UInt8], stride targetStride: Int, width: Int, height: Int
) {
  for row in 0..<height {
    for column in 0..<width { target[row * targetStride + column] = source[row * sourceStride + column] }
  }
}
