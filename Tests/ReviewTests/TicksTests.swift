import Testing

@testable import Review

/// Round tick steps, worked out by hand: span / 6 rounded up to 1, 2 or 5
/// times a power of ten.
@Suite struct TicksTests {
  @Test(arguments: [(0.3, 0.05), (120.0, 20.0), (1.0, 0.2), (7.0, 2.0), (0.012, 0.002), (59.0, 10.0)])
  func stepsAreRound(_ span: Double, _ step: Double) {
    #expect(abs(Ticks.step(span: span) - step) < step * 1e-12)
  }

  @Test func degenerateSpansStepByOne() {
    #expect(Ticks.step(span: 0) == 1)
    #expect(Ticks.step(span: .infinity) == 1)
    #expect(Ticks.step(span: -3) == 1)
  }

  @Test func valuesCoverTheRangeAtMultiplesOfTheStep() {
    let ticks = Ticks.values(0, 1)
    #expect(ticks.count == 6)
    for (k, v) in ticks.enumerated() { #expect(abs(v - 0.2 * Double(k)) < 1e-12) }
    // A range that does not start on a multiple starts at the next one.
    let shifted = Ticks.values(0.13, 1.07)
    #expect(abs(shifted[0] - 0.2) < 1e-12 && abs(shifted.last! - 1.0) < 1e-12)
    // Negative ranges keep an exact zero.
    #expect(Ticks.values(-0.5, 0.5).contains(0))
  }

  @Test func labelsHaveTheDecimalsTheStepNeeds() {
    #expect(Ticks.label(0.25, step: 0.05) == "0.25")
    #expect(Ticks.label(1.5, step: 0.5) == "1.5")
    #expect(Ticks.label(20, step: 20) == "20")
    #expect(Ticks.label(0.002, step: 0.002) == "0.002")
  }

  @Test func formattingRoundsWithoutMinusZero() {
    #expect(Ticks.format(-0.0001, decimals: 2) == "0.00")
    #expect(Ticks.format(-1.5, decimals: 1) == "−1.5")
    #expect(Ticks.format(2.005, decimals: 0) == "2")
    #expect(Ticks.format(1234.5678, decimals: 2) == "1234.57")
  }
}
