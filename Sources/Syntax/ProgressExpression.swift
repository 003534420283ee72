import PortableMath
import Primitives

/// An arithmetic expression of a transition's progress `p`, as scenes write
/// a property of a custom transition's active state: `"-6.8*p*p + 5.8*p + 1"`.
///
/// Grammar (usual precedence; `+ - * /` associate to the left, `^` to the
/// right and binds tighter than a leading minus, so `-p^2` is `-(p^2)` and
/// `2^3^2` is `2^9`):
///
///     expr  := term (('+' | '-') term)*
///     term  := unary (('*' | '/') unary)*
///     unary := ('-' | '+') unary | power
///     power := atom ('^' unary)?
///     atom  := number | 'p' | function '(' expr (',' expr)* ')' | '(' expr ')'
///
/// Numbers are written `12`, `0.5`, `.5`, `1e-3` or `2.5E+2`
/// (`NumberNotation.expression`: not `1.`, no `_`); spaces, tabs
/// and newlines may appear between any two tokens. The functions are `sin`,
/// `cos` (radians), `exp`, `sqrt` and `abs` of one argument, and `min` and
/// `max` of two or more.
///
/// Two expressions are equal when they parse to the same tree: spacing,
/// redundant parentheses and a leading `+` do not matter, but `2*p` and
/// `p*2` differ.
public struct ProgressExpression: Sendable, Hashable, CustomStringConvertible {
  /// The longest accepted source, in Unicode scalars.
  public static let maximumLength = 10_000
  /// The deepest accepted nesting. Each parenthesis, function call, leading
  /// sign and `^` opens one level until its operand ends: `-(sin(p^2))` is
  /// 4 levels deep.
  public static let maximumNesting = 100
  /// The functions an expression may call.
  public static let functionNames: [String] = Function.allCases.map(\.rawValue)

  let root: Node

  /// Whether the value depends on `p`; `false` for constant expressions.
  public let usesP: Bool

  /// Parses `text` completely.
  ///
  /// - Throws: `SyntaxError` located at the offending characters
  ///   (`.text` with Unicode-scalar offsets into `text`), e.g. `unknown name
  ///   'q'; did you mean 'p'?` or `missing ')' to close '('`. Text longer than
  ///   `maximumLength` or nested deeper than `maximumNesting` is an error too.
  public init(parsing text: String) throws(SyntaxError) {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count <= Self.maximumLength else {
      throw SyntaxError(
        "expression is too long: \(scalars.count) characters; the limit is \(Self.maximumLength)",
        at: .text(Self.maximumLength..<scalars.count))
    }
    var parser = ExpressionParser(scalars: scalars)
    root = try parser.parseAll()
    usesP = root.usesP
  }

  /// The value at progress `p`. Pure and total: it never traps, but may
  /// return NaN or ±infinity (`sqrt(-1)`, `1/0`, `(-8)^(1/3)`, `exp(1000)`),
  /// so callers should check `isFinite` before using the result. `min` and
  /// `max` return NaN when any argument is NaN.
  public func evaluate(p: Double) -> Double { root.evaluate(p: p) }

  /// A canonical rendering that parses back to an equal expression (and so
  /// to the same value): single spaces around `+ - * /` (none around `^`),
  /// parentheses only where precedence needs them, no leading `+`, and each
  /// number in its shortest exact form, e.g. `-6.8 * p * p + 5.8 * p + 1`.
  ///
  /// The added spaces (and numbers written out, `100000` for `1e5`) can
  /// make it longer than the source: for a source near `maximumLength`, the
  /// description may exceed the limit and then not parse again.
  public var description: String {
    var out = ""
    root.render(into: &out, context: .sum)
    return out
  }
}

// MARK: - The tree

extension ProgressExpression {
  enum Function: String, CaseIterable, Sendable, Hashable {
    case sin, cos, exp, sqrt, abs, min, max

    /// `nil` for "2 or more".
    var arity: Int? {
      switch self {
      case .min, .max: nil
      default: 1
      }
    }
  }

