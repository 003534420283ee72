import Raster
import Synchronization
import VideoOutput

/// A video through one of FFmpeg's encoders (`VideoProfile`: ProRes 4444,
/// VP9, APNG): frames straightened on the worker threads, converted and
/// encoded in order on the consumer thread, written to a temporary file
/// that is renamed into place when the encoder has finished.
public final class EncodedVideoSink: FrameSink {
  public let schedule: FrameSchedule
  let format: String
  let file: TemporaryFile
  let writer: Mutex<EncodedVideoWriter?>
  /// Converts frames on the workers.
  let maker: VideoFrameMaker
  private let frames = Atomic<Int>(0)
  let bleeds: Bool

  public init(schedule: FrameSchedule, path: String, width: Int, height: Int, profile: VideoProfile, format: String) throws(OutputError) {
    self.schedule = schedule
    self.format = format
    bleeds = profile.pixelFormat == .yuva420p
    file = try TemporaryFile(for: path)
    do {
      let w = try EncodedVideoWriter(
        path: file.path, width: width, height: height, fps: (schedule.rate.frames, schedule.rate.seconds), profile: profile)
      maker = w.frameMaker
      writer = Mutex(w)
    } catch {
      file.remove()
      throw OutputError(path: path, message: error.message)
    }
  }

  /// Straightened and converted on the worker (subsampled chroma with
  /// alpha: the colours bled under transparency first).
  public func prepare(_ frame: RenderedFrame, index: Int) throws -> VideoFrame {
    let straight = bleeds ? frame.pixmap.straightenedBleeding() : frame.pixmap.straightened()
    do { return try maker.frame(straight) } catch { throw OutputError(path: file.destination, message: error.message) }
  }

  public func consume(_ converted: VideoFrame, index: Int) throws {
    try writer.withLock { w throws(OutputError) in
      guard let w else { return }
      do throws(VideoError) { try w.append(converted) } catch { throw OutputError(path: file.destination, message: error.message) }
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
    return OutputSummary(path: file.destination, format: format, frames: frames.load(ordering: .relaxed), bytes: file.size)
  }

  public func abort() {
    writer.withLock { $0 = nil }
    file.remove()
  }
}
