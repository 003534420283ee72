// Fuzz target `transition` (docs/fuzzing.md): a transition, in SwiftUI
// syntax or (text starting with `{`) the JSON object form, custom
// modifiers and their progress expressions included, read through the
// scene decoder as the transition of an insertion and of a removal in a
// small scene; for a scene it accepts, the layer trees and drawing
// commands through both transitions and a few frames rasterized.
import Raster
import Render
import SceneModel

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  let transition = text.first == "{" ? text : jsonString(text)
  let source = """
    {"version": 1, "size": [64, 48], "layers": [
      {"id": "stack", "type": "vstack", "position": [32, 24], "children": [{"id": "old", "type": "rect", "size": [40, 10], "fill": "blue"}]}],
     "timeline": [
      {"at": 0, "animation": "easeInOut(duration: 0.5)",
       "insert": [{"into": "stack", "index": 0, "transition": \(transition), "layer": {"id": "new", "type": "rect", "size": [40, 10], "fill": "red"}}]},
      {"at": 1, "animation": "spring(duration: 0.5, bounce: 0.3)", "remove": [{"id": "old", "transition": \(transition)}]}]}
    """
  let scene: Scene
  do {
    scene = try SceneDecoder.decode(Array(source.utf8), file: "fuzz.json", defaultName: "fuzz")
  } catch {
    _ = error.description
    return 0
  }
  let renderer = SceneRenderer(scene: scene)
  for t in [0, 0.1, 0.25, 0.5, 1, 1.1, 1.25, 1.6, 3] {
    _ = renderer.visibleLayerIDs(at: t)
    _ = try? renderer.recording(at: t)
  }
  for t in [0.2, 1.2] { _ = try? renderer.render(at: t, scale: 0.5) }
  return 0
}
