import Raster
import Synchronization

/// The tile layout a render's frames are drawn in, from how much of each
/// frame is drawn again: squares of `TileRenderer.tileSize` while tiles are
/// reused from frame to frame; full-width bands of four such squares' area
/// while nearly every tile is drawn anew (everything moves), where a tile's
/// fixed cost (each call over it clipped and rasterized again) buys no
/// reuse, and a band cuts no shape left from right. The pixels are the same
/// in any layout (a material's backdrop too: it is made in blocks fixed in
/// device space, `TileRenderer.backdropBlock`), so the choice, which depends
/// on the order the workers finish frames in, changes how fast a frame is
/// drawn, never its bytes.
///
/// Measured on two cores (scripts/bench-compare, against 256 px always):
/// the 40-layer moving scene 1.14–1.21× the frames/s, the app launch
/// 1.10–1.13×; the dashboard and the hero transition unchanged, whose still
/// parts 256 px tiles reuse (drawn in 512 px tiles always they ran at
/// 0.87× and 0.84×). Bands in place of those 512 px squares: the moving
/// scene 0.87× the CPU again (`TileLayout.bands`).
final class TileSizeChooser: Sendable {
  static let small = TileRenderer.squares
  static let large = TileLayout.bands(area: 4 * TileRenderer.tileSize * TileRenderer.tileSize)
  /// Small tiles give way to large ones when drawing in large tiles would
  /// redraw less than this share of what the small ones draw (the rows of
  /// tiles not drawn in a band with one that is), averaged over recent
  /// frames; large tiles give way to small ones when less than this share
  /// of the frame is drawn. A tenth: on Benchmarks/Scenes/moving-40-1080p.json
  /// a still strip 56 px tall shares the last band with what moves, 5.5% of
  /// the drawing, and bands still draw its frames in 0.87× the CPU. (Bands
  /// are counted the frame's width across: a region's edge, which cuts
  /// them, is not; an estimate, which changes speed only.)
  static let enlargeBelowWaste = 0.1
  static let shrinkBelowShare = 0.9
  /// The weight of the newest frame in the averages.
  static let weight = 0.25
  /// The averages' starting values, and after a change (a new grid is
  /// drawn whole at first, as the cache holds only the old grid's tiles).
  static let neutralWaste = 0.5, neutralShare = 1.0

  private struct State {
    var size = TileSizeChooser.small
    /// The averaged waste (small tiles) or drawn share (large tiles).
    var measure = TileSizeChooser.neutralWaste
    /// Frames still to pass over: the first frames in a new grid are
    /// drawn whole (their tiles are not cached yet), which says nothing of
    /// the scene.
    var warmUp = TileSizeChooser.warmUpFrames
  }
  static let warmUpFrames = 3
  private let state = Mutex(State())

  /// The layout to draw the next frame in.
  var size: TileLayout { state.withLock { $0.size } }

  /// Notes which tiles of `frame` (drawn in `size`) were drawn anew.
  func record(_ frame: RenderedFrame, drawn: Set<Int>, size: TileLayout) {
    let grid = frame.grid
    guard grid.count > 0 else { return }
    // In small tiles, what large ones would redraw needlessly as well: the
    // rows of tiles not drawn that share a band with a tile drawn.
    let band = Self.large.tileSize(frameWidth: grid.width).height
    /// The bands a tile's rows fall in (none for an empty tile).
    func bands(_ r: PixelRect) -> ClosedRange<Int>? { r.isEmpty ? nil : (r.y0 / band)...((r.y1 - 1) / band) }
    let busy = size == Self.small ? Set(drawn.compactMap { bands(grid.rect($0)) }.joined()) : []
    var drawnArea = 0, totalArea = 0, wastedArea = 0
    for i in 0..<grid.count {
      let r = grid.rect(i)
      let area = r.width * r.height
      totalArea += area
      if drawn.contains(i) {
        drawnArea += area
      } else if !busy.isEmpty, let rows = bands(r) {
        for b in rows where busy.contains(b) { wastedArea += r.width * (min(r.y1, (b + 1) * band) - max(r.y0, b * band)) }
      }
    }
    state.withLock { s in
      // A frame started before the last change says nothing about the new size.
      guard size == s.size else { return }
      if s.warmUp > 0 {
        s.warmUp -= 1
        return
      }
      if size == Self.small {
        // Share of the drawing that large tiles would add.
        let waste = drawnArea > 0 ? Double(wastedArea) / Double(drawnArea) : 1
        s.measure += Self.weight * (waste - s.measure)
        if s.measure < Self.enlargeBelowWaste { s = State(size: Self.large, measure: Self.neutralShare) }
      } else {
        let share = Double(drawnArea) / Double(totalArea)
        s.measure += Self.weight * (share - s.measure)
        if s.measure < Self.shrinkBelowShare { s = State(size: Self.small, measure: Self.neutralWaste) }
      }
    }
  }
}
