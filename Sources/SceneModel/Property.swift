import Primitives
import Syntax

/// Every property a layer has that a `set` may change, declared once: its
/// key (as JSON and as the diagnostics' path spell it), its value's type,
/// its default per layer, and whether it animates or changes at once. The
/// decoder reads layers and `set`s by this table, the timeline builds one
/// track per (layer, property) by it, and the renderer resolves every
/// property of a layer at time t by it, so the three never disagree on a
/// key or a default.
///
/// The nested properties of `stroke` and `shadow` are separate keys
/// (`stroke.width`, `shadow.color`): a `set` of some fields changes those
/// and keeps the rest.
public enum PropertyKey: Int, Sendable, Hashable, CaseIterable, Comparable {
  case position, size, anchor, offset, scale, rotation, opacity, fill
  case strokeColor, strokeWidth, strokeDashPhase, strokeCap, strokeJoin, strokeMiterLimit, strokeDash
  case trim, cornerRadius
  case shadowColor, shadowRadius, shadowOffset
  case blur, color, hidden, cornerStyle, clip
  case rotation3DAngle
  case backdropBlur, backdropSaturation, backdropTint
  case text

  /// Where the key is written: a top-level key of a layer, or a field of
  /// its `stroke` or `shadow` object.
  public var jsonPath: (object: String?, field: String) {
    switch self {
    case .position: (nil, "position")
    case .size: (nil, "size")
    case .anchor: (nil, "anchor")
    case .offset: (nil, "offset")
    case .scale: (nil, "scale")
    case .rotation: (nil, "rotation")
    case .opacity: (nil, "opacity")
    case .fill: (nil, "fill")
    case .strokeColor: ("stroke", "color")
    case .strokeWidth: ("stroke", "width")
    case .strokeDashPhase: ("stroke", "dashPhase")
    case .strokeCap: ("stroke", "cap")
    case .strokeJoin: ("stroke", "join")
    case .strokeMiterLimit: ("stroke", "miterLimit")
    case .strokeDash: ("stroke", "dash")
    case .trim: (nil, "trim")
    case .cornerRadius: (nil, "cornerRadius")
    case .shadowColor: ("shadow", "color")
    case .shadowRadius: ("shadow", "radius")
    case .shadowOffset: ("shadow", "offset")
    case .blur: (nil, "blur")
    case .color: (nil, "color")
    case .hidden: (nil, "hidden")
    case .cornerStyle: (nil, "cornerStyle")
    case .clip: (nil, "clip")
    case .rotation3DAngle: ("rotation3D", "angle")
    case .backdropBlur: ("backdrop", "blur")
    case .backdropSaturation: ("backdrop", "saturation")
    case .backdropTint: ("backdrop", "tint")
    case .text: (nil, "text")
    }
  }

  /// As messages spell it: `opacity`, `stroke.width`.
  public var name: String { jsonPath.object.map { "\($0).\(jsonPath.field)" } ?? jsonPath.field }

  /// The key `name` spells (see `name`).
  public init?(name: String) {
    guard let key = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = key
  }

  /// True when a single number may stand for both components (`scale`).
  public var acceptsSingleNumber: Bool { self == .scale }

  /// Position in `allCases`: where a layer's resolved value of it is kept.
  /// (The raw value is an Int so that this, and hashing a key, cost
  /// nothing on the per-frame path.)
  @inlinable public var index: Int { rawValue }

  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A property's value, of whichever type the property has.
public enum PropertyValue: Sendable, Hashable {
  case number(Double)
  case point(Vector2)
  case paint(AnimatablePaint)
  case color(PremultipliedColor)
  case flag(Bool)
  case cap(LineCap)
  case join(LineJoin)
  case lengths([Double])
  case cornerStyle(CornerStyle)
  case text(String)
}

extension PropertyValue {
  /// The components of an animatable value; nil for the others.
  public var components: [Double]? {
    switch self {
    case .number(let x): [x]
    case .point(let p): p.components
    case .color(let c): c.components
    case .paint(let p): p.components
    default: nil
    }
  }
}

/// How a property gets from one value to the next when an event changes it.
public enum Interpolation: Sendable, Hashable {
  /// With the event's animation, component by component.
  case animated
  /// At once, whatever the animation.
  case immediate
  /// Never: the layer's own value holds (an event's `set` may not give it).
  case fixed
  /// At once, the old and the new value shown together while the event's
  /// animation runs (a text's content transition).
  case transitioned
}

/// The types a property's value may have, each held by one case of
/// `PropertyValue`. The conversions are static (no dynamic cast): tracks
/// wrap and unwrap values for every layer on every frame.
public protocol PropertyValueType: Sendable, Hashable {
  static func wrap(_ value: Self) -> PropertyValue
  static func unwrap(_ value: PropertyValue) -> Self?
  /// How a scene writes it.
  static var kind: PropertyValueKind { get }
  /// The value a name spells, for a named choice (`"round"`); nil for
  /// other kinds.
  static func named(_ name: String) -> Self?
}

extension PropertyValueType {
  public static func named(_ name: String) -> Self? { nil }
}

/// How a scene writes a property's value.
public enum PropertyValueKind: Sendable, Hashable {
  /// A number.
  case number
  /// `[x, y]`.
  case point
  /// A colour string or a gradient object.
  case paint
  /// A colour string.
  case color
  /// `true` or `false`.
  case flag
  /// One of a fixed set of names.
  case choice([String])
  /// A list of lengths.
  case lengths
  /// A string.
  case text

