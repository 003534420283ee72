import Foundation
import PNGCodec
import Pipeline
import Raster
import Render
import SceneFiles
import Synchronization
import TestSupport
import Testing

@testable import Preview

/// The preview's parts, each alone: what a request is answered (trust
/// checks, times), the scene's versions and generations, the folder
/// watcher's events, and the frames' order and pixels. The whole command
/// in a browser is in RenderCommandTests/PreviewCommandTests.
@Suite struct PreviewRoutesTests {
  @Test func hostsOtherThanTheServersAreRefused() {
    let port = 7781
    #expect(PreviewRoutes.refusal(method: "GET", host: ["127.0.0.1:7781"], origin: [], port: port) == nil)
    #expect(PreviewRoutes.refusal(method: "GET", host: ["LOCALHOST:7781"], origin: [], port: port) == nil)
    for host in [[], ["127.0.0.1"], ["127.0.0.1:7782"], ["evil.example:7781"], ["127.0.0.1:7781", "127.0.0.1:7781"], ["[::1]:7781"]] {
      #expect(PreviewRoutes.refusal(method: "GET", host: host, origin: [], port: port)?.status == 403, "Host \(host)")
    }
  }

  @Test func originsOtherThanThePagesAreRefusedWhateverTheMethod() {
    let host = ["127.0.0.1:80"]
    for origin in ["http://127.0.0.1:80", "http://localhost:80"] {
      #expect(PreviewRoutes.refusal(method: "GET", host: host, origin: [origin], port: 80) == nil)
      #expect(PreviewRoutes.refusal(method: "POST", host: host, origin: [origin], port: 80)?.status == 405)
    }
    for origin in ["http://evil.example", "null", "https://127.0.0.1:80", "http://127.0.0.1:81", "http://127.0.0.1"] {
      for method in ["GET", "POST", "PUT", "DELETE"] {
        #expect(PreviewRoutes.refusal(method: method, host: host, origin: [origin], port: 80)?.status == 403, "\(method) from \(origin)")
      }
    }
    #expect(PreviewRoutes.refusal(method: "PATCH", host: host, origin: [], port: 80)?.status == 405)
  }

  @Test func timesAreDecimalNumbersOnly() {
    for (text, value) in [("0", 0.0), ("1.5", 1.5), ("+2", 2), ("-0", -0.0), ("1e-3", 0.001), (".5", 0.5), ("3.", 3), ("2.5E1", 25)] {
      #expect(PreviewRoutes.time(text) == value, "\(text)")
    }
    for text in [nil, "", "nan", "NaN", "inf", "-inf", "infinity", "0x1p3", "1e400", "1,5", " 1", "1 ", "1e", "e1", "--1", "1..2", "1e1.5", "½"] {
      #expect(PreviewRoutes.time(text) == nil, "\(text ?? "nil")")
    }
  }

  @Test func queriesArePercentDecoded() {
    let (path, query) = PreviewRoutes.split("/frame.png?t=%31.5&x=a+b&t=9")
    #expect(path == "/frame.png")
    #expect(query["t"] == "1.5")  // the first of a repeated key
    #expect(query["x"] == "a b")
    #expect(PreviewRoutes.split("/%2e%2e/x?").path == "/%2e%2e/x")  // routes match raw paths: nothing names a file
  }

  @Test func theStateIsTheContractsJSON() throws {
    let state = PreviewSession.State(generation: 3, duration: 2.5, fps: 30000.0 / 1001.0, slow: 4, size: [780, 600], error: nil)
    let decoded = try JSONSerialization.jsonObject(with: Data(state.json.utf8)) as! [String: Any]
    #expect(decoded["generation"] as? Int == 3)
    #expect(decoded["duration"] as? Double == 2.5)
    #expect(decoded["fps"] as? Double == 30000.0 / 1001.0)
    #expect(decoded["slow"] as? Double == 4)
    #expect(decoded["size"] as? [Int] == [780, 600])
    #expect(decoded["error"] is NSNull)
    let none = PreviewSession.State(generation: nil, duration: nil, fps: 60, slow: 1, size: nil, error: "a.json:1:2: error: \"x\"\tüñ\u{1}")
    let empty = try JSONSerialization.jsonObject(with: Data(none.json.utf8)) as! [String: Any]
    for key in ["generation", "duration", "fps", "size"] { #expect(empty[key] is NSNull, "\(key)") }
    #expect(empty["error"] as? String == "a.json:1:2: error: \"x\"\tüñ\u{1}")
  }
}

/// A scene folder in a scratch folder.
struct SceneFolderFixture {
  let scratch = Scratch("preview")
  var scene: String { scratch.path("scene.json") }

