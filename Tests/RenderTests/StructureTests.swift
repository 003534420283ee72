import Primitives
import Raster
import SceneModel
import Testing

@testable import Render

/// Insertions, removals, the layout changes they cause and transitions,
/// sampled at chosen times against hand-computed geometry. Rows are 100 ×
/// 20 points in a vstack with spacing 0 whose top-left is the canvas's, so a
/// row in slot k spans y = 20k…20k + 20; animations are `linear` so that
/// progress is the elapsed fraction.
@Suite struct StructureTests {
  /// `placement`: the stack's own keys; by default its top-left is the canvas's.
  static func scene(_ rows: String, _ timeline: String, placement: String = ##""anchor": [0, 0]"##) throws -> SceneRenderer {
    SceneRenderer(
      scene: try load(
        ##"{"version": 1, "size": [100, 100], "layers": [{"id": "list", "type": "vstack", "##
          + placement + ##", "spacing": 0, "children": ["## + rows + "]}], \"timeline\": " + timeline + "}"))
  }
  /// A stack centred on the canvas, whose frame grows and shrinks around its centre.
  static let centred = ##""position": [50, 50], "anchor": [0.5, 0.5]"##
  static func row(_ id: String, _ colour: String) -> String {
    ##"{"id": "\##(id)", "type": "rect", "size": [100, 20], "fill": "\##(colour)"}"##
  }
  static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
  static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
  static let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
  static func near(_ a: RGBA8, _ b: RGBA8, _ tolerance: Int = 1) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
  }

  /// Row a is pushed from slot 0 to slot 1 by b inserted at index 0: halfway
  /// through the animation it spans y 10…30, while b sits in its final slot
  /// at half opacity, below a (it comes first in the list).
  @Test func anInsertionMovesSiblingsWithTheEventsAnimation() throws {
    let r = try Self.scene(
      Self.row("a", "#FF0000"),
      ##"[{"at": 1, "animation": "linear(duration: 1)", "insert": [{"into": "list", "index": 0, "transition": "opacity", "layer": \##(Self.row("b", "#0000FF"))}]}]"##
    )
    let before = try r.render(at: 0.9)
    #expect(before[50, 15] == Self.red && before[50, 25] == Self.white)
    #expect(r.visibleLayerIDs(at: 0.9) == ["list", "a"] && r.visibleLayerIDs(at: 1) == ["list", "b", "a"])
    let half = try r.render(at: 1.5)
    // b at opacity 0.5 over white: (127.5, 127.5, 255).
    #expect(Self.near(half[50, 5], RGBA8(r: 128, g: 128, b: 255, a: 255)))
    #expect(half[50, 10] == Self.red && half[50, 29] == Self.red && half[50, 30] == Self.white)
    let after = try r.render(at: 2.5)
    #expect(
      after[50, 5] == Self.blue && after[50, 19] == Self.blue && after[50, 20] == Self.red && after[50, 39] == Self.red && after[50, 40] == Self.white
    )
    // Nodes: canvas, list, a, b. a's centre: 10 before, 30 after, 20 halfway.
    #expect(abs(try #require(r.stackLayout(1, at: 1.5).positions[2]).y - 20) < 1e-12)
  }

