import Foundation
import Jobs
import Render

extension OutputCache {
  /// The cache folder, created if missing and tried for writing: a folder
  /// that cannot be written is an error (exit 1) before anything renders.
  static func open(_ path: String) throws(Failure) -> OutputCache {
    OutputCache(folder: try writableFolder(path, option: "--cache"), version: RenderVersion.identity)
  }

  /// The folder `path`, created if missing and tried for writing (a file
  /// created and removed); one that cannot be written is an error naming
  /// `option` (exit 1).
  static func writableFolder(_ path: String, option: String) throws(Failure) -> URL {
    let url = URL(fileURLWithPath: path)
    let probe = url.appendingPathComponent(".probe.\(getpid())")
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try Data().write(to: probe)
      try FileManager.default.removeItem(at: probe)
    } catch {
      Terminal.error("render: error: \(option) \(path): cannot write there (\(error.localizedDescription))")
      throw Failure(status: .renderFailed)
    }
    return url
  }

  /// What decides the bytes of `source` rendered with `options`.
  static func key(_ source: any FrameSource, options: RenderOptions) -> String {
    key(source, version: RenderVersion.identity, options: options.outputKey)
  }
}
