import Syntax
import Timing

extension Int {
  /// 10ᵏ.
  fileprivate init(pow10 k: Int) { self = (0..<k).reduce(1) { r, _ in r * 10 } }
}

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

  /// The rate of an output when none is given, for a source without a rate
  /// of its own (a scene: continuous time).
  public static let sceneDefault = FrameRate(60)

  /// The rate of an output when none is given: the source's own (a Lottie
  /// file's `fr`, 29.97 as 30000/1001), else `sceneDefault`.
  public static func `default`(for natural: Double?) -> FrameRate {
    natural.flatMap { FrameRate(parsing: "\($0)") } ?? sceneDefault
  }

  public init(_ perSecond: Int) { self.init(frames: perSecond, seconds: 1)! }

  /// `frames / seconds` in lowest terms; nil unless both are positive.
  public init?(frames: Int, seconds: Int) {
    guard frames > 0, seconds > 0 else { return nil }
    var (a, b) = (frames, seconds)
    while b != 0 { (a, b) = (b, a % b) }
    self.frames = frames / a
    self.seconds = seconds / a
  }

  /// The largest term of a ratio `A/B`.
  public static let maximumTerm = 999_999_999

  /// `60`, `12.5`, `29.97` (30000/1001) or `30000/1001`, numbers written as
  /// JSON writes them; nil for anything else (and for rates of 0 or above
  /// `maximum`).
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { part -> Double? in
      let bytes = Array(part.utf8)
      guard case .success(let n) = NumberNotation.json.scan(bytes, at: 0), n.range.upperBound == bytes.count else { return nil }
      return n.value
    }
    guard numbers.count == parts.count, numbers.allSatisfy({ $0 > 0 }) else { return nil }
    if numbers.count == 2 {
      guard numbers.allSatisfy({ $0 == $0.rounded() && $0 <= Double(Self.maximumTerm) }) else { return nil }
      self.init(frames: Int(numbers[0]), seconds: Int(numbers[1]))
    } else if numbers.count == 1 {
      let x = numbers[0]
      guard x <= Double(Self.maximum) else { return nil }
      // A rate written as the rounding of n × 1000/1001 is that rate.
      let ntsc = x * 1.001
      if x != x.rounded(), abs(ntsc - ntsc.rounded()) < 5e-4 {
        self.init(frames: Int(ntsc.rounded()) * 1000, seconds: 1001)
      } else {
        // Any other rate is the decimal fraction written, to 6 places.
        guard
          let places = (0...6).first(where: { k in
            let n = x * Double(Int(pow10: k)); return abs(n - n.rounded()) < 1e-6
          })
        else { return nil }
        self.init(frames: Int((x * Double(Int(pow10: places))).rounded()), seconds: Int(pow10: places))
      }
    } else {
      return nil
    }
    guard perSecond <= Double(Self.maximum) else { return nil }
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

  /// Times given one by one instead of a rate (the stills of a contact
  /// sheet, the frames a preview asks for); nil for evenly spaced frames.
  public var given: [Double]? = nil

  public init(from: Double, to: Double, rate: FrameRate, slow: Double) {
    self.from = from; self.to = to; self.rate = rate; self.slow = slow
  }

  /// Exactly these scene times, in this order (`rate` is then 1 frame a
  /// second, for sinks that need one).
  public init(times: [Double]) {
    self.init(from: times.first ?? 0, to: times.last ?? 0, rate: FrameRate(1), slow: 1)
    given = times
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

  public var count: Int { given?.count ?? Int(frameCountEstimate) }

  /// Scene time of frame i.
  public func time(_ i: Int) -> Double { given?[i] ?? times.time(i) }

  /// The same span at no more than `maximum` frames per second: a faster
  /// schedule is sampled at `maximum` (a GIF's 50 fps).
  public func capped(at maximum: Int) -> FrameSchedule {
    guard fps > Double(maximum) else { return self }
    var capped = self
    capped.rate = FrameRate(maximum)
    return capped
  }

  /// The output's length in seconds of playback.
  public var playbackDuration: Double { Double(count) * Double(rate.seconds) / Double(rate.frames) }
}
