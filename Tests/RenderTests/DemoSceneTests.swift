import Foundation
import PNGCodec
import Primitives
import Raster
import Render
import SceneFiles
import SceneModel
import Testing
import Timing

/// The demo scenes in `scenes/`, checked against the numbers of the seeds
/// they reproduce (../shared/seeds) and of the timing vectors.
@Suite struct DemoSceneTests {
  static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scenes")

  static func renderer(_ name: String) throws -> SceneRenderer {
    let file = scenes.appendingPathComponent("\(name).json")
    return try SceneRenderer(decoding: [UInt8](Data(contentsOf: file)), file: file.path, directory: scenes.path, defaultName: name)
  }

  static func isWhite(_ p: RGBA8) -> Bool { p.r > 245 && p.g > 245 && p.b > 245 }
  static func isTomato(_ p: RGBA8) -> Bool { abs(Int(p.r) - 0xBD) < 8 && abs(Int(p.g) - 0x2E) < 8 && abs(Int(p.b) - 0x24) < 8 }

  @Test func tomatomatoLaunchCirclesGrowAsSeed004Says() throws {
    // Seed 004: from 3.6 s a tomato-red circle grows from the centre to the
    // screen's diagonal (1280 pt on 1024 × 768) in 1.0 s with easeOutCirc; a
    // white one from 3.6 s with easeInOutCirc; a red one from 3.8 s with
    // easeInOutCirc. At 4.1 s their diameters are
    //   easeOutCirc(0.5) × 1280 = √0.75 × 1280 = 1108.51
    //   easeInOutCirc(0.5) × 1280 = 640
    //   easeInOutCirc(0.3) × 1280 = (1 − √(1 − 0.6²)) / 2 × 1280 = 128.
    let p = try Self.renderer("tomatomato-launch").render(at: 4.1, scale: 1)
    #expect(p.width == 1024 && p.height == 768)
    // Walk the diagonal from the centre, in quarter points, and note where
    // the colour changes (a pixel's centre decides).
    var changes: [(distance: Double, toWhite: Bool)] = []
    var wasWhite: Bool?
    for step in 0...(630 * 4) {
      let d = Double(step) / 4
      let x = Int(512 + d * 1024 / 1280), y = Int(384 + d * 768 / 1280)
      let pixel = p[x, y]
      let white = Self.isWhite(pixel)
      #expect(white || Self.isTomato(pixel) || (pixel.r > 180 && pixel.g > 40), "unexpected colour \(pixel) at \(d)")
      if let w = wasWhite, w != white, Self.isWhite(pixel) || Self.isTomato(pixel) { changes.append((d, white)) }
      if Self.isWhite(pixel) || Self.isTomato(pixel) { wasWhite = white }
    }
    #expect(changes.count == 3, "\(changes)")
    let expected = [(64.0, true), (320.0, false), (554.26, true)]
    for (found, want) in zip(changes, expected) {
      #expect(found.toWhite == want.1 && abs(found.distance - want.0) < 1.5, "edge at \(found.distance), expected \(want.0)")
    }
  }

  @Test func springBounceBallsFollowTheVectors() throws {
    // Each ball moves from x = 140 to 330 at 0.3 s with
    // spring(duration: 0.5, bounce: B); the vectors' values of the same
    // springs (independently integrated) at 0.1 s, 0.2 s and 0.3 s after the
    // start give x = 140 + 190 × value.
    let rows: [(y: Int, values: [Double])] = [
      (80, [0.29083, 0.5704, 0.74261]),  // bounce −0.3
      (138, [0.35774, 0.71542, 0.89003]),  // bounce 0
      (196, [0.3881, 0.78637, 0.95645]),  // bounce 0.15
      (254, [0.4233, 0.87371, 1.03393]),  // bounce 0.3
    ]
    let renderer = try Self.renderer("spring-bounce")
    for (i, t) in [0.4, 0.5, 0.6].enumerated() {
      let p = try renderer.render(at: t, scale: 2)
      for row in rows {
        // The ball's centre: the mean x of its saturated pixels on its middle
        // row, weighted by saturation (shadow, track and text are grey).
        var sum = 0.0, weight = 0.0
        for x in 200..<780 {
          let c = p[x, row.y * 2]
          let saturation = Double(max(c.r, c.g, c.b) - min(c.r, c.g, c.b))
          if saturation > 40 { sum += (Double(x) + 0.5) * saturation; weight += saturation }
        }
        let centre = sum / weight / 2
        let expected = 140 + 190 * row.values[i]
        #expect(abs(centre - expected) < 0.5, "at \(t) s, row \(row.y): ball at \(centre), expected \(expected)")
      }
    }
  }

