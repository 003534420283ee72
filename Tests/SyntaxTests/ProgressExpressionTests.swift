import PortableMath
import Testing

@testable import Syntax

/// A small seeded generator (SplitMix64), so random tests repeat exactly.
/// (Syntax's tests depend on Syntax alone, so they keep their own.)
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Bitwise equality, with every NaN equal to every other.
private func same(_ a: Double, _ b: Double) -> Bool {
  a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
}

private func value(_ text: String, p: Double = 0) throws -> Double {
  try ProgressExpression(parsing: text).evaluate(p: p)
}

/// An expression tree built by the tests, with its own evaluation, rendered
/// as source with optional parentheses and spacing.
private indirect enum Tree {
  case number(Double, written: String)
  case p
  case negate(Tree)
  case plus(Tree)
  case binary(Tree, Character, Tree)
  case call(String, [Tree])

  func value(p: Double) -> Double {
    switch self {
    case .number(let x, _): return x
    case .p: return p
    case .negate(let a): return -a.value(p: p)
    case .plus(let a): return a.value(p: p)
    case .binary(let a, let op, let b):
      let x = a.value(p: p), y = b.value(p: p)
      switch op {
      case "+": return x + y
      case "-": return x - y
      case "*": return x * y
      case "/": return x / y
      default: return Elementary.pow(x, y)
      }
    case .call(let name, let arguments):
      let xs = arguments.map { $0.value(p: p) }
      switch name {
      case "sin": return Elementary.sin(xs[0])
      case "cos": return Elementary.cos(xs[0])
      case "exp": return Elementary.exp(xs[0])
      case "sqrt": return xs[0].squareRoot()
      case "abs": return xs[0].magnitude
      case "min": return xs.contains(where: \.isNaN) ? .nan : xs.min()!
      default: return xs.contains(where: \.isNaN) ? .nan : xs.max()!
      }
    }
  }

  static func random(depth: Int, using rng: inout SplitMix64) -> Tree {
    if depth == 0 || Int.random(in: 0..<5, using: &rng) == 0 {
      switch Int.random(in: 0..<8, using: &rng) {
      case 0, 1, 2: return .p
      case 3: let n = Double(Int.random(in: 0...20, using: &rng)); return .number(n, written: "\(Int(n))")
      case 4: return .number(0.5, written: ".5")
      case 5: return .number(0.001, written: "1e-3")
      case 6: return .number(250, written: "2.5E+2")
      default: let x = Double.random(in: 0..<10, using: &rng); return .number(x, written: "\(x)")
      }
    }
    switch Int.random(in: 0..<10, using: &rng) {
    case 0: return .negate(random(depth: depth - 1, using: &rng))
    case 1: return .plus(random(depth: depth - 1, using: &rng))
    case 2:
      let name = ["sin", "cos", "exp", "sqrt", "abs", "min", "max"].randomElement(using: &rng)!
      let count = name == "min" || name == "max" ? Int.random(in: 2...4, using: &rng) : 1
      return .call(name, (0..<count).map { _ in random(depth: depth - 1, using: &rng) })
    default:
      let op = Array("+-*/^").randomElement(using: &rng)!
      return .binary(random(depth: depth - 1, using: &rng), op, random(depth: depth - 1, using: &rng))
    }
  }

  /// Source text; `parenthesize` decides, for each compound operand, whether to wrap it.
  func source(using rng: inout SplitMix64, parenthesize: (inout SplitMix64) -> Bool) -> String {
    func space() -> String { ["", " ", "  ", "\t"].randomElement(using: &rng)! }
    func operand(_ t: Tree) -> String {
      let text = t.source(using: &rng, parenthesize: parenthesize)
      if case .number = t { return text }
      if case .p = t { return text }
      return parenthesize(&rng) ? "(" + space() + text + space() + ")" : text
    }
    switch self {
    case .number(_, let written): return written
    case .p: return "p"
    case .negate(let a): return "-" + space() + operand(a)
    case .plus(let a): return "+" + space() + operand(a)
    case .binary(let a, let op, let b): return operand(a) + space() + String(op) + space() + operand(b)
    case .call(let name, let arguments):
      let inner = arguments.map { $0.source(using: &rng, parenthesize: parenthesize) }
      return name + "(" + space() + inner.joined(separator: space() + "," + space()) + space() + ")"
    }
  }
}

