import Primitives

/// A cursor over a text's Unicode scalars, with the tokens the call syntax
/// and progress expressions share: spaces, names, numbers and lists in
/// brackets. Offsets count Unicode scalars from 0, as `SyntaxOrigin.text`
/// does.
struct ScalarScanner {
  let scalars: [Unicode.Scalar]
  var index = 0

  init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

  var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
  func scalar(at i: Int) -> Unicode.Scalar? { i < scalars.count ? scalars[i] : nil }

  func text(_ range: Range<Int>) -> String {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: scalars[range])
    return String(s)
  }

  /// Spaces are ' ', tab, newline and carriage return.
  static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
  static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
  /// A name starts with an ASCII letter or `_` and goes on with those and digits.
  static func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
  static func isNamePart(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || isDigit(c) }

  mutating func skipSpaces() {
    while let c = current, Self.isSpace(c) { index += 1 }
  }

  /// Where the name starting at `start` ends (`start` itself when none starts there).
  func nameEnd(from start: Int) -> Int {
    guard let c = scalar(at: start), Self.isNameStart(c) else { return start }
    var end = start + 1
    while let c = scalar(at: end), Self.isNamePart(c) { end += 1 }
    return end
  }

  /// Reads the name at the cursor; `nil` (and no move) when none starts here.
  mutating func scanName() -> Range<Int>? {
    let end = nameEnd(from: index)
    guard end > index else { return nil }
    defer { index = end }
    return index..<end
  }

  /// Reads the number at the cursor in `notation`; errors quote it whole.
  mutating func scanNumber(_ notation: NumberNotation) throws(SyntaxError) -> Double {
    switch notation.scan(scalars, at: index) {
    case .success(let number):
      index = number.range.upperBound
      return number.value
    case .failure(let error):
      throw SyntaxError(error.message(written: text(error.range)), at: .text(error.range))
    }
  }
}

/// A parser built on a `ScalarScanner`, with shorthands for its cursor and
/// the pieces of grammar both parsers share.
protocol ScalarParser {
  var scanner: ScalarScanner { get set }
  /// Levels of nesting open around the current position.
  var depth: Int { get set }
  /// The deepest nesting the notation allows: a parse that can never
  /// exhaust the stack.
  static var maximumNesting: Int { get }
}

extension ScalarParser {
  var index: Int {
    get { scanner.index }
    set { scanner.index = newValue }
  }
  var current: Unicode.Scalar? { scanner.current }

  /// Opens one level of nesting at `range` (what opens it); the caller
  /// closes it with `depth -= 1`.
  mutating func enter(_ range: Range<Int>) throws(SyntaxError) {
    depth += 1
    if depth > Self.maximumNesting {
      throw SyntaxError("nested deeper than the limit of \(Self.maximumNesting) levels", at: .text(range))
    }
  }
  func text(_ range: Range<Int>) -> String { scanner.text(range) }
  mutating func skipSpaces() { scanner.skipSpaces() }

  /// The error for text left over at `index` once a whole expression has
  /// been read: it quotes both, without the spaces around what was read.
  func unexpectedRest() -> SyntaxError {
    let end = scanner.scalars.count
    var from = 0
    var to = index
    while from < to, ScalarScanner.isSpace(scanner.scalars[from]) { from += 1 }
    while to > from, ScalarScanner.isSpace(scanner.scalars[to - 1]) { to -= 1 }
    return SyntaxError("unexpected \(Excerpt.quoted(text(index..<end))) after \(Excerpt.quoted(text(from..<to)))", at: .text(index..<end))
  }

  /// Reads `element (',' element)*` or nothing, then `closer`, after the
  /// opening bracket at `open` (written as `opener`: `"("`, `"sin("`, `"["`).
  /// Spaces may surround every element. A missing closer is reported at the
  /// opening bracket; anything else where a comma or the closer belongs by
  /// `unexpected`.
  mutating func list<Element>(
    openedAt open: Int, opener: String, closer: Unicode.Scalar,
    element: (inout Self) throws(SyntaxError) -> Element,
    unexpected: (Self) -> SyntaxError
  ) throws(SyntaxError) -> [Element] {
    scanner.index = open + 1
    scanner.skipSpaces()
    var elements: [Element] = []
    if scanner.current == closer {
      scanner.index += 1
      return elements
    }
    while true {
      scanner.skipSpaces()
      elements.append(try element(&self))
      scanner.skipSpaces()
      guard let c = scanner.current else {
        throw SyntaxError("missing '\(closer)' to close '\(opener)'", at: .text(open..<open + 1))
      }
      guard c == "," || c == closer else { throw unexpected(self) }
      scanner.index += 1
      if c == closer { return elements }
    }
  }
}
