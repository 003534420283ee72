import Foundation
import PNGCodec
import Raster
import TestSupport
import Testing

/// ProRes 4444 `.mov`, VP9 `.webm` and animated PNG: each decoded back by
/// FFmpeg's command-line tools (not our code) and compared with the PNG
/// sequence of the same frames: APNG exactly, the others within a stated
/// PSNR, alpha included; their tags and frame timing as CLI.md says.
@Suite(.serialized) struct MoreFormatsTests {
  static let hasFFmpeg = ["ffmpeg", "ffprobe"].allSatisfy { tool in
    ["/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
  }

  /// A transparent 64 × 48 scene: a translucent square drifting over a
  /// moving opaque disc, 1 s at 10 fps (11 frames).
  static func scene(_ dir: Scratch, transparent: Bool = true) throws -> String {
    let path = dir.path("alpha.json")
    try ##"""
    {"version": 1, "size": [64, 48], "scale": 1, "background": "\##(transparent ? "clear" : "#FFFFFF")", "duration": 1,
     "layers": [{"id": "disc", "type": "circle", "size": [24, 24], "position": [14, 24], "fill": "#FF8000"},
                {"id": "sq", "type": "rect", "size": [20, 20], "position": [50, 20], "fill": "#2060FF", "opacity": 0.5, "cornerRadius": 4}],
     "timeline": [{"at": 0, "animation": "linear(duration: 1)", "set": {"disc": {"offset": [36, 0]}, "sq": {"offset": [-30, 6]}}}]}
    """##.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Runs a tool; its standard output.
  static func tool(_ name: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }

  /// Every frame of a file as straight RGBA, decoded by FFmpeg (VP9 by
  /// libvpx, whose decoder keeps the alpha).
  static func decoded(_ path: String, width: Int, height: Int, vp9: Bool = false) throws -> [[UInt8]] {
    // libvpx's decoder does not pass the stream's BT.709 tag on: say it.
    let vp9Options = ["-c:v", "libvpx-vp9"], matrix = ["-vf", "scale=in_color_matrix=bt709:in_range=tv"]
    let data = try tool("ffmpeg", (vp9 ? vp9Options : []) + ["-i", path] + (vp9 ? matrix : []) + ["-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    let size = 4 * width * height
    return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<($0 + size)]) }
  }

  /// The PNG sequence's frames, as straight RGBA.
  static func reference(_ scene: String, _ dir: Scratch) throws -> [[UInt8]] {
    let r = try RenderBinary.run([scene, "--fps", "10", "-o", dir.path("frames") + "/", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path("frames")).filter { $0.hasSuffix(".png") }.sorted()
    return try files.map { try PNG.read(path: dir.path("frames/" + $0)).straightenedForTest() }
  }

  static func probe(_ path: String, _ entries: String) throws -> String {
    String(decoding: try tool("ffprobe", ["-v", "error", "-count_frames", "-show_entries", entries, "-of", "default=nw=1", path]), as: UTF8.self)
  }

  /// PSNR in dB of `a` against `b` over the channels `channels` picks (of
  /// RGBA), over pixels where `b`'s alpha is at least `minimumAlpha`.
  static func psnr(_ a: [UInt8], _ b: [UInt8], channels: [Int], minimumAlpha: UInt8 = 0) -> Double {
    var sum = 0.0, count = 0
    for i in stride(from: 0, to: b.count, by: 4) where b[i + 3] >= minimumAlpha {
      for c in channels {
        let d = Double(a[i + c]) - Double(b[i + c])
        sum += d * d
        count += 1
      }
    }
    guard count > 0, sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(count)))
  }

  @Test(.enabled(if: hasFFmpeg && hasPIL)) func animatedPNGIsLosslessWithExactDelays() throws {
    let dir = Scratch("springframe-apng")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir)
    let frames = try Self.reference(scene, dir)
    let r = try RenderBinary.run([scene, "--fps", "10", "-o", dir.path("a.apng"), "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    // Decoded by Pillow.
    let decoded = try Self.pillowFrames(dir.path("a.apng"))
    #expect(decoded.count == 11 && frames.count == 11)
    for (k, (got, want)) in zip(decoded, frames).enumerated() {
      // Pixels equal the PNG sequence's (colour under full transparency aside).
      var same = true
      for i in stride(from: 0, to: want.count, by: 4) {
        let alpha = want[i + 3]
        if got[i + 3] != alpha { same = false }
        if alpha > 0 && (got[i] != want[i] || got[i + 1] != want[i + 1] || got[i + 2] != want[i + 2]) { same = false }
      }
      #expect(same, "frame \(k)")
    }
    // acTL: 11 frames, looping forever; every fcTL delay exactly 1/10 s.
    let chunks = try Self.pngChunks(dir.path("a.apng"))
    let control = chunks.first { $0.type == "acTL" }.map { Array($0.data.prefix(8)) }
    let delays = chunks.filter { $0.type == "fcTL" }.map { Array($0.data[20..<24]) }
    #expect(control == [0, 0, 0, 11, 0, 0, 0, 0])
    #expect(delays.count == 11 && delays.allSatisfy { $0 == [0, 1, 0, 10] })
    // At 29.97 fps every delay is exactly 1001/30000 s.
    #expect(try RenderBinary.run([scene, "--fps", "29.97", "-o", dir.path("ntsc.apng"), "--quiet"]).status == 0)
    let fractions = try Self.pngChunks(dir.path("ntsc.apng")).filter { $0.type == "fcTL" }.map { c in
      (Int(c.data[20]) << 8 | Int(c.data[21]), Int(c.data[22]) << 8 | Int(c.data[23]))
    }
    // floor(1 s × 30000/1001 + 1e-9) + 1 = 30 frames.
    #expect(fractions.count == 30 && fractions.allSatisfy { $0.0 * 30000 == $0.1 * 1001 }, "\(fractions.prefix(3))")
    // An opaque scene is stored as RGB, its pixels exactly the PNGs'.
    let opaqueDir = Scratch("springframe-apng-opaque")
    defer { opaqueDir.cleanUp() }
    let opaque = try Self.scene(opaqueDir, transparent: false)
    #expect(try RenderBinary.run([opaque, "--fps", "10", "-o", opaqueDir.path("o.apng"), "--quiet"]).status == 0)
    #expect(try Self.decoded(opaqueDir.path("o.apng"), width: 64, height: 48) == (try Self.reference(opaque, opaqueDir)))
  }

  static let hasPIL: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import PIL.WebPImagePlugin"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  /// Every frame of an animated WebP or PNG as RGBA, decoded by Pillow.
  static func pillowFrames(_ path: String) throws -> [[UInt8]] {
    let script =
      "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nfor i in range(im.n_frames):\n    im.seek(i)\n    sys.stdout.buffer.write(im.convert('RGBA').tobytes())\n"
    let data = try tool("python3", ["-c", script, path])
    let size = 4 * 64 * 48
    return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<($0 + size)]) }
  }

  /// An animated WebP: lossless (pixels equal the PNG sequence's, colour
  /// under full transparency aside), alpha kept, looping forever, frame i
  /// lasting round(1000(i+1)/fps) − round(1000 i/fps) ms.
  @Test(.enabled(if: hasPIL)) func animatedWebPIsLosslessWithCLIsDurations() throws {
    let dir = Scratch("springframe-webp")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir)
    let frames = try Self.reference(scene, dir)
    let r = try RenderBinary.run([scene, "--fps", "10", "-o", dir.path("a.webp"), "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let decoded = try Self.pillowFrames(dir.path("a.webp"))
    #expect(decoded.count == 11)
    for (k, (got, want)) in zip(decoded, frames).enumerated() {
      var same = true
      for i in stride(from: 0, to: want.count, by: 4) where got[i + 3] != want[i + 3] || (want[i + 3] > 0 && got[i..<(i + 3)] != want[i..<(i + 3)]) {
        same = false
      }
      #expect(same, "frame \(k)")
    }
    // The container: ANIM loops forever; each ANMF lasts 100 ms.
    let tenths = try Self.webPTiming(dir.path("a.webp"))
    #expect(tenths.loop == 0 && tenths.durations == Array(repeating: 100, count: 11))
    // At 30 fps: 33, 34, 33, … ms by CLI.md's formula, adding up to frames / fps.
    let r30 = try RenderBinary.run([scene, "--fps", "30", "-o", dir.path("b.webp"), "--quiet"])
    #expect(r30.status == 0)
    let expected = (0..<31).map { i in Int((1000 * Double(i + 1) / 30).rounded()) - Int((1000 * Double(i) / 30).rounded()) }
    #expect(try Self.webPTiming(dir.path("b.webp")).durations == expected)
    #expect(expected.reduce(0, +) == 1033)
    // Above 50 fps it samples at 50, every frame 20 ms, and says so.
    let r60 = try RenderBinary.run([scene, "--fps", "60", "-o", dir.path("c.webp")])
    #expect(r60.status == 0 && r60.stderr.contains("plays at most 50 fps") && r60.stderr.contains("sampled at 50 fps, not 60"), "\(r60.stderr)")
    #expect(try Self.webPTiming(dir.path("c.webp")).durations == Array(repeating: 20, count: 51))
  }

  /// A PNG's chunks in order, each its type and data.
  static func pngChunks(_ path: String) throws -> [(type: String, data: [UInt8])] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var i = 8, chunks: [(type: String, data: [UInt8])] = []
    while i + 8 <= bytes.count {
      let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      guard i + 8 + n <= bytes.count else { break }
      chunks.append((String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self), Array(bytes[(i + 8)..<(i + 8 + n)])))
      i += 12 + n
    }
    return chunks
  }

  /// An animated WebP's loop count (ANIM) and frame durations (ANMF), read
  /// from its RIFF chunks.
  static func webPTiming(_ path: String) throws -> (loop: Int, durations: [Int]) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var i = 12, durations: [Int] = [], loop = -1
    while i + 8 <= bytes.count {
      let type = String(decoding: bytes[i..<(i + 4)], as: UTF8.self)
      let n = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
      if type == "ANIM" { loop = Int(bytes[i + 12]) | Int(bytes[i + 13]) << 8 }
      if type == "ANMF" { durations.append(Int(bytes[i + 20]) | Int(bytes[i + 21]) << 8 | Int(bytes[i + 22]) << 16) }
      i += 8 + n + (n & 1)
    }
    return (loop, durations)
  }

  /// Several `-o` in one run, each with its own size and rate: every
  /// output as it would be rendered alone, byte for byte.
  @Test(.enabled(if: hasFFmpeg)) func severalOutputsWithTheirOwnScaleAndRate() throws {
    let dir = Scratch("springframe-several")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir, transparent: false)
    let r = try RenderBinary.run([
      scene, "--fps", "20", "-o", dir.path("a.gif") + "[scale=0.5,fps=10]", "-o", dir.path("a.apng"), "-o", dir.path("b.apng") + "[fps=5]",
      "--quiet", "--json",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let alone = [
      (["-o", dir.path("c.gif"), "--scale", "0.5", "--fps", "10"], "a.gif", "c.gif"),
      (["-o", dir.path("c.apng"), "--fps", "20"], "a.apng", "c.apng"),
      (["-o", dir.path("d.apng"), "--fps", "5"], "b.apng", "d.apng"),
    ]
    for (arguments, together, single) in alone {
      #expect(try RenderBinary.run([scene, "--quiet"] + arguments).status == 0)
      let a = try Data(contentsOf: URL(fileURLWithPath: dir.path(together))), b = try Data(contentsOf: URL(fileURLWithPath: dir.path(single)))
      #expect(a == b, "\(together)")
    }
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect((summary["outputs"] as? [[String: Any]])?.map { $0["frames"] as? Int } == [11, 21, 6])
    // Bad overrides are usage errors, and nothing is written.
    for output in [dir.path("x.gif") + "[scal=1]", dir.path("x.gif") + "[scale=1", dir.path("x.png") + "[scale=2]", dir.path("x.gif") + "[fps=0]"] {
      let bad = try RenderBinary.run([scene, "--quiet", "-o", output, "-o", dir.path("y.gif")])
      #expect(bad.status == 2 && bad.stderr.hasPrefix("render: error: "), "\(output): \(bad.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.path("y.gif")))
    }
  }

  /// `--matte`: an MP4 shows the transparent scene over the colour; a GIF
  /// keeps fully transparent pixels transparent and composites partly
  /// transparent ones over it. `--quality` makes a WebP lossy, within a
  /// stated PSNR; either option where it cannot apply is a usage error.
  @Test(.enabled(if: hasFFmpeg && hasPIL)) func matteAndQuality() throws {
    let dir = Scratch("springframe-matte")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir)
    let frames = try Self.reference(scene, dir)
    let r = try RenderBinary.run([
      scene, "--fps", "10", "--matte", "#20C040", "--quality", "90", "-o", dir.path("m.mp4"), "-o", dir.path("m.gif"), "-o", dir.path("m.webp"),
      "--quiet",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    // MP4: frame 0 at a corner (transparent in the scene) is the matte.
    let mp4 = try Self.decoded(dir.path("m.mp4"), width: 64, height: 48)
    let corner = Array(mp4[0][0..<3])
    #expect(abs(Int(corner[0]) - 0x20) <= 3 && abs(Int(corner[1]) - 0xC0) <= 3 && abs(Int(corner[2]) - 0x40) <= 3, "\(corner)")
    // GIF: the corner stays transparent; the translucent square (blue at
    // half over nothing) is composited over the matte: (blue + matte) / 2.
    let gif = try decodeGIF([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("m.gif")))))
    let canvas = gif.canvas(atHundredths: 0)
    #expect(canvas[3] == 0)
    let p = 4 * (20 * 64 + 50)
    let expected = [(0x20 + 0x20) / 2, (0x60 + 0xC0) / 2, (0xFF + 0x40) / 2]
    #expect(canvas[p + 3] == 255 && zip(canvas[p..<(p + 3)], expected).allSatisfy { abs(Int($0) - $1) <= 12 }, "\(Array(canvas[p..<(p + 4)]))")
    // WebP at quality 90 keeps its alpha; lossy 4:2:0 colour, as WebM's:
    // on this scene of sharp colour edges each frame above 20 dB, the whole
    // clip above 25 (VP8's chroma is half the size).
    let webp = try Self.pillowFrames(dir.path("m.webp"))
    #expect(webp.count == 11)
    for (got, want) in zip(webp, frames) {
      #expect(Self.psnr(got, want, channels: [3]) >= 30)
      #expect(Self.psnr(got, want, channels: [0, 1, 2], minimumAlpha: 255) >= 20)
    }
    #expect(Self.psnr(webp.flatMap { $0 }, frames.flatMap { $0 }, channels: [0, 1, 2], minimumAlpha: 255) >= 25)
    for bad in [
      ["--quality", "90", "-o", dir.path("x.gif")], ["--quality", "-1", "-o", dir.path("x.webp")], ["--matte", "blu", "-o", dir.path("x.gif")],
    ] {
      let result = try RenderBinary.run([scene, "--quiet"] + bad)
      #expect(result.status == 2 && result.stderr.hasPrefix("render: error: "), "\(bad)")
      #expect(!FileManager.default.fileExists(atPath: dir.path("x.gif")) && !FileManager.default.fileExists(atPath: dir.path("x.webp")))
    }
  }

  /// `--max-size`: a GIF over the budget is rendered again at a lower
  /// rate (then scale, then colours) until it fits, its delays still
  /// adding up to its length; one that cannot fit fails (exit 1) and
  /// leaves nothing; a render with no GIF or WebP is a usage error.
  @Test func maxSizeLowersOnlyAsFarAsNeeded() throws {
    let dir = Scratch("springframe-max-size")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir, transparent: false)
    #expect(try RenderBinary.run([scene, "--fps", "50", "-o", dir.path("full.gif"), "--quiet"]).status == 0)
    let full = fileSize(dir.path("full.gif"))
    let budget = full * 4 / 5
    let r = try RenderBinary.run([scene, "--fps", "50", "-o", dir.path("a.gif"), "--max-size", "\(budget)B", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("under --max-size") && r.stderr.contains("fps"), "\(r.stderr)")
    let size = fileSize(dir.path("a.gif"))
    #expect(size <= budget && size > 0)
    let gif = try decodeGIF([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("a.gif")))))
    #expect(gif.images.count < 51)
    // The frames at the lower rate still last the scene's length (1 s and a frame).
    let total = gif.images.map(\.delay).reduce(0, +)
    #expect(abs(total - (100 + 100 / gif.images.count)) <= 4, "\(total)")
    // Deterministic: the same bytes again.
    #expect(try RenderBinary.run([scene, "--fps", "50", "-o", dir.path("b.gif"), "--max-size", "\(budget)B", "--quiet"]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("a.gif"))) == Data(contentsOf: URL(fileURLWithPath: dir.path("b.gif"))))
    // Too small for the floors: exit 1, nothing written, no hidden file left.
    let tiny = try RenderBinary.run([scene, "-o", dir.path("tiny.gif"), "--max-size", "100B", "--quiet"])
    #expect(tiny.status == 1 && tiny.stderr.contains("over --max-size"), "\(tiny.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.directory.path)
    #expect(!left.contains { $0.contains("tiny") }, "\(left)")
    // Usage errors.
    for bad in [["-o", dir.path("x.mp4"), "--max-size", "1MB"], ["-o", dir.path("x.gif"), "--max-size", "ten"]] {
      let result = try RenderBinary.run([scene, "--quiet"] + bad)
      #expect(result.status == 2 && result.stderr.hasPrefix("render: error: "), "\(bad): \(result.stderr)")
    }
  }

  /// `--max-size` lowers from each output's own `[scale=…,fps=…]`, never
  /// from the global options; several outputs are put in place together,
  /// so one that cannot fit leaves none of them (nor a hidden file).
  @Test func maxSizeKeepsEachOutputsOwnScaleAndWritesAllOrNothing() throws {
    let dir = Scratch("springframe-max-size-own")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir, transparent: false)
    // Alone at its own scale 0.5 and 50 fps; then under a budget 4/5 of that.
    #expect(try RenderBinary.run([scene, "--fps", "50", "-o", dir.path("half.gif"), "--scale", "0.5", "--quiet"]).status == 0)
    let budget = fileSize(dir.path("half.gif")) * 4 / 5
    let r = try RenderBinary.run([
      scene, "--scale", "2", "--fps", "60", "-o", dir.path("a.gif") + "[scale=0.5,fps=50]", "-o", dir.path("a.mp4"), "--max-size", "\(budget)B",
      "--quiet",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let gif = try decodeGIF([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("a.gif")))))
    // 64 × 48 points at 0.5 (or less, if the scale was lowered): never at --scale 2.
    #expect(gif.width <= 32 && gif.height <= 24, "\(gif.width)×\(gif.height)")
    #expect(fileSize(dir.path("a.gif")) <= budget)
    // Its rate was lowered from its own 50 fps (to 30 at the first step): fewer than 51 frames, more than 15.
    #expect(gif.images.count < 51 && gif.images.count >= 16, "\(gif.images.count)")
    #expect(r.stderr.contains("under --max-size") && !r.stderr.contains("scale 2"), "\(r.stderr)")
    #expect(fileSize(dir.path("a.mp4")) > 0)
    // A budget nothing can meet: exit 1, neither output written, no hidden file.
    let tiny = try RenderBinary.run([scene, "-o", dir.path("t.mp4"), "-o", dir.path("t.gif"), "--max-size", "100B", "--quiet"])
    #expect(tiny.status == 1 && tiny.stderr.contains("over --max-size"), "\(tiny.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.directory.path)
    #expect(!left.contains { $0.contains("t.") && !$0.contains("alpha") }, "\(left)")
  }

  /// `--max-size` on a WebP: past the rate (to 15) and the scale (to half)
  /// it lowers the lossy quality from 90, only as far as needed: with a
  /// budget between the sizes at quality 75 and 60 at those floors, 60.
  @Test func maxSizeLowersAWebPsQualityLast() throws {
    let dir = Scratch("springframe-max-size-webp")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir, transparent: false)
    for q in ["75", "60"] {
      #expect(try RenderBinary.run([scene, "--fps", "15", "--scale", "0.5", "--quality", q, "-o", dir.path("q\(q).webp"), "--quiet"]).status == 0)
    }
    #expect(try RenderBinary.run([scene, "--fps", "15", "--scale", "0.5", "-o", dir.path("lossless.webp"), "--quiet"]).status == 0)
    let q75 = fileSize(dir.path("q75.webp")), q60 = fileSize(dir.path("q60.webp")), lossless = fileSize(dir.path("lossless.webp"))
    try #require(q60 < q75 && q75 < lossless, "\(q60) \(q75) \(lossless)")
    let budget = (q60 + q75) / 2
    let r = try RenderBinary.run([scene, "--fps", "50", "-o", dir.path("a.webp"), "--max-size", "\(budget)B", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("with 15 fps, scale 0.5, quality 60"), "\(r.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("a.webp"))) == Data(contentsOf: URL(fileURLWithPath: dir.path("q60.webp"))))
  }

  /// An output format the renderer does not know is a usage error whose
  /// message lists every format it knows.
  @Test func anUnknownExtensionListsTheFormats() throws {
    let dir = Scratch("springframe-unknown-extension")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir)
    let r = try RenderBinary.run([scene, "-o", dir.path("x.avi"), "--quiet"])
    #expect(r.status == 2 && r.stderr.hasPrefix("render: error: "), "\(r.stderr)")
    for ext in [".mp4", ".gif", ".png", ".webp", ".apng", ".mov", ".webm"] { #expect(r.stderr.contains(ext), "\(ext): \(r.stderr)") }
    #expect(!FileManager.default.fileExists(atPath: dir.path("x.avi")))
  }

  /// `--overlay` with per-output rates and scales: each output is the
  /// same, byte for byte, as the same output rendered alone (its timecode
  /// numbered and sized for its own frames).
  @Test func overlaysWithPerOutputOverridesMatchEachOutputAlone() throws {
    let dir = Scratch("springframe-overlay-overrides")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir, transparent: false)
    let r = try RenderBinary.run([
      scene, "--overlay", "timecode", "--fps", "20", "--scale", "2", "-o", dir.path("a.gif") + "[fps=10]", "-o", dir.path("b.gif"),
      "-o", dir.path("c.gif") + "[scale=1]", "--quiet",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    for (name, extra) in [("a", ["--fps", "10", "--scale", "2"]), ("b", ["--fps", "20", "--scale", "2"]), ("c", ["--fps", "20", "--scale", "1"])] {
      let alone = try RenderBinary.run([scene, "--overlay", "timecode", "-o", dir.path(name + "-alone.gif"), "--quiet"] + extra)
      #expect(alone.status == 0, "\(alone.stderr)")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: dir.path(name + ".gif"))) == Data(contentsOf: URL(fileURLWithPath: dir.path(name + "-alone.gif"))),
        "\(name)")
    }
  }

  func fileSize(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }

  @Test(.enabled(if: hasFFmpeg)) func proRes4444KeepsAlpha() throws {
    let dir = Scratch("springframe-prores")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir)
    let frames = try Self.reference(scene, dir)
    let r = try RenderBinary.run([scene, "--fps", "10", "-o", dir.path("a.mov"), "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let info = try Self.probe(
      dir.path("a.mov"), "stream=codec_name,codec_tag_string,pix_fmt,color_space,color_primaries,color_transfer,nb_read_frames,r_frame_rate")
    for fact in [
      "codec_name=prores", "codec_tag_string=ap4h", "color_space=bt709", "color_primaries=bt709", "color_transfer=bt709", "nb_read_frames=11",
      "r_frame_rate=10/1",
    ] {
      #expect(info.contains(fact), "\(info)")
    }
    #expect(info.contains("pix_fmt=yuva444p"), "\(info)")
    let decoded = try Self.decoded(dir.path("a.mov"), width: 64, height: 48)
    #expect(decoded.count == 11)
    for (got, want) in zip(decoded, frames) {
      #expect(Self.psnr(got, want, channels: [3]) >= 45)  // alpha
      #expect(Self.psnr(got, want, channels: [0, 1, 2], minimumAlpha: 255) >= 40)  // opaque colour
    }
  }

  @Test(.enabled(if: hasFFmpeg)) func webMHasAlphaWhenTheSceneIsTransparent() throws {
    let dir = Scratch("springframe-webm")
    defer { dir.cleanUp() }
    let scene = try Self.scene(dir)
    let frames = try Self.reference(scene, dir)
    let r = try RenderBinary.run([scene, "--fps", "10", "-o", dir.path("a.webm"), "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let info = try Self.probe(dir.path("a.webm"), "stream=codec_name,color_space,nb_read_frames,r_frame_rate:stream_tags=alpha_mode")
    for fact in ["codec_name=vp9", "color_space=bt709", "nb_read_frames=11", "r_frame_rate=10/1", "alpha_mode=1"] {
      #expect(info.contains(fact), "\(info)")
    }
    let decoded = try Self.decoded(dir.path("a.webm"), width: 64, height: 48, vp9: true)
    #expect(decoded.count == 11)
    // 4:2:0 halves the chroma: on this 64 × 48 scene of sharp colour edges
    // (orange under translucent blue) a frame's colour may fall to ~22 dB
    // at the edges; the whole clip stays above 25 dB, alpha above 30.
    for (got, want) in zip(decoded, frames) {
      #expect(Self.psnr(got, want, channels: [3]) >= 30)
      #expect(Self.psnr(got, want, channels: [0, 1, 2], minimumAlpha: 255) >= 20)
    }
    #expect(Self.psnr(decoded.flatMap { $0 }, frames.flatMap { $0 }, channels: [0, 1, 2], minimumAlpha: 255) >= 25)
    // An opaque scene has no alpha channel.
    let opaque = try Self.scene(Scratch("springframe-webm-opaque"), transparent: false)
    #expect(try RenderBinary.run([opaque, "--fps", "10", "-o", dir.path("b.webm"), "--quiet"]).status == 0)
    let plain = try Self.probe(dir.path("b.webm"), "stream=pix_fmt:stream_tags=alpha_mode")
    #expect(plain.contains("pix_fmt=yuv420p") && !plain.contains("alpha_mode=1"), "\(plain)")
  }
}

extension Pixmap {
  /// Straight RGBA as the PNG sequence stores it (read back premultiplied
  /// by the codec, straightened here by round(c · 255 / a)).
  func straightenedForTest() -> [UInt8] {
    var out = bytes
    for i in stride(from: 0, to: out.count, by: 4) {
      let a = Double(out[i + 3])
      for c in 0..<3 { out[i + c] = a == 0 ? 0 : UInt8(min(255, (Double(out[i + c]) * 255 / a).rounded())) }
    }
    return out
  }
}
