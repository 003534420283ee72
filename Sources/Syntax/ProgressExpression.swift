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
        return ExpressionMath.pow(a.evaluate(p: p), b.evaluate(p: p))
      case .call(let function, let arguments):
        let x = arguments[0].evaluate(p: p)
        switch function {
        case .sin: return ExpressionMath.sin(x)
        case .cos: return ExpressionMath.cos(x)
        case .exp: return ExpressionMath.exp(x)
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
      // A minus before a minus reads as `--`; parenthesise it.
      let needsParentheses =
        precedence < context || (context == .unary && precedence == .unary && out.last == "-")
      if needsParentheses { out += "(" }
      switch self {
      case .number(let x):
        var text = "\(x)"
        if text.hasSuffix(".0") { text.removeLast(2) }
        out += text
      case .p:
        out += "p"
      case .negate(let a):
        out += "-"
        a.render(into: &out, context: .unary)
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
  private var depth = 0

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
    return SyntaxError("\(expected), found '\(text(range))'", at: .text(range))
  }

  /// Opens one level of nesting at `range` (the bracket or operator that opens it).
  private mutating func enter(_ range: Range<Int>) throws(SyntaxError) {
    depth += 1
    if depth > ProgressExpression.maximumNesting {
      throw SyntaxError(
        "expression nests deeper than \(ProgressExpression.maximumNesting) levels", at: .text(range))
    }
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
          "unknown function '\(name)'" + Suggestions.didYouMean(name, in: ProgressExpression.functionNames),
          at: .text(nameRange))
      }
      throw SyntaxError(
        "unknown name '\(name)'" + Suggestions.didYouMean(name, in: ["p"] + ProgressExpression.functionNames),
        at: .text(nameRange))
    }
    guard called else {
      let what = function.arity == 1 ? "its argument" : "its arguments"
      throw SyntaxError(
        "function '\(name)' needs \(what) in parentheses: '\(name)(...)'", at: .text(nameRange))
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

// MARK: - Elementary functions

/// `sin`, `cos`, `exp` and `pow` in pure Swift (the standard library has
/// none without Foundation or the C library).
///
/// Each works in double-double arithmetic (about 106 bits) and rounds once
/// at the end, so results are correctly rounded except when the exact value
/// lies within about 2⁻⁹⁵ of a rounding boundary (and for subnormal
/// results, which may be 1 ulp off): `exp(1)` is `2.718281828459045` and
/// `2^0.5` is `sqrt(2)`.
///
/// - `sin`/`cos`: x = n·π/2 + r with |r| ≤ π/4, exact enough for any finite
///   double (Payne–Hanek with 1,280 bits of 2/π), then Taylor series in r.
/// - `exp`: x = k·ln 2 + r with |r| ≤ ln 2 / 2, a Taylor series for eʳ, then 2ᵏ.
/// - `pow`: exact squaring for integer exponents up to 2²⁰ (2^3 is 8), else
///   exp(y·ln x) with ln x = k·ln 2 + 2·atanh((m − 1)/(m + 1)).
enum ExpressionMath {
  /// 1/n! for n = 0…27.
  private static let inverseFactorials: [DoubleDouble] = {
    var table = [DoubleDouble(1, 0)]
    for n in 1...27 { table.append(table[n - 1] / DoubleDouble(Double(n), 0)) }
    return table
  }()

  // MARK: sin and cos

  static func sin(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    if x.magnitude <= 0.785398163397448279 { return sinOfReduced(DoubleDouble(x, 0)).rounded }
    let (n, r) = reduce(x.magnitude)
    let s: DoubleDouble
    switch n & 3 {
    case 0: s = sinOfReduced(r)
    case 1: s = cosOfReduced(r)
    case 2: s = -sinOfReduced(r)
    default: s = -cosOfReduced(r)
    }
    return x < 0 ? -s.rounded : s.rounded
  }

  static func cos(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    if x.magnitude <= 0.785398163397448279 { return cosOfReduced(DoubleDouble(x, 0)).rounded }
    let (n, r) = reduce(x.magnitude)
    switch n & 3 {
    case 0: return cosOfReduced(r).rounded
    case 1: return -sinOfReduced(r).rounded
    case 2: return -cosOfReduced(r).rounded
    default: return sinOfReduced(r).rounded
    }
  }

  /// sin r = r·Σ (−r²)ᵏ/(2k+1)! for |r| ≤ π/4; the terms past k = 13 are
  /// below 2⁻¹¹⁰, and those from k = 8 on are small enough to sum in doubles.
  static func sinOfReduced(_ r: DoubleDouble) -> DoubleDouble {
    let minusR2 = -(r * r)
    var tail = inverseFactorials[27].high
    for k in stride(from: 12, through: 8, by: -1) { tail = tail * minusR2.high + inverseFactorials[2 * k + 1].high }
    var series = DoubleDouble(tail, 0)
    for k in stride(from: 7, through: 0, by: -1) { series = series * minusR2 + inverseFactorials[2 * k + 1] }
    return r * series
  }

  /// cos r = Σ (−r²)ᵏ/(2k)! for |r| ≤ π/4.
  static func cosOfReduced(_ r: DoubleDouble) -> DoubleDouble {
    let minusR2 = -(r * r)
    var tail = inverseFactorials[26].high
    for k in stride(from: 12, through: 8, by: -1) { tail = tail * minusR2.high + inverseFactorials[2 * k].high }
    var series = DoubleDouble(tail, 0)
    for k in stride(from: 7, through: 0, by: -1) { series = series * minusR2 + inverseFactorials[2 * k] }
    return series
  }

  /// Bits of 2/π, after one word of zeros: bit i of 2/π (weight 2⁻ⁱ) is bit
  /// i + 63 of this array counting from the top of word 0.
  private static let twoOverPi: [UInt64] = [
    0,
    0xA2F9_836E_4E44_1529, 0xFC27_57D1_F534_DDC0, 0xDB62_9599_3C43_9041,
    0xFE51_63AB_DEBB_C561, 0xB724_6E3A_424D_D2E0, 0x0649_2EEA_09D1_921C,
    0xFE1D_EB1C_B129_A73E, 0xE882_35F5_2EBB_4484, 0xE99C_7026_B45F_7E41,
    0x3991_D639_8353_39F4, 0x9C84_5F8B_BDF9_283B, 0x1FF8_97FF_DE05_980F,
    0xEF2F_118B_5A0A_6D1F, 0x6D36_7ECF_27CB_09B7, 0x4F46_3F66_9E5F_EA2D,
    0x7527_BAC7_EBE5_F17B, 0x3D07_39F7_8A52_92EA, 0x6BFB_5FB1_1F8D_5D08,
    0x5603_3046_FC7B_6BAB, 0xF0CF_BC20_9AF4_361D,
  ]

  /// x = n·π/2 + r with |r| ≤ π/4, for finite x ≥ π/4.
  ///
  /// x = m·2^q with m a 53-bit integer. Bits of 2/π worth 2⁻ⁱ with i ≤ q − 2
  /// add multiples of 4 to x·2/π and are skipped; the next 192 bits times m
  /// give the quadrant (2 bits) and 190 bits of fraction, of which 128 are
  /// kept. (No double comes closer than 2⁻⁶² to a multiple of π/2 in units
  /// of π/2, so at least 66 significant bits remain.)
  static func reduce(_ x: Double) -> (n: Int, r: DoubleDouble) {
    let m = x.significandBitPattern | (1 << 52)
    let q = Int(x.exponent) - 52
    let start = q + 62  // bit index of 2^-(q-1) in `twoOverPi`
    let word = start / 64, shift = UInt64(start % 64)
    func window(_ k: Int) -> UInt64 {
      let a = twoOverPi[word + k], b = twoOverPi[word + k + 1]
      return shift == 0 ? a : (a << shift) | (b >> (64 - shift))
    }
    // P = m × window, bits 0…191 in p1:p2:p3 (bits 192 and up are a multiple of 4).
    let (h2, p3) = m.multipliedFullWidth(by: window(2))
    let (h1, l1) = m.multipliedFullWidth(by: window(1))
    let l0 = m.multipliedFullWidth(by: window(0)).low
    let (p2, carry) = l1.addingReportingOverflow(h2)
    let p1 = l0 &+ h1 &+ (carry ? 1 : 0)
    var n = Int(p1 >> 62)
    var high = (p1 << 2) | (p2 >> 62)  // the fraction, 128 bits
    var low = (p2 << 2) | (p3 >> 62)
    var negative = false
    if high >> 63 == 1 {  // fraction ≥ 1/2: round the quadrant up, take 1 − fraction
      n += 1
      negative = true
      high = ~high
      low = ~low
      let (sum, overflow) = low.addingReportingOverflow(1)
      low = sum
      if overflow { high &+= 1 }
    }
    if high == 0 && low == 0 { return (n, DoubleDouble(0, 0)) }
    // To a double-double: normalise, then the top 53 bits and the next 64.
    let zeros = high == 0 ? 64 + low.leadingZeroBitCount : high.leadingZeroBitCount
    if zeros >= 64 {
      high = low << (zeros - 64)
      low = 0
    } else if zeros > 0 {
      high = (high << zeros) | (low >> (64 - zeros))
      low <<= zeros
    }
    let fraction = DoubleDouble(
      Double(high >> 11) * Double(sign: .plus, exponent: -53 - zeros, significand: 1),
      Double(((high & 0x7FF) << 53) | (low >> 11)) * Double(sign: .plus, exponent: -117 - zeros, significand: 1))
    let r = fraction * DoubleDouble.piOver2
    return (n, negative ? -r : r)
  }

  // MARK: exp

  static func exp(_ x: Double) -> Double { exp(DoubleDouble(x, 0)) }

  /// e^(t.high + t.low), rounded once.
  static func exp(_ t: DoubleDouble) -> Double {
    if t.high.isNaN { return .nan }
    if t.high > 710 { return .infinity }
    if t.high < -746 { return 0 }
    let k = (t.high * 1.4426950408889634).rounded()
    let r = t + -(DoubleDouble.ln2 * k)
    // |r| ≤ 0.347: the terms past r²³/23! are below 2⁻¹⁰⁹, and those from
    // r¹²/12! on are small enough to sum in doubles.
    var tail = inverseFactorials[23].high
    for n in stride(from: 22, through: 12, by: -1) { tail = tail * r.high + inverseFactorials[n].high }
    var series = DoubleDouble(tail, 0)
    for n in stride(from: 11, through: 0, by: -1) { series = series * r + inverseFactorials[n] }
    return Double(sign: .plus, exponent: Int(k), significand: series.rounded)
  }

  // MARK: pow

  /// x^y with the special cases of IEEE 754 `pow`: x^0 = 1 and 1^y = 1
  /// (even for NaN), a negative x to a non-integer power is NaN, and so on.
  static func pow(_ x: Double, _ y: Double) -> Double {
    if y == 0 || x == 1 { return 1 }
    if x.isNaN || y.isNaN { return .nan }
    let ax = x.magnitude
    if y.isInfinite {
      if ax == 1 { return 1 }
      return (ax > 1) == (y > 0) ? .infinity : 0
    }
    let yIsInteger = y.rounded(.towardZero) == y
    let yIsOdd = yIsInteger && y.magnitude < 0x1p53 && Int64(y) & 1 == 1
    if x == 0 || x.isInfinite {
      // 0^y and ∞^y are 0 or ∞, negative only for a negative x and an odd y.
      let value: Double = (x == 0) == (y < 0) ? .infinity : 0
      return x.sign == .minus && yIsOdd ? -value : value
    }
    if x < 0 && !yIsInteger { return .nan }
    let value =
      yIsInteger && y.magnitude <= 0x1p20
      ? integerPower(ax, Int(y))
      : exp(logarithm(ax) * y)
    return x < 0 && yIsOdd ? -value : value
  }

  /// x^n for finite x > 0, by squaring in double-double.
  private static func integerPower(_ x: Double, _ n: Int) -> Double {
    var base = n > 0 ? DoubleDouble(x, 0) : DoubleDouble.reciprocal(x)
    var e = n.magnitude
    var result = DoubleDouble(1, 0)
    while true {
      if e & 1 == 1 { result = result * base }
      e >>= 1
      if e == 0 { break }
      base = base * base
    }
    return result.rounded
  }

  /// 1/(2k+1) for k = 0…21: atanh s = Σ s^(2k+1)/(2k+1) to 2⁻¹⁰⁶ for |s| ≤ 0.172.
  private static let atanhCoefficients: [DoubleDouble] = (0..<22).map {
    DoubleDouble.reciprocal(Double(2 * $0 + 1))
  }

  /// ln x in double-double for finite x > 0: x = m·2ᵏ with √½ ≤ m < √2,
  /// ln m = 2·atanh((m − 1)/(m + 1)).
  static func logarithm(_ x: Double) -> DoubleDouble {
    var k = Int(x.exponent)
    var m = x.significand
    if m > 1.4142135623730951 {
      m *= 0.5
      k += 1
    }
    let s = DoubleDouble(m - 1, 0) / DoubleDouble.sum(m, 1)
    let s2 = s * s
    var tail = atanhCoefficients[21].high
    for k in stride(from: 20, through: 9, by: -1) { tail = tail * s2.high + atanhCoefficients[k].high }
    var series = DoubleDouble(tail, 0)
    for k in stride(from: 8, through: 0, by: -1) { series = series * s2 + atanhCoefficients[k] }
    return DoubleDouble.ln2 * Double(k) + s * series * 2
  }
}

/// An unevaluated sum high + low with |low| ≤ ulp(high)/2: about 106 bits.
struct DoubleDouble: Sendable {
  var high: Double
  var low: Double

  init(_ high: Double, _ low: Double) { self.high = high; self.low = low }

  static let piOver2 = DoubleDouble(1.5707963267948966, 6.123233995736766e-17)
  static let ln2 = DoubleDouble(0.6931471805599453, 2.3190468138462996e-17)

  /// The nearest double.
  var rounded: Double { high.isFinite && low != 0 ? high + low : high }

  /// a + b exactly.
  static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    let bb = s - a
    return DoubleDouble(s, (a - (s - bb)) + (b - bb))
  }

  /// a + b exactly when |a| ≥ |b|.
  static func quickSum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    return DoubleDouble(s, b - (s - a))
  }

  /// a·b exactly (the error of the rounded product by a fused multiply-add).
  static func product(_ a: Double, _ b: Double) -> DoubleDouble {
    let p = a * b
    return DoubleDouble(p, (-p).addingProduct(a, b))
  }

  static func reciprocal(_ x: Double) -> DoubleDouble {
    let q = 1 / x
    guard q.isFinite, q != 0 else { return DoubleDouble(q, 0) }
    return DoubleDouble(q, (1.0).addingProduct(-q, x) / x)
  }

  static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(-a.high, -a.low) }

  static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let s = sum(a.high, b.high)
    guard s.high.isFinite else { return DoubleDouble(s.high, 0) }
    return quickSum(s.high, s.low + a.low + b.low)
  }

  static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let p = product(a.high, b.high)
    guard p.high.isFinite, p.high != 0 else { return DoubleDouble(p.high, 0) }
    return quickSum(p.high, p.low + (a.high * b.low + a.low * b.high))
  }

  static func * (a: DoubleDouble, b: Double) -> DoubleDouble {
    let p = product(a.high, b)
    guard p.high.isFinite, p.high != 0 else { return DoubleDouble(p.high, 0) }
    return quickSum(p.high, p.low + a.low * b)
  }

  static func / (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
    let q1 = a.high / b.high
    let r = a + -(b * q1)
    let q2 = r.high / b.high
    return quickSum(q1, q2)
  }
}
