import Primitives
import Raster
import Render
import SceneModel
import Testing

@testable import Lottie

/// Track mattes, masks and image layers against hand-computed pixels: a
/// 100 × 100 frame, a red solid over all of it, and what takes parts away.
@Suite struct LottieCompositingTests {
  static let redSolid = "{\"ty\": 1, \"ind\": 2, \"ip\": 0, \"op\": 30, \"sc\": \"#ff0000\", \"sw\": 100, \"sh\": 100, \"ks\": {}"

  /// A shape layer holding a rectangle from x0 to x1 over the whole height,
  /// filled with `color` (0 … 1) at `opacity` percent.
  static func rectangle(
    _ x0: Double, _ x1: Double, color: String = "[0, 0, 0, 1]", opacity: Double = 100, index: Int = 1, extra: String = ""
  ) -> String {
    """
    {"ty": 4, "ind": \(index), "ip": 0, "op": 30, "ks": {}\(extra), "shapes": [{"ty": "rc", "p": {"a": 0, "k": [\((x0 + x1) / 2), 50]},
      "s": {"a": 0, "k": [\(x1 - x0), 100]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": \(color)}, "o": {"a": 0, "k": \(opacity)}}]}
    """
  }

  static func frame(_ layers: String, images: [String: ImagePyramid] = [:], assets: String = "") throws -> Pixmap {
    let text = LottieDecoderTests.animation(layers, extra: assets)
    let animation = try LottieDecoder.decode(Array(text.utf8), file: "a.json")
    return try LottieSource(animation: animation, name: "a", inputDigest: "", images: images).render(at: 0)
  }

  static func pixel(_ frame: Pixmap, _ x: Int, _ y: Int) -> [UInt8] { Array(frame.bytes[(4 * (y * 100 + x))..<(4 * (y * 100 + x) + 4)]) }

  /// `tt` 1 … 4 with the matte above (`td`): alpha, inverted alpha, luma,
  /// inverted luma. The matte covers x < 50 with black at 50% (alpha 128)
  /// or with white at 100% (luma 255); beyond it the matte is clear.
  @Test(arguments: [
    (1, "[0, 0, 0, 1]", 50.0, [128, 0, 0, 128], [0, 0, 0, 0]),
    (2, "[0, 0, 0, 1]", 50.0, [127, 0, 0, 127], [255, 0, 0, 255]),
    (3, "[1, 1, 1, 1]", 100.0, [255, 0, 0, 255], [0, 0, 0, 0]),
    (3, "[0, 0, 0, 1]", 100.0, [0, 0, 0, 0], [0, 0, 0, 0]),
    (4, "[1, 1, 1, 1]", 100.0, [0, 0, 0, 0], [255, 0, 0, 255]),
    // Luma of opaque green: 0.7154 × 255 = 182.4.
    (3, "[0, 1, 0, 1]", 100.0, [182, 0, 0, 182], [0, 0, 0, 0]),
  ])
  func trackMattes(_ mode: Int, _ color: String, _ opacity: Double, _ inside: [Int], _ outside: [Int]) throws {
    let matte = Self.rectangle(0, 50, color: color, opacity: opacity, extra: ", \"td\": 1")
    let frame = try Self.frame("[\(matte), \(Self.redSolid), \"tt\": \(mode)}]")
    #expect(Self.pixel(frame, 10, 50).map(Int.init) == inside)
    #expect(Self.pixel(frame, 90, 50).map(Int.init) == outside)
  }

  /// `tp` names the matte by its `ind` (newer exports), wherever it is.
  @Test func aMatteNamedByTp() throws {
    let matte = Self.rectangle(0, 50, extra: ", \"td\": 1")
    let frame = try Self.frame("[\(matte), \(Self.rectangle(60, 70, color: "[0, 0, 1, 1]", index: 3)), \(Self.redSolid), \"tt\": 1, \"tp\": 1}]")
    #expect(Self.pixel(frame, 10, 50) == [255, 0, 0, 255])
    #expect(Self.pixel(frame, 90, 50) == [0, 0, 0, 0])
    #expect(Self.pixel(frame, 65, 50) == [0, 0, 255, 255])  // the layer between is drawn as itself
  }

  static func mask(_ x0: Double, _ x1: Double, mode: String, opacity: Double = 100, expansion: Double = 0, inverted: Bool = false) -> String {
    """
    {"mode": "\(mode)", "inv": \(inverted), "o": {"a": 0, "k": \(opacity)}, "x": {"a": 0, "k": \(expansion)}, "pt": {"a": 0, "k": {"c": true,
      "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]], "v": [[\(x0), 0], [\(x1), 0], [\(x1), 100], [\(x0), 100]]}}}
    """
  }

