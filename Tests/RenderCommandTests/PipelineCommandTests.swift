import Foundation
import PNGCodec
import Pipeline
import Raster
import Render
import SceneModel
import TestSupport
import Testing
import VideoOutput

/// `render SCENE` end to end: outputs decoded and checked against CLI.md.
@Suite struct PipelineCommandTests {
  static func folder(_ name: String) throws -> URL { Scratch("springframe-pipeline-\(name)").directory }

  /// A 0.8 s scene: a red square moving right on white, with a 120 × 80 canvas.
  static func scene(in dir: URL, name: String = "mover", duration: Double = 0.8, motion: Double? = nil, background: String = "#FFFFFF") throws
    -> String
  {
    let path = dir.appendingPathComponent(name + ".json").path
    try ##"""
    {"version": 1, "size": [120, 80], "background": "\##(background)", "duration": \##(duration),
     "layers": [{"id": "sq", "type": "rect", "size": [40, 40], "position": [30, 40], "fill": "#FF0000"}],
     "timeline": [{"at": 0, "animation": "easeInOut(duration: \##(motion ?? duration))", "set": {"sq": {"position": [90, 40]}}}]}
    """##.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func pngs(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
  }

  /// CLI.md: floor((to − from) × fps × slow + 1e-9) + 1 frames, NAME_00000.png…;
  /// frame k is the still of time k / fps, byte for byte.
  @Test func aPNGSequenceHasCLIsCountNamesAndFrames() throws {
    let dir = try Self.folder("seq")
    let scene = try Self.scene(in: dir)
    let out = dir.appendingPathComponent("frames")
    let r = try RenderBinary.run([scene, "--fps", "10", "-o", out.path + "/", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let names = Self.pngs(out)
    #expect(names.count == 9)  // floor(0.8 × 10 + 1e-9) + 1
    #expect(names.first == "mover_00000.png" && names.last == "mover_00008.png")
    let still = dir.appendingPathComponent("still.png").path
    #expect(try RenderBinary.run(["still", scene, "--at", "0.3", "-o", still]).status == 0)
    #expect(FileManager.default.contents(atPath: still) == FileManager.default.contents(atPath: out.appendingPathComponent("mover_00003.png").path))
    // No temporary files are left.
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).allSatisfy { !$0.hasSuffix(".tmp") })
  }

  /// A still is one frame, whatever the scene's length and whatever its
  /// file name looks like: `render still -o f_%03d.png` writes that one
  /// file, a 20 000 s scene (1.2 million frames at 60 fps) has stills, and
  /// `render SCENE -o x.png` takes `--from` past the end.
  @Test func aStillIsOneFrame() throws {
    let dir = try Self.folder("still")
    let long = try Self.scene(in: dir, name: "long", duration: 20000, motion: 0.8)
    let pattern = dir.appendingPathComponent("f_%03d.png").path
    let r = try RenderBinary.run(["still", long, "--at", "0.4", "-o", pattern])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Self.pngs(dir) == ["f_%03d.png"])
    let short = try Self.scene(in: dir, name: "short")
    let past = dir.appendingPathComponent("past.png").path
    let p = try RenderBinary.run([short, "--from", "5", "-o", past, "--quiet"])
    #expect(p.status == 0, "\(p.stderr)")
    // Past the end the square rests at x = 90: the same still as at 0.8 s.
    let end = dir.appendingPathComponent("end.png").path
    #expect(try RenderBinary.run(["still", short, "--at", "0.8", "-o", end]).status == 0)
    #expect(FileManager.default.contents(atPath: past) == FileManager.default.contents(atPath: end))
    #expect(Self.pngs(dir).sorted() == ["end.png", "f_%03d.png", "past.png"])
  }

  /// 0.7999999999999999 s at 60 fps is 49 frames, as 0.8 s is (CLI.md);
  /// --from/--to and a %03d pattern.
  @Test func frameCountsAbsorbFloatingPointError() throws {
    let dir = try Self.folder("count")
    let scene = try Self.scene(in: dir)
    let r = try RenderBinary.run([scene, "--fps", "60", "--to", "0.7999999999999999", "-o", dir.path + "/f_%03d.png", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let names = Self.pngs(dir)
    #expect(names.count == 49 && names.first == "f_000.png" && names.last == "f_048.png")
    let ranged = dir.appendingPathComponent("ranged")
    #expect(try RenderBinary.run([scene, "--fps", "10", "--from", "0.2", "--to", "0.5", "-o", ranged.path + "/", "--quiet"]).status == 0)
    #expect(Self.pngs(ranged).count == 4)
  }

  /// `--slow 4`: frame 4k shows the time of frame k at `--slow 1`.
  @Test func slowMotionFrame4kIsNormalFrameK() throws {
    let dir = try Self.folder("slow")
    let scene = try Self.scene(in: dir)
    let normal = dir.appendingPathComponent("n"), slow = dir.appendingPathComponent("s")
    #expect(try RenderBinary.run([scene, "--fps", "10", "-o", normal.path + "/", "--quiet"]).status == 0)
    #expect(try RenderBinary.run([scene, "--fps", "10", "--slow", "4", "-o", slow.path + "/", "--quiet"]).status == 0)
    #expect(Self.pngs(normal).count == 9 && Self.pngs(slow).count == 33)
    for k in [1, 3, 8] {
      let a = FileManager.default.contents(atPath: normal.appendingPathComponent(String(format: "mover_%05d.png", k)).path)
      let b = FileManager.default.contents(atPath: slow.appendingPathComponent(String(format: "mover_%05d.png", 4 * k)).path)
      #expect(a != nil && a == b, "frame \(k)")
    }
    // Fractions are allowed: --slow 0.5 halves the frame count (rounded down, plus one).
    let fast = dir.appendingPathComponent("f")
    #expect(try RenderBinary.run([scene, "--fps", "10", "--slow", "0.5", "-o", fast.path + "/", "--quiet"]).status == 0)
    #expect(Self.pngs(fast).count == 5)
  }

  /// The MP4 as libavformat reads it: H.264, yuv420p, BT.709 tags, 60 fps,
  /// 49 frames lasting 49/60 s; the red square decodes to red where the PNG
  /// of the same time is red (a BT.601 decode of BT.709 red would give
  /// about (255, 29, 0)... here G must stay within a few levels of 0).
  @Test func theMP4IsTaggedTimedAndRed() throws {
    let dir = try Self.folder("mp4")
    let scene = try Self.scene(in: dir)
    let mp4 = dir.appendingPathComponent("out.mp4").path
    let r = try RenderBinary.run([scene, "-o", mp4, "--quiet", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let info = try MediaProbe.info(path: mp4)
    #expect(info.codec == "h264" && info.pixelFormat == "yuv420p")
    #expect(info.colorPrimaries == "bt709" && info.colorTransfer == "bt709" && info.colorMatrix == "bt709")
    #expect(info.frameCount == 49)
    #expect(abs(info.averageFrameRate - 60) < 1e-9)
    #expect(abs(info.duration - 49.0 / 60) < 1.0 / 60 + 1e-6)
    let frames = try MediaProbe.frames(path: mp4)
    #expect(frames.count == 49)
    // Frame 0: the square spans x 10…50, y 20…60.
    let centre = frames[0][30, 40]
    #expect(centre.r >= 245 && centre.g <= 12 && centre.b <= 12, "\(centre)")
    let white = frames[0][100, 10]
    #expect(white.r >= 245 && white.g >= 245 && white.b >= 245, "\(white)")
    // Frame 24 against the PNG of the same time (24/60 s): close everywhere
    // (4:2:0 chroma and CRF 18 at the square's edges), red inside.
    let still = dir.appendingPathComponent("still.png").path
    #expect(try RenderBinary.run(["still", scene, "--at", "\(24.0 / 60)", "-o", still]).status == 0)
    let png = try PNG.read(path: still)
    let frame = frames[24]
    var total = 0
    for y in 0..<png.height {
      for x in 0..<png.width {
        let a = png[x, y], b = frame[x, y]
        total += abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
      }
    }
    let mean = Double(total) / Double(3 * png.width * png.height)
    #expect(mean < 2, "mean difference \(mean) levels")
    // --json: the summary names the file, its frames and bytes.
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let outputs = try #require(summary["outputs"] as? [[String: Any]])
    #expect(outputs.count == 1 && outputs[0]["path"] as? String == mp4 && outputs[0]["frames"] as? Int == 49)
    #expect(outputs[0]["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: mp4)[.size] as? Int))
  }

  /// The same scene and options give the same MP4 bytes.
  @Test func mp4OutputIsDeterministic() throws {
    let dir = try Self.folder("det")
    let scene = try Self.scene(in: dir)
    let a = dir.appendingPathComponent("a.mp4").path, b = dir.appendingPathComponent("b.mp4").path
    #expect(try RenderBinary.run([scene, "-o", a, "--quiet", "--fps", "30"]).status == 0)
    #expect(try RenderBinary.run([scene, "-o", b, "--quiet", "--fps", "30", "--jobs", "1"]).status == 0)
    #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
  }

  /// The GIF: loops forever (NETSCAPE2.0, count 0); at 60 fps requested it
  /// samples 50 fps, so 0.8 s is 41 frames of 2/100 s; libavformat decodes
  /// it with the square red.
  @Test func theGIFLoopsAndItsDelaysAddUp() throws {
    let dir = try Self.folder("gif")
    let scene = try Self.scene(in: dir)
    let gif = dir.appendingPathComponent("out.gif").path
    let r = try RenderBinary.run([scene, "-o", gif, "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let bytes = try #require(FileManager.default.contents(atPath: gif)).map { $0 }
    #expect(Array(bytes[0..<6]) == Array("GIF89a".utf8))
    let netscape = Array("NETSCAPE2.0".utf8)
    let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<$0 + 11]) == netscape })
    #expect(bytes[at + 11] == 3 && bytes[at + 12] == 1 && bytes[at + 13] == 0 && bytes[at + 14] == 0)  // loop count 0: forever
    let delays = Self.gifDelays(bytes)
    #expect(delays.count == 41 && delays.allSatisfy { $0 == 2 })
    let frames = try MediaProbe.frames(path: gif)
    #expect(frames.count == 41)
    let c = frames[0][30, 40]
    #expect(c.r >= 245 && c.g <= 10 && c.b <= 10, "\(c)")
    // 30 fps: 3, 4, 3, … (round(100(i+1)/30) − round(100i/30)) adding up to the length (25 frames ⇒ 83 hundredths, round(100 × 25 / 30)).
    let gif30 = dir.appendingPathComponent("out30.gif").path
    #expect(try RenderBinary.run([scene, "-o", gif30, "--quiet", "--fps", "30"]).status == 0)
    let d30 = Self.gifDelays(try #require(FileManager.default.contents(atPath: gif30)).map { $0 })
    #expect(d30.count == 25 && d30.reduce(0, +) == 83 && Array(d30.prefix(6)) == [3, 4, 3, 3, 4, 3])
  }

  /// A GIF's palette comes from the frames themselves: the mover at 50 fps
  /// (41 frames, more than a handful of samples would cover) has fewer than
  /// 255 colours in all, its anti-aliased edges included, so every decoded
  /// frame equals the PNG of the same time exactly.
  @Test func aShortGIFReproducesItsFramesExactly() throws {
    let dir = try Self.folder("gifexact")
    let scene = try Self.scene(in: dir)
    let gif = dir.appendingPathComponent("out.gif").path, pngs = dir.appendingPathComponent("frames")
    #expect(try RenderBinary.run([scene, "--fps", "50", "-o", gif, "--quiet"]).status == 0)
    #expect(try RenderBinary.run([scene, "--fps", "50", "-o", pngs.path + "/", "--quiet"]).status == 0)
    let decoded = try decodeGIF(try #require(FileManager.default.contents(atPath: gif)).map { $0 })
    let names = Self.pngs(pngs)
    #expect(names.count == 41)
    for (i, name) in names.enumerated() {
      let png = try PNG.read(path: pngs.appendingPathComponent(name).path)
      #expect(decoded.canvas(atHundredths: 2 * i) == png.bytes, "frame \(i)")
    }
  }

  /// The delays of a GIF's Graphic Control Extensions, in 1/100 s, walking
  /// the block structure (GIF89a spec).
  static func gifDelays(_ b: [UInt8]) -> [Int] {
    var i = 13
    if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
    var delays: [Int] = []
    func skipSubBlocks() { while i < b.count, b[i] != 0 { i += Int(b[i]) + 1 }; i += 1 }
    while i < b.count {
      switch b[i] {
      case 0x21:
        if b[i + 1] == 0xF9 { delays.append(Int(b[i + 4]) | Int(b[i + 5]) << 8) }
        i += 2
        skipSubBlocks()
      case 0x2C:
        let packed = b[i + 9]
        i += 10
        if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
        i += 1  // LZW minimum code size
        skipSubBlocks()
      case 0x3B: return delays
      default: return delays
      }
    }
    return delays
  }

  /// --format writes several outputs from one pass into the -o folder.
  @Test func severalFormatsInOnePass() throws {
    let dir = try Self.folder("multi")
    let scene = try Self.scene(in: dir)
    let out = dir.appendingPathComponent("out")
    let r = try RenderBinary.run([scene, "--fps", "20", "--format", "mp4,gif,png", "-o", out.path + "/", "--quiet", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("mover.mp4").path))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("mover.gif").path))
    #expect(Self.pngs(out).count == 17)
    // One pass: 17 distinct times rendered for all three outputs.
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(summary["frames"] as? Int == 17 && (summary["outputs"] as? [Any])?.count == 3)
  }

  /// --null renders every frame and writes nothing.
  @Test func nullWritesNothing() throws {
    let dir = try Self.folder("null")
    let scene = try Self.scene(in: dir)
    let r = try RenderBinary.run([scene, "--null", "--quiet", "--json", "-o", dir.appendingPathComponent("x.mp4").path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.mp4").path))
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(summary["frames"] as? Int == 49 && (summary["outputs"] as? [Any])?.isEmpty == true)
    // Several outputs, or a budget: still nothing.
    let several = try RenderBinary.run([
      scene, "--null", "--quiet", "-o", dir.appendingPathComponent("y.mp4").path, "-o", dir.appendingPathComponent("y.gif").path, "--max-size", "1MB",
    ])
    #expect(several.status == 0, "\(several.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasPrefix("y") && !$0.hasPrefix(".") })
  }

  /// Bad options are usage errors (exit 2) with a message; a frame count
  /// over the limit names the limit.
  @Test func badOptionsAreUsageErrors() throws {
    let dir = try Self.folder("usage")
    let scene = try Self.scene(in: dir)
    for args in [
      ["--slow", "0"], ["--from", "0.5", "--to", "0.2"], ["--fps", "-1"], ["-o", "x.avi"], ["--format", "flv"], ["--preset", "quick"],
    ] {
      let r = try RenderBinary.run([scene, "--quiet"] + args)
      #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.lowercased().contains("error"), "\(args)")
    }
    let r = try RenderBinary.run([scene, "--quiet", "--null", "--to", "100000", "--fps", "60", "--slow", "4"])
    #expect(r.status == 2 && r.stderr.contains("limit of 1000000 frames"), "\(r.stderr)")
  }

  /// A scene whose default duration is astronomically long (an animation
  /// slowed 10³⁰⁰ times) is over the frame limit: a usage error, not a
  /// crash converting the frame count to an integer.
  @Test func aFrameCountBeyondAnyIntegerIsOverTheLimit() throws {
    let dir = try Self.folder("endless")
    let path = dir.appendingPathComponent("endless.json").path
    try ##"""
    {"version": 1, "size": [20, 20], "layers": [{"id": "k", "type": "rect", "size": [10, 10]}],
     "timeline": [{"at": 0, "animation": "linear.speed(1e-300)", "set": {"k": {"opacity": 0}}}]}
    """##.write(toFile: path, atomically: true, encoding: .utf8)
    let r = try RenderBinary.run([path, "--null", "--quiet"])
    #expect(r.status == 2 && r.stderr.hasPrefix("render: error: ") && r.stderr.contains("over the limit of 1000000 frames"), "\(r.stderr)")
  }

  /// SIGINT mid-render of every format, and of several outputs at once:
  /// exit 130, the existing output byte-identical, nothing new or hidden
  /// (no temporary file) left beside it.
  @Test(arguments: [["out.mp4"], ["out.gif"], ["out.webp"], ["out.apng"], ["out.mov"], ["out.webm"], ["out.mp4", "out.gif", "out.webp"]])
  func anInterruptedRenderOfAnyFormatLeavesNothing(_ outputs: [String]) throws {
    let dir = try Self.folder("interrupt-" + outputs.joined(separator: "-"))
    // Long enough (5,001 frames) that no format is done within two seconds.
    let scene = try Self.scene(in: dir, duration: 100)
    let old = Data("a good output from before".utf8)
    try old.write(to: dir.appendingPathComponent(outputs[0]))
    let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
    let process = Process()
    process.executableURL = RenderBinary.url
    process.arguments = [scene, "--quiet", "--scale", "4", "--fps", "50"] + outputs.flatMap { ["-o", dir.appendingPathComponent($0).path] }
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A temporary file appears at the first frame (a WebP's only at the
    // end: libwebp assembles the animation in memory), so at most 1.5 s.
    let deadline = Date(timeIntervalSinceNow: 1.5)
    while Date() < deadline, !((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).contains(where: { $0.hasSuffix(".tmp") }) {
      usleep(20_000)
    }
    usleep(300_000)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(try Data(contentsOf: dir.appendingPathComponent(outputs[0])) == old)
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == before)
  }

  /// `render batch`: keeps going past an invalid scene, one line each, exit 65.
  @Test func batchKeepsGoing() throws {
    let dir = try Self.folder("batch")
    _ = try Self.scene(in: dir, name: "a")
    try "{\"version\": 1}".write(toFile: dir.appendingPathComponent("b.json").path, atomically: true, encoding: .utf8)
    _ = try Self.scene(in: dir, name: "c")
    let out = dir.appendingPathComponent("out")
    let r = try RenderBinary.run(["batch", dir.path, "--out", out.path, "--fps", "10", "--format", "gif", "--quiet"])
    #expect(r.status == 65, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 3 && lines[0].hasPrefix("ok") && lines[1].hasPrefix("invalid") && lines[2].hasPrefix("ok"))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("a.gif").path))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("c.gif").path))
    #expect(r.stderr.contains("b.json:1:1: error"))
  }

  /// Memory is bounded by the frames in flight: a 120 s render peaks within
  /// a few megabytes of a 2 s one.
  @Test func memoryDoesNotGrowWithLength() throws {
    let dir = try Self.folder("memory")
    func peak(_ duration: Double) throws -> Int {
      let scene = try Self.scene(in: dir, name: "m\(Int(duration))", duration: duration)
      let r = try RenderBinary.run([scene, "--fps", "30", "--quiet", "--json", "-o", dir.appendingPathComponent("m\(Int(duration)).mp4").path])
      #expect(r.status == 0, "\(r.stderr)")
      let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      return try #require(summary["peakMemoryBytes"] as? Int)
    }
    let short = try peak(2), long = try peak(120)
    #expect(long <= short + 16_000_000, "2 s: \(short) bytes, 120 s: \(long) bytes")
  }
}

/// The pipeline hands a sink its samples in the order it asked for them,
/// whatever order the workers finish in: a GIF palette built from them is
/// the same run after run.
@Suite struct SampleOrderTests {
  final class RecordingSink: FrameSink, @unchecked Sendable {
    let schedule = FrameSchedule(from: 0, to: 0, rate: FrameRate(1), slow: 1)
    var sampleTimes: [Double] { (0...40).map { Double($0) / 40 } }
    var seen: [Int] = []
    func sample(_ frame: Pixmap) throws { seen.append(Int(frame[0, 0].r)) }
    func prepare(_ frame: RenderedFrame, index: Int) throws {}
    func consume(_ frame: Void, index: Int) throws {}
    func finish() throws -> OutputSummary? { nil }
    func abort() {}
  }

  @Test func samplesArriveInTimeOrder() throws {
    // The grey level of the frame is the time: black at 0 s to white at 1 s.
    let scene = try SceneDecoder.decode(
      Array(
        ##"""
        {"version": 1, "size": [8, 8], "layers": [{"id": "r", "type": "rect", "size": [8, 8], "position": [4, 4], "fill": "#000000"}],
         "timeline": [{"at": 0, "animation": "linear(duration: 1)", "set": {"r": {"fill": "#FFFFFF"}}}]}
        """##.utf8), file: "t.json", defaultName: "t")
    for _ in 0..<5 {
      let sink = RecordingSink()
      _ = try FramePipeline(source: SceneRenderer(scene: scene), scale: 1, sinks: [sink], workers: 4).run()
      #expect(sink.seen.count == 41 && sink.seen == sink.seen.sorted() && sink.seen.first == 0 && sink.seen.last == 255, "\(sink.seen)")
    }
  }
}

/// Rendering yields to the encoders: the workers that render and prepare
/// frames run at nice 19, the thread that encodes them (the caller's) at
/// its own priority, and every frame still arrives, in order.
@Suite struct WorkerPriorityTests {
  final class PrioritySink: FrameSink, @unchecked Sendable {
    let schedule = FrameSchedule(from: 0, to: 0.5, rate: FrameRate(20), slow: 1)
    let lock = NSLock()
    var workers: Set<Int32> = [], consumers: Set<Int32> = [], order: [Int] = []
    /// The frame's index, typed, handed from the worker to the consumer.
    func prepare(_ frame: RenderedFrame, index: Int) throws -> Int {
      let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      lock.withLock { _ = workers.insert(nice) }
      return index
    }
    func consume(_ frame: Int, index: Int) throws {
      consumers.insert(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
      order.append(frame)
    }
    func finish() throws -> OutputSummary? { nil }
    func abort() {}
  }

  @Test func workersRunAtTheLowestPriorityAndTheEncoderAtItsOwn() throws {
    let scene = try SceneDecoder.decode(
      Array(#"{"version": 1, "size": [8, 8], "layers": [{"type": "rect", "size": [8, 8], "position": [4, 4], "fill": "red"}]}"#.utf8),
      file: "t.json", defaultName: "t")
    let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    let sink = PrioritySink()
    _ = try FramePipeline(source: SceneRenderer(scene: scene), scale: 1, sinks: [sink], workers: 2).run()
    #expect(sink.workers == [19])
    #expect(sink.consumers == [own] && own < 19)
    #expect(sink.order == Array(0..<11))
  }
}
