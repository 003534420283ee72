import Primitives
import Syntax
import Timing

/// Decodes a scene file (docs/scene-format.md) into a validated `Scene`, or every
/// problem found, each located by line, column and JSON path.
public enum SceneDecoder {
  /// - Parameters:
  ///   - bytes: the file's UTF-8 contents.
  ///   - file: the name to print in messages.
  ///   - defaultName: the scene's name when the file gives none (the file name without extension).
  ///   - appearance: overrides the file's `appearance` (`--appearance`).
  public static func decode(_ bytes: [UInt8], file: String, defaultName: String, appearance: Appearance? = nil) throws(SceneErrors) -> Scene {
    let root: JSONNode
    do {
      root = try JSONParser.parse(bytes)
    } catch {
      throw SceneErrors(diagnostics: [
        SceneDiagnostic(file: file, location: error.location, path: .root, message: "invalid JSON: \(error.message)")
      ])
    }
    return try decode(root, file: file, defaultName: defaultName, appearance: appearance)
  }

  /// `decode` of a file already parsed (a caller that read its JSON to
  /// tell a scene from another format parses it once).
  public static func decode(_ root: JSONNode, file: String, defaultName: String, appearance: Appearance? = nil) throws(SceneErrors) -> Scene {
    let reader = Reader(file: file)
    let context = SceneDecoding(reader: reader)
    let scene = context.scene(root, defaultName: defaultName, appearance: appearance)
    if !reader.diagnostics.isEmpty || scene == nil {
      throw SceneErrors(diagnostics: reader.diagnostics)
    }
    return scene!
  }

  /// Why `name` is not one file-name component of at most
  /// `SceneLimits.maximumNameBytes` bytes, or nil.
  public static func fileNameProblem(_ name: String) -> String? {
    if name.isEmpty { return "is empty" }
    if name == "." || name == ".." { return "is a path of its own" }
    if name.contains("/") || name.contains("\\") { return "contains a path separator" }
    if name.utf8.contains(0) { return "contains a NUL character" }
    if name.utf8.count > SceneLimits.maximumNameBytes {
      return "is \(name.utf8.count) bytes long, more than the limit of \(SceneLimits.maximumNameBytes)"
    }
    return nil
  }

  /// The name a scene file's outputs take, read without decoding the rest:
  /// its valid `name`, else `defaultName`; nil when the file is not JSON or
  /// its `name` is invalid (decoding reports why).
  public static func outputName(_ bytes: [UInt8], defaultName: String) -> String? {
    guard let root = try? JSONParser.parse(bytes) else { return nil }
    guard let node = root["name"] else { return defaultName }
    guard let name = node.string, fileNameProblem(name) == nil else { return nil }
    return name
  }
}
