import Foundation
import Pipeline
import Synchronization

/// `render preview`: the scene loaded, its folder watched, its frames
/// served. The parts are wired here; each is usable (and tested) alone.
public final class LivePreview: Sendable {
  public let session: PreviewSession
  public let frames: FrameService
  public let server: PreviewServer
  let watcher: FolderWatcher
  /// The port listened on.
  public let port: Int

  /// The default port (`--port` not given); the next free one is taken
  /// when it is in use.
  public static let defaultPort = 7780

  /// Loads the scene (an invalid one still starts: the page shows its
  /// errors), starts watching and listening. `port` nil is the default
  /// port or the next free one; 0 is any free port the system chooses.
  public static func start(_ settings: PreviewSettings, port: Int?) throws -> LivePreview {
    guard FileManager.default.isReadableFile(atPath: settings.scene), !isFolder(settings.scene) else {
      throw PreviewError.unreadable(PreviewSession.unreadable(settings.scene))
    }
    let session = PreviewSession(settings: settings)
    session.reload()
    // The steps' grid: --fps, else the rate of the file as it is at start.
    let rate = settings.fps ?? FrameRate.default(for: session.version?.source.naturalFrameRate)
    let frames = FrameService(rate: rate.perSecond * settings.slow, scale: settings.scale)
    let server = PreviewServer(session: session, frames: frames)
    let bound = Blocking.run { try await server.bind(port: port ?? defaultPort, searching: port == nil) }
    let chosen: Int
    switch bound {
    case .success(let p): chosen = p
    case .failure(let error):
      frames.stop()
      throw error
    }
    let watcher = try FolderWatcher { [session] in session.reload() }
    let preview = LivePreview(session: session, frames: frames, server: server, watcher: watcher, port: chosen)
    // A new version is drawn at the playhead before the page asks for it;
    // the watch follows the files the scene names now.
    _ = session.listen { [frames, watcher, session] state in
      watcher.watch(session.watchedFiles)
      if let version = session.version, state.generation == version.generation { frames.warm(version) }
    }
    watcher.watch(session.watchedFiles)
    watcher.start()
    Task.detached { await server.serve() }
    return preview
  }

  private init(session: PreviewSession, frames: FrameService, server: PreviewServer, watcher: FolderWatcher, port: Int) {
    self.session = session
    self.frames = frames
    self.server = server
    self.watcher = watcher
    self.port = port
  }

  /// The page's address, as the first line of standard output gives it.
  public var address: String { "http://127.0.0.1:\(port)/" }

  /// Closes the port and stops watching and drawing.
  public func stop() {
    server.close()
    watcher.stop()
    frames.stop()
  }

  private static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }
}

/// An async call awaited from synchronous code (the command's thread,
/// which is not one of the concurrency pool's).
enum Blocking {
  static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<T, any Error>?>(nil)
    Task.detached {
      do {
        let value = try await body()
        result.withLock { $0 = .success(value) }
      } catch {
        result.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    return result.withLock { $0! }
  }
}
