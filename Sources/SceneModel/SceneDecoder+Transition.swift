import Primitives
import Syntax

extension Context {
  static let transitionNames = ["identity", "opacity", "scale", "slide", "move", "offset", "push", "blur", "asymmetric", "modifier"]

  /// A transition in SwiftUI syntax (`"slide.combined(with: .opacity)"`) or
  /// as a JSON object with one key per call, the only way to write a custom
  /// `modifier(active:identity:)`.
  func transition(_ node: JSONNode, _ path: JSONPath) -> Transition? {
    if let text = node.string {
      do {
        let chain = try CallParser.parse(text)
        return try transition(chain)
      } catch {
        reader.error(error.message, at: locate(error, in: node, path: path), path: path)
        return nil
      }
    }
    guard let members = node.members, !members.isEmpty else {
      reader.error("expected a transition: a string such as \"opacity\" or an object with one key per call", node, path)
      return nil
    }
    var parts: [Transition] = []
    for (i, m) in members.enumerated() {
      let p = path.appending(m.key)
      if i > 0 && m.key != "combined" {
        reader.error("only 'combined' may follow the first transition in an object", at: m.keyLocation, path: p)
        return nil
      }
      switch m.key {
      case "modifier":
        guard let t = modifier(m.value, p) else { return nil }
        parts.append(t)
      case "asymmetric":
        guard let o = reader.object(m.value, p, keys: ["insertion", "removal"], required: ["insertion", "removal"]),
          let (inNode, inPath) = o["insertion"], let (outNode, outPath) = o["removal"],
          let insertion = transition(inNode, inPath), let removal = transition(outNode, outPath)
        else { return nil }
        parts.append(.asymmetric(insertion: insertion, removal: removal))
      case "combined":
        // {"combined": transition} or {"combined": {"with": transition}}
        var target = (m.value, p)
        if let o = m.value.members, o.count == 1, o[0].key == "with" { target = (o[0].value, p.appending("with")) }
        guard let t = transition(target.0, target.1) else { return nil }
        parts.append(t)
      default:
        // Any other call, with its arguments, through the call syntax.
        do {
          let single = JSONNode(.object([m]), at: node.location)
          let chain = try CallChain.fromJSON(single, path: path)
          parts.append(try transition(chain))
        } catch {
          reader.error(error, fallback: m.value, path: p)
          return nil
        }
      }
    }
    return parts.count == 1 ? parts[0] : .combined(parts)
  }

  /// Where a syntax error points in the file.
  func locate(_ error: SyntaxError, in node: JSONNode, path: JSONPath) -> SourceLocation {
    switch node.locatedOrigin(path: path, error: error) {
    case .json(_, let location): location
    case .text: node.location
    }
  }

  /// A chain of calls: a base transition and `.combined(with:)` modifiers.
  func transition(_ chain: CallChain) throws(SyntaxError) -> Transition {
    var parts = [try base(chain.calls[0])]
    for call in chain.calls.dropFirst() {
      guard call.name == "combined" else {
        throw SyntaxError(
          "unknown transition modifier '\(call.name)'" + Suggestions.didYouMean(call.name, in: ["combined"])
            + " (transitions combine with .combined(with:))",
          at: call.nameOrigin)
      }
      guard let args = call.arguments, args.count == 1, args[0].label == "with", case .chain(let inner) = args[0].value else {
        throw SyntaxError("combined takes one argument: combined(with: transition)", at: call.origin)
      }
      parts.append(try transition(inner))
    }
    return parts.count == 1 ? parts[0] : .combined(parts)
  }

