import ArgumentParser
import Render
import SceneModel
import Syntax

/// `render info SCENE [--json]`: the scene's duration, its events in time
/// order with each animation's settling duration and end, and its layers.
struct Info: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Show a scene's duration, events (with settling times) and layers.")

  @Argument(help: "The scene file.")
  var scene: String

  @Flag(help: "Print JSON.")
  var json = false

  func run() throws {
    let renderer = try SceneFile.loadOrReport(scene)
    let loaded = renderer.scene
    let timeline = renderer.timeline
    let (w, h) = renderer.pixelSize()

    let rows = loaded.timeline.enumerated().map { i, e in
      var changes = e.set.map { "set \($0.id)" } + e.insert.map { "insert \($0.layer.id ?? "?") into \($0.into)" }
      changes += e.remove.map { "remove \($0.id)" } + e.velocity.map { "velocity \($0.id)" }
      if let d = e.drag { changes.append("drag \(d.layer)") }
      return InfoSummary.Event(
        at: e.at, animation: e.animation?.description, settlingDuration: timeline.eventSettling[i], end: timeline.eventEnds[i], changes: changes)
    }

    if json {
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
      if let a = r.animation {
        out += "      \(a)"
        if let s = r.settlingDuration { out += ", settles in \(formatNumber(s, significantDigits: 6)) s" }
        out += ", ends at \(formatNumber(r.end, significantDigits: 6)) s\n"
      } else {
        out += "      immediate\n"
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

    /// `animation` and `settlingDuration` are `null` for an immediate change.
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(at, forKey: .at)
      try c.encode(animation, forKey: .animation)
      try c.encode(settlingDuration, forKey: .settlingDuration)
      try c.encode(end, forKey: .end)
      try c.encode(changes, forKey: .changes)
    }
    enum CodingKeys: CodingKey { case at, animation, settlingDuration, end, changes }
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
