/// Writes `Encodable` values as JSON on one line, as the command line
/// prints its `--json` summaries: keys in the order the type encodes them
/// (its declaration order, for synthesized conformances), `", "` and
/// `": "` between items, whole numbers without a fraction, other numbers
/// in their shortest form that reads back exactly (`formatNumber(_:
/// significantDigits: nil)`). The same value always gives the same text,
/// in any process: a dictionary's keys, whose own order changes from run
/// to run, are written sorted (Foundation's encoder orders keys by hash).
public enum JSONWriter {
  /// A value that JSON cannot hold (a NaN or an infinity), with where.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// `value` as one line of JSON.
  public static func line(_ value: some Encodable) throws(Failure) -> String {
    let tree: JSONTree
    do {
      tree = try TreeEncoder.tree(of: value, at: [])
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure(message: "\(error)")
    }
    var out = ""
    tree.value.write(into: &out)
    return out
  }

  /// A string as a JSON string literal.
  public static func string(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// A JSON value being built, its objects' keys in order.
final class JSONTree {
  enum Value {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([(key: String, value: JSONTree)])

    func write(into out: inout String) {
      switch self {
      case .null: out += "null"
      case .bool(let b): out += b ? "true" : "false"
      case .number(let x): out += formatNumber(x, significantDigits: nil)
      case .string(let s): out += JSONWriter.string(s)
      case .array(let items):
        out += "["
        for (i, item) in items.enumerated() {
          if i > 0 { out += ", " }
          item.value.write(into: &out)
        }
        out += "]"
      case .object(let members):
        out += "{"
        for (i, member) in members.enumerated() {
          if i > 0 { out += ", " }
          out += JSONWriter.string(member.key) + ": "
          member.value.value.write(into: &out)
        }
        out += "}"
      }
    }
  }
  var value: Value
  init(_ value: Value = .null) { self.value = value }

  /// The member `key` of an object (added, or replaced in place).
  func set(_ key: String, _ tree: JSONTree) {
    guard case .object(var members) = value else {
      value = .object([(key, tree)])
      return
    }
    // Dropped from `value` first, so that `members` is the only reference
    // and grows in place (else every member added copies them all).
    value = .null
    if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = tree } else { members.append((key, tree)) }
    value = .object(members)
  }

  func append(_ tree: JSONTree) {
    guard case .array(var items) = value else {
      value = .array([tree])
      return
    }
    value = .null
    items.append(tree)
    value = .array(items)
  }
}

/// An `Encoder` that builds a `JSONTree`.
final class TreeEncoder: Encoder {
  let root: JSONTree
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(root: JSONTree = JSONTree(), codingPath: [any CodingKey] = []) {
    self.root = root
    self.codingPath = codingPath
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = root.value {} else { root.value = .object([]) }
    return KeyedEncodingContainer(KeyedContainer<Key>(tree: root, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = root.value {} else { root.value = .array([]) }
    return UnkeyedContainer(tree: root, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(tree: root, codingPath: codingPath) }

  /// The tree of a value, or the failure of a number JSON cannot hold.
  /// Numbers of every width are leaves here: their own `encode(to:)` would
  /// come back to the container for the same value.
  static func tree(of value: some Encodable, at path: [any CodingKey]) throws -> JSONTree {
    switch value {
    case let x as any BinaryInteger: return JSONTree(.number(Double(x)))
    case let x as any BinaryFloatingPoint: return try number(Double(x), at: path)
    case let x as Bool: return JSONTree(.bool(x))
    case let x as String: return JSONTree(.string(x))
    case let dictionary as [String: any Encodable]:
      let tree = JSONTree(.object([]))
      for key in dictionary.keys.sorted() {
        tree.set(key, try Self.tree(of: dictionary[key]!, at: path + [DictionaryKey(stringValue: key)]))
      }
      return tree
    default:
      let tree = JSONTree()
      try value.encode(to: TreeEncoder(root: tree, codingPath: path))
      return tree
    }
  }

  /// A dictionary's key, in a coding path.
  struct DictionaryKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  static func number(_ x: Double, at path: [any CodingKey]) throws -> JSONTree {
    guard x.isFinite else {
      throw JSONWriter.Failure(message: "\(path.map(\.stringValue).joined(separator: ".")): \(x) is not a JSON number")
    }
    return JSONTree(.number(x))
  }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let tree: JSONTree
    var codingPath: [any CodingKey]
    func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { tree.set(key.stringValue, JSONTree(.null)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { tree.set(key.stringValue, JSONTree(.bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) throws { tree.set(key.stringValue, JSONTree(.string(value))) }
    mutating func encode(_ value: Double, forKey key: Key) throws { tree.set(key.stringValue, try TreeEncoder.number(value, at: path(key))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { tree.set(key.stringValue, JSONTree(.number(Double(value)))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      tree.set(key.stringValue, try TreeEncoder.tree(of: value, at: path(key)))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
      let child = JSONTree(.object([]))
      tree.set(key.stringValue, child)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: child, codingPath: path(key)))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let child = JSONTree(.array([]))
      tree.set(key.stringValue, child)
      return UnkeyedContainer(tree: child, codingPath: path(key))
    }
    mutating func superEncoder() -> any Encoder { TreeEncoder(root: tree, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      let child = JSONTree()
      tree.set(key.stringValue, child)
      return TreeEncoder(root: child, codingPath: path(key))
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let tree: JSONTree
    var codingPath: [any CodingKey]
    var count: Int {
      if case .array(let items) = tree.value { return items.count }
      return 0
    }

    mutating func encodeNil() throws { tree.append(JSONTree(.null)) }
    mutating func encode(_ value: Bool) throws { tree.append(JSONTree(.bool(value))) }
    mutating func encode(_ value: String) throws { tree.append(JSONTree(.string(value))) }
    mutating func encode(_ value: Double) throws { tree.append(try TreeEncoder.number(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { tree.append(JSONTree(.number(Double(value)))) }
    mutating func encode<T: Encodable>(_ value: T) throws { tree.append(try TreeEncoder.tree(of: value, at: codingPath)) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
      let child = JSONTree(.object([]))
      tree.append(child)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(tree: child, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let child = JSONTree(.array([]))
      tree.append(child)
      return UnkeyedContainer(tree: child, codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder {
      let child = JSONTree()
      tree.append(child)
      return TreeEncoder(root: child, codingPath: codingPath)
    }
  }

  struct SingleContainer: SingleValueEncodingContainer {
    let tree: JSONTree
    var codingPath: [any CodingKey]
    mutating func encodeNil() throws { tree.value = .null }
    mutating func encode(_ value: Bool) throws { tree.value = .bool(value) }
    mutating func encode(_ value: String) throws { tree.value = .string(value) }
    mutating func encode(_ value: Double) throws { tree.value = try TreeEncoder.number(value, at: codingPath).value }
    mutating func encode(_ value: Int) throws { tree.value = .number(Double(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { tree.value = try TreeEncoder.tree(of: value, at: codingPath).value }
  }
}
