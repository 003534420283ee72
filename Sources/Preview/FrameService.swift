import Foundation
import PNGCodec
import Raster
import Render

/// Frames of the previewed scene as PNG bytes, drawn on threads of their
/// own with the code `render still` uses, so that each is pixel for pixel
/// the still at its time.
///
/// The frame asked for last is drawn first; once no request waits, the
/// frames nearest to the playhead (on the output's frame grid, more ahead
/// of its motion than behind) are drawn into a cache bounded by count and
/// bytes and keyed by the version and the time, so that stepping and
/// playing find them ready. A new request replaces the frames still to be
/// drawn ahead; a frame being drawn is finished and kept.
public final class FrameService: @unchecked Sendable {
  /// What a frame request gets.
  public enum Answer: Sendable {
    case png([UInt8], generation: Int)
    /// The frame could not be drawn: why, located in the scene.
    case failed(String)
  }

  /// Frames kept at most, and their bytes at most.
  public static let cachedFrames = 240
  public static let cachedBytes = 128 << 20
  /// Frames drawn ahead of the playhead in its direction of motion, and
  /// behind it.
  public static let ahead = 36, behind = 8

  struct Key: Hashable {
    var generation: Int
    var time: UInt64
  }

  private struct Job {
    var key: Key
    var version: SceneVersion
    var time: Double
  }

  private let condition = NSCondition()
  private var cache: [Key: [UInt8]] = [:]
  /// Least recently used first.
  private var order: [Key] = []
  private var bytes = 0
  private var waiting: [Key: [CheckedContinuation<Answer, Never>]] = [:]
  /// Requests not started, newest last.
  private var requests: [Job] = []
  /// Frames to draw ahead, best first.
  private var ahead: [Job] = []
  private var running: Set<Key> = []
  /// Threads drawing frames ahead now, and at most: one thread is always
  /// left for requests, so a new version's frame at the playhead never
  /// waits behind frames drawn ahead.
  private var drawingAhead = 0
  /// Requests being drawn now: frames ahead wait for them, so that the one
  /// the page waits for has the cores.
  private var drawingRequests = 0
  private let aheadLimit: Int
  private var lastRequest: Double?
  private var stopped = false
  /// Output frames per second of scene time (fps × slow): frame n of the
  /// grid is at n / rate, computed as the page computes it.
  private let rate: Double
  private let scale: Double?
  /// Frames drawn, for tests and the benchmark.
  public private(set) var drawnCount = 0

  /// - Parameters:
  ///   - rate: output frames per second of scene time, fps × slow.
  ///   - workers: threads drawing frames.
  public init(rate: Double, scale: Double?, workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.rate = rate
    self.scale = scale
    aheadLimit = max(1, workers - 1)
    let count = max(1, workers)
    for i in 0..<count {
      // One worker alone draws both, at the process's priority.
      let thread = Thread { [self] in work(drawsAhead: i > 0 || count == 1, idle: i > 0) }
      thread.name = "preview-frames-\(i)"
      thread.start()
    }
  }

  /// Ends the threads once their frames are drawn.
  public func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  /// The frame of `version` at scene time `t`, drawn now unless cached.
  public func frame(_ version: SceneVersion, at t: Double) async -> Answer {
    let key = Key(generation: version.generation, time: t.bitPattern)
    return await withCheckedContinuation { continuation in
      condition.lock()
      defer { condition.unlock() }
      if let png = cache[key] {
        touch(key)
        plan(version, around: t)
        condition.broadcast()
        continuation.resume(returning: .png(png, generation: version.generation))
        return
      }
      waiting[key, default: []].append(continuation)
      if !running.contains(key) {
        requests.removeAll { $0.key == key }
        requests.append(Job(key: key, version: version, time: t))
      }
      plan(version, around: t)
      condition.broadcast()
    }
  }

  /// Draws the frame of a new `version` at the playhead (the last time
  /// asked for, within its duration) before the page asks for it, then
  /// the frames around it.
  public func warm(_ version: SceneVersion) {
    condition.lock()
    defer { condition.unlock() }
    forget(olderThan: version.generation)
    let t = min(lastRequest ?? 0, version.source.duration)
    let key = Key(generation: version.generation, time: t.bitPattern)
    if cache[key] == nil, !running.contains(key) {
      requests.append(Job(key: key, version: version, time: t))
    }
    plan(version, around: t, moving: false)
    condition.broadcast()
  }

