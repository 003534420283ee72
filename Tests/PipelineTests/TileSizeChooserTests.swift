import Raster
import Testing

@testable import Pipeline

/// The tile size a render draws in: large tiles while every tile is drawn
/// anew, small ones while tiles are reused; and the same pixels either way.
@Suite struct TileSizeChooserTests {
  /// A 1024 × 1024 frame in `size` tiles.
  func frame(_ size: Int) -> RenderedFrame {
    let n = (1024 / size) * (1024 / size)
    return RenderedFrame(pixmap: Pixmap(width: 1024, height: 1024), tileSize: size, tiles: Array(repeating: Digester().digest, count: n))
  }

  func drawn(_ indices: some Sequence<Int>) -> Set<Int> { Set(indices) }

  @Test func everythingMovingDrawsInLargeTilesAndStillnessInSmall() {
    let chooser = TileSizeChooser()
    let small = TileSizeChooser.small, large = TileSizeChooser.large
    #expect(small == TileRenderer.tileSize && large == 2 * small)
    #expect(chooser.size == small)
    // Every small tile drawn: large tiles would redraw nothing more.
    var frames = 0
    while chooser.size == small && frames < 100 {
      chooser.record(frame(small), drawn: drawn(0..<16), size: small)
      frames += 1
    }
    #expect(chooser.size == large)
    // Past the warm-up and the average's approach, not on the first frames.
    #expect(frames > TileSizeChooser.warmUpFrames + 3 && frames < 20, "\(frames) frames")
    // A frame begun in small tiles before the change is passed over.
    for _ in 0..<50 { chooser.record(frame(small), drawn: drawn([]), size: small) }
    #expect(chooser.size == large)
    // Everything still drawn in large tiles: they stay.
    for _ in 0..<50 { chooser.record(frame(large), drawn: drawn(0..<4), size: large) }
    #expect(chooser.size == large)
    // The picture stands still: back to small tiles, which the cache reuses.
    frames = 0
    while chooser.size == large && frames < 100 {
      chooser.record(frame(large), drawn: drawn([]), size: large)
      frames += 1
    }
    #expect(chooser.size == small && frames < 20, "\(frames) frames")
  }

  @Test func aSmallChangeInEachLargeTileKeepsSmallTiles() {
    // One small tile of each 2 × 2 block drawn: large tiles would draw
    // four times as much.
    let chooser = TileSizeChooser()
    let small = TileSizeChooser.small
    for _ in 0..<200 { chooser.record(frame(small), drawn: drawn([0, 2, 8, 10]), size: small) }
    #expect(chooser.size == small)
    // Two blocks drawn whole and two still: large tiles would draw no
    // more (the still blocks are reused in either size), so large tiles.
    let whole = TileSizeChooser()
    for _ in 0..<200 { whole.record(frame(small), drawn: drawn([0, 1, 4, 5, 10, 11, 14, 15]), size: small) }
    #expect(whole.size == TileSizeChooser.large)
  }
}