  /// True for values an event's `velocity` may give a rate of.
  public var isNumeric: Bool { self == .number || self == .point }
}

/// The values a property accepts, beyond its kind.
/// (The decoder keeps every number within ±`SceneLimits.maximumMagnitude`.)
public enum PropertyDomain: Sendable, Hashable {
  case any
  /// 0 or more (every component).
  case nonNegative
  /// 1 or more.
  case atLeastOne
  /// Between 0 and 1.
  case unit
  /// Between 0 and 1, the first component not after the second (`trim`).
  case orderedUnitPair
  /// A blur or shadow radius: 0…`SceneLimits.maximumRadius` points.
  case radius
  /// A backdrop's saturation: 0 (grey) to `SceneLimits.maximumSaturation`.
  case saturation

  /// The numbers it accepts (each component's, for a point).
  public var range: NumberRange {
    switch self {
    case .any: .any
    case .nonNegative: .nonNegative
    case .atLeastOne: NumberRange(lower: .closed(1))
    case .unit, .orderedUnitPair: NumberRange(lower: .closed(0), upper: .closed(1))
    case .radius: NumberRange(lower: .closed(0), upper: .closed(SceneLimits.maximumRadius))
    case .saturation: NumberRange(lower: .closed(0), upper: .closed(SceneLimits.maximumSaturation))
    }
  }
}

// One line per type: its case, both ways, and how a scene writes it.
extension Double: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .number(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .number(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .number }
}
extension Vector2: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .point(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .point(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .point }
}
extension AnimatablePaint: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .paint(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .paint(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .paint }
}
extension PremultipliedColor: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .color(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .color(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .color }
}
extension Bool: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .flag(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .flag(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .flag }
}
extension Array: PropertyValueType where Element == Double {
  public static func wrap(_ v: Self) -> PropertyValue { .lengths(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .lengths(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .lengths }
}
extension String: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .text(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .text(let x) = v { x } else { nil } }
  public static var kind: PropertyValueKind { .text }
}
/// A named choice: the scene writes one of its raw values.
extension PropertyValueType where Self: CaseIterable & RawRepresentable<String> {
  public static var kind: PropertyValueKind { .choice(allCases.map(\.rawValue)) }
  public static func named(_ name: String) -> Self? { Self(rawValue: name) }
}
extension LineCap: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .cap(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .cap(let x) = v { x } else { nil } }
}
extension LineJoin: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .join(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .join(let x) = v { x } else { nil } }
}
extension CornerStyle: PropertyValueType {
  public static func wrap(_ v: Self) -> PropertyValue { .cornerStyle(v) }
  public static func unwrap(_ v: PropertyValue) -> Self? { if case .cornerStyle(let x) = v { x } else { nil } }
}

/// A property's default, for a layer that does not give it.
public enum PropertyDefault<Value: PropertyValueType>: Sendable {
  /// The same for every layer.
  case value(Value)
  /// Decided by the layer as written (its type, its other properties).
  case perLayer(@Sendable (Layer) -> Value)
  /// The layer's intrinsic size, which only the renderer knows (a text's
  /// measured box, an image's pixels, a stack's content).
  case intrinsic
}

