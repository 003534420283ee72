import Syntax

/// What a valid scene probably did not mean: reported as warnings
/// (docs/cli.md), the render goes on.
public struct SceneWarning: Sendable, Hashable {
  public var location: SourceLocation
  public var path: JSONPath
  public var message: String
}

extension Scene {
  /// Shapes (rect, circle, ellipse, capsule) that never get a `size`,
  /// neither written nor set by an event: they draw nothing.
  public var warnings: [SceneWarning] {
    var sized: Set<String> = []
    for event in timeline {
      for (id, values) in event.set where values[Properties.size] != nil { sized.insert(id) }
    }
    var warnings: [SceneWarning] = []
    func walk(_ layer: Layer, _ path: JSONPath) {
      if [.rect, .circle, .ellipse, .capsule].contains(layer.type), layer.properties[Properties.size] == nil,
        layer.id.map({ !sized.contains($0) }) ?? true
      {
        warnings.append(
          SceneWarning(
            location: layer.location, path: path,
            message: "this \(layer.type.rawValue) has no size, so it draws nothing; give it \"size\": [width, height]"))
      }
      for (i, child) in layer.children.enumerated() { walk(child, path.appending("children").appending(i)) }
    }
    for (i, layer) in layers.enumerated() { walk(layer, JSONPath.root.appending("layers").appending(i)) }
    for event in timeline {
      for (i, insertion) in event.insert.enumerated() {
        walk(insertion.layer, JSONPath.root.appending("timeline").appending(event.index).appending("insert").appending(i).appending("layer"))
      }
    }
    return warnings.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
  }
}
