import ArgumentParser
import Jobs

/// When a pixel and a frame differ, as `render diff` and `render batch
/// --baseline` both judge it (Playwright's `toHaveScreenshot` allowances).
struct DiffAllowance: ParsableArguments {
  @Option(help: "A pixel differs when its largest channel difference is more than this many levels (0…255).")
  var threshold: Int = 2

  @Option(name: .customLong("max-diff-pixels"), help: "Differing pixels a frame may have and still match.")
  var maxDiffPixels: Int?

  @Option(name: .customLong("max-diff-ratio"), help: "Differing pixels a frame may have, as a share of its pixels (0…1).")
  var maxDiffRatio: Double?

  func validate() throws {
    guard (0...255).contains(threshold) else { throw ValidationError("--threshold must be between 0 and 255 levels, got \(threshold)") }
    if let maxDiffPixels, maxDiffPixels < 0 { throw ValidationError("--max-diff-pixels must be 0 or more") }
    if let maxDiffRatio, !(maxDiffRatio >= 0 && maxDiffRatio <= 1) { throw ValidationError("--max-diff-ratio must be between 0 and 1") }
  }

  /// The options as the comparison's rule.
  var rule: DiffRule { DiffRule(threshold: threshold, maxDiffPixels: maxDiffPixels, maxDiffRatio: maxDiffRatio) }
}
