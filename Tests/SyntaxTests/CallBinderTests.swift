import Testing

@testable import Syntax

/// A small vocabulary exercising every kind of parameter: each function
/// makes a text that says which overload ran with which values.
private enum Shape: String, CaseIterable, Sendable { case circle, square }

private let duration = Parameter.number("duration", .positive, unit: .seconds, default: 0.5)

private let vocabulary = Vocabulary<String>(
  "test function",
  [
    Function(
      "spring",
      Overload(duration, Parameter.number("bounce", NumberRange(lower: .open(-1), upper: .open(1)), because: "1 never settles", default: 0)) {
        _, d, b in "spring(duration: \(d), bounce: \(b))"
      },
      Overload(Parameter.number("response", .positive, unit: .seconds), Parameter.number("dampingFraction", default: 1)) { _, r, z in
        "spring(response: \(r), dampingFraction: \(z))"
      }),
    Function(
      "offset", Overload(Parameter.number("x", default: 0), Parameter.number("y", default: 0)) { _, x, y in "offset(x: \(x), y: \(y))" }),
    Function(
      "scale", Overload { _ in "scale" },
      Overload(Parameter.number(.unlabelled("factor")), Parameter.point("anchor", default: SIMD2(0.5, 0.5))) { _, f, a in
        "scale(\(f), anchor: [\(a.x), \(a.y)])"
      }),
    Function(
      "repeat",
      Overload(Parameter.integer(.unlabelled("count"), 1...10), Parameter.bool("autoreverses", default: true)) { _, n, a in
        "repeat(\(n), autoreverses: \(a))"
      }),
    Function("shape", Overload(Parameter<Shape>.choice("kind", noun: "a shape")) { _, kind in "shape(kind: \(kind))" }),
    Function(
      "wrap",
      Overload(Parameter.chain("inner", noun: "a chain")) { _, inner in "wrap(\(inner.calls.map(\.name).joined(separator: ".")))" }),
    Function(
      "tie", Overload(Parameter.number("x"), Parameter.number("y")) { _, x, y in "tie(x: \(x), y: \(y))" },
      Overload(Parameter.number("x"), Parameter.number("z")) { _, x, z in "tie(x: \(x), z: \(z))" }),
    Function(
      "settle",
      Overload(duration) { call, d throws(SyntaxError) in
        guard d < 10 else { throw call.error("\(d) s is too long", at: duration) }
        return "settle(\(d))"
      }),
  ],
  unavailable: ["custom": "custom is only written as a JSON object"])

/// The value of the call in `text`, or the error's message and origin.
private func make(_ text: String) -> Result<String, SyntaxError> {
  Result { () throws(SyntaxError) -> String in
    let chain = try CallParser.parse(text)
    return try vocabulary.make(chain.calls[0], source: text)
  }
}

/// The same for the JSON object form: `json` holds one key, the call.
private func make(json: String) throws -> Result<String, SyntaxError> {
  let node = try JSONParser.parse(json)
  return Result { () throws(SyntaxError) -> String in
    let chain = try CallChain.fromJSON(node, path: .root)
    return try vocabulary.make(chain.calls[0], source: nil)
  }
}

private func message(_ result: Result<String, SyntaxError>) -> String? {
  if case .failure(let error) = result { error.message } else { nil }
}

private func origin(_ result: Result<String, SyntaxError>) -> SyntaxOrigin? {
  if case .failure(let error) = result { error.origin } else { nil }
}

@Suite struct CallBinderTests {
  @Test func overloadsAreTriedInOrder() throws {
    #expect(try make("spring").get() == "spring(duration: 0.5, bounce: 0.0)")
    #expect(try make("spring()").get() == "spring(duration: 0.5, bounce: 0.0)")
    #expect(try make("spring(bounce: 0.2)").get() == "spring(duration: 0.5, bounce: 0.2)")
    #expect(try make("spring(response: 0.3)").get() == "spring(response: 0.3, dampingFraction: 1.0)")
    #expect(try make("scale").get() == "scale")
    #expect(try make("scale(2)").get() == "scale(2.0, anchor: [0.5, 0.5])")
    #expect(try make("scale(2, anchor: [0, 1])").get() == "scale(2.0, anchor: [0.0, 1.0])")
    let call = try CallParser.parse("spring(response: 0.3)").calls[0]
    let bound = try CallBinder.bind(call, to: vocabulary["spring"]!.signatures, source: nil)
    #expect(bound.overload == 1)
    #expect(bound.arguments.map { $0?.label } == ["response", nil])
  }

  @Test func defaultsFillWhatIsLeftOut() throws {
    #expect(try make("offset").get() == "offset(x: 0.0, y: 0.0)")
    #expect(try make("offset(y: 2)").get() == "offset(x: 0.0, y: 2.0)")
    #expect(try make("repeat(3)").get() == "repeat(3, autoreverses: true)")
    #expect(try make("repeat(3.0, autoreverses: false)").get() == "repeat(3, autoreverses: false)")
  }

