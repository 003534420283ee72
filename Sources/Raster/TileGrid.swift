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
    precondition(size > 0 && size % 2 == 0, "tiles of an even size")
    columnEdges = Self.edges(width, size, splits.x)
    rowEdges = Self.edges(height, size, splits.y)
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
