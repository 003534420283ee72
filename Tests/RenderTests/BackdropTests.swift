import Foundation
import PortableMath
import Primitives
import Raster
import Render
import SceneModel
import Testing

/// Materials: a shape's backdrop is what lies beneath it, blurred by a
/// Gaussian and saturated, checked against a Gaussian blur and a
/// saturation computed here from the frame without the shape.
@Suite struct BackdropTests {
  func scene(_ layers: [String], timeline: String = "[]", appearance: String = "light", background: String = "white") throws -> SceneRenderer {
    let text =
      ##"{"version": 1, "size": [160, 120], "scale": 1, "appearance": ""## + appearance + ##"", "background": ""## + background
      + ##"", "layers": ["## + layers.joined(separator: ", ") + ##"], "timeline": "## + timeline + "}"
    return SceneRenderer(scene: try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t"))
  }

  /// Hard-edged content: stripes of colour, a disc.
  let content = [
    ##"{"type": "rect", "position": [40, 60], "size": [24, 120], "fill": "#FF2020"}"##,
    ##"{"type": "rect", "position": [80, 60], "size": [16, 120], "fill": "#2040FF"}"##,
    ##"{"type": "circle", "position": [115, 55], "size": [40, 40], "fill": "#10C040"}"##,
  ]

  /// The frame blurred by the true Gaussian of σ (taps out to 4σ,
  /// normalised; separable, as the 2-D Gaussian is), pixels beyond the
  /// frame taking the background (white, as the scene's is): the channels
  /// of each pixel of `rows` × `columns`.
  func gaussian(_ p: Pixmap, sigma: Double, columns: Range<Int>, rows: Range<Int>) -> [[[Double]]] {
    let r = Int((4 * sigma).rounded(.up))
    let taps = (-r...r).map { Elementary.exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = taps.reduce(0, +)
    func pixel(_ u: Int, _ v: Int) -> [Double] {
      guard u >= 0, v >= 0, u < p.width, v < p.height else { return [255, 255, 255, 255] }
      let px = p[u, v]
      return [Double(px.r), Double(px.g), Double(px.b), Double(px.a)]
    }
    // Horizontally over every row the vertical pass reads, then vertically.
    let band = (rows.lowerBound - r)..<(rows.upperBound + r)
    var horizontal: [Int: [[Double]]] = [:]
    for v in band {
      horizontal[v] = columns.map { x in
        var sum = [0.0, 0.0, 0.0, 0.0]
        for (k, w) in taps.enumerated() {
          let c = pixel(x + k - r, v)
          for i in 0..<4 { sum[i] += w * c[i] }
        }
        return sum.map { $0 / total }
      }
    }
    return rows.map { y in
      (0..<columns.count).map { j in
        var sum = [0.0, 0.0, 0.0, 0.0]
        for (k, w) in taps.enumerated() {
          let c = horizontal[y + k - r]![j]
          for i in 0..<4 { sum[i] += w * c[i] }
        }
        return sum.map { $0 / total }
      }
    }
  }

  @Test(arguments: [3.0, 6.0, 20.0, 48.0])
  func theBackdropIsAGaussianOfWhatLiesBeneath(sigma: Double) throws {
    let plain = try scene(content).render(at: 0)
    let frosted = try scene(
      content + [##"{"type": "rect", "position": [80, 60], "size": [120, 80], "backdrop": {"blur": "## + "\(sigma)" + "}}"]
    ).render(at: 0)
    var worst = 0.0, total = 0.0, count = 0
    let (columns, rows) = (22..<138, 22..<98)
    let reference = gaussian(plain, sigma: sigma, columns: columns, rows: rows)
    for y in rows {
      for x in columns {
        let expected = reference[y - rows.lowerBound][x - columns.lowerBound]
        let got = frosted[x, y]
        for (e, g) in zip(expected, [got.r, got.g, got.b, got.a]) {
          worst = max(worst, abs(e - Double(g)))
          total += abs(e - Double(g))
          count += 1
        }
      }
    }
    // The blur's documented accuracy: 1.5% of full scale at worst (a hard
    // edge's corner) and a level of rounding; from σ = 16 on, reduced
    // resolution adds up to half a percent. Far less on average.
    let bound = sigma < 16 ? 0.015 * 255 + 1 : 0.02 * 255 + 1
    #expect(worst <= bound, "σ \(sigma): worst \(worst) levels")
    #expect(total / Double(count) < (sigma < 16 ? 1 : 1.5), "σ \(sigma): mean \(total / Double(count)) levels")
    // Outside the shape the frame is untouched.
    for (x, y) in [(10, 10), (150, 110), (15, 60), (145, 60)] { #expect(frosted[x, y] == plain[x, y]) }
  }

  /// Saturation s moves each channel from the luma Y (Rec. 709 weights):
  /// Y + s·(c − Y), clamped; 0 is grey.
  @Test(arguments: [0.0, 0.5, 1.8])
  func saturationMovesColourFromItsLuma(s: Double) throws {
    let frosted = try scene(
      content + [##"{"type": "rect", "position": [80, 60], "size": [160, 120], "backdrop": {"saturation": "## + "\(s)" + "}}"]
    ).render(at: 0)
    for (x, y, c) in [(40, 10, (255.0, 32.0, 32.0)), (80, 100, (32.0, 64.0, 255.0)), (115, 55, (16.0, 192.0, 64.0))] {
      let luma = 0.2126 * c.0 + 0.7152 * c.1 + 0.0722 * c.2
      let expected = [c.0, c.1, c.2].map { min(max(luma + s * ($0 - luma), 0), 255) }
      let got = frosted[x, y]
      for (e, g) in zip(expected, [got.r, got.g, got.b]) { #expect(abs(e - Double(g)) <= 1, "s \(s) at (\(x), \(y)): \(g) vs \(e)") }
    }
  }

  /// The tint covers the blurred backdrop: over white, a 50% black tint
  /// gives mid grey; a material shape has no fill of its own.
  @Test func theTintCoversTheBackdropAndNoFillIsAdded() throws {
    let p = try scene([##"{"type": "rect", "position": [80, 60], "size": [100, 100], "backdrop": {"blur": 4, "tint": "#00000080"}}"##]).render(at: 0)
    #expect(abs(Int(p[80, 60].r) - 127) <= 1)
  }

  /// The named materials: thicker ones blur at least as much and tint at
  /// least as opaquely; dark variants are darker. A material draws its
  /// documented backdrop, and `backdrop` fields override it.
  @Test func materialsAreOrderedAndDrawTheirValues() throws {
    for appearance in Appearance.allCases {
      let values = Material.allCases.map { $0.values(appearance) }
      for (thin, thick) in zip(values, values.dropFirst()) {
        #expect(thick.blur >= thin.blur && thick.tint.alpha >= thin.tint.alpha)
      }
    }
    for m in Material.allCases {
      let light = m.values(.light), dark = m.values(.dark)
      #expect(dark.tint.red < light.tint.red && dark.tint.alpha >= light.tint.alpha - 0.2)
    }
    let v = Material.thick.values(.dark)
    let named = try scene(content + [##"{"type": "rect", "position": [80, 60], "size": [120, 80], "material": "thick"}"##], appearance: "dark")
      .render(at: 0)
    let written = try scene(
      content + [
        ##"{"type": "rect", "position": [80, 60], "size": [120, 80], "backdrop": {"blur": "## + "\(v.blur), \"saturation\": \(v.saturation)"
          + ##", "tint": "## + "\"\(hex(v.tint))\"}}"
      ], appearance: "dark"
    ).render(at: 0)
    #expect(named.bytes == written.bytes)
    // SwiftUI's spelling names the same material.
    let swiftUI = try scene(
      content + [##"{"type": "rect", "position": [80, 60], "size": [120, 80], "material": "thickMaterial"}"##], appearance: "dark"
    )
    .render(at: 0)
    #expect(swiftUI.bytes == named.bytes)
  }

  func hex(_ c: Color) -> String {
    func two(_ x: Double) -> String {
      let s = String(Int((x * 255).rounded()), radix: 16)
      return s.count == 1 ? "0" + s : s
    }
    return "#" + two(c.red) + two(c.green) + two(c.blue) + two(c.alpha)
  }

  /// A backdrop sees what its own group drew before it, and takes the
  /// group's opacity: a half-transparent group over white shows half the
  /// blurred backdrop.
  @Test func aBackdropInsideAGroupSeesEverythingBeneath() throws {
    let inGroup = try scene(
      [
        ##"{"type": "group", "opacity": 0.5, "children": [{"type": "rect", "position": [80, 60], "size": [20, 120], "fill": "black"}, {"type": "rect", "position": [80, 60], "size": [120, 80], "backdrop": {"blur": 6}}]}"##
      ]
    ).render(at: 0)
    let blackBar = try scene([##"{"type": "rect", "position": [80, 60], "size": [20, 120], "fill": "black", "opacity": 0.5}"##]).render(at: 0)
    let blurred = try scene(
      [
        ##"{"type": "rect", "position": [80, 60], "size": [20, 120], "fill": "black"}"##,
        ##"{"type": "rect", "position": [80, 60], "size": [120, 80], "backdrop": {"blur": 6}}"##,
      ]
    ).render(at: 0)
    // Inside the shape: the frame beneath is the group's bar at half over
    // white, blurred (half as dark as the opaque bar's blur); the group
    // then draws that at half over white: a quarter as dark.
    for x in stride(from: 30, to: 130, by: 7) {
      let expected = 255 - (255 - Double(blurred[x, 60].r)) / 4
      #expect(abs(Double(inGroup[x, 60].r) - expected) <= 2, "x \(x)")
    }
    // Outside it, the bar as the group draws it.
    #expect(inGroup[80, 10] == blackBar[80, 10])
  }

  /// A backdrop is made once per frame over its whole area, and every tile
  /// samples that one image: the frame has the same bytes in squares of any
  /// size and in bands (a video's workers choose between them by how fast
  /// frames finish), so a still equals the same frame of a video.
  @Test(arguments: [6.0, 40.0])
  func tilesOfAnySizeDrawTheSameBackdrop(sigma: Double) throws {
    let renderer = try scene(
      content + [##"{"type": "rect", "position": [80, 60], "size": [140, 90], "backdrop": {"blur": "## + "\(sigma), \"saturation\": 1.8}}"])
    let whole = try renderer.renderFrame(at: 0, tileSize: 256).pixmap
    for layout: TileLayout in [.squares(16), .squares(48), .bands(area: 512 * 512), .bands(area: 48 * 48)] {
      let tiled = try renderer.renderFrame(at: 0, tileSize: layout)
      #expect(tiled.grid == TileGrid(width: whole.width, height: whole.height, layout: layout))
      let worst = zip(whole.bytes, tiled.pixmap.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst == 0, "σ \(sigma), \(layout): \(worst) levels")
    }
  }

  /// The same with backdrops inside a blurred layer (drawn whole as a
  /// texture) and two in one clipped group, the second over the first.
  @Test func nestedBackdropsAreTheSameInAnyLayout() throws {
    let renderer = try scene(Self.nested)
    let whole = try renderer.renderFrame(at: 0.5, tileSize: 256).pixmap
    for layout: TileLayout in [.squares(16), .squares(32), .bands(area: 40 * 40)] {
      #expect(try renderer.renderFrame(at: 0.5, tileSize: layout).pixmap == whole, "\(layout)")
    }
  }

  /// What moves beneath a still material redraws only the backdrop's
  /// blocks within its reach (512 px, fixed to the frame's corner), and
  /// the tiles that sample them: a dot moving in the top-left corner of a
  /// 1200 × 600 frame under a material across it leaves the tiles right of
  /// the first block's column alone, and each frame, cached or not, is the
  /// same.
  @Test func movingBeneathAStillMaterialRedrawsOnlyItsBlocks() throws {
    let text =
      ##"{"version": 1, "size": [1200, 600], "scale": 1, "background": "white", "layers": ["##
      + (0..<8).map { i in
        ##"{"type": "rect", "position": [\##(80 + 140 * i), 300], "size": [100, 500], "fill": "#\##(i % 2 == 0 ? "FF3B30" : "007AFF")"}"##
      }
      .joined(separator: ", ")
      + ##", {"id": "dot", "type": "circle", "position": [60, 60], "size": [30, 30], "fill": "black"}, {"type": "rect", "position": [600, 300], "size": [1160, 560], "backdrop": {"blur": 12}}], "timeline": [{"at": 0, "animation": "linear(duration: 1)", "set": {"dot": {"position": [120, 60]}}}]}"##
    let renderer = SceneRenderer(scene: try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t"))
    let cache = TileCache(width: 1200, height: 600)
    for i in 0...4 {
      let t = Double(i) / 4
      var drawn: [PixelRect] = []
      let frame = try renderer.renderFrame(at: t, cache: cache, tileSize: 128) { drawn.append($0.rect) }
      #expect(frame.pixmap == (try renderer.renderFrame(at: t, tileSize: 128).pixmap), "t \(t)")
      // From the third frame on (a tile is cached from its second drawing),
      // only tiles left of x = 640 are drawn: the first block's column and
      // the tiles whose bilinear samples reach into it.
      if i >= 2 {
        #expect(!drawn.isEmpty)
        #expect(drawn.allSatisfy { $0.x0 < 640 }, "t \(t): \(drawn)")
      }
    }
  }

  static let nested = [
    ##"{"id": "ball", "type": "circle", "position": [30, 60], "size": [40, 40], "fill": "orange"}"##,
    ##"{"type": "rect", "position": [50, 30], "size": [90, 40], "material": "regular", "blur": 3}"##,
    ##"{"type": "group", "size": [160, 120], "anchor": [0, 0], "clip": true, "children": [{"type": "rect", "position": [110, 90], "size": [90, 50], "material": "thin"}, {"type": "rect", "position": [120, 90], "size": [30, 20], "backdrop": {"blur": 4, "saturation": 0}}]}"##,
  ]

  @Test(
    arguments: [
      (##""material": "ultrathin""##, "did you mean 'ultraThin'", "layers[0].material"),
      (##""backdrop": {"saturation": 11}"##, "out of range", "layers[0].backdrop.saturation"),
      (##""backdrop": {"blur": -2}"##, "out of range", "layers[0].backdrop.blur"),
      (##""backdrop": {"tint": "frost"}"##, "unknown colour", "layers[0].backdrop.tint"),
      (##""backdrop": {"opacity": 1}"##, "unknown key", "layers[0].backdrop.opacity"),
    ])
  func badMaterialsAreLocated(key: String, message: String, path: String) throws {
    let text = ##"{"version": 1, "size": [10, 10], "layers": [{"type": "rect", "## + key + "}]}"
    do {
      _ = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
      Issue.record("decoded")
    } catch {
      #expect(error.diagnostics.count == 1 && error.diagnostics[0].message.contains(message), "\(error.diagnostics)")
      #expect(error.diagnostics.first?.path.description == path && error.diagnostics.first?.location.line == 1)
    }
  }

  /// The tile cache never changes a backdrop: content moving under a still
  /// material renders the same frames cached as alone, and a material over
  /// still content is reused.
  @Test func cachedFramesEqualFramesRenderedAlone() throws {
    let renderer = try scene(
      [
        ##"{"id": "ball", "type": "circle", "position": [30, 60], "size": [40, 40], "fill": "orange"}"##,
        ##"{"type": "rect", "position": [80, 30], "size": [160, 40], "material": "regular"}"##,
        ##"{"type": "rect", "position": [80, 100], "size": [160, 30], "material": "thin"}"##,
      ],
      timeline: ##"[{"at": 0, "animation": "linear(duration: 1)", "set": {"ball": {"offset": [100, -40]}}}]"##)
    // Backdrops inside a blurred layer (drawn whole as a texture), and two
    // in one clipped group, the second over the first.
    let nested = try scene(
      Self.nested, timeline: ##"[{"at": 0, "animation": "linear(duration: 1)", "set": {"ball": {"offset": [100, 10]}}}]"##)
    for r in [renderer, nested] {
      let cache = TileCache(width: 160, height: 120)
      for i in 0...10 {
        let t = Double(i) / 10
        let cached = try r.renderFrame(at: t, cache: cache, tileSize: 32).pixmap
        let alone = try r.renderFrame(at: t, tileSize: 32).pixmap
        #expect(cached.bytes == alone.bytes, "t \(t)")
      }
    }
  }

  /// Beyond the frame's edges a backdrop sees the background, as a screen
  /// would: a layer wholly above the frame changes nothing.
  @Test func beyondTheFrameIsTheBackground() throws {
    let bar = ##"{"type": "rect", "position": [80, 15], "size": [160, 30], "backdrop": {"blur": 10}}"##
    let plain = try scene(content + [bar]).render(at: 0)
    let above = try scene(content + [##"{"type": "rect", "position": [80, -20], "size": [160, 30], "fill": "black"}"##, bar]).render(at: 0)
    #expect(plain.bytes == above.bytes)
  }
}
