import Primitives

/// JSON with source locations: every value knows its line and column, objects
/// keep their keys in the order written, and paths print as users read them
/// (`timeline[2].animation`). Pure Swift, so every module can use it.

/// A place in a source text. Lines and columns count from 1; columns count
/// Unicode scalars, as editors show them.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  /// Byte offset into the UTF-8 text.
  public var offset: Int
  public init(line: Int, column: Int, offset: Int) {
    self.line = line; self.column = column; self.offset = offset
  }
  public var description: String { "\(line):\(column)" }
  /// File order.
  public static func < (a: Self, b: Self) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// One step of a JSON path.
public enum JSONPathComponent: Sendable, Hashable {
  case key(String)
  case index(Int)
}

/// A path from the document root, printed as `layers[3].stroke.width`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  public var components: [JSONPathComponent]
  public init(_ components: [JSONPathComponent] = []) { self.components = components }
  public static let root = JSONPath()

  public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
  public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

  public var description: String {
    var out = ""
    for component in components {
      switch component {
      case .key(let k):
        // A key is quoted as any input is, capped (a 50 MB key is never
        // echoed whole); a cut one is bracketed, its `…` being no name.
        let whole = k.prefix(Excerpt.width + 1).count <= Excerpt.width
        if whole && Self.isIdentifier(k) {
          if !out.isEmpty { out += "." }
          out += k
        } else {
          out += "[\"\(Excerpt.capped(k))\"]"
        }
      case .index(let i): out += "[\(i)]"
      }
    }
    return out.isEmpty ? "(root)" : out
  }

  private static func isIdentifier(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
      return false
    }
    return s.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}

/// A parsed JSON value with its location.
public struct JSONNode: Sendable {
  public indirect enum Value: Sendable {
    case null
    case bool(Bool)
    /// The number and its text as written (to tell `3` from `3.0`).
    case number(Double, text: String)
    case string(String)
    case array([JSONNode])
    /// Members in the order written; keys are unique (duplicates are a syntax error).
    case object([Member])
  }
  public struct Member: Sendable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: JSONNode
  }
  public var value: Value
  public var location: SourceLocation

  public init(_ value: Value, at location: SourceLocation) {
    self.value = value; self.location = location
  }

  /// The JSON type's name, for messages ("expected a number, got a string").
  public var typeName: String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  public var number: Double? { if case .number(let n, _) = value { n } else { nil } }
  public var string: String? { if case .string(let s) = value { s } else { nil } }
  public var bool: Bool? { if case .bool(let b) = value { b } else { nil } }
  public var array: [JSONNode]? { if case .array(let a) = value { a } else { nil } }
  public var members: [Member]? { if case .object(let m) = value { m } else { nil } }
  public subscript(key: String) -> JSONNode? { members?.first { $0.key == key }?.value }
}

/// A syntax error with its location.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var location: SourceLocation
  public var description: String { "\(location): \(message)" }
}
