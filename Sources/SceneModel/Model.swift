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
  /// Which variant the named colours took.
  public var appearance: Appearance = .light
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
  /// The types that draw a shape of their own (whose fill defaults to black).
  public var isShape: Bool { [.rect, .circle, .ellipse, .capsule, .path].contains(self) }
  /// The shapes drawn in their `size` (a path has its own geometry): without
  /// one they draw nothing.
  public var isSizedShape: Bool { isShape && self != .path }
}

/// A layer's font: SwiftUI's body style (the default family, 17 pt,
/// regular) unless the scene says otherwise.
public struct Font: Sendable, Hashable {
  /// nil: the default family.
  public var family: String?
  /// Points.
  public var size: Double
  public var weight: FontWeight
  /// Where the family is named (or the font object, or the layer), for
  /// errors found when fonts are resolved.
  public var location: SourceLocation
  public var path: JSONPath
  public init(
    family: String?, size: Double, weight: FontWeight, location: SourceLocation = SourceLocation(line: 1, column: 1, offset: 0),
    path: JSONPath = .root
  ) {
    self.family = family; self.size = size; self.weight = weight; self.location = location; self.path = path
  }

  /// SwiftUI's body style: 17 points, regular.
  public static let bodySize = 17.0
}

/// How an image fills its layer's bounds.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
  /// Aspect-fill, cropped to the bounds (the default).
  case fill
  /// Letterboxed inside the bounds.
  case fit
  /// Stretched to the bounds.
  case stretch
}

/// What a `path` layer draws.
public struct PathContent: Sendable {
  public var path: Path
  public var fillRule: FillRule
}

/// What a `text` layer draws.
public struct TextContent: Sendable {
  public var text: String
  public var font: Font
  /// How its lines align in a wider frame.
  public var align: TextAlignment
  /// `width`, `lineLimit`, `lineSpacing`.
  public var wrapping: TextWrapping = .none
  /// How a change of its text shows.
  public var contentTransition: ContentTransition = .opacity

  /// The same text content showing `text` instead.
  public func showing(_ text: String) -> TextContent {
    var copy = self
    copy.text = text
    return copy
  }
}

/// How a text's change shows while its animation runs, as SwiftUI's
/// `contentTransition` (docs/scene-format.md, "Text").
public enum ContentTransition: Sendable, Hashable {
  /// The old and the new text cross-fade: each pixel is (1 − p)·old +
  /// p·new in premultiplied colour.
  case opacity
  /// The characters that differ roll vertically, the others stay: up
  /// when the number grows (or `countsDown` false), down when it shrinks
  /// (or `countsDown` true).
  case numericText(countsDown: Bool?)
  /// The new text shows at once.
  case identity
}

/// What an `image` layer draws.
public struct ImageContent: Sendable {
  /// A name from the scene's `assets`.
  public var asset: String
  public var contentMode: ContentMode
}

/// How a `vstack`, `hstack` or `zstack` lays out its children.
public struct StackContent: Sendable {
  /// Points between children (vstack, hstack).
  public var spacing: Double
  /// Across a vstack only the horizontal part counts, across an hstack the
  /// vertical one, in a zstack both.
  public var alignment: Alignment
  public var padding: EdgeInsets
}

/// A layer as written, validated.
public struct Layer: Sendable {
  public var id: String?
  public var type: LayerType
  /// The properties the layer gives (nil: the property's default).
  public var properties: PropertyValues
  /// The layer writes a `stroke` object (even `{}`): it is stroked, and its
  /// fill's default is none.
  public var hasStroke: Bool
  /// The layer writes a `shadow` object: it casts one.
  public var hasShadow: Bool
  /// The layer writes a `backdrop` or a `material`: its fill's default is none.
  public var hasBackdrop = false
  public var children: [Layer]
  /// By type: a path's geometry, a text, an image, a stack's layout.
  public var path: PathContent?
  public var text: TextContent?
  public var image: ImageContent?
  public var stack: StackContent?
  /// `rotation3D`'s axis, anchor, anchorZ and perspective (its `angle` is
  /// the animatable `rotation3D.angle`); nil when the layer gives none.
  public var rotation3D: Rotation3D?
  /// Where the layer was written, for messages at evaluation time.
  public var location: SourceLocation

