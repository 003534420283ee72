import Primitives
import Raster
import Render

/// A frame source with no scene behind it: a few coloured rectangles on
/// white, one moving linearly, drawn straight into the recording. What the
/// job, the pipeline and the cache see of any input format.
struct FakeSource: FrameSource {
  /// 64 × 48 points at scale 1; a second long.
  var name = "fake"
  var duration = 1.0
  var defaultScale = 1.0
  var pointSize = Vector2(64, 48)
  var background: PremultipliedColor? = Color.white.premultiplied
  /// The moving square's colour (a second source can differ by it).
  var moving = Color(red: 1, green: 0, blue: 0, alpha: 1)
  var inputDigest: String { "fake \(name) \(moving.red) \(moving.green) \(moving.blue)" }

  func pixelSize(scale: Double?) -> (width: Int, height: Int) {
    let s = scale ?? defaultScale
    return (Int((pointSize.x * s).rounded(.up)), Int((pointSize.y * s).rounded(.up)))
  }

  /// The moving square's left edge at t: 8 → 40 points over the second.
  static func x(_ t: Double) -> Double { 8 + 32 * min(1, max(0, t)) }

  func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError) {
    // A fixed blue bar along the bottom, the square above it.
    list.fill(.rect(Rect(x: 0, y: 32, width: 64, height: 16)), transform: transform, paint: .color(Color(red: 0, green: 0, blue: 1, alpha: 1)))
    list.fill(.rect(Rect(x: Self.x(t), y: 8, width: 16, height: 16)), transform: transform, paint: .color(moving))
  }
}

/// A source of scale 2 that draws nothing: for what depends only on sizes.
struct GreyFake: FrameSource {
  var name = "grey"
  var duration = 1.0
  var defaultScale = 2.0
  var pointSize = Vector2(10, 10)
  var background: PremultipliedColor? = nil
  var inputDigest: String { "grey" }
  func pixelSize(scale: Double?) -> (width: Int, height: Int) {
    let s = scale ?? defaultScale
    return (Int(10 * s), Int(10 * s))
  }
  func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError) {}
}
