import Primitives
import Syntax
import Timing

/// A validated scene: what the renderer evaluates. Built from the JSON file
/// by `SceneDecoder`; every value here has been checked, so evaluation never
/// meets a bad one.
public struct Scene: Sendable {
  public var name: String
  /// Canvas in points.
  public var size: Vector2
  /// Pixels per point.
  public var scale: Double
  /// nil for a transparent background.
  public var background: Color?
  /// The scene's length in seconds, when the file gives one.
  public var duration: Double?
  public var assets: [String: Asset]
  public var fonts: [String: FontFile]
  public var layers: [Layer]
  /// In time order (stable for equal times, as written).
  public var timeline: [Event]
}

public struct Asset: Sendable, Hashable {
  /// Relative to the scene file.
  public var file: String
  /// Pixels per point of the image: from the file name's @2x/@3x or given.
  public var scale: Double
  /// Where the asset is declared (`assets.NAME`), for errors about its file.
  public var location: SourceLocation
  public var path: JSONPath
  public init(file: String, scale: Double, location: SourceLocation = SourceLocation(line: 1, column: 1, offset: 0), path: JSONPath = .root) {
    self.file = file; self.scale = scale; self.location = location; self.path = path
  }
}

/// A font file the scene lists under `fonts`: family name → file.
public struct FontFile: Sendable, Hashable {
  /// Relative to the scene file.
  public var file: String
  /// Where it is declared (`fonts.FAMILY`).
  public var location: SourceLocation
  public var path: JSONPath
  public init(file: String, location: SourceLocation = SourceLocation(line: 1, column: 1, offset: 0), path: JSONPath = .root) {
    self.file = file; self.location = location; self.path = path
  }
}

public enum LayerType: String, Sendable, Hashable, CaseIterable {
  case rect, circle, ellipse, capsule, path, text, image, group, vstack, hstack, zstack

  public var isContainer: Bool { self == .group || isStack }
  public var isStack: Bool { self == .vstack || self == .hstack || self == .zstack }
}

/// A paint: a colour or a gradient (SwiftUI's LinearGradient / RadialGradient).
public enum PaintValue: Sendable, Hashable {
  case color(Color)
  /// `from` and `to` are unit points of the layer's bounds.
  case linear(from: Vector2, to: Vector2, stops: [GradientStopValue])
  /// `center` is a unit point; radii are points.
  case radial(center: Vector2, startRadius: Double, endRadius: Double, stops: [GradientStopValue])
}

public struct GradientStopValue: Sendable, Hashable {
  public var offset: Double
  public var color: Color
}

/// A stroke as SwiftUI's `StrokeStyle` plus its paint. Every field is
/// optional so that `set` can change some and keep the rest (merge).
public struct StrokeValue: Sendable, Hashable {
  public var color: PaintValue?
  public var width: Double?
  public var cap: String?
  public var join: String?
  public var miterLimit: Double?
  public var dash: [Double]?
  public var dashPhase: Double?
}

/// A drop shadow; fields optional for merging.
public struct ShadowValue: Sendable, Hashable {
  public var color: Color?
  /// σ of the Gaussian, points.
  public var radius: Double?
  public var offset: Vector2?
}

/// Values of the properties a layer, a `set` or a transition state gives.
/// nil means "not given".
public struct PropertyValues: Sendable, Hashable {
  public var position: Vector2?
  public var size: Vector2?
  public var anchor: Vector2?
  public var offset: Vector2?
  /// [sx, sy]; a single number is written to both.
  public var scale: Vector2?
  /// Degrees, clockwise.
  public var rotation: Double?
  public var opacity: Double?
  public var fill: PaintValue?
  public var stroke: StrokeValue?
  public var trim: Vector2?
  public var cornerRadius: Double?
  public var shadow: ShadowValue?
  public var blur: Double?
  /// Text colour (text layers).
  public var color: PaintValue?
  public var hidden: Bool?

  public init() {}
}

public struct Font: Sendable, Hashable {
  /// nil: the default family.
  public var family: String?
  /// Points.
  public var size: Double
  /// SwiftUI's weight names: ultraLight, thin, light, regular, medium,
  /// semibold, bold, heavy, black.
  public var weight: String
  /// Where the family is named (or the font object, or the layer), for
  /// errors found when fonts are resolved.
  public var location: SourceLocation
  public var path: JSONPath
  public init(
    family: String?, size: Double, weight: String, location: SourceLocation = SourceLocation(line: 1, column: 1, offset: 0), path: JSONPath = .root
  ) {
    self.family = family; self.size = size; self.weight = weight; self.location = location; self.path = path
  }
}

/// A layer as written, validated.
public struct Layer: Sendable {
  public var id: String?
  public var type: LayerType
  public var properties: PropertyValues
  public var cornerStyle: CornerStyle
  public var clip: Bool
  public var children: [Layer]
  // Type-specific.
  public var pathData: Path?
  public var fillRule: String
  public var text: String?
  public var font: Font?
  public var align: String
  public var asset: String?
  public var contentMode: String
  public var spacing: Double
  public var alignment: String
  /// top, leading, bottom, trailing.
  public var padding: (Double, Double, Double, Double)
  /// Where the layer was written, for messages at evaluation time.
  public var location: SourceLocation
}

/// A transition, as SwiftUI's AnyTransition.
public indirect enum Transition: Sendable {
  case identity
  case opacity
  /// From `scale`, around the unit point `anchor`.
  case scale(Double, anchor: Vector2)
  case slide
  case move(edge: Edge)
  case offset(x: Double, y: Double)
  case push(from: Edge)
  case blur(radius: Double)
  case asymmetric(insertion: Transition, removal: Transition)
  case combined([Transition])
  /// `.modifier(active:identity:)`: the two states as property sets; a
  /// numeric property of the active state may be an expression of p.
  case modifier(active: PropertyValues, expressions: [String: ProgressExpression], identity: PropertyValues)
}

public enum Edge: String, Sendable, Hashable, CaseIterable { case leading, trailing, top, bottom }

public struct Insertion: Sendable {
  public var into: String
  /// Where `into` is written, for messages.
  public var intoLocation: SourceLocation
  public var intoPath: JSONPath
  public var index: Int?
  public var transition: Transition
  public var layer: Layer
}

public struct Removal: Sendable {
  public var id: String
  /// Where `id` is written, for messages.
  public var idLocation: SourceLocation
  public var idPath: JSONPath
  public var transition: Transition
}

public struct Drag: Sendable {
  public var layer: String
  /// (t relative to the event, x, y), t increasing.
  public var points: [(Double, Double, Double)]
}

/// `withAnimation(animation) { … }` at a moment of scene time.
public struct Event: Sendable {
  public var at: Double
  public var animation: Animation?
  public var set: [(id: String, values: PropertyValues)]
  public var insert: [Insertion]
  public var remove: [Removal]
  public var velocity: [(id: String, values: PropertyValues)]
  public var drag: Drag?
  /// Index in the file's timeline array.
  public var index: Int
  public var location: SourceLocation
}
