import Primitives
import Testing

@testable import Timing

/// The sampling API (`SampleTimes`, `Motion.samples`, `Motion.events`)
/// against hand-computed counts and times.
@Suite struct SamplingTests {
  @Test func countsIncludeBothEndsOnAStep() {
    // 0.8 s at 60 per second: 48 steps, 49 samples; 0.7999999999999999 s is
    // 47.99999999999999 steps, which the 1e-9 absorbs.
    #expect(SampleTimes(from: 0, to: 0.8, rate: 60).count(limit: 1000) == 49)
    #expect(SampleTimes(from: 0, to: 0.7999999999999999, rate: 60).count(limit: 1000) == 49)
    // From 0.5 to 1 at 10 per second: 0.5, 0.6, …, 1.0.
    let times = SampleTimes(from: 0.5, to: 1, rate: 10)
    #expect(times.count(limit: 1000) == 6)
    #expect(times.time(0) == 0.5 && times.time(5) == 1)
    // 1e-10 s short of the last step still reaches it (1e-9 steps); 1e-8 s
    // short (1e-7 steps) does not.
    #expect(SampleTimes(from: 0.5, to: 1 - 1e-10, rate: 10).count(limit: 1000) == 6)
    #expect(SampleTimes(from: 0.5, to: 1 - 1e-8, rate: 10).count(limit: 1000) == 5)
    // An empty range is one sample.
    #expect(SampleTimes(from: 2, to: 2, rate: 60).count(limit: 1000) == 1)
  }

  @Test func countsBeyondTheLimitOrAnyIntegerAreNil() {
    #expect(SampleTimes(from: 0, to: 1, rate: 60).count(limit: 61) == 61)
    #expect(SampleTimes(from: 0, to: 1, rate: 60).count(limit: 60) == nil)
    #expect(SampleTimes(from: 0, to: 1e300, rate: 60).count(limit: .max) == nil)
    #expect(SampleTimes(from: 0, to: .infinity, rate: 60).count(limit: .max) == nil)
    #expect(SampleTimes(from: 0, to: .nan, rate: 60).count(limit: .max) == nil)
    #expect(SampleTimes(from: 0, to: 1e300, rate: 60).countEstimate == 6e301 + 1)
  }

  @Test func samplesAreTheMotionAtEachTime() throws {
    var m = Motion(0.0)
    m.animate(to: 10, at: 0, with: try AnimationParser.parse("linear(duration: 1)"))
    let samples = m.samples(SampleTimes(from: 0, to: 1, rate: 4), count: 5)
    #expect(samples.map(\.time) == [0, 0.25, 0.5, 0.75, 1])
    #expect(samples.map(\.value) == [0, 2.5, 5, 7.5, 10])
    // A linear move of 10 in 1 s: 10 per second inside, 0 once it ends.
    #expect(samples.map(\.velocity) == [10, 10, 10, 10, 0])
  }

  @Test func eventsSayWhenEachBeganAndEnded() throws {
    var m = Motion(0.0)
    // A curve at 0.5 s, done 1 s later.
    m.animate(to: 1, at: 0.5, with: try AnimationParser.parse("linear(duration: 1)"))
    // A spring at 2 s: the vectors' bouncy spring (duration 0.5, bounce
    // 0.3) settles in 1.0447130905120119 s (../shared/vectors/timing.json).
    m.animate(to: 2, at: 2, with: try AnimationParser.parse("spring(duration: 0.5, bounce: 0.3)"))
    // A change at once at 4 s, then a drag from 5 s released 0.5 s later.
    m.animate(to: 3, at: 4, with: nil)
    m.drag(at: 5, points: [.init(time: 0, value: 3), .init(time: 0.5, value: 8)])
    let events = m.events
    #expect(events.map(\.time) == [0.5, 2, 4, 5])
    #expect(events[0].end == 1.5 && events[0].settlingDuration == 1)
    #expect(abs(events[1].end - 3.0447130905120119) < 1e-12)
    #expect(abs(events[1].settlingDuration! - 1.0447130905120119) < 1e-12)
    #expect(events[2].kind == .immediate && events[2].end == 4 && events[2].settlingDuration == nil)
    #expect(events[3].kind == .drag && events[3].end == 5.5 && events[3].settlingDuration == nil)
    #expect(m.lastEvent == events[3] && m.endTime == 5.5)
    #expect(Motion(0.0).events.isEmpty && Motion(0.0).lastEvent == nil)
  }
}
