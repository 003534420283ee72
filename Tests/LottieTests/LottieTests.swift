import Primitives
import Raster
import Render
import SceneModel
import Testing

@testable import Lottie

/// The Lottie decoder's located errors and the evaluator's arithmetic,
/// against hand-computed values. Fidelity against ThorVG is in
/// RenderCommandTests/LottieFidelityTests.
@Suite struct LottieDecoderTests {
  static func animation(_ layers: String = "[]", extra: String = "", fr: String = "30", w: String = "100") -> String {
    "{\"v\": \"5.7.0\", \"fr\": \(fr), \"ip\": 0, \"op\": 30, \"w\": \(w), \"h\": 100\(extra), \"layers\": \(layers)}"
  }

  static func errors(_ text: String) -> [String] {
    do {
      _ = try LottieDecoder.decode(Array(text.utf8), file: "anim.json")
      return []
    } catch {
      return error.diagnostics.map(\.description)
    }
  }

  @Test(arguments: [
    (animation(fr: "0"), "anim.json:1:", "fr: the frame rate must be above 0"),
    (animation(w: "20000"), "anim.json:1:", "w: w must be a whole number of pixels from 1 to 16384"),
    ("{\"v\": \"5.7.0\", \"fr\": 30, \"ip\": 0, \"w\": 10, \"h\": 10, \"layers\": []}", "anim.json:1:1:", "(root): missing required key 'op'"),
    (
      animation("[{\"ty\": 3, \"ind\": 1, \"parent\": 7, \"ip\": 0, \"op\": 30, \"st\": 0, \"ks\": {}}]"), "anim.json:1:",
      "layers[0].parent: no layer of this composition has ind 7"
    ),
    (
      animation(
        "[{\"ty\": 3, \"ind\": 1, \"parent\": 2, \"ip\": 0, \"op\": 30, \"ks\": {}}, {\"ty\": 3, \"ind\": 2, \"parent\": 1, \"ip\": 0, \"op\": 30, \"ks\": {}}]"
      ),
      "anim.json:1:", "layers[0].parent: the chain of parents loops back"
    ),
    (
      animation(
        "[{\"ty\": 0, \"refId\": \"a\", \"ip\": 0, \"op\": 30, \"ks\": {}}]",
        extra: ", \"assets\": [{\"id\": \"a\", \"layers\": [{\"ty\": 0, \"refId\": \"a\", \"ip\": 0, \"op\": 30, \"ks\": {}}]}]"),
      "anim.json:1:", "layers[0].refId: the precomposition 'a' contains itself"
    ),
    (animation("[{\"ty\": 0, \"refId\": \"nope\", \"ip\": 0, \"op\": 30, \"ks\": {}}]"), "anim.json:1:", "layers[0].refId: no asset has id 'nope'"),
    (
      animation(
        "[{\"ty\": 3, \"ip\": 0, \"op\": 30, \"ks\": {\"p\": {\"a\": 1, \"k\": [{\"t\": 0}, {\"t\": 10, \"s\": [1, 2]}, {\"t\": 20, \"s\": [3, 4]}]}}}]"
      ),
      "anim.json:1:", "layers[0].ks.p.k[0]: a keyframe needs its value 's'"
    ),
    ("{\"v\": \"5.7.0\", \"fr\": 30, \"layers\": [", "anim.json:1:", "(root): invalid JSON"),
  ])
  func brokenStructureIsLocated(_ text: String, _ location: String, _ message: String) {
    let errors = Self.errors(text)
    #expect(errors.contains { $0.hasPrefix(location) && $0.contains("error: " + message) }, "\(errors)")
  }

  @Test func oldExportsLastKeyframeWithoutAValueIsAccepted() throws {
    let text = Self.animation(
      "[{\"ty\": 3, \"ip\": 0, \"op\": 30, \"ks\": {\"o\": {\"a\": 1, \"k\": [{\"t\": 0, \"s\": [0], \"e\": [100], \"i\": {\"x\": [1], \"y\": [1]}, \"o\": {\"x\": [0], \"y\": [0]}}, {\"t\": 10}]}}}]"
    )
    let animation = try LottieDecoder.decode(Array(text.utf8), file: "a.json")
    let opacity = try #require(animation.layers[0].transform.opacity)
    #expect(opacity.numbers(at: 5, fallback: [0]) == [50])  // linear easing: halfway
    #expect(opacity.numbers(at: 30, fallback: [0]) == [100])  // after the last: the last end
  }