  /// One operand after the first in a sum (`inverted`: subtracted) or a
  /// product (`inverted`: divided by).
  struct Operand: Sendable, Hashable {
    var inverted: Bool
    var node: Node
  }

  /// Sums and products are flat lists evaluated left to right, so a long
  /// chain such as `p + p + … + p` makes a shallow tree: the tree is only as
  /// deep as the nesting, which the parser limits.
  indirect enum Node: Sendable, Hashable {
    case number(Double)
    case p
    case negate(Node)
    case sum(Node, [Operand])
    case product(Node, [Operand])
    case power(Node, Node)
    case call(Function, [Node])

    var usesP: Bool {
      switch self {
      case .number: false
      case .p: true
      case .negate(let a): a.usesP
      case .sum(let first, let rest), .product(let first, let rest):
        first.usesP || rest.contains { $0.node.usesP }
      case .power(let a, let b): a.usesP || b.usesP
      case .call(_, let arguments): arguments.contains { $0.usesP }
      }
    }

    func evaluate(p: Double) -> Double {
      switch self {
      case .number(let x): return x
      case .p: return p
      case .negate(let a): return -a.evaluate(p: p)
      case .sum(let first, let rest):
        var value = first.evaluate(p: p)
        for operand in rest {
          let x = operand.node.evaluate(p: p)
          value = operand.inverted ? value - x : value + x
        }
        return value
      case .product(let first, let rest):
        var value = first.evaluate(p: p)
        for operand in rest {
          let x = operand.node.evaluate(p: p)
          value = operand.inverted ? value / x : value * x
        }
        return value
      case .power(let a, let b):
        return Elementary.pow(a.evaluate(p: p), b.evaluate(p: p))
      case .call(let function, let arguments):
        let x = arguments[0].evaluate(p: p)
        switch function {
        case .sin: return Elementary.sin(x)
        case .cos: return Elementary.cos(x)
        case .exp: return Elementary.exp(x)
        case .sqrt: return x.squareRoot()
        case .abs: return x.magnitude
        case .min, .max:
          var value = x
          for argument in arguments.dropFirst() {
            let y = argument.evaluate(p: p)
            if value.isNaN || y.isNaN { value = .nan } else if function == .min ? y < value : y > value { value = y }
          }
          return value
        }
      }
    }

    /// Binding strength, weakest first.
    enum Precedence: Int, Comparable {
      case sum, product, unary, power, atom
      static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    var precedence: Precedence {
      switch self {
      case .number, .p, .call: .atom
      case .negate: .unary
      case .sum: .sum
      case .product: .product
      case .power: .power
      }
    }

    /// Appends the node, in parentheses when it binds more loosely than
    /// `context` (the weakest precedence the grammar accepts there).
    func render(into out: inout String, context: Precedence) {
      let needsParentheses = precedence < context
      if needsParentheses { out += "(" }
      switch self {
      case .number(let x):
        out += formatNumber(x, significantDigits: nil)
      case .p:
        out += "p"
      case .negate(let a):
        // A minus before a minus is `- -x`: a space, not a parenthesis per
        // sign (which would nest past the limit the parser keeps).
        var operand = ""
        a.render(into: &operand, context: .unary)
        out += operand.hasPrefix("-") ? "- " + operand : "-" + operand
      case .sum(let first, let rest):
        first.render(into: &out, context: .product)
        for operand in rest {
          out += operand.inverted ? " - " : " + "
          operand.node.render(into: &out, context: .product)
        }
      case .product(let first, let rest):
        first.render(into: &out, context: .unary)
        for operand in rest {
          out += operand.inverted ? " / " : " * "
          operand.node.render(into: &out, context: .unary)
        }
      case .power(let a, let b):
        a.render(into: &out, context: .atom)
        out += "^"
        b.render(into: &out, context: .unary)
      case .call(let function, let arguments):
        out += function.rawValue + "("
        for (i, argument) in arguments.enumerated() {
          if i > 0 { out += ", " }
          argument.render(into: &out, context: .sum)
        }
        out += ")"
      }
      if needsParentheses { out += ")" }
    }
  }
}

// MARK: - The parser

/// Recursive descent over Unicode scalars; every error carries the offsets
/// of the text that caused it.
private struct ExpressionParser: ScalarParser {
  var scanner: ScalarScanner
  var depth = 0
  static var maximumNesting: Int { ProgressExpression.maximumNesting }

