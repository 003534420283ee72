import Testing

@testable import Syntax

@Suite struct JSONParserTests {
  @Test func valuesAndLocations() throws {
    let text = "{\n  \"size\": [390, 200],\n  \"name\": \"トマト\", \"ok\": true, \"x\": null,\n  \"n\": -1.5e2\n}"
    let root = try JSONParser.parse(text)
    let members = try #require(root.members)
    #expect(members.map(\.key) == ["size", "name", "ok", "x", "n"])  // order kept
    #expect(root["size"]!.location == SourceLocation(line: 2, column: 11, offset: 12))
    #expect(root["size"]!.array!.map { $0.number! } == [390, 200])
    #expect(root["name"]!.string == "トマト")
    // Columns count characters, not UTF-8 bytes: "ok" follows the Japanese text.
    #expect(members[2].keyLocation.line == 3 && members[2].keyLocation.column == 18)
    #expect(root["ok"]!.bool == true)
    #expect(root["n"]!.number == -150)
    if case .number(_, let written) = root["n"]!.value { #expect(written == "-1.5e2") }
  }

  @Test func escapes() throws {
    let node = try JSONParser.parse(#""a\"b\\c\/d\n\u00e9\ud83c\udf45""#)
    #expect(node.string == "a\"b\\c/d\né🍅")
  }

  @Test(
    arguments: [
      ("{\"a\": 1,}", "expected a key in double quotes, found '}'", 1, 9),
      ("{\"a\": 1 \"b\": 2}", "expected ',' or '}' in the object, found '\"'", 1, 9),
      ("[1, 2", "expected ',' or ']' in the array, found end of file", 1, 6),
      ("{\"a\": 1, \"a\": 2}", "duplicate key 'a'", 1, 10),
      ("{\n  \"a\": tru\n}", "invalid literal; expected 'true'", 2, 8),
      ("01", "numbers may not have leading zeros", 1, 1),
      ("1.", "invalid number: expected digits after '.'", 1, 1),
      ("\"abc", "unterminated string", 1, 1),
      ("\"a\tb\"", "control character in a string; escape it", 1, 3),
      ("1e400", "number '1e400' is out of range", 1, 1),
      ("{} x", "unexpected text after the end of the document", 1, 4),
      ("\"\\ud83c\"", "unpaired surrogate in \\u escape", 1, 2),
    ] as [(String, String, Int, Int)])
  func syntaxErrorsAreLocated(_ text: String, _ message: String, _ line: Int, _ column: Int) {
    do {
      _ = try JSONParser.parse(text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.message == message)
      #expect(error.location.line == line && error.location.column == column, "\(text)")
    }
  }

  @Test func invalidUTF8IsRejected() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
  }

  @Test func nestingIsLimitedBeforeTheStackIs() {
    let deep = String(repeating: "[", count: 100_000)
    do {
      _ = try JSONParser.parse(deep)
      Issue.record("accepted")
    } catch {
      #expect(error.message == "nesting deeper than the limit of 256 levels")
    }
    #expect((try? JSONParser.parse(String(repeating: "[", count: 200) + String(repeating: "]", count: 200))) != nil)
  }

  @Test func pathsPrintAsUsersReadThem() {
    let path = JSONPath().appending("timeline").appending(2).appending("animation")
    #expect(path.description == "timeline[2].animation")
    #expect(JSONPath().appending("layers").appending(0).appending("a b").description == "layers[0][\"a b\"]")
    #expect(JSONPath.root.description == "(root)")
    // A key is capped at 40 characters, as every quote of the input is.
    let long = JSONPath().appending("layers").appending(0).appending(String(repeating: "k", count: 41)).description
    #expect(long == "layers[0][\"" + String(repeating: "k", count: 39) + "…\"]")
    let forty = String(repeating: "k", count: 40)
    #expect(JSONPath().appending("layers").appending(forty).description == "layers.\(forty)")
  }
}

@Suite struct CallParserTests {
  @Test func chainsArgumentsAndNestedValues() throws {
    let chain = try CallParser.parse("slide.combined(with: .opacity).scale(0.5, anchor: [0, 1], on: true)")
    #expect(chain.calls.map(\.name) == ["slide", "combined", "scale"])
    #expect(chain.calls[0].arguments == nil)
    let with = try #require(chain.calls[1].arguments?.first)
    #expect(with.label == "with")
    guard case .chain(let inner) = with.value else { Issue.record("not a chain"); return }
    #expect(inner.calls.map(\.name) == ["opacity"])
    let scale = try #require(chain.calls[2].arguments)
    #expect(scale[0].label == nil && scale[0].value == .number(0.5))
    guard case .array(let anchor) = scale[1].value else { Issue.record("not an array"); return }
    #expect(anchor.map(\.value) == [.number(0), .number(1)])
    #expect(scale[2].value == .bool(true))
    #expect(chain.calls[2].nameOrigin == .text(31..<36))
  }

  @Test func numbersAsSwiftWritesThem() throws {
    let chain = try CallParser.parse("f(-0.5, +2, 1_000, 1e-3, 2E2)")
    #expect(chain.calls[0].arguments!.map(\.value) == [.number(-0.5), .number(2), .number(1000), .number(0.001), .number(200)])
  }
}

@Suite struct SuggestionTests {
  @Test func editDistance() {
    #expect(Suggestions.editDistance(Array("sprung"), Array("spring")) == 1)
    #expect(Suggestions.editDistance(Array("dealy"), Array("delay")) == 1)  // a transposition
    #expect(Suggestions.editDistance(Array("kitten"), Array("sitting")) == 3)
    #expect(Suggestions.editDistance(Array(""), Array("abc")) == 3)
  }

  @Test func nearestIsOnlyOfferedWhenPlausible() {
    let names = ["spring", "snappy", "smooth", "bouncy"]
    #expect(Suggestions.nearest(to: "sprung", in: names) == "spring")
    #expect(Suggestions.nearest(to: "Snappy", in: names) == "snappy")
    #expect(Suggestions.nearest(to: "elephant", in: names) == nil)
  }

  @Test func numbersForPeople() {
    #expect(formatNumber(1 - 0.8) == "0.2")
    #expect(formatNumber(3) == "3")
    #expect(formatNumber(-0.5) == "-0.5")
    #expect(formatNumber(0.35) == "0.35")
    #expect(formatNumber(157.91367041742973) == "157.913670417")
    #expect(formatNumber(1e-5) == "1e-05")
  }
}
