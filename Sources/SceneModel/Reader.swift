import Primitives
import Syntax

/// Reads JSON values into checked Swift values, recording a located
/// diagnostic for every problem and carrying on, so one pass reports all.
final class Reader {
  let file: String
  private(set) var diagnostics: [SceneDiagnostic] = []
  /// Which variant named colours take; set from the scene (or the command
  /// line) before anything else is read.
  var appearance: Appearance = .light

  init(file: String) { self.file = file }

  func error(_ message: String, at location: SourceLocation, path: JSONPath) {
    diagnostics.append(SceneDiagnostic(file: file, location: location, path: path, message: message))
  }
  func error(_ message: String, _ node: JSONNode, _ path: JSONPath) { error(message, at: node.location, path: path) }
  func error(_ error: SyntaxError, fallback node: JSONNode, path: JSONPath) {
    switch error.origin {
    case .json(let p, let location): self.error(error.message, at: location, path: p)
    case .text: self.error(error.message, node, path)
    }
  }

  /// The members of an object, checking that every key is known (with a
  /// suggestion for a typo) and that the required ones are present;
  /// `explained` gives the message for a key that is known elsewhere but
  /// not here (`children` on a rect).
  func object(
    _ node: JSONNode, _ path: JSONPath, keys allowed: [String], required: [String] = [], what: String = "object",
    explained: [String: String] = [:]
  ) -> [String: (node: JSONNode, path: JSONPath)]? {
    guard let members = node.members else {
      error("expected \(what == "object" ? "an object" : what), got \(node.typeName)", node, path)
      return nil
    }
    var out: [String: (node: JSONNode, path: JSONPath)] = [:]
    for member in members {
      let memberPath = path.appending(member.key)
      if !allowed.contains(member.key) {
        if let message = explained[member.key] {
          error(message, at: member.keyLocation, path: memberPath)
          continue
        }
        error("unknown key \(Excerpt.quoted(member.key))" + Suggestions.didYouMean(member.key, in: allowed), at: member.keyLocation, path: memberPath)
        continue
      }
      out[member.key] = (member.value, memberPath)
    }
    for key in required where out[key] == nil {
      error("missing required key \(Excerpt.quoted(key))", node, path)
    }
    return out
  }

  /// A number in `range`, and like every number a scene writes within
  /// ±`SceneLimits.maximumMagnitude`.
  func number(_ node: JSONNode, _ path: JSONPath, _ range: NumberRange = .any) -> Double? {
    guard let n = node.number else {
      error("expected a number, got \(node.typeName)", node, path)
      return nil
    }
    let range = range.bounded(by: SceneLimits.maximumMagnitude)
    guard range.contains(n) else {
      error("\(formatNumber(n)) is out of range: must be \(range)", node, path)
      return nil
    }
    return n
  }

  /// A whole number in `range`.
  func integer(_ node: JSONNode, _ path: JSONPath, _ range: NumberRange) -> Int? {
    guard let n = number(node, path), n == n.rounded(), abs(n) < 1e15 else {
      if node.number != nil { error("expected a whole number", node, path) }
      return nil
    }
    guard range.contains(n) else {
      error("\(Int(n)) is out of range: must be \(range)", node, path)
      return nil
    }
    return Int(n)
  }

  func string(_ node: JSONNode, _ path: JSONPath) -> String? {
    guard let s = node.string else {
      error("expected a string, got \(node.typeName)", node, path)
      return nil
    }
    return s
  }

  /// A string of at most `limit` characters (Unicode scalars); `noun`
  /// names it in the error.
  func string(_ node: JSONNode, _ path: JSONPath, limit: Int, noun: String) -> String? {
    guard let s = string(node, path) else { return nil }
    let count = s.unicodeScalars.count
    guard count <= limit else {
      error("\(noun) of \(count) characters, more than the limit of \(limit)", node, path)
      return nil
    }
    return s
  }

  /// The members of an object whose keys the scene names (layer ids, asset
  /// names, font families), each with its path; `what` says what it maps.
  func dictionary(_ node: JSONNode, _ path: JSONPath, of what: String) -> [(member: JSONNode.Member, path: JSONPath)]? {
    guard let members = node.members else {
      error("expected an object of \(what), got \(node.typeName)", node, path)
      return nil
    }
    return members.map { ($0, path.appending($0.key)) }
  }

  func bool(_ node: JSONNode, _ path: JSONPath) -> Bool? {
    guard let b = node.bool else {
      error("expected true or false, got \(node.typeName)", node, path)
      return nil
    }
    return b
  }

  /// One of a fixed set of names.
  func choice(_ node: JSONNode, _ path: JSONPath, _ options: [String]) -> String? {
    guard let s = string(node, path) else { return nil }
    guard options.contains(s) else {
      error("\(Excerpt.quoted(s)) is not one of \(options.joined(separator: ", "))" + Suggestions.didYouMean(s, in: options), node, path)
      return nil
    }
    return s
  }

  /// `[x, y]` of finite numbers.
  func pair(_ node: JSONNode, _ path: JSONPath, _ range: NumberRange = .any) -> Vector2? {
    guard let a = node.array else {
      error("expected [x, y], got \(node.typeName)", node, path)
      return nil
    }
    guard a.count == 2 else {
      error("expected 2 numbers [x, y], got \(a.count)", node, path)
      return nil
    }
    guard let x = number(a[0], path.appending(0), range), let y = number(a[1], path.appending(1), range) else {
      return nil
    }
    return Vector2(x, y)
  }

  /// A number or `[a, b]` (as `scale`).
  func numberOrPair(_ node: JSONNode, _ path: JSONPath, _ range: NumberRange = .any) -> Vector2? {
    if node.number != nil { return number(node, path, range).map { Vector2($0, $0) } }
    if node.array != nil { return pair(node, path, range) }
    error("expected a number or [x, y], got \(node.typeName)", node, path)
    return nil
  }
}
