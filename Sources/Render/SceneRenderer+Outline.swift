import SceneModel
import Timing

extension SceneRenderer {
  /// The scene's events in the order written (each with its changes, its
  /// animation's settling and end, its keyframe tracks, phases or
  /// animator), and its layers as written.
  public var outline: SourceOutline? {
    let events = scene.timeline.enumerated().map { i, e in
      var changes = e.set.map { "set \($0.id)" } + e.insert.map { "insert \($0.layer.id ?? "?") into \($0.into)" }
      changes += e.remove.map { "remove \($0.id)" } + e.velocity.map { "velocity \($0.id)" }
      if let d = e.drag { changes.append("drag \(d.layer)") }
      var row = SourceOutline.Event(
        at: e.at, animation: e.animation?.description, settlingDuration: timeline.eventSettling[i], end: timeline.eventEnds[i], changes: changes)
      if !e.keyframes.isEmpty {
        row.changes += Array(Set(e.keyframes.map(\.id))).sorted().map { "keyframes \($0)" }
        row.keyframes = timeline.keyframeLayouts[i]
      }
      if let cycle = e.phases {
        row.changes += Array(Set(cycle.phases.flatMap { $0.map(\.id) })).sorted().map { "phases \($0)" }
        let steps = PhaseSchedule.steps(phases: cycle.phases.count, animations: cycle.animations, start: e.at, repeating: false, until: e.at)
        row.phases = SourceOutline.Phases(
          count: cycle.phases.count, repeats: cycle.cyclesForever, cycle: cycle.period,
          steps: steps.map { .init(at: $0.time, phase: $0.phase, animation: $0.animation?.description) })
      }
      if let run = e.animator {
        row.changes += run.set.map { "animator \($0.id)" }
        row.animator = SourceOutline.Animator(
          timing: run.timing, duration: run.animator.duration,
          stretches: run.animator.stretches.map { InteractiveAnimator.Stretch(kind: $0.kind, start: e.at + $0.start, end: e.at + $0.end) })
      }
      return row
    }
    func layer(_ l: Layer) -> SourceOutline.Layer { SourceOutline.Layer(id: l.id, type: l.type.rawValue, children: l.children.map(layer)) }
    return SourceOutline(
      events: events, layers: scene.layers.map(layer), defaultDuration: timeline.defaultDuration, durationGiven: scene.duration != nil)
  }
}
