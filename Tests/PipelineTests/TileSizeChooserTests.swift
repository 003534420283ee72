import Raster
import Testing

@testable import Pipeline

/// The tile size a render draws in: large tiles while every tile is drawn
/// anew, small ones while tiles are reused; and the same pixels either way.
@Suite struct TileSizeChooserTests {
  /// A 1024 × 1024 frame in `layout`.
  func frame(_ layout: TileLayout) -> RenderedFrame {
    let grid = TileGrid(width: 1024, height: 1024, layout: layout)
    return RenderedFrame(pixmap: Pixmap(width: 1024, height: 1024), grid: grid, tiles: Array(repeating: Digester().digest, count: grid.count))
  }

  func drawn(_ indices: some Sequence<Int>) -> Set<Int> { Set(indices) }

  @Test func everythingMovingDrawsInLargeTilesAndStillnessInSmall() {
    let chooser = TileSizeChooser()
    let small = TileSizeChooser.small, large = TileSizeChooser.large
    // Small: squares of 256. Large: bands of four such squares' area,
    // here the frame's width by 256 (16 squares, then 4 bands).
    #expect(small == .squares(256) && TileRenderer.tileSize == 256)
    #expect(large.tileSize(frameWidth: 1024) == (1024, 256))
    #expect(frame(small).grid.count == 16 && frame(large).grid.count == 4)
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

  @Test func aSmallChangeInEachBandKeepsSmallTiles() {
    // Two small tiles of each row of four drawn: bands would draw twice
    // as much.
    let chooser = TileSizeChooser()
    let small = TileSizeChooser.small
    for _ in 0..<200 { chooser.record(frame(small), drawn: drawn([0, 2, 5, 7, 8, 10, 13, 15]), size: small) }
    #expect(chooser.size == small)
    // The same number of tiles as two rows drawn whole and two still:
    // bands would draw no more (the still rows are reused either way), so
    // bands.
    let whole = TileSizeChooser()
    for _ in 0..<200 { whole.record(frame(small), drawn: drawn(0..<8), size: small) }
    #expect(whole.size == TileSizeChooser.large)
    // Two 2 × 2 blocks drawn whole (top left, bottom right): their bands
    // hold as much still as drawn, so small tiles.
    let blocks = TileSizeChooser()
    for _ in 0..<200 { blocks.record(frame(small), drawn: drawn([0, 1, 4, 5, 10, 11, 14, 15]), size: small) }
    #expect(blocks.size == small)
  }
}
