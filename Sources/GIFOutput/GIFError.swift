/// A GIF that could not be written, with the file it concerns.
public struct GIFError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var message: String
  public init(path: String, message: String) { self.path = path; self.message = message }
  /// `"<path>: <message>"`.
  public var description: String { "\(path): \(message)" }
}
