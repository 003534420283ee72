import ArgumentParser
import Foundation
import Render
import SceneFiles
import SceneModel

/// Reading scene files from disk (the scene model itself decodes bytes).
enum SceneFile {
  /// The validated scene at `path`, its images and fonts loaded, ready to
  /// render; unreadable scene files are usage errors.
  static func load(_ path: String, appearance: Appearance? = nil) throws -> SceneRenderer { try read(path, appearance: appearance).renderer }

  /// The same with the file's bytes, for keys that cover them (read once).
  /// `appearance` overrides the scene's (`--appearance`).
  static func read(_ path: String, appearance: Appearance? = nil) throws -> (renderer: SceneRenderer, bytes: [UInt8]) {
    guard let data = FileManager.default.contents(atPath: path) else {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      throw Failure.usage("cannot read \(path): \(exists ? (isDirectory.boolValue ? "it is a folder" : "permission denied") : "no such file")")
    }
    let name = defaultName(path)
    // Asset and font files resolve against the scene file's folder ("" for
    // the working directory, so that messages keep the paths as given).
    let directory = (path as NSString).deletingLastPathComponent
    let bytes = [UInt8](data)
    return (try SceneRenderer(decoding: bytes, file: path, directory: directory, defaultName: name, appearance: appearance), bytes)
  }

  /// The scene's warnings (located, as errors are) on standard error,
  /// unless `quiet`.
  static func warn(_ source: any FrameSource, file: String, quiet: Bool) {
    guard !quiet else { return }
    for w in source.warnings(file: file) { Terminal.warning("\(w.file):\(w.location): \(w.path): \(w.message)") }
  }

  /// A scene's name when it gives none: its file name without extension.
  static func defaultName(_ path: String) -> String {
    URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
  }

  /// `load`, reporting an invalid scene's errors and ending with exit 65.
  static func loadOrReport(_ path: String, appearance: Appearance? = nil) throws -> SceneRenderer {
    try readOrReport(path, appearance: appearance).renderer
  }

  /// `read`, reporting an invalid scene's errors and ending with exit 65.
  static func readOrReport(_ path: String, appearance: Appearance? = nil) throws -> (renderer: SceneRenderer, bytes: [UInt8]) {
    do {
      return try read(path, appearance: appearance)
    } catch let errors as SceneErrors {
      Terminal.error(errors.description)
      throw Failure(status: .invalidScene)
    }
  }
}
