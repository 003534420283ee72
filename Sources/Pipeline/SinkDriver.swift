import Raster
import Synchronization

/// A sink as the pipeline drives it, whatever its `Prepared` type: what
/// `prepare` makes of frame i is kept here, typed, until `consume(i)`.
protocol DrivenSink: Sendable {
  var schedule: FrameSchedule { get }
  var sampleTimes: [Double] { get }
  func sample(_ frame: Pixmap) throws
  func setUp() throws
  func willRender(framesInFlight: Int) throws
  func tileDrawn(index: Int) -> ((DrawnTile) -> Void)?
  func prepare(_ frame: RenderedFrame, index: Int) throws
  func consume(index: Int) throws
  func finish() throws -> OutputSummary?
  func abort()
}

final class SinkDriver<Sink: FrameSink>: DrivenSink {
  let sink: Sink
  /// Prepared frames waiting for the consumer, by frame index.
  private let prepared = Mutex<[Int: Sink.Prepared]>([:])

  init(_ sink: Sink) { self.sink = sink }

  var schedule: FrameSchedule { sink.schedule }
  var sampleTimes: [Double] { sink.sampleTimes }
  func sample(_ frame: Pixmap) throws { try sink.sample(frame) }
  func setUp() throws { try sink.setUp() }
  func willRender(framesInFlight: Int) throws { try sink.willRender(framesInFlight: framesInFlight) }
  func tileDrawn(index: Int) -> ((DrawnTile) -> Void)? { sink.tileDrawn(index: index) }

  func prepare(_ frame: RenderedFrame, index: Int) throws {
    let made = try sink.prepare(frame, index: index)
    prepared.withLock { $0[index] = made }
  }

  func consume(index: Int) throws {
    guard let frame = prepared.withLock({ $0.removeValue(forKey: index) }) else {
      preconditionFailure("frame \(index) consumed before it was prepared")
    }
    try sink.consume(frame, index: index)
  }

  func finish() throws -> OutputSummary? { try sink.finish() }
  func abort() {
    prepared.withLock { $0 = [:] }
    sink.abort()
  }
}

/// The sink driven, its `Prepared` type opened.
func drive(_ sink: some FrameSink) -> any DrivenSink { SinkDriver(sink) }
