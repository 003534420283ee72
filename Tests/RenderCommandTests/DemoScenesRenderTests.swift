import Foundation
import TestSupport
import Testing
import VideoOutput

/// Every demo scene renders through the whole pipeline (at a quarter of a
/// point per pixel and 5 fps to stay fast): an MP4 and a GIF each, with the
/// frame count CLI.md gives for the duration `render info` reports.
@Suite struct DemoScenesRenderTests {
  struct Summary: Decodable {
    struct Output: Decodable { let path: String; let format: String; let frames: Int; let bytes: Int }
    let scene: String
    let frames: Int
    let outputs: [Output]
    let ok: Bool
  }
  struct Info: Decodable { let name: String; let size: [Double]; let duration: Double }

  @Test func everySceneRendersToMP4AndGIF() throws {
    let out = Scratch("springframe-demo-scenes")
    defer { out.cleanUp() }
    let result = try RenderBinary.run(
      [
        "batch", ValidateCommandTests.scenes.path, "--out", out.directory.path, "--scale", "0.25", "--fps", "5", "--format", "mp4,gif", "--quiet",
        "--json",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let summaries = try JSONDecoder().decode([Summary].self, from: Data(result.stdout.utf8))
    // Folders are searched recursively (scenes/assets/src holds the scenes the demo's images were rendered from).
    let files = (FileManager.default.enumerator(atPath: ValidateCommandTests.scenes.path)?.allObjects as? [String] ?? []).filter {
      $0.hasSuffix(".json")
    }
    #expect(summaries.count == files.count && files.count >= 9)
    for summary in summaries {
      #expect(summary.ok)
      let info = try JSONDecoder().decode(Info.self, from: Data(try RenderBinary.run(["info", summary.scene, "--json"]).stdout.utf8))
      let frames = Int((info.duration * 5 + 1e-9).rounded(.down)) + 1
      #expect(summary.frames == frames, "\(info.name)")
      // Pixels: the size in points × 0.25, rounded up, the MP4 padded to even.
      let (w, h) = (Int((info.size[0] * 0.25).rounded(.up)), Int((info.size[1] * 0.25).rounded(.up)))
      for output in summary.outputs {
        let probe = try MediaProbe.info(path: output.path)
        #expect(output.frames == frames)
        if output.format == "mp4" {
          #expect(probe.frameCount == frames, "\(output.path)")
          #expect(probe.codec == "h264" && probe.width == w + w % 2 && probe.height == h + h % 2, "\(output.path)")
        } else {
          // Identical frames are merged; the delays still add up to 1/5 s each.
          let delays = PipelineCommandTests.gifDelays(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output.path))))
          #expect(delays.reduce(0, +) == frames * 20 && probe.frameCount == delays.count, "\(output.path)")
          #expect(probe.width == w && probe.height == h, "\(output.path)")
        }
      }
    }
  }
}

extension DemoScenesRenderTests {
  /// The GIFs the README shows are what `scripts/demo` writes: each
  /// scene at 1 pixel per point and 30 fps, looping, as long as the scene.
  @Test func theREADMEsGIFsAreTheDemoRenders() throws {
    let renders = ValidateCommandTests.scenes.deletingLastPathComponent().appendingPathComponent("renders")
    let readme = try String(contentsOf: renders.deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
    let shown = Set(
      readme.split(separator: "\"").filter { $0.hasPrefix("renders/") && $0.hasSuffix(".gif") }.map { String($0.dropFirst("renders/".count)) })
    // The scenes' own GIFs, the slowed app launch and the two of "Reviewing motion".
    let review = ["app-launch-breakdown.gif", "like-compare.gif"]
    let scenes = try FileManager.default.contentsOfDirectory(atPath: ValidateCommandTests.scenes.path).filter { $0.hasSuffix(".json") }
    #expect(Set(scenes.map { String($0.dropLast(5)) + ".gif" }).isSubset(of: shown), "every scene's GIF is in the README")
    #expect(shown.count == scenes.count + 1 + review.count && review.allSatisfy(shown.contains))
    for gif in review {
      let bytes = try FileManager.default.attributesOfItem(atPath: renders.appendingPathComponent(gif).path)[.size] as? Int ?? 0
      #expect(bytes > 0 && bytes < 2_000_000, "\(gif)")
    }
    for gif in shown where gif != "app-launch-slow4.gif" && !review.contains(gif) {
      let name = String(gif.dropLast(4))
      let info = try JSONDecoder().decode(
        Info.self,
        from: Data(try RenderBinary.run(["info", ValidateCommandTests.scenes.appendingPathComponent("\(name).json").path, "--json"]).stdout.utf8))
      let path = renders.appendingPathComponent(gif).path
      let probe = try MediaProbe.info(path: path)
      #expect(probe.width == Int(info.size[0].rounded(.up)) && probe.height == Int(info.size[1].rounded(.up)), "\(gif)")
      let frames = Int((info.duration * 30 + 1e-9).rounded(.down)) + 1
      let delays = PipelineCommandTests.gifDelays(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
      #expect(abs(Double(delays.reduce(0, +)) / 100 - Double(frames) / 30) < 0.01, "\(gif)")
      let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      #expect(bytes < 2_000_000, "\(gif)")
    }
  }
}
