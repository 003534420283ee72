/// Where a piece of syntax came from: a range of characters in a string
/// written in SwiftUI syntax, or a value in a JSON document.
public enum SyntaxOrigin: Sendable, Hashable {
  /// Character offsets (Unicode scalars, 0-based) into the source string.
  case text(Range<Int>)
  /// A JSON value: its path from the document's root and its location.
  case json(JSONPath, SourceLocation)
}

/// An error located in the syntax that caused it.
public struct SyntaxError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var origin: SyntaxOrigin
  public init(_ message: String, at origin: SyntaxOrigin) {
    self.message = message; self.origin = origin
  }
  public var description: String { message }
}

/// A chain of calls in SwiftUI syntax: `.snappy(duration: 0.4).delay(0.2)`,
/// `slide.combined(with: .opacity)`. The same tree comes from the JSON
/// object form (`{"snappy": {"duration": 0.4}, "delay": 0.2}`), so one
/// validator serves both.
public struct CallChain: Sendable, Hashable {
  public var calls: [Call]
  public var origin: SyntaxOrigin
  public init(calls: [Call], origin: SyntaxOrigin) { self.calls = calls; self.origin = origin }
}

/// One call: `name` or `name(arguments)`.
public struct Call: Sendable, Hashable {
  public var name: String
  public var nameOrigin: SyntaxOrigin
  /// `nil` when written without parentheses (`.snappy`), `[]` for `spring()`.
  public var arguments: [CallArgument]?
  public var origin: SyntaxOrigin
  public init(name: String, nameOrigin: SyntaxOrigin, arguments: [CallArgument]?, origin: SyntaxOrigin) {
    self.name = name; self.nameOrigin = nameOrigin; self.arguments = arguments; self.origin = origin
  }
}

/// One argument, labelled (`duration: 0.4`) or not (`0.2`).
public struct CallArgument: Sendable, Hashable {
  public var label: String?
  public var value: ArgumentValue
  public var origin: SyntaxOrigin
  public init(label: String?, value: ArgumentValue, origin: SyntaxOrigin) {
    self.label = label; self.value = value; self.origin = origin
  }
}

public indirect enum ArgumentValue: Sendable, Hashable {
  case number(Double)
  case bool(Bool)
  /// A member expression such as `.leading` or `.slide.combined(with: .opacity)`.
  case chain(CallChain)
  case array([CallArgument])
  /// A string literal (`"..."` in text, a JSON string in the object form).
  case string(String)

  /// What the value is, for messages.
  public var kindName: String {
    switch self {
    case .number: "a number"
    case .bool: "a boolean"
    case .chain: "a name"
    case .array: "an array"
    case .string: "a string"
    }
  }
}

/// Parses call chains written as in Swift source.
///
/// Grammar: `chain := '.'? call ('.' call)*`, `call := name ('(' args? ')')?`,
/// `args := arg (',' arg)*`, `arg := (name ':')? value`,
/// `value := number | true | false | chain | '[' values ']' | string`.
public struct CallParser {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  /// Parses `text` completely; anything left over is an error located at it.
  public static func parse(_ text: String) throws(SyntaxError) -> CallChain {
    var parser = CallParser(scalars: Array(text.unicodeScalars))
    parser.skipSpaces()
    guard parser.index < parser.scalars.count else {
      throw SyntaxError("empty expression", at: .text(0..<0))
    }
    let chain = try parser.parseChain()
    parser.skipSpaces()
    if parser.index < parser.scalars.count {
      throw SyntaxError(
        "unexpected '\(parser.rest)' after '\(parser.text(0..<parser.index).trimmingSpaces)'",
        at: .text(parser.index..<parser.scalars.count))
    }
    return chain
  }

  private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

