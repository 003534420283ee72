import Primitives

/// A gradient stop: offset in 0…1 and a premultiplied colour.
public struct GradientStop: Sendable, Hashable {
  public var offset: Double
  public var color: PremultipliedColor
  public init(offset: Double, color: PremultipliedColor) { self.offset = offset; self.color = color }
}

/// Colours along a gradient's parameter t, interpolated component-wise in
/// premultiplied sRGB between sorted stops, padded beyond the ends, looked
/// up in a table of `resolution` entries (finer than 8-bit output needs).
struct GradientRamp: Sendable {
  static let resolution = 1024
  /// 4 floats per entry.
  let table: [Float]
  /// The same entries as premultiplied RGBA8, packed little-endian.
  let bytes: [UInt32]
  let isOpaque: Bool
  /// The stops as given (the ramp is a function of them in this order).
  let stops: [GradientStop]

  /// Ramps made recently, by their stops (a ramp is a function of them):
  /// the same gradient in every frame of an animation is built once.
  private static let memo = Memo<[GradientStop], GradientRamp>(limit: 256)

  init(stops: [GradientStop]) {
    self = Self.memo.value(for: stops) { GradientRamp(building: stops) }
  }

  private init(building unsorted: [GradientStop]) {
    let stops = unsorted.sorted { $0.offset < $1.offset }
    var table = [Float](repeating: 0, count: Self.resolution * 4)
    for i in 0..<Self.resolution {
      let t = Double(i) / Double(Self.resolution - 1)
      let c = Self.color(at: t, stops: stops)
      table[4 * i] = Float(c.red); table[4 * i + 1] = Float(c.green)
      table[4 * i + 2] = Float(c.blue); table[4 * i + 3] = Float(c.alpha)
    }
    self.table = table
    bytes = (0..<Self.resolution).map { i -> UInt32 in
      let (red, green) = (Double(table[4 * i]), Double(table[4 * i + 1]))
      let (blue, alpha) = (Double(table[4 * i + 2]), Double(table[4 * i + 3]))
      return RGBA8(PremultipliedColor(red: red, green: green, blue: blue, alpha: alpha)).word
    }
    isOpaque = stops.allSatisfy { $0.color.alpha >= 1 }
    self.stops = unsorted
  }

  func digest(into d: inout Digester) {
    d.add(stops.count)
    for s in stops { d.add(s.offset); d.add(s.color) }
  }

  static func color(at t: Double, stops: [GradientStop]) -> PremultipliedColor {
    guard let first = stops.first, let last = stops.last else { return .clear }
    if t <= first.offset { return first.color }
    if t >= last.offset { return last.color }
    var i = 1
    while i < stops.count - 1 && stops[i].offset < t { i += 1 }
    let a = stops[i - 1], b = stops[i]
    let span = b.offset - a.offset
    return span > 0 ? PremultipliedColor.interpolate(a.color, b.color, (t - a.offset) / span) : b.color
  }

  /// The entry for parameter t: t × (resolution − 1), rounded, t clamped
  /// to 0…1 (NaN as 0).
  @inline(__always)
  func index(_ t: Double) -> Int {
    let clamped = t.isNaN ? 0 : min(max(t, 0), 1)
    return Int(clamped * Double(Self.resolution - 1) + 0.5)
  }
}

/// SwiftUI's `LinearGradient` in device space: colour is constant along
/// lines perpendicular to start → end; pad extension.
public struct LinearGradientShader: Sendable {
  let start: Point
  let direction: Vector2  // (end − start) / |end − start|²
  let ramp: GradientRamp

  public init(start: Point, end: Point, stops: [GradientStop]) {
    self.start = start
    let d = end - start
    let lengthSquared = d.dot(d)
    direction = lengthSquared > 0 ? d / lengthSquared : .zero
    ramp = GradientRamp(stops: stops)
  }
  public var isOpaque: Bool { ramp.isOpaque }

  func digest(into d: inout Digester) {
    d.add(0x6C69_6E65_6172 as UInt64)
    d.add(start); d.add(direction.x); d.add(direction.y)
    ramp.digest(into: &d)
  }

  /// The gradient parameter at the centre of pixel (x, y).
  @inline(__always)
  func parameter(_ x: Int, _ y: Int) -> Double {
    (Double(x) + 0.5 - start.x) * direction.x + (Double(y) + 0.5 - start.y) * direction.y
  }

  /// How `shade8` picks a pixel's table entry: a horizontal step `step`
  /// (32.32 fixed point, in entries per pixel) and the entry index at
  /// column 0 of row y (`rowStart`, 32.32), so that a pixel gets the same
  /// entry whichever run it is shaded in; nil when the numbers are too large
  /// for fixed point (then the entry is computed per pixel in floating point)
  /// or the gradient is vertical (one entry per row).
  @inline(__always)
  func fixedPointStep(row y: Int) -> (rowStart: Int64, step: Int64)? {
    guard direction.x != 0 else { return nil }
    let last = Double(GradientRamp.resolution - 1)
    let du = direction.x * last
    let rowStart = ((0.5 - start.x) * direction.x + (Double(y) + 0.5 - start.y) * direction.y) * last + 0.5
    guard abs(du) < 1_048_576, abs(rowStart) < 1_073_741_824 else { return nil }
    return (Int64((rowStart * 4_294_967_296).roundedToNearest), Int64((du * 4_294_967_296).roundedToNearest))
  }

