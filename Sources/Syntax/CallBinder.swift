import Primitives

/// Matches a call's arguments to one of a function's signatures and checks
/// their values, for the animation and transition parsers alike.
///
/// Arguments match as Swift matches them: in order, each taking the next
/// parameter with its label, leaving out parameters with defaults. An
/// unlabelled parameter's documented name is accepted as its label too, as
/// the JSON object form writes it (`{"repeatCount": {"count": 2}}`). The
/// first signature that all arguments fit is chosen; then each value must
/// be of its parameter's kind and in its range.
///
/// When no signature fits, the error says why in the order most useful to a
/// writer: an argument no signature knows (`unknown argument 'duraton' for
/// 'spring'; did you mean 'duration'? (spring takes …)`), then a call
/// written without parentheses that needs arguments (`'timingCurve' needs
/// arguments: timingCurve(_:_:_:_:duration:)`), then how the signature that
/// got furthest fails (`missing argument 'dampingRatio'; uikitSpring takes
/// uikitSpring(duration:dampingRatio:initialVelocity:), got '…'`).
public enum CallBinder {
  /// Binds `call` to the first of `signatures` its arguments fit (all of
  /// the same function). `source` is the text the call was parsed from, to
  /// quote it exactly in messages.
  public static func bind(_ call: Call, to signatures: [Signature], source: String?) throws(SyntaxError) -> BoundCall {
    let given = call.arguments ?? []
    var best: Mismatch?
    for (index, signature) in signatures.enumerated() {
      switch match(given, to: signature.parameters, call: call) {
      case .success(let arguments):
        let bound = BoundCall(call: call, signature: signature, overload: index, arguments: arguments, source: source)
        try bound.check()
        return bound
      case .failure(let mismatch):
        if best.map(mismatch.isCloser(than:)) ?? true { best = mismatch }
      }
    }
    let name = call.name
    let spellings = signatures.map(\.description).joined(separator: " or ")
    let parameters = signatures.flatMap(\.parameters)
    for argument in given {
      guard let label = argument.label, !parameters.contains(where: { $0.isWritten(by: argument) }) else { continue }
      let candidates = Set(parameters.map(\.name.name))
      throw SyntaxError(
        "unknown argument \(Excerpt.quoted(label)) for \(Excerpt.quoted(name))\(Suggestions.didYouMean(label, in: candidates.sorted())) (\(name) takes \(spellings))",
        at: argument.origin)
    }
    if call.arguments == nil, signatures.allSatisfy({ $0.parameters.contains { !$0.isOptional } }) {
      throw SyntaxError("\(Excerpt.quoted(name)) needs arguments: \(spellings)", at: call.origin)
    }
    let mismatch = best!
    throw SyntaxError("\(mismatch.message); \(name) takes \(spellings), got \(Excerpt.quoted(call.quoted(from: source)))", at: mismatch.origin)
  }

  /// Why arguments do not fit a signature, and how close they came.
  struct Mismatch: Error {
    var message: String
    var origin: SyntaxOrigin
    /// How many arguments fitted before the one that did not.
    var progress: Int
    /// Whether the signature has a parameter for the argument that did not
    /// fit (or the arguments all fitted): its message then says more than
    /// "unexpected argument".
    var knowsArgument: Bool

    /// Whether this explains the call better than `other`.
    func isCloser(than other: Mismatch) -> Bool {
      (progress, knowsArgument ? 1 : 0) > (other.progress, other.knowsArgument ? 1 : 0)
    }
  }

  /// Each parameter's argument (`nil`: the default), or why they do not fit.
  static func match(_ given: [CallArgument], to parameters: [ParameterDeclaration], call: Call) -> Result<
    [CallArgument?], Mismatch
  > {
    var bound = [CallArgument?](repeating: nil, count: parameters.count)
    var next = 0
    for (k, argument) in given.enumerated() {
      let what = argument.label.map { "argument \(Excerpt.quoted($0))" } ?? "unlabelled argument"
      let fits = { (p: ParameterDeclaration) in p.isWritten(by: argument) }
      func failure(_ message: String) -> Result<[CallArgument?], Mismatch> {
        .failure(Mismatch(message: message, origin: argument.origin, progress: k, knowsArgument: parameters.contains(where: fits)))
      }
      // The next parameter it fits, past those that may be left out.
      var cursor = next
      while cursor < parameters.count, !fits(parameters[cursor]), parameters[cursor].isOptional { cursor += 1 }
      if cursor < parameters.count, fits(parameters[cursor]) {
        bound[cursor] = argument
        next = cursor + 1
        continue
      }
      if argument.label != nil, let earlier = parameters[..<next].firstIndex(where: fits) {
        if bound[earlier] != nil { return failure("\(what) is given twice") }
        let after = bound[earlier...].first { $0 != nil }!!
        return failure("\(what) must precede \(after.label.map { "argument \(Excerpt.quoted($0))" } ?? "the unlabelled argument")")
      }
      if cursor < parameters.count, parameters[cursor...].contains(where: fits) {
        // A parameter that may not be left out stands between.
        let skipped = parameters[cursor]
        if given[(k + 1)...].contains(where: { skipped.isWritten(by: $0) }) {
          return failure("argument \(Excerpt.quoted(skipped.name.name)) must precede \(what)")
        }
        return failure("missing argument \(Excerpt.quoted(skipped.name.name)) before \(what)")
      }
      return failure("unexpected \(what)")
    }
    if let missing = parameters.indices.first(where: { bound[$0] == nil && !parameters[$0].isOptional }) {
      return .failure(
        Mismatch(
          message: "missing argument \(Excerpt.quoted(parameters[missing].name.name))", origin: given.last?.origin ?? call.origin,
          progress: given.count,
          knowsArgument: true))
    }
    return .success(bound)
  }
}