  private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
  private var rest: String { text(index..<scalars.count) }
  private func text(_ range: Range<Int>) -> String {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: scalars[range])
    return String(s)
  }

  private mutating func skipSpaces() {
    while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
  }

  private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
  }
  private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
    isIdentifierStart(c) || ("0"..."9").contains(c)
  }

  private mutating func parseChain() throws(SyntaxError) -> CallChain {
    let start = index
    if current == "." { index += 1; skipSpaces() }
    var calls: [Call] = [try parseCall()]
    while true {
      let save = index
      skipSpaces()
      guard current == "." else { index = save; break }
      index += 1
      skipSpaces()
      calls.append(try parseCall())
    }
    return CallChain(calls: calls, origin: .text(start..<index))
  }

  private mutating func parseCall() throws(SyntaxError) -> Call {
    let start = index
    guard let c = current, Self.isIdentifierStart(c) else {
      if let c = current, ("0"..."9").contains(c) {
        throw SyntaxError("expected a name, found a number", at: .text(index..<index + 1))
      }
      throw SyntaxError(
        current == nil ? "expected a name at the end" : "expected a name, found '\(current!)'",
        at: .text(index..<min(index + 1, scalars.count)))
    }
    while let c = current, Self.isIdentifierPart(c) { index += 1 }
    let nameRange = start..<index
    let name = text(nameRange)
    let save = index
    skipSpaces()
    guard current == "(" else {
      index = save
      return Call(name: name, nameOrigin: .text(nameRange), arguments: nil, origin: .text(nameRange))
    }
    let open = index
    index += 1
    skipSpaces()
    var arguments: [CallArgument] = []
    if current == ")" {
      index += 1
    } else {
      while true {
        skipSpaces()
        arguments.append(try parseArgument())
        skipSpaces()
        if current == "," { index += 1; continue }
        if current == ")" { index += 1; break }
        if current == nil {
          throw SyntaxError("missing ')' to close '\(name)('", at: .text(open..<open + 1))
        }
        throw SyntaxError("expected ',' or ')', found '\(current!)'", at: .text(index..<index + 1))
      }
    }
    return Call(name: name, nameOrigin: .text(nameRange), arguments: arguments, origin: .text(start..<index))
  }

  private mutating func parseArgument() throws(SyntaxError) -> CallArgument {
    let start = index
    // A label is a name followed by ':'.
    if let c = current, Self.isIdentifierStart(c) {
      var end = index
      while end < scalars.count, Self.isIdentifierPart(scalars[end]) { end += 1 }
      var colon = end
      while colon < scalars.count, scalars[colon] == " " { colon += 1 }
      if colon < scalars.count, scalars[colon] == ":" {
        let label = text(index..<end)
        index = colon + 1
        skipSpaces()
        let value = try parseValue()
        return CallArgument(label: label, value: value, origin: .text(start..<index))
      }
    }
    let value = try parseValue()
    return CallArgument(label: nil, value: value, origin: .text(start..<index))
  }

  private mutating func parseValue() throws(SyntaxError) -> ArgumentValue {
    guard let c = current else {
      throw SyntaxError("expected a value at the end", at: .text(index..<index))
    }
    if c == "-" || c == "+" || ("0"..."9").contains(c) { return .number(try parseNumber()) }
    if c == "[" {
      let open = index
      index += 1
      skipSpaces()
      var elements: [CallArgument] = []
      if current == "]" { index += 1; return .array([]) }
      while true {
        skipSpaces()
        let elementStart = index
        let value = try parseValue()
        elements.append(CallArgument(label: nil, value: value, origin: .text(elementStart..<index)))
        skipSpaces()
        if current == "," { index += 1; continue }
        if current == "]" { index += 1; break }
        if current == nil { throw SyntaxError("missing ']' to close '['", at: .text(open..<open + 1)) }
        throw SyntaxError("expected ',' or ']', found '\(current!)'", at: .text(index..<index + 1))
      }
      return .array(elements)
    }
    if c == "\"" {
      let open = index
      index += 1
      var s = String.UnicodeScalarView()
      while let d = current, d != "\"" {
        if d == "\\", index + 1 < scalars.count {
          index += 1
        }
        s.append(scalars[index])
        index += 1
      }
      guard current == "\"" else { throw SyntaxError("unterminated string", at: .text(open..<index)) }
      index += 1
      return .string(String(s))
    }
    if c == "." || Self.isIdentifierStart(c) {
      let save = index
      if c != "." {
        // `true` and `false` are literals, not names.
        var end = index
        while end < scalars.count, Self.isIdentifierPart(scalars[end]) { end += 1 }
        let word = text(index..<end)
        if word == "true" || word == "false" {
          index = end
          return .bool(word == "true")
        }
      }
      index = save
      if c == ".", index + 1 < scalars.count, ("0"..."9").contains(scalars[index + 1]) {
        throw SyntaxError("a number needs a digit before '.' (write 0.5, not .5)", at: .text(index..<index + 2))
      }
      return .chain(try parseChain())
    }
    throw SyntaxError("expected a value, found '\(c)'", at: .text(index..<index + 1))
  }

  private mutating func parseNumber() throws(SyntaxError) -> Double {
    let start = index
    if current == "-" || current == "+" { index += 1 }
    while let c = current, ("0"..."9").contains(c) || c == "." || c == "_" { index += 1 }
    if let c = current, c == "e" || c == "E" {
      index += 1
      if current == "-" || current == "+" { index += 1 }
      while let c = current, ("0"..."9").contains(c) { index += 1 }
    }
    let written = text(start..<index)
    let digits = written.replacingUnderscores
    guard let value = Double(digits), !digits.hasPrefix("."), !digits.hasSuffix(".") else {
      throw SyntaxError("invalid number '\(written)'", at: .text(start..<index))
    }
    guard value.isFinite else {
      throw SyntaxError("number '\(written)' is out of range", at: .text(start..<index))
    }
    return value
  }
}

