import Primitives

/// The one definition of how a number is written, in each of the project's
/// notations. All three share one grammar,
///
///     number   := sign? mantissa exponent?
///     mantissa := digits ('.' digits)? | '.' digits
///     exponent := ('e' | 'E') ('+' | '-')? digits
///
/// and differ in the details:
///
/// | notation      | sign        | `.5` | `_` in digits | leading zeros |
/// |---------------|-------------|------|---------------|---------------|
/// | `.json`       | `-` only    | no   | no            | no (`0.5`, not `00.5`) |
/// | `.swift`      | `-` or `+`  | no   | yes, after a part's first digit (`1_000`, `1e1_0`) | yes |
/// | `.expression` | none (a sign is an operator) | yes | no | yes |
///
/// In none of them does `1.` (a point without digits after it), `1e`, `2e+`
/// or `.` alone make a number, and a value beyond ±1.8e308 (`1e400`) is out
/// of range; one too small to represent (`1e-400`) is 0.
public enum NumberNotation: Sendable, Hashable, CaseIterable {
  /// RFC 8259's numbers: `-0`, `12`, `0.5`, `-1.5e2`.
  case json
  /// Swift's decimal literals with an optional sign, as the call syntax
  /// writes arguments: `0.5`, `-2`, `+2`, `1_000`, `1e-3`, `2E2`.
  case swift
  /// A progress expression's numbers: `12`, `0.5`, `.5`, `1e-3`, `2.5E+2`.
  case expression
}

/// A code unit the number scanner can read: a UTF-8 byte or a Unicode scalar.
public protocol ASCIICodeUnit {
  /// The ASCII code, or `nil` for anything beyond ASCII.
  var asciiCode: UInt8? { get }
}

extension UInt8: ASCIICodeUnit {
  public var asciiCode: UInt8? { self < 0x80 ? self : nil }
}

extension Unicode.Scalar: ASCIICodeUnit {
  public var asciiCode: UInt8? { isASCII ? UInt8(value) : nil }
}

/// A number as scanned: its value and where it is written.
public struct ScannedNumber: Sendable, Hashable {
  public var value: Double
  /// Offsets of the number's code units in the scanned text.
  public var range: Range<Int>
}

/// Why a number is not one, and where.
public struct NumberSyntaxError: Error, Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// A part that needs digits has none: the mantissa (`-`, `-x`), the
    /// fraction (`1.`, `.`) or the exponent (`1e`, `2e+`).
    case missingDigits(Part)
    /// JSON's `01`.
    case leadingZero
    /// `.5` where a digit must come first.
    case leadingPoint
    /// Characters that look like the number's go on after it: `1.2.3`, `1._5`.
    case runsOn
    /// Finite in writing, infinite as a double: `1e400`.
    case outOfRange
  }
  public enum Part: Sendable, Hashable { case mantissa, fraction, exponent }

  public var kind: Kind
  public var notation: NumberNotation
  /// The number as far as it goes: for JSON, up to where the grammar
  /// failed; otherwise the whole run of characters that look like a number.
  public var range: Range<Int>

  /// The message, given the text of `range`: JSON's name the rule broken
  /// (the location shows the number), the others quote the number.
  public func message(written: String) -> String {
    switch (notation, kind) {
    case (_, .outOfRange): "number \(Excerpt.quoted(written)) is out of range"
    case (.json, .missingDigits(.mantissa)): "invalid number"
    case (.json, .missingDigits(.fraction)): "invalid number: expected digits after '.'"
    case (.json, .missingDigits(.exponent)): "invalid number: expected digits in the exponent"
    case (.json, .leadingZero): "numbers may not have leading zeros"
    case (_, .leadingPoint): "a number needs a digit before '.' (write 0.5, not .5)"
    // Nothing number-like where one was expected (a sign is not part of an
    // expression's number: it is an operator).
    case (_, .missingDigits(.mantissa)) where written.isEmpty: "expected a number"
    default: "invalid number \(Excerpt.quoted(written))"
    }
  }
}

