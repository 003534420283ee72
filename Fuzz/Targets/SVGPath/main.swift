// Fuzz target `svg-path` (docs/fuzzing.md): the SVG path data parser on
// any text, then what a path layer does with a path it accepts: bounds,
// flattening, reversal, a stroke outline, and filling and stroking it on
// a 64×64 canvas.
import Primitives
import Raster

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  let path: Path
  do {
    path = try Path(svgPathData: text)
  } catch {
    _ = error.description
    return 0
  }
  let bounds = path.bounds
  _ = path.controlBounds
  _ = path.flattened()
  _ = path.reversed().flattened(tolerance: 0.5)
  let style = StrokeStyle(width: 3, cap: .round, join: .miter, trim: (0.1, 0.9))
  _ = Stroker.outline(of: path, style: style, tolerance: 0.25)
  let canvas = Canvas(width: 64, height: 64)
  canvas.fill(path, paint: .color(.black), rule: .evenOdd)
  canvas.stroke(path, style: StrokeStyle(width: 2, cap: .square, join: .round), paint: .color(.white))
  // The whole path, fitted into the canvas.
  if !bounds.isNull, bounds.width.isFinite, bounds.height.isFinite, bounds.width > 0 || bounds.height > 0 {
    let s = 60 / max(bounds.width, bounds.height)
    canvas.fill(path, transform: .scale(s, s).concatenating(.translation(2 - bounds.minX * s, 2 - bounds.minY * s)), paint: .color(.black))
  }
  _ = canvas.pixmap
  return 0
}
