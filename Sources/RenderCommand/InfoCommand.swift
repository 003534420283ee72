import ArgumentParser
import Render
import SceneModel
import Syntax
import Timing

/// `render info SCENE [--json]`: the scene's duration, its events in time
/// order with each animation's settling duration and end, and its layers.
struct Info: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Show a scene's duration, events (with settling times) and layers.")

  @Argument(help: "The scene file.")
  var scene: String

  @OptionGroup var jsonFlag: JSONSummary

  func run() throws {
    let source = try SceneFile.loadOrReport(scene)
    // Events and layers are a scene's; every source has a name, a size
    // and a duration.
    guard let renderer = source as? SceneRenderer else {
      let (w, h) = source.pixelSize(scale: nil)
      if jsonFlag.json {
        try Terminal.json(
          InfoSummary(
            name: source.name, size: [source.pointSize.x, source.pointSize.y], scale: source.defaultScale, pixels: [w, h],
            duration: source.duration, defaultDuration: source.duration, events: [], layers: []))
      } else {
        Terminal.write("\(source.name): \(w)×\(h) px\nduration \(formatNumber(source.duration, significantDigits: 6)) s\n")
      }
      return
    }
    let loaded = renderer.scene
    let timeline = renderer.timeline
    let (w, h) = renderer.pixelSize()

    let rows = loaded.timeline.enumerated().map { i, e in
      var changes = e.set.map { "set \($0.id)" } + e.insert.map { "insert \($0.layer.id ?? "?") into \($0.into)" }
      changes += e.remove.map { "remove \($0.id)" } + e.velocity.map { "velocity \($0.id)" }
      if let d = e.drag { changes.append("drag \(d.layer)") }
      var row = InfoSummary.Event(
        at: e.at, animation: e.animation?.description, settlingDuration: timeline.eventSettling[i], end: timeline.eventEnds[i], changes: changes)
      if !e.keyframes.isEmpty {
        row.changes += Array(Set(e.keyframes.map(\.id))).sorted().map { "keyframes \($0)" }
        row.keyframes = timeline.keyframeLayouts[i]
      }
      if let cycle = e.phases {
        row.changes += Array(Set(cycle.phases.flatMap { $0.map(\.id) })).sorted().map { "phases \($0)" }
        row.phases = InfoSummary.Phases(cycle, at: e.at)
      }
      if let run = e.animator {
        row.changes += run.set.map { "animator \($0.id)" }
        row.animator = InfoSummary.Animator(
          timing: run.timing, duration: run.animator.duration,
          stretches: run.animator.stretches.map { InteractiveAnimator.Stretch(kind: $0.kind, start: e.at + $0.start, end: e.at + $0.end) })
      }
      return row
    }

    if jsonFlag.json {
      try Terminal.json(
        InfoSummary(
          name: loaded.name, size: [loaded.size.x, loaded.size.y], scale: loaded.scale, pixels: [w, h], duration: renderer.duration,
          defaultDuration: timeline.defaultDuration, events: rows, layers: loaded.layers.map(InfoSummary.LayerSummary.init)))
      return
    }

    var out = "\(loaded.name): \(formatNumber(loaded.size.x))×\(formatNumber(loaded.size.y)) pt at \(formatNumber(loaded.scale))× = \(w)×\(h) px\n"
    out += "duration \(formatNumber(renderer.duration, significantDigits: 6)) s"
    out +=
      loaded.duration == nil
      ? " (the latest end of any event)\n" : " (given; events end by \(formatNumber(timeline.defaultDuration, significantDigits: 6)) s)\n"
    out += "\nevents\n"
    for r in rows {
      out += "  at \(formatNumber(r.at, significantDigits: 6)) s  \(r.changes.joined(separator: ", "))\n"
      let moves = r.keyframes != nil || r.phases != nil || r.animator != nil
      if let a = r.animation, r.phases == nil || !r.changes.allSatisfy({ $0.hasPrefix("phases ") }) {
        out += "      \(a)"
        if let s = r.settlingDuration { out += ", settles in \(formatNumber(s, significantDigits: 6)) s" }
        out += ", ends at \(formatNumber(r.end, significantDigits: 6)) s\n"
      } else if !moves {
        out += "      immediate\n"
      }
      for track in r.keyframes ?? [] {
        let pieces = track.keyframes.map { "\($0.kind) \(time($0.start))–\(time($0.start + $0.duration))" }
        out += "      keyframes \(track.layer).\(track.property): \(pieces.joined(separator: ", "))"
        out += track.period.map { ", repeating every \(time($0)) s\n" } ?? ", ends at \(time(track.start + track.duration)) s\n"
      }
      if let phases = r.phases {
        let steps = phases.steps.map { "\($0.phase) at \(time($0.at))\($0.animation.map { " (\($0))" } ?? "")" }
        out += "      phases \(phases.count): \(steps.joined(separator: ", "))"
        out += phases.repeats ? "; the cycle repeats every \(time(phases.cycle)) s\n" : "; ends at \(time(r.end)) s\n"
      }
      if let animator = r.animator {
        let stretches = animator.stretches.map { "\($0.kind) \(time($0.start))–\(time($0.end))" }
        out += "      animator \(animator.timing), duration \(time(animator.duration)) s: \(stretches.joined(separator: ", "))\n"
      }
    }
    out += "\nlayers\n"
    func describe(_ l: Layer, depth: Int) {
      out += String(repeating: "  ", count: depth + 1) + l.type.rawValue + (l.id.map { " \($0)" } ?? "") + "\n"
      for child in l.children { describe(child, depth: depth + 1) }
    }
    for layer in loaded.layers { describe(layer, depth: 0) }
    Terminal.write(out)
  }

  private func time(_ t: Double) -> String { formatNumber(t, significantDigits: 6) }
}

