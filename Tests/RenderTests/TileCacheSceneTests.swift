import Foundation
import Raster
import Render
import Testing

/// Frames drawn through the shared tile cache, in any order, are the frames
/// drawn alone: what the cache holds never shows in the output.
@Suite struct TileCacheSceneTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test(arguments: ["Benchmarks/Scenes/dashboard-1080p.json", "scenes/hero-transition.json"])
  func cachedFramesEqualFramesRenderedAlone(_ path: String) throws {
    let file = Self.root.appendingPathComponent(path)
    let renderer = try SceneRenderer(
      decoding: [UInt8](Data(contentsOf: file)), file: file.path, directory: file.deletingLastPathComponent().path, defaultName: "scene")
    let scale = 0.5
    let times = [0.0, 0.1, 0.25, 0.26, 0.9, 1.6, 1.6, 2.9]
    let alone = try times.map { try renderer.renderFrame(at: $0, scale: scale, tileSize: 64) }
    let (w, h) = renderer.pixelSize(scale: scale)
    for order in [Array(times.indices), Array(times.indices.reversed())] {
      let cache = TileCache(width: w, height: h)
      for i in order {
        let cached = try renderer.renderFrame(at: times[i], scale: scale, cache: cache, tileSize: 64)
        #expect(cached.pixmap == alone[i].pixmap, "t = \(times[i])")
        #expect(cached.tiles == alone[i].tiles)
      }
      #expect(cache.bytesHeld.tiles > 0)
    }
    // Before the first event (0.2 s in the dashboard, 0.6 s in the hero
    // transition) nothing moves: the same tiles.
    #expect(alone[0].tiles == alone[1].tiles)
    #expect(alone[5].tiles == alone[6].tiles)
    // In motion, 10 ms apart, some tiles still stand still.
    let shared = zip(alone[2].tiles, alone[3].tiles).filter { $0 == $1 }.count
    #expect(shared >= alone[2].tiles.count / 4, "\(shared) of \(alone[2].tiles.count) tiles unchanged in 10 ms")
  }

  /// The tile size changes how a frame is drawn, never its pixels (the
  /// pipeline draws in 512 px tiles while everything moves): the 40-layer
  /// benchmark scene (gradients, strokes, translucent circles) in 256 and
  /// 512 px tiles, and in full-width bands (at scale 0.5, 480 × 270: one
  /// band of 480 × 546 for 512², bands 32 high, the least height, for 64²).
  @Test func largeTilesDrawTheSamePixels() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let file = root.appendingPathComponent("Benchmarks/Scenes/moving-40-1080p.json")
    let renderer = try SceneRenderer(
      decoding: [UInt8](Data(contentsOf: file)), file: file.path, directory: file.deletingLastPathComponent().path, defaultName: "scene")
    for t in [0.0, 1.3, 4.9] {
      let a = try renderer.renderFrame(at: t, scale: 0.5, tileSize: 256)
      let b = try renderer.renderFrame(at: t, scale: 0.5, tileSize: 512)
      #expect(a.grid.columns > b.grid.columns)
      #expect(a.pixmap == b.pixmap, "t = \(t)")
      #expect(a.width == 480 && a.height == 270)
      for (area, height) in [(512 * 512, 546), (64 * 64, 32)] {
        let bands = try renderer.renderFrame(at: t, scale: 0.5, tileSize: .bands(area: area))
        #expect(bands.grid.columns == 1 && bands.grid.rowEdges.dropLast().allSatisfy { $0 % height == 0 })
        #expect(bands.grid.rows == (270 + height - 1) / height)
        #expect(bands.pixmap == a.pixmap, "t = \(t), bands of \(area)")
      }
    }
  }
}
