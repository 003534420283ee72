// The parameters of the functions a call chain may name (`Signature`): how
// each is written, what it accepts, and how its value is read.

/// How a parameter is written in a call.
public struct ParameterName: Sendable, Hashable, ExpressibleByStringLiteral {
  /// The label as Swift writes it; `nil` for an unlabelled parameter (`_`).
  public let label: String?
  /// The label, or an unlabelled parameter's documented name: what the
  /// JSON object form writes (`{"delay": {"delay": 0.2}}`) and messages say.
  public let name: String

  /// A labelled parameter: `duration:`.
  public init(stringLiteral label: String) {
    self.label = label
    name = label
  }

  private init(unlabelled name: String) {
    label = nil
    self.name = name
  }

  /// An unlabelled parameter (`_ delay:`), named `name` in the JSON object form and in messages.
  public static func unlabelled(_ name: String) -> ParameterName { ParameterName(unlabelled: name) }

  /// `duration:` or `_:`, as in `spring(duration:bounce:)`.
  public var spelling: String { (label ?? "_") + ":" }
}

/// The unit of a number, named in messages ("0 or more seconds").
public enum NumberUnit: String, Sendable, Hashable {
  case seconds
}

/// The numbers a parameter accepts: an interval whose ends may each be
/// open, closed or absent.
public struct NumberRange: Sendable, Hashable, CustomStringConvertible {
  public enum Bound: Sendable, Hashable {
    case open(Double)
    case closed(Double)
  }
  public var lower: Bound?
  public var upper: Bound?

  public init(lower: Bound? = nil, upper: Bound? = nil) {
    self.lower = lower
    self.upper = upper
  }

  /// Every finite number.
  public static let any = NumberRange()
  /// Greater than 0.
  public static let positive = NumberRange(lower: .open(0))
  /// 0 or more.
  public static let nonNegative = NumberRange(lower: .closed(0))

  /// The range with each missing bound set to ±`magnitude` (a bound it has
  /// stays): every number of a kind within a limit.
  public func bounded(by magnitude: Double) -> NumberRange {
    NumberRange(lower: lower ?? .closed(-magnitude), upper: upper ?? .closed(magnitude))
  }

  public func contains(_ x: Double) -> Bool {
    switch lower {
    case .open(let a): if !(x > a) { return false }
    case .closed(let a): if !(x >= a) { return false }
    case nil: break
    }
    switch upper {
    case .open(let b): return x < b
    case .closed(let b): return x <= b
    case nil: return true
    }
  }

  /// What the range requires, to follow "must be": `greater than 0`, `0
  /// or more`, `between 0 and 1`, `greater than -1 and less than 1`.
  public var description: String {
    switch (lower, upper) {
    case (nil, nil): return "a number"
    case (.open(let a), nil): return "greater than \(formatNumber(a))"
    case (.closed(let a), nil): return "\(formatNumber(a)) or more"
    case (nil, .open(let b)): return "less than \(formatNumber(b))"
    case (nil, .closed(let b)): return "at most \(formatNumber(b))"
    case (.closed(let a), .closed(let b)): return "between \(formatNumber(a)) and \(formatNumber(b))"
    case (let lower?, let upper?):
      let from =
        switch lower {
        case .open(let a): "greater than \(formatNumber(a))"
        case .closed(let a): "at least \(formatNumber(a))"
        }
      let to =
        switch upper {
        case .open(let b): "less than \(formatNumber(b))"
        case .closed(let b): "at most \(formatNumber(b))"
        }
      return from + " and " + to
    }
  }
}

/// What a parameter accepts.
public enum ParameterKind: Sendable, Hashable {
  /// A number in `range`, measured in `unit` if any: `0.5`, `-2`, `1e-3`.
  case number(NumberRange, unit: NumberUnit?)
  /// A whole number in `range`, written as a number: `3`, `3.0`.
  case integer(ClosedRange<Int>)
  /// `true` or `false`.
  case bool
  /// A unit point: an array of two numbers `[u, v]`.
  case point
  /// A vector: an array of two numbers `[dx, dy]`.
  case vector
  /// Any value, read and checked by the function's maker (a keyframe's
  /// target, whose kind depends on the property); `noun` says what it is.
  case value(noun: String)
  /// One of `names`, written as a member (`.top`, `top`) or as a string
  /// (`"top"`, as the JSON object form writes it); `noun` says what the
  /// names are, for messages ("an edge").
  case choice([String], noun: String)
  /// A call chain (`.slide.combined(with: .opacity)`, or an object in the
  /// JSON object form); `noun` says what it is, for messages ("a transition").
  case chain(noun: String)

  /// What a value of the kind is, to follow "must be".
  public var expectation: String {
    switch self {
    case .number: "a number"
    case .integer: "a whole number"
    case .bool: "true or false"
    case .point: "a unit point [u, v]"
    case .vector: "a vector [dx, dy]"
    case .value(let noun): noun
    case .choice(let names, let noun): "\(noun): \(listing(names))"
    case .chain(let noun): noun
    }
  }
}

/// `a, b or c`.
func listing(_ names: [String]) -> String {
  guard let last = names.last else { return "" }
  return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
}

/// A parameter without its Swift type: what the binder needs.
public struct ParameterDeclaration: Sendable, Hashable {
  public let name: ParameterName
  public let kind: ParameterKind
  /// Why values outside the range are refused, said in parentheses after
  /// it: "an undamped spring never settles".
  public let reason: String?
  /// Whether the parameter has a default and so may be left out.
  public let isOptional: Bool

