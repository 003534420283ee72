import Synchronization

/// Asks a running render to stop: whoever holds the token (the command
/// line, on a signal; a test) cancels it with a reason, and the pipeline,
/// which checks it between frames, stops, removes its temporary files and
/// leaves every existing output untouched. Cancelling is one atomic store,
/// safe from a signal handler.
public final class CancellationToken: Sendable {
  private let state = Atomic<Int32>(0)

  public init() {}

  /// Cancels, with a reason other than 0 (a signal's number, say); the
  /// first reason stays.
  public func cancel(reason: Int32) {
    precondition(reason != 0, "a cancellation needs a reason other than 0")
    _ = state.compareExchange(expected: 0, desired: reason, ordering: .relaxed)
  }

  /// The reason given, or 0 while not cancelled.
  public var reason: Int32 { state.load(ordering: .relaxed) }
  public var isCancelled: Bool { reason != 0 }
}
