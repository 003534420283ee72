import GIFOutput
import Primitives
import TestSupport
import Testing

@Suite struct LZWTests {
  func roundTrip(_ data: [UInt8], minCodeSize: Int) throws -> (decoded: [UInt8], clears: Int, encoded: Int) {
    let stream = GIFLZW.encode(data, minCodeSize: minCodeSize)
    var clears = 0
    let decoded = try lzwDecode(stream, minCodeSize: minCodeSize, clearCodes: &clears)
    return (decoded, clears, stream.count)
  }

  @Test func randomBytesAcrossManyTableResets() throws {
    var random = SplitMix64(seed: 1)
    let data = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let r = try roundTrip(data, minCodeSize: 8)
    #expect(r.decoded == data)
    #expect(r.clears > 10)  // > 4096 codes: the table filled and was reset many times
  }

  /// Every length up to 1,200 (the end code falls at every code-size
  /// boundary) for each minimum code size.
  @Test(arguments: 2...8) func everyLengthAndCodeSize(minCodeSize: Int) throws {
    var random = SplitMix64(seed: UInt64(minCodeSize))
    let alphabet = UInt64(1 << minCodeSize)
    for length in 0...1_200 {
      let data = (0..<length).map { _ in UInt8(random.next() % alphabet) }
      #expect(try roundTrip(data, minCodeSize: minCodeSize).decoded == data, "length \(length)")
    }
  }

  @Test func highlyRepetitiveData() throws {
    let zeros = [UInt8](repeating: 0, count: 3_000_000)
    let z = try roundTrip(zeros, minCodeSize: 8)
    #expect(z.decoded == zeros)
    #expect(z.encoded < 8_000)  // runs grow by one per code: ≈ √(2n) ≈ 2,450 codes

    // Runs of a few symbols with repeating rows, like a dithered UI frame.
    var random = SplitMix64(seed: 7)
    var data = [UInt8]()
    var row = [UInt8]()
    while row.count < 997 {
      let symbol = UInt8(random.next() % 3), run = Int(random.next() % 40) + 1
      row += [UInt8](repeating: symbol, count: run)
    }
    for y in 0..<800 { data += y % 5 == 4 ? row.reversed() : row }
    let r = try roundTrip(data, minCodeSize: 2)
    #expect(r.decoded == data)
    #expect(r.clears > 1)  // more than 4,096 codes
  }
}
