import Primitives
import Raster
import Render
import SceneModel
import Testing

func load(_ text: String) throws -> Scene {
  try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
}

@Suite struct SceneRendererTests {
  @Test func aRectWhereTheGeometrySaysByHand() throws {
    // 20 × 10 centred on (30.5, 20): x from 20.5 to 40.5, y from 15 to 25.
    let s = try load(
      ##"{"version": 1, "size": [60, 40], "layers": [{"type": "rect", "size": [20, 10], "position": [30.5, 20], "fill": "#FF0000"}]}"##)
    let p = try SceneRenderer(scene: s).render(at: 0)
    #expect(p.width == 60 && p.height == 40)
    #expect(p[30, 20] == RGBA8(r: 255, g: 0, b: 0, a: 255))
    // Half covered: coverage 128/255, so white keeps 255 · 127/255 = 127.
    #expect(p[20, 20] == RGBA8(r: 255, g: 127, b: 127, a: 255))
    #expect(p[40, 20] == RGBA8(r: 255, g: 127, b: 127, a: 255))
    #expect(p[30, 14] == RGBA8(r: 255, g: 255, b: 255, a: 255) && p[30, 15] == RGBA8(r: 255, g: 0, b: 0, a: 255))
  }

  @Test func scaleOverridesThePixelDensity() throws {
    let s = try load(
      ##"{"version": 1, "size": [60, 40], "scale": 1, "layers": [{"type": "rect", "size": [20, 10], "position": [30, 20], "fill": "blue"}]}"##)
    let p = try SceneRenderer(scene: s).render(at: 0, scale: 2)
    #expect(p.width == 120 && p.height == 80)
    // x from 20 to 40 points is 40 to 80 pixels.
    #expect(p[39, 40] == RGBA8(r: 255, g: 255, b: 255, a: 255) && p[40, 40] == RGBA8(r: 0, g: 122, b: 255, a: 255))
    #expect(p[79, 40] == RGBA8(r: 0, g: 122, b: 255, a: 255) && p[80, 40] == RGBA8(r: 255, g: 255, b: 255, a: 255))
  }

  /// The vectors' bouncy spring moves the layer: 0.8737108957910228 of the
  /// way at 0.2 s (an independent integration).
  @Test func aSpringMovesTheLayerAsTheVectorsSay() throws {
    let s = try load(
      ##"""
      {"version": 1, "size": [200, 20], "layers": [{"id": "k", "type": "rect", "size": [10, 20], "position": [0, 10], "anchor": [0, 0.5], "fill": "black"}],
       "timeline": [{"at": 0.1, "animation": "spring(duration: 0.5, bounce: 0.3)", "set": {"k": {"position": [100, 10]}}}]}
      """##)
    let renderer = SceneRenderer(scene: s)
    let x = try #require(renderer.timeline.value(Properties.position, of: "k", at: 0.3)).x
    #expect(abs(x - 87.37108957910228) < 1e-6)
    // Its left edge at 87.371: pixel 87 is 62.9% covered.
    let p = try renderer.render(at: 0.3)
    #expect(abs(Int(p[87, 10].r) - Int((255 * (1 - 0.629)).rounded())) <= 1)
    #expect(p[88, 10].r == 0 && p[86, 10].r == 255)
    // The default duration: 0.1 + the spring's settling duration.
    #expect(abs(renderer.duration - (0.1 + 1.0447130905120119)) < 1e-9)
  }

  @Test func groupOpacityIsOneLayer() throws {
    let s = try load(
      ##"""
      {"version": 1, "size": [40, 40], "layers": [{"type": "group", "opacity": 0.5, "children": [
        {"type": "rect", "size": [20, 20], "position": [12, 12], "fill": "#FF0000"},
        {"type": "rect", "size": [20, 20], "position": [24, 24], "fill": "#FF0000"}]}]}
      """##)
    let p = try SceneRenderer(scene: s).render(at: 0)
    #expect(p[18, 18] == p[8, 8] && p[8, 8] == RGBA8(r: 255, g: 127, b: 127, a: 255))
  }

  @Test func stacksLayOutTheirChildren() throws {
    // A vstack of two 20 × 10 rects, spacing 4, its top-left at (10, 10):
    // rows at y 10…20 and 24…34.
    let s = try load(
      ##"""
      {"version": 1, "size": [50, 50], "layers": [{"type": "vstack", "position": [10, 10], "anchor": [0, 0], "spacing": 4, "children": [
        {"type": "rect", "size": [20, 10], "fill": "black"}, {"type": "rect", "size": [20, 10], "fill": "black", "offset": [5, 0]}]}]}
      """##)
    let p = try SceneRenderer(scene: s).render(at: 0)
    #expect(p[10, 10].r == 0 && p[29, 19].r == 0 && p[10, 20].r == 255 && p[10, 22].r == 255)
    #expect(p[15, 24].r == 0 && p[34, 33].r == 0 && p[14, 24].r == 255)  // offset applies after layout
  }

  @Test func colourAnimatesPremultiplied() throws {
    // #FF3B30 to clear, linearly over 1 s: at 0.5 s, premultiplied
    // (255, 59, 48, 255) × 0.5 = (127.5, 29.5, 24, 127.5), rounded half up.
    let s = try load(
      ##"""
      {"version": 1, "size": [10, 10], "background": "transparent", "layers": [{"id": "k", "type": "rect", "size": [10, 10], "position": [5, 5], "fill": "red"}],
       "timeline": [{"at": 0, "animation": "linear(duration: 1)", "set": {"k": {"fill": "clear"}}}]}
      """##)
    let p = try SceneRenderer(scene: s).render(at: 0.5)
    #expect(p[5, 5] == RGBA8(r: 128, g: 30, b: 24, a: 128))
  }
}