  @Test func valuesOfEveryKind() throws {
    #expect(try make("shape(kind: .square)").get() == "shape(kind: square)")
    #expect(try make("shape(kind: circle)").get() == "shape(kind: circle)")
    #expect(try make(#"shape(kind: "circle")"#).get() == "shape(kind: circle)")
    #expect(try make("wrap(inner: .a.b(1))").get() == "wrap(a.b)")
  }

  @Test func signaturesSpellAsSwiftDoes() {
    #expect(vocabulary["spring"]!.signatures.map(\.description) == ["spring(duration:bounce:)", "spring(response:dampingFraction:)"])
    #expect(vocabulary["scale"]!.signatures.map(\.description) == ["scale", "scale(_:anchor:)"])
  }

  @Test(
    arguments: [
      (NumberRange.any, "a number"),
      (.positive, "greater than 0"),
      (.nonNegative, "0 or more"),
      (NumberRange(upper: .open(2)), "less than 2"),
      (NumberRange(upper: .closed(2)), "at most 2"),
      (NumberRange(lower: .closed(0), upper: .closed(1)), "between 0 and 1"),
      (NumberRange(lower: .open(-1), upper: .open(1)), "greater than -1 and less than 1"),
      (NumberRange(lower: .open(0), upper: .closed(1)), "greater than 0 and at most 1"),
      (NumberRange(lower: .closed(0.5), upper: .open(1)), "at least 0.5 and less than 1"),
    ] as [(NumberRange, String)])
  func rangesSayWhatTheyRequire(_ range: NumberRange, _ text: String) {
    #expect(range.description == text)
  }

  @Test func rangeEndsAreOpenOrClosed() {
    let range = NumberRange(lower: .open(0), upper: .closed(1))
    #expect([-1, 0, 1e-300, 0.5, 1, 1.0000001].map(range.contains) == [false, false, true, true, true, false])
  }

  /// Each message quotes the call as written and points at the argument
  /// at fault, or at the call.
  @Test(
    arguments: [
      (
        "spring(duraton: 1)",
        "unknown argument 'duraton' for 'spring'; did you mean 'duration'? (spring takes spring(duration:bounce:) or spring(response:dampingFraction:))",
        7..<17
      ),
      (
        "spring(1)", "unexpected unlabelled argument; spring takes spring(duration:bounce:) or spring(response:dampingFraction:), got 'spring(1)'",
        7..<8
      ),
      // The overload that got furthest explains.
      (
        "spring(response: 1, bounce: 0)",
        "unexpected argument 'bounce'; spring takes spring(duration:bounce:) or spring(response:dampingFraction:), got 'spring(response: 1, bounce: 0)'",
        20..<29
      ),
      (
        "spring(bounce: 0, duration: 1)",
        "argument 'duration' must precede argument 'bounce'; spring takes spring(duration:bounce:) or spring(response:dampingFraction:), got 'spring(bounce: 0, duration: 1)'",
        18..<29
      ),
      (
        "spring(duration: 1, duration: 2)",
        "argument 'duration' is given twice; spring takes spring(duration:bounce:) or spring(response:dampingFraction:), got 'spring(duration: 1, duration: 2)'",
        20..<31
      ),
      (
        "spring(dampingFraction: 1, response: 1)",
        "argument 'response' must precede argument 'dampingFraction'; spring takes spring(duration:bounce:) or spring(response:dampingFraction:), got 'spring(dampingFraction: 1, response: 1)'",
        7..<25
      ),
      (
        "spring(dampingFraction: 1)",
        "missing argument 'response' before argument 'dampingFraction'; spring takes spring(duration:bounce:) or spring(response:dampingFraction:), got 'spring(dampingFraction: 1)'",
        7..<25
      ),
      ("repeat()", "missing argument 'count'; repeat takes repeat(_:autoreverses:), got 'repeat()'", 0..<8),
      // Equally close overloads: the first explains.
      ("tie(x: 1)", "missing argument 'y'; tie takes tie(x:y:) or tie(x:z:), got 'tie(x: 1)'", 4..<8),
      (
        "repeat(autoreverses: false)",
        "missing argument 'count' before argument 'autoreverses'; repeat takes repeat(_:autoreverses:), got 'repeat(autoreverses: false)'", 7..<26
      ),
      ("shape", "'shape' needs arguments: shape(kind:)", 0..<5),
      ("offset(x: 1, z: 2)", "unknown argument 'z' for 'offset'; did you mean 'x'? (offset takes offset(x:y:))", 13..<17),
      // Kinds and ranges, checked once an overload is chosen.
      ("spring(duration: .fast)", "'duration' of spring must be a number, got a name", 7..<22),
      ("spring(duration: 0)", "duration must be greater than 0 seconds, got 0 in 'spring(duration: 0)'", 7..<18),
      ("spring(bounce:   1)", "bounce must be greater than -1 and less than 1 (1 never settles), got 1 in 'spring(bounce:   1)'", 7..<18),
      ("repeat(2.5)", "count must be a whole number from 1 to 10, got 2.5 in 'repeat(2.5)'", 7..<10),
      ("repeat(11)", "count must be a whole number from 1 to 10, got 11 in 'repeat(11)'", 7..<9),
      ("repeat(true)", "'count' of repeat must be a whole number, got a boolean", 7..<11),
      ("repeat(2, autoreverses: 1)", "'autoreverses' of repeat must be true or false, got a number", 10..<25),
      ("scale(2, anchor: [0])", "'anchor' of scale must be a unit point [u, v], got [0]", 9..<20),
      ("scale(2, anchor: [0, true])", "'anchor' of scale must be a unit point [u, v], got [0, true]", 9..<26),
      ("scale(2, anchor: .center)", "'anchor' of scale must be a unit point [u, v], got a name", 9..<24),
      ("shape(kind: .cirle)", "'kind' of shape must be a shape: circle or square, got 'cirle'; did you mean 'circle'?", 6..<18),
      ("shape(kind: 1)", "'kind' of shape must be a shape: circle or square, got a number", 6..<13),
      ("wrap(inner: [1])", "'inner' of wrap must be a chain, got an array", 5..<15),
      // A maker's own error, at its argument or, for a default, at the call.
      ("settle(duration: 12)", "12.0 s is too long in 'settle(duration: 12)'", 7..<19),
      // Names.
      ("sprung", "unknown test function 'sprung'; did you mean 'spring'?", 0..<6),
      ("custom(1)", "custom is only written as a JSON object", 0..<6),
      ("custon", "unknown test function 'custon'; did you mean 'custom'?", 0..<6),
    ] as [(String, String, Range<Int>)])
  func mismatchesAreExplained(_ text: String, _ expected: String, _ range: Range<Int>) {
    let result = make(text)
    #expect(message(result) == expected, "\(text)")
    #expect(origin(result) == .text(range), "\(text)")
  }

