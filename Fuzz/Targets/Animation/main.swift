// Fuzz target `animation` (docs/fuzzing.md): the animation parser on any
// text, in SwiftUI syntax or (text starting with `{`) the JSON object form,
// then what the timeline does with an animation it accepts: its timing at
// a few moments, a motion it drives and interrupts. Checks that the
// description parses back, as `Animation.description` promises.
import Primitives
import Syntax
import Timing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  let animation: Animation
  do {
    if text.first == "{" {
      animation = try AnimationParser.parse(json: try JSONParser.parse(bytes), path: .root)
    } else {
      animation = try AnimationParser.parse(text)
    }
  } catch {
    _ = "\(error)"
    return 0
  }
  let spelled = animation.description
  if (try? AnimationParser.parse(spelled)) == nil {
    fatalError("the description '\(spelled)' of an accepted animation does not parse")
  }
  let timing = AnimationTiming(animation)
  let base = timing.baseDuration, total = timing.renderingDuration
  for t in [0, 1e-3, base / 2, base, total / 2, total, total + 1, 7200] where t.isFinite {
    _ = timing.progress(at: t)
  }
  // A move with a velocity, interrupted halfway by a move back.
  var motion = Motion(0.0)
  motion.animate(to: 1, at: 0, with: animation, velocity: 3)
  let half = base.isFinite ? min(base / 2, 10) : 0.1
  motion.animate(to: -2, at: half, with: animation)
  var point = Motion(Vector2(0, 0))
  point.animate(to: Vector2(100, -50), at: 1, with: animation, velocity: Vector2(-400, 10))
  for t in [0, half / 2, half, half * 1.5, motion.endTime, point.endTime] where t.isFinite {
    _ = motion.sample(at: t)
    _ = point.sample(at: t)
  }
  return 0
}
