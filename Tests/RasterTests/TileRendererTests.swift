import Foundation
import Primitives
import Testing

@testable import Raster

/// A scene of things crossing tile seams (the tiles are 64 px): shapes, a
/// stroke, a gradient, a clipped group, a translucent group, a shadowed and
/// a blurred layer. `shift` moves the small circle only.
private func draw(into c: Recording, shift: Double = 0) {
  c.fill(.circle(in: Rect(x: 40.3, y: 20.7, width: 90, height: 90)), paint: .color(Color(red: 1, green: 0.2, blue: 0.1, alpha: 1)))
  c.fill(.circle(in: Rect(x: 150.25 + shift, y: 100, width: 20, height: 20)), paint: .color(Color(red: 0, green: 0, blue: 0.5, alpha: 0.8)))
  c.stroke(.rect(Rect(x: 10.5, y: 120.5, width: 180, height: 40)), style: StrokeStyle(width: 3), paint: .color(.black))
  c.fill(
    .rect(Rect(x: 0, y: 170, width: 200, height: 30)),
    paint: .linearGradient(
      LinearGradientShader(
        start: Point(0, 0), end: Point(200, 0),
        stops: [
          GradientStop(offset: 0, color: Color(red: 0, green: 0.5, blue: 1, alpha: 1).premultiplied),
          GradientStop(offset: 1, color: Color(red: 1, green: 0.5, blue: 0, alpha: 0.5).premultiplied),
        ])))
  c.pushClip(.roundedRect(Rect(x: 100, y: 10, width: 90, height: 70), cornerRadius: 12))
  c.fill(.rect(Rect(x: 90, y: 0, width: 60, height: 100)), paint: .color(Color(red: 0.2, green: 0.8, blue: 0.2, alpha: 1)))
  c.popClip()
  c.beginLayer(bounds: Rect(x: 60, y: 60, width: 80, height: 50), opacity: 0.5)
  c.fill(.rect(Rect(x: 60, y: 60, width: 80, height: 50)), paint: .color(.white))
  c.fill(.circle(in: Rect(x: 80, y: 65, width: 40, height: 40)), paint: .color(.black))
  c.endLayer()
  c.beginLayer(
    bounds: Rect(x: 20, y: 130, width: 60, height: 30), opacity: 1,
    effects: LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: 0.4).premultiplied, 6, Vector2(0, 3))))
  c.fill(.roundedRect(Rect(x: 20, y: 130, width: 60, height: 30), cornerRadius: 8), paint: .color(.white))
  c.endLayer()
  c.beginLayer(bounds: Rect(x: 120, y: 40, width: 50, height: 50), opacity: 1, effects: LayerEffects(blur: 20))
  c.fill(.circle(in: Rect(x: 120, y: 40, width: 50, height: 50)), paint: .color(Color(red: 1, green: 1, blue: 1, alpha: 0.6)))
  c.endLayer()
}

private func recording(shift: Double = 0) -> Recording {
  let r = Recording(width: 200, height: 200, background: Color(red: 0.95, green: 0.95, blue: 0.97, alpha: 1).premultiplied)
  draw(into: r, shift: shift)
  return r
}

@Suite struct TileRendererTests {
  @Test func tilesMatchDrawingTheWholeFrameAtOnce() {
    // The same calls on one Canvas over the whole frame. Tiles differ only
    // where sums are taken in another order: a coverage sum starting at a
    // tile's edge, a layer composited onto transparency before the frame.
    let canvas = Canvas(width: 200, height: 200, background: Color(red: 0.95, green: 0.95, blue: 0.97, alpha: 1).premultiplied)
    let whole = Recording(width: 200, height: 200)
    draw(into: whole)
    canvas.replay(whole.ops[...])
    let direct = canvas.pixmap
    let tiled = TileRenderer.render(recording(), tileSize: 64).pixmap
    var worst = 0, differing = 0
    for i in 0..<direct.bytes.count {
      let d = abs(Int(direct.bytes[i]) - Int(tiled.bytes[i]))
      worst = max(worst, d)
      if d > 0 { differing += 1 }
    }
    #expect(worst <= 2, "largest difference \(worst) levels")
    #expect(differing < direct.bytes.count / 100, "\(differing) channels differ")
  }

