import GIFOutput
import Testing

@Suite struct TimingTests {
  // Hand-computed: 100/30 = 3.33 → 3, 6.67 → 7, 10 → 10, 13.33 → 13, 16.67 → 17, 20 → 20, …
  @Test func thirtyFramesPerSecondCarriesTheRounding() {
    #expect(GIFTiming.delays(count: 9, fps: 30) == [3, 4, 3, 3, 4, 3, 3, 4, 3])
    #expect(GIFTiming.delays(count: 60, fps: 30).reduce(0, +) == 200)
    #expect(GIFTiming.delays(count: 7, fps: 30).reduce(0, +) == 23)  // 23.33 s/100
    #expect(GIFTiming.frameRate(for: 30) == 30)
  }

  // 4.17 → 4, 8.33 → 8, 12.5 → 13, 16.67 → 17, 20.83 → 21, 25 → 25.
  @Test func twentyFourFramesPerSecond() {
    #expect(GIFTiming.delays(count: 6, fps: 24) == [4, 4, 5, 4, 4, 4])
  }

  @Test func aboveFiftyTheGIFRunsAtFifty() {
    #expect(GIFTiming.frameRate(for: 60) == 50)
    #expect(GIFTiming.frameRate(for: 120) == 50)
    #expect(GIFTiming.frameRate(for: 50) == 50)
    #expect(GIFTiming.delays(count: 12, fps: 60) == Array(repeating: 2, count: 12))
    #expect(GIFTiming.delays(count: 12, fps: 50) == Array(repeating: 2, count: 12))
  }

  @Test(arguments: [1, 7.5, 12, 23.976, 29.97, 33, 40, 45, 49.9, 50, 60, 120] as [Double])
  func delaysAddUpAndNeverFallBelowTwo(fps: Double) {
    let count = 500
    let delays = GIFTiming.delays(count: count, fps: fps)
    #expect(delays.count == count)
    #expect(delays.allSatisfy { $0 >= 2 })
    #expect(delays.reduce(0, +) == Int((100 * Double(count) / min(fps, 50)).rounded()))
  }
}
