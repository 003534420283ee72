import Raster
import Synchronization
import VideoOutput

/// An animated WebP (libwebp): frames straightened on the worker threads,
/// encoded in order on the consumer thread; frame i starts at
/// round(1000 i / fps) ms, so the durations add up to frames / fps; at most
/// 50 fps, as GIF (docs/cli.md). Assembled and written to a temporary file
/// renamed into place when complete.
public final class WebPSink: FrameSink {
  /// No frame shorter than 20 ms: browsers play shorter ones slowly.
  public static let maximumFrameRate = 50

  public let schedule: FrameSchedule
  let file: TemporaryFile
  let writer: Mutex<WebPWriter?>
  private let frames = Atomic<Int>(0)

  public init(schedule: FrameSchedule, path: String, width: Int, height: Int, options: WebPOptions) throws(OutputError) {
    let s = schedule.capped(at: Self.maximumFrameRate)
    self.schedule = s
    file = try TemporaryFile(for: path)
    do {
      writer = Mutex(try WebPWriter(path: file.path, width: width, height: height, options: options))
    } catch {
      file.remove()
      throw OutputError(path: path, message: error.message)
    }
  }

  /// Where frame `i` starts: round(1000 i / fps) milliseconds, in integers.
  public static func milliseconds(_ i: Int, rate: FrameRate) -> Int {
    // 1000 i · seconds / frames, rounded half up.
    (2 * 1000 * i * rate.seconds + rate.frames) / (2 * rate.frames)
  }

  public func prepare(_ frame: RenderedFrame, index: Int) throws -> [UInt8] { frame.pixmap.straightened() }

  public func consume(_ straight: [UInt8], index: Int) throws {
    let start = Self.milliseconds(index, rate: schedule.rate)
    try writer.withLock { w throws(OutputError) in
      guard let w else { return }
      do throws(VideoError) { try w.append(straight: straight, milliseconds: start) } catch {
        throw OutputError(path: file.destination, message: error.message)
      }
    }
    frames.add(1, ordering: .releasing)
  }

  public func finish() throws -> OutputSummary? {
    let count = frames.load(ordering: .acquiring)
    try writer.withLock { w throws(OutputError) in
      defer { w = nil }
      guard let writer = w else { return }
      do throws(VideoError) { try writer.finish(endingAt: Self.milliseconds(count, rate: schedule.rate)) } catch {
        throw OutputError(path: file.destination, message: error.message)
      }
    }
    try file.commit()
    return OutputSummary(path: file.destination, format: "webp", frames: count, bytes: file.size)
  }

  public func abort() {
    writer.withLock { $0 = nil }
    file.remove()
  }
}
