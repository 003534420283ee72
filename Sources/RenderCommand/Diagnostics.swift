import Syntax

/// Formats located errors for a terminal.
enum Diagnostics {
  /// `error: message` under the offending part of a one-line source, marked
  /// with a caret line, or with its JSON path and location.
  static func render(_ error: SyntaxError, source: String, label: String) -> String {
    switch error.origin {
    case .text(let range):
      let scalars = Array(source.unicodeScalars)
      let lower = min(range.lowerBound, scalars.count)
      let width = max(1, min(range.upperBound, scalars.count) - lower)
      let pad = String(repeating: " ", count: lower)
      let mark = "^" + String(repeating: "~", count: width - 1)
      return "render: error: \(label): \(error.message)\n    \(source)\n    \(pad)\(mark)"
    case .json(let path, let location):
      return "render: error: \(label):\(location.line):\(location.column): \(path): \(error.message)"
    }
  }
}