@Suite struct ProgressExpressionTests {
  // MARK: Values

  @Test func seedScaleCurve() throws {
    let curve = try ProgressExpression(parsing: "-6.8*p*p + 5.8*p + 1")
    #expect(curve.usesP)
    #expect(curve.evaluate(p: 0) == 1)
    #expect((curve.evaluate(p: 0.5) - 2.2).magnitude < 1e-12)
    #expect(curve.evaluate(p: 1).magnitude < 1e-12)
    #expect(curve.description == "-6.8 * p * p + 5.8 * p + 1")
  }

  @Test(arguments: [
    ("2^3^2", 512.0),
    ("(2^3)^2", 64),
    ("-2^2", -4),
    ("(-2)^2", 4),
    ("8/4/2", 1),
    ("8/(4/2)", 4),
    ("2*3+4", 10),
    ("2+3*4", 14),
    ("(2+3)*4", 20),
    ("10-4-3", 3),
    ("10-(4-3)", 9),
    ("2^-1", 0.5),
    ("2^3*2", 16),
    ("2*3^2", 18),
    ("-2*3", -6),
    ("2*-3", -6),
    ("1-2^2", -3),
    ("--2", 2),
    ("+-+2", -2),
    ("2 - -2", 4),
    ("-2^-2", -0.25),
    ("4^0.5", 2),
    ("2^2^-1", 1.4142135623730951),
    (".5 + 1e-3 + 2.5E+2", 250.501),
    ("12", 12),
    (" \t\n1\n+\r\n2 ", 3),
  ])
  func precedenceAndAssociativity(_ text: String, _ expected: Double) throws {
    #expect(try value(text) == expected)
  }

  @Test func progress() throws {
    #expect(try value("-p^2", p: 3) == -9)
    #expect(try value("(-p)^2", p: 3) == 9)
    #expect(try value("1 - (1 - p)^3", p: 0.5) == 0.875)
    #expect(try value("p/2", p: 3) == 1.5)
    #expect(try value("2^(10*(p-1))", p: 1) == 1)
    #expect(try value("2^(10*(p-1))", p: 0) == 0.0009765625)
  }

  @Test func functions() throws {
    #expect(try value("sin(0)") == 0)
    #expect(try value("cos(0)") == 1)
    #expect(try value("exp(0)") == 1)
    #expect(try value("sqrt(16)") == 4)
    #expect(try value("sqrt(2)") == 2.0.squareRoot())
    #expect(try value("abs(-3)") == 3)
    #expect(try value("abs(p - 1)", p: 0.25) == 0.75)
    #expect(try value("min(3, 1, 2)") == 1)
    #expect(try value("max(3, 1, 2)") == 3)
    #expect(try value("min(4, p, 2)", p: 3) == 2)
    #expect(try value("max(0, min(1, p * 2))", p: 0.3) == 0.6)
    #expect(try value("max(0, min(1, p * 2))", p: 0.8) == 1)
    #expect(try value("exp(1)") == 2.718281828459045)
    #expect(try value("sin(100)") == -0.5063656411097588)
    #expect(try (value("cos(p)^2 + sin(p)^2", p: 0.7) - 1).magnitude < 1e-15)
  }

  @Test func nonFiniteResults() throws {
    #expect(try value("sqrt(-1)").isNaN)
    #expect(try value("1/0") == .infinity)
    #expect(try value("-1/0") == -.infinity)
    #expect(try value("0/0").isNaN)
    #expect(try value("(-8)^(1/3)").isNaN)
    #expect(try value("exp(1000)") == .infinity)
    #expect(try value("exp(-1000)") == 0)
    #expect(try value("max(1, 0/0)").isNaN)
    #expect(try value("min(0/0, 1, 2)").isNaN)
    #expect(try value("sin(1/0)").isNaN)
    #expect(try value("1/p", p: 0) == .infinity)
  }

