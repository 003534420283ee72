import Foundation
import Primitives
import SceneModel
import Testing

/// The scene with `layers` and `timeline` (JSON fragments) around a fixed header.
func scene(layers: String, timeline: String = "[]", extra: String = "") -> String {
  """
  {"version": 1, "size": [390, 200],\(extra) "layers": \(layers), "timeline": \(timeline)}
  """
}

func decode(_ text: String) throws -> Scene {
  try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
}

/// Every diagnostic, as CLI.md prints them.
func problems(_ text: String) -> [String] {
  do {
    _ = try decode(text)
    return []
  } catch let e as SceneErrors {
    return e.diagnostics.map(\.description)
  } catch {
    return ["\(error)"]
  }
}

@Suite struct DecoderTests {
  @Test func aFullSceneDecodes() throws {
    let s = try decode(
      """
      {"version": 1, "name": "toggle", "size": [390, 200], "scale": 2, "background": "#F2F2F7", "duration": 2.5,
       "assets": {"tomato": "assets/tomato@2x.png", "photo": {"file": "p.png", "scale": 3}},
       "fonts": {"Rounded": "fonts/r.ttf"},
       "layers": [
         {"id": "track", "type": "capsule", "size": [60, 36], "position": [195, 100], "fill": "green",
          "stroke": {"color": "#00000022", "width": 1, "dash": [4, 2]}, "shadow": {"color": "#00000033", "radius": 8, "offset": [0, 4]}},
         {"id": "knob", "type": "circle", "size": [32, 32], "position": [180, 100], "scale": 1.2, "opacity": 0.9,
          "fill": {"linear": {"from": [0, 0], "to": [1, 1], "stops": [[0, "white"], [1, "#DDDDDD"]]}}},
         {"id": "list", "type": "vstack", "position": [195, 20], "anchor": [0.5, 0], "spacing": 4, "alignment": "leading",
          "padding": [1, 2, 3, 4], "children": [{"type": "rect", "size": [10, 10], "cornerRadius": 3, "cornerStyle": "circular"}]},
         {"type": "path", "d": "M0 0 L10 0 L10 10 Z", "fillRule": "evenodd", "trim": [0, 0.5]},
         {"type": "text", "text": "トマト", "font": {"size": 28, "weight": "bold"}, "color": "red", "align": "center"},
         {"type": "image", "asset": "tomato", "contentMode": "fit", "size": [40, 40]}
       ],
       "timeline": [
         {"at": 1.2, "animation": "spring", "velocity": {"knob": {"position": [900, 0]}}, "set": {"knob": {"position": [60, 100]}}},
         {"at": 0, "animation": "spring(duration: 0.5, bounce: 0.2)", "set": {"knob": {"position": [210, 100]}}},
         {"at": 1.0, "animation": {"snappy": {}, "delay": 0.1},
          "insert": [{"into": "list", "index": 0, "transition": "slide.combined(with: .opacity)", "layer": {"id": "row4", "type": "rect", "size": [300, 44]}}],
          "remove": [{"id": "track", "transition": "scale"}]},
         {"at": 2, "drag": {"layer": "knob", "points": [[0, 60, 100], [0.1, 80, 100]]}},
         {"at": 2.5, "set": {"row4": {"opacity": 0.5}}}
       ]}
      """)
    #expect(s.name == "toggle" && s.size == Vector2(390, 200) && s.scale == 2 && s.duration == 2.5)
    #expect(s.background == Color(hex: "#F2F2F7"))
    #expect(s.assets["tomato"]?.file == "assets/tomato@2x.png" && s.assets["tomato"]?.scale == 2)
    #expect(s.assets["tomato"]?.path.description == "assets.tomato" && s.assets["tomato"]?.location.line == 2)
    #expect(s.assets["photo"]?.scale == 3)
    #expect(s.layers.count == 6)
    #expect(s.layers[0].properties[Properties.fill] == .color(Color(hex: "#34C759")!.premultiplied))
    #expect(s.layers[0].properties[Properties.strokeDash] == [4, 2] && s.layers[0].hasStroke && s.layers[0].hasShadow)
    #expect(s.layers[0].properties[Properties.shadowColor] == Color(hex: "#00000033")!.premultiplied)
    #expect(s.layers[1].properties[Properties.scale] == Vector2(1.2, 1.2) && !s.layers[1].hasStroke)
    let stack = try #require(s.layers[2].stack)
    #expect(stack.padding == EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4) && stack.alignment == .leading && stack.spacing == 4)
    #expect(s.layers[2].children.count == 1 && s.layers[2].children[0].properties[Properties.cornerStyle] == .circular)
    #expect(s.layers[3].path?.path.elements.count == 4 && s.layers[3].path?.fillRule == .evenOdd)
    let text = try #require(s.layers[4].text)
    #expect(text.text == "トマト" && text.font.size == 28 && text.font.weight == .bold && text.align == .center)
    #expect(s.layers[4].properties[Properties.color] == .color(Color(hex: "#FF3B30")!.premultiplied))
    #expect(s.layers[5].image?.asset == "tomato" && s.layers[5].image?.contentMode == .fit)
    // Events are in time order, whatever the file's order.
    #expect(s.timeline.map(\.at) == [0, 1.0, 1.2, 2, 2.5])
    #expect(s.timeline[1].insert.first?.layer.id == "row4")
    #expect(s.timeline[2].velocity.first?.values[Properties.position] == Vector2(900, 0))
    #expect(s.timeline[3].drag?.points.count == 2)
  }

