import Primitives
import Raster
import Render
import SceneModel
import Testing

/// A property that a later event animates shows its default until then,
/// the default the renderer draws with when no event touches it: the
/// timeline and the renderer read one registry (`Properties`). Each case
/// failed before, when the timeline started such a property from its own
/// default (transparent, zero) while the renderer drew another.
@Suite struct PropertyDefaultTests {
  static let white = RGBA8(r: 255, g: 255, b: 255, a: 255), black = RGBA8(r: 0, g: 0, b: 0, a: 255)

  static func near(_ a: RGBA8, _ b: RGBA8, _ levels: Int = 1) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= levels && abs(Int(a.g) - Int(b.g)) <= levels && abs(Int(a.b) - Int(b.b)) <= levels
      && abs(Int(a.a) - Int(b.a)) <= levels
  }

  /// A rect without `fill` is black (the scene format's default); an event
  /// at 1 s animating its fill to red fades it from black, not from
  /// transparent. Red is #FF3B30: (255, 59, 48).
  @Test func anUnfilledRectIsBlackUntilItsFillAnimates() throws {
    let r = SceneRenderer(
      scene: try load(
        ##"""
        {"version": 1, "size": [20, 20], "layers": [{"id": "r", "type": "rect", "size": [20, 20], "position": [10, 10]}],
         "timeline": [{"at": 1, "animation": "linear(duration: 1)", "set": {"r": {"fill": "red"}}}]}
        """##))
    #expect(try r.render(at: 0)[10, 10] == Self.black)
    #expect(try r.render(at: 0.99)[10, 10] == Self.black)
    // Halfway, premultiplied: (255, 59, 48) / 2, opaque.
    #expect(Self.near(try r.render(at: 1.5)[10, 10], RGBA8(r: 128, g: 30, b: 24, a: 255)))
    #expect(try r.render(at: 2)[10, 10] == RGBA8(r: 255, g: 59, b: 48, a: 255))
  }

  /// A stroke without a colour is black, before an event animates its colour too.
  @Test func aStrokeIsBlackUntilItsColourAnimates() throws {
    let r = SceneRenderer(
      scene: try load(
        ##"""
        {"version": 1, "size": [40, 40], "layers": [{"id": "r", "type": "rect", "size": [20, 20], "position": [20, 20], "fill": "white",
          "stroke": {"width": 4}}],
         "timeline": [{"at": 1, "animation": "linear(duration: 1)", "set": {"r": {"stroke": {"color": "#0000FF"}}}}]}
        """##))
    // The stroke is centred on the edge at x = 10: pixels 8…11 are covered whole.
    #expect(try r.render(at: 0.5)[9, 20] == Self.black)
    #expect(try r.render(at: 2)[9, 20] == RGBA8(r: 0, g: 0, b: 255, a: 255))
  }

  /// An image whose size a later event animates is drawn at its intrinsic
  /// size until then (4 × 2 pixels at scale 1: 4 × 2 points), pixel for
  /// pixel, not at size zero.
  @Test func anImageKeepsItsOwnSizeUntilItsSizeAnimates() throws {
    let r = try loadWithFiles(
      ##"""
      {"version": 1, "size": [12, 6], "assets": {"p": "p.png"}, "layers": [{"id": "i", "type": "image", "asset": "p", "position": [2, 1]}],
       "timeline": [{"at": 1, "animation": "linear(duration: 1)", "set": {"i": {"size": [8, 4]}}}]}
      """##, pngs: ["p.png": halves])
    let before = try r.render(at: 0.5)
    for y in 0..<2 {
      for x in 0..<4 { #expect(before[x, y] == halves[x, y], "pixel (\(x), \(y))") }
    }
    #expect(before[5, 0] == Self.white && before[0, 3] == Self.white)
    // At the end, 8 × 4 points centred on (2, 1): pixel (5, 2) shows the red half.
    #expect(try r.render(at: 2)[5, 2] == red)
  }

  /// A text whose size a later event animates keeps its measured size until
  /// then: the frame equals the same scene's without the event.
  @Test func aTextKeepsItsMeasuredSizeUntilItsSizeAnimates() throws {
    let layer = ##"{"id": "t", "type": "text", "text": "Hi", "fill": "#0000FF", "position": [40, 20]}"##
    let still = try loadWithFiles(##"{"version": 1, "size": [80, 40], "layers": [\##(layer)]}"##)
    let animated = try loadWithFiles(
      ##"""
      {"version": 1, "size": [80, 40], "layers": [\##(layer)],
       "timeline": [{"at": 1, "animation": "linear(duration: 1)", "set": {"t": {"size": [70, 30]}}}]}
      """##)
    let before = try animated.render(at: 0.5)
    #expect(before == (try still.render(at: 0.5)))
    // The background is the measured box: some of it shows blue.
    #expect(before.bytes.chunks(ofCount: 4).contains { $0 == [0, 0, 255, 255] })
  }

  /// A stack whose size a later event animates has its content's size (plus
  /// padding) until then: its background shows around its child.
  @Test func aStackKeepsItsLaidOutSizeUntilItsSizeAnimates() throws {
    let r = SceneRenderer(
      scene: try load(
        ##"""
        {"version": 1, "size": [40, 40], "layers": [{"id": "s", "type": "vstack", "position": [20, 20], "padding": 5, "fill": "#0000FF",
          "children": [{"type": "rect", "size": [10, 10], "fill": "#FF0000"}]}],
         "timeline": [{"at": 1, "animation": "linear(duration: 1)", "set": {"s": {"size": [30, 30]}}}]}
        """##))
    // 20 × 20 around the centre: x and y from 10 to 30; the child from 15 to 25.
    let before = try r.render(at: 0.5)
    #expect(before[12, 20] == RGBA8(r: 0, g: 0, b: 255, a: 255) && before[20, 20] == RGBA8(r: 255, g: 0, b: 0, a: 255))
    #expect(before[8, 20] == Self.white)
    // At the end, 30 × 30: x from 5 to 35.
    #expect(try r.render(at: 2)[8, 20] == RGBA8(r: 0, g: 0, b: 255, a: 255))
  }
}

extension Array {
  /// Consecutive slices of `count` elements (the last may be shorter).
  fileprivate func chunks(ofCount count: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: self.count, by: count).map { self[$0..<Swift.min($0 + count, self.count)] }
  }
}
