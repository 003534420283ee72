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

    struct Row {
      var at: Double
      var animation: String?
      var settling: Double?
      var end: Double
      var changes: [String]
    }
    let rows = loaded.timeline.enumerated().map { i, e in
      var changes = e.set.map { "set \($0.id)" } + e.insert.map { "insert \($0.layer.id ?? "?") into \($0.into)" }
      changes += e.remove.map { "remove \($0.id)" } + e.velocity.map { "velocity \($0.id)" }
      if let d = e.drag { changes.append("drag \(d.layer)") }
      return Row(at: e.at, animation: e.animation?.description, settling: timeline.eventSettling[i], end: timeline.eventEnds[i], changes: changes)
    }

    if json {
      func number(_ x: Double) -> String { JSONText.number(x) }
      func layerJSON(_ l: Layer) -> String {
        var parts = ["\"type\": \(JSONText.string(l.type.rawValue))"]
        if let id = l.id { parts.insert("\"id\": \(JSONText.string(id))", at: 0) }
        if !l.children.isEmpty { parts.append("\"children\": [" + l.children.map(layerJSON).joined(separator: ", ") + "]") }
        return "{" + parts.joined(separator: ", ") + "}"
      }
      let events = rows.map { r -> String in
        var parts = ["\"at\": \(number(r.at))"]
        parts.append("\"animation\": " + (r.animation.map(JSONText.string) ?? "null"))
        parts.append("\"settlingDuration\": " + (r.settling.map(number) ?? "null"))
        parts.append("\"end\": \(number(r.end))")
        parts.append("\"changes\": [" + r.changes.map(JSONText.string).joined(separator: ", ") + "]")
        return "{" + parts.joined(separator: ", ") + "}"
      }
      var out = "{\"name\": \(JSONText.string(loaded.name)), \"size\": [\(number(loaded.size.x)), \(number(loaded.size.y))], "
      out += "\"scale\": \(number(loaded.scale)), \"pixels\": [\(w), \(h)], \"duration\": \(number(renderer.duration)), "
      out += "\"defaultDuration\": \(number(timeline.defaultDuration)), "
      out += "\"events\": [" + events.joined(separator: ", ") + "], "
      out += "\"layers\": [" + loaded.layers.map(layerJSON).joined(separator: ", ") + "]}\n"
      Terminal.write(out)
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
        if let s = r.settling { out += ", settles in \(formatNumber(s, significantDigits: 6)) s" }
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
