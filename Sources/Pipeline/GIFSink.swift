import GIFOutput
import Raster
import Synchronization

/// An animated GIF: a palette chosen from frames sampled across the render
/// before the main pass, frames quantized (with position-stable dithering)
/// on the worker threads, LZW-encoded in order on the consumer thread. At
/// most 50 fps (docs/cli.md); delays in hundredths carried forward.
public final class GIFSink: FrameSink {
  public let schedule: FrameSchedule
  let file: TemporaryFile
  let width: Int, height: Int
  let delays: [Int]
  private let state = Mutex<(quantizer: GIFQuantizer?, writer: GIFWriter?)>((nil, nil))
  private let frames = Atomic<Int>(0)
  private let builder: Mutex<GIFPalette.Builder>

  /// At most this many frames, spread over the render, are sampled for the
  /// palette (all of them in a GIF of up to 2.4 s at 50 fps). Measured with
  /// `scripts/gif-compare --also`: 24 samples of the 55 frames of list-rows
  /// lost 19 dB of PSNR (65.5 against 84.8) against a palette of every frame.
  public static let paletteSamples = 120

  /// `schedule.fps` is the requested rate; the GIF's is at most 50.
  /// `--matte`: partly transparent pixels over a colour.
  let matte: Matte?

  public init(
    schedule: FrameSchedule, path: String, width: Int, height: Int, transparent: Bool, matte: Matte? = nil,
    colors: Int = GIFPalette.maxOpaqueColors
  ) throws(OutputError) {
    self.matte = matte
    let s = schedule.capped(at: Int(GIFTiming.maxFrameRate))
    self.schedule = s
    self.width = width
    self.height = height
    delays = GIFTiming.delays(count: s.count, fps: s.fps)
    builder = Mutex(GIFPalette.Builder(transparent: transparent, colors: colors))
    file = try TemporaryFile(for: path)
  }

  public var sampleTimes: [Double] {
    let n = schedule.count
    let k = min(n, Self.paletteSamples)
    if k <= 1 { return [schedule.time(0)] }
    return (0..<k).map { schedule.time(Int((Double($0) * Double(n - 1) / Double(k - 1)).rounded())) }
  }

  public func sample(_ frame: Pixmap) throws {
    let frame = matte.map { $0.apply(frame) } ?? frame
    builder.withLock { $0.add(frame) }
  }

  public func setUp() throws {
    let palette = builder.withLock { $0.build() }
    let writer: GIFWriter
    do {
      writer = try GIFWriter(path: file.path, width: width, height: height, palette: palette)
    } catch {
      file.remove()
      throw OutputError(path: file.destination, message: error.message)
    }
    state.withLock { $0 = (GIFQuantizer(palette: palette), writer) }
  }

  /// The frame quantized to the palette (nil before `setUp`, never met).
  public func prepare(_ rendered: RenderedFrame, index: Int) throws -> IndexedFrame? {
    state.withLock({ $0.quantizer })?.quantize(matte.map { $0.apply(rendered.pixmap) } ?? rendered.pixmap)
  }

  public func consume(_ frame: IndexedFrame?, index: Int) throws {
    guard let indexed = frame else { return }
    try state.withLock { s throws(OutputError) in
      guard let writer = s.writer else { return }
      do throws(GIFError) { try writer.append(indexed, delay: delays[index]) } catch {
        throw OutputError(path: file.destination, message: error.message)
      }
    }
    frames.add(1, ordering: .relaxed)
  }

  public func finish() throws -> OutputSummary? {
    try state.withLock { s throws(OutputError) in
      defer { s = (nil, nil) }
      guard let writer = s.writer else { return }
      do throws(GIFError) { try writer.finish() } catch { throw OutputError(path: file.destination, message: error.message) }
    }
    try file.commit()
    return OutputSummary(path: file.destination, format: "gif", frames: frames.load(ordering: .relaxed), bytes: file.size)
  }

  public func abort() {
    state.withLock { $0 = (nil, nil) }
    file.remove()
  }
}
