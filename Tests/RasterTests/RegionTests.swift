import Primitives
import Testing

@testable import Raster

/// `Recording.pushRegion`: the same pixels as a clip to the rectangle, while
/// the drawing inside it stays item by item (so a blurred layer inside stays
/// a texture, and an opaque fill hides what lies beneath in a tile).
@Suite struct RegionTests {
  static let background = Color(red: 0.95, green: 0.95, blue: 0.97, alpha: 1).premultiplied
  /// A 60 × 50 region at (20, 30) of a 200 × 160 frame.
  static let region = PixelRect(x0: 20, y0: 30, x1: 80, y1: 80)

  /// Inside the region: an opaque card, a circle, a blurred glow; across its
  /// edge: a circle and a shadowed card.
  static func draw(into r: Recording) {
    r.fill(.rect(Rect(x: 20, y: 30, width: 60, height: 50)), paint: .color(.white))
    r.fill(.circle(in: Rect(x: 30.3, y: 40.7, width: 20, height: 20)), paint: .color(Color(red: 1, green: 0.2, blue: 0.1, alpha: 1)))
    r.beginLayer(bounds: Rect(x: 45, y: 45, width: 10, height: 10), opacity: 1, effects: LayerEffects(blur: 3))
    r.fill(.circle(in: Rect(x: 45, y: 45, width: 10, height: 10)), paint: .color(Color(red: 0, green: 0, blue: 1, alpha: 0.7)))
    r.endLayer()
    r.fill(.circle(in: Rect(x: 60.5, y: 60.25, width: 40, height: 40)), paint: .color(Color(red: 0, green: 0.6, blue: 0.2, alpha: 0.8)))
    r.beginLayer(
      bounds: Rect(x: 5, y: 35, width: 30, height: 20), opacity: 1,
      effects: LayerEffects(shadow: (Color(red: 0, green: 0, blue: 0, alpha: 0.5).premultiplied, 4, Vector2(0, 2))))
    r.fill(.roundedRect(Rect(x: 5, y: 35, width: 30, height: 20), cornerRadius: 5), paint: .color(.black))
    r.endLayer()
  }

  @Test func aRegionIsAClipToItsRectangle() {
    let clipped = Recording(width: 200, height: 160, background: Self.background)
    clipped.pushClip(.rect(Self.region.rect))
    Self.draw(into: clipped)
    clipped.popClip()
    let regioned = Recording(width: 200, height: 160, background: Self.background)
    regioned.pushRegion(Self.region)
    Self.draw(into: regioned)
    regioned.popRegion()
    // Nothing outside the region, whatever reached past it.
    let picture = TileRenderer.render(regioned, tileSize: 64).pixmap
    for y in 0..<160 {
      for x in 0..<200 where !(20..<80).contains(x) || !(30..<80).contains(y) {
        #expect(picture[x, y] == RGBA8(Self.background), "(\(x), \(y))")
      }
    }
    // Inside: the same pixels as one clip around it all, within a level
    // where the clip drew the glow and the shadow in the tiles instead of
    // as textures.
    let reference = TileRenderer.render(clipped, tileSize: 64).pixmap
    var worst = 0
    for i in 0..<picture.bytes.count { worst = max(worst, abs(Int(picture.bytes[i]) - Int(reference.bytes[i]))) }
    #expect(worst <= 1)
  }

  @Test func insideTheRegionItemsStayAsTheyAre() {
    let regioned = Recording(width: 200, height: 160, background: Self.background)
    regioned.pushRegion(Self.region)
    Self.draw(into: regioned)
    regioned.popRegion()
    // Each call its items, as without the region: the three inside as
    // drawn (the glow a texture), the green circle and the shadowed card
    // (its shadow a texture, its content apart) cut by the region.
    #expect(regioned.items.count == 6)
    #expect(regioned.items[0].ops.count == 1 && regioned.items[0].region == nil)
    guard case .texture = regioned.items[2].kind else {
      Issue.record("the blurred layer inside the region is not a texture")
      return
    }
    #expect(regioned.items[2].region == nil)
    guard case .texture = regioned.items[4].kind else {
      Issue.record("the shadow reaching past the region is not a texture")
      return
    }
    for i in 3..<6 {
      #expect(regioned.items[i].region == Self.region, "item \(i)")
      #expect(regioned.items[i].bounds.x0 >= 20 && regioned.items[i].bounds.x1 <= 80)
    }
    // Drawn without the region, the items inside give the same pixels there.
    let plain = Recording(width: 200, height: 160, background: Self.background)
    Self.draw(into: plain)
    let a = TileRenderer.render(regioned, tileSize: 64).pixmap, b = TileRenderer.render(plain, tileSize: 64).pixmap
    for y in 30..<58 { for x in 48..<58 { #expect(a[x, y] == b[x, y], "(\(x), \(y))") } }
  }

  /// The tiles start a column and a row at the region's edges (20 and 80
  /// across, 30 and 80 down, in tiles of 64), so no tile holds both the
  /// region and what lies beside it: a change inside the region leaves every
  /// tile outside it named as before, and the picture does not depend on
  /// where the tiles are cut.
  @Test func tilesAreCutAtTheRegionsEdges() {
    func recording(shift: Double) -> Recording {
      let r = Recording(width: 200, height: 160, background: Self.background)
      r.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 160)), paint: .color(Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 1)))
      r.fill(.circle(in: Rect(x: 120.5, y: 90.5, width: 50, height: 50)), paint: .color(.white))
      r.pushRegion(Self.region)
      r.fill(.circle(in: Rect(x: 30 + shift, y: 40.7, width: 20, height: 20)), paint: .color(Color(red: 1, green: 0.2, blue: 0.1, alpha: 1)))
      r.popRegion()
      return r
    }
    let a = TileRenderer.render(recording(shift: 0), tileSize: 64), b = TileRenderer.render(recording(shift: 13.25), tileSize: 64)
    #expect(a.grid.columnEdges == [0, 20, 80, 144, 200])
    #expect(a.grid.rowEdges == [0, 30, 80, 144, 160])
    var changed = 0
    for k in a.tiles.indices {
      let rect = a.grid.rect(k)
      if rect.intersection(Self.region).isEmpty {
        #expect(a.tiles[k] == b.tiles[k], "tile \(k) at \(rect) lies outside the region")
      } else if a.tiles[k] != b.tiles[k] {
        changed += 1
        #expect(rect == Self.region)
      }
    }
    #expect(changed == 1)
    // The same pixels as in square tiles (a frame drawn whole, one tile).
    let whole = TileRenderer.render(recording(shift: 13.25), tileSize: 256).pixmap
    #expect(b.pixmap.bytes == whole.bytes)
  }
}
