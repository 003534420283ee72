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
/// binder (`CallBinder`) serves both.
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

extension Call {
  /// The call as written, when `source` is the text it was parsed from,
  /// or else rebuilt from the tree (`spring(duration: 0.5)`).
  public func quoted(from source: String?) -> String {
    if let source, case .text(let range) = origin {
      let scalars = Array(source.unicodeScalars)
      if range.upperBound <= scalars.count {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        return String(view)
      }
    }
    guard let arguments else { return name }
    let written = arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.quoted }
    return "\(name)(\(written.joined(separator: ", ")))"
  }
}

extension ArgumentValue {
  /// The value as the call syntax writes it; a chain by its names alone.
  public var quoted: String {
    switch self {
    case .number(let n): formatNumber(n)
    case .bool(let b): "\(b)"
    case .string(let s): "\"\(s)\""
    case .array(let a): "[" + a.map(\.value.quoted).joined(separator: ", ") + "]"
    case .chain(let c): c.calls.map(\.name).joined(separator: ".")
    }
  }
}
