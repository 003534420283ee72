import Primitives

/// A problem with a font: a file that cannot be read or parsed, a family
/// that does not exist. The scene loader adds the file and JSON path.
public struct TypographyError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