  /// A removed row stays in its slot while it fades; the row below slides up
  /// over it; once the transition ends the removed row is gone.
  @Test func aRemovalStaysInPlaceWhileTheGapCloses() throws {
    let r = try Self.scene(
      [Self.row("a", "#FF0000"), Self.row("b", "#0000FF"), Self.row("c", "#FF0000")].joined(separator: ","),
      ##"[{"at": 1, "animation": "linear(duration: 1)", "remove": [{"id": "b", "transition": "opacity"}]}]"##)
    let half = try r.render(at: 1.5)
    #expect(half[50, 5] == Self.red)  // a does not move
    #expect(Self.near(half[50, 25], RGBA8(r: 128, g: 128, b: 255, a: 255)))  // b half faded in slot 1
    #expect(half[50, 30] == Self.red && half[50, 49] == Self.red && half[50, 50] == Self.white)  // c from 40 to 20: at 30
    #expect(r.visibleLayerIDs(at: 1.99) == ["list", "a", "b", "c"] && r.visibleLayerIDs(at: 2) == ["list", "a", "c"])
    let after = try r.render(at: 2)
    #expect(after[50, 25] == Self.red && after[50, 39] == Self.red && after[50, 40] == Self.white)
  }

  /// A centred stack (anchor [0.5, 0.5] at [50, 50]) whose frame grows
  /// from 20 to 40 points tall as b is appended under a. Halfway (1.5 s) the
  /// frame is 30 tall, its top at 50 − 15 = 35: a slides from 40…60 to
  /// 30…50 and spans 35…55; b is already in its final place on screen,
  /// 50…70 (it rode the frame before: 55…75).
  @Test func anInsertedChildAppearsInItsFinalSlotOnScreen() throws {
    let r = try Self.scene(
      Self.row("a", "#FF0000"),
      ##"[{"at": 1, "animation": "linear(duration: 1)", "insert": [{"into": "list", "transition": "identity", "layer": \##(Self.row("b", "#0000FF"))}]}]"##,
      placement: Self.centred)
    Self.expectAAt35AndBAt50(try r.render(at: 1.5))
    let start = try r.render(at: 1)
    #expect(start[50, 39] == Self.white && start[50, 40] == Self.red && start[50, 50] == Self.blue && start[50, 69] == Self.blue)
  }

  /// Halfway through both changes: a (red) spans 35…55, b (blue) is drawn
  /// over it at 50…70.
  static func expectAAt35AndBAt50(_ half: Pixmap, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(half[50, 34] == white && half[50, 35] == red && half[50, 49] == red, sourceLocation: sourceLocation)
    #expect(half[50, 50] == blue && half[50, 69] == blue && half[50, 70] == white, sourceLocation: sourceLocation)
  }

  /// The same stack shrinking as b (under a) is removed: b stays at 50…70
  /// on screen while the frame shrinks from 40 to 20 (top 30 → 40) and a
  /// slides from 30…50 to 40…60; halfway a spans 35…55 and b, drawn over
  /// it, still 50…70 (it drifted with the frame before: 55…75).
  @Test func aRemovedChildStaysWhereItWasOnScreen() throws {
    let r = try Self.scene(
      [Self.row("a", "#FF0000"), Self.row("b", "#0000FF")].joined(separator: ","),
      ##"[{"at": 1, "animation": "linear(duration: 1)", "remove": [{"id": "b", "transition": "identity"}]}]"##,
      placement: Self.centred)
    Self.expectAAt35AndBAt50(try r.render(at: 1.5))
    let end = try r.render(at: 2)
    #expect(end[50, 39] == Self.white && end[50, 40] == Self.red && end[50, 59] == Self.red && end[50, 60] == Self.white)
  }

  /// A second insertion while the first is moving a's slot adds its own
  /// change: a's centre is 10 → 30 → 50 in the three states; at 1.5 the
  /// first change is half done (−10) and the second just began (−20): 20,
  /// continuous with just before; at 2.0: 50 − 0 − 10 = 40; at 2.5: 50.
  @Test func anInterruptedLayoutChangeNeverJumps() throws {
    let r = try Self.scene(
      Self.row("a", "#FF0000"),
      ##"""
      [{"at": 1, "animation": "linear(duration: 1)", "insert": [{"into": "list", "index": 0, "layer": \##(Self.row("b", "#0000FF"))}]},
       {"at": 1.5, "animation": "linear(duration: 1)", "insert": [{"into": "list", "index": 0, "layer": \##(Self.row("c", "#0000FF"))}]}]
      """##)
    let a = 2  // nodes: canvas, list, a
    func y(_ t: Double) -> Double { r.stackLayout(1, at: t).positions[a]!.y }
    #expect(abs(y(1.4999999) - 19.999998) < 1e-6 && abs(y(1.5) - 20) < 1e-12)
    #expect(abs(y(2) - 40) < 1e-12 && abs(y(2.5) - 50) < 1e-12)
    // The stack's own size animates too: 20 → 40 → 60, at 1.5 it is 60 − 10 − 20.
    #expect(abs(r.stackLayout(1, at: 1.5).size.y - 30) < 1e-12)
  }

  /// Without an animation, insertions and removals are immediate.
  @Test func changesWithoutAnimationAreImmediate() throws {
    let r = try Self.scene(
      [Self.row("a", "#FF0000"), Self.row("b", "#0000FF")].joined(separator: ","),
      ##"[{"at": 1, "remove": [{"id": "a", "transition": "slide"}]}]"##)
    let p = try r.render(at: 1)
    #expect(p[50, 5] == Self.blue && p[50, 25] == Self.white)
  }

  /// The insertion index counts the children that remain after the event's
  /// removals: the new row lands at that index of the resulting list.
  @Test func insertionIndexIsTheIndexInTheResultingList() throws {
    let r = try Self.scene(
      [Self.row("a", "#FF0000"), Self.row("b", "#FF0000"), Self.row("c", "#FF0000")].joined(separator: ","),
      ##"[{"at": 1, "remove": [{"id": "a"}], "insert": [{"into": "list", "index": 1, "layer": \##(Self.row("d", "#0000FF"))}]}]"##)
    #expect(r.visibleLayerIDs(at: 1) == ["list", "b", "d", "c"])
    let p = try r.render(at: 1)
    #expect(p[50, 5] == Self.red && p[50, 25] == Self.blue && p[50, 45] == Self.red)
  }

  static func single(_ transition: String, animation: String = "linear(duration: 1)", removal: Bool = false) throws -> SceneRenderer {
    let layer = ##"{"id": "r", "type": "rect", "size": [40, 20], "position": [50, 50], "fill": "#000000"}"##
    let change =
      removal
      ? ##""remove": [{"id": "r", "transition": \##(transition)}]"##
      : ##""insert": [{"into": "g", "transition": \##(transition), "layer": \##(layer)}]"##
    return SceneRenderer(
      scene: try load(
        ##"{"version": 1, "size": [100, 100], "layers": [{"id": "g", "type": "group", "children": [\##(removal ? layer : "")]}], "timeline": [{"at": 0, "animation": "\##(animation)", \##(change)}]}"##
      ))
  }
  /// The rect's horizontal extent at t from the first row of dark pixels.
  static func span(_ p: Pixmap, y: Int = 50) -> (Int, Int)? {
    let dark = (0..<p.width).filter { p[$0, y].r < 128 }
    return dark.first.map { ($0, dark.last!) }
  }

  /// Halfway, p = ½: slide in from the leading edge by the layer's width
  /// (40): x 10…50 instead of 30…70; leaving, toward the trailing edge.
  @Test func slideMovesByTheLayersWidth() throws {
    #expect(Self.span(try Self.single(##""slide""##).render(at: 0.5)).map { $0 == (10, 49) } == true)
    #expect(Self.span(try Self.single(##""slide""##, removal: true).render(at: 0.5)).map { $0 == (50, 89) } == true)
    // move(edge: top) by the height (20): y 40…60 → 30…50 at p = ½ (x unchanged).
    let moved = try Self.single(##""move(edge: .top)""##).render(at: 0.5)
    #expect(moved[50, 30].r == 0 && moved[50, 29].r == 255 && moved[50, 49].r == 0 && moved[50, 50].r == 255)
    // push(from: trailing) comes in from the trailing edge, fading in; it
    // leaves toward the leading edge.
    let pushed = try Self.single(##""push(from: .trailing)""##).render(at: 0.5)
    #expect(pushed[55, 50].r == 127 && pushed[49, 50].r == 255 && pushed[89, 50].r == 127 && pushed[90, 50].r == 255)
    let pushedOut = try Self.single(##""push(from: .trailing)""##, removal: true).render(at: 0.5)
    #expect(pushedOut[10, 50].r == 127 && pushedOut[9, 50].r == 255 && pushedOut[50, 50].r == 255)
    // offset(x: 0, y: 20) at p = ½: 10 points down, y 50…70.
    let offset = try Self.single(##""offset(x: 0, y: 20)""##).render(at: 0.5)
    #expect(offset[50, 50].r == 0 && offset[50, 49].r == 255 && offset[50, 69].r == 0 && offset[50, 70].r == 255)
  }

  /// scale(0.5) at p = ½ is 0.75 around the centre: 30 × 15 centred on
  /// (50, 50); with anchor [0, 0] it grows from the top-left corner.
  @Test func scaleAroundItsAnchor() throws {
    #expect(Self.span(try Self.single(##""scale(0.5)""##).render(at: 0.5)).map { $0 == (35, 64) } == true)
    let corner = try Self.single(##""scale(0.5, anchor: [0, 0])""##).render(at: 0.5)
    #expect(Self.span(corner, y: 41).map { $0 == (30, 59) } == true)
    #expect(corner[30, 40].r == 0 && corner[30, 39].r == 255 && corner[30, 54].r == 0 && corner[30, 55].r == 255)
    // Combined with opacity: both apply.
    let both = try Self.single(##""scale(0.5).combined(with: .opacity)""##).render(at: 0.5)
    #expect(both[50, 50].r == 127 && both[34, 50].r == 255)
  }

  /// A bouncy spring overshoots, and p follows it: the scale transition
  /// grows past 1. For ζ = 0.7, ω₀ = 4π the first peak is at π/ω_d =
  /// 0.35 s with overshoot exp(−ζπ/√(1−ζ²)) = 0.04599, so the 40-point
  /// rect is 41.84 wide: x 29.08…70.92, pixel 29 is 92% covered.
  @Test func transitionsFollowSpringOvershoot() throws {
    let r = try Self.single(##""scale""##, animation: "spring(duration: 0.5, bounce: 0.3)")
    let p = try r.render(at: 0.35)
    #expect(abs(Int(p[29, 50].r) - Int((255 * 0.08).rounded())) <= 2)
    #expect(p[28, 50].r == 255 && abs(Int(p[70, 50].r) - Int((255 * 0.08).rounded())) <= 2)
  }

  /// The SwiftUI article's custom removal f(p) = −6.8p² + 5.8p + 1: at p =
  /// ½ the scale is 2.2, so the 40 × 20 rect is 88 × 44 around (50, 50).
  @Test func modifierExpressionsGiveTheirPropertys() throws {
    let r = try Self.single(
      ##"{"modifier": {"active": {"scale": "-6.8*p*p + 5.8*p + 1", "opacity": 0}, "identity": {"scale": 1}}}"##, removal: true)
    let p = try r.render(at: 0.5)
    #expect(Self.span(p).map { $0 == (6, 93) } == true)
    // opacity interpolates from the layer's own 1 to 0: half.
    #expect(p[50, 50].r == 127)
    #expect(p[50, 27].r == 255 && p[50, 28].r == 127 && p[50, 71].r == 127 && p[50, 72].r == 255)
  }

  /// Blur transitions blur the layer: at p = ½ with radius 10, σ = 5 points,
  /// so the edge is soft where it was crisp.
  @Test func blurTransitionSoftensTheEdge() throws {
    let p = try Self.single(##""blur(radius: 10)""##).render(at: 0.5)
    // At the edge (x = 30) a Gaussian-blurred step is half: ~127.
    #expect(abs(Int(p[30, 50].r) - 127) <= 12 && p[20, 50].r > 200 && p[40, 50].r < 55)
  }
}

/// Gestures through the scene: a finger moves the knob linearly between its
/// points; the spring started at the release continues at the finger's
/// velocity (the last segment's slope: 20 points in 0.1 s = 200 pt/s),
/// unless the event's `velocity` overrides it.
@Suite struct GestureTests {
  static func knob(_ release: String) throws -> SceneRenderer {
    SceneRenderer(
      scene: try load(
        ##"""
        {"version": 1, "size": [200, 40], "layers": [{"id": "k", "type": "circle", "size": [20, 20], "position": [0, 20]}],
         "timeline": [{"at": 1, "drag": {"layer": "k", "points": [[0, 0, 20], [0.1, 10, 20], [0.2, 30, 20]]}}\##(release)]}
        """##))
  }
  static func x(_ r: SceneRenderer, _ t: Double) -> Double { r.timeline.value(Properties.position, of: "k", at: t)!.x }

  @Test func theSpringAtReleaseKeepsTheFingersVelocity() throws {
    let r = try Self.knob(##", {"at": 1.2, "animation": "spring", "set": {"k": {"position": [100, 20]}}}"##)
    #expect(abs(Self.x(r, 1.05) - 5) < 1e-9 && abs(Self.x(r, 1.15) - 20) < 1e-9 && Self.x(r, 1.2) == 30)
    // One-sided difference: its error is h·a/2 with a ≈ ω₀²·70 ≈ 1.1e4 pt/s².
    let h = 1e-7
    #expect(abs((Self.x(r, 1.2 + h) - Self.x(r, 1.2)) / h - 200) < 1e-3)
    #expect(abs(Self.x(r, 30) - 100) < 1e-6)
    // The drawn circle follows: centred on x = 20 at 1.15 s.
    let p = try r.render(at: 1.15)
    #expect(p[20, 20].r == 0 && p[9, 20].r == 255 && p[31, 20].r == 255)
  }

  @Test func anEventsVelocityOverridesTheFingers() throws {
    let r = try Self.knob(
      ##", {"at": 1.2, "animation": "spring", "velocity": {"k": {"position": [0, 0]}}, "set": {"k": {"position": [100, 20]}}}"##)
    // One-sided difference: its error is h·a/2 with a ≈ ω₀²·70 ≈ 1.1e4 pt/s².
    let h = 1e-7
    #expect(abs((Self.x(r, 1.2 + h) - Self.x(r, 1.2)) / h) < 1e-3)
  }

  @Test func withoutAnAnimationTheLayerStaysWhereTheFingerLeftIt() throws {
    let r = try Self.knob("")
    #expect(Self.x(r, 1.2) == 30 && Self.x(r, 5) == 30)
  }
}
