import Primitives
import Syntax

/// Reads animations written as in SwiftUI source (`"snappy(duration: 0.4,
/// extraBounce: 0.1).delay(0.2)"`, a leading `.` allowed) or in the JSON
/// object form (`{"snappy": {"duration": 0.4}, "delay": 0.2}`) into one
/// model, checking every parameter. Errors quote the offending text, say
/// what is allowed, and suggest the nearest name.
public enum AnimationParser: ChainReader {

  /// Validates a call chain into an animation. `source` is the text the
  /// chain was parsed from, if any, to quote it exactly in messages.
  public static func build(_ chain: CallChain, source: String?) throws(SyntaxError) -> Animation {
    let first = chain.calls[0]
    let base = try grammar.base(of: chain, source: source)
    // A spring that takes hours to settle is a typo, and would make an
    // endless scene: say so rather than render it.
    let settling = Animation(base).baseDuration()
    guard settling <= maximumSettlingDuration else {
      throw SyntaxError(
        "\(first.quoted(from: source)) takes more than an hour to settle (more than the limit of \(formatNumber(maximumSettlingDuration)) s)",
        at: first.origin)
    }
    return Animation(base, modifiers: try grammar.modifiers(of: chain, source: source))
  }

  /// An animation and its modifiers.
  static let grammar = ChainGrammar(
    bases: bases, modifiers: modifiers,
    modifierFirst: { "\(Excerpt.quoted($0)) is a modifier; write it after an animation, as in 'easeInOut.\($0)(…)'" },
    baseAfter: { "\(Excerpt.quoted($0)) is an animation, not a modifier; the modifiers are \(modifierList)" },
    unknownModifierDetail: " (the modifiers are \(modifierList))")

  /// The longest settling duration accepted, in seconds.
  public static let maximumSettlingDuration = 3600.0
  /// The most passes `repeatCount` takes.
  public static let maximumRepeatCount = 1_000_000

  /// Every animation name a scene may write, sorted.
  public static var animationNames: [String] { bases.names.sorted() }

  /// `delay, speed, repeatCount, repeatForever`.
  static var modifierList: String { modifiers.names.joined(separator: ", ") }

  // MARK: - The vocabulary

  /// A spring's or a curve's duration in seconds, greater than 0.
  private static func duration(default value: Double?) -> Parameter<Double> {
    .number("duration", .positive, unit: .seconds, default: value)
  }

  /// A spring's physical parameters (mass, stiffness, damping) and its
  /// durations (duration, response) in seconds: within 10⁻⁶…10⁶ every
  /// spring they make has a finite, positive frequency and damping ratio
  /// (docs/scene-format.md, "Limits").
  public static let springParameterRange = NumberRange(lower: .closed(1e-6), upper: .closed(1e6))

  static func springDuration(default value: Double?) -> Parameter<Double> {
    .number("duration", springParameterRange, unit: .seconds, default: value)
  }

  /// A spring's bounce: -1 never moves, 1 never settles.
  private static let bounceRange = NumberRange(lower: .open(-1), upper: .open(1))
  static let bounce = Parameter.number("bounce", bounceRange, because: "1 never settles, -1 never moves", default: 0)

  /// The older spring parameters: the response (the undamped period) in
  /// seconds and the damping fraction (1 is critical damping).
  private static func response(default value: Double) -> Parameter<Double> {
    .number("response", springParameterRange, unit: .seconds, default: value)
  }
  private static func dampingFraction(default value: Double) -> Parameter<Double> {
    .number("dampingFraction", .positive, because: "an undamped spring never settles", default: value)
  }

  /// `blendDuration` is accepted for source compatibility with SwiftUI: it
  /// only shapes how a retargeted spring's *parameters* blend, and
  /// Springframe switches to the new spring's parameters at once (the value
  /// and velocity stay continuous).
  private static func blendDuration(default value: Double) -> Parameter<Double> {
    .number("blendDuration", .nonNegative, unit: .seconds, default: value)
  }

  /// The velocity the motion starts with, in units of the change per second.
  private static let initialVelocity = Parameter.number("initialVelocity", default: 0)

  /// `linear`, `easeIn`, … with `duration:` in seconds (default 0.35).
  private static func curve(_ name: String, _ timing: TimingFunction) -> Function<Animation.Base> {
    Function(name, Overload(duration(default: Animation.defaultCurveDuration)) { _, d in .curve(timing, duration: d) })
  }

