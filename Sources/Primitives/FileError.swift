/// A file that could not be read, decoded, encoded or written: every
/// codec's and every output's error (`VideoError`, `GIFError`, `PNGError`,
/// `OutputError` are this type). It always names the file (or the name
/// given for in-memory data); `message` says what went wrong, without it.
public struct FileError: Error, Sendable, CustomStringConvertible {
  /// The file, or the name given for in-memory data.
  public var path: String
  /// What went wrong, without the path.
  public var message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `"<path>: <message>"`.
  public var description: String { "\(path): \(message)" }
}