  /// Masks in order, as lottie-web composes them; opacity and expansion.
  @Test(arguments: [
    // Added at 50%: alpha 128 inside, nothing outside.
    ([mask(20, 60, mode: "a", opacity: 50)], [(30, [128, 0, 0, 128]), (70, [0, 0, 0, 0])]),
    // Added, then a part subtracted, then another added over it: order counts.
    (
      [mask(0, 60, mode: "a"), mask(20, 80, mode: "s"), mask(30, 40, mode: "a")],
      [(10, [255, 0, 0, 255]), (25, [0, 0, 0, 0]), (35, [255, 0, 0, 255]), (70, [0, 0, 0, 0])]
    ),
    // A first subtracted mask starts from everything; at 50% it halves.
    ([mask(0, 50, mode: "s", opacity: 50)], [(10, [127, 0, 0, 127]), (70, [255, 0, 0, 255])]),
    // Expanded by 10: from 10 to 60.
    ([mask(20, 50, mode: "a", expansion: 10)], [(5, [0, 0, 0, 0]), (12, [255, 0, 0, 255]), (58, [255, 0, 0, 255]), (65, [0, 0, 0, 0])]),
    // Contracted by 10: from 30 to 40.
    ([mask(20, 50, mode: "a", expansion: -10)], [(25, [0, 0, 0, 0]), (35, [255, 0, 0, 255]), (45, [0, 0, 0, 0])]),
    // Inverted, at 50%, intersected with everything: half outside it.
    ([mask(0, 100, mode: "a"), mask(0, 50, mode: "i", opacity: 50, inverted: true)], [(10, [0, 0, 0, 0]), (70, [128, 0, 0, 128])]),
  ])
  func masksComposeInOrder(_ masks: [String], _ expected: [(Int, [Int])]) throws {
    let frame = try Self.frame("[\(Self.redSolid), \"masksProperties\": [\(masks.joined(separator: ", "))]}]")
    for (x, pixel) in expected { #expect(Self.pixel(frame, x, 50).map(Int.init) == pixel, "x = \(x)") }
  }

  /// An image layer shows its asset stretched over the asset's size.
  @Test func anImageLayerIsDrawnAtItsAssetsSize() throws {
    // A 2 × 1 image (blue, green) over a 40 × 20 asset, moved to (10, 10).
    let image = Pixmap(width: 2, height: 1, bytes: [0, 0, 255, 255, 0, 255, 0, 255])
    let layer = "{\"ty\": 2, \"refId\": \"im\", \"ip\": 0, \"op\": 30, \"ks\": {\"p\": {\"a\": 0, \"k\": [10, 10]}}}"
    let frame = try Self.frame(
      "[\(layer)]", images: ["im": ImagePyramid(image)],
      assets: ", \"assets\": [{\"id\": \"im\", \"w\": 40, \"h\": 20, \"u\": \"\", \"p\": \"im.png\", \"e\": 0}]")
    #expect(Self.pixel(frame, 12, 20) == [0, 0, 255, 255])  // the left half, away from the middle: blue
    #expect(Self.pixel(frame, 47, 20) == [0, 255, 0, 255])  // the right half: green
    #expect(Self.pixel(frame, 51, 20) == [0, 0, 0, 0])  // beyond 10 + 40
    #expect(Self.pixel(frame, 20, 31) == [0, 0, 0, 0])  // below 10 + 20
  }

  @Test func anImageLayerWithoutItsAssetIsLocated() {
    let errors = LottieDecoderTests.errors(LottieDecoderTests.animation("[{\"ty\": 2, \"refId\": \"nope\", \"ip\": 0, \"op\": 30, \"ks\": {}}]"))
    #expect(errors.contains { $0.contains("layers[0].refId: no image asset has id 'nope'") }, "\(errors)")
  }
}

/// Repeaters and rounded corners against hand-computed pixels.
@Suite struct LottieModifierTests {
  static func frame(_ items: String) throws -> Pixmap {
    let text = LottieDecoderTests.animation(
      "[{\"ty\": 4, \"ip\": 0, \"op\": 30, \"ks\": {}, \"shapes\": [{\"ty\": \"gr\", \"it\": [\(items), {\"ty\": \"tr\"}]}]}]")
    return try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a").render(at: 0)
  }

  static let square = """
    {"ty": "rc", "p": {"a": 0, "k": [5, 50]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
    {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}
    """

