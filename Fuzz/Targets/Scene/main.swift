// Fuzz target `scene` (docs/fuzzing.md): the scene decoder on any bytes,
// then, for a scene it accepts, what the renderer does with it: the
// timeline, the layer tree and the drawing commands at a few moments, and
// one frame rasterized at a scale that fits it in 48×48 pixels.
import Raster
import Render
import SceneModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let scene: Scene
  do {
    scene = try SceneDecoder.decode(bytes, file: "fuzz.json", defaultName: "fuzz")
  } catch {
    _ = error.description  // the messages are built too
    return 0
  }
  let renderer = SceneRenderer(scene: scene)
  // The start, the end, and around every event.
  var times = [0.0, renderer.duration / 2, renderer.duration]
  for event in scene.timeline.prefix(8) { times += [event.at, event.at + 0.05, event.at + 0.3] }
  for t in times where t.isFinite {
    _ = renderer.visibleLayerIDs(at: t)
    _ = try? renderer.recording(at: t)
  }
  let side = max(scene.size.x, scene.size.y)
  if side.isFinite, side > 0, renderer.duration.isFinite {
    _ = try? renderer.render(at: renderer.duration / 3, scale: 48 / side)
  }
  return 0
}
