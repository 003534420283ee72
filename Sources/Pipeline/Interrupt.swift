import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM during a render: the handler only records the signal;
/// the pipeline notices it between frames, removes its temporary files and
/// leaves every existing output untouched.
public enum Interrupt {
  private static let signal = Atomic<Int32>(0)

  /// The signal received, or 0.
  public static var received: Int32 { signal.load(ordering: .relaxed) }

  public static func install() {
    let handler: @convention(c) (Int32) -> Void = { number in Interrupt.signal.store(number, ordering: .relaxed) }
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
  public static var exitStatus: Int32 { 128 + received }
}
