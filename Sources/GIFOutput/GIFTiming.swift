/// Frame rate and delays of a GIF (docs/cli.md): delays are hundredths of a
/// second, carried forward so they add up to the length, never below 2/100 s
/// (browsers slow shorter delays down), so a GIF runs at most 50 fps.
public enum GIFTiming {
  /// The highest frame rate a GIF plays at its real speed.
  public static let maxFrameRate = 50.0

  /// The GIF's frame rate for a requested one: at most 50.
  public static func frameRate(for fps: Double) -> Double {
    precondition(fps > 0, "frame rate must be positive")
    return min(fps, maxFrameRate)
  }

  /// Delays in 1/100 s for `count` frames at `fps` (taken through
  /// `frameRate(for:)`, so at most 50), rounding carried forward:
  /// delay_i = round(100(i+1)/fps) − round(100 i/fps), so they add up to
  /// round(100 · count / fps); none below 2.
  public static func delays(count: Int, fps: Double) -> [Int] {
    let rate = frameRate(for: fps)
    var result = [Int]()
    result.reserveCapacity(max(count, 0))
    var previous = 0
    for i in 0..<max(count, 0) {
      let end = Int((100 * Double(i + 1) / rate).rounded())
      result.append(end - previous)
      previous = end
    }
    return result
  }
}
