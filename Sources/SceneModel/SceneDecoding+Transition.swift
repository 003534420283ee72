import Primitives
import Syntax

extension SceneDecoding {
  /// A transition in SwiftUI syntax (`"slide.combined(with: .opacity)"`) or
  /// as a JSON object with one key per call, the only way to write a custom
  /// `modifier(active:identity:)`.
  func transition(_ node: JSONNode, _ path: JSONPath) -> Transition? {
    if let text = node.string {
      do {
        return try Self.transition(try CallParser.parse(text), source: text)
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
          parts.append(try Self.transition(chain, source: nil))
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
  /// `source` is the text the chain was parsed from, if any, to quote it.
  static func transition(_ chain: CallChain, source: String?) throws(SyntaxError) -> Transition {
    let parts = [try transitionGrammar.base(of: chain, source: source)] + (try transitionGrammar.modifiers(of: chain, source: source))
    return parts.count == 1 ? parts[0] : .combined(parts)
  }

  /// A transition and the ones it combines with.
  static let transitionGrammar = ChainGrammar(
    bases: transitions, modifiers: transitionModifiers, unknownModifierDetail: " (transitions combine with .combined(with:))")

  /// The transitions in SwiftUI syntax. Only the JSON object form can write
  /// a custom `modifier(active:identity:)`: its states are property sets.
  static let transitions = Vocabulary<Transition>(
    "transition",
    [
      Function("identity", Overload { _ in .identity }),
      Function("opacity", Overload { _ in .opacity }),
      Function(
        "scale", Overload { _ in .scale(1e-5, anchor: Vector2(0.5, 0.5)) },
        Overload(Parameter.number(.unlabelled("scale")), Parameter.point("anchor", default: SIMD2(0.5, 0.5))) { _, s, anchor in
          .scale(s, anchor: Vector2(anchor.x, anchor.y))
        }),
      Function("slide", Overload { _ in .slide }),
      Function("move", Overload(Parameter<Edge>.choice("edge", noun: "an edge")) { _, edge in .move(edge: edge) }),
      Function("offset", Overload(Parameter.number("x", default: 0), Parameter.number("y", default: 0)) { _, x, y in .offset(x: x, y: y) }),
      Function("push", Overload(Parameter<Edge>.choice("from", noun: "an edge")) { _, edge in .push(from: edge) }),
      Function("blur", Overload(Parameter.number("radius", Properties.blur.domain.range)) { _, r in .blur(radius: r) }),
      Function(
        "asymmetric",
        Overload(Parameter.chain("insertion", noun: "a transition"), Parameter.chain("removal", noun: "a transition")) {
          call, insertion, removal throws(SyntaxError) in
          .asymmetric(insertion: try transition(insertion, source: call.source), removal: try transition(removal, source: call.source))
        }),
    ],
    unavailable: [
      "modifier": "a custom modifier(active:identity:) is written as a JSON object: {\"modifier\": {\"active\": {…}, \"identity\": {…}}}"
    ])

  /// What may follow a transition in a chain.
  static let transitionModifiers = Vocabulary<Transition>(
    "transition modifier",
    [
      Function(
        "combined",
        Overload(Parameter.chain("with", noun: "a transition")) { call, other throws(SyntaxError) in
          try transition(other, source: call.source)
        })
    ])

  /// Properties whose active value may be an expression of p.
  static let expressionKeys: [PropertyKey] = [.opacity, .scale, .rotation, .blur, .cornerRadius]

  /// `{"active": {…}, "identity": {…}}`: property sets, where a numeric
  /// property of the active state may be an expression string of p.
  func modifier(_ node: JSONNode, _ path: JSONPath) -> Transition? {
    guard let o = reader.object(node, path, keys: ["active", "identity"], required: ["active", "identity"]),
      let (an, ap) = o["active"], let (inode, ipath) = o["identity"]
    else { return nil }
    let stateKeys = Reader.PropertyContext.transitionState.keys
    // Strokes and shadows change through `set`; a modifier's states are
    // geometry, opacity, blur, corner radius and fill.
    let unsupported = Reader.PropertyContext.values.keys.filter { !stateKeys.contains($0) && $0 != "color" }
    let keys = stateKeys + unsupported
    guard let identityMembers = reader.object(inode, ipath, keys: keys), let activeMembers = reader.object(an, ap, keys: keys) else {
      return nil
    }
    for members in [identityMembers, activeMembers] {
      for (key, entry) in members.sorted(by: { $0.key < $1.key }) where unsupported.contains(key) {
        reader.error(
          "\(Excerpt.quoted(key)) cannot be part of a transition modifier; a modifier's states take " + stateKeys.joined(separator: ", "), entry.node,
          entry.path)
      }
    }
    var expressions: [PropertyKey: ProgressExpression] = [:]
    var plain = activeMembers
    for (key, entry) in activeMembers {
      guard let text = entry.node.string else { continue }
      guard let property = PropertyKey(name: key), Self.expressionKeys.contains(property) else {
        if key != "fill" {
          reader.error(
            "\(Excerpt.quoted(key)) cannot be an expression; expressions of p are for \(Self.expressionKeys.map(\.name).joined(separator: ", "))",
            entry.node,
            entry.path)
        }
        continue
      }
      do {
        let expression = try ProgressExpression(parsing: text)
        // Checked where it is used: at p = 0 and 1 it must give a number.
        if !expression.evaluate(p: 0).isFinite || !expression.evaluate(p: 1).isFinite {
          reader.error("\(Excerpt.quoted(text)) is not a finite number at p = 0 or p = 1", entry.node, entry.path)
        } else {
          expressions[property] = expression
        }
      } catch {
        reader.error(error.message, at: locate(error, in: entry.node, path: entry.path), path: entry.path)
      }
      plain[key] = nil
    }
    for key in unsupported {
      plain[key] = nil
    }
    var identityValues = identityMembers
    for key in unsupported { identityValues[key] = nil }
    return .modifier(
      active: reader.properties(plain, context: .transitionState).values, expressions: expressions,
      identity: reader.properties(identityValues, context: .transitionState).values)
  }
}