/// One property, typed: the key, the value type, the default and the
/// interpolation. `Properties` lists them all.
public struct Property<Value: PropertyValueType>: Sendable {
  public let key: PropertyKey
  public let defaultValue: PropertyDefault<Value>
  public let interpolation: Interpolation
  /// The values it accepts (an event's `velocity`, a rate, accepts any).
  public let domain: PropertyDomain

  init(
    _ key: PropertyKey, default defaultValue: PropertyDefault<Value>, _ interpolation: Interpolation = .animated, domain: PropertyDomain = .any
  ) {
    self.key = key; self.defaultValue = defaultValue; self.interpolation = interpolation; self.domain = domain
  }

  /// The value for `layer` when neither the layer nor the timeline gives
  /// one; nil for an intrinsic default (the renderer's to compute).
  public func defaultValue(for layer: Layer) -> Value? {
    switch defaultValue {
    case .value(let v): v
    case .perLayer(let f): f(layer)
    case .intrinsic: nil
    }
  }
}

/// The properties, each declared once (docs/scene-format.md, "Properties",
/// the `stroke` and `shadow` fields, and the settable non-animatable ones).
public enum Properties {
  public static let position = Property<Vector2>(.position, default: .value(.zero))
  /// Points; `circle` draws the largest circle centred in it.
  public static let size = Property<Vector2>(.size, default: .intrinsic, domain: .nonNegative)
  /// The unit point of the bounds that `position` names.
  public static let anchor = Property<Vector2>(.anchor, default: .value(Vector2(0.5, 0.5)))
  public static let offset = Property<Vector2>(.offset, default: .value(.zero))
  /// [sx, sy]; a single number is written to both.
  public static let scale = Property<Vector2>(.scale, default: .value(Vector2(1, 1)))
  /// Degrees, clockwise.
  public static let rotation = Property<Double>(.rotation, default: .value(0))
  /// 0…1; an animation's overshoot is clamped when drawn.
  public static let opacity = Property<Double>(.opacity, default: .value(1), domain: .unit)
  /// Shapes without a stroke or a backdrop are black; everything else has
  /// none (a text's or image's fill is a background).
  public static let fill = Property<AnimatablePaint>(
    .fill, default: .perLayer { $0.type.isShape && !$0.hasStroke && !$0.hasBackdrop ? .color(Color.black.premultiplied) : .clear })
  /// The stroke's paint: black once the layer has a stroke, none before.
  public static let strokeColor = Property<AnimatablePaint>(
    .strokeColor, default: .perLayer { $0.hasStroke ? .color(Color.black.premultiplied) : .clear })
  /// Points.
  public static let strokeWidth = Property<Double>(.strokeWidth, default: .value(1), domain: .nonNegative)
  public static let strokeDashPhase = Property<Double>(.strokeDashPhase, default: .value(0))
  public static let strokeCap = Property<LineCap>(.strokeCap, default: .value(.butt), .immediate)
  public static let strokeJoin = Property<LineJoin>(.strokeJoin, default: .value(.miter), .immediate)
  /// A multiple of the width.
  public static let strokeMiterLimit = Property<Double>(.strokeMiterLimit, default: .value(10), .immediate, domain: .atLeastOne)
  /// Alternating on and off lengths, points; empty for a solid line.
  public static let strokeDash = Property<[Double]>(.strokeDash, default: .value([]), .immediate, domain: .nonNegative)
  /// [from, to] in 0…1 of the outline.
  public static let trim = Property<Vector2>(.trim, default: .value(Vector2(0, 1)), domain: .orderedUnitPair)
  /// Points.
  public static let cornerRadius = Property<Double>(.cornerRadius, default: .value(0), domain: .nonNegative)
  /// Black at a third (SwiftUI's default shadow) once the layer casts a
  /// shadow, none before.
  public static let shadowColor = Property<PremultipliedColor>(
    .shadowColor, default: .perLayer { $0.hasShadow ? Color(red: 0, green: 0, blue: 0, alpha: 1.0 / 3).premultiplied : .clear })
  /// σ of the Gaussian, points.
  public static let shadowRadius = Property<Double>(.shadowRadius, default: .value(0), domain: .radius)
  /// Points.
  public static let shadowOffset = Property<Vector2>(.shadowOffset, default: .value(.zero))
  /// σ of the Gaussian, points.
  public static let blur = Property<Double>(.blur, default: .value(0), domain: .radius)
  /// A text's glyphs.
  public static let color = Property<AnimatablePaint>(.color, default: .value(.color(Color.black.premultiplied)))
  public static let hidden = Property<Bool>(.hidden, default: .value(false), .immediate)
  public static let cornerStyle = Property<CornerStyle>(.cornerStyle, default: .value(.continuous), .fixed)
  /// Whether the children are clipped to the bounds and corner radius.
  public static let clip = Property<Bool>(.clip, default: .value(false), .fixed)
  /// Degrees of `rotation3D` (its axis, anchor and perspective are the
  /// layer's, `Layer.rotation3D`).
  public static let rotation3DAngle = Property<Double>(.rotation3DAngle, default: .value(0))

