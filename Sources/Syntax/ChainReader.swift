import Primitives

/// A reader of values written as call chains — in SwiftUI syntax, or in
/// the JSON object form — that only has to say how a chain becomes its
/// value (`build`): the animations, keyframes and animator timings share
/// the rest.
public protocol ChainReader {
  associatedtype Value
  /// Validates a call chain into a value. `source` is the text the chain
  /// was parsed from, if any, to quote it exactly in messages.
  static func build(_ chain: CallChain, source: String?) throws(SyntaxError) -> Value
}

extension ChainReader {
  /// The chain's only call: a \(noun) is one call (no modifiers).
  public static func single(_ chain: CallChain, noun: String) throws(SyntaxError) -> Call {
    if chain.calls.count > 1 {
      let extra = chain.calls[1]
      throw SyntaxError("\(noun) is one call; \(Excerpt.quoted(extra.name)) cannot follow it", at: extra.nameOrigin)
    }
    return chain.calls[0]
  }

  /// Parses SwiftUI syntax. Error origins are character ranges in `text`.
  public static func parse(_ text: String) throws(SyntaxError) -> Value {
    try build(try CallParser.parse(text), source: text)
  }

  /// Parses a value of a scene: a string in SwiftUI syntax or an object
  /// with one key per call. Error origins are JSON locations (errors inside
  /// a string point into the file).
  public static func parse(json node: JSONNode, path: JSONPath) throws(SyntaxError) -> Value {
    let chain = try CallChain.fromJSON(node, path: path)
    do {
      return try build(chain, source: node.string)
    } catch {
      throw SyntaxError(error.message, at: node.locatedOrigin(path: path, error: error))
    }
  }

  /// Parses a command-line argument: the JSON object form when it starts
  /// with `{`, else SwiftUI syntax. Error origins are character ranges in
  /// `text` for JSON syntax errors and SwiftUI syntax, JSON locations for
  /// the object form's.
  public static func parse(argument text: String) throws(SyntaxError) -> Value {
    guard text.drop(while: { $0 == " " }).first == "{" else { return try parse(text) }
    let node: JSONNode
    do {
      node = try JSONParser.parse(text)
    } catch {
      throw SyntaxError(error.message, at: .text(error.location.offset..<error.location.offset + 1))
    }
    return try parse(json: node, path: .root)
  }
}