  @Test(arguments: [true, false])
  func aTileAnOpaqueRectangleCoversIsThatRectanglesPaint(gradient: Bool) throws {
    // A full-frame opaque fill (solid or gradient) under a shape: the tiles
    // it covers whole start from its paint instead of the background, with
    // the same bytes as a Canvas drawing the tile from the background;
    // tiles it covers in part (its edge at x = 150.5) are drawn as before.
    let paint: Paint =
      gradient
      ? .linearGradient(
        LinearGradientShader(
          start: Point(0, 0), end: Point(180, 60),
          stops: [
            GradientStop(offset: 0, color: Color(red: 0, green: 0.5, blue: 1, alpha: 1).premultiplied),
            GradientStop(offset: 1, color: Color(red: 1, green: 0.3, blue: 0.2, alpha: 1).premultiplied),
          ]))
      : .color(Color(red: 0.3, green: 0.6, blue: 0.2, alpha: 1))
    let background = Color(red: 0.95, green: 0.95, blue: 0.97, alpha: 1).premultiplied
    let r = Recording(width: 200, height: 130, background: background)
    r.fill(.rect(Rect(x: -3, y: -2, width: 153.5, height: 140)), paint: paint)
    r.fill(.circle(in: Rect(x: 30.3, y: 40.6, width: 70, height: 50)), paint: .color(Color(red: 1, green: 1, blue: 1, alpha: 0.7)))
    let tiled = TileRenderer.render(r, tileSize: 64)
    // Each tile as a Canvas over that tile alone draws it from the background.
    for row in 0..<tiled.rows {
      for column in 0..<tiled.columns {
        let rect = tiled.grid.rect(column: column, row: row)
        let alone = Canvas(region: rect, background: background)
        alone.replay(r.ops[...])
        let differing = zip(alone.pixmap.bytes, tiled.tilePixels[row * tiled.columns + column]).filter { $0 != $1 }.count
        #expect(differing == 0, "tile (\(column), \(row)): \(differing) bytes differ")
      }
    }
    let first = r.items[0]
    func covers(_ tile: PixelRect, _ item: Recording.Item) -> Bool {
      TileRenderer.opaqueRectangles(firstOpOf: item, of: r).contains { PixelRect(inside: $0).intersection(tile) == tile }
    }
    #expect(covers(tiled.grid.rect(column: 1, row: 1), first))
    #expect(!covers(tiled.grid.rect(column: 2, row: 1), first), "covered in part")
    #expect(TileRenderer.opaqueRectangles(firstOpOf: r.items[1], of: r).isEmpty, "not a rectangle, and translucent")
  }