  @Test func heroPhotoMovesAfterTheFirstFifth() throws {
    // The tap at 0.8 s: the list fades over 0.2 s (the first fifth of 1.0 s),
    // then the photo moves from the cell's (16, 168, 80 × 80) to the
    // header's (0, 64, 375 × 375) with easeInOut over the remaining 0.8 s.
    // Halfway, at 1.4 s, easeInOut(0.5) = 0.5: x 8 … 235.5, y 116 … 343.5.
    let renderer = try Self.renderer("hero-transition")
    let mid = try renderer.render(at: 1.4, scale: 1)
    #expect(Self.isWhite(mid[7, 230]) && !Self.isWhite(mid[8, 230]) && !Self.isWhite(mid[234, 230]) && Self.isWhite(mid[236, 230]))
    #expect(Self.isWhite(mid[120, 115]) && !Self.isWhite(mid[120, 116]) && !Self.isWhite(mid[120, 342]) && Self.isWhite(mid[120, 344]))
    // Still in the cell at 1.0 s, after the fade: the list is gone.
    let start = try renderer.render(at: 1.0, scale: 1)
    #expect(Self.isWhite(start[15, 208]) && !Self.isWhite(start[17, 208]) && !Self.isWhite(start[94, 208]) && Self.isWhite(start[97, 208]))
    #expect(Self.isWhite(start[200, 208]))
  }
}

extension DemoSceneTests {
  @Test(arguments: ["tomato", "photo"])
  func assetsAreTheRendersOfTheirSources(_ name: String) throws {
    let folder = Self.scenes.appendingPathComponent("assets")
    let file = folder.appendingPathComponent("src/\(name).json")
    let rendered = try SceneRenderer(
      decoding: [UInt8](Data(contentsOf: file)), file: file.path, directory: file.deletingLastPathComponent().path, defaultName: name
    ).render(at: 0)
    let committed = try PNG.read(path: folder.appendingPathComponent("\(name).png").path)
    #expect(rendered.width == committed.width && rendered.height == committed.height && rendered.bytes == committed.bytes)
  }
}

/// `render info`'s outline of a source (`SourceOutline`).
@Suite struct SourceOutlineTests {
  /// The heart pop states its duration (1.6 s) and writes its layers card,
  /// heart, caption in that order; each event's end is at or after its start.
  @Test func aScenesOutlineIsItsEventsAndLayers() throws {
    let renderer = try DemoSceneTests.renderer("heart-pop")
    let outline = try #require(renderer.outline)
    #expect(outline.durationGiven && renderer.duration == 1.6)
    #expect(Array(outline.layers.prefix(3).map(\.id)) == ["card", "heart", "caption"])
    #expect(!outline.events.isEmpty)
    for e in outline.events { #expect(e.end >= e.at && !e.changes.isEmpty) }
    #expect(outline.defaultDuration == outline.events.map(\.end).max())
    // Beside a chart, the scene's outline is unchanged.
    struct Nothing: FrameDecoration {
      var frame: (size: (width: Int, height: Int), scene: (x: Int, y: Int)) { ((480, 400), (0, 0)) }
      var background: PremultipliedColor? { nil }
      var showsFrameNumber: Bool { false }
      func drawUnder(_ list: Recording, time: Double, frame: Int) {}
      func drawOver(_ list: Recording, time: Double, frame: Int) {}
    }
    let decorated = DecoratedSource(renderer, decoration: Nothing(), scale: 2)
    let beside = try #require(decorated.outline)
    #expect(beside.events.map(\.at) == outline.events.map(\.at))
    #expect(beside.layers.count == outline.layers.count)
  }
}
