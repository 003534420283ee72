import Syntax

/// Reads animations written as in SwiftUI source (`"snappy(duration: 0.4,
/// extraBounce: 0.1).delay(0.2)"`, a leading `.` allowed) or in the JSON
/// object form (`{"snappy": {"duration": 0.4}, "delay": 0.2}`) into one
/// model, checking every parameter. Errors quote the offending text, say
/// what is allowed, and suggest the nearest name.
public enum AnimationParser {
  /// Parses SwiftUI syntax. Error origins are character ranges in `text`.
  public static func parse(_ text: String) throws(SyntaxError) -> Animation {
    try build(try CallParser.parse(text), source: text)
  }

  /// Parses an `animation` value of a scene: a string in SwiftUI syntax or
  /// an object with one key per call. Error origins are JSON locations.
  public static func parse(json node: JSONNode, path: JSONPath) throws(SyntaxError) -> Animation {
    let chain = try CallChain.fromJSON(node, path: path)
    do {
      return try build(chain, source: node.string)
    } catch {
      // Errors inside a string value point into the file.
      throw SyntaxError(error.message, at: node.locatedOrigin(path: path, error: error))
    }
  }

  /// Validates a call chain into an animation. `source` is the text the
  /// chain was parsed from, if any, to quote it exactly in messages.
  public static func build(_ chain: CallChain, source: String?) throws(SyntaxError) -> Animation {
    let quoter = Quoter(source: source)
    let first = chain.calls[0]
    guard let signatures = bases[first.name] else {
      if modifiers[first.name] != nil {
        throw SyntaxError(
          "'\(first.name)' is a modifier; write it after an animation, as in 'easeInOut.\(first.name)(…)'",
          at: first.nameOrigin)
      }
      throw SyntaxError(
        "unknown animation '\(first.name)'" + Suggestions.didYouMean(first.name, in: allNames),
        at: first.nameOrigin)
    }
    let base = try signatures.build(first, quoter: quoter)
    // A spring that takes hours to settle is a typo, and would make an
    // endless scene: say so rather than render it.
    let settling = Animation(base).baseDuration()
    guard settling <= maximumSettlingDuration else {
      throw SyntaxError(
        "\(quoter.quote(first)) takes more than an hour to settle (more than the limit of \(formatNumber(maximumSettlingDuration)) s)",
        at: first.origin)
    }
    var animation = Animation(base)
    for call in chain.calls.dropFirst() {
      guard let signatures = modifiers[call.name] else {
        if bases[call.name] != nil {
          throw SyntaxError(
            "'\(call.name)' is an animation, not a modifier; the modifiers are \(modifierList)",
            at: call.nameOrigin)
        }
        throw SyntaxError(
          "unknown modifier '\(call.name)'" + Suggestions.didYouMean(call.name, in: modifiers.keys.sorted())
            + " (the modifiers are \(modifierList))",
          at: call.nameOrigin)
      }
      animation.modifiers.append(try signatures.buildModifier(call, quoter: quoter))
    }
    return animation
  }

  /// The longest settling duration accepted, in seconds.
  public static let maximumSettlingDuration = 3600.0

  /// Every animation name a scene may write.
  public static var animationNames: [String] { bases.keys.sorted() }

  static var allNames: [String] { bases.keys.sorted() + modifiers.keys.sorted() }
  static let modifierList = "delay, speed, repeatCount, repeatForever"

  // MARK: - Signatures

  typealias Arguments = [String: (value: ArgumentValue, origin: SyntaxOrigin)]

  struct Parameter: Sendable {
    /// The label as written in Swift; nil for an unlabelled parameter.
    let label: String?
    /// The parameter's name, used by the JSON object form and in messages.
    let name: String
    let defaultValue: ArgumentValue?
    init(_ label: String?, name: String? = nil, default defaultValue: ArgumentValue? = nil) {
      self.label = label
      self.name = name ?? label!
      self.defaultValue = defaultValue
    }
  }

