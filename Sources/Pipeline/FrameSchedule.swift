import Timing

/// A frame rate as a fraction: 60/1, 25/2, 30000/1001. What `--fps`
/// takes (docs/cli.md): a number or a ratio `A/B`; 23.976, 29.97 and 59.94
/// (and every other rate n × 1000/1001 written to three decimals) mean
/// n·1000/1001 exactly, as video does.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
  /// `frames` frames every `seconds` seconds, in lowest terms.
  public let frames: Int
  public let seconds: Int

  /// The highest rate an output takes, in frames per second.
  public static let maximum = 1000

  public init(_ perSecond: Int) { self.init(frames: perSecond, seconds: 1)! }

  /// `frames / seconds` in lowest terms; nil unless both are positive.
  public init?(frames: Int, seconds: Int) {
    guard frames > 0, seconds > 0 else { return nil }
    var (a, b) = (frames, seconds)
    while b != 0 { (a, b) = (b, a % b) }
    self.frames = frames / a
    self.seconds = seconds / a
  }

  /// `60`, `12.5`, `29.97` (30000/1001) or `30000/1001`; nil for anything
  /// else (and for rates of 0 or above `maximum`).
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 2 {
      guard let a = Self.integer(parts[0]), let b = Self.integer(parts[1]) else { return nil }
      self.init(frames: a, seconds: b)
    } else if parts.count == 1 {
      let decimal = text.split(separator: ".", omittingEmptySubsequences: false)
      guard decimal.count <= 2, let whole = Self.integer(decimal[0]) else { return nil }
      let fraction = decimal.count == 2 ? decimal[1] : ""
      guard fraction.count <= 6, fraction.allSatisfy(\.isASCII), fraction.isEmpty || Self.integer(fraction) != nil else { return nil }
      var scale = 1
      for _ in fraction { scale *= 10 }
      let numerator = whole * scale + (Self.integer(fraction) ?? 0)
      // A rate written as the rounding of n × 1000/1001 is that rate.
      let ntsc = Double(numerator) / Double(scale) * 1.001
      if scale > 1, numerator % scale != 0, abs(ntsc - ntsc.rounded()) < 5e-4, ntsc.rounded() >= 1 {
        self.init(frames: Int(ntsc.rounded()) * 1000, seconds: 1001)
      } else {
        self.init(frames: numerator, seconds: scale)
      }
    } else {
      return nil
    }
    guard perSecond <= Double(Self.maximum) else { return nil }
  }

  private static func integer(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }

  /// Frames per second.
  public var perSecond: Double { Double(frames) / Double(seconds) }

  /// `60` or `30000/1001`.
  public var description: String { seconds == 1 ? "\(frames)" : "\(frames)/\(seconds)" }
}

/// Which scene times an output shows: frame i at `from + i / (fps × slow)`,
/// `floor((to − from) × fps × slow + 1e-9) + 1` frames (docs/cli.md): the
/// `SampleTimes` of scene time at fps × slow per second.
public struct FrameSchedule: Sendable, Hashable {
  public var from: Double
  public var to: Double
  /// Output frames per second.
  public var rate: FrameRate
  /// Slow-motion factor: the scene plays `slow` times slower.
  public var slow: Double

  public init(from: Double, to: Double, rate: FrameRate, slow: Double) {
    self.from = from; self.to = to; self.rate = rate; self.slow = slow
  }

  /// Output frames per second.
  public var fps: Double { rate.perSecond }

  /// The frames' scene times.
  public var times: SampleTimes {
    SampleTimes(from: from, to: to, samples: Double(rate.frames) * slow, per: Double(rate.seconds))
  }

  /// The number of frames; computed in floating point, so a huge range is
  /// reported as such rather than trapping (see `SceneLimits.maximumFrames`).
  public var frameCountEstimate: Double { times.countEstimate }

  public var count: Int { Int(frameCountEstimate) }

  /// Scene time of frame i.
  public func time(_ i: Int) -> Double { times.time(i) }

  /// The output's length in seconds of playback.
  public var playbackDuration: Double { Double(count) * Double(rate.seconds) / Double(rate.frames) }
}
