// Fuzz target `lottie` (docs/fuzzing.md): the Lottie decoder on any bytes,
// then, for an animation it accepts, the evaluator: the drawing commands at
// a few frames (the start, the middle, just before the end, between two
// frames), and one frame rasterized at a scale that fits it in 48×48 pixels.
import Lottie
import Raster
import Render

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let source: LottieSource
  do {
    source = try LottieSource(decoding: bytes, file: "fuzz.json", defaultName: "fuzz")
  } catch {
    _ = error.description  // the messages are built too
    return 0
  }
  _ = source.warnings(file: "fuzz.json")
  _ = source.outline
  let duration = source.duration
  guard duration.isFinite else { return 0 }
  for t in [0, duration / 2, duration, duration / 3 + 0.5 / (source.naturalFrameRate ?? 30)] {
    _ = try? source.recording(at: t, scale: 0.01)
    for p in source.sampledProperties.prefix(4) { _ = p.sample(t) }
  }
  let side = max(source.pointSize.x, source.pointSize.y)
  if side > 0 { _ = try? source.render(at: duration / 3, scale: 48 / side) }
  return 0
}
