import ArgumentParser
import Foundation
import PNGCodec
import Render
import SceneModel

/// `render still SCENE --at T -o F.png [--scale S]`: one frame as a PNG.
struct Still: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Render one frame at scene time T to a PNG.")

  @Argument(help: "The scene file.")
  var scene: String

  @Option(name: .long, parsing: .unconditional, help: "Scene time in seconds.")
  var at: Double = 0

  @Option(name: [.short, .customLong("output")], help: "The PNG to write.")
  var output: String

  @Option(help: "Pixels per point (overrides the scene's).")
  var scale: Double?

  func validate() throws {
    guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time of 0 seconds or more, got \(at)") }
    if let scale, !(scale > 0 && scale.isFinite && scale <= 16) { throw ValidationError("--scale must be greater than 0 and at most 16") }
    guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must name a .png file") }
  }

  func run() throws {
    let loaded = try SceneFile.loadOrReport(scene)
    let renderer = SceneRenderer(scene: loaded)
    let (w, h) = renderer.pixelSize(scale: scale)
    guard w > 0, h > 0, w <= SceneLimits.maximumSide, h <= SceneLimits.maximumSide, w * h <= SceneLimits.maximumPixels else {
      Terminal.error("render: error: \(w)×\(h) pixels is over the limit of \(SceneLimits.maximumSide) a side and \(SceneLimits.maximumPixels) pixels")
      throw Failure(status: .usage)
    }
    let pixmap: Raster.Pixmap
    do {
      pixmap = try renderer.render(at: at, scale: scale)
    } catch {
      Terminal.error("\(scene):\(error.location.line):\(error.location.column): error: \(error.message)")
      throw Failure(status: .renderFailed)
    }
    try AtomicFile.write(to: output) { temporary throws in try PNGCodec.write(pixmap, to: temporary) }
  }
}

import Raster

/// Outputs are written to a temporary file beside the destination and
/// renamed into place when complete: a failure never leaves a partial file
/// and never replaces a good one.
enum AtomicFile {
  static func write(to path: String, _ body: (String) throws -> Void) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      Terminal.error("render: error: cannot create \(folder.path): \(error.localizedDescription)")
      throw Failure(status: .renderFailed)
    }
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    do {
      try body(temporary)
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      Terminal.error("render: error: \(error)")
      throw Failure(status: .renderFailed)
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temporary)
      Terminal.error("render: error: cannot write \(path): \(reason)")
      throw Failure(status: .renderFailed)
    }
  }
}
