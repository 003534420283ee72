import Foundation
import Pipeline
import Primitives
import Render
import Review
import SceneModel
import Syntax

/// What a render job writes and how, as the command line's options say it
/// (docs/cli.md), without the command line: a server or a test fills one in
/// the same way.
public struct RenderRequest: Sendable {
  /// What the job writes.
  public enum Outputs: Sendable {
    /// As each `-o` (none given: empty) and `--format` say, into `folder`
    /// without `-o`.
    case named(outputs: [OutputRequest], formats: [String]?, folder: String)
    /// Exactly these (`render still`, `--max-size`'s retries).
    case targets([OutputTarget])
  }

  public var outputs: Outputs
  /// Output frames per second, and the slow-motion factor.
  public var fps = FrameRate.sceneDefault
  public var slow = 1.0
  /// Pixels per point (the source's when nil).
  public var scale: Double?
  /// The scene times rendered (all by default), and a single still's.
  public var from: Double?
  public var to: Double?
  public var at: Double?
  /// The encoder options given (each format reads the ones it takes).
  public var encoding = EncoderChoices()
  /// `--matte`, as written (a colour read in the source's appearance).
  public var matte: String?
  /// `--max-size`: each output a size budget takes keeps under it.
  public var maxSize: Int?
  /// `--overlay`: the burn-ins, and what the chart shows.
  public var overlays: Set<OverlayKind> = []
  public var chart = ChartData.Selection()
  /// Worker threads (all cores when nil).
  public var workers: Int?
  /// Render every frame and discard it (`--null`).
  public var null = false

  public init(outputs: Outputs) { self.outputs = outputs }

  /// The frames from `from` to `to` (the whole source by default) at `rate`
  /// × `slow`, within the frame limit; `--from` past the end needs `--to`.
  public func schedule(duration: Double, rate: FrameRate? = nil) throws(JobError) -> FrameSchedule {
    try Self.schedule(from: from, to: to, duration: duration, rate: rate ?? fps, slow: slow)
  }

  /// The time range `from` … `to` picks in a source of `duration` seconds.
  public static func range(from: Double?, to: Double?, duration: Double) throws(JobError) -> (from: Double, to: Double) {
    let start = from ?? 0
    if to == nil && start > duration {
      throw .usage("--from \(start) is after the end of the scene (\(duration) s); give --to as well to render past it")
    }
    return (start, to ?? duration)
  }

  /// The frames from `from` to `to` at `rate` × `slow`, within the frame limit.
  public static func schedule(from: Double?, to: Double?, duration: Double, rate: FrameRate, slow: Double) throws(JobError) -> FrameSchedule {
    let (start, end) = try range(from: from, to: to, duration: duration)
    let schedule = FrameSchedule(from: start, to: end, rate: rate, slow: slow)
    if schedule.frameCountEstimate > Double(SceneLimits.maximumFrames) {
      throw .usage(
        "\(formatNumber(schedule.frameCountEstimate)) frames (\(formatNumber(end - start)) s at \(schedule.rate) fps × slow \(formatNumber(slow))) is over the limit of \(SceneLimits.maximumFrames) frames"
      )
    }
    return schedule
  }

  /// `--matte` as a colour (premultiplied) in `appearance`; nil without it.
  public static func matteColor(_ matte: String?, appearance: Appearance) throws(JobError) -> PremultipliedColor? {
    guard let matte else { return nil }
    if let c = matte.hasPrefix("#") ? Color(hex: matte) : NamedColors.color(matte, appearance) { return c.premultiplied }
    throw .usage(
      "--matte takes a colour (#RRGGBB, #RRGGBBAA or a name such as white), got \(Excerpt.quoted(matte))"
        + Suggestions.didYouMean(matte, in: NamedColors.all.keys.sorted()))
  }

  /// `10MB`, `800KB`, `500000`: bytes (KB = 1000, MB = 1,000,000).
  public static func bytes(_ text: String) throws(JobError) -> Int {
    let t = text.trimmingCharacters(in: .whitespaces).uppercased()
    let units: [(String, Double)] = [("MB", 1_000_000), ("KB", 1000), ("B", 1)]
    let (number, unit) = units.first { t.hasSuffix($0.0) }.map { (String(t.dropLast($0.0.count)), $0.1) } ?? (t, 1)
    guard let n = Double(number.trimmingCharacters(in: .whitespaces)), n > 0, n.isFinite, n * unit <= 1e12 else {
      throw .usage("--max-size takes a size such as 10MB or 800KB (KB = 1000 bytes, MB = 1,000,000), got \(Excerpt.quoted(text))")
    }
    return Int((n * unit).rounded(.down))
  }
}
