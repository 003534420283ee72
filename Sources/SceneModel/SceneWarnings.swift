import Syntax

extension Scene {
  /// What a valid scene probably did not mean, in file order: reported as
  /// warnings (docs/cli.md), the render goes on. Shapes drawn in their size
  /// that never get one, neither written nor set by an event, draw nothing.
  public func warnings(file: String) -> [SceneDiagnostic] {
    var sized: Set<String> = []
    for event in timeline {
      for (id, key) in event.changedProperties where key == .size { sized.insert(id) }
    }
    var warnings: [SceneDiagnostic] = []
    func walk(_ layer: Layer, _ path: JSONPath) {
      if layer.rotation3D != nil, layer.type == .group, layer.properties[Properties.size] == nil, layer.id.map({ !sized.contains($0) }) ?? true {
        warnings.append(
          SceneDiagnostic(
            file: file, location: layer.location, path: path,
            message:
              "this group turns in 3D without a size: it turns about its origin, without perspective (D = max(width, height) / perspective is 0); give it \"size\": [width, height]"
          ))
      }
      if layer.type.isSizedShape, layer.properties[Properties.size] == nil, layer.id.map({ !sized.contains($0) }) ?? true {
        warnings.append(
          SceneDiagnostic(
            file: file, location: layer.location, path: path,
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
    return warnings.sorted { $0.location < $1.location }
  }
}
