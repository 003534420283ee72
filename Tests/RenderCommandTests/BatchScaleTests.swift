import Foundation
import PNGCodec
import Primitives
import TestSupport
import Testing
import VideoOutput

/// `render batch` at scale (docs/cli.md, "Batch at scale"): shards that
/// partition the scenes by relative path alone, a content cache whose hits
/// are byte-identical and whose damaged entries are rebuilt, outputs in the
/// scenes' relative folders, the JSON and the GitHub step summary.
@Suite struct BatchScaleTests {
  /// A tiny valid scene named `name`.
  static func scene(_ name: String, color: String = "red") -> [UInt8] {
    Array(
      (#"{"version": 1, "name": "\#(name)", "size": [16, 16], "duration": 0.2, "layers": [{"id": "b", "type": "rect", "size": [8, 8], "position": [8, 8], "fill": "\#(color)"}], "#
        + #""timeline": [{"at": 0, "animation": "linear(duration: 0.2)", "set": {"b": {"rotation": 45}}}]}"#).utf8)
  }

  /// A folder of `count` scenes, some in subfolders.
  static func tree(_ dir: Scratch, count: Int) -> String {
    let root = dir.path("scenes")
    for i in 0..<count {
      let sub = i % 3 == 0 ? "" : "group\(i % 3)/"
      try? FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: root + "/" + sub + "s\(i).json", contents: Data(scene("scene\(i)")))
    }
    return root
  }

  static func json(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON array: \(text.prefix(300))")
  }

  static func files(_ root: String) -> [String: Data] {
    var all: [String: Data] = [:]
    for f in (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []) {
      var d: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + f, isDirectory: &d), !d.boolValue {
        all[f] = FileManager.default.contents(atPath: root + "/" + f)
      }
    }
    return all
  }

  /// Shards 1…N of 7 scenes: disjoint, covering, within one of each other,
  /// and together byte-identical to one run; the k-th scene by relative
  /// path goes to shard k mod N + 1, wherever the folder lives.
  @Test(arguments: [1, 2, 3, 7, 9])
  func shardsPartitionTheScenes(_ n: Int) throws {
    let dir = Scratch("springframe-shards")
    defer { dir.cleanUp() }
    let root = Self.tree(dir, count: 7)
    let whole = try RenderBinary.run(["batch", root, "--out", dir.path("whole"), "--fps", "10", "--format", "mp4,gif", "--quiet", "--json"])
    #expect(whole.status == 0, "\(whole.stderr)")
    let order = try Self.json(whole.stdout).compactMap { ($0["scene"] as? String).map { String($0.dropFirst(root.count + 1)) } }
    #expect(order == order.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } && order.count == 7)
    var seen: [String] = []
    var sizes: [Int] = []
    for i in 1...n {
      let r = try RenderBinary.run(
        ["batch", root, "--out", dir.path("sharded"), "--shard", "\(i)/\(n)", "--fps", "10", "--format", "mp4,gif", "--quiet", "--json"])
      #expect(r.status == 0, "\(r.stderr)")
      let mine = try Self.json(r.stdout).compactMap { ($0["scene"] as? String).map { String($0.dropFirst(root.count + 1)) } }
      #expect(mine == order.enumerated().filter { $0.offset % n == i - 1 }.map(\.element), "shard \(i)/\(n)")
      seen += mine
      sizes.append(mine.count)
    }
    #expect(seen.sorted() == order.sorted())
    #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
    #expect(Self.files(dir.path("whole")) == Self.files(dir.path("sharded")), "the shards' outputs are one run's, byte for byte")
    // Outputs keep the scenes' relative folders.
    #expect(FileManager.default.fileExists(atPath: dir.path("whole") + "/group1/scene1.gif"))
  }

  @Test(arguments: ["0/3", "4/3", "a/b", "1/0", "1", "2/-1"])
  func badShardsAreUsageErrors(_ shard: String) throws {
    let dir = Scratch("springframe-shard-usage")
    defer { dir.cleanUp() }
    let root = Self.tree(dir, count: 2)
    let r = try RenderBinary.run(["batch", root, "--out", dir.path("out"), "--shard", shard])
    #expect(r.status == 2)
    #expect(r.stderr.contains("--shard takes I/N with 1 ≤ I ≤ N"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
  }