  /// Found by fuzzing (Fuzz/Regressions/lottie): codes and indices far
  /// beyond any integer are read as unknown, never converted as they are.
  @Test func codesBeyondAnyIntegerAreUnknown() throws {
    let shapes = "[{\"ty\": \"st\", \"c\": {\"a\": 0, \"k\": [0, 0, 0, 1]}, \"w\": {\"a\": 0, \"k\": 2}, \"lc\": 1e300, \"lj\": -1e300}]"
    let text = Self.animation(
      "[{\"ty\": 4, \"ind\": 1e300, \"tt\": 1e99, \"ip\": 0, \"op\": 30, \"ks\": {}, \"shapes\": \(shapes)}, {\"ty\": 1e300, \"ip\": 0, \"op\": 30, \"ks\": {}}]"
    )
    let animation = try LottieDecoder.decode(Array(text.utf8), file: "a.json")
    #expect(animation.layers[0].index == nil && animation.layers[0].matteMode == nil)
    #expect(animation.layers[1].type == -1)
  }

  @Test func skippedFeaturesAreNamedOnceEach() throws {
    let layer =
      "{\"ty\": 4, \"ip\": 0, \"op\": 30, \"ks\": {\"o\": {\"a\": 0, \"k\": 100, \"x\": \"wiggle(1,2)\"}}, \"ef\": [{}], \"shapes\": [{\"ty\": \"mm\"}, {\"ty\": \"mm\"}]}"
    let text = Self.animation("[\(layer), \(layer), {\"ty\": 5, \"ip\": 0, \"op\": 30, \"ks\": {}}]")
    let source = try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a")
    let kinds = source.warnings(file: "a.json").map(\.message)
    #expect(
      kinds.sorted() == ["effects", "expressions", "merge paths", "text layers"].map { "\($0) are not supported; drawn without them" }.sorted())
  }
}

@Suite struct LottieEvaluationTests {
  func key(_ t: Double, _ s: [Double], o: Point? = nil, i: Point? = nil, hold: Bool = false, to: [Double]? = nil, ti: [Double]? = nil)
    -> LottieKeyframe
  {
    LottieKeyframe(
      time: t, start: .numbers(s), end: nil, easeOut: o.map { [$0] } ?? [], easeIn: i.map { [$0] } ?? [], hold: hold, tangentOut: to, tangentIn: ti)
  }

  @Test func bezierEasingMatchesCSS() {
    // CSS ease-in-out, cubic-bezier(0.42, 0, 0.58, 1): symmetric, so 0.5 at
    // 0.5; at x = 0.25, y = 0.129162… (u solves 3u(1−u)²·0.42 + 3u²(1−u)·0.58 + u³ = 0.25).
    let e = CubicEase(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    #expect(abs(e.value(0.5) - 0.5) < 1e-12)
    #expect(abs(e.value(0.25) - 0.12916193) < 1e-6)
    #expect(e.value(0) == 0 && e.value(1) == 1)
    let linear = CubicEase(x1: 0.3, y1: 0.3, x2: 0.7, y2: 0.7)
    #expect(linear.value(0.37) == 0.37)
  }

  @Test func holdKeepsTheValueUntilTheNextKeyframe() {
    let p = LottieProperty.animated([key(0, [1], hold: true), key(10, [5], hold: true), key(20, [9])])
    #expect(p.numbers(at: 9.999, fallback: [0]) == [1])
    #expect(p.numbers(at: 10, fallback: [0]) == [5])
    #expect(p.numbers(at: 25, fallback: [0]) == [9])
    #expect(p.numbers(at: -3, fallback: [0]) == [1])
  }

  @Test func perDimensionEasingAndSpatialTangents() {
    // x eases linearly; y on the curve with both controls at (1, 0):
    // x(u) = 3u − 3u² + u³ = 1 − (1 − u)³ and y(u) = u³, so at x = ½,
    // u = 1 − 2^(−1/3) and y = u³ = 0.0087798…
    let k0 = LottieKeyframe(
      time: 0, start: .numbers([0, 0]), end: nil, easeOut: [Point(0, 0), Point(1, 0)], easeIn: [Point(1, 1), Point(1, 0)], hold: false,
      tangentOut: nil, tangentIn: nil)
    let p = LottieProperty.animated([k0, key(10, [100, 100])])
    let v = p.numbers(at: 5, fallback: [0, 0])
    #expect(abs(v[0] - 50) < 1e-9)
    let u = 1 - 1 / 1.2599210498948731647672106  // 2^(1/3)
    #expect(abs(v[1] - 100 * u * u * u) < 1e-9)
    // A position along a quarter circle's Bézier: halfway along its length
    // is at 45°, on the circle (to within the Bézier's 0.03% radius error).
    let k = 0.5519150244935105707435627 * 100
    let arc = LottieProperty.animated([key(0, [100, 0], to: [0, k], ti: [k, 0]), key(10, [0, 100])])
    let mid = arc.numbers(at: 5, fallback: [0, 0])
    #expect(abs(mid[0] - mid[1]) < 1e-3)
    #expect(abs((mid[0] * mid[0] + mid[1] * mid[1]).squareRoot() - 100) < 0.05)
  }

  @Test func sceneTimeMapsToLottieFramesAndNeverDrawsOp() throws {
    let text = LottieDecoderTests.animation()
    let source = try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a")
    #expect(source.duration == 1)
    #expect(source.lottieFrame(at: 0.5) == 15)
    #expect(source.lottieFrame(at: 1) == Double(30).nextDown)
    #expect(source.lottieFrame(at: 28.0 / 30.0) == 28)  // a whole frame, whatever t × fr rounds to
    #expect(source.pixelSize(scale: 1.5) == (150, 150))
    #expect(source.naturalFrameRate == 30)
  }

  @Test func aSquaresPixelsAreHandComputed() throws {
    // A 20 × 10 red rectangle centred at (50, 50) on a 100 × 100 frame,
    // in a layer moved 10 px right and at half opacity.
    let shapes = """
      [{"ty": "gr", "it": [{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 0}},
        {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}, {"ty": "tr", "p": {"a": 0, "k": [0, 0]}}]}]
      """
    let text = LottieDecoderTests.animation(
      "[{\"ty\": 4, \"ip\": 0, \"op\": 30, \"ks\": {\"p\": {\"a\": 0, \"k\": [10, 0]}, \"o\": {\"a\": 0, \"k\": 50}}, \"shapes\": \(shapes)}]")
    let source = try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a")
    let frame = try source.render(at: 0)
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(frame.bytes[(4 * (y * 100 + x))..<(4 * (y * 100 + x) + 4)]) }
    #expect(pixel(60, 50) == [128, 0, 0, 128])  // inside: red at half opacity, premultiplied
    #expect(pixel(50 - 1, 50) == [0, 0, 0, 0])  // left of x = 50 (40 + 10): outside
    #expect(pixel(50, 45) == [128, 0, 0, 128])  // the top row, y from 45
    #expect(pixel(60, 44) == [0, 0, 0, 0])
  }

