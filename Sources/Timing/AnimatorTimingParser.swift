import Primitives
import Syntax

/// Reads an interactive animator's timing as UIKit writes it
/// (docs/scene-format.md, "Interactive animators"):
/// `UICubicTimingParameters(.easeInOut)`,
/// `UICubicTimingParameters(controlPoint1: [x, y], controlPoint2: [x, y])`,
/// `UISpringTimingParameters(dampingRatio: 0.8, initialVelocity: [1.5, 0])`,
/// `UISpringTimingParameters(mass: 1, stiffness: 100, damping: 10)`,
/// `UISpringTimingParameters(duration: 0.5, bounce: 0.2)`; or the object
/// form with the same names as keys.
public enum AnimatorTimingParser: ChainReader {

  public static func build(_ chain: CallChain, source: String?) throws(SyntaxError) -> AnimatorTiming {
    if chain.calls.count > 1 {
      throw SyntaxError("a timing is one call; \(Excerpt.quoted(chain.calls[1].name)) cannot follow it", at: chain.calls[1].nameOrigin)
    }
    return try timings.make(chain.calls[0], source: source)
  }

  /// UIKit's `UIView.AnimationCurve`.
  enum AnimationCurve: String, CaseIterable, Sendable {
    case easeInOut, easeIn, easeOut, linear

    var function: TimingFunction {
      switch self {
      case .easeInOut: .easeInOut
      case .easeIn: .easeIn
      case .easeOut: .easeOut
      case .linear: .linear
      }
    }
  }

  private static let range = AnimationParser.springParameterRange
  private static let initialVelocity = Parameter.vector("initialVelocity", default: SIMD2(0, 0))

  static let timings = Vocabulary<AnimatorTiming>(
    "timing",
    [
      Function(
        "UICubicTimingParameters",
        // UIKit's default curve is easeInOut.
        Overload(Parameter<AnimationCurve>.choice(.unlabelled("animationCurve"), noun: "a curve", default: .easeInOut)) { _, curve in
          .cubic(curve.function)
        },
        Overload(Parameter.point("controlPoint1"), Parameter.point("controlPoint2")) { call, p1, p2 throws(SyntaxError) in
          guard (0...1).contains(p1.x), (0...1).contains(p2.x) else {
            throw call.error("a control point's x must be between 0 and 1 (a timing curve must move forward in time)")
          }
          let curve = TimingFunction.bezier(CubicBezier(p1.x, p1.y, p2.x, p2.y))
          guard curve.derivative(at: 0).isFinite, curve.derivative(at: 1).isFinite else {
            throw call.error("the curve starts or ends vertically (a control point at x = 0 or 1 above or below its end)")
          }
          return .cubic(curve)
        }),
      Function(
        "UISpringTimingParameters",
        Overload(
          Parameter.number("dampingRatio", NumberRange(lower: .open(0), upper: .closed(1e6)), because: "an undamped spring never settles"),
          initialVelocity
        ) { _, z, v in .spring(.dampingRatio(z), dx: v.x, dy: v.y) },
        Overload(
          Parameter.number("mass", range), Parameter.number("stiffness", range),
          Parameter.number("damping", range, because: "an undamped spring never settles"), initialVelocity
        ) { call, m, k, c, v throws(SyntaxError) in
          let spring = Spring(mass: m, stiffness: k, damping: c)
          guard spring.uikitSettlingDuration(initialVelocity: v.x) <= AnimationParser.maximumSettlingDuration else {
            throw call.error("the spring takes more than an hour to settle")
          }
          return .spring(.physical(spring), dx: v.x, dy: v.y)
        },
        Overload(
          Parameter.number("duration", range, unit: .seconds),
          Parameter.number("bounce", NumberRange(lower: .open(-1), upper: .open(1)), because: "1 never settles, -1 never moves", default: 0),
          initialVelocity
        ) { call, d, b, v throws(SyntaxError) in
          let spring = Spring(duration: d, bounce: b)
          guard spring.settlingDuration(initialVelocity: v.x) <= AnimationParser.maximumSettlingDuration else {
            throw call.error("the spring takes more than an hour to settle")
          }
          return .spring(.durationBounce(spring), dx: v.x, dy: v.y)
        }),
    ])
}
