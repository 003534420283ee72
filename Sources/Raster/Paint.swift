import Primitives
import Synchronization

/// What fills a shape.
public enum Paint: Sendable {
  case solid(PremultipliedColor)
  case shader(any Shader)

  public static func color(_ c: Color) -> Paint { .solid(c.premultiplied) }
}

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
  /// the same gradient in every frame of an animation is built once. At
  /// most `memoLimit` are kept; past it the memo starts afresh.
  private static let memo = Mutex<[[GradientStop]: GradientRamp]>([:])
  static let memoLimit = 256

  init(stops: [GradientStop]) {
    if let ramp = Self.memo.withLock({ $0[stops] }) {
      self = ramp
      return
    }
    self.init(building: stops)
    let ramp = self
    Self.memo.withLock { memo in
      if memo.count >= Self.memoLimit { memo.removeAll(keepingCapacity: true) }
      memo[stops] = ramp
    }
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
    bytes = (0..<Self.resolution).map { i in
      let c = RGBA8(
        PremultipliedColor(
          red: Double(table[4 * i]), green: Double(table[4 * i + 1]), blue: Double(table[4 * i + 2]), alpha: Double(table[4 * i + 3])))
      return (UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16 | UInt32(c.a) << 24).littleEndian
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

  @inline(__always)
  func index(_ t: Double) -> Int {
    let clamped = t.isNaN ? 0 : min(max(t, 0), 1)
    return Int(clamped * Double(Self.resolution - 1) + 0.5)
  }

  @inline(__always)
  func write(t: Double, to out: UnsafeMutablePointer<Float>) {
    let clamped = t.isNaN ? 0 : min(max(t, 0), 1)
    let i = Int(clamped * Double(Self.resolution - 1) + 0.5) * 4
    out[0] = table[i]; out[1] = table[i + 1]; out[2] = table[i + 2]; out[3] = table[i + 3]
  }
}

/// SwiftUI's `LinearGradient` in device space: colour is constant along
/// lines perpendicular to start → end; pad extension.
public struct LinearGradientShader: Shader {
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

  public func digest(into d: inout Digester) {
    d.add(0x6C69_6E65_6172 as UInt64)
    d.add(start); d.add(direction.x); d.add(direction.y)
    ramp.digest(into: &d)
  }

  public func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    let py = Double(y) + 0.5 - start.y
    let t0 = (Double(x) + 0.5 - start.x) * direction.x + py * direction.y
    for i in 0..<count { ramp.write(t: t0 + Double(i) * direction.x, to: output + 4 * i) }
  }

  public func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    let py = Double(y) + 0.5 - start.y
    let t0 = (Double(x) + 0.5 - start.x) * direction.x + py * direction.y
    let out = UnsafeMutableRawPointer(output)
    if direction.x == 0 {
      // A vertical gradient: one colour along the row.
      out.initializeMemory(as: UInt32.self, repeating: ramp.bytes[ramp.index(t0)], count: count)
      return
    }
    // The table index, t × (resolution − 1) rounded, is u = u0 + i·du
    // truncated and clamped to the table: outside it the row is one colour
    // (the pad), inside it u steps in 32.32 fixed point from the row's
    // column 0, so a pixel gets the same entry whichever run it is shaded in.
    let last = Double(GradientRamp.resolution - 1)
    let u0 = (t0.isNaN ? 0 : t0) * last + 0.5, du = direction.x * last
    let rowStart = ((0.5 - start.x) * direction.x + py * direction.y) * last + 0.5
    ramp.bytes.withUnsafeBufferPointer { table in
      let entries = table.baseAddress!
      let first = entries[0], final = entries[GradientRamp.resolution - 1]
      guard abs(du) < 1_048_576, abs(rowStart) < 1_073_741_824 else {
        for i in 0..<count {
          out.storeBytes(of: entries[Int(min(max(u0 + Double(i) * du, 0.5), last + 0.5))], toByteOffset: 4 * i, as: UInt32.self)
        }
        return
      }
      // The pixels whose u is inside the table, widened by one each side.
      let enter = (0.5 - u0) / du, leave = (last + 0.5 - u0) / du
      let (a, b) = du > 0 ? (enter, leave) : (leave, enter)
      let start = Int(min(max(a.rounded(.down) - 1, 0), Double(count)))
      let end = Int(min(max(b.rounded(.up) + 1, Double(start)), Double(count)))
      let words = out.assumingMemoryBound(to: UInt32.self)
      if start > 0 { words.initialize(repeating: du > 0 ? first : final, count: start) }
      if end < count { (words + end).initialize(repeating: du > 0 ? final : first, count: count - end) }
      guard start < end else { return }
      let step = Int64((du * 4_294_967_296).rounded())
      var u = Int64((rowStart * 4_294_967_296).rounded()) &+ Int64(x + start) &* step
      let top = Int64(GradientRamp.resolution - 1)
      for i in start..<end {
        words[i] = entries[Int(min(max(u >> 32, 0), top))]
        u &+= step
      }
    }
  }
}

/// SwiftUI's `RadialGradient`: t = (distance from centre − startRadius) /
/// (endRadius − startRadius), in the gradient's own space, mapped to
/// device space by `transform` (so it turns elliptical under scaling).
public struct RadialGradientShader: Shader {
  let deviceToGradient: AffineTransform
  let center: Point
  let startRadius: Double
  let inverseSpan: Double
  let ramp: GradientRamp

  public init(center: Point, startRadius: Double, endRadius: Double, stops: [GradientStop], transform: AffineTransform = .identity) {
    deviceToGradient = transform.inverted ?? .identity
    self.center = center
    self.startRadius = startRadius
    let span = endRadius - startRadius
    inverseSpan = span != 0 ? 1 / span : 0
    ramp = GradientRamp(stops: stops)
  }
  public var isOpaque: Bool { ramp.isOpaque }

  public func digest(into d: inout Digester) {
    d.add(0x7261_6469_616C as UInt64)
    d.add(deviceToGradient); d.add(center); d.add(startRadius); d.add(inverseSpan)
    ramp.digest(into: &d)
  }

  @inline(__always)
  func parameter(_ x: Int, _ y: Int) -> Double {
    let p = deviceToGradient.apply(Point(Double(x) + 0.5, Double(y) + 0.5)) - center
    return inverseSpan == 0 ? (p.length > startRadius ? 1 : 0) : (p.length - startRadius) * inverseSpan
  }

  public func shade(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<Float>) {
    for i in 0..<count { ramp.write(t: parameter(x + i, y), to: output + 4 * i) }
  }

  public func shade8(x: Int, y: Int, count: Int, into output: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) {
    let out = UnsafeMutableRawPointer(output)
    ramp.bytes.withUnsafeBufferPointer { table in
      for i in 0..<count { out.storeBytes(of: table[ramp.index(parameter(x + i, y))], toByteOffset: 4 * i, as: UInt32.self) }
    }
  }
}
