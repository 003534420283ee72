import Foundation

/// Runs the `render` executable built beside the test bundle.
enum RenderBinary {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  static let url: URL = {
    // The binary users get, when the suite names it (scripts/test: the
    // release build, which scripts/check-release has just checked).
    if let given = ProcessInfo.processInfo.environment["SPRINGFRAME_RENDER"], !given.isEmpty {
      return URL(fileURLWithPath: given)
    }
    // The test runner lives in the build products folder, next to `render`.
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = runner.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("render")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    // Fallback: the package's debug build.
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return package.appendingPathComponent(".build/debug/render")
  }()

  static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    if !extra.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new } }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes to the end before waiting, so a full pipe cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data(), errData = Data()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
    }
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
