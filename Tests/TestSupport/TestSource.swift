import Primitives
import Raster
import Render

/// A frame source with no scene behind it, for the tests of what takes any
/// source (the pipeline, the job, charts, the cache): its drawing at a time,
/// in its points, and what a chart can sample of it.
public struct TestSource: FrameSource {
  public var name: String
  public var duration: Double
  public var defaultScale: Double
  public var pointSize: Vector2
  public var background: PremultipliedColor?
  public var inputDigest: String
  public var sampledProperties: [SampledProperty]
  let drawing: @Sendable (_ t: Double, _ list: Recording, _ transform: AffineTransform) -> Void

  public init(
    name: String, duration: Double = 1, scale: Double = 1, size: Vector2, background: PremultipliedColor? = nil,
    sampledProperties: [SampledProperty] = [],
    drawing: @escaping @Sendable (_ t: Double, _ list: Recording, _ transform: AffineTransform) -> Void = { _, _, _ in }
  ) {
    self.name = name; self.duration = duration; defaultScale = scale; pointSize = size; self.background = background
    self.sampledProperties = sampledProperties; self.drawing = drawing
    inputDigest = name
  }

  public func pixelSize(scale: Double?) -> (width: Int, height: Int) {
    let s = scale ?? defaultScale
    return (Int((pointSize.x * s).rounded(.up)), Int((pointSize.y * s).rounded(.up)))
  }

  public func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError) {
    drawing(t, list, transform)
  }
}

extension TestSource {
  /// 64 × 48 points on white, a second long: a fixed blue bar along the
  /// bottom (y 32 … 48) and a 16-point square (y 8 … 24) in `moving`,
  /// its left edge at `squareX(t)`.
  public static func rectangles(name: String = "fake", moving: Color = Color(red: 1, green: 0, blue: 0, alpha: 1)) -> TestSource {
    var source = TestSource(name: name, size: Vector2(64, 48), background: Color.white.premultiplied) { t, list, transform in
      list.fill(.rect(Rect(x: 0, y: 32, width: 64, height: 16)), transform: transform, paint: .color(Color(red: 0, green: 0, blue: 1, alpha: 1)))
      list.fill(.rect(Rect(x: squareX(t), y: 8, width: 16, height: 16)), transform: transform, paint: .color(moving))
    }
    source.inputDigest = "rectangles \(name) \(moving.red) \(moving.green) \(moving.blue)"
    return source
  }

  /// The square's left edge at t: 8 → 40 points over the second.
  public static func squareX(_ t: Double) -> Double { 8 + 32 * min(1, max(0, t)) }

  /// 8 × 8 points, one grey level over the whole frame: round(255 × t) at t.
  public static let grey = TestSource(name: "grey", size: Vector2(8, 8)) { t, list, transform in
    let v = (255 * t).rounded() / 255
    list.fill(.rect(Rect(x: 0, y: 0, width: 8, height: 8)), transform: transform, paint: .color(Color(red: v, green: v, blue: v, alpha: 1)))
  }
}