  /// A warm cache copies every output (marked cached), byte-identical to a
  /// render; an option that changes the output, or a changed scene, misses;
  /// a damaged entry is detected, rebuilt and never served.
  @Test func cacheHitsAreByteIdenticalAndDamageIsRebuilt() throws {
    let dir = Scratch("springframe-cache")
    defer { dir.cleanUp() }
    let root = Self.tree(dir, count: 3)
    let cache = dir.path("cache")
    func batch(_ out: String, _ extra: [String] = []) throws -> [[String: Any]] {
      let r = try RenderBinary.run(
        ["batch", root, "--out", dir.path(out), "--cache", cache, "--fps", "10", "--format", "mp4,gif", "--quiet", "--json"] + extra)
      #expect(r.status == 0, "\(r.stderr)")
      return try Self.json(r.stdout)
    }
    let cold = try batch("cold")
    #expect(cold.allSatisfy { $0["cached"] as? Bool == false && $0["status"] as? String == "ok" })
    let warm = try batch("warm")
    #expect(warm.allSatisfy { $0["cached"] as? Bool == true })
    #expect(Self.files(dir.path("cold")) == Self.files(dir.path("warm")) && !Self.files(dir.path("warm")).isEmpty)
    // Every output's sha256 is its bytes'.
    for scene in warm {
      for output in scene["outputs"] as? [[String: Any]] ?? [] {
        let path = try #require(output["path"] as? String)
        #expect(output["sha256"] as? String == SHA256.hex([UInt8](FileManager.default.contents(atPath: path) ?? Data())))
      }
    }
    // Another crf changes the MP4: every scene misses.
    #expect(try batch("crf", ["--crf", "30"]).allSatisfy { $0["cached"] as? Bool == false })
    // --quality, --matte and --max-size change what a WebP holds: each misses.
    for (k, extra) in [["--quality", "50"], ["--quality", "60"], ["--quality", "60", "--matte", "red"], ["--quality", "60", "--max-size", "9MB"]]
      .enumerated()
    {
      let r = try RenderBinary.run(
        ["batch", root, "--out", dir.path("webp\(k)"), "--cache", cache, "--fps", "10", "--format", "webp", "--quiet", "--json"] + extra)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try Self.json(r.stdout).allSatisfy { $0["cached"] as? Bool == false }, "\(extra)")
    }
    // A changed scene misses; the others hit.
    _ = FileManager.default.createFile(atPath: root + "/s0.json", contents: Data(Self.scene("scene0", color: "blue")))
    let changed = try batch("changed")
    #expect(changed.filter { $0["cached"] as? Bool == false }.count == 1)
    // Damage every entry's first file: detected, rendered again, rebuilt.
    for entry in (try FileManager.default.contentsOfDirectory(atPath: cache)).filter({ !$0.hasPrefix(".") }) {
      let files = entry + "/files"
      if let first = (FileManager.default.enumerator(atPath: cache + "/" + files)?.allObjects as? [String])?.first(where: { $0.hasSuffix(".gif") }) {
        _ = FileManager.default.createFile(atPath: cache + "/" + files + "/" + first, contents: Data("broken".utf8))
      }
    }
    let repaired = try batch("repaired")
    #expect(repaired.allSatisfy { $0["cached"] as? Bool == false })
    #expect(Self.files(dir.path("repaired")) == Self.files(dir.path("changed")))
    #expect(try batch("again").allSatisfy { $0["cached"] as? Bool == true })
  }

  /// Two scenes with the same bytes and no name are named by their files:
  /// the cache keys on the name too, so each gets its own output from a
  /// warm cache, never the other's.
  @Test func sameBytesOtherNamesAreOtherEntries() throws {
    let dir = Scratch("springframe-cache-names")
    defer { dir.cleanUp() }
    let nameless = Array(String(decoding: Self.scene("x"), as: UTF8.self).replacingOccurrences(of: #""name": "x", "#, with: "").utf8)
    _ = dir.write(nameless, "a.json")
    _ = dir.write(nameless, "b.json")
    for run in ["cold", "warm"] {
      let r = try RenderBinary.run([
        "batch", dir.path("a.json"), dir.path("b.json"), "--out", dir.path(run), "--cache", dir.path("cache"), "--fps", "10", "--quiet", "--json",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let outputs = try Self.json(r.stdout).map {
        (($0["outputs"] as? [[String: Any]])?.first?["path"] as? String).map { ($0 as NSString).lastPathComponent }
      }
      #expect(outputs == ["a.mp4", "b.mp4"], "\(run): \(outputs)")
    }
    #expect(Self.files(dir.path("warm")).keys.sorted() == ["a.mp4", "b.mp4"])
  }

  /// Two scenes that write one output are refused by every shard, not
  /// only by the one that would get both.
  @Test func conflictsAreRefusedAcrossShards() throws {
    let dir = Scratch("springframe-shard-conflict")
    defer { dir.cleanUp() }
    let root = dir.path("scenes")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: root + "/a.json", contents: Data(Self.scene("same")))
    _ = FileManager.default.createFile(atPath: root + "/b.json", contents: Data(Self.scene("same", color: "blue")))
    for i in 1...2 {
      let r = try RenderBinary.run(["batch", root, "--out", dir.path("out"), "--shard", "\(i)/2", "--quiet"])
      #expect(r.status == 2 && r.stderr.contains("both write"), "shard \(i): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
  }

  @Test func anUnwritableCacheFailsBeforeRendering() throws {
    let dir = Scratch("springframe-cache-unwritable")
    defer { dir.cleanUp() }
    let root = Self.tree(dir, count: 1)
    _ = FileManager.default.createFile(atPath: dir.path("file"), contents: Data("x".utf8))
    let r = try RenderBinary.run(["batch", root, "--out", dir.path("out"), "--cache", dir.path("file") + "/cache"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("--cache") && r.stderr.contains("cannot write there"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
  }

  /// With GITHUB_STEP_SUMMARY set, a Markdown table of the scenes is appended.
  @Test func theStepSummaryIsAppended() throws {
    let dir = Scratch("springframe-step-summary")
    defer { dir.cleanUp() }
    let root = Self.tree(dir, count: 2)
    let summary = dir.path("summary.md")
    _ = FileManager.default.createFile(atPath: summary, contents: Data("before\n".utf8))
    let r = try RenderBinary.run(
      ["batch", root, "--out", dir.path("out"), "--fps", "10", "--format", "gif", "--quiet"], environment: ["GITHUB_STEP_SUMMARY": summary])
    #expect(r.status == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(text.hasPrefix("before\n### render batch"))
    #expect(text.contains("| scene | status | outputs |") && text.contains("s0.json` | ok |"), "\(text)")
  }

  // MARK: render diff

  /// A 40×40 scene turning a square by 90° with `animation`.
  static func turning(_ animation: String, size: Int = 40, at: Double = 0.1, angle: Double = 90) -> [UInt8] {
    Array(
      (#"{"version": 1, "size": [\#(size), \#(size)], "background": "white", "duration": 0.5, "layers": [{"id": "b", "type": "rect", "size": [20, 20], "position": [20, 20], "fill": "black"}], "#
        + #""timeline": [{"at": \#(at), "animation": "\#(animation)", "set": {"b": {"rotation": \#(angle)}}}]}"#).utf8)
  }

  @Test func diffFindsWhenAndHowMuch() throws {
    let dir = Scratch("springframe-diff")
    defer { dir.cleanUp() }
    let a = dir.write(Self.turning("linear(duration: 0.2)"), "a.json")
    let same = dir.write(Self.turning("linear(duration: 0.2)"), "same.json")
    let b = dir.write(Self.turning("easeIn(duration: 0.2)"), "b.json")
    let equal = try RenderBinary.run(["diff", a, same, "--fps", "20", "--json"])
    #expect(equal.status == 0, "\(equal.stderr)")
    let e = try #require(try JSONSerialization.jsonObject(with: Data(equal.stdout.utf8)) as? [String: Any])
    #expect(e["differs"] as? Bool == false && e["frames"] as? Int == 11 && (e["differing"] as? [Any])?.isEmpty == true)

    let r = try RenderBinary.run(["diff", a, b, "--fps", "20", "--json", "-o", dir.path("report") + "/"])
    #expect(r.status == 1, "\(r.stderr)")
    let d = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(d["differs"] as? Bool == true)
    // Both reach 90° at 0.3 s and start at 0.1 s: only the frames between differ.
    let ranges = try #require(d["differing"] as? [[String: Double]])
    #expect(ranges.count == 1 && ranges[0]["from"]! > 0.1 && ranges[0]["to"]! < 0.3, "\(ranges)")
    let worst = try #require(d["worst"] as? [String: Any])
    #expect((worst["pixels"] as? Int ?? 0) > 0 && (worst["maxLevel"] as? Int ?? 0) > 100)
    // The report: the most different frame as A | B | heat map, every frame as a video.
    let png = try PNG.read(path: dir.path("report/diff.png"))
    #expect(png.width == 120 && png.height == 40)
    let probe = try MediaProbe.info(path: dir.path("report/diff.mp4"))
    #expect(probe.frameCount == 11 && probe.width == 120)
    let summary = try String(contentsOfFile: dir.path("report/summary.md"), encoding: .utf8)
    #expect(summary.contains("frames differ") && summary.contains("diff.png"))
    // An allowance as large as the worst frame's count: nothing differs.
    let allowed = try RenderBinary.run(["diff", a, b, "--fps", "20", "--max-diff-pixels", "\(worst["pixels"] as? Int ?? 0)", "--quiet"])
    #expect(allowed.status == 0)
    let ratio = try RenderBinary.run(["diff", a, b, "--fps", "20", "--max-diff-ratio", "1", "--quiet"])
    #expect(ratio.status == 0)
  }

  @Test func diffBadInput() throws {
    let dir = Scratch("springframe-diff-usage")
    defer { dir.cleanUp() }
    let a = dir.write(Self.turning("smooth"), "a.json")
    let big = dir.write(Self.turning("smooth", size: 60), "big.json")
    let sizes = try RenderBinary.run(["diff", a, big])
    #expect(sizes.status == 2 && sizes.stderr.contains("the scenes differ in size"), "\(sizes.stderr)")
    let missing = try RenderBinary.run(["diff", a, dir.path("nope.json")])
    #expect(missing.status == 2 && missing.stderr.contains("cannot read"), "\(missing.stderr)")
    let bad = dir.write(Array(#"{"version": 1}"#.utf8), "bad.json")
    #expect(try RenderBinary.run(["diff", a, bad]).status == 65)
  }

  // MARK: batch --baseline --report

  /// base/ and new/: k/turn.json turns by 45° over 0.1–0.3 s in the
  /// baseline and over 0.3–0.5 s now; same.json is the same in both;
  /// fresh.json is new; gone.json was removed; same.json and k/copy.json
  /// are unchanged (the first with other bytes, the second the same).
  static func baselineTrees(_ dir: Scratch) -> (base: String, new: String) {
    let base = dir.path("base"), new = dir.path("new")
    for (root, at) in [(base, 0.1), (new, 0.3)] {
      try? FileManager.default.createDirectory(atPath: root + "/k", withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: root + "/k/turn.json", contents: Data(turning("linear(duration: 0.2)", at: at, angle: 45)))
      // The same scene written differently (rendered and compared) and
      // byte for byte the same (known unchanged without rendering).
      _ = FileManager.default.createFile(atPath: root + "/same.json", contents: Data(turning("smooth") + (root == new ? Array("\n\n".utf8) : [])))
      _ = FileManager.default.createFile(atPath: root + "/k/copy.json", contents: Data(turning("easeOut")))
    }
    _ = FileManager.default.createFile(atPath: base + "/gone.json", contents: Data(turning("snappy")))
    _ = FileManager.default.createFile(atPath: new + "/fresh.json", contents: Data(turning("bouncy")))
    return (base, new)
  }

  /// Statuses by scene file name, from `--json`.
  static func statuses(_ objects: [[String: Any]]) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: objects.map { (($0["scene"] as? String ?? "") as NSString).lastPathComponent + ":" + ($0["status"] as? String ?? "") }.map
      {
        let p = $0.split(separator: ":")
        return (String(p[0]), String(p[1]))
      })
  }

  @Test func baselineReportSaysWhatChangedWhenAndHowMuch() throws {
    let dir = Scratch("springframe-baseline")
    defer { dir.cleanUp() }
    let (base, new) = Self.baselineTrees(dir)
    let r = try RenderBinary.run(
      ["batch", new, "--out", dir.path("out"), "--baseline", base, "--report", dir.path("report"), "--fps", "20", "--quiet", "--json"])
    #expect(r.status == 1, "a changed scene fails the batch: \(r.stderr)")
    let objects = try Self.json(r.stdout)
    #expect(
      Self.statuses(objects) == [
        "turn.json": "changed", "same.json": "unchanged", "copy.json": "unchanged", "fresh.json": "new", "gone.json": "removed",
      ])
    let same = try #require(objects.first { ($0["scene"] as? String ?? "").hasSuffix("same.json") }?["diff"] as? [String: Any])
    #expect(same["frames"] as? Int == 11 && same["differingFrames"] as? Int == 0 && same["identical"] == nil, "compared frame by frame")
    let copy = try #require(objects.first { ($0["scene"] as? String ?? "").hasSuffix("copy.json") }?["diff"] as? [String: Any])
    #expect(copy["identical"] as? Bool == true, "the same bytes: not rendered")
    // By hand: the baseline turns 0→45° over 0.1–0.3 s, the new one over
    // 0.3–0.5 s; at 20 fps the frames 0.15 … 0.45 s differ, 0.1 and 0.5 agree.
    let turn = try #require(objects.first { ($0["scene"] as? String ?? "").hasSuffix("k/turn.json") })
    let diff = try #require(turn["diff"] as? [String: Any])
    let ranges = try #require(diff["differing"] as? [[String: Double]])
    #expect(ranges.count == 1 && abs(ranges[0]["from"]! - 0.15) < 1e-9 && abs(ranges[0]["to"]! - 0.45) < 1e-9, "\(ranges)")
    #expect(diff["differingFrames"] as? Int == 7 && diff["frames"] as? Int == 11)
    let gone = try #require(objects.first { $0["status"] as? String == "removed" })
    #expect((gone["outputs"] as? [Any])?.isEmpty == true && (gone["scene"] as? String) == base + "/gone.json")
    // The report: the summary, and pictures for the changed scene only.
    let summary = try String(contentsOfFile: dir.path("report/summary.md"), encoding: .utf8)
    #expect(summary.contains("0.150–0.450 s") && summary.contains("7 of 11 frames") && summary.contains("k/turn/diff.png"), "\(summary)")
    #expect(summary.contains("| removed |") && summary.contains("| new |") && summary.contains("| unchanged |"))
    let png = try PNG.read(path: dir.path("report/k/turn/diff.png"))
    #expect(png.width == 120 && png.height == 40, "baseline | new | difference")
    #expect(try MediaProbe.info(path: dir.path("report/k/turn/diff.mp4")).frameCount == 11)
    #expect(!FileManager.default.fileExists(atPath: dir.path("report/same")), "no pictures for an unchanged scene")
    // The outputs are written as without --baseline.
    #expect(FileManager.default.fileExists(atPath: dir.path("out/k/turn.mp4")))

    // Against itself nothing changed: exit 0.
    let itself = try RenderBinary.run(["batch", new, "--out", dir.path("out2"), "--baseline", new, "--fps", "20", "--quiet", "--json"])
    #expect(itself.status == 0, "\(itself.stderr)")
    #expect(Set(Self.statuses(try Self.json(itself.stdout)).values) == ["unchanged"])

    // Shards split the removed scenes too: together they say what one run says.
    var union: [String: String] = [:]
    for i in 1...2 {
      let s = try RenderBinary.run(
        ["batch", new, "--out", dir.path("out3"), "--baseline", base, "--shard", "\(i)/2", "--fps", "20", "--quiet", "--json"])
      union.merge(Self.statuses(try Self.json(s.stdout))) { a, _ in a + "twice" }
    }
    #expect(union == Self.statuses(objects))
  }

  @Test func baselineBadInput() throws {
    let dir = Scratch("springframe-baseline-usage")
    defer { dir.cleanUp() }
    let (_, new) = Self.baselineTrees(dir)
    let missing = try RenderBinary.run(["batch", new, "--out", dir.path("out"), "--baseline", dir.path("nope")])
    #expect(missing.status == 2 && missing.stderr.contains("does not exist"), "\(missing.stderr)")
    let reportAlone = try RenderBinary.run(["batch", new, "--out", dir.path("out"), "--report", dir.path("r")])
    #expect(reportAlone.status == 2 && reportAlone.stderr.contains("--baseline"), "\(reportAlone.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out")) && !FileManager.default.fileExists(atPath: dir.path("r")))
  }
}