  static func scene(background: String = "#FFFFFF", duration: Double = 2, asset: String? = nil) -> String {
    let assets = asset.map { ", \"assets\": {\"pic\": \"\($0)\"}" } ?? ""
    let image = asset == nil ? "" : ", {\"id\": \"img\", \"type\": \"image\", \"asset\": \"pic\", \"size\": [20, 20], \"position\": [30, 20]}"
    return """
      {"version": 1, "size": [60, 40], "scale": 1, "background": "\(background)", "duration": \(duration)\(assets),
       "layers": [{"id": "dot", "type": "circle", "size": [10, 10], "position": [10, 20], "fill": "#FF0000"}\(image)],
       "timeline": [{"at": 0, "animation": "linear(duration: 1)", "set": {"dot": {"position": [50, 20]}}}]}
      """
  }

  func write(_ text: String) { _ = scratch.write(Array(text.utf8), "scene.json") }

  /// The version a session loads from the folder's scene now.
  func loadedVersion() throws -> SceneVersion {
    let session = PreviewSession(settings: PreviewSettings(scene: scene))
    session.reload()
    return try #require(session.version)
  }
}

@Suite struct PreviewSessionTests {
  @Test func generationsGrowOnlyWithChangedInputs() throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write(SceneFolderFixture.scene())
    let session = PreviewSession(settings: PreviewSettings(scene: folder.scene))
    let heard = Mutex<[Int?]>([])
    _ = session.listen { state in heard.withLock { $0.append(state.generation) } }
    #expect(session.reload().generation == 1)
    #expect(session.state.size == [60, 40])
    #expect(session.state.duration == 2)
    // The same bytes: the same generation, no news.
    #expect(session.reload().generation == 1)
    folder.write(SceneFolderFixture.scene(background: "#000000"))
    #expect(session.reload().generation == 2)
    // An invalid save keeps the version and says where.
    folder.write("{\"size\": [60, 40], \"layers\": 3}")
    let invalid = session.reload()
    #expect(invalid.generation == 2)
    #expect(invalid.error?.hasPrefix(folder.scene + ":1:") == true, "\(invalid.error ?? "nil")")
    #expect(session.version?.generation == 2)
    // Back to the last good bytes: the error clears, the generation stays.
    folder.write(SceneFolderFixture.scene(background: "#000000"))
    let back = session.reload()
    #expect(back.generation == 2 && back.error == nil)
    #expect(heard.withLock { $0 } == [1, 2, 2, 2])
  }

  @Test func anAssetsBytesMakeANewGenerationAndItsLossAnError() throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    let red = try PNG.encode(Pixmap(width: 2, height: 2, fill: RGBA8(r: 255, g: 0, b: 0, a: 255)))
    let blue = try PNG.encode(Pixmap(width: 2, height: 2, fill: RGBA8(r: 0, g: 0, b: 255, a: 255)))
    _ = folder.scratch.write(red, "pic.png")
    folder.write(SceneFolderFixture.scene(asset: "pic.png"))
    let session = PreviewSession(settings: PreviewSettings(scene: folder.scene))
    #expect(session.reload().generation == 1)
    #expect(session.watchedFiles.sorted() == [folder.scratch.path("pic.png"), folder.scene].sorted())
    _ = folder.scratch.write(blue, "pic.png")
    #expect(session.reload().generation == 2)
    try FileManager.default.removeItem(atPath: folder.scratch.path("pic.png"))
    let lost = session.reload()
    #expect(lost.generation == 2)
    #expect(lost.error?.contains("pic.png") == true, "\(lost.error ?? "nil")")
  }

  @Test func theErrorIsWhatValidateWouldPrint() throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    let bad = "{\"version\": 1, \"size\": [60, 40],\n \"duration\": \"long\", \"layers\": []}"
    folder.write(bad)
    let state = PreviewSession(settings: PreviewSettings(scene: folder.scene)).reload()
    do {
      _ = try SceneRenderer(decoding: Array(bad.utf8), file: folder.scene, directory: folder.scratch.directory.path, defaultName: "scene")
      Issue.record("the scene loaded")
    } catch {
      #expect(state.error == error.description)
      #expect(state.error?.hasPrefix("\(folder.scene):2:") == true)
    }
    #expect(state.generation == nil && state.size == nil && state.duration == nil)
  }

  /// A Lottie file's own rate is the steps' when --fps is not given
  /// (29.97 as 30000/1001); a scene's is 60; --fps wins over both.
  @Test func theRateIsALottieFilesOwnUnlessGiven() throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write("{\"v\": \"5.7.0\", \"fr\": 29.97, \"ip\": 0, \"op\": 60, \"w\": 40, \"h\": 30, \"layers\": []}")
    #expect(PreviewSession(settings: PreviewSettings(scene: folder.scene)).reload().fps == 30000.0 / 1001.0)
    var given = PreviewSettings(scene: folder.scene)
    given.fps = FrameRate(24)
    #expect(PreviewSession(settings: given).reload().fps == 24)
    folder.write(SceneFolderFixture.scene())
    #expect(PreviewSession(settings: PreviewSettings(scene: folder.scene)).reload().fps == 60)
  }
}

@Suite(.serialized) struct FolderWatcherTests {
  /// Calls counted by the watcher's callback.
  final class Counter: Sendable {
    let count = Mutex(0)
    func wait(for n: Int, seconds: Double = 3) -> Bool {
      let end = Date().addingTimeInterval(seconds)
      while Date() < end {
        if count.withLock({ $0 }) >= n { return true }
        usleep(2000)
      }
      return false
    }
  }