/// A call bound to one signature: each parameter's argument or default.
public struct BoundCall: Sendable {
  public let call: Call
  public let signature: Signature
  /// Which of the function's overloads the call matched, from 0.
  public let overload: Int
  /// Each parameter's argument, in the signature's order; `nil` where the
  /// default applies.
  public let arguments: [CallArgument?]
  /// The text the call was parsed from, if known: nested chains parsed
  /// from it quote it too.
  public let source: String?

  /// The call as written, for messages.
  public var quoted: String { call.quoted(from: source) }

  /// Where `parameter` is written: its argument, or the whole call where
  /// the default applies.
  public func origin<V>(of parameter: Parameter<V>) -> SyntaxOrigin {
    arguments[index(of: parameter)]?.origin ?? call.origin
  }

  /// An error of the call's own, `message in 'the call'`, at the call.
  public func error(_ message: String) -> SyntaxError {
    SyntaxError("\(message) in \(Excerpt.quoted(quoted))", at: call.origin)
  }

  /// An error of the call's own, `message in 'the call'`, at `parameter` (see `origin(of:)`).
  public func error<V>(_ message: String, at parameter: Parameter<V>) -> SyntaxError {
    SyntaxError("\(message) in \(Excerpt.quoted(quoted))", at: origin(of: parameter))
  }

  func value<V>(of parameter: Parameter<V>) -> V {
    arguments[index(of: parameter)].map { parameter.read($0.value) } ?? parameter.defaultValue!
  }

  private func index<V>(of parameter: Parameter<V>) -> Int {
    guard let i = signature.parameters.firstIndex(of: parameter.declaration) else {
      preconditionFailure("\(signature) has no parameter \(parameter.declaration.name.name)")
    }
    return i
  }

  /// Checks each argument's value against its parameter's kind and range.
  func check() throws(SyntaxError) {
    for (parameter, argument) in zip(signature.parameters, arguments) {
      guard let argument else { continue }
      let name = parameter.name.name
      let value = argument.value
      func wrongKind(got: String? = nil, hint: String = "") -> SyntaxError {
        SyntaxError(
          "\(Excerpt.quoted(name)) of \(signature.name) must be \(parameter.kind.expectation), got \(got ?? value.kindName)\(hint)",
          at: argument.origin)
      }
      func outOfRange(_ n: Double) -> SyntaxError {
        SyntaxError("\(name) must be \(parameter.requirement), got \(formatNumber(n)) in \(Excerpt.quoted(quoted))", at: argument.origin)
      }
      switch parameter.kind {
      case .number(let range, _):
        guard case .number(let n) = value else { throw wrongKind() }
        guard range.contains(n) else { throw outOfRange(n) }
      case .integer(let range):
        guard case .number(let n) = value else { throw wrongKind() }
        guard n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else { throw outOfRange(n) }
      case .bool:
        guard case .bool = value else { throw wrongKind() }
      case .point, .vector:
        guard case .array(let elements) = value else { throw wrongKind() }
        guard elements.count == 2, elements.allSatisfy({ if case .number = $0.value { true } else { false } }) else {
          throw wrongKind(got: value.quoted)
        }
      case .choice(let names, _):
        guard let chosen = value.choiceName else { throw wrongKind() }
        guard names.contains(chosen) else { throw wrongKind(got: "\(Excerpt.quoted(chosen))", hint: Suggestions.didYouMean(chosen, in: names)) }
      case .chain:
        guard case .chain = value else { throw wrongKind() }
      case .value:
        break
      }
    }
  }
}