  /// One way to call a function (SwiftUI's overloads).
  struct Overload: Sendable {
    let parameters: [Parameter]
    var spelling: String { "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")" }
  }

  struct Function: Sendable {
    let name: String
    let overloads: [Overload]
    /// Builds the base (or the modifier) from matched arguments.
    let make: @Sendable (_ overload: Int, _ args: ArgumentReader) throws(SyntaxError) -> Built

    enum Built: Sendable {
      case base(Animation.Base)
      case modifier(Animation.Modifier)
    }

    func build(_ call: Call, quoter: Quoter) throws(SyntaxError) -> Animation.Base {
      let (index, args) = try match(call, quoter: quoter)
      guard case .base(let base) = try make(index, args) else { fatalError("a base function made a modifier") }
      return base
    }

    func buildModifier(_ call: Call, quoter: Quoter) throws(SyntaxError) -> Animation.Modifier {
      let (index, args) = try match(call, quoter: quoter)
      guard case .modifier(let modifier) = try make(index, args) else { fatalError("a modifier function made a base") }
      return modifier
    }

    var spellings: String {
      overloads.map { name + $0.spelling }.joined(separator: " or ")
    }

    /// Matches the call's arguments against each overload in turn.
    func match(_ call: Call, quoter: Quoter) throws(SyntaxError) -> (Int, ArgumentReader) {
      let given = call.arguments ?? []
      var firstFailure: SyntaxError?
      for (index, overload) in overloads.enumerated() {
        switch Self.bind(given, to: overload) {
        case .success(let values):
          return (index, ArgumentReader(function: name, call: call, values: values, quoter: quoter))
        case .failure(let error):
          if firstFailure == nil { firstFailure = error }
        }
      }
      // No overload fits: explain with the most useful message.
      let allLabels = Set(overloads.flatMap { $0.parameters.compactMap(\.label) })
      for argument in given {
        if let label = argument.label, !allLabels.contains(label),
          !overloads.contains(where: { $0.parameters.contains { $0.label == nil && $0.name == label } })
        {
          let hint = Suggestions.didYouMean(label, in: allLabels.sorted())
          throw SyntaxError(
            "unknown argument '\(label)' for '\(name)'\(hint) (\(name) takes \(spellings))",
            at: argument.origin)
        }
      }
      if call.arguments == nil, overloads.allSatisfy({ $0.parameters.contains { $0.defaultValue == nil } }) {
        throw SyntaxError("'\(name)' needs arguments: \(spellings)", at: call.origin)
      }
      throw SyntaxError(
        "\(firstFailure.map { $0.message + "; " } ?? "")\(name) takes \(spellings), got '\(quoter.quote(call))'",
        at: firstFailure?.origin ?? call.origin)
    }

    /// Binds arguments to parameters in order, as Swift does: each argument
    /// takes the next parameter with its label, skipping defaulted ones.
    static func bind(_ given: [CallArgument], to overload: Overload) -> Result<Arguments, SyntaxError> {
      var values = Arguments()
      var next = 0
      let parameters = overload.parameters
      for argument in given {
        var found: Int?
        var cursor = next
        while cursor < parameters.count {
          let p = parameters[cursor]
          // The JSON form names unlabelled parameters.
          if p.label == argument.label || (p.label == nil && argument.label == p.name) {
            found = cursor
            break
          }
          if p.defaultValue == nil { break }
          cursor += 1
        }
        guard let found else {
          let what = argument.label.map { "argument '\($0)'" } ?? "unlabelled argument"
          return .failure(SyntaxError("unexpected \(what)", at: argument.origin))
        }
        values[parameters[found].name] = (argument.value, argument.origin)
        next = found + 1
      }
      for p in parameters where values[p.name] == nil {
        guard let d = p.defaultValue else {
          return .failure(SyntaxError("missing argument '\(p.label ?? p.name)'", at: given.last?.origin ?? .text(0..<0)))
        }
        values[p.name] = (d, .text(0..<0))
      }
      return .success(values)
    }
  }