  /// σ of the Gaussian blurring what lies beneath a material, points.
  public static let backdropBlur = Property<Double>(.backdropBlur, default: .value(0), domain: .radius)
  /// 1 leaves what lies beneath as it is, 0 makes it grey.
  public static let backdropSaturation = Property<Double>(.backdropSaturation, default: .value(1), domain: .saturation)
  /// Drawn over the blurred backdrop, beneath the layer's fill.
  public static let backdropTint = Property<PremultipliedColor>(.backdropTint, default: .value(.clear))

  /// A text layer's text: a change shows both texts while its animation
  /// runs, as the layer's `contentTransition` says.
  public static let text = Property<String>(.text, default: .perLayer { $0.text?.text ?? "" }, .transitioned)

  /// Every property, untyped, in `PropertyKey`'s order.
  public static let all: [AnyProperty] = [
    AnyProperty(position), AnyProperty(size), AnyProperty(anchor), AnyProperty(offset), AnyProperty(scale), AnyProperty(rotation),
    AnyProperty(opacity), AnyProperty(fill), AnyProperty(strokeColor), AnyProperty(strokeWidth), AnyProperty(strokeDashPhase),
    AnyProperty(strokeCap), AnyProperty(strokeJoin), AnyProperty(strokeMiterLimit), AnyProperty(strokeDash), AnyProperty(trim),
    AnyProperty(cornerRadius), AnyProperty(shadowColor), AnyProperty(shadowRadius), AnyProperty(shadowOffset), AnyProperty(blur),
    AnyProperty(color), AnyProperty(hidden), AnyProperty(cornerStyle), AnyProperty(clip), AnyProperty(rotation3DAngle),
    AnyProperty(backdropBlur), AnyProperty(backdropSaturation), AnyProperty(backdropTint), AnyProperty(text),
  ]

  /// The property of a key.
  public static func property(_ key: PropertyKey) -> AnyProperty { all[key.index] }
}

/// A property with its value type erased: what the decoder and the
/// timeline iterate over.
public struct AnyProperty: Sendable {
  public let key: PropertyKey
  public let interpolation: Interpolation
  public let domain: PropertyDomain
  public let kind: PropertyValueKind
  private let defaultFor: @Sendable (Layer) -> PropertyValue?
  private let valueNamed: @Sendable (String) -> PropertyValue?

  init<V>(_ p: Property<V>) {
    key = p.key
    interpolation = p.interpolation
    domain = p.domain
    kind = V.kind
    defaultFor = { p.defaultValue(for: $0).map(V.wrap) }
    valueNamed = { V.named($0).map(V.wrap) }
  }

  /// The value a name spells, for a named choice (`kind` is `.choice`).
  public func value(named name: String) -> PropertyValue? { valueNamed(name) }

  /// The default for `layer`; nil for an intrinsic default.
  public func defaultValue(for layer: Layer) -> PropertyValue? { defaultFor(layer) }
}

/// Values of the properties a layer, a `set`, an event's `velocity` or a
/// transition state gives: nil means "not given".
public struct PropertyValues: Sendable, Hashable {
  public private(set) var values: [PropertyKey: PropertyValue] = [:]

  public init() {}

  public subscript<V>(_ p: Property<V>) -> V? {
    get { values[p.key].flatMap(V.unwrap) }
    set { values[p.key] = newValue.map(V.wrap) }
  }

  public subscript(_ key: PropertyKey) -> PropertyValue? {
    get { values[key] }
    set { values[key] = newValue }
  }

  /// The keys given, in `PropertyKey`'s order.
  public var keys: [PropertyKey] { values.keys.sorted() }
  public var isEmpty: Bool { values.isEmpty }
}
