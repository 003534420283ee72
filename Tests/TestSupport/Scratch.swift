import Foundation

/// A fresh folder for one test's files under the system's temporary folder;
/// `cleanUp` removes it.
public struct Scratch: Sendable {
  public let directory: URL

  public init(_ label: String = "springframe") {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Writes `bytes` to the file `name` in the folder; returns its path.
  public func write(_ bytes: [UInt8], _ name: String) -> String {
    let p = path(name)
    _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
    return p
  }

  public func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}
