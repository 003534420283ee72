import Primitives

/// How a frame is cut into tiles: the x of each column's left edge and the
/// y of each row's top edge, then the frame's width and height. Tiles are
/// `size` pixels square, except where a region's edge (a scene beside its
/// chart, the panels of a comparison) starts a new column or row, so that
/// no tile holds two regions: what changes in one then never redraws the
/// other. Every edge but the frame's last is even, so each tile is whole
/// 4:2:0 chroma blocks.
public struct TileGrid: Sendable, Hashable {
  public let columnEdges: [Int]
  public let rowEdges: [Int]

  /// Tiles of `size` (even) over `width × height`, with new columns and
  /// rows started at `splits` (rounded down to even; those outside the frame
  /// are ignored).
  public init(width: Int, height: Int, size: Int, splits: (x: [Int], y: [Int]) = ([], [])) {
    self.init(width: width, height: height, layout: .squares(size), splits: splits)
  }

  /// Tiles laid out as `layout` says over `width × height`, with new
  /// columns and rows started at `splits` (rounded down to even; those
  /// outside the frame are ignored).
  public init(width: Int, height: Int, layout: TileLayout, splits: (x: [Int], y: [Int]) = ([], [])) {
    let (tileWidth, tileHeight) = layout.tileSize(frameWidth: width)
    precondition(tileWidth > 0 && tileWidth % 2 == 0 && tileHeight > 0 && tileHeight % 2 == 0, "tiles of an even size")
    columnEdges = Self.edges(width, tileWidth, splits.x)
    rowEdges = Self.edges(height, tileHeight, splits.y)
  }

  static func edges(_ length: Int, _ size: Int, _ splits: [Int]) -> [Int] {
    let cuts = Set(splits.filter { $0 > 0 && $0 < length }.map { $0 & ~1 }.filter { $0 > 0 }).sorted()
    var edges = [0], k = 0
    while edges.last! < length {
      let x = edges.last!
      if k < cuts.count, cuts[k] <= x + size {
        edges.append(cuts[k])
        k += 1
      } else {
        edges.append(min(x + size, length))
      }
    }
    return edges
  }

  public var width: Int { columnEdges.last! }
  public var height: Int { rowEdges.last! }
  public var columns: Int { columnEdges.count - 1 }
  public var rows: Int { rowEdges.count - 1 }
  public var count: Int { columns * rows }

  /// The pixels of tile (column, row).
  public func rect(column: Int, row: Int) -> PixelRect {
    PixelRect(x0: columnEdges[column], y0: rowEdges[row], x1: columnEdges[column + 1], y1: rowEdges[row + 1])
  }

  /// The pixels of tile `index` (row-major).
  public func rect(_ index: Int) -> PixelRect { rect(column: index % columns, row: index / columns) }
}

/// The shape of a frame's tiles. The pixels are the same in any layout
/// (each tile is drawn on its own from what lies over it, and a backdrop
/// from blocks fixed in device space, `TileRenderer.backdropBlock`), so a
/// layout changes how fast a frame is drawn, never its bytes.
public enum TileLayout: Sendable, Hashable, ExpressibleByIntegerLiteral {
  /// Squares of this many pixels a side (even): a still part of the
  /// picture is reused in pieces this small.
  case squares(Int)
  /// Bands the frame's width across (cut where its regions are), each
  /// about `area` pixels: as many tiles as squares of that area, none
  /// cutting a shape left from right. When nearly every tile is drawn
  /// anew, a shape cut by a tile's left edge costs a second pass over its
  /// rows there (the part left of the tile still winds the pixels to its
  /// right), and bands save that. Measured with `render --null` against
  /// squares of 512 (scripts/bench-compare, 9 rounds): 0.87× the CPU on
  /// Benchmarks/Scenes/moving-40-1080p.json (bands of 1920 × 136).
  case bands(area: Int)

  /// The least height of a band (a frame this many pixels wide or more has
  /// bands this tall), so that a very wide frame is not cut into slivers.
  public static let minimumBandHeight = 32

  public init(integerLiteral side: Int) { self = .squares(side) }

  /// A tile's width and height (at most; the frame's edges and its regions
  /// cut some shorter) in a frame `frameWidth` pixels wide: even numbers.
  public func tileSize(frameWidth: Int) -> (width: Int, height: Int) {
    switch self {
    case .squares(let side): return (side, side)
    case .bands(let area):
      let width = max(2, (frameWidth + 1) & ~1)
      return (width, max(Self.minimumBandHeight, (area / width) & ~1))
    }
  }
}
