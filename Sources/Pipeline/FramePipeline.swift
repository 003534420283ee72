import Foundation
import Raster
import Render
import Synchronization

/// Renders a source's frames on all cores and hands them to the sinks in
/// order, with a bounded number of frames in flight, so memory does not grow
/// with the length of the scene.
///
/// The scene times of all sinks are merged into one list of jobs (an MP4 at
/// 60 fps and a GIF at 50 fps share the frames whose times coincide). Worker
/// threads take jobs in order, render them and let each sink `prepare` its
/// frame (YUV conversion, quantization, PNG compression); the calling
/// thread receives the jobs in order and lets each sink `consume` them (the
/// encoders). A job is only started when fewer than `maximumInFlight` jobs
/// are rendered but not yet consumed; the job the consumer waits for is
/// always already claimed by a worker, so the pipeline never deadlocks.
public final class FramePipeline: @unchecked Sendable {
  public struct Job: Sendable {
    public var time: Double
    /// (sink, that sink's frame index).
    public var consumers: [(sink: Int, index: Int)]
  }

  public enum Failure: Error {
    case render(RenderError)
    case output(any Error)
    /// The token was cancelled, with this reason.
    case cancelled(reason: Int32)
  }

  public struct Progress: Sendable {
    public var done: Int
    public var total: Int
    public var elapsed: Double
  }

  let source: any FrameSource
  let scale: Double?
  /// Tiles and effect textures shared by the workers from frame to frame.
  let cache: TileCache
  /// The tile size frames are drawn in, from how many tiles recent frames drew.
  let tileSize = TileSizeChooser()
  let sinks: [any DrivenSink]
  /// Checked between frames: once cancelled, the render stops.
  let cancellation: CancellationToken
  public let jobs: [Job]
  public let workers: Int
  /// Jobs rendered but not yet consumed, at most: one per worker and one
  /// for each of x264's two frame threads. Each holds a frame (and an
  /// encoder picture), so memory stays bounded by a few frames whatever the
  /// length; two per worker held 8 MB more on dashboard-1080p, and
  /// `workers + 1` starved the encoder (scripts/bench-memory,
  /// scripts/bench-pipeline).
  public let maximumInFlight: Int

  // Shared state, under `lock`.
  private let lock = NSCondition()
  /// The jobs rendered and prepared, waiting for the consumer.
  private var ready: Set<Int> = []
  private var nextJob = 0
  private var consumed = 0
  private var failure: Failure?

  public init(
    source: any FrameSource, scale: Double?, sinks: [any FrameSink], workers: Int? = nil, cancellation: CancellationToken = CancellationToken()
  ) {
    self.source = source
    self.scale = scale
    self.sinks = sinks.map { drive($0) }
    self.cancellation = cancellation
    self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
    maximumInFlight = self.workers + 2
    // A source that shows the frame's number (the timecode) makes frames
    // of different outputs at one time different pictures.
    jobs = Self.merge(sinks.map(\.schedule), byIndex: source.showsFrameNumber)
    let (w, h) = source.pixelSize(scale: scale)
    cache = TileCache(width: w, height: h)
  }

  /// One job per distinct scene time, in time order.
  static func merge(_ schedules: [FrameSchedule], byIndex: Bool = false) -> [Job] {
    var all: [(time: Double, sink: Int, index: Int)] = []
    for (s, schedule) in schedules.enumerated() {
      for i in 0..<schedule.count { all.append((schedule.time(i), s, i)) }
    }
    all.sort { ($0.time, $0.sink, $0.index) < ($1.time, $1.sink, $1.index) }
    var jobs: [Job] = []
    for entry in all {
      if let last = jobs.last, abs(last.time - entry.time) <= 1e-9 * max(1, abs(entry.time)),
        !byIndex || last.consumers[0].index == entry.index
      {
        jobs[jobs.count - 1].consumers.append((entry.sink, entry.index))
      } else {
        jobs.append(Job(time: entry.time, consumers: [(entry.sink, entry.index)]))
      }
    }
    return jobs
  }

  /// Runs the render; `progress` is called on the calling thread after each
  /// job. On failure or interruption every sink is aborted (its temporary
  /// files removed) and the failure thrown; on success the sinks finish and
  /// their summaries are returned.
  public func run(progress: (Progress) -> Void = { _ in }) throws(Failure) -> [OutputSummary] {
    let start = Date()
    do throws(Failure) {
      try setUpSamples()
      for sink in sinks {
        do { try sink.willRender(framesInFlight: maximumInFlight) } catch { throw .output(error) }
      }
    } catch {
      abortAll()
      throw error
    }
    let group = DispatchGroup()
    for _ in 0..<workers {
      group.enter()
      Thread.detachNewThread { [self] in
        Self.yieldToEncoders()
        work()
        group.leave()
      }
    }
    consumeAll(start: start, progress: progress)
    group.wait()
    if let failure {
      abortAll()
      throw failure
    }
    var summaries: [OutputSummary] = []
    do {
      for sink in sinks {
        if let s = try sink.finish() { summaries.append(s) }
      }
    } catch {
      abortAll()
      throw .output(error)
    }
    return summaries
  }