  @Test func usesP() throws {
    #expect(try !ProgressExpression(parsing: "1 + 2").usesP)
    #expect(try !ProgressExpression(parsing: "sin(3) * 2 ^ -1").usesP)
    #expect(try ProgressExpression(parsing: "p").usesP)
    #expect(try ProgressExpression(parsing: "min(1, 2, p)").usesP)
    #expect(try ProgressExpression(parsing: "2^-p").usesP)
    #expect(try ProgressExpression(parsing: "-(p)").usesP)
  }

  // MARK: Canonical form

  @Test(arguments: [
    ("  2*(3+4) ", "2 * (3 + 4)"),
    ("-(-p)", "- -p"),
    ("--p", "- -p"),
    ("(2^3)^2", "(2^3)^2"),
    ("2^(3^2)", "2^3^2"),
    ("+p", "p"),
    ("((p))", "p"),
    ("p-(1-p)", "p - (1 - p)"),
    ("(p-1)-p", "p - 1 - p"),
    ("-p^2", "-p^2"),
    ("(-p)^2", "(-p)^2"),
    ("2^-p", "2^-p"),
    ("2^(-p)", "2^-p"),
    ("2^(p+1)", "2^(p + 1)"),
    ("(p*2)^2", "(p * 2)^2"),
    ("sin(p)^2", "sin(p)^2"),
    ("1.50", "1.5"),
    (".5", "0.5"),
    ("1e-3", "0.001"),
    ("2.5E+2", "250"),
    ("1e20", "1e+20"),
    ("0.1", "0.1"),
    ("min( p ,1,2 )", "min(p, 1, 2)"),
    ("p/(2*p)", "p / (2 * p)"),
    ("(p*2)*3", "p * 2 * 3"),
    ("p*(2*3)", "p * (2 * 3)"),
    ("2*-p", "2 * -p"),
    ("p - -1", "p - -1"),
    ("-(p+1)", "-(p + 1)"),
    ("-(p*2)", "-(p * 2)"),
    ("-p*2", "-p * 2"),
    ("(-p)*2", "-p * 2"),
  ])
  func canonicalDescription(_ text: String, _ canonical: String) throws {
    let expression = try ProgressExpression(parsing: text)
    #expect(expression.description == canonical)
    #expect(try ProgressExpression(parsing: canonical) == expression)
  }

  @Test func equality() throws {
    #expect(try ProgressExpression(parsing: "p + 1") == ProgressExpression(parsing: "(p)+ 1"))
    #expect(try ProgressExpression(parsing: "p + 1").hashValue == ProgressExpression(parsing: "(p)+ 1").hashValue)
    #expect(try ProgressExpression(parsing: "(p + 1) + 2") == ProgressExpression(parsing: "p + 1 + 2"))
    #expect(try ProgressExpression(parsing: "2*p") != ProgressExpression(parsing: "p*2"))
    #expect(try ProgressExpression(parsing: "p + (1 + 2)") != ProgressExpression(parsing: "p + 1 + 2"))
  }

  /// Random trees written with every operand in parentheses: the parsed
  /// expression has the tree's value, and its description parses back to an
  /// equal expression with bitwise the same values.
  @Test func descriptionRoundTripsOnRandomExpressions() throws {
    var rng = SplitMix64(state: 2024)
    let ps = [0, 0.3, 1, -2.5, 7]
    for _ in 0..<1500 {
      let tree = Tree.random(depth: 5, using: &rng)
      let text = tree.source(using: &rng) { _ in true }
      let expression = try ProgressExpression(parsing: text)
      let reparsed = try ProgressExpression(parsing: expression.description)
      #expect(reparsed == expression, "\(text) → \(expression)")
      #expect(reparsed.description == expression.description)
      #expect(reparsed.usesP == expression.usesP)
      for p in ps {
        #expect(same(expression.evaluate(p: p), tree.value(p: p)), "\(text) at \(p)")
        #expect(same(reparsed.evaluate(p: p), expression.evaluate(p: p)), "\(text) at \(p)")
      }
    }
  }

