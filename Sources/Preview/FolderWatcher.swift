import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Calls `changed` once a burst of changes to the watched files is over.
///
/// It watches folders, not files (inotify; Swift on Linux has no
/// `DispatchSource` file-system source): an editor that saves by writing a
/// new file and renaming it over the old one replaces the file's inode, and
/// a watch on the old inode would hear nothing more. A change is an event
/// in a watched folder whose name is one of the watched files: written and
/// closed, created, renamed to or from, deleted, its attributes changed.
/// Events that follow each other within `quiet` are one change, reported
/// once the folder has been quiet that long (at most `longest` after the
/// first), so a save that writes, truncates and renames is read once, the
/// last state winning.
public final class FolderWatcher: @unchecked Sendable {
  /// How long the folders must be quiet before a change is reported.
  public static let quiet: Duration = .milliseconds(4)
  /// The longest a burst of changes delays its report.
  public static let longest: Duration = .milliseconds(50)

  private let fd: Int32
  private let wake: (read: Int32, write: Int32)
  private let changed: @Sendable () -> Void
  private let quiet: Duration, longest: Duration
  private let lock = NSLock()
  /// Watch descriptor → the folder and the names in it that matter.
  private var watches: [Int32: (folder: String, names: Set<String>)] = [:]
  private var thread: Thread?

  /// - Parameters:
  ///   - quiet, longest: the coalescing windows (tests widen them).
  ///   - changed: called on the watcher's thread, once per burst.
  public init(quiet: Duration = FolderWatcher.quiet, longest: Duration = FolderWatcher.longest, changed: @escaping @Sendable () -> Void) throws {
    let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard fd >= 0 else { throw PreviewError.system("inotify_init1", errno) }
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      close(fd)
      throw PreviewError.system("pipe", errno)
    }
    self.fd = fd
    self.wake = (pipeEnds[0], pipeEnds[1])
    self.changed = changed
    self.quiet = quiet
    self.longest = longest
  }

  deinit {
    close(fd)
    close(wake.read)
    close(wake.write)
  }

  /// Watches exactly `files` (paths), through the folders that hold them.
  /// A folder that does not exist is skipped (its files are reported
  /// missing by whoever reads them).
  public func watch(_ files: [String]) {
    var byFolder: [String: Set<String>] = [:]
    for file in files {
      let folder = (file as NSString).deletingLastPathComponent
      byFolder[folder.isEmpty ? "." : folder, default: []].insert((file as NSString).lastPathComponent)
    }
    lock.lock()
    defer { lock.unlock() }
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
    var next: [Int32: (folder: String, names: Set<String>)] = [:]
    for (folder, names) in byFolder {
      // The same folder keeps its descriptor; adding it again returns it.
      let wd = inotify_add_watch(fd, folder, mask)
      if wd >= 0 { next[wd, default: (folder, [])].names.formUnion(names) }
    }
    for wd in watches.keys where next[wd] == nil { inotify_rm_watch(fd, wd) }
    watches = next
  }

  /// The folders watched now, for tests and `--json`.
  public var folders: [String] {
    lock.lock()
    defer { lock.unlock() }
    return watches.values.map(\.folder).sorted()
  }

  /// Starts reading events on a thread of its own.
  public func start() {
    let thread = Thread { [self] in run() }
    thread.name = "preview-watcher"
    self.thread = thread
    thread.start()
  }

  /// Stops the thread (it ends after its current wait).
  public func stop() {
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
  }

  private func run() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var firstEvent: ContinuousClock.Instant?
    var lastEvent: ContinuousClock.Instant?
    let clock = ContinuousClock()
    while true {
      var timeout: Int32 = -1
      if let first = firstEvent, let last = lastEvent {
        let due = min(last + quiet, first + longest)
        let left = clock.now.duration(to: due)
        if left <= .zero {
          firstEvent = nil
          lastEvent = nil
          changed()
          continue
        }
        timeout = Int32(max(1, (left.components.attoseconds / 1_000_000_000_000_000) + left.components.seconds * 1000 + 1))
      }
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
      let ready = poll(&fds, 2, timeout)
      if ready < 0 {
        if errno == EINTR { continue }
        return
      }
      if fds[1].revents != 0 { return }
      guard fds[0].revents != 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { continue }
      if relevant(buffer, count: count) {
        let now = clock.now
        if firstEvent == nil { firstEvent = now }
        lastEvent = now
      }
    }
  }

  /// Whether any event in the first `count` bytes of `buffer` names a
  /// watched file, or removes a watched folder.
  private func relevant(_ buffer: [UInt8], count: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    var offset = 0
    var any = false
    let header = MemoryLayout<inotify_event>.size
    while offset + header <= count {
      func word(_ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(buffer[offset + at + $1]) << (8 * $1) }
      }
      // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
      let wd = Int32(bitPattern: word(0)), mask = word(4), length = Int(word(12))
      let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
      let name = String(decoding: nameBytes, as: UTF8.self)
      offset += header + length
      if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW) != 0 {
        any = true
      } else if let watch = watches[wd], watch.names.contains(name) {
        any = true
      }
    }
    return any
  }
}
