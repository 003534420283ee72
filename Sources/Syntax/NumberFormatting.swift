/// Numbers for people: at most 12 significant digits, no trailing `.0`, so
/// that 1 − 0.8 prints as 0.2 and 3.0 as 3. Values print exactly as Swift
/// does when that is already short. With `significantDigits` nil, exactly:
/// whole numbers (below 10¹⁵ in magnitude) as integers, others in Swift's
/// shortest form that reads back to the same double (JSON output, the
/// canonical text of an expression).
public func formatNumber(_ x: Double, significantDigits: Int? = 12) -> String {
  guard x.isFinite else { return "\(x)" }
  if x == 0 { return "0" }
  if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  let plain = "\(x)"
  guard let significantDigits else { return plain }
  // Already short (e.g. 0.35, 1e-05)?
  if plain.filter(\.isNumber).count <= significantDigits { return plain }
  // Round to the significant digits: find the power of ten of the leading digit.
  var exponent = 0
  var magnitude = abs(x)
  while magnitude >= 10 { magnitude /= 10; exponent += 1 }
  while magnitude < 1 { magnitude *= 10; exponent -= 1 }
  let decimals = significantDigits - 1 - exponent
  guard decimals > 0, decimals <= 17 else { return plain }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (x * scale).rounded() / scale
  let text = "\(rounded)"
  return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
}