  /// The same with parentheses left out at random, so the text's own
  /// precedence decides the tree.
  @Test func descriptionRoundTripsWithoutParentheses() throws {
    var rng = SplitMix64(state: 7)
    for _ in 0..<1500 {
      let tree = Tree.random(depth: 6, using: &rng)
      let text = tree.source(using: &rng) { Bool.random(using: &$0) }
      let expression = try ProgressExpression(parsing: text)
      let reparsed = try ProgressExpression(parsing: expression.description)
      #expect(reparsed == expression, "\(text) → \(expression)")
      for p in [0, 0.5, 2] {
        #expect(same(reparsed.evaluate(p: p), expression.evaluate(p: p)), "\(text) at \(p)")
      }
    }
  }

  // MARK: Errors

  @Test(
    arguments: [
      ("", "empty expression", 0..<0),
      ("   ", "empty expression", 0..<3),
      ("p + #", "unexpected character '#'", 4..<5),
      ("p # 2", "unexpected character '#'", 2..<3),
      ("p \u{2212} 1", "unexpected character '\u{2212}' (U+2212); did you mean '-'?", 2..<3),
      ("2 \u{00D7} p", "unexpected character '\u{00D7}' (U+00D7); did you mean '*'?", 2..<3),
      ("p * 🍅", "unexpected character '🍅' (U+1F345)", 4..<5),
      ("2 * ü", "unexpected character 'ü' (U+00FC)", 4..<5),
      ("(p; 1)", "unexpected character ';'", 2..<3),
      ("q", "unknown name 'q'; did you mean 'p'?", 0..<1),
      ("P * 2", "unknown name 'P'; did you mean 'p'?", 0..<1),
      ("1 + t", "unknown name 't'; did you mean 'p'?", 4..<5),
      ("sine", "unknown name 'sine'; did you mean 'sin'?", 0..<4),
      ("2 * sine(p)", "unknown function 'sine'; did you mean 'sin'?", 4..<8),
      ("sqr(p)", "unknown function 'sqr'; did you mean 'sqrt'?", 0..<3),
      ("foo(p)", "unknown function 'foo'", 0..<3),
      ("time", "unknown name 'time'", 0..<4),
      ("sin p", "function 'sin' needs its argument in parentheses: 'sin(...)'", 0..<3),
      ("1 + max", "function 'max' needs its arguments in parentheses: 'max(...)'", 4..<7),
      ("p(2)", "'p' is not a function; write 'p * (...)' to multiply", 0..<1),
      ("(p + 1", "missing ')' to close '('", 0..<1),
      ("2 * (p + (1)", "missing ')' to close '('", 4..<5),
      ("sin(p", "missing ')' to close 'sin('", 3..<4),
      ("1 + min(p, 1", "missing ')' to close 'min('", 7..<8),
      ("sin(p, 1)", "sin takes 1 argument, got 2", 0..<9),
      ("sqrt()", "sqrt takes 1 argument, got 0", 0..<6),
      ("max(p)", "max takes 2 or more arguments, got 1", 0..<6),
      ("1 + min( p )", "min takes 2 or more arguments, got 1", 4..<12),
      ("p 2", "unexpected '2' after 'p'", 2..<3),
      ("p + 1  p + 2", "unexpected 'p + 2' after 'p + 1'", 7..<12),
      ("p)", "unexpected ')' with no matching '('", 1..<2),
      ("sin(1))", "unexpected ')' with no matching '('", 6..<7),
      ("(p q)", "expected an operator or ')', found 'q'", 3..<4),
      ("(2p)", "expected an operator or ')', found 'p'", 2..<3),
      ("(p sin(1))", "expected an operator or ')', found 'sin'", 3..<6),
      ("max(p 1)", "expected an operator, ',' or ')', found '1'", 6..<7),
      ("p +", "expected a value at the end", 3..<3),
      ("2 ^ ", "expected a value at the end", 4..<4),
      ("p * )", "expected a value, found ')'", 4..<5),
      ("p ^ * 2", "expected a value, found '*'", 4..<5),
      ("()", "expected a value, found ')'", 1..<2),
      ("min(1,)", "expected a value, found ')'", 6..<7),
      ("2 ** 3", "'**' is not an operator; write '^' for powers", 2..<4),
      ("1.2.3", "invalid number '1.2.3'", 0..<5),
      ("1.", "invalid number '1.'", 0..<2),
      ("p * 1e", "invalid number '1e'", 4..<6),
      ("2e+", "invalid number '2e+'", 0..<3),
      (".", "invalid number '.'", 0..<1),
      ("1e400", "number '1e400' is out of range", 0..<5),
      ("2 * 1e309 + p", "number '1e309' is out of range", 4..<9),
    ] as [(String, String, Range<Int>)])
  func errorsAreLocated(_ text: String, _ message: String, _ range: Range<Int>) {
    do {
      _ = try ProgressExpression(parsing: text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.message == message, "\(text)")
      #expect(error.origin == .text(range), "\(text)")
    }
  }