extension String {
  fileprivate var replacingUnderscores: String { String(unicodeScalars.filter { $0 != "_" }.map(Character.init)) }
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s = s.dropFirst() }
    while s.last == " " { s = s.dropLast() }
    return String(s)
  }
}

// MARK: - The JSON object form

extension CallChain {
  /// Reads the JSON object form, one key per call in the order written:
  /// `{"spring": {"duration": 0.5, "bounce": 0.2}, "delay": 0.1}`.
  ///
  /// A key's value gives the call's arguments: an object gives labelled
  /// arguments (an unlabelled parameter is written with its documented
  /// name); a number, string or boolean gives one unlabelled argument; an
  /// array gives unlabelled arguments in order; `{}`, `true` or `null` give
  /// none. A string in place of the object is parsed as SwiftUI syntax.
  public static func fromJSON(_ node: JSONNode, path: JSONPath) throws(SyntaxError) -> CallChain {
    if let text = node.string {
      do {
        return try CallParser.parse(text)
      } catch {
        throw SyntaxError(error.message, at: node.locatedOrigin(path: path, error: error))
      }
    }
    guard let members = node.members else {
      throw SyntaxError(
        "expected a string in SwiftUI syntax or an object with one key per call, got \(node.typeName)",
        at: .json(path, node.location))
    }
    guard !members.isEmpty else {
      throw SyntaxError("empty object: name at least one call", at: .json(path, node.location))
    }
    var calls: [Call] = []
    for member in members {
      let memberPath = path.appending(member.key)
      let nameOrigin = SyntaxOrigin.json(memberPath, member.keyLocation)
      let valueOrigin = SyntaxOrigin.json(memberPath, member.value.location)
      var arguments: [CallArgument]?
      switch member.value.value {
      case .null: arguments = nil
      case .bool(true): arguments = nil
      case .bool(false):
        throw SyntaxError("'\(member.key)': false has no meaning here; leave the key out", at: valueOrigin)
      case .object(let fields):
        arguments = try fields.map { (field) throws(SyntaxError) -> CallArgument in
          let fieldPath = memberPath.appending(field.key)
          return CallArgument(
            label: field.key, value: try argumentValue(field.value, path: fieldPath),
            origin: .json(fieldPath, field.value.location))
        }
      case .array(let elements):
        arguments = try elements.enumerated().map { (i, element) throws(SyntaxError) -> CallArgument in
          let elementPath = memberPath.appending(i)
          return CallArgument(
            label: nil, value: try argumentValue(element, path: elementPath),
            origin: .json(elementPath, element.location))
        }
      case .number, .string:
        arguments = [CallArgument(label: nil, value: try argumentValue(member.value, path: memberPath), origin: valueOrigin)]
      }
      calls.append(Call(name: member.key, nameOrigin: nameOrigin, arguments: arguments, origin: nameOrigin))
    }
    return CallChain(calls: calls, origin: .json(path, node.location))
  }

  private static func argumentValue(_ node: JSONNode, path: JSONPath) throws(SyntaxError) -> ArgumentValue {
    switch node.value {
    case .number(let n, _): return .number(n)
    case .bool(let b): return .bool(b)
    case .string(let s): return .string(s)
    case .array(let elements):
      return .array(
        try elements.enumerated().map { (i, e) throws(SyntaxError) -> CallArgument in
          CallArgument(label: nil, value: try argumentValue(e, path: path.appending(i)), origin: .json(path.appending(i), e.location))
        })
    case .object:
      return .chain(try fromJSON(node, path: path))
    case .null:
      throw SyntaxError("expected a value, got null", at: .json(path, node.location))
    }
  }
}

extension JSONNode {
  /// The origin of an error inside this string value: its path, and the
  /// location of the offending character when the string has no escapes
  /// (so columns in the file and in the string agree).
  public func locatedOrigin(path: JSONPath, error: SyntaxError) -> SyntaxOrigin {
    guard case .text(let range) = error.origin else { return error.origin }
    // The opening quote is at `location`; character k of the string sits at column + 1 + k.
    var location = self.location
    location.column += 1 + range.lowerBound
    return .json(path, location)
  }
}