  @Test func savesInPlaceAndByRenameAreHeardOnceEach() throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write("{}")
    let counter = Counter()
    let watcher = try FolderWatcher { counter.count.withLock { $0 += 1 } }
    watcher.watch([folder.scene])
    watcher.start()
    defer { watcher.stop() }
    // In place: truncated, written in pieces, closed: one change.
    let handle = try #require(FileHandle(forWritingAtPath: folder.scene))
    try handle.truncate(atOffset: 0)
    for piece in ["{\"a\"", ": 1", "}"] { handle.write(Data(piece.utf8)) }
    try handle.close()
    #expect(counter.wait(for: 1))
    usleep(150_000)
    #expect(counter.count.withLock { $0 } == 1)
    // By rename, as editors save: a new file renamed over the old one.
    let temporary = folder.scratch.write(Array("{\"b\": 2}".utf8), ".scene.json.swp")
    #expect(rename(temporary, folder.scene) == 0)
    #expect(counter.wait(for: 2))
    // Another file in the folder is not a change.
    _ = folder.scratch.write([1, 2, 3], "other.txt")
    usleep(150_000)
    #expect(counter.count.withLock { $0 } == 2)
    // A deletion is.
    try FileManager.default.removeItem(atPath: folder.scene)
    #expect(counter.wait(for: 3))
  }

  @Test func aBurstOfSavesIsOneChange() throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write("{}")
    let counter = Counter()
    // Windows wide enough that a loaded machine's pauses between the
    // saves stay within them (the defaults are 4 and 50 ms).
    let watcher = try FolderWatcher(quiet: .milliseconds(300), longest: .seconds(3)) { counter.count.withLock { $0 += 1 } }
    watcher.watch([folder.scene])
    watcher.start()
    defer { watcher.stop() }
    for i in 0..<10 {
      folder.write("{\"n\": \(i)}")
      usleep(2000)
    }
    #expect(counter.wait(for: 1, seconds: 5))
    usleep(600_000)
    #expect(counter.count.withLock { $0 } == 1)
    // A save after the quiet window is a change of its own.
    folder.write("{\"n\": 10}")
    #expect(counter.wait(for: 2, seconds: 5))
  }
}

@Suite struct FrameServiceTests {
  /// Waits up to 20 s for `condition` (frames ahead are drawn at idle
  /// priority: a loaded machine delays them).
  static func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<2000 {
      if condition() { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  @Test func framesAreTheStillsPixels() async throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write(SceneFolderFixture.scene())
    let version = try folder.loadedVersion()
    let service = FrameService(rate: 60, scale: nil, workers: 1)
    defer { service.stop() }
    for t in [0.0, 0.5, 1.0 / 3.0, 2.0] {
      guard case .png(let bytes, let generation) = await service.frame(version, at: t) else {
        Issue.record("no frame at \(t)")
        continue
      }
      #expect(generation == 1)
      // Pixel for pixel the frame render still writes (PNG.write of the rendered frame).
      #expect(try PNG.decode(bytes, name: "frame").bytes == version.source.render(at: t).bytes, "t = \(t)")
    }
  }

  @Test func oneWorkerDrawsTheFramesAroundThePlayheadOnceNoRequestWaits() async throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write(SceneFolderFixture.scene())
    let version = try folder.loadedVersion()
    let service = FrameService(rate: 60, scale: nil, workers: 1)
    defer { service.stop() }
    _ = await service.frame(version, at: 1)
    // The frame asked for, then 36 ahead (1 + 1/60 … 1.6) and 8 behind.
    let all = 1 + FrameService.ahead + FrameService.behind
    #expect(try await Self.eventually { service.drawnCount == all })
    try await Task.sleep(for: .milliseconds(100))
    #expect(service.drawnCount == all && service.cachedCount == all)
  }

  @Test func framesAheadAreOnTheOutputGridWithinTheDuration() async throws {
    let folder = SceneFolderFixture()
    defer { folder.scratch.cleanUp() }
    folder.write(SceneFolderFixture.scene(duration: 0.1))
    let version = try folder.loadedVersion()
    // One worker, at the process's priority: a second one draws ahead
    // under SCHED_IDLE, which a machine busy with other tests may starve.
    let service = FrameService(rate: 30 * 4, scale: nil, workers: 1)
    defer { service.stop() }
    _ = await service.frame(version, at: 0)
    // 0.1 s at 120 frames per second of scene time: frames 0 … 12.
    #expect(try await Self.eventually { service.cachedCount == 13 })
    try await Task.sleep(for: .milliseconds(100))
    #expect(service.cachedCount == 13)
    let drawn = service.drawnCount
    for n in 0...12 {
      guard case .png = await service.frame(version, at: Double(n) / 120) else {
        Issue.record("frame \(n)")
        return
      }
    }
    #expect(service.drawnCount == drawn, "the grid's frames were not all cached")
  }
}
