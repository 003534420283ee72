import Primitives

/// Parses call chains written as in Swift source.
///
/// Grammar (spaces, tabs and newlines may stand between any two tokens):
///
///     chain := '.'? call ('.' call)*
///     call  := name ('(' (arg (',' arg)*)? ')')?
///     arg   := (name ':')? value
///     value := number | 'true' | 'false' | chain | '[' (value (',' value)*)? ']' | string
///
/// A name is an ASCII letter or `_` followed by letters, digits and `_`;
/// numbers are Swift's decimal literals with an optional sign
/// (`NumberNotation.swift`: `0.5`, `-2`, `1_000`, `1e-3`, not `.5`); a
/// string is in double quotes, a backslash taking the next character as it is.
public struct CallParser: ScalarParser {
  var scanner: ScalarScanner
  /// Calls and lists open around the current position.
  var depth = 0

  /// Deepest nesting of calls in arguments and of lists: far beyond any
  /// animation or transition (`asymmetric(insertion: .move(edge: .top)
  /// .combined(with: .opacity), …)` is 3 deep), and a parse that cannot
  /// exhaust the stack.
  public static let maximumNesting = 32

  /// Parses `text` completely; anything left over is an error located at it.
  public static func parse(_ text: String) throws(SyntaxError) -> CallChain {
    var parser = CallParser(scanner: ScalarScanner(Array(text.unicodeScalars)))
    parser.skipSpaces()
    guard parser.current != nil else {
      throw SyntaxError("empty expression", at: .text(0..<0))
    }
    let chain = try parser.parseChain()
    parser.skipSpaces()
    guard parser.index == parser.scanner.scalars.count else { throw parser.unexpectedRest() }
    return chain
  }

  private mutating func parseChain() throws(SyntaxError) -> CallChain {
    let start = index
    if current == "." {
      index += 1
      skipSpaces()
    }
    var calls: [Call] = [try parseCall()]
    while true {
      let save = index
      skipSpaces()
      guard current == "." else {
        index = save
        break
      }
      index += 1
      skipSpaces()
      calls.append(try parseCall())
    }
    return CallChain(calls: calls, origin: .text(start..<index))
  }

  private mutating func parseCall() throws(SyntaxError) -> Call {
    let start = index
    guard let nameRange = scanner.scanName() else {
      let at = SyntaxOrigin.text(start..<min(start + 1, scanner.scalars.count))
      guard let c = current else { throw SyntaxError("expected a name at the end", at: at) }
      throw SyntaxError(ScalarScanner.isDigit(c) ? "expected a name, found a number" : "expected a name, found '\(c)'", at: at)
    }
    let name = text(nameRange)
    let afterName = index
    skipSpaces()
    guard current == "(" else {
      index = afterName
      return Call(name: name, nameOrigin: .text(nameRange), arguments: nil, origin: .text(nameRange))
    }
    let arguments = try list(
      openedAt: index, opener: "\(name)(", closer: ")", element: { (parser) throws(SyntaxError) in try parser.parseArgument() },
      unexpected: { $0.expectedComma(or: ")") })
    return Call(name: name, nameOrigin: .text(nameRange), arguments: arguments, origin: .text(start..<index))
  }

  /// The error for what stands where a comma or `closer` belongs.
  private func expectedComma(or closer: Unicode.Scalar) -> SyntaxError {
    SyntaxError("expected ',' or '\(closer)', found '\(current!)'", at: .text(index..<index + 1))
  }

  private mutating func parseArgument() throws(SyntaxError) -> CallArgument {
    let start = index
    // A label is a name followed by ':'.
    let end = scanner.nameEnd(from: start)
    var colon = end
    while let c = scanner.scalar(at: colon), ScalarScanner.isSpace(c) { colon += 1 }
    if end > start, scanner.scalar(at: colon) == ":" {
      index = colon + 1
      skipSpaces()
      let value = try parseValue()
      return CallArgument(label: text(start..<end), value: value, origin: .text(start..<index))
    }
    let value = try parseValue()
    return CallArgument(label: nil, value: value, origin: .text(start..<index))
  }

  private mutating func parseValue() throws(SyntaxError) -> ArgumentValue {
    let start = index
    guard let c = current else {
      throw SyntaxError("expected a value at the end", at: .text(start..<start))
    }
    try enter(start..<start + 1)
    defer { depth -= 1 }
    let startsNumber =
      c == "-" || c == "+" || ScalarScanner.isDigit(c) || (c == "." && scanner.scalar(at: start + 1).map(ScalarScanner.isDigit) == true)
    if startsNumber { return .number(try scanner.scanNumber(.swift)) }
    switch c {
    case "[":
      let elements = try list(
        openedAt: start, opener: "[", closer: "]",
        element: { (parser) throws(SyntaxError) in
          let elementStart = parser.index
          let value = try parser.parseValue()
          return CallArgument(label: nil, value: value, origin: .text(elementStart..<parser.index))
        },
        unexpected: { $0.expectedComma(or: "]") })
      return .array(elements)
    case "\"":
      index += 1
      var s = String.UnicodeScalarView()
      while let d = current, d != "\"" {
        if d == "\\", index + 1 < scanner.scalars.count { index += 1 }
        s.append(scanner.scalars[index])
        index += 1
      }
      guard current == "\"" else { throw SyntaxError("unterminated string", at: .text(start..<index)) }
      index += 1
      return .string(String(s))
    default:
      guard c == "." || ScalarScanner.isNameStart(c) else {
        throw SyntaxError("expected a value, found '\(c)'", at: .text(start..<start + 1))
      }
      // `true` and `false` are literals, not names.
      let end = scanner.nameEnd(from: start)
      let word = text(start..<end)
      if word == "true" || word == "false" {
        index = end
        return .bool(word == "true")
      }
      return .chain(try parseChain())
    }
  }
}
