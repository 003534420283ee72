import Primitives
import Testing

@testable import Raster

/// Where a frame is cut into tiles (`TileGrid`): edges worked out by hand.
@Suite struct TileGridTests {
  @Test func squareTilesWithoutSplits() {
    let g = TileGrid(width: 1920, height: 1080, size: 256)
    #expect(g.columnEdges == [0, 256, 512, 768, 1024, 1280, 1536, 1792, 1920])
    #expect(g.rowEdges == [0, 256, 512, 768, 1024, 1080])
    #expect(g.count == 8 * 5)
    #expect(g.rect(column: 7, row: 4) == PixelRect(x0: 1792, y0: 1024, x1: 1920, y1: 1080))
    #expect(g.rect(8 + 2) == PixelRect(x0: 512, y0: 256, x1: 768, y1: 512))
  }

  /// The app launch beside its chart: a 390 × 844 scene, a 720 × 1572 chart.
  @Test func aSplitStartsANewRunOfTiles() {
    let g = TileGrid(width: 1110, height: 1572, size: 256, splits: ([0, 390], [0, 844]))
    #expect(g.columnEdges == [0, 256, 390, 646, 902, 1110])
    #expect(g.rowEdges == [0, 256, 512, 768, 844, 1100, 1356, 1572])
  }

  /// Odd splits round down to even (tiles stay whole 4:2:0 blocks); splits
  /// on or past the frame's edges, and repeated ones, change nothing.
  @Test func splitsAreEvenAndWithinTheFrame() {
    let g = TileGrid(width: 301, height: 99, size: 64, splits: ([131, 131, 130, -5, 301, 400], [99, 0, 33]))
    #expect(g.columnEdges == [0, 64, 128, 130, 194, 258, 301])
    #expect(g.rowEdges == [0, 32, 96, 99])
    for k in 0..<g.count {
      let r = g.rect(k)
      #expect(r.x0 % 2 == 0 && r.y0 % 2 == 0 && r.width <= 64 && r.height <= 64 && r.width > 0 && r.height > 0)
    }
  }

  /// Bands: the frame's width across, each about `area` pixels (an even
  /// height, at least `minimumBandHeight`), cut where regions start.
  @Test func bandsSpanTheFrameAndKeepTheSplits() {
    // 1920 wide, 512² = 262,144 pixels: 262,144 / 1920 = 136.5, so 136.
    let g = TileGrid(width: 1920, height: 1080, layout: .bands(area: 512 * 512))
    #expect(g.columnEdges == [0, 1920])
    #expect(g.rowEdges == [0, 136, 272, 408, 544, 680, 816, 952, 1080])
    // An odd width: the band is the even width past it (the frame's edge
    // cuts it); 390 → 672 rows.
    #expect(TileLayout.bands(area: 512 * 512).tileSize(frameWidth: 389) == (390, 672))
    // The app launch beside its chart: the chart starts a column and a row.
    let split = TileGrid(width: 1110, height: 1572, layout: .bands(area: 512 * 512), splits: ([0, 390], [0, 844]))
    #expect(split.columnEdges == [0, 390, 1110])
    #expect(split.rowEdges == [0, 236, 472, 708, 844, 1080, 1316, 1552, 1572])
    // A frame 16,000 wide: 16 rows would be slivers, so 32.
    #expect(TileLayout.bands(area: 512 * 512).tileSize(frameWidth: 16000) == (16000, 32))
    #expect(TileLayout.squares(64).tileSize(frameWidth: 1920) == (64, 64))
  }
}
