import Primitives
import Testing

@Suite struct VectorTests {
  @Test func vector2Arithmetic() {
    let a = Vector2(1, 2), b = Vector2(3, -4)
    #expect(a + b == Vector2(4, -2))
    #expect(a - b == Vector2(-2, 6))
    #expect(b * 0.5 == Vector2(1.5, -2))
    #expect(Vector2.interpolate(a, b, 0.25) == Vector2(1.5, 0.5))
    #expect(a.components == [1, 2])
  }

  @Test func doubleIsAVector() {
    #expect(Double.interpolate(2, 4, 0.5) == 3)
    #expect((2.5).components == [2.5])
    #expect(!Double.nan.isFinite)
  }
}
