import Raster
import Synchronization
import VideoOutput

/// H.264 MP4 through libx264: frames converted to BT.709 YUV on the worker
/// threads, encoded in order on the consumer thread, written to a temporary
/// file that is renamed into place when the encoder has finished.
public final class MP4Sink: FrameSink {
  public let schedule: FrameSchedule
  let file: TemporaryFile
  let writer: Mutex<MP4Writer?>
  private let frames = Atomic<Int>(0)
  /// The encoder's pictures, one per frame in flight, used in turn: frame i
  /// is converted into picture i mod count, which frame i − count left, so
  /// only the tiles that changed since are converted, and the encoder reads
  /// it without a copy.
  private let pictures = Mutex<[VideoPicture]>([])
  /// `--matte`: frames over a colour.
  let matte: Matte?

  public init(schedule: FrameSchedule, path: String, width: Int, height: Int, options: MP4Options, matte: Matte? = nil) throws(OutputError) {
    self.schedule = schedule
    self.matte = matte
    file = try TemporaryFile(for: path)
    do {
      writer = Mutex(
        try MP4Writer(path: file.path, width: width, height: height, fps: (schedule.rate.frames, schedule.rate.seconds), options: options))
    } catch {
      file.remove()
      throw OutputError(path: path, message: error.message)
    }
  }

  public func willRender(framesInFlight: Int) throws {
    try writer.withLock { w throws(OutputError) in
      guard let w else { return }
      do throws(VideoError) {
        let made = try (0..<max(1, framesInFlight)).map { _ throws(VideoError) in try w.makePicture() }
        pictures.withLock { $0 = made }
      } catch {
        throw OutputError(path: file.destination, message: error.message)
      }
    }
  }

  /// Frame `index`'s picture, free to write: the pipeline starts a frame's
  /// job only once frame index − count was consumed, so nothing reads it.
  private func picture(_ index: Int) -> VideoPicture {
    let all = pictures.withLock { $0 }
    precondition(!all.isEmpty, "willRender(framesInFlight:) before the first frame")
    precondition(index - frames.load(ordering: .acquiring) < all.count, "more frames in flight than pictures")
    return all[index % all.count]
  }

  /// Each tile drawn is converted into the frame's picture at once, while
  /// its pixels are still in the core's caches.
  public func tileDrawn(index: Int) -> ((DrawnTile) -> Void)? {
    // Over a matte, the whole frame is composited first.
    guard matte == nil else { return nil }
    let picture = picture(index)
    return { tile in YUVConverter.bt709(tile, into: picture) }
  }

  public func prepare(_ frame: RenderedFrame, index: Int) throws -> VideoPicture {
    let picture = picture(index)
    YUVConverter.bt709(matte.map { $0.apply(frame) } ?? frame, into: picture)
    return picture
  }

  public func consume(_ picture: VideoPicture, index: Int) throws {
    try writer.withLock { w throws(OutputError) in
      guard let w else { return }
      do throws(VideoError) { try w.append(picture) } catch { throw OutputError(path: file.destination, message: error.message) }
    }
    frames.add(1, ordering: .releasing)
  }

  public func finish() throws -> OutputSummary? {
    try writer.withLock { w throws(OutputError) in
      defer { w = nil }
      guard let writer = w else { return }
      do throws(VideoError) { try writer.finish() } catch { throw OutputError(path: file.destination, message: error.message) }
    }
    try file.commit()
    return OutputSummary(path: file.destination, format: "mp4", frames: frames.load(ordering: .relaxed), bytes: file.size)
  }

  public func abort() {
    writer.withLock { $0 = nil }
    file.remove()
  }
}
