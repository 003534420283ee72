import Primitives
import Syntax

/// A value as written in a call, with where: a keyframe's target and
/// velocities, whose kind only the property they animate decides.
public struct WrittenValue: Sendable {
  public var value: ArgumentValue
  public var origin: SyntaxOrigin
  public init(_ value: ArgumentValue, at origin: SyntaxOrigin) { self.value = value; self.origin = origin }

  /// The number written; else an error saying what the value is.
  public func number(for what: String) throws(SyntaxError) -> Double {
    guard case .number(let n) = value else { throw SyntaxError("\(what) must be a number, got \(value.kindName)", at: origin) }
    return n
  }
}

/// Reads keyframes written as in SwiftUI (`SpringKeyframe(1.4, duration:
/// 0.15, spring: .bouncy)`) or in the object form (`{"spring": {"to": 1.4,
/// "duration": 0.15, "spring": "bouncy"}}`), docs/scene-format.md,
/// "Keyframes". Targets and velocities stay as written: the property they
/// animate decides their kind.
public enum KeyframeParser: ChainReader {

  /// A keyframe is one call.
  public static func build(_ chain: CallChain, source: String?) throws(SyntaxError) -> Keyframe<WrittenValue> {
    try keyframes.make(try single(chain, noun: "a keyframe"), source: source)
  }

  /// Whether `name` names a keyframe kind (`LinearKeyframe`, `linear`, …).
  public static func isKeyframe(_ name: String) -> Bool { keyframes[name] != nil }

  /// The SwiftUI names, for messages and documentation.
  public static let swiftUINames = ["LinearKeyframe", "CubicKeyframe", "SpringKeyframe", "MoveKeyframe"]

  // MARK: - The vocabulary

  /// A keyframe's duration: 0 or more seconds, at most an hour.
  private static let duration = Parameter<Double>.number(
    "duration", NumberRange(lower: .closed(0), upper: .closed(AnimationParser.maximumSettlingDuration)), unit: .seconds)

  private static let to = Parameter<ArgumentValue?>.value(.unlabelled("to"), noun: "the keyframe's value")
  private static func velocity(_ name: String) -> Parameter<ArgumentValue?> {
    .value(ParameterName(stringLiteral: name), noun: "a velocity (units per second)", optional: true)
  }
  private static let timingCurve = Parameter<ArgumentValue?>.value(
    "timingCurve", noun: "a timing curve (.linear, .easeIn, .easeOut, .easeInOut, .bezier(…))", optional: true)
  private static let spring = Parameter<ArgumentValue?>.value(
    "spring", noun: "a spring (.smooth, .bouncy, Spring(duration: 0.4, bounce: 0.3))", optional: true)

  /// What a call wrote for `parameter`, with where.
  private static func written(_ call: BoundCall, _ value: ArgumentValue?, _ parameter: Parameter<ArgumentValue?>) -> WrittenValue? {
    value.map { WrittenValue($0, at: call.origin(of: parameter)) }
  }

  private static func linear(_ name: String) -> Function<Keyframe<WrittenValue>> {
    Function(
      name,
      Overload(to, duration, timingCurve) { call, to, d, curve throws(SyntaxError) in
        let timing = try curve.map { (c) throws(SyntaxError) in try timingFunction(c, at: call.origin(of: timingCurve), source: call.source) }
        return Keyframe(.linear(timing ?? .linear), to: written(call, to, self.to)!, duration: d)
      })
  }

  private static func cubic(_ name: String) -> Function<Keyframe<WrittenValue>> {
    let start = velocity("startVelocity"), end = velocity("endVelocity")
    return Function(
      name,
      Overload(to, duration, start, end) { call, to, d, v0, v1 in
        Keyframe(
          .cubic(startVelocity: written(call, v0, start), endVelocity: written(call, v1, end)), to: written(call, to, self.to)!, duration: d)
      })
  }

  private static func springKeyframe(_ name: String) -> Function<Keyframe<WrittenValue>> {
    let start = velocity("startVelocity")
    return Function(
      name,
      Overload(to, .optional(duration), spring, start) { call, to, d, s, v0 throws(SyntaxError) in
        let chosen = try s.map { (value) throws(SyntaxError) in try springValue(value, at: call.origin(of: spring), source: call.source) }
        return Keyframe(.spring(chosen ?? Spring(.smooth), startVelocity: written(call, v0, start)), to: written(call, to, self.to)!, duration: d)
      })
  }

  private static func move(_ name: String) -> Function<Keyframe<WrittenValue>> {
    Function(name, Overload(to) { call, to in Keyframe(.move, to: written(call, to, self.to)!, duration: nil) })
  }

