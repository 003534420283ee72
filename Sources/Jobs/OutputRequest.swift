import Foundation
import Pipeline
import Primitives
import Syntax

/// One `-o` as written: the output and what its brackets override,
/// `-o "renders/card.gif[scale=1,fps=30]"` (docs/cli.md, "Several outputs").
public struct OutputRequest: Sendable, Equatable {
  public var output: String
  /// `scale=` and `fps=`, each with the meaning of `--scale` and `--fps`.
  public var scale: Double?
  public var fps: FrameRate?

  public var overrides: Bool { scale != nil || fps != nil }

  public init(output: String, scale: Double? = nil, fps: FrameRate? = nil) {
    self.output = output; self.scale = scale; self.fps = fps
  }

  /// Reads `PATH[key=value,…]`; a usage error for a malformed bracket,
  /// another key, or a value `--scale` / `--fps` would refuse.
  public init(parsing text: String) throws(JobError) {
    guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else {
      if text.contains("[") || text.contains("]") {
        throw .usage("malformed -o \(Excerpt.quoted(text)): write the overrides as PATH[scale=S,fps=F]")
      }
      output = text
      return
    }
    output = String(text[..<open])
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    guard !output.isEmpty, !inside.isEmpty, !output.contains("["), !output.contains("]") else {
      throw .usage("malformed -o \(Excerpt.quoted(text)): write the overrides as PATH[scale=S,fps=F]")
    }
    for part in inside.split(separator: ",", omittingEmptySubsequences: false) {
      let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2, !pair[1].isEmpty else {
        throw .usage("malformed -o \(Excerpt.quoted(text)): each override is key=value (scale=S or fps=F)")
      }
      switch pair[0] {
      case "scale":
        guard scale == nil, let s = Double(pair[1]), s > 0, s.isFinite, s <= 16 else {
          throw .usage("-o \(Excerpt.quoted(text)): scale must be given once, greater than 0 and at most 16")
        }
        scale = s
      case "fps":
        guard fps == nil else { throw .usage("-o \(Excerpt.quoted(text)): fps is given twice") }
        guard let rate = FrameRate(parsing: pair[1]) else { throw .usage(FrameRate.usage(pair[1])) }
        fps = rate
      default:
        throw .usage(
          "-o \(Excerpt.quoted(text)): unknown override \(Excerpt.quoted(pair[0])); only scale and fps may be given"
            + Suggestions.didYouMean(pair[0], in: ["scale", "fps"]))
      }
    }
  }
}

extension FrameRate {
  /// Why `text` is not a rate `--fps` takes.
  public static func usage(_ text: String) -> String {
    "--fps takes frames per second greater than 0 and at most \(FrameRate.maximum), as a number or a ratio A/B such as 30000/1001; got \(Excerpt.quoted(text))"
  }
}
