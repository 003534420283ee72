import ArgumentParser
import Foundation
import Render
import SceneFiles
import SceneModel

/// `render validate SCENE...`: silent on success; every problem of every
/// scene on standard error as `FILE:LINE:COLUMN: error: PATH: message`,
/// exit 65 when any scene is invalid.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Check scenes; print nothing when they are valid.")

  @Argument(help: "Scene files.")
  var scenes: [String]

  func validate() throws {
    if scenes.isEmpty { throw ValidationError("name at least one scene file") }
  }

  func run() throws {
    var invalid = false
    for path in scenes {
      do {
        _ = try SceneFile.load(path)
      } catch let errors as SceneErrors {
        Terminal.error(errors.description)
        invalid = true
      }
    }
    if invalid { throw Failure(status: .invalidScene) }
  }
}