  static let keyframes = Vocabulary<Keyframe<WrittenValue>>(
    "keyframe",
    [
      linear("LinearKeyframe"), cubic("CubicKeyframe"), springKeyframe("SpringKeyframe"), move("MoveKeyframe"),
      linear("linear"), cubic("cubic"), springKeyframe("spring"), move("move"),
    ])

  // MARK: Timing curves and springs inside a keyframe

  /// `.linear`, `.easeIn`, `.easeOut`, `.easeInOut`,
  /// `.bezier(startControlPoint: [x1, y1], endControlPoint: [x2, y2])`; in
  /// the object form also a string.
  static func timingFunction(_ value: ArgumentValue, at origin: SyntaxOrigin, source: String?) throws(SyntaxError) -> TimingFunction {
    let (chain, text) = try chain(of: value, at: origin, source: source, noun: "a timing curve")
    return try unitCurves.make(try single(chain, noun: "a timing curve"), source: text)
  }

  private static let unitCurves = Vocabulary<TimingFunction>(
    "timing curve",
    [
      Function("linear", Overload { _ in .linear }), Function("easeIn", Overload { _ in .easeIn }),
      Function("easeOut", Overload { _ in .easeOut }), Function("easeInOut", Overload { _ in .easeInOut }),
      Function(
        "bezier",
        Overload(Parameter.point("startControlPoint"), Parameter.point("endControlPoint")) { call, p1, p2 throws(SyntaxError) in
          try bezier(call, p1, p2)
        }),
    ])

  /// A Bézier timing curve from two control points: x in 0…1 (moving
  /// forward in time), and finite slopes at both ends (keyframes and
  /// animators hand them on as velocities).
  static func bezier(_ call: BoundCall, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>) throws(SyntaxError) -> TimingFunction {
    guard (0...1).contains(p1.x), (0...1).contains(p2.x) else {
      throw call.error("a control point's x must be between 0 and 1 (a timing curve must move forward in time)")
    }
    let curve = TimingFunction.bezier(CubicBezier(p1.x, p1.y, p2.x, p2.y))
    guard curve.derivative(at: 0).isFinite, curve.derivative(at: 1).isFinite else {
      throw call.error("the curve starts or ends vertically (a control point at x = 0 or 1 above or below its end), so it has no velocity to hand on")
    }
    return curve
  }

  /// A spring of the animation syntax (`.bouncy`, `.smooth(duration: 0.3)`,
  /// `.spring(duration: 0.4, bounce: 0.3)`) or SwiftUI's `Spring` type
  /// (`Spring(duration: 0.4, bounce: 0.3)`, `Spring(response: 0.5,
  /// dampingRatio: 0.8)`, `Spring(mass: 1, stiffness: 100, damping: 10)`).
  static func springValue(_ value: ArgumentValue, at origin: SyntaxOrigin, source: String?) throws(SyntaxError) -> Spring {
    var (chain, text) = try chain(of: value, at: origin, source: source, noun: "a spring")
    if chain.calls[0].name == "Spring" {
      // SwiftUI's Spring initialisers, as the animation syntax spells them.
      var call = chain.calls[0]
      let labels = Set((call.arguments ?? []).compactMap(\.label))
      call.name = labels.contains("mass") || labels.contains("stiffness") ? "interpolatingSpring" : "spring"
      call.arguments = call.arguments?.map { argument in
        var argument = argument
        if argument.label == "dampingRatio" { argument.label = "dampingFraction" }
        return argument
      }
      chain.calls[0] = call
    }
    let animation = try AnimationParser.build(chain, source: text)
    guard case .spring(let spring, _) = animation.base, animation.modifiers.isEmpty else {
      throw SyntaxError(
        "a spring keyframe takes a spring (.smooth, .snappy, .bouncy, Spring(duration:bounce:), Spring(response:dampingRatio:), Spring(mass:stiffness:damping:)), got \(Excerpt.quoted(animation.description))",
        at: origin)
    }
    return spring
  }

  /// The call chain a value writes, and the text its origins index: a
  /// member (`.easeOut`) or a string in SwiftUI syntax (the object form's way).
  private static func chain(of value: ArgumentValue, at origin: SyntaxOrigin, source: String?, noun: String) throws(SyntaxError) -> (
    CallChain, String?
  ) {
    switch value {
    case .chain(let chain): return (chain, source)
    case .string(let text):
      do {
        return (try CallParser.parse(text), text)
      } catch {
        throw SyntaxError(error.message, at: origin)
      }
    default:
      throw SyntaxError("expected \(noun), got \(value.kindName)", at: origin)
    }
  }
}
