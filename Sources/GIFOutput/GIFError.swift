import Primitives

/// A GIF that could not be written, with the file it concerns.
public typealias GIFError = FileError
