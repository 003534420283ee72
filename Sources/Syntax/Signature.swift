import Primitives

// Declarations of the functions a call chain may name, as tables: each
// function has one or more overloads (as SwiftUI's do), each overload a
// list of typed parameters and what a call of it makes:
//
//     let duration = Parameter.number("duration", .positive, unit: .seconds, default: 0.5)
//     let spring = Function<Spring>(
//       "spring",
//       Overload(duration, Parameter.number("bounce", default: 0)) { _, d, b in Spring(duration: d, bounce: b) },
//       Overload(Parameter.number("response", .positive, unit: .seconds)) { _, r in Spring(response: r) })
//
// `CallBinder` matches a call against the overloads and checks its values;
// `Vocabulary` finds the function a call names.

/// One function's parameters, as Swift declares them.
public struct Signature: Sendable, Hashable, CustomStringConvertible {
  public let name: String
  public let parameters: [ParameterDeclaration]

  /// `spring(duration:bounce:blendDuration:)`, `timingCurve(_:_:_:_:duration:)`;
  /// the name alone without parameters (`slide`).
  public var description: String {
    parameters.isEmpty ? name : name + "(" + parameters.map(\.name.spelling).joined() + ")"
  }
}

/// One way to call a function, and the value a call that way makes.
public struct Overload<Value>: Sendable {
  public let parameters: [ParameterDeclaration]
  let make: @Sendable (BoundCall) throws(SyntaxError) -> Value

  /// An overload with `parameters` in order; `make` receives the bound
  /// call (for located errors of its own) and each parameter's value, the
  /// argument's or the default. (Write `Parameter.number("x")` in the list,
  /// not `.number("x")`: Swift does not infer the literal's type through
  /// the parameter pack.)
  public init<each P: Sendable>(
    _ parameters: repeat Parameter<each P>, make: @escaping @Sendable (BoundCall, repeat each P) throws(SyntaxError) -> Value
  ) {
    var declarations: [ParameterDeclaration] = []
    for parameter in repeat each parameters { declarations.append(parameter.declaration) }
    self.parameters = declarations
    let typed = (repeat each parameters)
    self.make = { (call) throws(SyntaxError) in try make(call, repeat call.value(of: each typed)) }
  }
}

/// A function a call may name, with its overloads.
public struct Function<Value>: Sendable {
  public let name: String
  public let overloads: [Overload<Value>]

  public init(_ name: String, _ overloads: Overload<Value>...) {
    for overload in overloads {
      precondition(Set(overload.parameters.map(\.name.name)).count == overload.parameters.count, "\(name): two parameters share a name")
    }
    self.name = name
    self.overloads = overloads
  }

  public var signatures: [Signature] { overloads.map { Signature(name: name, parameters: $0.parameters) } }

  /// Binds `call` to an overload (`CallBinder`) and makes its value.
  /// `source` is the text the call was parsed from, to quote it in messages.
  public func make(_ call: Call, source: String?) throws(SyntaxError) -> Value {
    let bound = try CallBinder.bind(call, to: signatures, source: source)
    return try overloads[bound.overload].make(bound)
  }
}

/// The functions that may stand in one place of a chain (the animations,
/// their modifiers, the transitions), by name.
public struct Vocabulary<Value>: Sendable {
  /// What a name of the vocabulary is, for messages: "animation".
  public let noun: String
  /// The names of the functions, in the order declared.
  public let names: [String]
  private let functions: [String: Function<Value>]
  /// Names of the vocabulary that cannot be called in this notation, with
  /// the message that says how to write them instead.
  private let unavailable: [String: String]

  public init(_ noun: String, _ functions: [Function<Value>], unavailable: [String: String] = [:]) {
    self.noun = noun
    names = functions.map(\.name)
    var table: [String: Function<Value>] = [:]
    for function in functions {
      precondition(table.updateValue(function, forKey: function.name) == nil, "two \(noun)s named \(function.name)")
    }
    self.functions = table
    self.unavailable = unavailable
  }

  public subscript(name: String) -> Function<Value>? { functions[name] }

  /// `unknown animation 'sprung'; did you mean 'spring'?` followed by
  /// `detail`, at the call's name.
  public func unknown(_ call: Call, detail: String = "") -> SyntaxError {
    let known = (names + unavailable.keys).sorted()
    return SyntaxError("unknown \(noun) \(Excerpt.quoted(call.name))" + Suggestions.didYouMean(call.name, in: known) + detail, at: call.nameOrigin)
  }

  /// The value of `call`, whose name is one of the vocabulary's (else the
  /// `unknown` error, or the message of an unavailable name at its name).
  public func make(_ call: Call, source: String?) throws(SyntaxError) -> Value {
    guard let function = functions[call.name] else {
      if let message = unavailable[call.name] { throw SyntaxError(message, at: call.nameOrigin) }
      throw unknown(call)
    }
    return try function.make(call, source: source)
  }
}

/// A chain as SwiftUI writes it, `base.modifier(…).modifier(…)`: its first
/// call names a function of `bases`, every other one a function of
/// `modifiers`. Both the animation and the transition parsers read chains
/// through one of these.
public struct ChainGrammar<Base, Modifier>: Sendable {
  public let bases: Vocabulary<Base>
  public let modifiers: Vocabulary<Modifier>
  /// The message for a modifier's name written first, if the chain says
  /// one (else it is an unknown base).
  let modifierFirst: @Sendable (String) -> String?
  /// The message for a base's name written after the first call, if the
  /// chain says one (else it is an unknown modifier).
  let baseAfter: @Sendable (String) -> String?
  /// Follows an unknown modifier's message.
  let unknownModifierDetail: String

  public init(
    bases: Vocabulary<Base>, modifiers: Vocabulary<Modifier>, modifierFirst: @escaping @Sendable (String) -> String? = { _ in nil },
    baseAfter: @escaping @Sendable (String) -> String? = { _ in nil }, unknownModifierDetail: String = ""
  ) {
    self.bases = bases; self.modifiers = modifiers
    self.modifierFirst = modifierFirst; self.baseAfter = baseAfter; self.unknownModifierDetail = unknownModifierDetail
  }

  /// The value of the chain's first call.
  public func base(of chain: CallChain, source: String?) throws(SyntaxError) -> Base {
    let first = chain.calls[0]
    if bases[first.name] == nil, modifiers[first.name] != nil, let message = modifierFirst(first.name) {
      throw SyntaxError(message, at: first.nameOrigin)
    }
    return try bases.make(first, source: source)
  }

  /// The values of the calls after the first, in order.
  public func modifiers(of chain: CallChain, source: String?) throws(SyntaxError) -> [Modifier] {
    var out: [Modifier] = []
    for call in chain.calls.dropFirst() {
      guard let function = modifiers[call.name] else {
        if bases[call.name] != nil, let message = baseAfter(call.name) { throw SyntaxError(message, at: call.nameOrigin) }
        throw modifiers.unknown(call, detail: unknownModifierDetail)
      }
      out.append(try function.make(call, source: source))
    }
    return out
  }
}
