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

  private func assemble() -> Pixmap {
    let (w, h) = (width, height)
    let bytes = [UInt8](unsafeUninitializedCapacity: 4 * w * h) { frame, n in
      for row in 0..<rows {
        for column in 0..<columns {
          let tile = tileRect(column: column, row: row)
          let tw = tile.width
          tilePixels[row * columns + column].withUnsafeBufferPointer { src in
            for y in 0..<tile.height {
              (frame.baseAddress! + 4 * ((tile.y0 + y) * w + tile.x0)).initialize(from: src.baseAddress! + 4 * y * tw, count: 4 * tw)
            }
          }
        }
      }
      n = 4 * w * h
    }
    return Pixmap(width: w, height: h, bytes: bytes)
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

/// Draws a `Recording` tile by tile: each tile is drawn on its own from
/// the items over it, so its pixels are a function of those items alone, and
/// a tile whose items are unchanged is copied from the cache instead.
///
/// Every frame is drawn this way, cached or not, so the bytes never depend
/// on what happens to be in the cache (or on which thread filled it): a
/// frame rendered alone, as `render still` does, equals the same frame in
/// the middle of a video. In UI motion most of the picture stands still from
/// one frame to the next; only the tiles under what moves are drawn again.
public enum TileRenderer {
  /// Tile edge in pixels (even, so a tile is whole 4:2:0 chroma blocks).
  /// Measured on the benchmark scenes (scripts/bench-pipeline), 256 beats
  /// 128 and 64: the fixed cost of drawing a tile (every call over it is
  /// clipped and rasterized again) outweighs redrawing a larger area.
  public static let tileSize = 256

  /// `drawn` sees each tile that is drawn (not taken from the cache) as soon
  /// as it is, while its pixels are still in the core's caches: a later
  /// stage (the RGB → YUV conversion) does its work on it then.
  public static func render(
    _ list: Recording, cache: TileCache? = nil, tileSize size: Int = tileSize, drawn: ((DrawnTile) -> Void)? = nil
  ) -> RenderedFrame {
    precondition(list.isBalanced, "unbalanced beginLayer/endLayer or pushClip/popClip")
    precondition(size > 0 && size % 2 == 0, "tiles of an even size")
    let w = list.frame.width, h = list.frame.height
    let columns = (w + size - 1) / size, rows = (h + size - 1) / size
    var digests: [Digest] = []
    digests.reserveCapacity(columns * rows)
    var tilePixels: [[UInt8]] = []
    tilePixels.reserveCapacity(columns * rows)
    var textures: [Int: Pixmap] = [:]
    let items = list.items
    let background = RGBA8(list.background)
    var over: [Int] = []
    // One accumulation buffer for every tile (it is left zeroed after each fill).
    let accumulator = Accumulator()
    // The rectangles each item paints opaque whole, found when first needed.
    var opaque: [Int: [Rect]] = [:]

    for row in 0..<rows {
      for column in 0..<columns {
        let tile = PixelRect(x0: column * size, y0: row * size, x1: min((column + 1) * size, w), y1: min((row + 1) * size, h))
        over.removeAll(keepingCapacity: true)
        for (i, item) in items.enumerated() where !item.bounds.intersection(tile).isEmpty { over.append(i) }
        // What lies under the topmost item that paints the whole tile opaque
        // is hidden: the tile is drawn from that item up, and named by what
        // it shows (a window grown over the home screen hides the icons
        // animating beneath it).
        let hiding = over.lastIndex { i in
          guard items[i].bounds.intersection(tile) == tile else { return false }
          if opaque[i] == nil { opaque[i] = Self.opaqueRectangles(items[i], of: list) }
          return opaque[i]!.contains { PixelRect(inside: $0).intersection(tile) == tile }
        }
        if let hiding { over.removeFirst(hiding) }
        let digest = Self.digest(of: tile, items: over[...], in: list)
        digests.append(digest)

        let pixels: [UInt8]
        if let cached = cache?.tile(digest) {
          pixels = cached
        } else {
          // The backdrop (what lies under the first texture) may be cached
          // on its own: a glow drifting over still content then redraws
          // only itself. It is the tile as drawn without what follows, so
          // it shares that tile's digest.
          // What the tile starts from: the item that paints it whole, in
          // its paint, or else the background.
          let blank = { (items: ArraySlice<Int>) -> (Canvas, ArraySlice<Int>) in
            if hiding != nil, let i = items.first {
              return (Canvas(Self.paint(tile, as: list.items[i], of: list), at: tile, accumulator: accumulator), items.dropFirst())
            }
            return (Canvas(Pixmap(width: tile.width, height: tile.height, fill: background), at: tile, accumulator: accumulator), items)
          }
          let canvas: Canvas
          var rest = over[...]
          if let cache, let first = over.firstIndex(where: { items[$0].kind != .tiles }), first > 0 {
            let key = Self.digest(of: tile, items: over[..<first], in: list)
            if let backdrop = cache.tile(key) {
              canvas = Canvas(Pixmap(width: tile.width, height: tile.height, bytes: backdrop), at: tile, accumulator: accumulator)
            } else {
              let (base, under) = blank(over[..<first])
              canvas = base
              for i in under { canvas.replay(list.ops[items[i].ops]) }
              // Kept from its second frame on: a backdrop that changes
              // every frame (a gradient shifting under a glow) would cost
              // a copy of the tile (drawing on goes on in a buffer the
              // cache shares) and crowd out what is reused.
              if cache.admitBackdrop(key) { cache.store(tile: canvas.pixmap.bytes, for: key) }
            }
            rest = over[first...]
          } else {
            (canvas, rest) = blank(over[...])
          }
          for i in rest {
            let item = items[i]
            if item.kind == .tiles {
              canvas.replay(list.ops[item.ops])
              continue
            }
            let texture: Pixmap
            if let t = textures[i] {
              texture = t
            } else {
              texture = Self.texture(item, of: list, cache: cache)
              textures[i] = texture
            }
            switch item.kind {
            case .movingTexture(let anchor, let area):
              let (qx, qy) = Self.placement(anchor, area)
              canvas.composite(texture, origin: (qx >> 4, qy >> 4), shift: (qx & 15, qy & 15))
            default:
              canvas.composite(texture, origin: (item.bounds.x0, item.bounds.y0))
            }
          }
          pixels = canvas.pixmap.bytes
          cache?.store(tile: pixels, for: digest)
          drawn?(DrawnTile(index: row * columns + column, tileSize: size, columns: columns, rows: rows, digest: digest, rect: tile, pixels: pixels))
        }
        tilePixels.append(pixels)
      }
    }
    return RenderedFrame(width: w, height: h, tileSize: size, tiles: digests, tilePixels: tilePixels)
  }

  /// Rectangles `item` paints whole with an opaque paint: when it is one
  /// fill of an opaque colour or shader, its shape an axis-aligned
  /// rectangle, or the inside of a straight-sided one between its corners
  /// (`StretchedTexture.interiors`: a card's, a window's); none otherwise.
  /// A pixel inside is covered whole, so it takes the paint's colour.
  static func opaqueRectangles(_ item: Recording.Item, of list: Recording) -> [Rect] {
    guard item.kind == .tiles, item.ops.count == 1, case .fill(let lines, _, let paint, _) = list.ops[item.ops.lowerBound],
      lines.count == 1
    else { return [] }
    switch paint {
    case .solid(let c) where RGBA8(c).a == 255: break
    case .shader(let shader) where shader.isOpaque: break
    default: return []
    }
    if let box = lines[0].axisAlignedRectangle { return [box] }
    return StretchedTexture.interiors(of: lines)
  }

  /// The tile as `item` paints it, for an item that paints the whole tile
  /// opaque (one of its `opaqueRectangles` holds the tile): its pixels are
  /// the paint's (an opaque source under full coverage replaces what is
  /// beneath, as the compositor does), shaded row by row with no
  /// background and no rasterizing.
  static func paint(_ tile: PixelRect, as item: Recording.Item, of list: Recording) -> Pixmap {
    guard case .fill(_, _, let paint, _) = list.ops[item.ops.lowerBound] else { preconditionFailure("not a fill") }
    let (w, h) = (tile.width, tile.height)
    switch paint {
    case .solid(let c):
      return Pixmap(width: w, height: h, fill: RGBA8(c))
    case .shader(let shader):
      let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4 * w)
      defer { scratch.deallocate() }
      let bytes = [UInt8](unsafeUninitializedCapacity: 4 * w * h) { out, n in
        for y in 0..<h { shader.shade8(x: tile.x0, y: tile.y0 + y, count: w, into: out.baseAddress! + 4 * w * y, scratch: scratch) }
        n = 4 * w * h
      }
      return Pixmap(width: w, height: h, bytes: bytes)
    }
  }

  /// Where a moving texture's top-left pixel lands, in 1/16 px: its
  /// anchor plus its area's origin, to the nearest sixteenth.
  static func placement(_ anchor: Point, _ area: PixelRect) -> (x: Int, y: Int) {
    (Int(((anchor.x + Double(area.x0)) * 16).rounded()), Int(((anchor.y + Double(area.y0)) * 16).rounded()))
  }

  /// What a tile shows: the frame's size, the tile, the background and the
  /// items over it (their digests and how they are drawn).
  static func digest(of tile: PixelRect, items over: ArraySlice<Int>, in list: Recording) -> Digest {
    var d = Digester()
    d.add(list.frame.width); d.add(list.frame.height); d.add(tile.x0); d.add(tile.y0); d.add(tile.x1); d.add(tile.y1)
    let background = RGBA8(list.background)
    d.add(UInt64(background.r) | UInt64(background.g) << 8 | UInt64(background.b) << 16 | UInt64(background.a) << 24)
    for i in over {
      let item = list.items[i]
      d.add(item.digest)
      switch item.kind {
      case .tiles: d.add(0)
      case .texture: d.add(1)
      case .movingTexture(let anchor, let area):
        // The relative digest, and where it lands (as drawn: a spring's
        // last creep below 1/32 px changes nothing).
        let (qx, qy) = placement(anchor, area)
        d.add(2); d.add(qx); d.add(qy)
      }
    }
    return d.digest
  }

  /// A layer with effects, drawn alone over transparency across its whole
  /// bounds in the frame (content within the blur's reach outside the frame
  /// still bleeds in), or, for a moving texture, across its whole area
  /// relative to its anchor: the image the tiles composite.
  static func texture(_ item: Recording.Item, of list: Recording, cache: TileCache?) -> Pixmap {
    // A moving texture's area follows from its relative digest; a fixed
    // one is drawn over its bounds, which the frame's size also decides.
    var d = Digester()
    d.add(item.digest)
    if item.kind == .texture { d.add(item.bounds.x0); d.add(item.bounds.y0); d.add(item.bounds.x1); d.add(item.bounds.y1) }
    let key = d.digest
    if let cached = cache?.texture(key) { return cached }
    let ops: [Recording.Op], region: PixelRect
    if case .movingTexture(let anchor, let area) = item.kind {
      (ops, region) = (Recording.relative(list.ops[item.ops], to: anchor)!, area)
    } else {
      (ops, region) = (Array(list.ops[item.ops]), item.bounds)
    }
    let texture: Pixmap
    if let stretched = StretchedTexture.draw(ops, over: region) {
      texture = stretched
    } else {
      let canvas = Canvas(region: region)
      canvas.replay(ops)
      texture = canvas.pixmap
    }
    cache?.store(texture: texture, for: key)
    return texture
  }
}

