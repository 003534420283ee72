import PortableMath

/// Axis ticks at round numbers (1, 2 or 5 × 10ⁿ apart), about `target` of
/// them over a range, whatever its length: a 300 ms curve gets ticks every
/// 0.05 s, a two-minute scene every 20 s.
public enum Ticks {
  /// The step between ticks for `span`, near span / target.
  public static func step(span: Double, target: Int = 6) -> Double {
    guard span.isFinite, span > 0 else { return 1 }
    let raw = span / Double(max(1, target))
    let magnitude = Elementary.pow(10, Elementary.log10(raw).rounded(.down))
    let unit = raw / magnitude
    let nice: Double = unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10
    return nice * magnitude
  }

  /// The ticks within lo … hi, at multiples of `step(span:)`.
  public static func values(_ lo: Double, _ hi: Double, target: Int = 6) -> [Double] {
    let step = step(span: hi - lo, target: target)
    var ticks: [Double] = []
    var k = (lo / step - 1e-9).rounded(.up)
    while k * step <= hi + step * 1e-9, ticks.count < 100 {
      let v = k * step
      ticks.append(abs(v) < step * 1e-9 ? 0 : v)
      k += 1
    }
    return ticks
  }

  /// A tick's label: as few decimals as the step needs (`0.25`, `1.5`, `20`).
  public static func label(_ value: Double, step: Double) -> String {
    let decimals = max(0, min(6, Int((-Elementary.log10(step) + 0.999_999).rounded(.down))))
    return format(value, decimals: decimals)
  }

  /// `value` with `decimals` digits after the point (no exponent, no `-0`).
  public static func format(_ value: Double, decimals: Int) -> String {
    let scale = Elementary.pow(10, Double(decimals))
    let rounded = (value * scale).rounded() / scale
    let negative = rounded < 0
    let magnitude = abs(rounded)
    let whole = magnitude.rounded(.down)
    var text = whole < 1e15 ? String(Int64(whole)) : "\(whole)"
    if decimals > 0 {
      let fraction = Int64(((magnitude - whole) * scale).rounded())
      var digits = String(fraction)
      while digits.count < decimals { digits = "0" + digits }
      text += "." + digits
    }
    return (negative && magnitude > 0 ? "−" : "") + text
  }
}