  @Test func jsonObjectFormNamesUnlabelledParameters() throws {
    #expect(try make(json: #"{"spring": {"duration": 1, "bounce": 0.2}}"#).get() == "spring(duration: 1.0, bounce: 0.2)")
    #expect(try make(json: #"{"repeat": {"count": 2, "autoreverses": false}}"#).get() == "repeat(2, autoreverses: false)")
    #expect(try make(json: #"{"scale": {"factor": 3, "anchor": [0, 0]}}"#).get() == "scale(3.0, anchor: [0.0, 0.0])")
    #expect(try make(json: #"{"shape": {"kind": "square"}}"#).get() == "shape(kind: square)")
    // Numbers and arrays are unlabelled arguments in order.
    #expect(try make(json: #"{"repeat": 4}"#).get() == "repeat(4, autoreverses: true)")
  }

  @Test(
    arguments: [
      (
        #"{"spring": {"duraton": 1}}"#,
        "unknown argument 'duraton' for 'spring'; did you mean 'duration'? (spring takes spring(duration:bounce:) or spring(response:dampingFraction:))",
        "spring.duraton"
      ),
      // An unlabelled parameter by its name, in messages too.
      (
        #"{"repeat": {"autoreverses": true}}"#,
        "missing argument 'count' before argument 'autoreverses'; repeat takes repeat(_:autoreverses:), got 'repeat(autoreverses: true)'",
        "repeat.autoreverses"
      ),
      (
        #"{"repeat": {"cout": 2}}"#, "unknown argument 'cout' for 'repeat'; did you mean 'count'? (repeat takes repeat(_:autoreverses:))",
        "repeat.cout"
      ),
      // Arguments in the parameters' order, as in Swift.
      (
        #"{"repeat": {"autoreverses": false, "count": 2}}"#,
        "argument 'count' must precede argument 'autoreverses'; repeat takes repeat(_:autoreverses:), got 'repeat(autoreverses: false, count: 2)'",
        "repeat.autoreverses"
      ),
      (#"{"shape": {"kind": "oval"}}"#, "'kind' of shape must be a shape: circle or square, got 'oval'", "shape.kind"),
      (#"{"offset": 1}"#, "unexpected unlabelled argument; offset takes offset(x:y:), got 'offset(1)'", "offset"),
      (#"{"repeat": [4, false]}"#, "unexpected unlabelled argument; repeat takes repeat(_:autoreverses:), got 'repeat(4, false)'", "repeat[1]"),
    ] as [(String, String, String)])
  func jsonObjectFormMismatches(_ json: String, _ expected: String, _ path: String) throws {
    let result = try make(json: json)
    #expect(message(result) == expected, "\(json)")
    guard case .json(let at, _) = origin(result) else {
      Issue.record("\(json): not a JSON origin")
      return
    }
    #expect(at.description == path)
  }
}