/// Values keyed by digest, shared between threads, in two generations: a
/// value is stored in the young one, and one found in the old one moves to
/// the young one; when the young one fills half the budget it becomes the
/// old one and the old one is dropped. What was used in the last half
/// budget's worth of stores stays; memory never exceeds the budget, however
/// long the render; every operation is O(1) under a short lock.
///
/// A cached value must be a function of its key alone: what the cache holds
/// then changes how fast a frame is made, never its bytes.
public final class DigestCache<Value: Sendable>: Sendable {
  struct Generation {
    var entries: [Digest: (value: Value, bytes: Int)] = [:]
    var bytes = 0
  }
  struct Store {
    var young = Generation()
    var old = Generation()
  }
  private let store = Mutex(Store())
  /// The most bytes held: each generation holds at most half (a value
  /// larger than a quarter of the budget is not kept).
  public let budget: Int

  public init(budget: Int) { self.budget = budget }

  public func value(for key: Digest) -> Value? {
    let (value, dropped): (Value?, Generation?) = store.withLock { s in
      if let e = s.young.entries[key] { return (e.value, nil) }
      guard let e = s.old.entries.removeValue(forKey: key) else { return (nil, nil) }
      s.old.bytes -= e.bytes
      return (e.value, Self.insert(e, for: key, into: &s, half: budget / 2))
    }
    _ = dropped
    return value
  }

