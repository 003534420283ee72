import Synchronization
import Testing

@testable import Primitives

/// The memo computes a value once while it is kept, and keeps at most its
/// limits: past the count or the cost it starts afresh.
@Suite struct MemoTests {
  @Test func aKeptValueIsNotComputedAgainAndTheLimitsHold() {
    let calls = Mutex(0)
    let memo = Memo<Int, [Int]>(limit: 3, costLimit: 10)
    func get(_ k: Int, size: Int = 1) -> [Int] {
      memo.value(
        for: k, cost: { $0.count },
        compute: {
          calls.withLock { $0 += 1 }
          return Array(repeating: k, count: size)
        })
    }
    #expect(get(1) == [1] && get(1) == [1] && calls.withLock { $0 } == 1)
    _ = get(2); _ = get(3)
    #expect(calls.withLock { $0 } == 3)
    // A fourth key passes the count: the memo starts afresh with it alone.
    _ = get(4)
    _ = get(1)
    #expect(calls.withLock { $0 } == 5)
    _ = get(4)
    #expect(calls.withLock { $0 } == 5)
    // A value past the cost left empties it too.
    _ = get(5, size: 9)
    _ = get(4)
    #expect(calls.withLock { $0 } == 7)
  }
}