  public init(id: String?, type: LayerType, location: SourceLocation) {
    self.id = id; self.type = type; self.location = location
    properties = PropertyValues(); hasStroke = false; hasShadow = false; children = []
  }

  /// The value the layer gives for `property`, else its default for this
  /// layer; nil only for an intrinsic size.
  public func value<V>(_ property: Property<V>) -> V? { properties[property] ?? property.defaultValue(for: self) }
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
  case modifier(active: PropertyValues, expressions: [PropertyKey: ProgressExpression], identity: PropertyValues)
}

public enum Edge: String, Sendable, Hashable, CaseIterable { case leading, trailing, top, bottom }

public struct Insertion: Sendable {
  public var into: String
  /// Where `into` is written, for messages.
  public var intoLocation: SourceLocation
  public var intoPath: JSONPath
  /// The new layer's index, and where it is written (for messages).
  public var index: (value: Int, location: SourceLocation, path: JSONPath)?
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

/// One property's keyframe track (docs/scene-format.md, "Keyframes"):
/// its values checked against the property's kind.
public struct PropertyKeyframes: Sendable {
  public var id: String
  public var key: PropertyKey
  public var keyframes: [Keyframe<PropertyValue>]
}

/// SwiftUI's PhaseAnimator (docs/scene-format.md, "Phases").
public struct PhaseCycle: Sendable {
  /// At least two sets of values.
  public var phases: [[(id: String, values: PropertyValues)]]
  /// One per phase: phase k is set with animations[k].
  public var animations: [Animation]
  /// Whether the cycle goes on for ever (else it plays once).
  public var repeats: Bool

  /// Seconds from setting phase 1 to setting it again: the phases'
  /// logical durations (docs/scene-format.md, "Phases").
  public var period: Double { animations.map(PhaseSchedule.logicalDuration).reduce(0, +) }

  /// Whether it cycles for ever: it says `repeat`, and its cycle has a
  /// length (not 0, not for ever under `repeatForever`).
  public var cyclesForever: Bool { repeats && period > 0 && period.isFinite }
}

/// UIKit's UIViewPropertyAnimator (docs/scene-format.md, "Interactive animators").
public struct AnimatorRun: Sendable {
  public var set: [(id: String, values: PropertyValues)]
  public var animator: InteractiveAnimator
  /// The timing as written, for `render info`.
  public var timing: String
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
  /// Keyframe tracks played from `at`, and whether the timeline repeats.
  public var keyframes: [PropertyKeyframes] = []
  public var repeating = false
  public var phases: PhaseCycle?
  public var animator: AnimatorRun?
  /// Index in the file's timeline array.
  public var index: Int
  public var location: SourceLocation

  /// Every (layer id, property) the event changes: by `set`, keyframes,
  /// phases or an animator.
  public var changedProperties: [(id: String, key: PropertyKey)] {
    var out: [(id: String, key: PropertyKey)] = []
    func add(_ sets: [(id: String, values: PropertyValues)]) { for (id, values) in sets { for key in values.keys { out.append((id, key)) } } }
    add(set)
    out += keyframes.map { ($0.id, $0.key) }
    for phase in phases?.phases ?? [] { add(phase) }
    add(animator?.set ?? [])
    return out
  }

  /// Every (layer id, text) the event changes a text to: by `set`, phases
  /// or an animator.
  public var textChanges: [(id: String, text: String)] {
    let sets = [set] + (phases?.phases ?? []) + [animator?.set ?? []]
    return sets.joined().compactMap { change in change.values[Properties.text].map { (change.id, $0) } }
  }
}
