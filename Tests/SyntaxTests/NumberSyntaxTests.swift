import Testing

@testable import Syntax

/// What each notation makes of a text: the number and the code units it
/// covers, or the message and the code units it quotes.
enum NumberScanOutcome: Equatable, Sendable, CustomStringConvertible {
  case number(Double, Range<Int>)
  case error(String, Range<Int>)

  init(_ text: String, _ notation: NumberNotation) {
    let scalars = Array(text.unicodeScalars)
    switch notation.scan(scalars, at: 0) {
    case .success(let n): self = .number(n.value, n.range)
    case .failure(let e):
      var written = String.UnicodeScalarView()
      written.append(contentsOf: scalars[e.range])
      self = .error(e.message(written: String(written)), e.range)
    }
  }

  var description: String {
    switch self {
    case .number(let x, let r): "\(x) at \(r)"
    case .error(let m, let r): "'\(m)' at \(r)"
    }
  }
}

/// Each notation's cases: the text and what the notation makes of it.
private func cases(_ notation: NumberNotation, _ rows: [(String, NumberScanOutcome)]) -> [(NumberNotation, String, NumberScanOutcome)] {
  rows.map { (notation, $0.0, $0.1) }
}

@Suite struct NumberSyntaxTests {
  @Test(
    arguments: cases(
      .json,
      [
        // RFC 8259: the grammar decides where a number ends.
        ("0", .number(0, 0..<1)),
        ("12", .number(12, 0..<2)),
        ("0.5", .number(0.5, 0..<3)),
        ("-1.5e2", .number(-150, 0..<6)),
        ("1E+2", .number(100, 0..<4)),
        ("1e-3", .number(0.001, 0..<4)),
        ("1e-400", .number(0, 0..<6)),  // too small: 0, not an error
        ("2.5, 3", .number(2.5, 0..<3)),
        ("1.2.3", .number(1.2, 0..<3)),  // what follows is the document's business
        ("1_000", .number(1, 0..<1)),
        (".5", .error("invalid number", 0..<0)),
        ("-", .error("invalid number", 0..<1)),
        ("+1", .error("invalid number", 0..<0)),
        ("-.5", .error("invalid number", 0..<1)),
        ("01", .error("numbers may not have leading zeros", 0..<2)),
        ("-007", .error("numbers may not have leading zeros", 0..<4)),
        ("1.", .error("invalid number: expected digits after '.'", 0..<2)),
        ("1.e5", .error("invalid number: expected digits after '.'", 0..<2)),
        ("1e", .error("invalid number: expected digits in the exponent", 0..<2)),
        ("2e+", .error("invalid number: expected digits in the exponent", 0..<3)),
        ("1e400", .error("number '1e400' is out of range", 0..<5)),
        ("-1e400", .error("number '-1e400' is out of range", 0..<6)),
      ])
      + cases(
        .swift,
        [
          // Swift's literals with a sign; a number is the whole run of characters that may be part of one.
          ("0.5", .number(0.5, 0..<3)),
          ("-2", .number(-2, 0..<2)),
          ("+2", .number(2, 0..<2)),
          ("007", .number(7, 0..<3)),
          ("1_000", .number(1000, 0..<5)),
          ("1_000.000_1", .number(1000.0001, 0..<11)),
          ("1_.5_", .number(1.5, 0..<5)),
          ("1e-3", .number(0.001, 0..<4)),
          ("2E2", .number(200, 0..<3)),
          ("1e1_0", .number(1e10, 0..<5)),
          ("3)", .number(3, 0..<1)),
          ("1abc", .number(1, 0..<1)),
          (".5", .error("a number needs a digit before '.' (write 0.5, not .5)", 0..<2)),
          ("-.5", .error("a number needs a digit before '.' (write 0.5, not .5)", 0..<3)),
          ("+.25", .error("a number needs a digit before '.' (write 0.5, not .5)", 0..<4)),
          ("1.", .error("invalid number '1.'", 0..<2)),
          ("1.e5", .error("invalid number '1.e5'", 0..<4)),
          ("1._5", .error("invalid number '1._5'", 0..<4)),
          ("-_1", .error("invalid number '-_1'", 0..<3)),
          ("1e", .error("invalid number '1e'", 0..<2)),
          ("1e_5", .error("invalid number '1e_5'", 0..<4)),
          ("-", .error("invalid number '-'", 0..<1)),
          ("1.2.3", .error("invalid number '1.2.3'", 0..<5)),
          ("1e400", .error("number '1e400' is out of range", 0..<5)),
        ])
      + cases(
        .expression,
        [
          // Progress expressions: `.5` is a number; a sign is an operator; `_` is no digit.
          ("12", .number(12, 0..<2)),
          ("0.5", .number(0.5, 0..<3)),
          (".5", .number(0.5, 0..<2)),
          ("007", .number(7, 0..<3)),
          ("1e-3", .number(0.001, 0..<4)),
          ("2.5E+2", .number(250, 0..<6)),
          ("2*p", .number(2, 0..<1)),
          ("1_000", .number(1, 0..<1)),
          ("-1", .error("expected a number", 0..<0)),
          ("1.", .error("invalid number '1.'", 0..<2)),
          (".", .error("invalid number '.'", 0..<1)),
          ("1e", .error("invalid number '1e'", 0..<2)),
          ("2e+", .error("invalid number '2e+'", 0..<3)),
          ("1.2.3", .error("invalid number '1.2.3'", 0..<5)),
          ("1e400", .error("number '1e400' is out of range", 0..<5)),
        ]))
  func eachNotationHasItsNumbers(_ notation: NumberNotation, _ text: String, _ expected: NumberScanOutcome) {
    #expect(NumberScanOutcome(text, notation) == expected, "\(text) in \(notation)")
  }

  @Test func negativeZeroKeepsItsSign() {
    for notation in [NumberNotation.json, .swift] {
      guard case .success(let n) = notation.scan(Array("-0".utf8), at: 0) else {
        Issue.record("-0 rejected in \(notation)")
        continue
      }
      #expect(n.value == 0 && n.value.sign == .minus, "\(notation)")
    }
  }

  @Test func bytesAndScalarsScanAlike() throws {
    // A number starts anywhere; a non-ASCII character ends it.
    let text = "x = 1.5e3٣"
    for notation in NumberNotation.allCases {
      let fromBytes = notation.scan(Array(text.utf8), at: 4)
      let fromScalars = notation.scan(Array(text.unicodeScalars), at: 4)
      #expect(fromBytes == fromScalars, "\(notation)")
      #expect(try fromBytes.get() == ScannedNumber(value: 1500, range: 4..<9), "\(notation)")
    }
  }

  /// The parsers read numbers through the scanner, each in its notation.
  @Test func parsersUseTheirNotation() throws {
    #expect(try JSONParser.parse("[-0.5, 1e3]").array!.map { $0.number! } == [-0.5, 1000])
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[1_000]") }
    #expect(try CallParser.parse("f(1_000, -2)").calls[0].arguments!.map(\.value) == [.number(1000), .number(-2)])
    #expect(throws: SyntaxError.self) { try CallParser.parse("f(-.5)") }
    #expect(try ProgressExpression(parsing: ".5 + 1").evaluate(p: 0) == 1.5)
    #expect(throws: SyntaxError.self) { try ProgressExpression(parsing: "1_000") }
  }
}
