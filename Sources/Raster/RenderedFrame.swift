import Primitives
import Synchronization

/// A rendered frame as tiles: each tile's pixels (shared with the tile
/// cache, not copied) and the digest of what it shows. Equal digests mean
/// equal pixels, so later stages (the RGB → YUV conversion) can reuse their
/// work tile by tile, and a stage that needs no whole picture never pays
/// for assembling one.
public struct RenderedFrame: Sendable {
  /// The tile grid: row-major from the top left.
  public let grid: TileGrid
  public var width: Int { grid.width }
  public var height: Int { grid.height }
  public var columns: Int { grid.columns }
  public var rows: Int { grid.rows }
  public let tiles: [Digest]
  /// Premultiplied RGBA8 of each tile, rows packed at the tile's width.
  public let tilePixels: [[UInt8]]
  /// The frames this one shows side by side, left to right, when it is
  /// made of several (a pair compared frame by frame), each as it was
  /// rendered alone; empty otherwise.
  public var parts: [RenderedFrame] = []

  public init(grid: TileGrid, tiles: [Digest], tilePixels: [[UInt8]]) {
    self.grid = grid
    precondition(tiles.count == grid.count && tilePixels.count == tiles.count, "one digest and one tile per tile")
    self.tiles = tiles; self.tilePixels = tilePixels
  }

  /// A picture cut into tiles with the given digests.
  public init(pixmap: Pixmap, grid: TileGrid, tiles: [Digest]) {
    precondition(grid.width == pixmap.width && grid.height == pixmap.height, "a grid of the picture's size")
    var pixels: [[UInt8]] = []
    for r in 0..<grid.rows {
      for c in 0..<grid.columns {
        pixels.append(pixmap.cropped(to: grid.rect(column: c, row: r)).bytes)
      }
    }
    self.init(grid: grid, tiles: tiles, tilePixels: pixels)
  }

  /// A picture cut into tiles laid out as `tileSize` says, with the given digests.
  public init(pixmap: Pixmap, tileSize: TileLayout, tiles: [Digest]) {
    self.init(pixmap: pixmap, grid: TileGrid(width: pixmap.width, height: pixmap.height, layout: tileSize), tiles: tiles)
  }

  /// The whole picture, assembled from the tiles on first use (a GIF and a
  /// PNG sequence of one render share it).
  public var pixmap: Pixmap {
    assembled.pixmap.withLock { p in
      if p == nil { p = assemble() }
      return p!
    }
  }

  private final class Assembled: Sendable {
    let pixmap = Mutex<Pixmap?>(nil)
  }
  private let assembled = Assembled()

  /// Safe twin of `assemble()` (RenderedFrame+Unsafe.swift): the picture
  /// pixel by pixel from the tiles.
  func referenceAssembled() -> Pixmap {
    var picture = Pixmap(width: width, height: height)
    for row in 0..<rows {
      for column in 0..<columns {
        let tile = grid.rect(column: column, row: row), pixels = tilePixels[row * columns + column]
        for y in 0..<tile.height {
          for x in 0..<tile.width {
            let i = 4 * (y * tile.width + x)
            picture[tile.x0 + x, tile.y0 + y] = RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
          }
        }
      }
    }
    return picture
  }
}

/// A tile just drawn: which of the frame's tiles it is (row-major in its
/// grid), what it shows, where, and its pixels
/// (premultiplied RGBA8, rows packed at the tile's width).
public struct DrawnTile: Sendable {
  public let index: Int
  public let grid: TileGrid
  public let digest: Digest
  public let pixels: [UInt8]
  public var rect: PixelRect { grid.rect(index) }
  public init(index: Int, grid: TileGrid, digest: Digest, pixels: [UInt8]) {
    self.index = index; self.grid = grid; self.digest = digest; self.pixels = pixels
  }
}
