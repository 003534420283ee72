import ArgumentParser
import Render
import SceneModel
import Syntax
import Timing

/// `render info SCENE [--json]`: the source's size and duration, its events
/// in time order with each animation's settling duration and end, and its
/// layers (what its `outline` tells, for a source that has one).
struct Info: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Show a scene's duration, events (with settling times) and layers.")

  @Argument(help: "The scene file.")
  var scene: String

  @OptionGroup var jsonFlag: JSONSummary

  func run() throws {
    let source = try SceneFile.loadOrReport(scene)
    let outline = source.outline
    let (w, h) = source.pixelSize(scale: nil)
    let size = source.pointSize, scale = source.defaultScale

    if jsonFlag.json {
      try Terminal.json(
        InfoSummary(
          name: source.name, size: [size.x, size.y], scale: scale, pixels: [w, h], duration: source.duration,
          defaultDuration: outline?.defaultDuration ?? source.duration, events: outline?.events ?? [], layers: outline?.layers ?? []))
      return
    }

    var out = "\(source.name): \(formatNumber(size.x))×\(formatNumber(size.y)) pt at \(formatNumber(scale))× = \(w)×\(h) px\n"
    out += "duration \(time(source.duration)) s"
    guard let outline else {
      Terminal.write(out + "\n")
      return
    }
    out += outline.durationGiven ? " (given; events end by \(time(outline.defaultDuration)) s)\n" : " (the latest end of any event)\n"
    out += "\nevents\n"
    for r in outline.events {
      out += "  at \(time(r.at)) s  \(r.changes.joined(separator: ", "))\n"
      let moves = r.keyframes != nil || r.phases != nil || r.animator != nil
      if let a = r.animation, r.phases == nil || !r.changes.allSatisfy({ $0.hasPrefix("phases ") }) {
        out += "      \(a)"
        if let s = r.settlingDuration { out += ", settles in \(time(s)) s" }
        out += ", ends at \(time(r.end)) s\n"
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
    func describe(_ l: SourceOutline.Layer, depth: Int) {
      out += String(repeating: "  ", count: depth + 1) + l.type + (l.id.map { " \($0)" } ?? "") + "\n"
      for child in l.children ?? [] { describe(child, depth: depth + 1) }
    }
    for layer in outline.layers { describe(layer, depth: 0) }
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
  /// The latest end of any event.
  var defaultDuration: Double
  var events: [SourceOutline.Event]
  var layers: [SourceOutline.Layer]
}
