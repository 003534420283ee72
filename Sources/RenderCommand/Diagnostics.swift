import Foundation
import Primitives
import Syntax

/// Formats located errors for a terminal.
enum Diagnostics {
  /// `error: message` under the offending part of a one-line source, marked
  /// with a caret line, or with its JSON path and location.
  static func render(_ error: SyntaxError, source: String, label: String) -> String {
    switch error.origin {
    case .text(let range):
      // At most Excerpt.width characters of the source, around the mistake.
      let (excerpt, marked) = Excerpt.window(source, around: range)
      let pad = String(repeating: " ", count: marked.lowerBound)
      let mark = "^" + String(repeating: "~", count: max(1, marked.count) - 1)
      return "render: error: \(label): \(error.message)\n    \(excerpt)\n    \(pad)\(mark)"
    case .json(let path, let location):
      return "render: error: \(label):\(location.line):\(location.column): \(path): \(error.message)"
    }
  }
}

/// Usage errors as docs/cli.md states them: one `render: error: …` line
/// and at most one hint line, whoever found the mistake.
enum Usage {
  /// Characters of one usage error at most (arguments are quoted whole).
  static let maximumLine = 10 * Excerpt.width

  /// ArgumentParser's message (`Error: Unknown option '--fsp'. Did you mean
  /// '--fps'?`, then `Help:` and `Usage:` blocks) as our two lines: the
  /// error, with its suggestion, and where to get help.
  static func lines(_ message: String) -> String {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
    var error = lines.first ?? "bad usage"
    if error.hasPrefix("Error: ") { error.removeFirst("Error: ".count) }
    error = error.replacingOccurrences(of: ". Did you mean", with: "; did you mean")
    // A transform's own message says it all: "The value 'x' is invalid for
    // '--fps <fps>': --fps takes …" keeps only "--fps takes …".
    if error.hasPrefix("The value '"), let colon = error.range(of: ">': ") {
      error = String(error[colon.upperBound...])
    }
    if let first = error.first, first.isUppercase, error.dropFirst().first?.isLowercase == true {
      error = first.lowercased() + error.dropFirst()
    }
    var text = "render: error: \(Excerpt.capped(error, limit: Self.maximumLine))"
    if let see = lines.first(where: { $0.hasPrefix("See '") }), let end = see.dropFirst(5).firstIndex(of: "'") {
      text += "\nrender: see \(see[see.index(see.startIndex, offsetBy: 4)...end]) for the options"
    }
    return text
  }
}
