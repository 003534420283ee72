import Primitives

/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
  public var x0, y0, x1, y1: Int  // half-open: [x0, x1) × [y0, y1)
  @inlinable public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
  public init(width: Int, height: Int) { self.init(x0: 0, y0: 0, x1: width, y1: height) }
  /// The pixels touched by a rectangle in continuous coordinates.
  public init(covering r: Rect) { self.init(r, outward: true) }
  /// The pixels lying whole inside a rectangle in continuous coordinates.
  public init(inside r: Rect) { self.init(r, outward: false) }

  /// `r`'s edges rounded outward (the pixels it touches) or inward (the
  /// pixels it holds whole); empty for a null or non-finite rectangle.
  private init(_ r: Rect, outward: Bool) {
    guard !r.isNull, r.minX.isFinite, r.maxX.isFinite, r.minY.isFinite, r.maxY.isFinite else {
      self.init(x0: 0, y0: 0, x1: 0, y1: 0)
      return
    }
    let low = { (x: Double) in outward ? x.roundedDown : x.roundedUp }, high = { (x: Double) in outward ? x.roundedUp : x.roundedDown }
    self.init(
      x0: Self.clamped(low(r.minX)), y0: Self.clamped(low(r.minY)), x1: Self.clamped(high(r.maxX)), y1: Self.clamped(high(r.maxY)))
  }

  /// Far beyond any canvas, on both sides: a whole number of pixels.
  static let bound = Double(Int32.max / 2)

  /// A whole (already rounded) pixel coordinate as an Int, clamped to
  /// ±`bound`: geometry near 1e308 is clamped, never converted as is.
  static func clamped(_ x: Double) -> Int { Int(min(bound, max(-bound, x))) }
  @inlinable public var width: Int { max(0, x1 - x0) }
  @inlinable public var height: Int { max(0, y1 - y0) }
  @inlinable public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
  public func intersection(_ o: PixelRect) -> PixelRect {
    PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
  }
  public func union(_ o: PixelRect) -> PixelRect {
    if isEmpty { return o }
    if o.isEmpty { return self }
    return PixelRect(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
  }
  public func insetBy(_ d: Int) -> PixelRect { PixelRect(x0: x0 + d, y0: y0 + d, x1: x1 - d, y1: y1 - d) }
  public func offsetBy(dx: Int, dy: Int) -> PixelRect { PixelRect(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy) }
  public var rect: Rect { Rect(x: Double(x0), y: Double(y0), width: Double(width), height: Double(height)) }
  public var description: String { "PixelRect(\(x0), \(y0))–(\(x1), \(y1))" }
}

/// Coverage of each pixel of a rectangle, 0…255; pixels outside it have 0.
public struct CoverageMask: Sendable, Hashable {
  public var bounds: PixelRect
  /// Row-major, `bounds.width × bounds.height`.
  public var coverage: [UInt8]

  public init(bounds: PixelRect, coverage: [UInt8]) {
    precondition(coverage.count == bounds.width * bounds.height)
    self.bounds = bounds; self.coverage = coverage
  }
  public static let empty = CoverageMask(bounds: PixelRect(x0: 0, y0: 0, x1: 0, y1: 0), coverage: [])

  /// Coverage at a device pixel (0 outside the bounds).
  public subscript(x: Int, y: Int) -> UInt8 {
    guard x >= bounds.x0, x < bounds.x1, y >= bounds.y0, y < bounds.y1 else { return 0 }
    return coverage[(y - bounds.y0) * bounds.width + (x - bounds.x0)]
  }

  /// The product of two masks (a clip inside a clip), over their common bounds.
  public func intersection(_ o: CoverageMask) -> CoverageMask {
    let b = bounds.intersection(o.bounds)
    guard !b.isEmpty else { return .empty }
    // Row by row over the common bounds (inside both masks).
    let w = b.width
    var out = [UInt8](repeating: 0, count: w * b.height)
    let a = coverage, c = o.coverage
    for y in b.y0..<b.y1 {
      let row = (y - b.y0) * w
      let ra = (y - bounds.y0) * bounds.width + (b.x0 - bounds.x0)
      let rc = (y - o.bounds.y0) * o.bounds.width + (b.x0 - o.bounds.x0)
      for i in 0..<w {
        let u = a[ra + i], v = c[rc + i]
        // Most of a clip is all or nothing.
        out[row + i] = v == 255 ? u : u == 255 ? v : mul255(u, v)
      }
    }
    return CoverageMask(bounds: b, coverage: out)
  }

  /// Sum of coverage in pixels (255 = one whole pixel).
  public var area: Double { Double(coverage.reduce(0) { $0 + Int($1) }) / 255 }
}

/// a·b/255 rounded to nearest, exact for all 8-bit inputs.
@inlinable @inline(__always)
func mul255(_ a: UInt8, _ b: UInt8) -> UInt8 {
  // Wrapping operations: the result is at most 255·255 + 128, no overflow.
  let t = UInt32(a) &* UInt32(b) &+ 128
  return UInt8(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
}
