import Foundation
import FoundationXML
import PNGCodec
import Raster
import TestSupport
import Testing

/// The review outputs (docs/cli.md, "Review outputs"): charts against the
/// timing vectors and found in their own pixels where `--json` says,
/// overlays that leave the scene's pixels alone, sheet cells and compare
/// panels equal to stills of the same times, and their bad input.
@Suite struct ReviewTests {
  static func folder(_ name: String) -> Scratch { Scratch("springframe-review-\(name)") }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text.prefix(200))")
  }

  static func rect(_ any: Any?) throws -> (x: Double, y: Double, w: Double, h: Double) {
    let r = try #require(any as? [Double], "not a rect: \(String(describing: any))")
    try #require(r.count == 4)
    return (r[0], r[1], r[2], r[3])
  }

  /// A scene turning a rect from 0 to 1 degree with `animation` at 0 s.
  static func rotationScene(_ animation: String, duration: Double = 1, extra: String = "") -> String {
    #"{"version": 1, "size": [120, 80], "background": "white", "duration": \#(duration), \#(extra)"#
      + #""layers": [{"id": "box", "type": "rect", "size": [40, 40], "position": [60, 40], "fill": "blue"}], "#
      + #""timeline": [{"at": 0, "animation": "\#(animation)", "set": {"box": {"rotation": 1}}}]}"#
  }

  static func vectors() throws -> [[String: Any]] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("TimingTests/Fixtures/timing.json")
    let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    return try #require(root["springs"] as? [[String: Any]])
  }

  // MARK: Charts

  /// Every spring of the vectors, charted from a scene: the series'
  /// samples at the vectors' times are the independent integration's.
  @Test func chartSamplesMatchTheTimingVectors() throws {
    let dir = Self.folder("vectors")
    defer { dir.cleanUp() }
    for spring in try Self.vectors() {
      let mass = try #require(spring["mass"] as? Double), stiffness = try #require(spring["stiffness"] as? Double)
      let damping = try #require(spring["damping"] as? Double)
      guard (spring["initialVelocity"] as? Double) == 0, (spring["target"] as? Double) == 1 else { continue }
      let animation = "interpolatingSpring(mass: \(mass), stiffness: \(stiffness), damping: \(damping))"
      let scene = dir.write(Array(Self.rotationScene(animation).utf8), "s.json")
      let r = try RenderBinary.run(["chart", scene, "-o", dir.path("c.png"), "--json"])
      #expect(r.status == 0, "\(r.stderr)")
      let series = try #require(try Self.json(r.stdout)["series"] as? [[String: Any]])
      let rotation = try #require(series.first { $0["property"] as? String == "rotation" })
      #expect(rotation["layer"] as? String == "box")
      let samples = try #require(rotation["samples"] as? [[String: Double]])
      #expect(samples.count >= 121, "at least 120 samples per second")
      for expected in try #require(spring["samples"] as? [[String: Double]]) {
        let t = expected["t"]!
        guard t <= 1 else { continue }
        let nearest = try #require(samples.min { abs($0["t"]! - t) < abs($1["t"]! - t) })
        #expect(abs(nearest["t"]! - t) < 1e-12, "a sample at \(t)")
        #expect(abs(nearest["value"]! - expected["value"]!) < 1e-9, "\(animation) at \(t)")
        #expect(abs(nearest["velocity"]! - expected["velocity"]!) < 1e-8, "\(animation) velocity at \(t)")
      }
    }
  }

  /// The line of a series is drawn where the panel's mapping puts its
  /// samples: the component's colour within a pixel or two of each.
  @Test func chartLinesAreWhereTheJSONMapsThem() throws {
    let dir = Self.folder("lines")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("easeInOut(duration: 1)").utf8), "s.json")
    let out = dir.path("c.png")
    let r = try RenderBinary.run(["chart", scene, "-o", out, "--json", "--scale", "2"])
    #expect(r.status == 0, "\(r.stderr)")
    let series = try #require(try Self.json(r.stdout)["series"] as? [[String: Any]])
    let rotation = try #require(series.first { $0["property"] as? String == "rotation" })
    let png = try PNG.read(path: out)
    for panel in ["value", "velocity"] {
      let p = try #require(rotation[panel] as? [String: Any])
      let rect = try Self.rect(p["rect"])
      let t = try #require(p["t"] as? [Double]), range = try #require(p["range"] as? [Double])
      #expect(t == [0, 1])
      let samples = try #require(rotation["samples"] as? [[String: Double]])
      for sample in samples where Int(sample["t"]! * 240) % 24 == 0 {
        let v = sample[panel == "value" ? "value" : "velocity"]!
        let x = rect.x + (sample["t"]! - t[0]) / (t[1] - t[0]) * rect.w
        let y = rect.y + (1 - (v - range[0]) / (range[1] - range[0])) * rect.h
        var found = false
        for dy in -3...3 {
          for dx in -3...3 {
            let px = min(png.width - 1, max(0, Int(x) + dx)), py = min(png.height - 1, max(0, Int(y) + dy))
            let i = (py * png.width + px) * 4
            // The first component's blue, #0969DA.
            if abs(Int(png.bytes[i]) - 0x09) < 24 && abs(Int(png.bytes[i + 1]) - 0x69) < 24 && abs(Int(png.bytes[i + 2]) - 0xDA) < 24 { found = true }
          }
        }
        #expect(found, "\(panel) line at t = \(sample["t"]!) near (\(x), \(y))")
      }
    }
  }

  /// The SVG is well-formed XML with one path per line, whose first point
  /// is the first sample where the mapping (in SVG units: scale 1) puts it.
  @Test func chartSVGParsesBackWithTheLinesAsPaths() throws {
    let dir = Self.folder("svg")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("spring(duration: 0.5, bounce: 0.3)").utf8), "s.json")
    let out = dir.path("c.svg")
    let r = try RenderBinary.run(["chart", scene, "-o", out, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    final class Collector: NSObject, XMLParserDelegate {
      var paths: [[String: String]] = []
      var texts = 0
      func parser(_ p: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
        if name == "path" { paths.append(attributes) }
        if name == "text" { texts += 1 }
      }
    }
    let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: out)))
    let collector = Collector()
    parser.delegate = collector
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(collector.texts > 5, "labels are text")
    let series = try #require(try Self.json(r.stdout)["series"] as? [[String: Any]])
    let rotation = try #require(series.first { $0["property"] as? String == "rotation" })
    let value = try #require(rotation["value"] as? [String: Any])
    let rect = try Self.rect(value["rect"]), range = try #require(value["range"] as? [Double])
    let first = try #require((rotation["samples"] as? [[String: Double]])?.first)
    let y = rect.y + (1 - (first["value"]! - range[0]) / (range[1] - range[0])) * rect.h
    let line = collector.paths.first { $0["stroke"] == "#0969da" && ($0["d"]?.count ?? 0) > 1000 }
    let d = try #require(line?["d"])
    #expect(d.hasPrefix("M\(Self.svgNumber(rect.x)) \(Self.svgNumber(y))L"), "\(d.prefix(40)) starts at (\(rect.x), \(y))")
  }

  static let rsvg = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }

  /// The SVG drawn by an independent renderer (librsvg) is the PNG's
  /// picture: the same size at scale 1, and nearly the same pixels (the
  /// text's rasterization differs a little).
  @Test(.enabled(if: rsvg != nil, "rsvg-convert (Debian's librsvg2-bin) is not installed"))
  func chartSVGDrawsLikeThePNG() throws {
    let dir = Self.folder("rsvg")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("bouncy").utf8), "s.json")
    #expect(try RenderBinary.run(["chart", scene, "-o", dir.path("c.svg")]).status == 0)
    #expect(try RenderBinary.run(["chart", scene, "-o", dir.path("c.png"), "--scale", "1"]).status == 0)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.rsvg!)
    process.arguments = [dir.path("c.svg"), "-o", dir.path("svg.png")]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let ours = try PNG.read(path: dir.path("c.png")), theirs = try PNG.read(path: dir.path("svg.png"))
    #expect(ours.width == theirs.width && ours.height == theirs.height)
    guard ours.width == theirs.width, ours.height == theirs.height else { return }
    var total = 0
    for i in 0..<ours.bytes.count where i % 4 != 3 { total += abs(Int(ours.bytes[i]) - Int(theirs.bytes[i])) }
    let mean = Double(total) / Double(ours.width * ours.height * 3)
    #expect(mean < 3, "mean difference \(mean) per channel")
  }

  static func svgNumber(_ v: Double) -> String {
    var s = String(format: "%.2f", v)
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s
  }

  @Test func curveChartsSeveralAnimationsOverlaid() throws {
    let dir = Self.folder("curve")
    defer { dir.cleanUp() }
    let r = try RenderBinary.run(["curve", ".bouncy", "easeOut(duration: 0.8)", "-o", dir.path("c.png"), "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let series = try #require(try Self.json(r.stdout)["series"] as? [[String: Any]])
    #expect(series.map { $0["property"] as? String } == [".bouncy", "easeOut(duration: 0.8)"])
    let value = try #require(series[1]["value"] as? [String: Any])
    // 0 … the longest animation's end.
    let t = try #require(value["t"] as? [Double])
    #expect(t[0] == 0 && t[1] >= 0.8)
    let ends: [Double] = series.map { ($0["samples"] as? [[String: Double]])?.last?["t"] ?? 0 }
    let longest = ends.max() ?? 0
    #expect(abs(t[1] - longest) < 1e-12, "the chart ends at the longest animation's end")
    #expect(try PNG.read(path: dir.path("c.png")).width == 1440, "720 points at scale 2")
    let one = try RenderBinary.run(["curve", ".bouncy", ".smooth"])
    #expect(one.status == 2 && one.stderr.contains("give -o"))
  }

  @Test(
    arguments: [
      (["--layer", "nope"], "--layer 'nope' matches no layer"),
      (["--property", "rotation.x"], "--property 'rotation.x' matches no animated property"),
      (["-o", "c.jpg"], "-o must name a .png or an .svg file"),
    ] as [([String], String)])
  func chartBadUsage(_ arguments: [String], _ message: String) throws {
    let dir = Self.folder("chart-usage")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let args = arguments.contains("-o") ? arguments.map { $0 == "c.jpg" ? dir.path("c.jpg") : $0 } : ["-o", dir.path("c.png")] + arguments
    let r = try RenderBinary.run(["chart", scene] + args)
    #expect(r.status == 2)
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("c.png")))
  }

  // MARK: Overlays

  /// Frames with the timecode equal the plain frames outside the band, and
  /// differ inside it; with the chart the scene's pixels are the plain
  /// frame's and the playhead stands where the plot's mapping says.
  @Test func overlaysLeaveTheScenesPixelsAlone() throws {
    let dir = Self.folder("overlay")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth", duration: 0.5).utf8), "s.json")
    #expect(try RenderBinary.run([scene, "--fps", "10", "-o", dir.path("plain") + "/", "--quiet"]).status == 0)
    let r = try RenderBinary.run([
      scene, "--fps", "10", "--slow", "2", "--overlay", "timecode,chart", "-o", dir.path("over") + "/", "--quiet", "--json",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let overlay = try #require(try Self.json(r.stdout)["overlay"] as? [String: Any])
    let sceneRect = try Self.rect(overlay["scene"]), band = try Self.rect(overlay["timecode"]), chart = try Self.rect(overlay["chart"])
    #expect([sceneRect.x, sceneRect.y, sceneRect.w, sceneRect.h] == [0, 0, 120, 80])
    // The scene is wider than tall: the chart goes below it.
    #expect(chart.x == 0 && chart.y == 80)
    let plot = try #require(overlay["plot"] as? [String: Any])
    let plotRect = try Self.rect(plot["rect"]), t = try #require(plot["t"] as? [Double])
    #expect(t == [0, 0.5])
    let plain = try FileManager.default.contentsOfDirectory(atPath: dir.path("plain")).sorted()
    let over = try FileManager.default.contentsOfDirectory(atPath: dir.path("over")).sorted()
    // --slow 2 at 10 fps: twice the frames; frame i shows t = i / 20.
    #expect(over.count == 11 && plain.count == 6)
    for (i, name) in over.enumerated() where i % 2 == 0 {
      let a = try PNG.read(path: dir.path("plain/" + plain[i / 2])), b = try PNG.read(path: dir.path("over/" + name))
      var differsInBand = false
      for y in 0..<a.height {
        for x in 0..<a.width {
          let inBand = Double(x) >= band.x && Double(x) < band.x + band.w && Double(y) >= band.y && Double(y) < band.y + band.h
          let ia = (y * a.width + x) * 4, ib = (y * b.width + x) * 4
          let same = a.bytes[ia..<ia + 4].elementsEqual(b.bytes[ib..<ib + 4])
          if inBand {
            differsInBand = differsInBand || !same
          } else if !same {
            Issue.record("frame \(i): pixel (\(x), \(y)) outside the band changed")
            return
          }
        }
      }
      #expect(differsInBand, "frame \(i): the band is drawn")
      // The playhead: red where the mapping puts scene time i / 20.
      let time = Double(i) / 20
      let x = Int(plotRect.x + (time - t[0]) / (t[1] - t[0]) * plotRect.w)
      let y = Int(plotRect.y + plotRect.h / 2)
      let hit = (-2...2).contains { dx in
        let p = (y * b.width + min(b.width - 1, max(0, x + dx))) * 4
        return b.bytes[p] > 180 && b.bytes[p + 1] < 80 && b.bytes[p + 2] < 90
      }
      #expect(hit, "frame \(i): the playhead at x = \(x)")
    }
  }

  /// Where the chart's column or row outgrows the scene, the scene sits on
  /// the chart's background (white), not on black or transparent pixels: below
  /// a tall transparent scene shorter than its chart, and to the right of a
  /// wide white one narrower than its chart; the scene's pixels stay those
  /// of the still without the overlay.
  @Test(
    arguments: [
      ("tall", #"{"version": 1, "size": [60, 100], "duration": 1, "#),
      ("wide", #"{"version": 1, "size": [120, 80], "background": "white", "duration": 1, "#),
    ])
  func theSceneSitsOnTheBackdropBesideItsChart(_ name: String, _ head: String) throws {
    let dir = Self.folder("overlay-backdrop")
    defer { dir.cleanUp() }
    let scene = dir.write(
      Array(
        (head + #""layers": [{"id": "box", "type": "rect", "size": [20, 20], "position": [30, 50], "fill": "blue"}], "#
          + #""timeline": [{"at": 0, "animation": "smooth", "set": {"box": {"rotation": 1}}}]}"#).utf8), "\(name).json")
    let r = try RenderBinary.run([scene, "--overlay", "chart", "--scale", "1", "-o", dir.path("over.png"), "--json", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let overlay = try #require(try Self.json(r.stdout)["overlay"] as? [String: Any])
    let sceneRect = try Self.rect(overlay["scene"]), chart = try Self.rect(overlay["chart"])
    #expect(sceneRect.x == 0 && sceneRect.y == 0)
    let frame = try PNG.read(path: dir.path("over.png"))
    let (w, h) = (Int(sceneRect.w), Int(sceneRect.h))
    // The part of the frame outside both the scene and the chart.
    let outside: [(x: Int, y: Int)] =
      name == "tall"
      ? (h..<frame.height).flatMap { y in (0..<w).map { (x: $0, y: y) } }
      : (0..<h).flatMap { y in (w..<frame.width).map { (x: $0, y: y) } }
    #expect(!outside.isEmpty, "the chart outgrows the scene: \(chart), frame \(frame.width)×\(frame.height)")
    let notBackdrop = outside.filter { p in
      let i = (p.y * frame.width + p.x) * 4
      return Array(frame.bytes[i..<i + 4]) != [0xFF, 0xFF, 0xFF, 0xFF]
    }
    #expect(
      notBackdrop.count == 0,
      "\(notBackdrop.count) pixels beside the scene are not the chart's white, the first at \(notBackdrop.first.map { "\($0)" } ?? "")")
    #expect(try RenderBinary.run(["still", scene, "--scale", "1", "-o", dir.path("plain.png"), "--quiet"]).status == 0)
    let plain = try PNG.read(path: dir.path("plain.png"))
    #expect(plain.width == w && plain.height == h)
    var same = true
    for y in 0..<h where same {
      let a = y * w * 4, b = y * frame.width * 4
      same = plain.bytes[a..<a + w * 4].elementsEqual(frame.bytes[b..<b + w * 4])
    }
    #expect(same, "the scene's pixels are those of the plain still")
  }

  @Test func unknownOverlayIsAUsageError() throws {
    let dir = Self.folder("overlay-usage")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let r = try RenderBinary.run([scene, "--overlay", "timecod", "-o", dir.path("o.gif")])
    #expect(r.status == 2)
    #expect(r.stderr.contains("unknown overlay 'timecod'; did you mean 'timecode'?"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("o.gif")))
  }

  // MARK: Sheets

  /// Each cell is the still `render still --scale` gives at the cell's
  /// scale and time.
  @Test func sheetCellsAreStills() throws {
    let dir = Self.folder("sheet")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("bouncy", extra: #""scale": 2, "#).utf8), "s.json")
    let r = try RenderBinary.run(["sheet", scene, "-o", dir.path("sheet.png"), "--count", "4", "--columns", "3", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let cells = try #require(try Self.json(r.stdout)["cells"] as? [[String: Any]])
    let times: [Double] = cells.compactMap { $0["t"] as? Double }
    let expected: [Double] = [0, 1.0 / 3, 2.0 / 3, 1]
    #expect(times == expected)
    let sheet = try PNG.read(path: dir.path("sheet.png"))
    let rects = try cells.map { try Self.rect($0["rect"]) }
    // Three to a row.
    let sameRow = rects[0].y == rects[2].y, nextRow = rects[3].y > rects[0].y && rects[3].x == rects[0].x
    #expect(sameRow && nextRow)
    for (cell, rect) in zip(cells, rects) {
      let t = cell["t"] as! Double
      let still = dir.path("still.png")
      let s = try RenderBinary.run(["still", scene, "--at", "\(t)", "--scale", "\(rect.w / 120 * 1)", "-o", still, "--quiet"])
      #expect(s.status == 0, "\(s.stderr)")
      let png = try PNG.read(path: still)
      #expect(png.width == Int(rect.w) && png.height == Int(rect.h))
      var equal = true
      for y in 0..<png.height where equal {
        let a = (y * png.width) * 4, b = ((Int(rect.y) + y) * sheet.width + Int(rect.x)) * 4
        equal = png.bytes[a..<a + png.width * 4].elementsEqual(sheet.bytes[b..<b + png.width * 4])
      }
      #expect(equal, "the cell at \(t) s is the still")
    }
  }

  @Test(
    arguments: [
      (["--count", "0"], "--count must be between 1"),
      (["--columns", "0"], "--columns must be between 1"),
      (["--every", "0"], "--every must be a positive number"),
      (["--count", "3", "--every", "0.5"], "give --count or --every, not both"),
    ] as [([String], String)])
  func sheetBadUsage(_ arguments: [String], _ message: String) throws {
    let dir = Self.folder("sheet-usage")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let r = try RenderBinary.run(["sheet", scene, "-o", dir.path("s.png")] + arguments)
    #expect(r.status == 2)
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("s.png")))
  }

  /// An `-o` of the wrong kind is bad usage that names what was given,
  /// quoted and capped as every quote of the input is.
  @Test(
    arguments: [
      ("chart", "x.txt", "-o must name a .png or an .svg file, got 'x.txt'"),
      ("sheet", "x.txt", "-o must name a .png file, got 'x.txt'"),
      ("still", "x.txt", "-o must name a .png file, got 'x.txt'"),
      (
        "still", "out/" + String(repeating: "n", count: 60) + ".jpg", "-o must name a .png file, got 'out/" + String(repeating: "n", count: 35) + "…'"
      ),
    ])
  func theWrongOutputIsNamed(_ command: String, _ output: String, _ message: String) throws {
    let dir = Self.folder("output-kind")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let r = try RenderBinary.run([command, scene, "-o", output])
    #expect(r.status == 2)
    #expect(r.stderr == "render: error: \(message)\nrender: see 'render \(command) --help' for the options\n")
  }

  /// Ranges that would make unbounded work are refused or bounded, never a
  /// crash: a chart to 1e300 s (100,000 samples), a sheet every 1e-9 s, and
  /// --from past the end without --to.
  @Test func hugeRangesAreBounded() throws {
    let dir = Self.folder("huge")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let chart = try RenderBinary.run(["chart", scene, "-o", dir.path("c.svg"), "--to", "1e300", "--json"])
    #expect(chart.status == 0, "\(chart.stderr)")
    let series = try #require(try Self.json(chart.stdout)["series"] as? [[String: Any]])
    #expect((series.first?["samples"] as? [Any])?.count == 100_000)
    let sheet = try RenderBinary.run(["sheet", scene, "-o", dir.path("s.png"), "--every", "1e-9", "--to", "100"])
    #expect(sheet.status == 2 && sheet.stderr.contains("more stills than the limit of 400"), "\(sheet.stderr)")
    let late = try RenderBinary.run(["chart", scene, "-o", dir.path("c.png"), "--from", "5"])
    #expect(late.status == 2 && late.stderr.contains("is after the end of the scene"), "\(late.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("s.png")) && !FileManager.default.fileExists(atPath: dir.path("c.png")))
  }

  @Test func sheetEveryCountsFromFrom() throws {
    let dir = Self.folder("sheet-every")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let r = try RenderBinary.run(["sheet", scene, "-o", dir.path("s.png"), "--every", "0.3", "--from", "0.1", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let times = try #require(try Self.json(r.stdout)["cells"] as? [[String: Any]]).compactMap { $0["t"] as? Double }
    // k = 0 … ⌊(1 − 0.1) / 0.3 + 1e-9⌋ = 3.
    #expect(times.count == 4 && abs(times[3] - 1.0) < 1e-12)
  }

  // MARK: Comparisons

  /// Variants side by side: each panel is the variant's still at the
  /// frame's time, scaled to the common height, labelled with its value.
  @Test func comparePanelsAreTheVariantsStills() throws {
    let dir = Self.folder("compare")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth", duration: 0.4).utf8), "s.json")
    let r = try RenderBinary.run([
      "compare", scene, "--vary", "timeline[0].animation=bouncy|linear(duration: 0.2)", "--fps", "10", "-o", dir.path("c") + "/", "--json", "--quiet",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let panels = try #require(try Self.json(r.stdout)["panels"] as? [[String: Any]])
    #expect(panels.compactMap { $0["label"] as? String } == ["bouncy", "linear(duration: 0.2)"])
    let frames = try FileManager.default.contentsOfDirectory(atPath: dir.path("c")).sorted()
    #expect(frames.count == 5)
    let variants = ["bouncy", "linear(duration: 0.2)"].map { v in
      dir.write(Array(Self.rotationScene(v, duration: 0.4).utf8), "v-\(v.count).json")
    }
    for (i, name) in frames.enumerated() {
      let frame = try PNG.read(path: dir.path("c/" + name))
      for (p, panel) in panels.enumerated() {
        let rect = try Self.rect(panel["rect"])
        #expect(rect.w == 120 && rect.h == 80)
        let still = dir.path("still.png")
        #expect(try RenderBinary.run(["still", variants[p], "--at", "\(Double(i) / 10)", "-o", still, "--quiet"]).status == 0)
        let png = try PNG.read(path: still)
        var equal = true
        for y in 0..<png.height where equal {
          let a = (y * png.width) * 4, b = ((Int(rect.y) + y) * frame.width + Int(rect.x)) * 4
          equal = png.bytes[a..<a + png.width * 4].elementsEqual(frame.bytes[b..<b + png.width * 4])
        }
        #expect(equal, "frame \(i), panel \(p) is the variant's still")
      }
    }
  }

  @Test func compareScalesMixedSizesToOneHeight() throws {
    let dir = Self.folder("compare-sizes")
    defer { dir.cleanUp() }
    let a = dir.write(Array(Self.rotationScene("smooth").utf8), "a.json")
    let b = dir.write(Array(Self.rotationScene("smooth").replacingOccurrences(of: "[120, 80]", with: "[60, 160]").utf8), "b.json")
    let r = try RenderBinary.run(["compare", a, b, "--label", "wide", "--label", "tall", "-o", dir.path("c.png"), "--json", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let panels = try #require(try Self.json(r.stdout)["panels"] as? [[String: Any]])
    let rects = try panels.map { try Self.rect($0["rect"]) }
    let heights = rects.map(\.h), widths = rects.map(\.w)
    #expect(heights == [80, 80] && widths == [120, 30], "\(rects)")
    #expect(panels.compactMap { $0["label"] as? String } == ["wide", "tall"])
  }

  /// The picture may shorten a label; `--json` carries every label whole,
  /// the varied values joined by `, ` and a `--label` as given.
  @Test func compareJSONCarriesWholeLabels() throws {
    let dir = Self.folder("compare-labels")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth", duration: 0.2).utf8), "s.json")
    let spring = "spring(duration: 0.25, bounce: 0.125)"
    let given = "the first panel, with a label far longer than forty characters"
    let r = try RenderBinary.run([
      "compare", scene, "--vary", "timeline[0].animation=\(spring)|linear(duration: 0.1)", "--vary", "layers[0].fill=blue|#336699",
      "--label", given, "-o", dir.path("c.png"), "--json", "--quiet",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let panels = try #require(try Self.json(r.stdout)["panels"] as? [[String: Any]])
    #expect(
      panels.compactMap { $0["label"] as? String } == [
        given, "\(spring), #336699", "linear(duration: 0.1), blue", "linear(duration: 0.1), #336699",
      ])
  }

  @Test func compareBadInput() throws {
    let dir = Self.folder("compare-usage")
    defer { dir.cleanUp() }
    let scene = dir.write(Array(Self.rotationScene("smooth").utf8), "s.json")
    let missing = try RenderBinary.run(["compare", scene, "--vary", "timeline[3].animation=bouncy", "-o", dir.path("c.gif")])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("has no timeline[3] (it has 1)"), "\(missing.stderr)")
    let invalid = try RenderBinary.run(["compare", scene, "--vary", "timeline[0].animation=bouncyy", "-o", dir.path("c.gif")])
    #expect(invalid.status == 65)
    // Located in the varied text: the line and column of the value.
    #expect(invalid.stderr.contains(":1:") && invalid.stderr.contains("timeline[0].animation: unknown animation 'bouncyy'"), "\(invalid.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("c.gif")))
  }
}