  /// Whether `argument` is written for this parameter: with its label, or
  /// by its name (the JSON object form's way, accepted in both forms for an
  /// unlabelled parameter: `{"delay": {"delay": 0.2}}`).
  func isWritten(by argument: CallArgument) -> Bool {
    argument.label == name.label || (name.label == nil && argument.label == name.name)
  }

  /// What the value must be, for range messages: `greater than 0 seconds
  /// (an undamped spring never settles)`.
  public var requirement: String {
    var text: String
    switch kind {
    case .number(let range, let unit): text = range.description + (unit.map { " " + $0.rawValue } ?? "")
    case .integer(let range): text = "a whole number from \(range.lowerBound) to \(range.upperBound)"
    default: text = kind.expectation
    }
    return text + (reason.map { " (\($0))" } ?? "")
  }
}

/// A parameter whose value a function's maker reads as a `Value`.
public struct Parameter<Value: Sendable>: Sendable {
  public let declaration: ParameterDeclaration
  let defaultValue: Value?
  /// The value of an argument the kind has accepted.
  let read: @Sendable (ArgumentValue) -> Value

  init(
    _ name: ParameterName, _ kind: ParameterKind, because reason: String? = nil, default defaultValue: Value?,
    read: @escaping @Sendable (ArgumentValue) -> Value
  ) {
    declaration = ParameterDeclaration(name: name, kind: kind, reason: reason, isOptional: defaultValue != nil)
    self.defaultValue = defaultValue
    self.read = read
  }
}

extension Parameter where Value == Double {
  /// A finite number in `range`, in `unit`, refused outside it `because`.
  public static func number(
    _ name: ParameterName, _ range: NumberRange = .any, unit: NumberUnit? = nil, because reason: String? = nil, default defaultValue: Double? = nil
  ) -> Self {
    precondition(defaultValue.map(range.contains) ?? true, "the default of \(name.name) is outside its range")
    return Self(name, .number(range, unit: unit), because: reason, default: defaultValue) { value in
      guard case .number(let n) = value else { preconditionFailure("not a number") }
      return n
    }
  }
}

extension Parameter where Value == Int {
  /// A whole number in `range`.
  public static func integer(_ name: ParameterName, _ range: ClosedRange<Int>, default defaultValue: Int? = nil) -> Self {
    precondition(defaultValue.map(range.contains) ?? true, "the default of \(name.name) is outside its range")
    return Self(name, .integer(range), default: defaultValue) { value in
      guard case .number(let n) = value else { preconditionFailure("not a number") }
      return Int(n)
    }
  }
}

extension Parameter where Value == Bool {
  public static func bool(_ name: ParameterName, default defaultValue: Bool? = nil) -> Self {
    Self(name, .bool, default: defaultValue) { value in
      guard case .bool(let b) = value else { preconditionFailure("not a boolean") }
      return b
    }
  }
}

extension Parameter where Value == SIMD2<Double> {
  /// A unit point `[u, v]`: (0, 0) is the top leading corner, (1, 1) the bottom trailing one.
  public static func point(_ name: ParameterName, default defaultValue: SIMD2<Double>? = nil) -> Self {
    Self(name, .point, default: defaultValue) { value in
      guard case .array(let elements) = value, case .number(let u) = elements[0].value, case .number(let v) = elements[1].value else {
        preconditionFailure("not a point")
      }
      return SIMD2(u, v)
    }
  }
}

extension Parameter where Value == SIMD2<Double> {
  /// A vector `[dx, dy]` of any two numbers.
  public static func vector(_ name: ParameterName, default defaultValue: SIMD2<Double>? = nil) -> Self {
    Self(name, .vector, default: defaultValue) { value in
      guard case .array(let elements) = value, case .number(let x) = elements[0].value, case .number(let y) = elements[1].value else {
        preconditionFailure("not a vector")
      }
      return SIMD2(x, y)
    }
  }
}

extension Parameter {
  /// The same parameter, optional: nil when left out.
  public static func optional<Wrapped>(_ plain: Parameter<Wrapped>) -> Self where Value == Wrapped? {
    let read = plain.read
    return Self(plain.declaration.name, plain.declaration.kind, because: plain.declaration.reason, default: .some(nil)) { read($0) }
  }
}

extension Parameter where Value == ArgumentValue? {
  /// Any value, as written, for the maker to read and check (nil when
  /// left out, if `optional`); `noun` says what it is, for messages.
  public static func value(_ name: ParameterName, noun: String, optional: Bool = false) -> Self {
    Self(name, .value(noun: noun), default: optional ? .some(nil) : nil) { $0 }
  }
}

extension Parameter where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
  /// One of the cases of `Value`, by its raw value; `noun` says what they are ("an edge").
  public static func choice(_ name: ParameterName, noun: String, default defaultValue: Value? = nil) -> Self {
    Self(name, .choice(Value.allCases.map(\.rawValue), noun: noun), default: defaultValue) { value in
      guard let chosen = value.choiceName.flatMap(Value.init(rawValue:)) else { preconditionFailure("not a choice") }
      return chosen
    }
  }
}

extension Parameter where Value == CallChain {
  /// A call chain, read by the caller (a nested transition); `noun` says what it is ("a transition").
  public static func chain(_ name: ParameterName, noun: String) -> Self {
    Self(name, .chain(noun: noun), default: nil) { value in
      guard case .chain(let chain) = value else { preconditionFailure("not a chain") }
      return chain
    }
  }
}

extension ArgumentValue {
  /// The name a choice is written as: a member without arguments (`.top`) or a string.
  var choiceName: String? {
    switch self {
    case .chain(let chain) where chain.calls.count == 1 && chain.calls[0].arguments == nil: chain.calls[0].name
    case .string(let s): s
    default: nil
    }
  }
}