  /// Safe twin of `shade8`: each pixel's entry by the rule of
  /// `fixedPointStep`, computed on its own.
  func referenceShade8(x: Int, y: Int, count: Int) -> [UInt8] {
    let last = Double(GradientRamp.resolution - 1)
    var out: [UInt8] = []
    for i in 0..<count {
      let entry: Int
      if direction.x == 0 {
        entry = ramp.index(parameter(x + i, y))
      } else if let (rowStart, step) = fixedPointStep(row: y) {
        entry = Int(min(max((rowStart &+ Int64(x + i) &* step) >> 32, 0), Int64(GradientRamp.resolution - 1)))
      } else {
        let t0 = parameter(x, y), du = direction.x * last
        entry = Int(min(max((t0.isNaN ? 0 : t0) * last + 0.5 + Double(i) * du, 0.5), last + 0.5))
      }
      let word = UInt32(littleEndian: ramp.bytes[entry])
      out += [UInt8(word & 0xFF), UInt8((word >> 8) & 0xFF), UInt8((word >> 16) & 0xFF), UInt8(word >> 24)]
    }
    return out
  }
}

/// SwiftUI's `RadialGradient`: t = (distance from centre − startRadius) /
/// (endRadius − startRadius), in the gradient's own space, mapped to
/// device space by `transform` (so it turns elliptical under scaling).
public struct RadialGradientShader: Sendable {
  let deviceToGradient: AffineTransform
  let center: Point
  let startRadius: Double
  let inverseSpan: Double
  let ramp: GradientRamp
  /// A focal point (SVG's fx, fy; a Lottie gradient's highlight): where
  /// the gradient starts, as an offset from the centre, strictly inside
  /// the end circle; zero for a centred gradient.
  var focus = Vector2(0, 0)

  public init(center: Point, startRadius: Double, endRadius: Double, stops: [GradientStop], transform: AffineTransform = .identity) {
    deviceToGradient = transform.inverted ?? .identity
    self.center = center
    self.startRadius = startRadius
    let span = endRadius - startRadius
    inverseSpan = span != 0 ? 1 / span : 0
    ramp = GradientRamp(stops: stops)
  }

  /// A gradient from a focal point (offset `focus` from the centre, inside
  /// the circle of `radius`) to that circle: t is 0 at the focus and 1 on
  /// the circle, along each ray from the focus (SVG's radialGradient with
  /// fx, fy and fr = 0; Skia's two-point conical from a point).
  public init(center: Point, radius: Double, focus: Vector2, stops: [GradientStop], transform: AffineTransform = .identity) {
    self.init(center: center, startRadius: 0, endRadius: radius, stops: stops, transform: transform)
    // Kept inside: 99.9% of the radius at most.
    let limit = 0.999 * radius
    self.focus = focus.length > limit && focus.length > 0 ? Vector2(focus.x * limit / focus.length, focus.y * limit / focus.length) : focus
  }
  public var isOpaque: Bool { ramp.isOpaque }

  func digest(into d: inout Digester) {
    d.add(0x7261_6469_616C as UInt64)
    d.add(deviceToGradient); d.add(center); d.add(startRadius); d.add(inverseSpan)
    if focus.x != 0 || focus.y != 0 {
      d.add(focus.x); d.add(focus.y)
    }
    ramp.digest(into: &d)
  }

  /// The gradient parameter at the centre of pixel (x, y).
  @inline(__always)
  func parameter(_ x: Int, _ y: Int) -> Double {
    let p = deviceToGradient.apply(Point(Double(x) + 0.5, Double(y) + 0.5)) - center
    if focus.x != 0 || focus.y != 0 { return focalParameter(Vector2(p.x, p.y)) }
    return inverseSpan == 0 ? (p.length > startRadius ? 1 : 0) : (p.length - startRadius) * inverseSpan
  }

  /// t with p (from the centre) on the circle of centre f + t (c − f) and
  /// radius t r: |q − t d|² = t² r², q = p − f, d = c − f = −f, whose
  /// root t ≥ 0 is (q·d − √((q·d)² − a q·q)) / a, a = d·d − r² < 0.
  func focalParameter(_ p: Vector2) -> Double {
    guard inverseSpan != 0 else { return 1 }
    let r = 1 / inverseSpan
    let q = Vector2(p.x - focus.x, p.y - focus.y), d = Vector2(-focus.x, -focus.y)
    let a = d.dot(d) - r * r
    let qd = q.dot(d)
    let discriminant = max(qd * qd - a * q.dot(q), 0)
    return (qd - discriminant.squareRoot()) / a
  }

  /// Safe twin of `shade8`: each pixel's table entry.
  func referenceShade8(x: Int, y: Int, count: Int) -> [UInt8] {
    (0..<count).flatMap { i -> [UInt8] in
      let word = UInt32(littleEndian: ramp.bytes[ramp.index(parameter(x + i, y))])
      return [UInt8(word & 0xFF), UInt8((word >> 8) & 0xFF), UInt8((word >> 16) & 0xFF), UInt8(word >> 24)]
    }
  }
}
