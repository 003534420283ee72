import Foundation
import Jobs
import PNGCodec
import Pipeline
import Raster
import Render
import Review
import SceneFiles
import SceneModel
import Synchronization
import Syntax

/// Why the preview could not start or go on.
public enum PreviewError: Error, CustomStringConvertible, Sendable {
  /// A system call failed (its name and errno).
  case system(String, Int32)
  /// Every port from the one asked for up to the last tried is taken, or
  /// the one given explicitly is.
  case portInUse(Int)
  /// The scene file cannot be read at start (bad usage, exit 2).
  case unreadable(String)

  public var description: String {
    switch self {
    case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
    case .portInUse(let port): "port \(port) on 127.0.0.1 is in use; choose another with --port, or --port 0 for any free one"
    case .unreadable(let message): message
    }
  }
}

/// How the preview draws its scene: the options of `render preview`.
public struct PreviewSettings: Sendable {
  /// The scene file, as given on the command line (diagnostics name it so).
  public var scene: String
  /// Nil for the source's own rate (`FrameRate.default(for:)`).
  public var fps: FrameRate?
  public var slow = 1.0
  /// Pixels per point; nil for the scene's.
  public var scale: Double?
  /// Overrides the scene's appearance.
  public var appearance: Appearance?

  public init(scene: String) { self.scene = scene }

  /// The scene's folder, "." for the working directory.
  public var folder: String {
    let folder = (scene as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }
}

/// One successful load of the scene: what every frame of it is drawn from.
public final class SceneVersion: Sendable {
  /// 1 for the first load; one more for each load whose inputs changed.
  public let generation: Int
  public let source: any FrameSource
  /// The frame's pixels.
  public let width: Int, height: Int
  /// Tiles shared by the frames of this version and the versions before
  /// it of the same size: frames drawn while scrubbing reuse what did not
  /// move, and a save reuses what it did not change (tiles are found by
  /// their content's digest, so the pixels never depend on them).
  let tiles: TileCache
  /// The chart of `render chart` (SVG) with where its time axis lies, made
  /// when first asked for.
  private let chartMemo = Mutex<PreviewChart??>(nil)

  init(generation: Int, source: any FrameSource, width: Int, height: Int, tiles: TileCache? = nil) {
    self.generation = generation
    self.source = source
    self.width = width
    self.height = height
    self.tiles = tiles ?? TileCache(width: width, height: height)
  }

  /// The chart, nil when the scene animates nothing that can be charted.
  public var chart: PreviewChart? {
    if let made = chartMemo.withLock({ $0 }) { return made }
    let made = PreviewChart(source)
    chartMemo.withLock { $0 = .some(made) }
    return made
  }

  /// The chart, made on a thread of Dispatch's (a long scene's chart takes
  /// a third of a second): never on the threads that answer requests.
  public func chartLater() async -> PreviewChart? {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: self.chart) }
    }
  }
}

/// `render chart`'s SVG of a version, and the x of its time axis's ends,
/// so that the page can draw the playhead over it.
public struct PreviewChart: Sendable {
  public let svg: String
  public let width: Double, height: Double
  /// x at scene time t0 and at t1, and the plot's top and bottom, in the
  /// SVG's units.
  public let x0: Double, x1: Double, t0: Double, t1: Double, top: Double, bottom: Double

  init?(_ source: any FrameSource) {
    let data = ChartData(source: source, from: 0, to: source.duration)
    guard !data.groups.isEmpty else { return nil }
    let typesetter = ReviewStyle.typesetter()
    let chart = Chart(data, measure: RasterSurface.measure(typesetter))
    let layout = chart.layout
    svg = chart.svg()
    width = layout.width
    height = layout.height
    t0 = layout.t0
    t1 = layout.t1
    x0 = layout.x(layout.t0)
    x1 = layout.x(layout.t1)
    top = layout.plot.origin.y
    bottom = layout.plot.origin.y + layout.plot.size.y
  }

  /// Its geometry as the page reads it.
  public var json: String {
    func n(_ v: Double) -> String { v.isFinite ? "\(v)" : "0" }
    return
      "{\"width\":\(n(width)),\"height\":\(n(height)),\"t0\":\(n(t0)),\"t1\":\(n(t1)),\"x0\":\(n(x0)),\"x1\":\(n(x1)),\"top\":\(n(top)),\"bottom\":\(n(bottom))}"
  }
}

/// The scene being previewed: its current version, its errors, and who
/// wants to hear when either changes. Reads the scene again when told
/// (the watcher tells it), and keeps the last good version while the file
/// is invalid.
public final class PreviewSession: Sendable {
  public let settings: PreviewSettings

  /// What `GET /scene` answers, and what the page is pushed.
  public struct State: Sendable, Equatable {
    public var generation: Int?
    public var duration: Double?
    public var fps: Double
    public var slow: Double
    public var size: [Int]?
    public var error: String?

    /// `{"generation": G, "duration": D, "fps": F, "slow": X, "size": [W, H], "error": E}`.
    public var json: String {
      func number(_ v: Double?) -> String { v.map { $0.isFinite ? "\($0)" : "null" } ?? "null" }
      let sizeText = size.map { "[\($0[0]), \($0[1])]" } ?? "null"
      let errorText = error.map(JSONWriter.string) ?? "null"
      let g = generation.map(String.init) ?? "null"
      let rate = generation == nil ? "null" : number(fps)
      return
        "{\"generation\": \(g), \"duration\": \(number(duration)), \"fps\": \(rate), \"slow\": \(number(slow)), \"size\": \(sizeText), \"error\": \(errorText)}"
    }

  }