  /// Typed access to matched arguments, with located range checks.
  struct ArgumentReader {
    let function: String
    let call: Call
    let values: Arguments
    let quoter: Quoter

    func origin(_ name: String) -> SyntaxOrigin {
      let o = values[name]!.origin
      if case .text(let r) = o, r.isEmpty { return call.origin }  // a default
      return o
    }

    /// A finite number.
    func number(_ name: String) throws(SyntaxError) -> Double {
      let (value, origin) = values[name]!
      guard case .number(let n) = value else {
        throw SyntaxError("'\(name)' of \(function) must be a number, got \(value.kindName)", at: origin)
      }
      return n
    }

    func bool(_ name: String) throws(SyntaxError) -> Bool {
      let (value, origin) = values[name]!
      guard case .bool(let b) = value else {
        throw SyntaxError("'\(name)' of \(function) must be true or false, got \(value.kindName)", at: origin)
      }
      return b
    }

    /// A number that must satisfy `check`; otherwise the error says what is
    /// allowed and quotes the call.
    func number(_ name: String, _ requirement: String, _ check: (Double) -> Bool) throws(SyntaxError) -> Double {
      let n = try number(name)
      guard check(n) else {
        throw SyntaxError("\(name) must be \(requirement), got \(formatNumber(n)) in '\(quoter.quote(call))'", at: origin(name))
      }
      return n
    }

    func positive(_ name: String) throws(SyntaxError) -> Double {
      try number(name, "greater than 0") { $0 > 0 }
    }

    /// A spring's bounce, or the bounce a preset reaches with `extraBounce`.
    func checkedBounce(_ bounce: Double, from name: String) throws(SyntaxError) -> Double {
      guard bounce > -1 && bounce < 1 else {
        let detail = name == "bounce" ? "got \(formatNumber(bounce))" : "\(function) reaches a bounce of \(formatNumber(bounce))"
        throw SyntaxError(
          "bounce must be greater than -1 and less than 1 (1 never settles, -1 never moves), \(detail) in '\(quoter.quote(call))'",
          at: origin(name))
      }
      return bounce
    }

    func fail(_ message: String, at name: String? = nil) -> SyntaxError {
      SyntaxError("\(message) in '\(quoter.quote(call))'", at: name.map(origin) ?? call.origin)
    }
  }

  /// Quotes calls exactly as written when the source text is known.
  struct Quoter {
    let source: String?
    func quote(_ call: Call) -> String {
      if let source, case .text(let range) = call.origin {
        let scalars = Array(source.unicodeScalars)
        if range.upperBound <= scalars.count {
          var view = String.UnicodeScalarView()
          view.append(contentsOf: scalars[range])
          return String(view)
        }
      }
      let args = (call.arguments ?? []).map { ($0.label.map { "\($0): " } ?? "") + Self.text($0.value) }
      return call.arguments == nil ? call.name : "\(call.name)(\(args.joined(separator: ", ")))"
    }
    static func text(_ value: ArgumentValue) -> String {
      switch value {
      case .number(let n): formatNumber(n)
      case .bool(let b): "\(b)"
      case .string(let s): "\"\(s)\""
      case .array(let a): "[" + a.map { text($0.value) }.joined(separator: ", ") + "]"
      case .chain(let c): c.calls.map(\.name).joined(separator: ".")
      }
    }
  }

  // MARK: - The functions

  private static func num(_ n: Double) -> ArgumentValue { .number(n) }
  private static let curveOverloads = [Overload(parameters: [Parameter("duration", default: num(Animation.defaultCurveDuration))])]

  private static func curve(_ name: String, _ function: TimingFunction) -> (String, Function) {
    (
      name,
      Function(name: name, overloads: curveOverloads) { _, args throws(SyntaxError) in
        .base(.curve(function, duration: try args.positive("duration")))
      }
    )
  }

