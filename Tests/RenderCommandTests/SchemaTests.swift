import Foundation
import Testing

/// schema/scene.schema.json (draft 2020-12) against `render validate`:
/// `schema/agree.py` validates every scene in scenes/ and every case in
/// schema/cases/ with the schema (Python's jsonschema, an implementation
/// independent of ours) and with this build's `render validate`, and
/// expects: scenes and valid cases accepted by both, invalid cases
/// rejected by both (exit 65), decoder-only cases accepted by the schema
/// and rejected by `render validate`.
@Suite struct SchemaTests {
  static let repository = ValidateCommandTests.scenes.deletingLastPathComponent()

  @Test func theSchemaAndRenderValidateAgree() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [Self.repository.appendingPathComponent("schema/agree.py").path, "--render", RenderBinary.url.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(output)")
    // Every scene and case was checked: the summary counts them.
    let cases = try ["valid", "invalid", "decoder-only"].map {
      try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("schema/cases/\($0)").path).filter {
        $0.hasSuffix(".json")
      }.count
    }
    let scenes = try FileManager.default.contentsOfDirectory(atPath: ValidateCommandTests.scenes.path).filter { $0.hasSuffix(".json") }.count
    #expect(cases.allSatisfy { $0 >= 10 })
    #expect(output.contains("\(cases.reduce(scenes, +)) files, 0 disagreements"), "\(output)")
  }

  @Test func theSchemaIsDraft2020_12AndDescribesEveryTopLevelKey() throws {
    let data = try Data(contentsOf: Self.repository.appendingPathComponent("schema/scene.schema.json"))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    let properties = try #require(schema["properties"] as? [String: [String: Any]])
    // SCENE.md's top-level keys, and `$schema` for editors.
    #expect(
      Set(properties.keys) == [
        "$schema", "version", "name", "size", "scale", "appearance", "background", "duration", "assets", "fonts", "layers", "timeline",
      ])
    #expect(properties.values.allSatisfy { ($0["description"] as? String)?.isEmpty == false })
  }
}