  private struct Current {
    var version: SceneVersion?
    var digest: String?
    var error: String?
    var files: [String] = []
    var listeners: [Int: @Sendable (State) -> Void] = [:]
    var nextListener = 0
  }
  private let current: Mutex<Current>
  /// One load at a time, in the order asked.
  private let loading = NSLock()

  public init(settings: PreviewSettings) {
    self.settings = settings
    // The scene file is watched from the start, even when it names nothing
    // yet or cannot be decoded.
    current = Mutex(Current(files: [settings.scene]))
  }

  /// The version frames are drawn from now; nil while none has loaded.
  public var version: SceneVersion? { current.withLock { $0.version } }

  /// The state now.
  public var state: State { current.withLock { Self.state(of: $0, settings: settings) } }

  /// The files whose changes matter: the scene file and every asset and
  /// font it names (the last names read, even when the scene is invalid).
  public var watchedFiles: [String] { current.withLock { $0.files } }

  private static func state(of c: Current, settings: PreviewSettings) -> State {
    State(
      generation: c.version?.generation, duration: c.version?.source.duration,
      fps: settings.fps.map(\.perSecond) ?? c.version.map { FrameRate.default(for: $0.source.naturalFrameRate).perSecond }
        ?? FrameRate.sceneDefault.perSecond,
      slow: settings.slow,
      size: c.version.map { [$0.width, $0.height] }, error: c.error)
  }

  /// Calls `listener` with the state after each change (on the thread
  /// that loaded), until `stopListening` with the number returned.
  public func listen(_ listener: @escaping @Sendable (State) -> Void) -> Int {
    current.withLock { c in
      c.nextListener += 1
      c.listeners[c.nextListener] = listener
      return c.nextListener
    }
  }

  public func stopListening(_ id: Int) { _ = current.withLock { $0.listeners.removeValue(forKey: id) } }

  /// Reads the scene and the files it names again. A valid scene whose
  /// inputs changed becomes the next generation; an invalid one leaves
  /// the version as it was and sets the error. Listeners hear of any
  /// change to the state. Returns the state after the load.
  @discardableResult
  public func reload() -> State {
    loading.lock()
    defer { loading.unlock() }
    let loaded = load()
    let (state, listeners) = current.withLock { c -> (State, [@Sendable (State) -> Void]) in
      let before = Self.state(of: c, settings: settings)
      if let files = loaded.files { c.files = files }
      switch loaded.outcome {
      case .success(let source):
        if source.inputDigest != c.digest {
          let (w, h) = source.pixelSize(scale: settings.scale)
          let same = c.version.flatMap { $0.width == w && $0.height == h ? $0.tiles : nil }
          c.version = SceneVersion(generation: (c.version?.generation ?? 0) + 1, source: source, width: w, height: h, tiles: same)
          c.digest = source.inputDigest
        }
        c.error = nil
      case .failure(let message):
        c.error = message
      }
      let after = Self.state(of: c, settings: settings)
      return (after, after == before ? [] : Array(c.listeners.values))
    }
    for listener in listeners { listener(state) }
    return state
  }

  private enum Outcome {
    case success(any FrameSource)
    case failure(String)
  }

  /// The scene read, decoded and loaded, with the files it names (nil
  /// when it could not be decoded far enough to name them).
  private func load() -> (outcome: Outcome, files: [String]?) {
    let path = settings.scene
    guard let data = FileManager.default.contents(atPath: path) else {
      return (.failure(Self.unreadable(path)), nil)
    }
    let bytes = [UInt8](data)
    let folder = (path as NSString).deletingLastPathComponent
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    do {
      let source = try FrameSources.decode(bytes, file: path, directory: folder, defaultName: name, appearance: settings.appearance)
      // A scene's files from the scene loaded; a Lottie file names none.
      let files = [path] + ((source as? SceneRenderer).map { Self.namedFiles($0.scene, folder: folder) } ?? [])
      do { try FrameLimits.check(source, scale: settings.scale) } catch {
        if case .usage(let message) = error { return (.failure("\(path): error: \(message)"), files) }
        return (.failure("\(path): error: \(error)"), files)
      }
      return (.success(source), files)
    } catch {
      // Still watch what it names when only a named file failed to load.
      let scene = try? SceneDecoder.decode(bytes, file: path, defaultName: name, appearance: settings.appearance)
      return (.failure(error.description), scene.map { [path] + Self.namedFiles($0, folder: folder) })
    }
  }

  /// The paths of the assets and fonts a scene names that stay inside its
  /// folder (the others are refused when loaded, so never read).
  static func namedFiles(_ scene: Scene, folder: String) -> [String] {
    let names = scene.assets.values.map(\.file) + scene.fonts.values.map(\.file)
    return names.compactMap { file in
      guard !file.hasPrefix("/"), !file.split(separator: "/").contains("..") else { return nil }
      return folder.isEmpty ? file : (folder as NSString).appendingPathComponent(file)
    }
  }

  /// Why `path` cannot be read, as the command line says it.
  public static func unreadable(_ path: String) -> String {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    return "cannot read \(path): \(exists ? (isDirectory.boolValue ? "it is a folder" : "permission denied") : "no such file")"
  }
}