  /// `smooth`, `snappy`, `bouncy`, `interactiveSpring` with `duration:` and `extraBounce:`.
  private static func preset(_ preset: Spring.Preset, response: (duration: Double, dampingFraction: Double, blend: Double)? = nil) -> (
    String, Function
  ) {
    var overloads = [
      Overload(parameters: [
        Parameter("duration", default: num(preset.duration)), Parameter("extraBounce", default: num(0)), blendDuration(0),
      ])
    ]
    if let response {
      // The older `interactiveSpring(response:dampingFraction:blendDuration:)`.
      overloads.append(
        Overload(parameters: [
          Parameter("response", default: num(response.duration)),
          Parameter("dampingFraction", default: num(response.dampingFraction)), blendDuration(response.blend),
        ]))
    }
    return (
      preset.rawValue,
      Function(name: preset.rawValue, overloads: overloads) { overload, args throws(SyntaxError) in
        _ = try args.number("blendDuration", "0 or more") { $0 >= 0 }
        if overload == 1 {
          let r = try args.positive("response")
          let z = try args.number("dampingFraction", "greater than 0 (an undamped spring never settles)") { $0 > 0 }
          return .base(.spring(Spring(response: r, dampingFraction: z), initialVelocity: 0))
        }
        let d = try args.positive("duration")
        let extra = try args.number("extraBounce")
        _ = try args.checkedBounce(preset.bounce + extra, from: "extraBounce")
        return .base(.spring(Spring(preset, duration: d, extraBounce: extra), initialVelocity: 0))
      }
    )
  }

  /// `blendDuration` is accepted for source compatibility with SwiftUI: it
  /// only shapes how a retargeted spring's *parameters* blend, and
  /// Springframe switches to the new spring's parameters at once (the value
  /// and velocity stay continuous).
  private static func blendDuration(_ d: Double) -> Parameter { Parameter("blendDuration", default: num(d)) }