  static func repeater(composite: Int, offset: Double = 0) -> String {
    """
    {"ty": "rp", "c": {"a": 0, "k": 3}, "o": {"a": 0, "k": \(offset)}, "m": \(composite),
     "tr": {"p": {"a": 0, "k": [20, 0]}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 50}}}
    """
  }

  /// Three copies 20 px apart. Copy i's opacity is 100% + (50% − 100%) ×
  /// i / 2 (alpha 255, 191, 128); composite 1 moves copy i i times,
  /// composite 2 moves it 2 − i times (lottie-web's RepeaterModifier).
  @Test(arguments: [(1, [255, 191, 128]), (2, [128, 191, 255])])
  func aRepeatersCopies(_ composite: Int, _ alphas: [Int]) throws {
    let frame = try Self.frame(Self.square + ", " + Self.repeater(composite: composite))
    for (copy, alpha) in alphas.enumerated() {
      let x = 5 + 20 * copy
      #expect(Int(frame.bytes[4 * (50 * 100 + x) + 3]) == alpha, "copy at x = \(x)")
    }
    #expect(frame.bytes[4 * (50 * 100 + 65) + 3] == 0)  // no fourth
  }

  /// An offset of 1.5: the first copy moved one and a half times (30 px).
  @Test func aFractionalOffsetMovesPartWay() throws {
    let frame = try Self.frame(Self.square + ", " + Self.repeater(composite: 1, offset: 1.5))
    #expect(frame.bytes[4 * (50 * 100 + 25) + 3] == 0)
    #expect(frame.bytes[4 * (50 * 100 + 35) + 3] == 255)  // 30 … 40
    #expect(frame.bytes[4 * (50 * 100 + 55) + 3] == 191)  // 50 … 60
  }

  /// A 40 × 40 square rounded by 10: the corner's cubic passes (32.93,
  /// 32.93) (handles 0.5519 of 10 from the corner), so pixel (31, 31) is
  /// outside and (34, 34) inside; the edges' middles are untouched.
  @Test func roundedCorners() throws {
    let square = """
      {"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}},
      {"ty": "rd", "r": {"a": 0, "k": 10}},
      {"ty": "fl", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}
      """
    let frame = try Self.frame(square)
    func alpha(_ x: Int, _ y: Int) -> UInt8 { frame.bytes[4 * (y * 100 + x) + 3] }
    #expect(alpha(31, 31) == 0 && alpha(68, 31) == 0 && alpha(31, 68) == 0 && alpha(68, 68) == 0)
    #expect(alpha(34, 34) == 255 && alpha(65, 65) == 255)
    #expect(alpha(30, 50) == 255 && alpha(50, 30) == 255)
  }
}

/// Trim paths in turn, and a trim of nothing.
@Suite struct LottieTrimTests {
  static func frame(_ trims: String) throws -> Pixmap {
    // A line across the frame at y = 50, stroked 10 wide with butt caps.
    let line = """
      {"ty": "sh", "ks": {"a": 0, "k": {"c": false, "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "v": [[0, 50], [100, 50]]}}},
      {"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 10}, "lc": 1, "lj": 1}
      """
    let text = LottieDecoderTests.animation(
      "[{\"ty\": 4, \"ip\": 0, \"op\": 30, \"ks\": {}, \"shapes\": [{\"ty\": \"gr\", \"it\": [\(line), {\"ty\": \"tr\"}]}, \(trims)]}]")
    return try LottieSource(decoding: Array(text.utf8), file: "a.json", defaultName: "a").render(at: 0)
  }

  static func trim(_ s: Double, _ e: Double) -> String {
    "{\"ty\": \"tm\", \"s\": {\"a\": 0, \"k\": \(s)}, \"e\": {\"a\": 0, \"k\": \(e)}, \"o\": {\"a\": 0, \"k\": 0}, \"m\": 1}"
  }

  /// The first trim keeps 0 … 50%; the second keeps the second half of
  /// that: x from 25 to 50.
  @Test func aTrimOfATrimmedPathTrimsWhatIsLeft() throws {
    let frame = try Self.frame(Self.trim(0, 50) + ", " + Self.trim(50, 100))
    func alpha(_ x: Int) -> UInt8 { frame.bytes[4 * (50 * 100 + x) + 3] }
    #expect(alpha(20) == 0 && alpha(30) == 255 && alpha(45) == 255 && alpha(60) == 0)
  }

  /// A trim a hair's breadth from nothing draws nothing, not a cap's dot.
  @Test func aTrimOfAlmostNothingDrawsNothing() throws {
    let frame = try Self.frame(Self.trim(50, 50.00000001))
    #expect(frame.bytes.allSatisfy { $0 == 0 })
  }
}
