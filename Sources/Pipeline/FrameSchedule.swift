import Timing

/// Which scene times an output shows: frame i at `from + i / (fps × slow)`,
/// `floor((to − from) × fps × slow + 1e-9) + 1` frames (docs/cli.md): the
/// `SampleTimes` of scene time at fps × slow per second.
public struct FrameSchedule: Sendable, Hashable {
  public var from: Double
  public var to: Double
  /// Output frames per second.
  public var fps: Double
  /// Slow-motion factor: the scene plays `slow` times slower.
  public var slow: Double

  public init(from: Double, to: Double, fps: Double, slow: Double) {
    self.from = from; self.to = to; self.fps = fps; self.slow = slow
  }

  /// The frames' scene times.
  public var times: SampleTimes { SampleTimes(from: from, to: to, rate: fps * slow) }

  /// The number of frames; computed in floating point, so a huge range is
  /// reported as such rather than trapping (see `SceneLimits.maximumFrames`).
  public var frameCountEstimate: Double { times.countEstimate }

  public var count: Int { Int(frameCountEstimate) }

  /// Scene time of frame i.
  public func time(_ i: Int) -> Double { times.time(i) }

  /// The output's length in seconds of playback.
  public var playbackDuration: Double { Double(count) / fps }
}