  /// The frames still kept, for tests.
  public var cachedCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return cache.count
  }

  /// Frames of earlier versions are never asked for again.
  private func forget(olderThan generation: Int) {
    for key in order where key.generation < generation {
      bytes -= cache.removeValue(forKey: key)?.count ?? 0
    }
    order.removeAll { $0.generation < generation }
    ahead.removeAll { $0.key.generation < generation }
  }

  /// Replaces the frames to draw ahead: the frames of the grid nearest to
  /// `t`, mostly in the direction the playhead last moved.
  private func plan(_ version: SceneVersion, around t: Double, moving: Bool = true) {
    forget(olderThan: version.generation)
    let backwards = moving && (lastRequest.map { t < $0 } ?? false)
    if moving { lastRequest = t }
    let duration = version.source.duration
    let here = (t * rate).rounded()
    let last = (duration * rate).rounded(.down)
    var jobs: [Job] = []
    let forward = backwards ? Self.behind : Self.ahead, back = backwards ? Self.ahead : Self.behind
    var i = 1
    while i <= max(forward, back) {
      for n in [here + (i <= forward ? Double(i) : .nan), here - (i <= back ? Double(i) : .nan)] where n >= 0 && n <= last {
        let time = n / rate
        guard time <= duration else { continue }
        let key = Key(generation: version.generation, time: time.bitPattern)
        if cache[key] == nil, !running.contains(key) { jobs.append(Job(key: key, version: version, time: time)) }
      }
      i += 1
    }
    if backwards { jobs.sort { abs($0.time - t) < abs($1.time - t) } }
    ahead = jobs
  }

  private func touch(_ key: Key) {
    if let i = order.firstIndex(of: key) { order.remove(at: i) }
    order.append(key)
  }

  /// A worker's loop. The first draws requests only, at the process's
  /// priority; the others draw requests first, else frames ahead, under
  /// Linux's SCHED_IDLE policy (`idle`), so that frames drawn ahead take
  /// only the cycles that requests, the server and the browser leave.
  private func work(drawsAhead: Bool, idle: Bool) {
    if idle {
      var parameters = sched_param(sched_priority: 0)
      _ = pthread_setschedparam(pthread_self(), Self.idlePolicy, &parameters)
    }
    while true {
      condition.lock()
      var job: Job?
      var isAhead = false
      while job == nil {
        if stopped {
          condition.unlock()
          return
        }
        if let next = requests.popLast() {
          job = next
        } else if drawsAhead, !ahead.isEmpty, drawingAhead < aheadLimit, drawingRequests == 0 {
          let next = ahead.removeFirst()
          if cache[next.key] == nil, !running.contains(next.key) {
            job = next
            isAhead = true
          }
        } else {
          condition.wait()
        }
      }
      let chosen = job!
      running.insert(chosen.key)
      if isAhead { drawingAhead += 1 } else { drawingRequests += 1 }
      condition.unlock()

      let answer = Self.draw(chosen.version, at: chosen.time, scale: scale)

      condition.lock()
      running.remove(chosen.key)
      if isAhead { drawingAhead -= 1 } else { drawingRequests -= 1 }
      drawnCount += 1
      if case .png(let png, _) = answer, chosen.key.generation >= (order.last?.generation ?? 0) {
        cache[chosen.key] = png
        bytes += png.count
        touch(chosen.key)
        while order.count > Self.cachedFrames || bytes > Self.cachedBytes, order.count > 1 {
          let old = order.removeFirst()
          bytes -= cache.removeValue(forKey: old)?.count ?? 0
        }
      }
      let resumed = waiting.removeValue(forKey: chosen.key) ?? []
      condition.unlock()
      for continuation in resumed { continuation.resume(returning: answer) }
    }
  }

  /// Linux's SCHED_IDLE (sched.h; Glibc's module leaves it out).
  static let idlePolicy: Int32 = 5

  /// The frame as `render still` draws it, as a PNG of the same pixels
  /// (stored, not compressed: it only crosses the loopback interface).
  static func draw(_ version: SceneVersion, at t: Double, scale: Double?) -> Answer {
    do {
      let frame = try version.source.renderFrame(at: t, scale: scale, cache: version.tiles, frame: 0)
      let png = try PNG.encode(frame.pixmap, options: .stored)
      return .png(png, generation: version.generation)
    } catch let error as RenderError {
      return .failed("\(error.location.line):\(error.location.column): error: \(error.message)")
    } catch {
      return .failed("\(error)")
    }
  }
}
