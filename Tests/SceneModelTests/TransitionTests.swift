import Primitives
import SceneModel
import Syntax
import Testing

/// A scene whose only event removes a stacked child with `transition` (a JSON value).
private func removal(_ transition: String) -> String {
  scene(
    layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
    timeline: ##"[{"at": 0, "remove": [{"id": "r", "transition": "## + transition + "}]}]")
}

/// A transition as SwiftUI writes it, numbers as people do.
private func written(_ transition: Transition) -> String {
  switch transition {
  case .identity: "identity"
  case .opacity: "opacity"
  case .scale(let s, let anchor): "scale(\(formatNumber(s)), anchor: [\(formatNumber(anchor.x)), \(formatNumber(anchor.y))])"
  case .slide: "slide"
  case .move(let edge): "move(edge: .\(edge.rawValue))"
  case .offset(let x, let y): "offset(x: \(formatNumber(x)), y: \(formatNumber(y)))"
  case .push(let edge): "push(from: .\(edge.rawValue))"
  case .blur(let radius): "blur(radius: \(formatNumber(radius)))"
  case .asymmetric(let insertion, let removal): "asymmetric(insertion: \(written(insertion)), removal: \(written(removal)))"
  case .combined(let parts): parts.dropFirst().reduce(written(parts[0])) { $0 + ".combined(with: \(written($1)))" }
  case .modifier: "modifier"
  }
}

@Suite struct TransitionTests {
  @Test(
    arguments: [
      (#""identity""#, "identity"),
      (#"".opacity()""#, "opacity"),
      (#""scale""#, "scale(1e-05, anchor: [0.5, 0.5])"),
      (#""scale(0.5, anchor: [0, 1])""#, "scale(0.5, anchor: [0, 1])"),
      (#""scale(scale: 2)""#, "scale(2, anchor: [0.5, 0.5])"),
      (#""move(edge: .top)""#, "move(edge: .top)"),
      (#""move(edge: trailing)""#, "move(edge: .trailing)"),
      (#""push(from: .leading)""#, "push(from: .leading)"),
      (#""offset(y: 3)""#, "offset(x: 0, y: 3)"),
      (#""blur(radius: 1_0)""#, "blur(radius: 10)"),
      (
        #""asymmetric(insertion: .slide, removal: .opacity.combined(with: .scale))""#,
        "asymmetric(insertion: slide, removal: opacity.combined(with: scale(1e-05, anchor: [0.5, 0.5])))"
      ),
      (#""slide.combined(with: .opacity).combined(with: .blur(radius: 2))""#, "slide.combined(with: opacity).combined(with: blur(radius: 2))"),
      (#"{"scale": 0.5}"#, "scale(0.5, anchor: [0.5, 0.5])"),
      (#"{"scale": {"scale": 0.5, "anchor": [0, 0]}}"#, "scale(0.5, anchor: [0, 0])"),
      (#"{"move": {"edge": "top"}}"#, "move(edge: .top)"),
      (#"{"offset": {"x": 1, "y": 2}}"#, "offset(x: 1, y: 2)"),
      (#"{"push": {"from": "bottom"}}"#, "push(from: .bottom)"),
      (#"{"identity": true}"#, "identity"),
      (#"{"slide": null}"#, "slide"),
      (#"{"opacity": {}}"#, "opacity"),
      (#"{"scale": 0.5, "combined": "opacity"}"#, "scale(0.5, anchor: [0.5, 0.5]).combined(with: opacity)"),
      (#"{"slide": {}, "combined": {"with": {"move": {"edge": "top"}}}}"#, "slide.combined(with: move(edge: .top))"),
      (#"{"asymmetric": {"insertion": "slide", "removal": {"blur": {"radius": 2}}}}"#, "asymmetric(insertion: slide, removal: blur(radius: 2))"),
    ] as [(String, String)])
  func everySpellingDecodes(_ value: String, _ expected: String) throws {
    let scene = try decode(removal(value))
    #expect(written(scene.timeline[0].remove[0].transition) == expected)
  }

  /// Each error names the path, points at the token (after `^`) and says
  /// what the transition takes.
  @Test(
    arguments: [
      (#""opacity(1)""#, "opacity(^1)", "transition", "unexpected unlabelled argument; opacity takes opacity, got 'opacity(1)'"),
      (#""sliide""#, "\"^sliide", "transition", "unknown transition 'sliide'; did you mean 'slide'?"),
      (#""move""#, "\"^move", "transition", "'move' needs arguments: move(edge:)"),
      (
        #""move(edge: .tpo)""#, "^edge: .tpo", "transition",
        "'edge' of move must be an edge: leading, trailing, top or bottom, got 'tpo'; did you mean 'top'?"
      ),
      (#""scale(0.5, anchor: [0])""#, "^anchor: [0]", "transition", "'anchor' of scale must be a unit point [u, v], got [0]"),
      (
        #""scale(anchor: [0, 1])""#, "^anchor: [0, 1]", "transition",
        "missing argument 'scale' before argument 'anchor'; scale takes scale or scale(_:anchor:), got 'scale(anchor: [0, 1])'"
      ),
      (
        #""offset(y: 2, x: 1)""#, "^x: 1", "transition",
        "argument 'x' must precede argument 'y'; offset takes offset(x:y:), got 'offset(y: 2, x: 1)'"
      ),
      (#""offset(z: 1)""#, "^z: 1", "transition", "unknown argument 'z' for 'offset'; did you mean 'x'? (offset takes offset(x:y:))"),
      (#""blur(radius: -1)""#, "^radius: -1", "transition", "radius must be between 0 and 100, got -1 in 'blur(radius: -1)'"),
      (
        #""asymmetric(insertion: 1, removal: .opacity)""#, "^insertion: 1", "transition",
        "'insertion' of asymmetric must be a transition, got a number"
      ),
      (
        #""slide.combined(.opacity)""#, "combined(^.opacity)", "transition",
        "unexpected unlabelled argument; combined takes combined(with:), got 'combined(.opacity)'"
      ),
      (
        #""slide.combnied(with: .opacity)""#, "^combnied", "transition",
        "unknown transition modifier 'combnied'; did you mean 'combined'? (transitions combine with .combined(with:))"
      ),
      (
        #""modifier""#, "\"^modifier", "transition",
        #"a custom modifier(active:identity:) is written as a JSON object: {"modifier": {"active": {…}, "identity": {…}}}"#
      ),
      (#""scale(-.5)""#, "^-.5", "transition", "a number needs a digit before '.' (write 0.5, not .5)"),
      (#"{"modifer": {}}"#, "^\"modifer\"", "transition.modifer", "unknown transition 'modifer'; did you mean 'modifier'?"),
      (
        #"{"move": {"edge": "tpo"}}"#, "^\"tpo\"", "transition.move.edge",
        "'edge' of move must be an edge: leading, trailing, top or bottom, got 'tpo'; did you mean 'top'?"
      ),
      (
        #"{"scale": {"anchor": [0, 0]}}"#, "\"anchor\": ^[0, 0]", "transition.scale.anchor",
        "missing argument 'scale' before argument 'anchor'; scale takes scale or scale(_:anchor:), got 'scale(anchor: [0, 0])'"
      ),
      (
        #"{"offset": {"y": 2, "x": 1}}"#, "\"x\": ^1", "transition.offset.x",
        "argument 'x' must precede argument 'y'; offset takes offset(x:y:), got 'offset(y: 2, x: 1)'"
      ),
      (#"{"blur": 2}"#, "\"blur\": ^2", "transition.blur", "unexpected unlabelled argument; blur takes blur(radius:), got 'blur(2)'"),
    ] as [(String, String, String, String)])
  func mistakesAreLocatedAndExplained(_ value: String, _ token: String, _ path: String, _ message: String) {
    let text = removal(value)
    let column = DecoderTests.column(of: token, in: text)
    #expect(column > 0, "token \(token) not in the scene")
    #expect(problems(text) == ["t.json:1:\(column): error: timeline[0].remove[0].\(path): \(message)"])
  }
}
