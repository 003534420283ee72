import Primitives
import Raster
import Testing

@Suite struct PixmapTests {
  @Test func fillAndSubscript() {
    var p = Pixmap(width: 3, height: 2, fill: RGBA8(r: 10, g: 20, b: 30, a: 40))
    #expect(p.bytes.count == 24 && p[2, 1] == RGBA8(r: 10, g: 20, b: 30, a: 40))
    p[1, 0] = .transparent
    #expect(p.bytes[4..<8].allSatisfy { $0 == 0 })
  }

  @Test func coloursPremultiply() {
    let c = Color(hex: "#FF000080")!
    #expect(RGBA8(c.premultiplied) == RGBA8(r: 128, g: 0, b: 0, a: 128))
    #expect(Color(hex: "#F00") == Color(r8: 255, g8: 0, b8: 0))
    #expect(Color(hex: "#12345") == nil && Color(hex: "red") == nil)
  }

  /// A crop holds the pixels of its rectangle (in the pixmap's own
  /// coordinates, shifted by an origin); pasting the crops of a partition
  /// back into a blank pixmap gives the picture again.
  @Test func cropAndPasteRoundTrip() {
    var p = Pixmap(width: 7, height: 5)
    for y in 0..<5 { for x in 0..<7 { p[x, y] = RGBA8(r: UInt8(x), g: UInt8(y), b: UInt8(x * y), a: 255) } }
    let crop = p.cropped(to: PixelRect(x0: 12, y0: 21, x1: 15, y1: 23), origin: (10, 20))
    #expect(crop.width == 3 && crop.height == 2)
    #expect(crop[0, 0] == p[2, 1] && crop[2, 1] == p[4, 2])
    var back = Pixmap(width: 7, height: 5)
    for rect in [PixelRect(x0: 0, y0: 0, x1: 4, y1: 3), PixelRect(x0: 4, y0: 0, x1: 7, y1: 3), PixelRect(x0: 0, y0: 3, x1: 7, y1: 5)] {
      back.paste(p.cropped(to: rect), x: rect.x0, y: rect.y0)
    }
    #expect(back == p)
  }
}