  /// `chart` reaches into precompositions: a child's animated position,
  /// named by its nm, on its composition's frames (moved by the layer's
  /// start time).
  @Test func chartedPropertiesIncludePrecompositionLayers() throws {
    let child =
      "{\"ty\": 3, \"nm\": \"Ball\", \"ip\": 0, \"op\": 60, \"ks\": {\"p\": {\"a\": 1, \"k\": [{\"t\": 0, \"s\": [0, 0], \"i\": {\"x\": 1, \"y\": 1}, \"o\": {\"x\": 0, \"y\": 0}}, {\"t\": 20, \"s\": [20, 40]}]}}}"
    let text = LottieDecoderTests.animation(
      "[{\"ty\": 0, \"nm\": \"Scene\", \"refId\": \"c\", \"st\": 10, \"ip\": 0, \"op\": 30, \"ks\": {}}]",
      extra: ", \"assets\": [{\"id\": \"c\", \"layers\": [\(child)]}]")
    let source = try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a")
    let ball = try #require(source.sampledProperties.first { $0.layer == "Ball" })
    #expect(ball.property == "position")
    // Scene time 0.5 s is frame 15, the child's frame 5: a quarter of the way.
    let values = try #require(ball.sample(0.5).value)
    #expect(abs(values[0].value - 5) < 1e-9 && abs(values[1].value - 10) < 1e-9)
  }

  @Test func aLinearGradientFollowsANonUniformScale() throws {
    // Black to white from (0, 0) to (10, 10) in a group scaled 200% × 100%,
    // over the square (0, 0)–(10, 10). The colour is that of the local
    // point: device (19.5, 0.5) is local (9.75, 0.5), at (9.75 + 0.5) / 20 =
    // 0.5125 of the way; device (0.5, 9.5) is local (0.25, 9.5), at 0.4875.
    // (Perpendicular to the device axis instead, they would be 0.79 and 0.21.)
    let shapes = """
      [{"ty": "gr", "it": [{"ty": "rc", "p": {"a": 0, "k": [5, 5]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
        {"ty": "gf", "t": 1, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [10, 10]}, "o": {"a": 0, "k": 100},
         "g": {"p": 2, "k": {"a": 0, "k": [0, 0, 0, 0, 1, 1, 1, 1]}}},
        {"ty": "tr", "s": {"a": 0, "k": [200, 100]}}]}]
      """
    let text = LottieDecoderTests.animation("[{\"ty\": 4, \"ip\": 0, \"op\": 30, \"ks\": {}, \"shapes\": \(shapes)}]")
    let frame = try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a").render(at: 0)
    func grey(_ x: Int, _ y: Int) -> Double { Double(frame.bytes[4 * (y * 100 + x)]) / 255 }
    #expect(abs(grey(19, 0) - 0.5125) < 2.0 / 255)
    #expect(abs(grey(0, 9) - 0.4875) < 2.0 / 255)
  }
}
