import Primitives

/// A strict RFC 8259 parser that records where every value starts.
public struct JSONParser {
  /// Deepest nesting accepted; deeper documents are rejected before the
  /// recursion could exhaust the stack.
  public static let maximumDepth = 256

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var column = 1

  /// Parses one JSON document from UTF-8 bytes (a UTF-8 byte-order mark is skipped).
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
    var parser = JSONParser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index < bytes.count {
      throw parser.error("unexpected text after the end of the document")
    }
    return value
  }

  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
    try parse(Array(text.utf8))
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private var location: SourceLocation { SourceLocation(line: line, column: column, offset: index) }

  private func error(_ message: String, at location: SourceLocation? = nil) -> JSONSyntaxError {
    JSONSyntaxError(message: message, location: location ?? self.location)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func advance() {
    let byte = bytes[index]
    index += 1
    if byte == UInt8(ascii: "\n") {
      line += 1; column = 1
    } else if byte & 0xC0 != 0x80 {
      column += 1  // count scalars, not UTF-8 continuation bytes
    }
  }

  private mutating func skipWhitespace() {
    while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { advance() }
  }

  private func describe(_ byte: UInt8?) -> String {
    guard let byte else { return "end of file" }
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16))"
  }

  private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
    let start = location
    guard let c = current else { throw error("expected a value, found end of file") }
    switch c {
    case UInt8(ascii: "{"):
      guard depth < Self.maximumDepth else {
        throw error("nesting deeper than the limit of \(Self.maximumDepth) levels")
      }
      return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["):
      guard depth < Self.maximumDepth else {
        throw error("nesting deeper than the limit of \(Self.maximumDepth) levels")
      }
      return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""):
      return JSONNode(.string(try parseString()), at: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case UInt8(ascii: "t"):
      try expectWord("true"); return JSONNode(.bool(true), at: start)
    case UInt8(ascii: "f"):
      try expectWord("false"); return JSONNode(.bool(false), at: start)
    case UInt8(ascii: "n"):
      try expectWord("null"); return JSONNode(.null, at: start)
    default:
      throw error("expected a value, found \(describe(c))")
    }
  }

  private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
    let start = location
    let text = word.utf8Start
    for i in 0..<word.utf8CodeUnitCount {
      guard current == text[i] else {
        throw error("invalid literal; expected '\(word)'", at: start)
      }
      advance()
    }
  }

  private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode {
    let start = location
    advance()  // {
    var members: [JSONNode.Member] = []
    var seen = Set<String>()
    skipWhitespace()
    if current == UInt8(ascii: "}") { advance(); return JSONNode(.object([]), at: start) }
    while true {
      skipWhitespace()
      let keyLocation = location
      guard current == UInt8(ascii: "\"") else {
        throw error("expected a key in double quotes, found \(describe(current))")
      }
      let key = try parseString()
      if !seen.insert(key).inserted {
        throw error("duplicate key \(Excerpt.quoted(key))", at: keyLocation)
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else {
        throw error("expected ':' after the key, found \(describe(current))")
      }
      advance()
      skipWhitespace()
      let value = try parseValue(depth: depth)
      members.append(.init(key: key, keyLocation: keyLocation, value: value))
      skipWhitespace()
      if current == UInt8(ascii: ",") { advance(); continue }
      if current == UInt8(ascii: "}") { advance(); break }
      throw error("expected ',' or '}' in the object, found \(describe(current))")
    }
    return JSONNode(.object(members), at: start)
  }

  private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode {
    let start = location
    advance()  // [
    var elements: [JSONNode] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") { advance(); return JSONNode(.array([]), at: start) }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      if current == UInt8(ascii: ",") { advance(); continue }
      if current == UInt8(ascii: "]") { advance(); break }
      throw error("expected ',' or ']' in the array, found \(describe(current))")
    }
    return JSONNode(.array(elements), at: start)
  }

  private mutating func parseString() throws(JSONSyntaxError) -> String {
    let start = location
    advance()  // opening quote
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
      if !run.isEmpty {
        guard let text = String(validating: run, as: UTF8.self) else { return false }
        scalars.append(contentsOf: text.unicodeScalars)
        run.removeAll(keepingCapacity: true)
      }
      return true
    }
    while true {
      guard let c = current else { throw error("unterminated string", at: start) }
      if c == UInt8(ascii: "\"") { advance(); break }
      if c < 0x20 { throw error("control character in a string; escape it") }
      if c != UInt8(ascii: "\\") {
        run.append(c); advance(); continue
      }
      guard flush(&run, into: &scalars) else { throw error("invalid UTF-8 in a string", at: start) }
      let escapeStart = location
      advance()
      guard let e = current else { throw error("unterminated string", at: start) }
      advance()
      switch e {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try parseHex4(escapeStart)
        if (0xD800..<0xDC00).contains(code) {
          guard current == UInt8(ascii: "\\") else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
          advance()
          guard current == UInt8(ascii: "u") else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
          advance()
          let low = try parseHex4(escapeStart)
          guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
          throw error("unpaired surrogate in \\u escape", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape", at: escapeStart) }
        scalars.append(scalar)
      default:
        throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: escapeStart)
      }
    }
    guard flush(&run, into: &scalars) else { throw error("invalid UTF-8 in a string", at: start) }
    return String(scalars)
  }

  private mutating func parseHex4(_ escapeStart: SourceLocation) throws(JSONSyntaxError) -> UInt32 {
    var code: UInt32 = 0
    for _ in 0..<4 {
      guard let c = current else { throw error("truncated \\u escape", at: escapeStart) }
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw error("invalid hex digit in \\u escape", at: escapeStart)
      }
      code = code * 16 + digit
      advance()
    }
    return code
  }

  /// A number in RFC 8259's grammar (`NumberNotation.json`); an error is
  /// located at the number's start.
  private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode {
    let start = location
    switch NumberNotation.json.scan(bytes, at: index) {
    case .success(let number):
      while index < number.range.upperBound { advance() }
      let text = String(decoding: bytes[number.range], as: UTF8.self)
      return JSONNode(.number(number.value, text: text), at: start)
    case .failure(let failure):
      throw error(failure.message(written: String(decoding: bytes[failure.range], as: UTF8.self)), at: start)
    }
  }
}
