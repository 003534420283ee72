import Primitives
import Raster
import Render
import Synchronization
import TestSupport
import Testing

@testable import Pipeline

/// Records what the pipeline hands it: the level of each frame consumed,
/// in order, and the most frames prepared but not yet consumed.
final class RecordingSink: FrameSink {
  let schedule: FrameSchedule
  let levels = Mutex<[Int: UInt8]>([:])
  let order = Mutex<[Int]>([])
  let inFlight = Atomic<Int>(0)
  let mostInFlight = Atomic<Int>(0)
  init(schedule: FrameSchedule) { self.schedule = schedule }
  func prepare(_ frame: RenderedFrame, index: Int) throws -> UInt8 {
    let n = inFlight.add(1, ordering: .relaxed).newValue
    _ = mostInFlight.max(n, ordering: .relaxed)
    return frame.pixmap[3, 3].r
  }
  func consume(_ level: UInt8, index: Int) throws {
    inFlight.subtract(1, ordering: .relaxed)
    levels.withLock { $0[index] = level }
    order.withLock { $0.append(index) }
  }
  func finish() throws -> OutputSummary? { nil }
  func abort() {}
}

@Suite struct FramePipelineTests {
  @Test func aScheduleOfGivenTimes() {
    let s = FrameSchedule(times: [0.5, 0.25, 1])
    #expect(s.count == 3)
    #expect([s.time(0), s.time(1), s.time(2)] == [0.5, 0.25, 1])
  }

  @Test func evenlySpacedFramesFollowTheContract() {
    // docs/cli.md: frame i at from + i / (fps × slow), ⌊(to − from) × fps × slow⌋ + 1 frames.
    let s = FrameSchedule(from: 0.5, to: 1.5, rate: FrameRate(30), slow: 2)
    #expect(s.count == 61)
    #expect(abs(s.time(1) - (0.5 + 1.0 / 60)) < 1e-12)
    #expect(s.time(60) == 1.5)
  }

  @Test func outputsShareTheFramesWhoseTimesCoincide() {
    // 60 fps and 30 fps over a second: the 31 frames of the 30 fps output
    // are the even frames of the 60 fps one, so 61 frames are rendered.
    let jobs = FramePipeline.merge([
      FrameSchedule(from: 0, to: 1, rate: FrameRate(60), slow: 1), FrameSchedule(from: 0, to: 1, rate: FrameRate(30), slow: 1),
    ])
    #expect(jobs.count == 61)
    #expect(jobs.filter { $0.consumers.count == 2 }.count == 31)
    #expect(jobs[2].consumers.map(\.sink) == [0, 1] && jobs[2].consumers.map(\.index) == [2, 1])
  }

  @Test func framesReachTheSinkInOrderWithFewInFlight() throws {
    let schedule = FrameSchedule(from: 0, to: 1, rate: FrameRate(50), slow: 1)
    let sink = RecordingSink(schedule: schedule)
    let pipeline = FramePipeline(source: TestSource.grey, scale: nil, sinks: [sink], workers: 3)
    _ = try pipeline.run()
    #expect(sink.order.withLock { $0 } == Array(0..<51))
    // Each frame is its own time's level: frame i shows t = i / 50.
    let levels = sink.levels.withLock { $0 }
    for i in 0...50 { #expect(levels[i] == UInt8((255 * Double(i) / 50).rounded())) }
    #expect(sink.mostInFlight.load(ordering: .relaxed) <= pipeline.maximumInFlight)
  }

  @Test func aCancelledPipelineAbortsItsSinks() {
    let token = CancellationToken()
    token.cancel(reason: 15)
    let sink = RecordingSink(schedule: FrameSchedule(from: 0, to: 1, rate: FrameRate(50), slow: 1))
    #expect {
      _ = try FramePipeline(source: TestSource.grey, scale: nil, sinks: [sink], workers: 2, cancellation: token).run()
    } throws: { error in
      guard case FramePipeline.Failure.cancelled(let reason) = error else { return false }
      return reason == 15
    }
    #expect(sink.order.withLock { $0 }.isEmpty)
  }
}