  public func store(_ value: Value, bytes n: Int, for key: Digest) {
    guard n <= budget / 4 else { return }
    // A dropped generation is released after the lock.
    let dropped: Generation? = store.withLock { s in
      guard s.young.entries[key] == nil, s.old.entries[key] == nil else { return nil }
      return Self.insert((value, n), for: key, into: &s, half: budget / 2)
    }
    _ = dropped
  }

  /// Puts an entry in the young generation, first making it the old one
  /// (and returning the old one, to drop) if the entry would not fit.
  private static func insert(_ e: (value: Value, bytes: Int), for key: Digest, into s: inout Store, half: Int) -> Generation? {
    var old: Generation?
    if s.young.bytes + e.bytes > half {
      old = s.old
      s.old = s.young
      s.young = Generation()
    }
    s.young.entries[key] = e
    s.young.bytes += e.bytes
    return old
  }

  /// Bytes held now.
  public var bytes: Int { store.withLock { $0.young.bytes + $0.old.bytes } }
}

/// Tiles and effect textures from earlier frames, shared by the threads
/// rendering a video.
public final class TileCache: Sendable {
  let tiles: DigestCache<[UInt8]>
  let textures: DigestCache<Pixmap>

  /// Budgets in bytes for tiles and for effect textures.
  public init(tileBytes: Int, textureBytes: Int) {
    tiles = DigestCache(budget: tileBytes)
    textures = DigestCache(budget: textureBytes)
  }