  /// `smooth`, `snappy`, `bouncy`, `interactiveSpring` with `duration:` and
  /// `extraBounce:`; `response`, when given, adds the older
  /// `(response:dampingFraction:blendDuration:)` with those defaults.
  private static func preset(
    _ preset: Spring.Preset, response: Spring.ResponseDefaults? = nil
  ) -> Function<Animation.Base> {
    let extraBounce = Parameter.number("extraBounce", default: 0)
    let current = Overload<Animation.Base>(springDuration(default: preset.duration), extraBounce, blendDuration(default: 0)) {
      call, d, extra, _ throws(SyntaxError) in
      let reached = preset.bounce + extra
      guard bounceRange.contains(reached) else {
        throw call.error(
          "bounce must be \(bounce.declaration.requirement), \(preset.rawValue) reaches a bounce of \(formatNumber(reached))", at: extraBounce)
      }
      return .spring(Spring(preset, duration: d, extraBounce: extra), initialVelocity: 0)
    }
    guard let response else { return Function(preset.rawValue, current) }
    let older = Overload<Animation.Base>(
      self.response(default: response.response), dampingFraction(default: response.dampingFraction),
      blendDuration(default: response.blendDuration)
    ) { _, r, z, _ in .spring(Spring(response: r, dampingFraction: z), initialVelocity: 0) }
    return Function(preset.rawValue, current, older)
  }

  static let bases = Vocabulary<Animation.Base>(
    "animation", curves + [timingCurve] + presets + [defaultSpring, spring, interpolatingSpring, uikitSpring])

  private static let curves =
    [curve("linear", .linear), curve("easeIn", .easeIn), curve("easeOut", .easeOut), curve("easeInOut", .easeInOut)]
    + Easing.allCases.map { curve($0.description, .easing($0)) }

  /// A control point's x must stay in 0…1 for the curve to be a function of time.
  private static func controlX(_ name: String) -> Parameter<Double> {
    .number(.unlabelled(name), NumberRange(lower: .closed(0), upper: .closed(1)), because: "a timing curve must move forward in time")
  }

  private static let timingCurve = Function<Animation.Base>(
    "timingCurve",
    Overload(
      controlX("p1x"), .number(.unlabelled("p1y")), controlX("p2x"), .number(.unlabelled("p2y")), duration(default: Animation.defaultCurveDuration)
    ) {
      _, x1, y1, x2, y2, d in .curve(.bezier(CubicBezier(x1, y1, x2, y2)), duration: d)
    })

  private static let presets = [
    preset(.smooth), preset(.snappy), preset(.bouncy), preset(.interactiveSpring, response: Spring.interactiveSpringResponseDefaults),
  ]

  private static let defaultSpring = Function<Animation.Base>("default", Overload { _ in .spring(.default, initialVelocity: 0) })

  private static let spring = Function<Animation.Base>(
    "spring",
    // `spring(duration:bounce:blendDuration:)` defaults to the smooth preset.
    Overload(springDuration(default: Spring.Preset.smooth.duration), bounce, blendDuration(default: 0)) { _, d, b, _ in
      .spring(Spring(duration: d, bounce: b), initialVelocity: 0)
    },
    Overload(
      response(default: Spring.springResponseDefaults.response), dampingFraction(default: Spring.springResponseDefaults.dampingFraction),
      blendDuration(default: Spring.springResponseDefaults.blendDuration)
    ) { _, r, z, _ in
      .spring(Spring(response: r, dampingFraction: z), initialVelocity: 0)
    })

  private static let interpolatingSpring = Function<Animation.Base>(
    "interpolatingSpring",
    Overload(
      Parameter.number("mass", springParameterRange, default: 1), Parameter.number("stiffness", springParameterRange),
      Parameter.number("damping", springParameterRange, because: "an undamped spring never settles"), initialVelocity
    ) { _, m, k, c, v in .spring(Spring(mass: m, stiffness: k, damping: c), initialVelocity: v) },
    Overload(springDuration(default: Spring.Preset.smooth.duration), bounce, initialVelocity) { _, d, b, v in
      .spring(Spring(duration: d, bounce: b), initialVelocity: v)
    })

  private static let uikitSpring = Function<Animation.Base>(
    "uikitSpring",
    Overload(springDuration(default: nil), Parameter.number("dampingRatio", NumberRange(lower: .open(0), upper: .closed(1))), initialVelocity) {
      call, d, z, v throws(SyntaxError) in
      guard let spring = Spring(uikitDuration: d, dampingRatio: z, initialVelocity: v) else {
        throw call.error("no spring with dampingRatio \(formatNumber(z)) settles within \(formatNumber(d)) s")
      }
      return .uikitSpring(spring, duration: d, dampingRatio: z, initialVelocity: v)
    })

  /// Whether a repetition plays backward every other time.
  private static let autoreverses = Parameter.bool("autoreverses", default: true)

  static let modifiers = Vocabulary<Animation.Modifier>(
    "modifier",
    [
      Function("delay", Overload(Parameter.number(.unlabelled("delay"), .nonNegative, unit: .seconds)) { _, d in .delay(d) }),
      Function("speed", Overload(Parameter.number(.unlabelled("speed"), .positive)) { _, s in .speed(s) }),
      Function(
        "repeatCount",
        Overload(Parameter.integer(.unlabelled("count"), 1...maximumRepeatCount), autoreverses) { _, n, a in .repeat(count: n, autoreverses: a) }),
      Function("repeatForever", Overload(autoreverses) { _, a in .repeat(count: nil, autoreverses: a) }),
    ])
}