  func base(_ call: Call) throws(SyntaxError) -> Transition {
    let args = call.arguments ?? []
    func number(_ a: CallArgument) throws(SyntaxError) -> Double {
      guard case .number(let n) = a.value else { throw SyntaxError("'\(a.label ?? "argument")' must be a number", at: a.origin) }
      return n
    }
    func edge(_ a: CallArgument) throws(SyntaxError) -> Edge {
      var name: String?
      switch a.value {
      case .chain(let c) where c.calls.count == 1 && c.calls[0].arguments == nil: name = c.calls[0].name
      case .string(let s): name = s
      default: break
      }
      guard let name, let e = Edge(rawValue: name) else {
        throw SyntaxError(
          "expected an edge: leading, trailing, top or bottom" + (name.map { Suggestions.didYouMean($0, in: Edge.allCases.map(\.rawValue)) } ?? ""),
          at: a.origin)
      }
      return e
    }
    func expect(_ labels: [String?]) throws(SyntaxError) {
      guard args.map(\.label) == labels else {
        let spelling = labels.map { ($0 ?? "_") + ":" }.joined()
        throw SyntaxError("\(call.name) takes \(call.name)(\(spelling))", at: call.origin)
      }
    }
    switch call.name {
    case "identity": try expect([]); return .identity
    case "opacity": try expect([]); return .opacity
    case "slide": try expect([]); return .slide
    case "scale":
      if args.isEmpty { return .scale(1e-5, anchor: Vector2(0.5, 0.5)) }
      let s = try number(args[0])
      guard args[0].label == nil else { throw SyntaxError("scale takes scale(_:anchor:)", at: call.origin) }
      var anchor = Vector2(0.5, 0.5)
      if args.count == 2 {
        guard args[1].label == "anchor", case .array(let a) = args[1].value, a.count == 2,
          case .number(let u) = a[0].value, case .number(let v) = a[1].value
        else { throw SyntaxError("anchor must be a unit point [u, v]", at: args[1].origin) }
        anchor = Vector2(u, v)
      } else if args.count > 2 {
        throw SyntaxError("scale takes scale(_:anchor:)", at: call.origin)
      }
      return .scale(s, anchor: anchor)
    case "move":
      try expect(["edge"]); return .move(edge: try edge(args[0]))
    case "push":
      try expect(["from"]); return .push(from: try edge(args[0]))
    case "offset":
      var x = 0.0, y = 0.0
      for a in args {
        switch a.label {
        case "x": x = try number(a)
        case "y": y = try number(a)
        default: throw SyntaxError("offset takes offset(x:y:)", at: a.origin)
        }
      }
      return .offset(x: x, y: y)
    case "blur":
      try expect(["radius"])
      let r = try number(args[0])
      guard r >= 0 else { throw SyntaxError("blur radius must be 0 or more, got \(formatNumber(r))", at: args[0].origin) }
      return .blur(radius: r)
    case "asymmetric":
      try expect(["insertion", "removal"])
      guard case .chain(let i) = args[0].value, case .chain(let r) = args[1].value else {
        throw SyntaxError("asymmetric takes two transitions", at: call.origin)
      }
      return .asymmetric(insertion: try transition(i), removal: try transition(r))
    case "modifier":
      throw SyntaxError(
        "a custom modifier(active:identity:) is written as a JSON object: {\"modifier\": {\"active\": {…}, \"identity\": {…}}}", at: call.nameOrigin)
    default:
      throw SyntaxError("unknown transition '\(call.name)'" + Suggestions.didYouMean(call.name, in: Self.transitionNames), at: call.nameOrigin)
    }
  }

  /// Properties whose active value may be an expression of p.
  static let expressionKeys = ["opacity", "scale", "rotation", "blur", "cornerRadius"]
  static let unsupportedModifierKeys: Set<String> = ["stroke", "shadow"]

  /// `{"active": {…}, "identity": {…}}`: property sets, where a numeric
  /// property of the active state may be an expression string of p.
  func modifier(_ node: JSONNode, _ path: JSONPath) -> Transition? {
    guard let o = reader.object(node, path, keys: ["active", "identity"], required: ["active", "identity"]),
      let (an, ap) = o["active"], let (inode, ipath) = o["identity"]
    else { return nil }
    let keys = Reader.animatableKeys
    guard let identityMembers = reader.object(inode, ipath, keys: keys), let activeMembers = reader.object(an, ap, keys: keys) else {
      return nil
    }
    // Strokes and shadows change through `set`; a modifier's states are
    // geometry, opacity, blur, corner radius and fill.
    for members in [identityMembers, activeMembers] {
      for (key, entry) in members.sorted(by: { $0.key < $1.key }) where Self.unsupportedModifierKeys.contains(key) {
        reader.error(
          "'\(key)' cannot be part of a transition modifier; a modifier's states take "
            + keys.filter { !Self.unsupportedModifierKeys.contains($0) }.joined(separator: ", "), entry.node, entry.path)
      }
    }
    var expressions: [String: ProgressExpression] = [:]
    var plain = activeMembers
    for (key, entry) in activeMembers {
      guard let text = entry.node.string else { continue }
      guard Self.expressionKeys.contains(key) else {
        if key != "fill" {
          reader.error(
            "'\(key)' cannot be an expression; expressions of p are for \(Self.expressionKeys.joined(separator: ", "))", entry.node, entry.path)
        }
        continue
      }
      do {
        let expression = try ProgressExpression(parsing: text)
        // Checked where it is used: at p = 0 and 1 it must give a number.
        if !expression.evaluate(p: 0).isFinite || !expression.evaluate(p: 1).isFinite {
          reader.error("'\(text)' is not a finite number at p = 0 or p = 1", entry.node, entry.path)
        } else {
          expressions[key] = expression
        }
      } catch {
        reader.error(error.message, at: locate(error, in: entry.node, path: entry.path), path: entry.path)
      }
      plain[key] = nil
    }
    return .modifier(active: reader.properties(plain), expressions: expressions, identity: reader.properties(identityMembers))
  }
}