  static let bases: [String: Function] = {
    var table: [String: Function] = [:]
    for (name, function) in [
      curve("linear", .linear), curve("easeIn", .easeIn), curve("easeOut", .easeOut), curve("easeInOut", .easeInOut),
    ] { table[name] = function }
    for easing in Easing.allCases {
      let (name, function) = curve(easing.description, .easing(easing))
      table[name] = function
    }
    table["timingCurve"] = Function(
      name: "timingCurve",
      overloads: [
        Overload(parameters: [
          Parameter(nil, name: "p1x"), Parameter(nil, name: "p1y"), Parameter(nil, name: "p2x"), Parameter(nil, name: "p2y"),
          Parameter("duration", default: num(Animation.defaultCurveDuration)),
        ])
      ]
    ) { _, args throws(SyntaxError) in
      let x1 = try args.number("p1x", "between 0 and 1 (a timing curve must move forward in time)") { (0...1).contains($0) }
      let y1 = try args.number("p1y")
      let x2 = try args.number("p2x", "between 0 and 1 (a timing curve must move forward in time)") { (0...1).contains($0) }
      let y2 = try args.number("p2y")
      return .base(.curve(.bezier(CubicBezier(x1, y1, x2, y2)), duration: try args.positive("duration")))
    }
    for (name, function) in [
      preset(.smooth), preset(.snappy), preset(.bouncy),
      preset(.interactiveSpring, response: (0.15, 0.86, 0.25)),
    ] { table[name] = function }
    table["default"] = Function(name: "default", overloads: [Overload(parameters: [])]) { _, _ throws(SyntaxError) in
      .base(.spring(.default, initialVelocity: 0))
    }
    table["spring"] = Function(
      name: "spring",
      overloads: [
        Overload(parameters: [Parameter("duration", default: num(0.5)), Parameter("bounce", default: num(0)), blendDuration(0)]),
        Overload(parameters: [
          Parameter("response", default: num(0.5)), Parameter("dampingFraction", default: num(0.825)), blendDuration(0),
        ]),
      ]
    ) { overload, args throws(SyntaxError) in
      _ = try args.number("blendDuration", "0 or more") { $0 >= 0 }
      if overload == 0 {
        let d = try args.positive("duration")
        let b = try args.checkedBounce(try args.number("bounce"), from: "bounce")
        return .base(.spring(Spring(duration: d, bounce: b), initialVelocity: 0))
      }
      let r = try args.positive("response")
      let z = try args.number("dampingFraction", "greater than 0 (an undamped spring never settles)") { $0 > 0 }
      return .base(.spring(Spring(response: r, dampingFraction: z), initialVelocity: 0))
    }
    table["interpolatingSpring"] = Function(
      name: "interpolatingSpring",
      overloads: [
        Overload(parameters: [
          Parameter("mass", default: num(1)), Parameter("stiffness"), Parameter("damping"),
          Parameter("initialVelocity", default: num(0)),
        ]),
        Overload(parameters: [
          Parameter("duration", default: num(0.5)), Parameter("bounce", default: num(0)),
          Parameter("initialVelocity", default: num(0)),
        ]),
      ]
    ) { overload, args throws(SyntaxError) in
      let v = try args.number("initialVelocity")
      if overload == 0 {
        let m = try args.positive("mass")
        let k = try args.positive("stiffness")
        let c = try args.number("damping", "greater than 0 (an undamped spring never settles)") { $0 > 0 }
        return .base(.spring(Spring(mass: m, stiffness: k, damping: c), initialVelocity: v))
      }
      let d = try args.positive("duration")
      let b = try args.checkedBounce(try args.number("bounce"), from: "bounce")
      return .base(.spring(Spring(duration: d, bounce: b), initialVelocity: v))
    }
    table["uikitSpring"] = Function(
      name: "uikitSpring",
      overloads: [
        Overload(parameters: [
          Parameter("duration"), Parameter("dampingRatio"), Parameter("initialVelocity", default: num(0)),
        ])
      ]
    ) { _, args throws(SyntaxError) in
      let d = try args.positive("duration")
      let z = try args.number("dampingRatio", "greater than 0 and at most 1") { $0 > 0 && $0 <= 1 }
      let v = try args.number("initialVelocity")
      guard let spring = Spring(uikitDuration: d, dampingRatio: z, initialVelocity: v) else {
        throw args.fail("no spring with dampingRatio \(formatNumber(z)) settles within \(formatNumber(d)) s")
      }
      return .base(.uikitSpring(spring, duration: d, dampingRatio: z, initialVelocity: v))
    }
    return table
  }()

  static let modifiers: [String: Function] = [
    "delay": Function(name: "delay", overloads: [Overload(parameters: [Parameter(nil, name: "delay")])]) {
      _, args throws(SyntaxError) in
      .modifier(.delay(try args.number("delay", "0 or more seconds") { $0 >= 0 }))
    },
    "speed": Function(name: "speed", overloads: [Overload(parameters: [Parameter(nil, name: "speed")])]) {
      _, args throws(SyntaxError) in
      .modifier(.speed(try args.number("speed", "greater than 0") { $0 > 0 }))
    },
    "repeatCount": Function(
      name: "repeatCount",
      overloads: [Overload(parameters: [Parameter(nil, name: "count"), Parameter("autoreverses", default: .bool(true))])]
    ) { _, args throws(SyntaxError) in
      let n = try args.number("count", "a whole number, at least 1") { $0 >= 1 && $0 == $0.rounded() && $0 <= 1_000_000 }
      return .modifier(.repeat(count: Int(n), autoreverses: try args.bool("autoreverses")))
    },
    "repeatForever": Function(
      name: "repeatForever",
      overloads: [Overload(parameters: [Parameter("autoreverses", default: .bool(true))])]
    ) { _, args throws(SyntaxError) in
      .modifier(.repeat(count: nil, autoreverses: try args.bool("autoreverses")))
    },
  ]
}
