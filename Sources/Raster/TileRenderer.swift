import Primitives

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
  /// clipped and rasterized again) outweighs redrawing a larger area. A
  /// video whose frames are drawn anew almost whole is drawn in full-width
  /// bands of four such tiles' area (`TileLayout.bands`, chosen by
  /// Pipeline's `TileSizeChooser`).
  public static let tileSize = 256
  /// Squares of `tileSize`: the layout of a frame drawn alone, and of a
  /// video's frames while their tiles are reused.
  public static let squares = TileLayout.squares(tileSize)

  /// `drawn` sees each tile that is drawn (not taken from the cache) as soon
  /// as it is, while its pixels are still in the core's caches: a later
  /// stage (the RGB → YUV conversion) does its work on it then.
  public static func render(
    _ list: Recording, cache: TileCache? = nil, tileSize layout: TileLayout = squares, drawn: ((DrawnTile) -> Void)? = nil
  ) -> RenderedFrame {
    precondition(list.isBalanced, "unbalanced beginLayer/endLayer or pushClip/popClip")
    let grid = Self.grid(of: list, layout: layout)
    let columns = grid.columns, rows = grid.rows
    var digests: [Digest] = []
    digests.reserveCapacity(columns * rows)
    var tilePixels: [[UInt8]] = []
    tilePixels.reserveCapacity(columns * rows)
    let images = SharedImages(list, cache: cache)
    let items = list.items
    let background = RGBA8(list.background)
    var over: [Int] = []
    // One accumulation buffer for every tile (it is left zeroed after each
    // fill), kept from frame to frame.
    let accumulator = Accumulator.borrow()
    defer { Accumulator.giveBack(accumulator) }
    // The rectangles each item's first fill paints opaque whole, found when
    // first needed.
    var opaque: [Int: [Rect]] = [:]
    func opaqueRectangles(_ i: Int) -> [Rect] {
      if let known = opaque[i] { return known }
      let found = Self.opaqueRectangles(firstOpOf: items[i], of: list)
      opaque[i] = found
      return found
    }

    for row in 0..<rows {
      for column in 0..<columns {
        let tile = grid.rect(column: column, row: row)
        over.removeAll(keepingCapacity: true)
        for (i, item) in items.enumerated() where !item.bounds.intersection(tile).isEmpty { over.append(i) }
        // What lies under the topmost item that paints the whole tile opaque
        // is hidden: the tile is drawn from that item up, and named by what
        // it shows (a window grown over the home screen hides the icons
        // animating beneath it).
        let hiding = over.lastIndex { i in
          guard items[i].bounds.intersection(tile) == tile, items[i].ops.count == 1 else { return false }
          return opaqueRectangles(i).contains { PixelRect(inside: $0).intersection(tile) == tile }
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
              for i in under { images.draw(i, on: canvas, over: tile) }
              // Kept from its second frame on: a backdrop that changes
              // every frame (a gradient shifting under a glow) would cost
              // a copy of the tile (drawing on goes on in a buffer the
              // cache shares) and crowd out what is reused.
              if cache.admit(key) { cache.store(tile: canvas.pixmap.bytes, for: key) }
            }
            rest = over[first...]
          } else {
            (canvas, rest) = blank(over[...])
          }
          for (position, i) in zip(rest.indices, rest) {
            let item = items[i]
            // What the next item paints opaque first, over a texture, hides it.
            let next = position + 1 < rest.endIndex ? rest[position + 1] : nil
            let hidden =
              item.kind == .tiles
              ? nil
              : next.flatMap { n in
                opaqueRectangles(n).lazy.map { PixelRect(inside: $0).intersection(tile) }.max { $0.width * $0.height < $1.width * $1.height }
              }
            images.draw(i, on: canvas, over: tile, hidden: hidden)
          }
          pixels = canvas.pixmap.bytes
          if let cache, cache.admit(digest) { cache.store(tile: pixels, for: digest) }
          drawn?(DrawnTile(index: row * columns + column, grid: grid, digest: digest, pixels: pixels))
        }
        tilePixels.append(pixels)
      }
    }
    return RenderedFrame(grid: grid, tiles: digests, tilePixels: tilePixels)
  }

  /// The tiles of a recording's frame, laid out as `layout` says, with new
  /// columns and rows at the edges of its regions.
  static func grid(of list: Recording, layout: TileLayout) -> TileGrid {
    let regions = list.regionsPushed
    return TileGrid(
      width: list.frame.width, height: list.frame.height, layout: layout,
      splits: (regions.flatMap { [$0.x0, $0.x1] }, regions.flatMap { [$0.y0, $0.y1] }))
  }

  /// Rectangles the first op of `item` paints whole with an opaque paint:
  /// when it is a fill of an opaque colour or shader, drawn by the tiles,
  /// its shape an axis-aligned rectangle, or the inside of a straight-sided
  /// one between its corners (`StretchedTexture.interiors`: a card's, a
  /// window's); none otherwise. A pixel inside is covered whole, so it takes
  /// the paint's colour, whatever lay under it.
  static func opaqueRectangles(firstOpOf item: Recording.Item, of list: Recording) -> [Rect] {
    guard item.kind == .tiles, case .fill(let lines, _, let paint, _) = list.ops[item.ops.lowerBound], lines.count == 1 else { return [] }
    guard paint.isOpaque else { return [] }
    let rectangles = lines[0].axisAlignedRectangle.map { [$0] } ?? StretchedTexture.interiors(of: lines)
    // Cut by a region, it paints only within it.
    guard let region = item.region?.rect else { return rectangles }
    return rectangles.compactMap { r in
      let x0 = max(r.minX, region.minX), y0 = max(r.minY, region.minY), x1 = min(r.maxX, region.maxX), y1 = min(r.maxY, region.maxY)
      return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
  }

  /// The tile as `item` paints it, for an item that paints the whole tile
  /// opaque (one of its `opaqueRectangles` holds the tile): its pixels are
  /// the paint's (an opaque source under full coverage replaces what is
  /// beneath, as the compositor does), shaded row by row with no
  /// background and no rasterizing.
  static func paint(_ tile: PixelRect, as item: Recording.Item, of list: Recording) -> Pixmap {
    guard case .fill(_, _, let paint, _) = list.ops[item.ops.lowerBound] else { preconditionFailure("not a fill") }
    let (w, h) = (tile.width, tile.height)
    guard let shader = paint.rowShader else { return Pixmap(width: w, height: h, fill: RGBA8(paint.solidColor ?? .clear)) }
    return Pixmap(width: w, height: h, bytes: shader.shadedRows(x: tile.x0, y: tile.y0, width: w, height: h))
  }

  /// Where a moving texture's top-left pixel lands, in 1/16 px: its
  /// anchor plus its area's origin, to the nearest sixteenth.
  static func placement(_ anchor: Point, _ area: PixelRect) -> (x: Int, y: Int) {
    (Int(((anchor.x + Double(area.x0)) * 16).roundedToNearest), Int(((anchor.y + Double(area.y0)) * 16).roundedToNearest))
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
      Recording.digest(item, into: &d)
      // What its backdrops read beneath this tile.
      if !item.backdrops.isEmpty { d.add(reads(item, over: tile, in: list)) }
    }
    return d.digest
  }

  /// Backdrops are made in blocks of this many device pixels a side, on a
  /// grid fixed to the frame's top-left corner (a multiple of every
  /// reduction factor, so each block is whole small pixels): a block's
  /// pixels depend on what lies beneath it within the blur's reach, never
  /// on the tiles that ask for it, so a frame has the same bytes in any
  /// tile layout; and what moves beneath a still material redraws only the
  /// blocks within its reach.
  static let backdropBlock = 512

  /// The device pixels whose small pixels backdrop `b`'s image holds: its
  /// area and the k pixels around it that bilinear sampling reads.
  static func sampled(_ source: Recording.BackdropSource) -> PixelRect {
    let k = source.style.reduction
    return PixelRect(x0: source.area.x0 - k, y0: source.area.y0 - k, x1: source.area.x1 + k, y1: source.area.y1 + k)
  }

  /// The blocks of `backdropBlock` that meet `rect`, as the device pixels of
  /// each within `within`.
  static func blocks(meeting rect: PixelRect, within: PixelRect) -> [PixelRect] {
    let r = rect.intersection(within)
    guard !r.isEmpty else { return [] }
    let n = backdropBlock
    var out: [PixelRect] = []
    for by in floorDivide(r.y0, n)...floorDivide(r.y1 - 1, n) {
      for bx in floorDivide(r.x0, n)...floorDivide(r.x1 - 1, n) {
        out.append(PixelRect(x0: bx * n, y0: by * n, x1: (bx + 1) * n, y1: (by + 1) * n).intersection(within))
      }
    }
    return out
  }

  /// What decides backdrop `b`'s pixels within `rect`: its own digest,
  /// and, where it is in `rect`, the blocks its pixels there sample.
  static func beneathDigest(_ b: Int, for rect: PixelRect, in list: Recording) -> Digest {
    let source = list.backdrops[b]
    var d = Digester()
    d.add(source.digest)
    guard !rect.intersection(source.area).isEmpty else { return d.digest }
    let k = source.style.reduction
    let reach = PixelRect(x0: rect.x0 - k, y0: rect.y0 - k, x1: rect.x1 + k, y1: rect.y1 + k)
    for block in blocks(meeting: reach, within: sampled(source)) { d.add(blockDigest(b, block, in: list)) }
    return d.digest
  }

  /// What decides the pixels of backdrop `b`'s `block` (within its sampled
  /// pixels): its own digest, the block, and the items beneath whose
  /// pixels its blur reads there.
  static func blockDigest(_ b: Int, _ block: PixelRect, in list: Recording) -> Digest {
    let source = list.backdrops[b]
    var d = Digester()
    d.add(source.digest)
    d.add(block.x0); d.add(block.y0); d.add(block.x1); d.add(block.y1)
    let read = source.source(for: block)
    for i in 0..<source.below where !list.items[i].bounds.intersection(read).isEmpty {
      Recording.digest(list.items[i], into: &d)
      if !list.items[i].backdrops.isEmpty { d.add(reads(list.items[i], over: read, in: list)) }
    }
    // Backdrops its own item drew before it, over the same pixels.
    for case .backdrop(_, _, let earlier) in source.prefix { d.add(beneathDigest(earlier, for: read, in: list)) }
    return d.digest
  }

  /// What the backdrops of `item` read when it is drawn over `rect`: by
  /// the tiles, their parts in `rect`; as a texture, their parts in its
  /// whole bounds (the texture is drawn whole, then blurred or shadowed).
  static func reads(_ item: Recording.Item, over rect: PixelRect, in list: Recording) -> Digest {
    var d = Digester()
    let drawn = item.kind == .tiles ? rect : item.bounds
    for b in item.backdrops { d.add(beneathDigest(b, for: drawn, in: list)) }
    return d.digest
  }

  /// A layer with effects, drawn alone over transparency across its whole
  /// bounds in the frame (content within the blur's reach outside the frame
  /// still bleeds in), or, for a moving texture, across its whole area
  /// relative to its anchor: the image the tiles composite.
  static func texture(_ item: Recording.Item, of list: Recording, cache: TileCache?, backdrop: (Int) -> Paint?) -> Pixmap {
    let key = textureKey(item, of: list)
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
      canvas.replay(ops, backdrop: backdrop)
      texture = canvas.pixmap
    }
    cache?.store(texture: texture, for: key)
    return texture
  }

  /// What names a texture in the caches. A moving texture's area follows
  /// from its relative digest; a fixed one is drawn over its bounds, which
  /// the frame's size also decides.
  static func textureKey(_ item: Recording.Item, of list: Recording) -> Digest {
    var d = Digester()
    d.add(item.digest)
    if item.kind == .texture { d.add(item.bounds.x0); d.add(item.bounds.y0); d.add(item.bounds.x1); d.add(item.bounds.y1) }
    // A texture that paints backdrops reads what lies beneath its bounds.
    if !item.backdrops.isEmpty { d.add(reads(item, over: item.bounds, in: list)) }
    return d.digest
  }

  /// What a frame's tiles share, made once when first needed: its
  /// textures, and the images its backdrops paint.
  final class SharedImages {
    let list: Recording
    let cache: TileCache?
    private var textures: [Int: Pixmap] = [:]
    private var backdrops: [Int: Paint] = [:]

    init(_ list: Recording, cache: TileCache?) {
      self.list = list
      self.cache = cache
    }

    /// Item `i`'s texture.
    func texture(_ i: Int) -> Pixmap {
      if let t = textures[i] { return t }
      let bounds = list.items[i].bounds
      let t = TileRenderer.texture(list.items[i], of: list, cache: cache, backdrop: { self.backdrop($0, for: bounds) })
      textures[i] = t
      return t
    }

    /// Draws item `i` as the tiles do over `rect`: its ops (its backdrops'
    /// parts within `rect`), or its texture composited (leaving the pixels
    /// of `hidden` alone).
    func draw(_ i: Int, on canvas: Canvas, over rect: PixelRect, hidden: PixelRect? = nil) {
      let item = list.items[i]
      // Cut by a region that does not hold the tile: drawn as it is, then
      // the pixels outside the region put back.
      if let region = item.region, !Recording.contains(region, rect) {
        let saved = canvas.pixmap
        drawUncut(item, i, on: canvas, over: rect, hidden: hidden)
        canvas.restore(outside: region, from: saved)
        return
      }
      drawUncut(item, i, on: canvas, over: rect, hidden: hidden)
    }

    private func drawUncut(_ item: Recording.Item, _ i: Int, on canvas: Canvas, over rect: PixelRect, hidden: PixelRect?) {
      switch item.kind {
      case .tiles:
        canvas.replay(list.ops[item.ops], backdrop: { self.backdrop($0, for: rect) })
      case .movingTexture(let anchor, let area):
        let (qx, qy) = TileRenderer.placement(anchor, area)
        canvas.composite(texture(i), origin: (qx >> 4, qy >> 4), shift: (qx & 15, qy & 15), hidden: hidden)
      case .texture:
        canvas.composite(texture(i), origin: (item.bounds.x0, item.bounds.y0), hidden: hidden)
      }
    }

    /// Backdrop `b`'s paint where it meets the device pixels of `rect` (a
    /// tile), nil where its shape is not: what lies beneath it (the items
    /// before its own, then its own item's ops before it) and within the
    /// blur's reach around, on the frame's background, blurred, saturated
    /// and tinted.
    ///
    /// The image is made once per frame over the whole area, from blocks
    /// fixed in device space (`backdropBlock`), each made from what lies
    /// beneath it within the blur's reach (or taken from the cache), so
    /// every tile samples the same image and a frame's pixels are the same
    /// in any tile layout. From σ = 6 px on it is drawn k times smaller (k
    /// the largest power of two ≤ σ/3, so σ is at least 3 small pixels) on
    /// a grid aligned to multiples of k, blurred there, and sampled back up
    /// bilinearly: each small pixel averages a k × k box (variance k²/12
    /// per axis) and the enlargement is a tent (k²/6), so the small grid's
    /// blur makes up the rest of σ².
    func backdrop(_ b: Int, for rect: PixelRect) -> Paint? {
      let source = list.backdrops[b]
      guard !rect.intersection(source.area).isEmpty else { return nil }
      if let known = backdrops[b] { return known }
      let k = source.style.reduction
      let sampled = TileRenderer.sampled(source)
      let small = Self.small(sampled, k)
      var image = Pixmap(width: small.width, height: small.height)
      var d = Digester()
      for block in TileRenderer.blocks(meeting: sampled, within: sampled) {
        let blockDigest = TileRenderer.blockDigest(b, block, in: list)
        d.add(blockDigest)
        let part = Self.small(block, k)
        let pixels: Pixmap
        if let cached = cache?.texture(blockDigest) {
          pixels = cached
        } else {
          pixels = self.block(b, block, k: k)
          cache?.store(texture: pixels, for: blockDigest)
        }
        // In place in the whole image (blocks meet at multiples of k).
        image.paste(pixels, x: part.x0 - small.x0, y: part.y0 - small.y0)
      }
      let paint = Paint.magnifiedImage(MagnifiedImageShader(image: image, digest: d.digest, factor: k, origin: (small.x0 * k, small.y0 * k)))
      backdrops[b] = paint
      return paint
    }

    /// The small pixels (k times smaller) covering the device pixels of `rect`.
    static func small(_ rect: PixelRect, _ k: Int) -> PixelRect {
      PixelRect(x0: floorDivide(rect.x0, k), y0: floorDivide(rect.y0, k), x1: -floorDivide(-rect.x1, k), y1: -floorDivide(-rect.y1, k))
    }

    /// Backdrop `b`'s small pixels over `block`: what lies beneath within
    /// the blur's reach, drawn k times smaller, blurred, saturated and
    /// tinted, then cut to the block.
    private func block(_ b: Int, _ block: PixelRect, k: Int) -> Pixmap {
      let source = list.backdrops[b]
      // What the blur reads, on the small grid.
      let read = source.source(for: block)
      let region = Self.small(read, k)
      let canvas = Canvas(region: region, background: list.background)
      let s = 1 / Double(k)
      // Beyond the frame's edges: the background (as on a screen).
      let frame = list.frame
      canvas.pushClip(
        .rect(Rect(x: Double(frame.x0) * s, y: Double(frame.y0) * s, width: Double(frame.width) * s, height: Double(frame.height) * s)))
      for i in 0..<source.below where !list.items[i].bounds.intersection(read).isEmpty {
        if k == 1 { draw(i, on: canvas, over: read) } else { drawReduced(i, on: canvas, k: k, over: read) }
      }
      if k == 1 {
        canvas.replay(source.prefix, backdrop: { self.backdrop($0, for: read) })
      } else {
        canvas.replay(Recording.scaled(source.prefix, by: s), backdrop: { self.backdrop($0, for: read)?.scaled(by: s) })
      }
      canvas.popClip()
      let blurred = canvas.pixmap.blurred(sigma: source.style.smallSigma).saturated(source.style.saturation)
      // The block's part, tinted there on the small grid: drawing a colour
      // over an image commutes with sampling it bilinearly.
      let part = Self.small(block, k)
      let tinted = Canvas(blurred.cropped(to: part, origin: (region.x0, region.y0)), at: part)
      tinted.fill(.rect(part.rect), paint: .solid(source.style.tint))
      return tinted.pixmap
    }

    /// Item `i` drawn on a grid `k` times smaller than the device's: its
    /// ops scaled, or its texture reduced k times (box-filtered, cached)
    /// and composited at its scaled place.
    func drawReduced(_ i: Int, on canvas: Canvas, k: Int, over rect: PixelRect) {
      let item = list.items[i]
      let s = 1 / Double(k)
      let origin: (x: Double, y: Double)
      switch item.kind {
      case .tiles:
        canvas.replay(Recording.scaled(list.ops[item.ops], by: s), backdrop: { self.backdrop($0, for: rect)?.scaled(by: s) })
        return
      case .movingTexture(let anchor, let area):
        let (qx, qy) = TileRenderer.placement(anchor, area)
        origin = (Double(qx) / 16, Double(qy) / 16)
      case .texture:
        origin = (Double(item.bounds.x0), Double(item.bounds.y0))
      }
      var d = Digester()
      d.add(TileRenderer.textureKey(item, of: list))
      d.add(0x7265_6475_6365_64 as UInt64)
      d.add(k)
      let reduced: Pixmap
      if let cached = cache?.texture(d.digest) {
        reduced = cached
      } else {
        var levels = 1
        while 1 << (levels - 1) < k { levels += 1 }
        reduced = ImagePyramid(texture(i), levelCount: levels).levels.last!
        cache?.store(texture: reduced, for: d.digest)
      }
      // To the nearest small pixel (at most k/2 device pixels off, under a
      // blur of σ ≥ 8k: a shadow or glow moves by under 1/16 of its σ).
      canvas.composite(reduced, origin: (Int((origin.x * s).rounded()), Int((origin.y * s).rounded())))
    }

  }
}