  /// Budgets for frames of `width × height`: four frames of tiles, four
  /// of textures (so a texture as large as the frame is still kept).
  public convenience init(width: Int, height: Int) {
    let frame = 4 * width * height
    self.init(tileBytes: max(4 * frame, 1 << 22), textureBytes: max(4 * frame, 1 << 22))
  }

  func tile(_ key: Digest) -> [UInt8]? { tiles.value(for: key) }

  /// Backdrops drawn recently and not kept (at most `doorkeeperLimit`;
  /// past it the set starts afresh).
  private let doorkeeper = Mutex(Set<Digest>())
  static let doorkeeperLimit = 4096

  /// True when the backdrop `key` was drawn before and should now be kept;
  /// otherwise remembers it. (What the cache keeps decides speed only.)
  func admitBackdrop(_ key: Digest) -> Bool {
    doorkeeper.withLock { seen in
      if seen.remove(key) != nil { return true }
      if seen.count >= Self.doorkeeperLimit { seen.removeAll(keepingCapacity: true) }
      seen.insert(key)
      return false
    }
  }
  func store(tile: [UInt8], for key: Digest) { tiles.store(tile, bytes: tile.count, for: key) }
  func texture(_ key: Digest) -> Pixmap? { textures.value(for: key) }
  func store(texture: Pixmap, for key: Digest) { textures.store(texture, bytes: texture.bytes.count, for: key) }

  /// Bytes held (tiles, textures).
  public var bytesHeld: (tiles: Int, textures: Int) { (tiles.bytes, textures.bytes) }
}