  @Test func defaults() throws {
    let s = try decode(scene(layers: ##"[{"type": "rect"}]"##))
    #expect(s.name == "t" && s.scale == 1 && s.background == .white && s.duration == nil)
    let l = s.layers[0]
    #expect(l.value(Properties.cornerStyle) == .continuous && l.value(Properties.clip) == false && l.properties[Properties.position] == nil)
    #expect(l.value(Properties.fill) == .color(Color.black.premultiplied) && l.value(Properties.strokeColor) == .clear)
    #expect(try decode(scene(layers: ##"[{"type": "vstack"}]"##)).layers[0].stack?.spacing == 8)
    #expect(try decode(scene(layers: "[]", extra: ##" "background": "transparent","##)).background == nil)
  }

  /// The column of `token` in `text` (1-based, in characters): where the
  /// problem is, found in the scene text itself rather than by the decoder.
  /// A `^` in the token marks the exact character; otherwise its first.
  static func column(of token: String, in text: String) -> Int {
    let caret = token.firstIndex(of: "^").map { token.distance(from: token.startIndex, to: $0) } ?? 0
    let needle = token.replacingOccurrences(of: "^", with: "")
    guard let range = text.range(of: needle) else { return -1 }
    return text.distance(from: text.startIndex, to: range.lowerBound) + caret + 1
  }

  /// The bad-input catalogue: each scene, the token the error must point at,
  /// and the exact message.
  @Test(
    arguments: [
      (
        scene(layers: "[]", extra: ##" "backgrund": "#FFF","##), ##""backgrund""##,
        ##"backgrund: unknown key 'backgrund'; did you mean 'background'?"##
      ),
      (##"{"size": [390, 200], "layers": []}"##, ##"^{"##, ##"(root): missing required key 'version'"##),
      (##"{"version": 2, "size": [390, 200], "layers": []}"##, ##"^2,"##, ##"version: unsupported version 2: this renderer reads version 1"##),
      (
        ##"{"version": 1, "size": [390, -1], "layers": []}"##, ##"-1"##, ##"size[1]: -1 is out of range: must be greater than 0 and at most 1000000"##
      ),
      (
        ##"{"version": 1, "size": [100000, 100000], "layers": []}"##, ##"[100000"##,
        ##"size: the canvas is 100000×100000 pixels at scale 1, more than the limit of 16384 pixels a side and 67108864 pixels"##
      ),
      (scene(layers: ##"[{"type": "rect", "opacity": 1.5}]"##), ##"1.5"##, ##"layers[0].opacity: 1.5 is out of range: must be between 0 and 1"##),
      (scene(layers: ##"[{"type": "rect", "fill": "bleu"}]"##), ##""bleu""##, ##"layers[0].fill: unknown colour 'bleu'; did you mean 'blue'?"##),
      (
        scene(layers: ##"[{"type": "rect", "fill": "#12345"}]"##), ##""#12345""##,
        ##"layers[0].fill: invalid colour '#12345': write #RGB, #RRGGBB or #RRGGBBAA"##
      ),
      (
        scene(layers: ##"[{"type": "rectangle"}]"##), ##""rectangle""##,
        ##"layers[0].type: 'rectangle' is not one of rect, circle, ellipse, capsule, path, text, image, group, vstack, hstack, zstack"##
      ),
      (
        scene(layers: ##"[{"type": "rect", "positon": [1, 2]}]"##), ##""positon""##,
        ##"layers[0].positon: unknown key 'positon'; did you mean 'position'?"##
      ),
      (
        scene(layers: ##"[{"type": "rect", "children": []}]"##), ##""children""##,
        ##"layers[0].children: a layer of type 'rect' holds no children: only groups and stacks (group, vstack, hstack, zstack) do"##
      ),
      (
        scene(
          layers: ##"[{"type": "group", "children": [{"type": "image", "asset": "a", "children": [{"type": "rect"}]}]}]"##,
          extra: ##" "assets": {"a": "a.png"},"##),
        ##""children": [{"type": "rect"##,
        ##"layers[0].children[0].children: a layer of type 'image' holds no children: only groups and stacks (group, vstack, hstack, zstack) do"##
      ),
      (
        scene(layers: ##"[{"id": "a", "type": "rect"}, {"id": "a", "type": "rect"}]"##), ##"}, {"id": ^"a""##,
        ##"layers[1].id: duplicate id 'a' (first declared at line 1)"##
      ),
      (scene(layers: ##"[{"id": "9a", "type": "rect"}]"##), ##""9a""##, ##"layers[0].id: invalid id '9a': ids match [A-Za-z_][A-Za-z0-9_-]*"##),
      (
        scene(layers: ##"[{"type": "path", "d": "M 0 0 L 10 x"}]"##), ##"10 ^x"##,
        ##"layers[0].d: invalid path data: expected a number after 'L', found 'x'"##
      ),
      (
        scene(layers: ##"[{"type": "image", "asset": "tomato"}]"##), ##""tomato""##,
        ##"layers[0].asset: unknown asset 'tomato' (the scene lists no assets)"##
      ),
      (
        scene(layers: "[]", extra: ##" "assets": ["a.png"],"##), ##"["a.png"]"##,
        ##"assets: expected an object of name → file, got an array"##
      ),
      (
        scene(layers: "[]", extra: ##" "fonts": "r.ttf","##), ##""r.ttf""##,
        ##"fonts: expected an object of family → font file, got a string"##
      ),
      (
        scene(layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0, "set": [1]}]"##), ##"[1]"##,
        ##"timeline[0].set: expected an object of layer id → properties, got an array"##
      ),
      (
        scene(layers: ##"[{"type": "text", "text": ""## + String(repeating: "é", count: 100_001) + ##""}]"##), ##""éé"##,
        ##"layers[0].text: text of 100001 characters, more than the limit of 100000"##
      ),
      (
        scene(layers: ##"[{"type": "path", "d": "M"## + String(repeating: " 1", count: 500_000) + ##""}]"##), ##""M 1"##,
        ##"layers[0].d: path data of 1000001 characters, more than the limit of 1000000"##
      ),
      (scene(layers: ##"[{"type": "rect", "trim": [0.8, 0.2]}]"##), ##"[0.8"##, ##"layers[0].trim: trim from 0.8 is after to 0.2"##),
      (
        scene(layers: ##"[{"type": "rect", "stroke": {"width": -2}}]"##), ##"-2"##,
        ##"layers[0].stroke.width: -2 is out of range: must be between 0 and 1000000"##
      ),
      (
        scene(layers: ##"[{"type": "rect", "fill": {"linear": {"from": [0, 0], "to": [1, 1], "stops": [[0.5, "red"], [0.2, "blue"]]}}}]"##),
        ##"0.2, "blue""##, ##"layers[0].fill.linear.stops[1][0]: stop offsets must be sorted: 0.2 comes after 0.5"##
      ),
      (
        scene(layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0, "animation": "sprung", "set": {"k": {"opacity": 0}}}]"##),
        ##"sprung"##, ##"timeline[0].animation: unknown animation 'sprung'; did you mean 'spring'?"##
      ),
      (
        scene(
          layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0, "animation": "spring(bounce: 2)", "set": {"k": {"opacity": 0}}}]"##),
        ##"bounce: 2"##,
        ##"timeline[0].animation: bounce must be greater than -1 and less than 1 (1 never settles, -1 never moves), got 2 in 'spring(bounce: 2)'"##
      ),
      (
        scene(layers: ##"[{"id": "knob", "type": "rect"}]"##, timeline: ##"[{"at": 0, "set": {"knb": {"opacity": 0}}}]"##), ##""knb""##,
        ##"timeline[0].set.knb: no layer has id 'knb'; did you mean 'knob'?"##
      ),
      (
        scene(layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": -1, "set": {"k": {"opacity": 0}}}]"##), ##"-1"##,
        ##"timeline[0].at: -1 is out of range: must be between 0 and 1000000"##
      ),
      (
        scene(layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0}]"##), ##"{"at": 0}"##,
        ##"timeline[0]: an event needs at least one of set, insert, remove, velocity, drag, keyframes, phases, animator"##
      ),
      (
        scene(
          layers: ##"[{"id": "k", "type": "rect"}]"##,
          timeline: ##"[{"at": 0, "remove": [{"id": "k", "transition": "slide.combined(with: .opacty)"}]}]"##), ##"opacty"##,
        ##"timeline[0].remove[0].transition: unknown transition 'opacty'; did you mean 'opacity'?"##
      ),
      (
        scene(
          layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0, "insert": [{"into": "k", "layer": {"id": "n", "type": "rect"}}]}]"##),
        ##""into": ^"k""##,
        ##"timeline[0].insert[0].into: 'k' is not a container (group, vstack, hstack, zstack): layers can only be inserted into one"##
      ),
      (
        scene(layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0, "drag": {"layer": "k", "points": [[0, 1, 1]]}}]"##),
        ##"[[0, 1, 1]]"##, ##"timeline[0].drag.points: a drag needs at least two points [t, x, y], got 1"##
      ),
      (
        scene(layers: ##"[{"id": "k", "type": "rect"}]"##, timeline: ##"[{"at": 0, "drag": {"layer": "k", "points": [[0, 1, 1], [0, 2, 2]]}}]"##),
        ##"[^0, 2, 2]"##, ##"timeline[0].drag.points[1][0]: drag times must increase: 0 after 0"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 0, "remove": [{"id": "r", "transition": {"modifier": {"active": {"scale": "2*q"}, "identity": {"scale": 1}}}}]}]"##),
        ##"2*^q"##, ##"timeline[0].remove[0].transition.modifier.active.scale: unknown name 'q'; did you mean 'p'?"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 0, "remove": [{"id": "r", "transition": {"modifier": {"active": {"scale": "1/p"}, "identity": {"scale": 1}}}}]}]"##),
        ##""1/p""##, ##"timeline[0].remove[0].transition.modifier.active.scale: '1/p' is not a finite number at p = 0 or p = 1"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 1, "remove": [{"id": "r"}]}, {"at": 2, "remove": [{"id":"r"}]}]"##), ##"{"id":^"r"}"##,
        ##"timeline[1].remove[0].id: 'r' cannot be removed at 2 s: it was removed at 1 s"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack"}]"##,
          timeline: ##"[{"at": 2, "insert": [{"into": "l", "layer": {"id": "n", "type": "rect"}}]}, {"at": 1, "remove": [{"id": "n"}]}]"##),
        ##"{"id": ^"n"}]"##, ##"timeline[1].remove[0].id: 'n' cannot be removed at 1 s: it is inserted at 2 s"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack"}]"##,
          timeline: ##"[{"at": 0, "remove": [{"id": "l"}]}, {"at": 1, "insert": [{"into": "l", "layer": {"id": "n", "type": "rect"}}]}]"##),
        ##""into": ^"l""##, ##"timeline[1].insert[0].into: cannot insert into 'l' at 1 s: it was removed at 0 s"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 0, "remove": [{"id": "r", "transition": {"modifier": {"active": {"stroke": {"width": 3}}, "identity": {}}}}]}]"##),
        ##"{"width": 3}"##,
        ##"timeline[0].remove[0].transition.modifier.active.stroke: 'stroke' cannot be part of a transition modifier; a modifier's states take position, size, anchor, offset, scale, rotation, opacity, fill, trim, cornerRadius, blur"##
      ),
      // Issue 16: silent acceptances become located errors.
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 1, "insert": [{"into": "l", "index": 2, "layer": {"id": "n", "type": "rect"}}]}]"##),
        ##""index": ^2"##, ##"timeline[0].insert[0].index: index 2 is past the end of 'l', which has 1 child at 1 s (an index is 0…1)"##
      ),
      (
        scene(
          layers: ##"[{"id": "k", "type": "rect"}]"##,
          timeline: ##"[{"at": 0, "velocity": {"k": {"position": [9, 0]}}, "set": {"k": {"position": [1, 1]}}}]"##),
        ##""velocity": ^{"##,
        ##"timeline[0].velocity: a velocity is handed to the springs the event starts, and this event has no animation; add an "animation""##
      ),
      (
        scene(
          layers: ##"[{"id": "k", "type": "rect"}]"##,
          timeline: ##"[{"at": 0, "animation": "spring", "velocity": {"k": {"opacity": 2}}, "set": {"k": {"position": [1, 1]}}}]"##),
        ##""opacity""##,
        ##"timeline[0].velocity.k.opacity: this event does not animate 'k''s 'opacity', so it has no spring to hand the velocity to; set the property in the same event"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "hstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 0, "animation": "spring", "set": {"r": {"position": [1, 1]}}}]"##),
        ##""position""##,
        ##"timeline[0].set.r.position: 'r' is a stack's child, and the stack decides its position; move it with "offset" instead"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "zstack"}]"##,
          timeline: ##"[{"at": 0, "insert": [{"into": "l", "layer": {"id": "n", "type": "rect"}}]}, {"at": 1, "set": {"n": {"position": [1, 1]}}}]"##),
        ##""position""##,
        ##"timeline[1].set.n.position: 'n' is a stack's child, and the stack decides its position; move it with "offset" instead"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 0, "animation": "spring", "remove": [{"id": "r", "transition": "blur(radius: 23600)"}]}]"##),
        ##"blur(^radius: 23600"##,
        ##"timeline[0].remove[0].transition: radius must be between 0 and 100, got 23600 in 'blur(radius: 23600)'"##
      ),
      (
        scene(layers: ##"[{"type": "rect", "scale": 1e300}]"##), ##"1e300"##,
        ##"layers[0].scale: 1e+300 is out of range: must be between -1000000 and 1000000"##
      ),
      (
        scene(layers: ##"[{"type": "vstack", "spacing": -2e6}]"##), ##"-2e6"##,
        ##"layers[0].spacing: -2000000 is out of range: must be between -1000000 and 1000000"##
      ),
      (
        scene(
          layers: ##"[{"id": "k", "type": "rect"}]"##,
          timeline: ##"[{"at": 0, "drag": {"layer": "k", "points": [[0, 0, 0], [1, 3e6, 0]]}}]"##),
        ##"3e6"##, ##"timeline[0].drag.points[1][1]: 3000000 is out of range: must be between -1000000 and 1000000"##
      ),
      (
        scene(
          layers: ##"[{"id": "l", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
          timeline: ##"[{"at": 0, "drag": {"layer": "r", "points": [[0, 0, 0], [1, 5, 0]]}}]"##),
        ##""layer": ^"r""##,
        ##"timeline[0].drag.layer: 'r' is a stack's child, and the stack decides its position; a drag cannot move it (drag a layer outside the stack)"##
      ),
      (
        scene(layers: "[]", extra: ##" "name": "../up","##), ##""../up""##,
        ##"name: the name '../up' contains a path separator: a name is one file-name component, used for the outputs' names"##
      ),
      (
        scene(layers: ##"[{"type": "rect", "fill": "## + "\"" + String(repeating: "q", count: 5000) + "\"" + ##"}]"##), ##""qqq"##,
        "layers[0].fill: unknown colour '" + String(repeating: "q", count: 39) + "…'"
      ),
      (##"{"version": 1, "size": [390, 200], "layers": [}"##, ##"[^}"##, ##"(root): invalid JSON: expected a value, found '}'"##),
    ] as [(String, String, String)])
  func badScenesAreReportedWhereTheProblemIs(_ text: String, _ token: String, _ message: String) {
    let column = Self.column(of: token, in: text)
    #expect(column > 0, "token \(token) not in the scene")
    #expect(problems(text) == ["t.json:1:\(column): error: \(message)"])
  }

  @Test func severalProblemsAreAllReportedInFileOrder() {
    let text = scene(layers: ##"[{"type": "rect", "opacity": 2, "fill": "bleu"}]"##, timeline: ##"[{"at": 0, "set": {"x": {}}}]"##)
    let found = problems(text)
    let columns = ["2,", ##""bleu""##, ##""x""##].map { "\(Self.column(of: $0, in: text))" }
    #expect(found.map { String($0.split(separator: ":")[2]) } == columns)
  }

  @Test func layersNestedTooDeepAreALimitNotACrash() {
    var layers = ##"{"type": "rect"}"##
    for _ in 0..<70 { layers = ##"{"type": "group", "children": ["## + layers + "]}" }
    let found = problems(scene(layers: "[" + layers + "]"))
    #expect(found.count == 1 && found[0].contains("layers nested deeper than the limit of 64"))
  }

  @Test func customModifierTransition() throws {
    let s = try decode(
      scene(
        layers: ##"[{"id": "list", "type": "vstack", "children": [{"id": "r", "type": "rect"}]}]"##,
        timeline: #"""
          [{"at": 1, "remove": [{"id": "r", "transition": {"asymmetric": {"insertion": "slide.combined(with: .opacity)",
            "removal": {"modifier": {"active": {"scale": "-6.8*p*p + 5.8*p + 1", "opacity": 0.5}, "identity": {"scale": 1}}}}}}]}]
          """#))
    guard case .asymmetric(let insertion, let removal) = s.timeline[0].remove[0].transition else {
      Issue.record("not asymmetric"); return
    }
    guard case .combined(let parts) = insertion, parts.count == 2, case .slide = parts[0], case .opacity = parts[1] else {
      Issue.record("insertion is \(insertion)"); return
    }
    guard case .modifier(let active, let expressions, let identity) = removal else { Issue.record("removal is \(removal)"); return }
    // The seed's curve: 1 at p = 0, 2.2 at p = 0.5, 0 at p = 1 (by hand).
    let scale = try #require(expressions[.scale])
    #expect(abs(scale.evaluate(p: 0) - 1) < 1e-12 && abs(scale.evaluate(p: 0.5) - 2.2) < 1e-12 && abs(scale.evaluate(p: 1)) < 1e-12)
    #expect(active[Properties.opacity] == 0.5 && identity[Properties.scale] == Vector2(1, 1))
  }
}