  // MARK: Limits

  private func parseError(_ text: String) -> SyntaxError? {
    do {
      _ = try ProgressExpression(parsing: text)
      return nil
    } catch {
      return error
    }
  }

  @Test func lengthLimit() throws {
    // 10,000 characters: 2,500 terms, already in canonical form.
    let longest = "p" + String(repeating: " + p", count: 2499) + "   "
    #expect(longest.unicodeScalars.count == ProgressExpression.maximumLength)
    let expression = try ProgressExpression(parsing: longest)
    #expect(expression.evaluate(p: 1) == 2500)
    #expect(try ProgressExpression(parsing: expression.description) == expression)
    // 5,000 terms without spaces: a flat sum, evaluated without deep recursion.
    let dense = try ProgressExpression(parsing: "p" + String(repeating: "+p", count: 4999))
    #expect(dense.evaluate(p: 1) == 5000)
    #expect(dense.description.unicodeScalars.count == 19_997)  // too long to parse again

    let tooLong = longest + "p"
    let error = try #require(parseError(tooLong))
    #expect(error.message == "expression is too long: 10001 characters; the limit is 10000")
    #expect(error.origin == .text(10_000..<10_001))
  }

  @Test func nestingLimit() throws {
    let message = "nested deeper than the limit of 100 levels"
    func parentheses(_ n: Int) -> String { String(repeating: "(", count: n) + "p" + String(repeating: ")", count: n) }
    func negations(_ n: Int) -> String { String(repeating: "-", count: n) + "p" }
    func powers(_ n: Int) -> String { "2" + String(repeating: "^1", count: n) }
    func calls(_ n: Int) -> String { String(repeating: "abs(", count: n) + "p" + String(repeating: ")", count: n) }

    #expect(try ProgressExpression(parsing: parentheses(100)).evaluate(p: 0.5) == 0.5)
    #expect(try ProgressExpression(parsing: negations(100)).evaluate(p: 0.5) == 0.5)
    #expect(try ProgressExpression(parsing: powers(100)).evaluate(p: 0) == 2)
    #expect(try ProgressExpression(parsing: calls(100)).evaluate(p: -0.5) == 0.5)
    #expect(try ProgressExpression(parsing: String(repeating: "-(", count: 50) + "p" + String(repeating: ")", count: 50)).evaluate(p: 1) == 1)

    for (text, range) in [
      (parentheses(101), 100..<101),
      (negations(101), 100..<101),
      (powers(101), 201..<202),
      (calls(101), 403..<404),
      (String(repeating: "-(", count: 51) + "p" + String(repeating: ")", count: 51), 100..<101),
      // Far too deep: an error, not a stack overflow.
      (String(repeating: "(", count: 9_999), 100..<101),
      (String(repeating: "-", count: 9_999) + "p", 100..<101),
    ] {
      let error = try #require(parseError(text))
      #expect(error.message == message)
      #expect(error.origin == .text(range))
    }
  }

  /// Found by fuzzing (Fuzz/Regressions/expression): 100 leading minus
  /// signs parse; their description wrote a parenthesis per sign and
  /// nested past the limit. It writes `- -` and parses back, equal.
  @Test func manyMinusSignsRoundTrip() throws {
    let expression = try ProgressExpression(parsing: String(repeating: "-", count: 100) + "1")
    #expect(try ProgressExpression(parsing: expression.description) == expression)
    #expect(expression.evaluate(p: 0) == 1)
  }
}