/// `render info --json`.
struct InfoSummary: Encodable {
  var name: String
  /// Points.
  var size: [Double]
  var scale: Double
  var pixels: [Int]
  var duration: Double
  /// The latest end of any event's animation.
  var defaultDuration: Double
  var events: [Event]
  var layers: [LayerSummary]

  struct Event: Encodable {
    var at: Double
    var animation: String?
    var settlingDuration: Double?
    var end: Double
    var changes: [String]
    /// Only for an event with keyframes, phases or an animator.
    var keyframes: [KeyframeLayout]?
    var phases: Phases?
    var animator: Animator?

    /// `animation` and `settlingDuration` are `null` for an immediate change.
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(at, forKey: .at)
      try c.encode(animation, forKey: .animation)
      try c.encode(settlingDuration, forKey: .settlingDuration)
      try c.encode(end, forKey: .end)
      try c.encode(changes, forKey: .changes)
      try c.encodeIfPresent(keyframes, forKey: .keyframes)
      try c.encodeIfPresent(phases, forKey: .phases)
      try c.encodeIfPresent(animator, forKey: .animator)
    }
    enum CodingKeys: CodingKey { case at, animation, settlingDuration, end, changes, keyframes, phases, animator }
  }

  /// A phase animation's first cycle: each step's scene time, phase and
  /// animation (none for phase 0 at the start), and the cycle's length.
  struct Phases: Encodable {
    struct Step: Encodable {
      var at: Double
      var phase: Int
      var animation: String?
    }
    var count: Int
    var repeats: Bool
    /// Seconds from setting phase 1 to setting it again.
    var cycle: Double
    var steps: [Step]

    init(_ cycle: PhaseCycle, at: Double) {
      count = cycle.phases.count
      repeats = cycle.cyclesForever
      self.cycle = cycle.period
      steps = PhaseSchedule.steps(phases: count, animations: cycle.animations, start: at, repeating: false, until: at).map {
        Step(at: $0.time, phase: $0.phase, animation: $0.animation?.description)
      }
    }
  }

  /// An interactive animator: its timing, duration and stretches in scene time.
  struct Animator: Encodable {
    var timing: String
    var duration: Double
    /// In scene time.
    var stretches: [InteractiveAnimator.Stretch]
  }

  struct LayerSummary: Encodable {
    var id: String?
    var type: String
    var children: [LayerSummary]?

    init(_ layer: Layer) {
      id = layer.id
      type = layer.type.rawValue
      children = layer.children.isEmpty ? nil : layer.children.map(LayerSummary.init)
    }
  }
}
