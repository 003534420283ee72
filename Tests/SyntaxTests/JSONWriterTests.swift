import Testing

@testable import Syntax

/// One-line JSON, by hand.
struct JSONWriterTests {
  struct Sample: Encodable {
    var zeta = 1
    var alpha = 0.1
    var missing: String? = nil
    var list = [1.0, 2.5, 1e-20, 1e20, -0.0]
    var nested = ["b": true]
    var text = "a \"quote\" \\ and\na line, é, \u{1}"
    var wide: Int64 = -7
    var small: Float = 0.5
  }

  @Test func keysInDeclarationOrderOnOneLine() throws {
    #expect(
      try JSONWriter.line(Sample())
        == #"{"zeta": 1, "alpha": 0.1, "list": [1, 2.5, 1e-20, 1e+20, 0], "nested": {"b": true}, "text": "a \"quote\" \\ and\na line, é, \u0001", "wide": -7, "small": 0.5}"#
    )
  }

  /// A dictionary's iteration order changes with the process's hash seed;
  /// its keys are written sorted, so the text does not.
  @Test func dictionaryKeysAreSorted() throws {
    let counts = ["mp4": 3, "gif": 1, "png": 2, "apng": 0, "webm": 5, "webp": 4]
    #expect(try JSONWriter.line(counts) == #"{"apng": 0, "gif": 1, "mp4": 3, "png": 2, "webm": 5, "webp": 4}"#)
    struct Holder: Encodable { var byFormat = ["z": [1.5], "a": [2.0]] }
    #expect(try JSONWriter.line(Holder()) == #"{"byFormat": {"a": [2], "z": [1.5]}}"#)
  }

  @Test func nullIsWrittenWhenEncodedExplicitly() throws {
    struct Explicit: Encodable {
      var a: Double?
      func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(a, forKey: .a)
      }
      enum CodingKeys: CodingKey { case a }
    }
    #expect(try JSONWriter.line(Explicit(a: nil)) == #"{"a": null}"#)
    #expect(try JSONWriter.line([Explicit(a: 3)]) == #"[{"a": 3}]"#)
  }

  @Test func numbersJSONCannotHoldAreErrors() {
    #expect(throws: JSONWriter.Failure.self) { try JSONWriter.line(["x": Double.nan]) }
    #expect(throws: JSONWriter.Failure.self) { try JSONWriter.line([Double.infinity]) }
  }
}
