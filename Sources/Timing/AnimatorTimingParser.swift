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
    try timings.make(try single(chain, noun: "a timing"), source: source)
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
          .cubic(try KeyframeParser.bezier(call, p1, p2))
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
          AnimationParser.springDuration(default: nil), AnimationParser.bounce, initialVelocity
        ) { call, d, b, v throws(SyntaxError) in
          let spring = Spring(duration: d, bounce: b)
          guard spring.settlingDuration(initialVelocity: v.x) <= AnimationParser.maximumSettlingDuration else {
            throw call.error("the spring takes more than an hour to settle")
          }
          return .spring(.durationBounce(spring), dx: v.x, dy: v.y)
        }),
    ])
}
