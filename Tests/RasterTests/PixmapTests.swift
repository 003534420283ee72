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
}
