import Foundation
import Pipeline
import Render
import SceneModel

/// Why a job did not complete, by what the caller should do: the command
/// line maps each case to its message and exit status (docs/cli.md), a
/// server to its answer.
public enum JobError: Error, Sendable {
  /// Options that cannot work together or a value out of range: the
  /// message says all (`render: error: MESSAGE`, exit 2).
  case usage(String)
  /// A layer could not be drawn, located in the source's file (exit 1).
  case render(RenderError)
  /// An output could not be written, or not within its budget; nothing was
  /// left behind (`render: error: MESSAGE`, exit 1).
  case output(String)
  /// The job's cancellation token was cancelled (a signal, its number):
  /// temporary files removed, existing outputs untouched.
  case cancelled(reason: Int32)
}

/// The limits every picture a job makes must keep (`SceneLimits`).
public enum FrameLimits {
  /// A picture (a frame, a frame with its overlays, a chart, a sheet) must
  /// be within the frame limits; `what` names it and `hint` says how to
  /// make it smaller.
  public static func check(width w: Int, height h: Int, what: String? = nil, hint: String? = nil) throws(JobError) {
    guard SceneLimits.fits(width: w, height: h) else {
      throw .usage(
        (what.map { "\($0), \(w)×\(h) pixels," } ?? "\(w)×\(h) pixels") + " is over \(SceneLimits.frameLimitText)" + (hint.map { "; \($0)" } ?? ""))
    }
  }

  /// A source's frame at `scale` must be within the limits.
  public static func check(_ source: any FrameSource, scale: Double?) throws(JobError) {
    let (w, h) = source.pixelSize(scale: scale)
    try check(width: w, height: h)
  }

  /// How to make a chart smaller, for messages.
  public static let chartHint = "choose fewer --layer or --property, or a smaller --scale"
}