  init(scalars: [Unicode.Scalar]) { scanner = ScalarScanner(scalars) }

  mutating func parseAll() throws(SyntaxError) -> ProgressExpression.Node {
    skipSpaces()
    guard current != nil else {
      throw SyntaxError("empty expression", at: .text(0..<scanner.scalars.count))
    }
    let node = try parseOperands(of: .sum)
    skipSpaces()
    if let c = current {
      if !Self.isKnown(c) { throw unexpectedCharacter() }
      if c == ")" {
        throw SyntaxError("unexpected ')' with no matching '('", at: .text(index..<index + 1))
      }
      throw unexpectedRest()
    }
    return node
  }

  // MARK: Tokens

  /// Characters that can appear in some expression.
  private static func isKnown(_ c: Unicode.Scalar) -> Bool {
    ScalarScanner.isSpace(c) || ScalarScanner.isNamePart(c) || "+-*/^().,".unicodeScalars.contains(c)
  }

  /// The token starting at `index`, for messages: a name, a number or one character.
  private func tokenRange() -> Range<Int> {
    var end = index + 1
    func isWordPart(_ c: Unicode.Scalar) -> Bool { ScalarScanner.isNamePart(c) || c == "." }
    if isWordPart(scanner.scalars[index]) {
      while let c = scanner.scalar(at: end), isWordPart(c) { end += 1 }
    }
    return index..<end
  }

  private func unexpectedCharacter() -> SyntaxError {
    let c = scanner.scalars[index]
    var message = "unexpected character '\(c)'"
    if !c.isASCII || c.value < 0x20 || c.value == 0x7F {
      var hex = String(c.value, radix: 16, uppercase: true)
      while hex.count < 4 { hex = "0" + hex }
      message += " (U+\(hex))"
    }
    let lookalikes: [Unicode.Scalar: String] = [
      "\u{2212}": "-", "\u{2013}": "-", "\u{00D7}": "*", "\u{00B7}": "*", "\u{22C5}": "*", "\u{00F7}": "/",
    ]
    if let ascii = lookalikes[c] { message += "; did you mean '\(ascii)'?" }
    return SyntaxError(message, at: .text(index..<index + 1))
  }

  /// An error for the token at `index` where `expected` was.
  private func unexpected(expected: String) -> SyntaxError {
    guard let c = current else {
      return SyntaxError("\(expected) at the end", at: .text(index..<index))
    }
    if !Self.isKnown(c) { return unexpectedCharacter() }
    let range = tokenRange()
    return SyntaxError("\(expected), found \(Excerpt.quoted(text(range)))", at: .text(range))
  }

  // MARK: Grammar

  /// The two levels of left-associative operators: a sum of products, a
  /// product of unary operands.
  private enum Level {
    case sum, product

    /// The operator that adds (or multiplies) and the one that inverts.
    var operators: (plain: Unicode.Scalar, inverted: Unicode.Scalar) {
      switch self {
      case .sum: ("+", "-")
      case .product: ("*", "/")
      }
    }

    func node(_ first: ProgressExpression.Node, _ rest: [ProgressExpression.Operand]) -> ProgressExpression.Node {
      switch self {
      case .sum: .sum(first, rest)
      case .product: .product(first, rest)
      }
    }
  }