  @Test func whatAnOpaqueShapeHidesDoesNotNameTheTile() throws {
    // A circle moving and a shadowed card, under a big opaque rounded
    // rectangle whose inside holds the 64-px tile (1, 1) whole: that tile
    // is drawn from the rectangle up, with the bytes of a Canvas drawing it
    // all, and what moves beneath does not change its digest.
    let background = Color(red: 0.95, green: 0.95, blue: 0.97, alpha: 1).premultiplied
    func frame(_ x: Double) -> Recording {
      let r = Recording(width: 200, height: 200, background: background)
      r.fill(.circle(in: Rect(x: x, y: 70, width: 40, height: 40)), paint: .color(Color(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)))
      Self.card(at: x + 10, y: 60, into: r)
      r.fill(
        .roundedRect(Rect(x: 20.3, y: 30.6, width: 170, height: 140), cornerRadius: 24),
        paint: .color(Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)))
      return r
    }
    let a = frame(60), b = frame(75.5)
    let ta = TileRenderer.render(a, tileSize: 64), tb = TileRenderer.render(b, tileSize: 64)
    #expect(ta.tiles[1 * ta.columns + 1] == tb.tiles[1 * tb.columns + 1], "hidden beneath")
    #expect(ta.tiles[0] != tb.tiles[0] || ta.tiles[1] != tb.tiles[1], "the circle shows outside the rectangle")
    #expect(TileRenderer.opaqueRectangles(firstOpOf: a.items.last!, of: a).count == 2)
    for (r, tiled) in [(a, ta), (b, tb)] {
      let alone = Canvas(region: tiled.grid.rect(column: 1, row: 1), background: background)
      alone.replay(r.ops[...])
      #expect(alone.pixmap.bytes == tiled.tilePixels[1 * tiled.columns + 1])
    }
    // A translucent rectangle hides nothing.
    let glass = Recording(width: 100, height: 100, background: background)
    glass.fill(.rect(Rect(x: 0, y: 0, width: 100, height: 100)), paint: .color(Color(red: 1, green: 1, blue: 1, alpha: 0.5)))
    #expect(TileRenderer.opaqueRectangles(firstOpOf: glass.items[0], of: glass).isEmpty)
  }

  @Test func axisAlignedRectanglesAreKnownFromTheirCorners() {
    let rect = Rect(x: 1.5, y: -2, width: 10, height: 4.25)
    #expect(Path.rect(rect).flattened(tolerance: 0.1, transform: .identity).first?.axisAlignedRectangle == rect)
    #expect(
      Polyline(points: [Point(0, 0), Point(0, 3), Point(2, 3), Point(2, 0), Point(0, 0)], isClosed: true).axisAlignedRectangle
        == Rect(x: 0, y: 0, width: 2, height: 3))
    #expect(Path.rect(rect).flattened(tolerance: 0.1, transform: .rotation(0.1)).first?.axisAlignedRectangle == nil)
    // A bow tie, and a back-and-forth line, on a rectangle's corners.
    #expect(Polyline(points: [Point(0, 0), Point(2, 3), Point(2, 0), Point(0, 3)], isClosed: true).axisAlignedRectangle == nil)
    #expect(Polyline(points: [Point(0, 0), Point(1, 0), Point(1, 1), Point(1, 0)], isClosed: true).axisAlignedRectangle == nil)
    // The clip's test is the same one (a back-and-forth line clips everything away).
    #expect(Canvas.rectangle([Polyline(points: [Point(0, 0), Point(1, 0), Point(1, 1), Point(1, 0)], isClosed: true)]) == nil)
    #expect(Canvas.rectangle(Path.rect(rect).flattened(tolerance: 0.1, transform: .identity)) == rect)
    // Corners in the other order, and a repeated corner that is not the first.
    #expect(
      Polyline(points: [Point(2, 0), Point(2, 3), Point(0, 3), Point(0, 0)], isClosed: true).axisAlignedRectangle
        == Rect(x: 0, y: 0, width: 2, height: 3))
    #expect(Polyline(points: [Point(0, 0), Point(0, 3), Point(2, 3), Point(2, 0), Point(2, 0)], isClosed: true).axisAlignedRectangle == nil)
  }

  @Test func theCacheNeverChangesTheBytes() {
    let alone = TileRenderer.render(recording(), tileSize: 64).pixmap
    let cache = TileCache(tileBytes: 1 << 22, textureBytes: 1 << 22)
    let first = TileRenderer.render(recording(), cache: cache, tileSize: 64)
    _ = TileRenderer.render(recording(shift: 7.5), cache: cache, tileSize: 64)
    let again = TileRenderer.render(recording(), cache: cache, tileSize: 64)
    #expect(first.pixmap == alone && again.pixmap == alone)
    #expect(first.tiles == again.tiles)
    #expect(cache.bytesHeld.tiles > 0 && cache.bytesHeld.textures > 0)
    // The cache is consulted: a tile planted under the first tile's digest shows.
    let planted = TileCache(tileBytes: 1 << 22, textureBytes: 1 << 22)
    planted.store(tile: [UInt8](repeating: 7, count: 64 * 64 * 4), for: first.tiles[0])
    let shown = TileRenderer.render(recording(), cache: planted, tileSize: 64).pixmap
    #expect(shown[0, 0] == RGBA8(r: 7, g: 7, b: 7, a: 7) && shown[64, 0] == alone[64, 0])
  }

  @Test func movingOneShapeChangesOnlyTheTilesUnderIt() {
    // The small circle covers pixels x 150…170, y 100…120: tile column 2
    // (x 128…191), row 1 (y 64…127); 20 px to the right it is still there.
    let before = TileRenderer.render(recording(), tileSize: 64)
    let after = TileRenderer.render(recording(shift: 20), tileSize: 64)
    #expect(before.columns == 4 && before.rows == 4)
    var changed: [Int] = []
    for i in 0..<before.tiles.count where before.tiles[i] != after.tiles[i] { changed.append(i) }
    #expect(changed == [1 * 4 + 2], "\(changed)")
    // Pixels outside the changed tiles are equal.
    for i in 0..<before.tiles.count where !changed.contains(i) {
      let r = before.grid.rect(column: i % 4, row: i / 4)
      for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { #expect(before.pixmap[x, y] == after.pixmap[x, y]) } }
    }
  }

  @Test func movesBelowTheRecordingPrecisionDoNotChangeTheDigests() {
    // Points are kept to 1/1024 px: a spring's last millionths of a pixel
    // leave the frame (and the cache's view of it) unchanged.
    #expect(TileRenderer.render(recording(shift: 1e-6), tileSize: 64).tiles == TileRenderer.render(recording(), tileSize: 64).tiles)
    #expect(TileRenderer.render(recording(shift: 1.0 / 512), tileSize: 64).tiles != TileRenderer.render(recording(), tileSize: 64).tiles)
  }

  @Test func theDigestCacheStaysWithinItsBudgetAndKeepsWhatIsInUse() {
    let cache = DigestCache<[UInt8]>(budget: 1000)
    func key(_ i: Int) -> Digest {
      var d = Digester()
      d.add(i)
      return d.digest
    }
    for i in 0..<500 {
      cache.store([UInt8(i & 255)], bytes: 10, for: key(i))
      // Entry 0 is looked up after every store: it is never dropped.
      #expect(cache.value(for: key(0)) == [0])
      #expect(cache.bytes <= 1000)
    }
    #expect(cache.value(for: key(499)) == [UInt8(499 & 255)])
    #expect(cache.value(for: key(1)) == nil)
    // Too large for the cache: not kept.
    cache.store([1], bytes: 251, for: key(1000))
    #expect(cache.value(for: key(1000)) == nil)
  }

  // MARK: Moving textures

  /// A white card with a shadow of σ = 10 px whose top-left corner is at `x`.
  static func card(at x: Double, y: Double = 40.25, into r: Recording) {
    let shape = Path.roundedRect(Rect(x: 0, y: 0, width: 60, height: 40), cornerRadius: 8)
    let place = AffineTransform.translation(x, y)
    r.beginLayer(
      bounds: place.apply(Rect(x: 0, y: 0, width: 60, height: 40)), opacity: 1,
      effects: LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: 0.3).premultiplied, 10, Vector2(0, 4))))
    r.fill(shape, transform: place, paint: .color(.white))
    r.endLayer()
  }

  static func cardFrame(at x: Double) -> Recording {
    let r = Recording(width: 200, height: 120, background: Color(red: 0.9, green: 0.9, blue: 0.95, alpha: 1).premultiplied)
    card(at: x, into: r)
    return r
  }

  @Test func aShadowedLayerIsItsShadowThenItsContent() throws {
    let r = Self.cardFrame(at: 30.5)
    #expect(r.items.count == 2)
    guard case .movingTexture = r.items[0].kind else { Issue.record("the shadow is not a moving texture"); return }
    #expect(r.items[1].kind == .tiles)
  }

  @Test func aMovedShadowIsTheSameTexture() throws {
    let a = Self.cardFrame(at: 30.5), b = Self.cardFrame(at: 97.8125)
    #expect(a.items[0].digest == b.items[0].digest)
    #expect(a.items[1].digest != b.items[1].digest, "the content is drawn where it is")
    guard case .movingTexture(let anchorA, let areaA) = a.items[0].kind, case .movingTexture(let anchorB, let areaB) = b.items[0].kind else {
      Issue.record("not moving textures"); return
    }
    #expect(areaA == areaB && anchorB.x - anchorA.x == 97.8125 - 30.5 && anchorA.y == anchorB.y)
    // Drawn through one cache, the second frame blurs nothing: its texture is the first's.
    let cache = TileCache(tileBytes: 1 << 22, textureBytes: 1 << 22)
    _ = TileRenderer.render(a, cache: cache)
    let held = cache.bytesHeld.textures
    _ = TileRenderer.render(b, cache: cache)
    #expect(cache.bytesHeld.textures == held)
  }

  @Test(arguments: [30.0, 30.5, 30.8125, 61.03125])
  func aMovingShadowMatchesDrawingItInPlace(x: Double) {
    // Against one Canvas drawing the layer where it is (its shadow blurred
    // at that very place): the texture, placed to 1/16 px and shifted
    // bilinearly, is within two levels.
    let canvas = Canvas(width: 200, height: 120, background: Color(red: 0.9, green: 0.9, blue: 0.95, alpha: 1).premultiplied)
    let shape = Path.roundedRect(Rect(x: 0, y: 0, width: 60, height: 40), cornerRadius: 8)
    let place = AffineTransform.translation(x, 40.25)
    canvas.beginLayer(
      bounds: place.apply(Rect(x: 0, y: 0, width: 60, height: 40)), opacity: 1,
      effects: LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: 0.3).premultiplied, 10, Vector2(0, 4))))
    canvas.fill(shape, transform: place, paint: .color(.white))
    canvas.endLayer()
    let direct = canvas.pixmap
    let tiled = TileRenderer.render(Self.cardFrame(at: x)).pixmap
    let worst = zip(direct.bytes, tiled.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    #expect(worst <= 2, "x = \(x): \(worst) levels")
  }

  /// A card of `height` px with a shadow of σ = `sigma`, as a recording.
  static func shadowedCard(height: Double, sigma: Double, shadowAlpha: Double = 0.5) -> Recording {
    let r = Recording(width: 240, height: 200, background: Color(red: 0.9, green: 0.9, blue: 0.95, alpha: 1).premultiplied)
    let place = AffineTransform.translation(70.25, 50.5)
    r.beginLayer(
      bounds: place.apply(Rect(x: 0, y: 0, width: 100, height: height)), opacity: 1,
      effects: LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: shadowAlpha).premultiplied, sigma, Vector2(0, 3))))
    r.fill(Path.roundedRect(Rect(x: 0, y: 0, width: 100, height: height), cornerRadius: 12), transform: place, paint: .color(.white))
    r.endLayer()
    return r
  }

  @Test func aBlurredTextureKeepsItsPointsToAGridOfItsBlur() {
    // The largest power of two ≤ σ / 800, between 1/1024 and 1/16 px.
    #expect(Recording.grid(blurredBy: 8) == 1.0 / 128)
    #expect(Recording.grid(blurredBy: 20) == 1.0 / 64)
    #expect(Recording.grid(blurredBy: 16) == 1.0 / 64)
    #expect(Recording.grid(blurredBy: 1) == 1.0 / 1024)
    #expect(Recording.grid(blurredBy: 0) == 1.0 / 1024)
    #expect(Recording.grid(blurredBy: 1e5) == 1.0 / 16)
    // The shadow's points lie on that grid; the card itself stays at 1/1024 px.
    let card = Self.shadowedCard(height: 80.3, sigma: 20)
    func points(_ ops: some Collection<Recording.Op>) -> [Point] {
      ops.flatMap { op -> [Point] in
        if case .fill(let lines, _, _, _) = op { return lines.flatMap(\.points) }
        return []
      }
    }
    guard case .movingTexture(let anchor, _) = card.items[0].kind,
      let relative = Recording.relative(card.ops[card.items[0].ops], to: anchor)
    else { Issue.record("the shadow is not a moving texture"); return }
    let shadow = points(relative), content = points(card.ops[card.items[1].ops])
    #expect(!shadow.isEmpty && shadow.allSatisfy { ($0.x * 64).rounded() == $0.x * 64 && ($0.y * 64).rounded() == $0.y * 64 })
    #expect(content.allSatisfy { ($0.x * 1024).rounded() == $0.x * 1024 && ($0.y * 1024).rounded() == $0.y * 1024 })
    #expect(!content.allSatisfy { ($0.y * 64).rounded() == $0.y * 64 })
    // A spring's last creep (the card's height converging on 80) changes the
    // card's pixels for more frames than its shadow's.
    var shadows = Set<Digest>(), contents = Set<Digest>()
    for k in 0..<40 {
      let r = Self.shadowedCard(height: 80 + 0.5 * pow(0.7, Double(k)), sigma: 20)
      shadows.insert(r.items[0].digest)
      contents.insert(r.items[1].digest)
    }
    #expect(shadows.count + 4 < contents.count, "\(shadows.count) shadows, \(contents.count) contents")
  }

  @Test(arguments: [8.0, 20.0, 40.0])
  func halfTheBlursGridChangesNoPixelBeyondRounding(sigma: Double) {
    // The grid's bound, checked on shadows drawn in place by one Canvas
    // from the card's recorded calls (its points at 1/1024 px, finer than
    // half the grid), an opaque shadow the worst case: a card's edge moved
    // by half the grid changes the shadow by under 1/2000 of full coverage,
    // so no byte by more than one level.
    func draw(_ height: Double) -> Pixmap {
      let card = Self.shadowedCard(height: height, sigma: sigma, shadowAlpha: 1)
      let canvas = Canvas(width: 240, height: 200, background: card.background)
      canvas.replay(card.ops[card.items[0].ops])
      return canvas.pixmap
    }
    let g = Recording.grid(blurredBy: sigma)
    let worst = zip(draw(80).bytes, draw(80 + g / 2).bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    #expect(worst <= 1, "σ = \(sigma): \(worst) levels")
  }

  /// The texture of a shadowed, translucent layer holding `shape` (as the
  /// tiles draw it: relative to its anchor when it can move), drawn whole
  /// and drawn by `StretchedTexture` (nil when it would not cut it).
  static func texture(of shape: Path, sigma: Double, blur: Double = 0) throws -> (whole: Pixmap, stretched: Pixmap?, cut: Int) {
    let effects = LayerEffects(blur: blur, shadow: (Color(red: 0, green: 0, blue: 0.2, alpha: 0.6).premultiplied, sigma, Vector2(1.5, 6.25)))
    let place = AffineTransform.translation(60.375, 50.8125)
    let r = Recording(width: 720, height: 600, background: Color(red: 0.9, green: 0.9, blue: 0.95, alpha: 1).premultiplied)
    r.beginLayer(bounds: place.apply(shape.bounds), opacity: 0.9, effects: effects)
    r.fill(shape, transform: place, paint: .color(Color(red: 1, green: 0.5, blue: 0.25, alpha: 1)))
    r.endLayer()
    let item = try #require(r.items.first { $0.kind != .tiles })
    let ops: [Recording.Op], region: PixelRect
    if case .movingTexture(let anchor, let area) = item.kind {
      (ops, region) = (try #require(Recording.relative(r.ops[item.ops], to: anchor)), area)
    } else {
      (ops, region) = (Array(r.ops[item.ops]), item.bounds)
    }
    let canvas = Canvas(region: region)
    canvas.replay(ops)
    let lines = ops.flatMap { op -> [Polyline] in if case .fill(let l, _, _, _) = op { return l } else { return [] } }
    let cut = [(true, region.x0..<region.x1), (false, region.y0..<region.y1)].reduce(0) {
      $0 + (StretchedTexture.cut(lines, margin: effects.reach + 2, alongX: $1.0, within: $1.1)?.length ?? 0)
    }
    return (canvas.pixmap, StretchedTexture.draw(ops, over: region), cut)
  }

  @Test(arguments: [(10.0, 0.0), (20.0, 0.0), (40.0, 0.0), (10.0, 16.0)])
  func aCardsTextureDrawnNarrowAndStretchedIsItsTexture(sigma: Double, blur: Double) throws {
    // A 480 × 400 card: its shadow (and blur) drawn with a band cut out and
    // stretched back equals them drawn whole, to a level (the reduced
    // blurs sample the narrow layer at another phase).
    let card = Path.roundedRect(Rect(x: 0, y: 0, width: 480, height: 400), cornerRadius: 28)
    let (whole, stretched, cut) = try Self.texture(of: card, sigma: sigma, blur: blur)
    #expect(cut > 150, "σ = \(sigma): \(cut) px cut")
    let drawn = try #require(stretched)
    #expect(drawn.width == whole.width && drawn.height == whole.height)
    let worst = zip(whole.bytes, drawn.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    #expect(worst <= 1, "σ = \(sigma), blur \(blur): \(worst) levels")
  }

  @Test func onlyBandsCrossedByEdgesAlongThemAreCut() throws {
    // A capsule's straight sides run along x: cut along x only.
    let capsule = Path.capsule(in: Rect(x: 0, y: 0, width: 400, height: 120)).flattened(tolerance: 0.025, transform: .identity)
    #expect(StretchedTexture.cut(capsule, margin: 20, alongX: true, within: -100..<600) != nil)
    #expect(StretchedTexture.cut(capsule, margin: 20, alongX: false, within: -100..<600) == nil)
    // A circle, and a rectangle turned by 10°, have no such band.
    let circle = Path.circle(in: Rect(x: 0, y: 0, width: 400, height: 400)).flattened(tolerance: 0.025, transform: .identity)
    #expect(StretchedTexture.cut(circle, margin: 20, alongX: true, within: -100..<600) == nil)
    let turned = Path.rect(Rect(x: 0, y: 0, width: 400, height: 300)).flattened(tolerance: 0.025, transform: .rotation(10 * .pi / 180))
    #expect(StretchedTexture.cut(turned, margin: 20, alongX: true, within: -600..<600) == nil)
    #expect(try Self.texture(of: .circle(in: Rect(x: 0, y: 0, width: 400, height: 400)), sigma: 12).stretched == nil)
    // The capsule's glow, cut and stretched, is its glow.
    let (whole, stretched, _) = try Self.texture(of: .capsule(in: Rect(x: 0, y: 0, width: 400, height: 120)), sigma: 12)
    let drawn = try #require(stretched)
    #expect(zip(whole.bytes, drawn.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) } <= 1)
  }

  @Test func theShiftedCompositeIsTheBilinearBlend() {
    // A 7 × 5 image (colour ≤ alpha) moved by (5/16, 11/16) px onto
    // transparency: each output is Σ weight × pixel over the four it
    // overlaps, weights (16 − fx or fx) × (16 − fy or fy), rounded once.
    var state: UInt64 = 9
    var image = Pixmap(width: 7, height: 5)
    for y in 0..<5 {
      for x in 0..<7 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let a = UInt8(truncatingIfNeeded: state >> 56)
        let c = { UInt8(Int(UInt8(truncatingIfNeeded: state >> 40)) * Int(a) / 255) }
        image[x, y] = RGBA8(r: c(), g: UInt8(Int(a) / 2), b: c(), a: a)
      }
    }
    var target = Pixmap(width: 12, height: 9)
    Compositor.blendShiftedImage(image, origin: (2, 3), shift: (5, 11), into: &target, targetOrigin: (0, 0))
    func at(_ i: Int, _ j: Int) -> RGBA8 { i >= 0 && i < 7 && j >= 0 && j < 5 ? image[i, j] : .transparent }
    for y in 0..<9 {
      for x in 0..<12 {
        let i = x - 2, j = y - 3
        // Weights: (16 − 5)(16 − 11), 5 (16 − 11), (16 − 5) 11, 5 × 11; they sum to 256.
        let taps = [(at(i, j), 11 * 5), (at(i - 1, j), 5 * 5), (at(i, j - 1), 11 * 11), (at(i - 1, j - 1), 5 * 11)]
        func channel(_ k: KeyPath<RGBA8, UInt8>) -> UInt8 { UInt8((taps.reduce(0) { $0 + Int($1.0[keyPath: k]) * $1.1 } + 128) >> 8) }
        #expect(target[x, y] == RGBA8(r: channel(\.r), g: channel(\.g), b: channel(\.b), a: channel(\.a)), "(\(x), \(y))")
      }
    }
  }

  @Test(arguments: [(1.0, true), (0.5, true), (1, false), (0.5, false)])
  func haloesInsideAShadowedLayerAreNotCutAtTheTiles(opacity: Double, blur: Bool) {
    // A shadowed group (drawn as its shadow, then its content by the tiles),
    // opaque or fading, holding a blurred or shadowed circle whose halo
    // reaches past the group's bounds (70…110 on each axis): the halo is
    // drawn whole, as a canvas does with bounds that hold it (40…140).
    func draw(_ c: Canvas?, _ r: Recording?) {
      let card = Path.roundedRect(Rect(x: 70, y: 70, width: 40, height: 40), cornerRadius: 6)
      let shadow = LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: 0.3).premultiplied, 3, Vector2(0, 2)))
      let glow = Path.circle(in: Rect(x: 80, y: 90, width: 20, height: 20))
      let inner = blur ? LayerEffects(blur: 9) : LayerEffects(shadow: (Color(red: 0, green: 0, blue: 1, alpha: 1).premultiplied, 5, Vector2(0, 6)))
      c?.beginLayer(bounds: Rect(x: 40, y: 40, width: 100, height: 100), opacity: opacity, effects: shadow)
      r?.beginLayer(bounds: Rect(x: 70, y: 70, width: 40, height: 40), opacity: opacity, effects: shadow)
      c?.fill(card, paint: .color(.white)); r?.fill(card, paint: .color(.white))
      c?.beginLayer(bounds: Rect(x: 80, y: 90, width: 20, height: 20), opacity: 1, effects: inner)
      r?.beginLayer(bounds: Rect(x: 80, y: 90, width: 20, height: 20), opacity: 1, effects: inner)
      c?.fill(glow, paint: .color(Color(red: 1, green: 0, blue: 0, alpha: 1)));
      r?.fill(glow, paint: .color(Color(red: 1, green: 0, blue: 0, alpha: 1)))
      c?.endLayer(); r?.endLayer()
      c?.endLayer(); r?.endLayer()
    }
    let canvas = Canvas(width: 180, height: 180, background: Color.white.premultiplied)
    draw(canvas, nil)
    let recording = Recording(width: 180, height: 180, background: Color.white.premultiplied)
    draw(nil, recording)
    let tiled = TileRenderer.render(recording, tileSize: 64).pixmap
    let worst = zip(canvas.pixmap.bytes, tiled.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    #expect(worst <= 2, "opacity \(opacity), \(blur ? "blur" : "shadow") inside: \(worst) levels")
  }
}
