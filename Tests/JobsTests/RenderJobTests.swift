import Foundation
import Jobs
import PNGCodec
import Pipeline
import Primitives
import Raster
import Render
import Review
import TestSupport
import Testing
import VideoOutput

/// A frame source that is not a scene, rendered through the job API to
/// every kind of output, decoded back and checked against pixels computed
/// by hand from the rectangles it draws.
@Suite struct RenderJobTests {
  static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
  static let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
  static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

  static func request(_ outputs: [String], fps: Int = 10) -> RenderRequest {
    var request = RenderRequest(outputs: .named(outputs: outputs.map { OutputRequest(output: $0) }, formats: nil, folder: "unused"))
    request.fps = FrameRate(fps)
    request.workers = 2
    return request
  }

  static func pixel(_ p: Pixmap, _ x: Int, _ y: Int) -> RGBA8 { p[x, y] }

  static func close(_ a: RGBA8, _ b: RGBA8, within levels: Int) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= levels && abs(Int(a.g) - Int(b.g)) <= levels && abs(Int(a.b) - Int(b.b)) <= levels
  }

  @Test func pngSequenceHoldsTheRectanglesExactly() throws {
    let dir = Scratch("springframe-jobs-png")
    let result = try RenderJob(source: TestSource.rectangles(), request: Self.request([dir.path("frames") + "/"])).run()
    #expect(result.frames == 11)
    #expect(result.outputs.count == 1 && result.outputs[0].files.count == 11)
    let first = try PNG.read(path: dir.path("frames/fake_00000.png"))
    #expect(first.width == 64 && first.height == 48)
    #expect(first[12, 12] == Self.red)
    #expect(first[40, 40] == Self.blue)
    #expect(first[2, 2] == Self.white)
    // At t = 0.1 the square's left edge is at x = 11.2: pixel 11 is 0.8
    // red over white, (255, 0.2 × 255, 0.2 × 255).
    let second = try PNG.read(path: dir.path("frames/fake_00001.png"))
    #expect(Self.close(second[11, 12], RGBA8(r: 255, g: 51, b: 51, a: 255), within: 1))
    #expect(second[10, 12] == Self.white)
    // At t = 1 it spans 40 … 56.
    let last = try PNG.read(path: dir.path("frames/fake_00010.png"))
    #expect(last[48, 16] == Self.red && last[38, 16] == Self.white)
  }

  @Test func mp4IsTheSourcesFramesInH264() throws {
    let dir = Scratch("springframe-jobs-mp4")
    let path = dir.path("fake.mp4")
    let result = try RenderJob(source: TestSource.rectangles(), request: Self.request([path])).run()
    #expect(result.outputs.map(\.path) == [path])
    let info = try MediaProbe.info(path: path)
    #expect(info.codec == "h264" && info.width == 64 && info.height == 48 && info.frameCount == 11)
    #expect(info.averageFrameRateFraction.num == 10 && info.averageFrameRateFraction.den == 1)
    let frames = try MediaProbe.frames(path: path)
    #expect(frames.count == 11)
    // H.264 is lossy: the flat areas within a few levels.
    #expect(Self.close(frames[0][12, 12], Self.red, within: 12))
    #expect(Self.close(frames[0][40, 40], Self.blue, within: 12))
    #expect(Self.close(frames[10][48, 16], Self.red, within: 12))
  }

  @Test func gifDecodesToTheSameColours() throws {
    let dir = Scratch("springframe-jobs-gif")
    let path = dir.path("fake.gif")
    _ = try RenderJob(source: TestSource.rectangles(), request: Self.request([path])).run()
    let gif = try decodeGIF([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(gif.width == 64 && gif.height == 48)
    #expect(gif.images.count == 11)
    func at(_ frame: Int, _ x: Int, _ y: Int) -> [UInt8] { Array(gif.canvases[frame][(4 * (y * 64 + x))..<(4 * (y * 64 + x) + 4)]) }
    #expect(at(0, 12, 12) == [255, 0, 0, 255])
    #expect(at(0, 40, 40) == [0, 0, 255, 255])
    #expect(at(10, 48, 16) == [255, 0, 0, 255])
  }

  @Test func severalOutputsAreWrittenTogether() throws {
    let dir = Scratch("springframe-jobs-several")
    let result = try RenderJob(source: TestSource.rectangles(), request: Self.request([dir.path("a.mp4"), dir.path("a.gif")])).run()
    #expect(Set(result.outputs.map(\.path)) == [dir.path("a.mp4"), dir.path("a.gif")])
    // Both in place, no hidden file left beside them.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.directory.path).sorted() == ["a.gif", "a.mp4"])
  }

  @Test func aBudgetTooSmallLeavesNothing() throws {
    let dir = Scratch("springframe-jobs-budget")
    var request = Self.request([dir.path("a.gif"), dir.path("a.mp4")])
    request.maxSize = 10
    #expect {
      _ = try RenderJob(source: TestSource.rectangles(), request: request).run()
    } throws: { error in
      guard case JobError.output(let message) = error else { return false }
      return message.contains("even at the floors") && message.contains("nothing written")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.directory.path).isEmpty)
  }

  @Test func aBudgetOnAFormatWithoutOneIsBadUsage() throws {
    let dir = Scratch("springframe-jobs-budget-mp4")
    var request = Self.request([dir.path("a.mp4")])
    request.maxSize = 1000
    #expect {
      _ = try RenderJob(source: TestSource.rectangles(), request: request).run()
    } throws: { error in
      guard case JobError.usage(let message) = error else { return false }
      return message == "--max-size applies to .gif and .webp outputs, and this render writes none"
    }
  }

  @Test func aCancelledJobWritesNothing() throws {
    let dir = Scratch("springframe-jobs-cancel")
    let token = CancellationToken()
    token.cancel(reason: 2)
    #expect {
      _ = try RenderJob(source: TestSource.rectangles(), request: Self.request([dir.path("a.mp4"), dir.path("a.gif")]), cancellation: token).run()
    } throws: { error in
      guard case JobError.cancelled(let reason) = error else { return false }
      return reason == 2
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.directory.path).isEmpty)
  }

  @Test func aComparisonIsASourceOfSources() throws {
    let dir = Scratch("springframe-jobs-compare")
    let green = TestSource.rectangles(name: "green", moving: Color(red: 0, green: 1, blue: 0, alpha: 1))
    let compare = ComparePanels([(TestSource.rectangles(), "red"), (green, "green")], name: "pair", scale: 1, typesetter: ReviewStyle.typesetter())
    #expect(compare.duration == 1)
    let still = OutputTarget(format: OutputFormats.png, destination: .file(dir.path("still.png")))
    _ = try RenderJob(source: compare, request: RenderRequest(outputs: .targets([still]))).run()
    let picture = try PNG.read(path: dir.path("still.png"))
    #expect(picture.width == compare.size.width && picture.height == compare.size.height)
    // Each panel is its source's frame at scale 1, in its rectangle.
    for (panel, colour) in zip(compare.panels, [Self.red, RGBA8(r: 0, g: 255, b: 0, a: 255)]) {
      #expect(panel.rect.width == 64 && panel.rect.height == 48)
      #expect(picture[panel.rect.x0 + 12, panel.rect.y0 + 12] == colour)
      #expect(picture[panel.rect.x0 + 40, panel.rect.y0 + 40] == Self.blue)
      #expect(picture[panel.rect.x0 + 2, panel.rect.y0 + 2] == Self.white)
    }
    // Around the panels, the review backdrop.
    let backdrop = ReviewStyle.backdrop.premultiplied
    #expect(picture[1, 1] == RGBA8(backdrop))
  }

  @Test func aDiffCountsTheSquaresPixels() throws {
    let green = TestSource.rectangles(moving: Color(red: 0, green: 1, blue: 0, alpha: 1))
    let same = try FrameComparison.compare(
      TestSource.rectangles(), TestSource.rectangles(), fps: FrameRate(10), from: nil, to: nil, scale: nil, rule: DiffRule(), workers: 2, report: nil,
      cancellation: CancellationToken())
    #expect(same.frames.count == 11 && !same.differs)
    let dir = Scratch("springframe-jobs-diff")
    let report = DiffReport(folder: dir.path("report"))
    let changed = try FrameComparison.compare(
      TestSource.rectangles(), green, fps: FrameRate(10), from: nil, to: nil, scale: nil, rule: DiffRule(), workers: 2, report: report,
      cancellation: CancellationToken())
    #expect(changed.frames.count == 11 && changed.differingFrames == 11)
    // At t = 0 the 16 × 16 square sits on whole pixels: 256 differ; at
    // t = 0.1 its edges are fractional: 17 columns of 16.
    #expect(changed.frames[0].diff.pixels == 256)
    #expect(changed.frames[1].diff.pixels == 17 * 16)
    #expect(changed.frames[0].diff.maxLevel == 255)
    // The report's video: A, B and the heat map side by side.
    let info = try MediaProbe.info(path: dir.path("report/diff.mp4"))
    #expect(info.width == 3 * 64 && info.height == 48 && info.frameCount == 11)
  }

  @Test func aContactSheetPlacesEachStillInItsCell() throws {
    let dir = Scratch("springframe-jobs-sheet")
    let source = TestSource.rectangles()
    let times = try #require(ContactSheet.times(from: 0, to: 1, count: 3, every: nil))
    #expect(times == [0, 0.5, 1])
    let sheet = ContactSheet(source: source, times: times, columns: nil, scale: 1)
    try sheet.write(source, to: dir.path("sheet.png"), workers: 2, cancellation: CancellationToken())
    let picture = try PNG.read(path: dir.path("sheet.png"))
    #expect(picture.width == sheet.size.width && picture.height == sheet.size.height)
    for (cell, t) in zip(sheet.cells, times) {
      let x = Int(TestSource.squareX(t)) + 4
      #expect(picture[cell.x0 + x, cell.y0 + 12] == Self.red)
      #expect(picture[cell.x0 + 40, cell.y0 + 40] == Self.blue)
    }
  }

  @Test func theCacheKeysOnTheSourcesInputs() throws {
    let a = OutputCache.key(TestSource.rectangles(), version: "v", options: "o")
    #expect(a == OutputCache.key(TestSource.rectangles(), version: "v", options: "o"))
    #expect(a != OutputCache.key(TestSource.rectangles(moving: Color(red: 0, green: 1, blue: 0, alpha: 1)), version: "v", options: "o"))
    #expect(a != OutputCache.key(TestSource.rectangles(), version: "w", options: "o"))
    #expect(a != OutputCache.key(TestSource.rectangles(), version: "v", options: "p"))
    // An entry kept from a render is served back byte for byte.
    let dir = Scratch("springframe-jobs-cache")
    let cache = OutputCache(folder: dir.directory.appendingPathComponent("cache"), version: "v")
    let result = try RenderJob(source: TestSource.rectangles(), request: Self.request([dir.path("out/fake.gif")])).run()
    let digest = OutputCache.sha256(file: dir.path("out/fake.gif"))
    cache.keep(frames: result.frames, outputs: result.outputs, under: a, from: dir.path("out"), digests: [dir.path("out/fake.gif"): digest])
    let hit = try #require(cache.copy(a, into: dir.path("again")))
    #expect(hit.frames == 11 && hit.outputs.map(\.path) == [dir.path("again/fake.gif")])
    #expect(OutputCache.sha256(file: dir.path("again/fake.gif")) == digest)
    #expect(cache.copy(OutputCache.key(TestSource.rectangles(), version: "v", options: "p"), into: dir.path("miss")) == nil)
  }
}