  /// `operand (operator operand)*` at `level`, as one flat list: (a + b) +
  /// c is a + b + c, evaluated in the same order.
  private mutating func parseOperands(of level: Level) throws(SyntaxError) -> ProgressExpression.Node {
    let operand = { (parser: inout Self) throws(SyntaxError) -> ProgressExpression.Node in
      level == .sum ? try parser.parseOperands(of: .product) : try parser.parseUnary()
    }
    let first = try operand(&self)
    let (plain, inverted) = level.operators
    var rest: [ProgressExpression.Operand] = []
    while true {
      skipSpaces()
      guard let c = current, c == plain || c == inverted else { break }
      if c == "*", scanner.scalar(at: index + 1) == "*" {
        throw SyntaxError("'**' is not an operator; write '^' for powers", at: .text(index..<index + 2))
      }
      index += 1
      rest.append(ProgressExpression.Operand(inverted: c == inverted, node: try operand(&self)))
    }
    if rest.isEmpty { return first }
    switch (level, first) {
    case (.sum, .sum(let head, let tail)), (.product, .product(let head, let tail)): return level.node(head, tail + rest)
    default: return level.node(first, rest)
    }
  }

  private mutating func parseUnary() throws(SyntaxError) -> ProgressExpression.Node {
    skipSpaces()
    guard let c = current, c == "-" || c == "+" else { return try parsePower() }
    try enter(index..<index + 1)
    defer { depth -= 1 }
    index += 1
    let operand = try parseUnary()
    return c == "-" ? .negate(operand) : operand
  }

  private mutating func parsePower() throws(SyntaxError) -> ProgressExpression.Node {
    let base = try parseAtom()
    skipSpaces()
    guard current == "^" else { return base }
    try enter(index..<index + 1)
    defer { depth -= 1 }
    index += 1
    return .power(base, try parseUnary())
  }

  private mutating func parseAtom() throws(SyntaxError) -> ProgressExpression.Node {
    skipSpaces()
    guard let c = current else { throw unexpected(expected: "expected a value") }
    if ScalarScanner.isDigit(c) || c == "." { return .number(try scanner.scanNumber(.expression)) }
    if ScalarScanner.isNameStart(c) { return try parseName() }
    if c == "(" {
      let open = index
      try enter(open..<open + 1)
      defer { depth -= 1 }
      index += 1
      let inner = try parseOperands(of: .sum)
      skipSpaces()
      if current == ")" {
        index += 1
        return inner
      }
      if current == nil { throw SyntaxError("missing ')' to close '('", at: .text(open..<open + 1)) }
      throw unexpected(expected: "expected an operator or ')'")
    }
    throw unexpected(expected: "expected a value")
  }

  private mutating func parseName() throws(SyntaxError) -> ProgressExpression.Node {
    let start = index
    let nameRange = scanner.scanName()!
    let name = text(nameRange)
    let afterName = index
    skipSpaces()
    let called = current == "("
    if name == "p" {
      if called {
        throw SyntaxError("'p' is not a function; write 'p * (...)' to multiply", at: .text(nameRange))
      }
      index = afterName
      return .p
    }
    guard let function = ProgressExpression.Function(rawValue: name) else {
      if called {
        throw SyntaxError(
          "unknown function \(Excerpt.quoted(name))" + Suggestions.didYouMean(name, in: ProgressExpression.functionNames),
          at: .text(nameRange))
      }
      throw SyntaxError(
        "unknown name \(Excerpt.quoted(name))" + Suggestions.didYouMean(name, in: ["p"] + ProgressExpression.functionNames),
        at: .text(nameRange))
    }
    guard called else {
      let what = function.arity == 1 ? "its argument" : "its arguments"
      throw SyntaxError(
        "function \(Excerpt.quoted(name)) needs \(what) in parentheses: '\(name)(...)'", at: .text(nameRange))
    }
    let open = index
    try enter(open..<open + 1)
    defer { depth -= 1 }
    let arguments = try list(
      openedAt: open, opener: "\(name)(", closer: ")",
      element: { (parser) throws(SyntaxError) in try parser.parseOperands(of: .sum) },
      unexpected: { $0.unexpected(expected: "expected an operator, ',' or ')'") })
    if let arity = function.arity, arguments.count != arity {
      throw SyntaxError(
        "\(name) takes \(arity) argument\(arity == 1 ? "" : "s"), got \(arguments.count)",
        at: .text(start..<index))
    }
    if function.arity == nil, arguments.count < 2 {
      throw SyntaxError("\(name) takes 2 or more arguments, got \(arguments.count)", at: .text(start..<index))
    }
    return .call(function, arguments)
  }
}
