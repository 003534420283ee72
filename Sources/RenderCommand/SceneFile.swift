import ArgumentParser
import Foundation
import Render
import SceneFiles
import SceneModel

/// Reading scene files from disk (the scene model itself decodes bytes).
enum SceneFile {
  /// The validated scene at `path`, its images and fonts loaded, ready to
  /// render; unreadable scene files are usage errors.
  /// `appearance` overrides the scene's (`--appearance`). Every command
  /// takes what it loads as a `FrameSource`: another input format is
  /// another source made here.
  static func load(_ path: String, appearance: Appearance? = nil) throws -> any FrameSource {
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
    return try FrameSources.decode(bytes, file: path, directory: directory, defaultName: name, appearance: appearance)
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
  static func loadOrReport(_ path: String, appearance: Appearance? = nil) throws -> any FrameSource {
    do {
      return try load(path, appearance: appearance)
    } catch let errors as SceneErrors {
      Terminal.error(errors.description)
      throw Failure(status: .invalidScene)
    }
  }
}
