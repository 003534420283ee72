import Primitives
import Synchronization

/// A rendered frame as tiles: each tile's pixels (shared with the tile
/// cache, not copied) and the digest of what it shows. Equal digests mean
/// equal pixels, so later stages (the RGB → YUV conversion) can reuse their
/// work tile by tile, and a stage that needs no whole picture never pays
/// for assembling one.
public struct RenderedFrame: Sendable {
  public let width: Int
  public let height: Int
  /// The tile grid: tiles of `tileSize` pixels, row-major from the top left
  /// (the last column and row may be smaller).
  public let tileSize: Int
  public let columns: Int
  public let rows: Int
  public let tiles: [Digest]
  /// Premultiplied RGBA8 of each tile, rows packed at the tile's width.
  public let tilePixels: [[UInt8]]
  /// The frames this one shows side by side, left to right, when it is
  /// made of several (a pair compared frame by frame), each as it was
  /// rendered alone; empty otherwise.
  public var parts: [RenderedFrame] = []

  public init(width: Int, height: Int, tileSize: Int, tiles: [Digest], tilePixels: [[UInt8]]) {
    self.width = width; self.height = height; self.tileSize = tileSize
    columns = (width + tileSize - 1) / tileSize
    rows = (height + tileSize - 1) / tileSize
    precondition(tiles.count == columns * rows && tilePixels.count == tiles.count, "one digest and one tile per tile")
    self.tiles = tiles; self.tilePixels = tilePixels
  }

  /// A picture cut into tiles with the given digests.
  public init(pixmap: Pixmap, tileSize: Int, tiles: [Digest]) {
    let columns = (pixmap.width + tileSize - 1) / tileSize, rows = (pixmap.height + tileSize - 1) / tileSize
    var pixels: [[UInt8]] = []
    for r in 0..<rows {
      for c in 0..<columns {
        let x0 = c * tileSize, y0 = r * tileSize
        let tw = min(tileSize, pixmap.width - x0), th = min(tileSize, pixmap.height - y0)
        var tile = [UInt8](repeating: 0, count: 4 * tw * th)
        for y in 0..<th {
          let from = 4 * ((y0 + y) * pixmap.width + x0)
          tile.replaceSubrange((4 * y * tw)..<(4 * (y + 1) * tw), with: pixmap.bytes[from..<(from + 4 * tw)])
        }
        pixels.append(tile)
      }
    }
    self.init(width: pixmap.width, height: pixmap.height, tileSize: tileSize, tiles: tiles, tilePixels: pixels)
  }

  /// The pixels of tile (column, row).
  public func tileRect(column: Int, row: Int) -> PixelRect {
    PixelRect(x0: column * tileSize, y0: row * tileSize, x1: min((column + 1) * tileSize, width), y1: min((row + 1) * tileSize, height))
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
        let tile = tileRect(column: column, row: row), pixels = tilePixels[row * columns + column]
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

/// A tile just drawn: which of the frame's `columns × rows` tiles of
/// `tileSize` pixels it is (row-major), what it shows, where, and its pixels
/// (premultiplied RGBA8, rows packed at the tile's width).
public struct DrawnTile: Sendable {
  public let index: Int
  public let tileSize: Int, columns: Int, rows: Int
  public let digest: Digest
  public let rect: PixelRect
  public let pixels: [UInt8]
  public init(index: Int, tileSize: Int, columns: Int, rows: Int, digest: Digest, rect: PixelRect, pixels: [UInt8]) {
    self.index = index; self.tileSize = tileSize; self.columns = columns; self.rows = rows
    self.digest = digest; self.rect = rect; self.pixels = pixels
  }
}