  /// Makes the calling worker thread the last to run when the cores are
  /// busy (nice 19; on Linux a thread's own): the encoders (x264's threads,
  /// the GIF writer on the calling thread) then never wait behind rendering
  /// that has frames in flight to spare, and rendering fills the time they
  /// leave, as their serial stretches (x264's lookahead, its last frames)
  /// leave cores idle. The frames in flight are bounded, so rendering cannot
  /// run ahead, and with cores to spare it runs as fast as before.
  /// Measured on the 1080p benchmark scene to MP4 on two cores (ten runs
  /// each, alternating): median 106 → 112.6 frames/s, best 112.1 → 114.2.
  static func yieldToEncoders() {
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
  }

  private func abortAll() { for sink in sinks { sink.abort() } }

  private func fail(_ f: Failure) {
    lock.lock()
    if failure == nil { failure = f }
    lock.broadcast()
    lock.unlock()
  }

  /// Renders the sinks' sample frames in parallel, `workers` at a time, and
  /// hands each batch to its sink in time order (none are kept beyond the
  /// batch), then sets the sinks up. The order matters: a palette built from
  /// samples must not depend on which thread finished first, or the same
  /// render would give different GIF bytes.
  private func setUpSamples() throws(Failure) {
    for sink in sinks {
      let times = sink.sampleTimes
      var start = 0
      while start < times.count {
        let batch = Array(times[start..<min(times.count, start + workers)])
        let frames = Mutex<[Pixmap?]>(Array(repeating: nil, count: batch.count))
        let failure = Mutex<Failure?>(nil)
        DispatchQueue.concurrentPerform(iterations: batch.count) { i in
          do throws(RenderError) {
            let frame = try source.renderFrame(
              at: batch[i], scale: scale, cache: cache, tileSize: TileRenderer.squares, frame: 0, drawn: nil
            ).pixmap
            frames.withLock { $0[i] = frame }
          } catch {
            failure.withLock { $0 = $0 ?? .render(error) }
          }
        }
        if let f = failure.withLock({ $0 }) { throw f }
        for frame in frames.withLock({ $0 }) {
          guard let frame else { continue }
          do { try sink.sample(frame) } catch { throw .output(error) }
        }
        start += batch.count
      }
      do { try sink.setUp() } catch { throw .output(error) }
    }
  }

  private func work() {
    while true {
      lock.lock()
      while failure == nil && nextJob < jobs.count && nextJob - consumed >= maximumInFlight { lock.wait() }
      if failure != nil || nextJob >= jobs.count {
        lock.unlock()
        return
      }
      let j = nextJob
      nextJob += 1
      lock.unlock()

      if cancellation.isCancelled {
        fail(.cancelled(reason: cancellation.reason))
        return
      }
      let job = jobs[j]
      let frame: RenderedFrame
      do {
        let hooks = job.consumers.compactMap { sinks[$0.sink].tileDrawn(index: $0.index) }
        let size = tileSize.size
        var drawn = Set<Int>()
        frame = try source.renderFrame(
          at: job.time, scale: scale, cache: cache, tileSize: size, frame: job.consumers[0].index,
          drawn: { tile in
            drawn.insert(tile.index)
            for hook in hooks { hook(tile) }
          })
        tileSize.record(frame, drawn: drawn, size: size)
      } catch {
        fail(.render(error))
        return
      }
      do {
        for c in job.consumers { try sinks[c.sink].prepare(frame, index: c.index) }
      } catch {
        fail(.output(error))
        return
      }
      lock.lock()
      ready.insert(j)
      lock.broadcast()
      lock.unlock()
    }
  }

  private func consumeAll(start: Date, progress: (Progress) -> Void) {
    for j in 0..<jobs.count {
      lock.lock()
      while !ready.contains(j) && failure == nil {
        if cancellation.isCancelled {
          failure = .cancelled(reason: cancellation.reason)
          lock.broadcast()
          break
        }
        _ = lock.wait(until: Date(timeIntervalSinceNow: 0.1))
      }
      guard failure == nil, ready.remove(j) != nil else {
        lock.unlock()
        return
      }
      lock.unlock()
      do {
        for c in jobs[j].consumers { try sinks[c.sink].consume(index: c.index) }
      } catch {
        fail(.output(error))
        return
      }
      lock.lock()
      consumed = j + 1
      lock.broadcast()
      lock.unlock()
      progress(Progress(done: j + 1, total: jobs.count, elapsed: Date().timeIntervalSince(start)))
    }
  }
}