extension NumberNotation {
  /// Scans the number that starts at `start` in `text`.
  ///
  /// JSON numbers end where the grammar does (`1.2.3` is the number `1.2`
  /// and then other text). In the other notations a number is the whole run
  /// of characters that can be part of one (digits, `.`, `_` in Swift, and
  /// an exponent), so that `1.2.3` is one invalid number, quoted whole.
  public func scan<C: RandomAccessCollection>(_ text: C, at start: Int) -> Result<ScannedNumber, NumberSyntaxError>
  where C.Element: ASCIICodeUnit, C.Index == Int {
    func code(_ i: Int) -> UInt8? { i < text.endIndex ? text[i].asciiCode : nil }
    func isDigit(_ i: Int) -> Bool { code(i).map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
    func isSign(_ i: Int) -> Bool { code(i) == UInt8(ascii: "-") || code(i) == UInt8(ascii: "+") }
    func isExponentMark(_ i: Int) -> Bool { code(i) == UInt8(ascii: "e") || code(i) == UInt8(ascii: "E") }
    let underscores = self == .swift
    /// Digits from `i`, with underscores after the first where allowed.
    func digits(from i: Int) -> Int {
      guard isDigit(i) else { return i }
      var end = i + 1
      while isDigit(end) || (underscores && code(end) == UInt8(ascii: "_")) { end += 1 }
      return end
    }

    // The grammar, as far as it goes.
    var i = start
    var failure: NumberSyntaxError.Kind?
    switch self {
    case .json: if code(i) == UInt8(ascii: "-") { i += 1 }
    case .swift: if isSign(i) { i += 1 }
    case .expression: break
    }
    let mantissaStart = i
    i = digits(from: i)
    if i == mantissaStart {
      if code(i) != UInt8(ascii: ".") || self == .json {
        failure = .missingDigits(.mantissa)
      } else if self == .swift {
        failure = isDigit(i + 1) ? .leadingPoint : .missingDigits(.mantissa)
      }
    } else if self == .json, code(mantissaStart) == UInt8(ascii: "0"), i - mantissaStart > 1 {
      failure = .leadingZero
    }
    if failure == nil, code(i) == UInt8(ascii: ".") {
      let fractionStart = i + 1
      i = digits(from: fractionStart)
      if i == fractionStart { failure = .missingDigits(.fraction) }
    }
    if failure == nil, isExponentMark(i) {
      i += 1
      if isSign(i) { i += 1 }
      let exponentStart = i
      i = digits(from: exponentStart)
      if i == exponentStart { failure = .missingDigits(.exponent) }
    }

    // Where the number ends: the grammar's end for JSON, the run of
    // number-like characters otherwise.
    var end = i
    if self != .json {
      end = start
      if self == .swift, isSign(end) { end += 1 }
      while isDigit(end) || code(end) == UInt8(ascii: ".") || (underscores && code(end) == UInt8(ascii: "_")) { end += 1 }
      if isExponentMark(end) {
        end += 1
        if isSign(end) { end += 1 }
        while isDigit(end) || (underscores && code(end) == UInt8(ascii: "_")) { end += 1 }
      }
      if failure == nil, end != i { failure = .runsOn }
    }
    if let failure { return .failure(NumberSyntaxError(kind: failure, notation: self, range: start..<end)) }

    var ascii: [UInt8] = []
    ascii.reserveCapacity(end - start + 1)
    if code(start) == UInt8(ascii: ".") { ascii.append(UInt8(ascii: "0")) }
    for j in start..<end where code(j) != UInt8(ascii: "_") { ascii.append(code(j)!) }
    guard let value = Double(String(decoding: ascii, as: UTF8.self)), value.isFinite else {
      return .failure(NumberSyntaxError(kind: .outOfRange, notation: self, range: start..<end))
    }
    return .success(ScannedNumber(value: value, range: start..<end))
  }
}
