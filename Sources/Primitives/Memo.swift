import Synchronization

/// Values computed recently, by key, shared between threads: a value that
/// is a function of its key alone (a gradient's ramp of its stops, a
/// stroke's outline of its path and style) is computed once while it keeps
/// being asked for. At most `limit` values and `costLimit` of their cost
/// are kept; past either the memo starts afresh, so memory stays bounded
/// however long the render.
public final class Memo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  public let limit: Int
  public let costLimit: Int
  private let store = Mutex<(values: [Key: Value], cost: Int)>(([:], 0))

  public init(limit: Int, costLimit: Int = .max) {
    self.limit = limit; self.costLimit = costLimit
  }

  /// The value for `key`: the one kept, or `compute()`'s (computed outside
  /// the lock, then kept), which weighs `cost(value)`.
  public func value(for key: Key, cost: (Value) -> Int = { _ in 1 }, compute: () -> Value) -> Value {
    if let known = store.withLock({ $0.values[key] }) { return known }
    let value = compute()
    let weight = cost(value)
    store.withLock { s in
      if s.values.count >= limit || s.cost + weight > costLimit { s = ([:], 0) }
      s.values[key] = value
      s.cost += weight
    }
    return value
  }
}
