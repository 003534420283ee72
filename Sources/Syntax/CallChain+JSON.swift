import Primitives

/// The JSON object form of a call chain.
extension CallChain {
  /// Reads the JSON object form, one key per call in the order written:
  /// `{"spring": {"duration": 0.5, "bounce": 0.2}, "delay": 0.1}`.
  ///
  /// A key's value gives the call's arguments: an object gives labelled
  /// arguments, in the parameters' order as in Swift (an unlabelled
  /// parameter is written with its documented name); a number or string
  /// gives one unlabelled argument; an array gives unlabelled arguments in
  /// order; `{}`, `true` or `null` give none (`false` is an error). A
  /// nested object as an argument is a call chain in this form. A string
  /// in place of the whole object is parsed as SwiftUI syntax.
  public static func fromJSON(_ node: JSONNode, path: JSONPath) throws(SyntaxError) -> CallChain {
    if let text = node.string {
      do {
        return try CallParser.parse(text)
      } catch {
        throw SyntaxError(error.message, at: node.locatedOrigin(path: path, error: error))
      }
    }
    guard let members = node.members else {
      throw SyntaxError(
        "expected a string in SwiftUI syntax or an object with one key per call, got \(node.typeName)",
        at: .json(path, node.location))
    }
    guard !members.isEmpty else {
      throw SyntaxError("empty object: name at least one call", at: .json(path, node.location))
    }
    var calls: [Call] = []
    for member in members {
      let memberPath = path.appending(member.key)
      let nameOrigin = SyntaxOrigin.json(memberPath, member.keyLocation)
      let valueOrigin = SyntaxOrigin.json(memberPath, member.value.location)
      var arguments: [CallArgument]?
      switch member.value.value {
      case .null: arguments = nil
      case .bool(true): arguments = nil
      case .bool(false):
        throw SyntaxError("\(Excerpt.quoted(member.key)): false has no meaning here; leave the key out", at: valueOrigin)
      case .object(let fields):
        arguments = try fields.map { (field) throws(SyntaxError) -> CallArgument in
          let fieldPath = memberPath.appending(field.key)
          return CallArgument(
            label: field.key, value: try argumentValue(field.value, path: fieldPath),
            origin: .json(fieldPath, field.value.location))
        }
      case .array(let elements):
        arguments = try unlabelledArguments(elements, path: memberPath)
      case .number, .string:
        arguments = [CallArgument(label: nil, value: try argumentValue(member.value, path: memberPath), origin: valueOrigin)]
      }
      calls.append(Call(name: member.key, nameOrigin: nameOrigin, arguments: arguments, origin: nameOrigin))
    }
    return CallChain(calls: calls, origin: .json(path, node.location))
  }

  /// An array's elements as unlabelled arguments, each at its index.
  private static func unlabelledArguments(_ elements: [JSONNode], path: JSONPath) throws(SyntaxError) -> [CallArgument] {
    try elements.enumerated().map { (i, element) throws(SyntaxError) -> CallArgument in
      CallArgument(label: nil, value: try argumentValue(element, path: path.appending(i)), origin: .json(path.appending(i), element.location))
    }
  }

  private static func argumentValue(_ node: JSONNode, path: JSONPath) throws(SyntaxError) -> ArgumentValue {
    switch node.value {
    case .number(let n, _): return .number(n)
    case .bool(let b): return .bool(b)
    case .string(let s): return .string(s)
    case .array(let elements):
      return .array(try unlabelledArguments(elements, path: path))
    case .object:
      return .chain(try fromJSON(node, path: path))
    case .null:
      throw SyntaxError("expected a value, got null", at: .json(path, node.location))
    }
  }
}

extension JSONNode {
  /// The origin of an error inside this string value: its path, and the
  /// location of the offending character when the string has no escapes
  /// (so columns in the file and in the string agree).
  public func locatedOrigin(path: JSONPath, error: SyntaxError) -> SyntaxOrigin {
    guard case .text(let range) = error.origin else { return error.origin }
    // The opening quote is at `location`; character k of the string sits at column + 1 + k.
    var location = self.location
    location.column += 1 + range.lowerBound
    return .json(path, location)
  }
}
