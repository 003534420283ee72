import Pipeline
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM during a render: the handler only cancels the render's
/// token (one atomic store, safe in a handler); the pipeline notices it
/// between frames, removes its temporary files and leaves every existing
/// output untouched, and the command exits with 128 + the signal.
enum Signals {
  /// The token every render of this process runs under.
  static let cancellation = CancellationToken()

  static func install() {
    let handler: @convention(c) (Int32) -> Void = { number in Signals.cancellation.cancel(reason: number) }
    _ = Glibc.signal(SIGINT, handler)
    _ = Glibc.signal(SIGTERM, handler)
    // A parent may have spawned us with the signals blocked (a thread pool's
    // mask is inherited through posix_spawn): unblock them on this thread,
    // whose mask the pipeline's threads inherit.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// The conventional exit status for a signal: 128 + its number.
  static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }

  /// Finished files not yet in place (`--max-size`'s first pass), removed
  /// when an interrupted render exits.
  static let pending = Mutex<Set<String>>([])

  /// Exits after an interruption, removing the pending files.
  static func exitInterrupted(_ signal: Int32) -> Never {
    for path in pending.withLock({ $0 }) { unlink(path) }
    exit(exitStatus(signal))
  }
}
