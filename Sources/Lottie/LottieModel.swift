import Primitives
import SceneModel
import Syntax

/// A layer's transform (`ks`): anchor, position (or its split x and y),
/// scale in percent, rotation in degrees, opacity in percent, skew.
public struct LottieTransform: Sendable {
  public var anchor: LottieProperty?
  public var position: LottieProperty?
  public var positionX: LottieProperty?
  public var positionY: LottieProperty?
  public var scale: LottieProperty?
  public var rotation: LottieProperty?
  public var opacity: LottieProperty?
  public var skew: LottieProperty?
  public var skewAxis: LottieProperty?

  /// The matrix at frame `f`: anchor to the origin, scale, skew, rotate,
  /// then to the position.
  func matrix(at f: Double) -> AffineTransform {
    let a = anchor?.numbers(at: f, fallback: [0, 0]) ?? [0, 0]
    var p = position?.numbers(at: f, fallback: [0, 0]) ?? [0, 0]
    if let x = positionX { p[0] = x.numbers(at: f, fallback: [0])[0] }
    if let y = positionY { p[1] = y.numbers(at: f, fallback: [0])[0] }
    let s = scale?.numbers(at: f, fallback: [100, 100]) ?? [100, 100]
    let r = rotation?.numbers(at: f, fallback: [0])[0] ?? 0
    let sk = skew?.numbers(at: f, fallback: [0])[0] ?? 0
    let sa = skewAxis?.numbers(at: f, fallback: [0])[0] ?? 0
    var m = AffineTransform.translation(-a[0], -a[1]).concatenating(.scale(s[0] / 100, s[1] / 100))
    if sk != 0 {
      let axis = -sa * .pi / 180
      let shear = AffineTransform(a: 1, b: 0, c: -LottieMath.tan(-sk * .pi / 180), d: 1, tx: 0, ty: 0)
      m = m.concatenating(.rotation(axis)).concatenating(shear).concatenating(.rotation(-axis))
    }
    return m.concatenating(.rotation(r * .pi / 180)).concatenating(.translation(p[0], p[1]))
  }

  /// Opacity from 0 to 1 at frame `f`.
  func opacity(at f: Double) -> Double {
    min(max((opacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100, 0), 1)
  }
}

/// An item of a shape layer or group (`ty`).
public indirect enum LottieShape: Sendable {
  case group([LottieShape], hidden: Bool)
  case rect(position: LottieProperty, size: LottieProperty, roundness: LottieProperty?, reversed: Bool)
  case ellipse(position: LottieProperty, size: LottieProperty, reversed: Bool)
  case path(LottieProperty, reversed: Bool)
  case polystar(LottiePolystar)
  case fill(color: LottieProperty, opacity: LottieProperty?, evenOdd: Bool)
  case stroke(LottieStroke)
  case gradientFill(LottieGradient, evenOdd: Bool)
  case trim(start: LottieProperty?, end: LottieProperty?, offset: LottieProperty?, individually: Bool)
  case transform(LottieTransform)
  /// Copies of the items above it (`rp`): their number and offset, above
  /// (1) or below (2) each other, each moved by the transform once more,
  /// their opacity from `startOpacity` to `endOpacity` (percent).
  case repeater(LottieRepeater)
  /// Rounds the sharp corners of the paths above it (`rd`) by a radius.
  case roundCorners(radius: LottieProperty?)
  /// A repeater's copy: a fixed transform and opacity (made at a frame,
  /// never decoded).
  case matrix(AffineTransform, opacity: Double)
  /// Something drawn without (a warning names it).
  case skipped
}

/// A repeater (`rp`).
public struct LottieRepeater: Sendable {
  public var copies: LottieProperty?
  public var offset: LottieProperty?
  public var composite: Int
  public var transform: LottieTransform
  public var startOpacity: LottieProperty?
  public var endOpacity: LottieProperty?
}

/// A star or polygon (`sr`).
public struct LottiePolystar: Sendable {
  public var star: Bool
  public var position: LottieProperty?
  public var points: LottieProperty?
  public var rotation: LottieProperty?
  public var outerRadius: LottieProperty?
  public var innerRadius: LottieProperty?
  public var outerRoundness: LottieProperty?
  public var innerRoundness: LottieProperty?
  public var reversed: Bool
}

/// A stroke (`st`) or a gradient stroke (`gs`).
public struct LottieStroke: Sendable {
  public var color: LottieProperty?
  public var gradient: LottieGradient?
  public var opacity: LottieProperty?
  public var width: LottieProperty?
  public var cap: LineCap
  public var join: LineJoin
  public var miterLimit: Double
  /// Dash lengths and gap lengths in order, then the offset.
  public var dashes: [LottieProperty]
  public var offset: LottieProperty?
}

/// A gradient: linear or radial, from `start` to `end`, with `count`
/// colour stops then any opacity stops in `stops`; a radial one's
/// highlight length and angle.
public struct LottieGradient: Sendable {
  public var radial: Bool
  public var start: LottieProperty?
  public var end: LottieProperty?
  public var count: Int
  public var stops: LottieProperty?
  public var highlight: LottieProperty?
  public var angle: LottieProperty?
  public var opacity: LottieProperty?
}

/// A mask (`masksProperties`): its path, mode, inversion, opacity (in
/// percent) and expansion (in the layer's units; negative contracts).
public struct LottieMask: Sendable {
  public var path: LottieProperty
  public var mode: String
  public var inverted: Bool
  public var opacity: LottieProperty?
  public var expansion: LottieProperty?
}

/// A layer (`ty`: 0 precomposition, 1 solid, 2 image, 3 null, 4 shape;
/// others are drawn without).
public struct LottieLayer: Sendable {
  public var type: Int
  public var index: Int?
  public var parent: Int?
  public var name: String?
  public var inPoint: Double
  public var outPoint: Double
  public var startTime: Double
  public var stretch: Double
  public var transform: LottieTransform
  public var shapes: [LottieShape]
  public var reference: String?
  public var solidColor: [Double]?
  /// A solid's size (`sw`, `sh`), or a precomposition layer's (`w`, `h`).
  public var solidSize: (Double, Double)
  public var hidden: Bool
  public var timeRemap: LottieProperty?
  public var masks: [LottieMask]
  /// `tt`: the layer above it is its matte (1 alpha, 2 alpha inverted, 3
  /// luma, 4 luma inverted); `tp`: the matte's `ind` instead (newer
  /// exports); `td`: it is a matte, not drawn itself.
  public var matteMode: Int?
  public var matteParent: Int?
  public var isMatte: Bool
}

/// An image asset: its size in the animation's units, and where its
/// pixels are: a file beside the animation (`u` + `p`, relative to its
/// folder) or a data URI.
public struct LottieImageAsset: Sendable {
  public var id: String
  public var width: Double
  public var height: Double
  public var file: String?
  public var dataURI: String?
  /// Where `p` is, for errors.
  public var location: SourceLocation
  public var path: JSONPath
}

/// A decoded animation: its frame and time, its layers and its
/// precompositions by id.
public struct LottieAnimation: Sendable {
  public var width: Int
  public var height: Int
  public var frameRate: Double
  public var inPoint: Double
  public var outPoint: Double
  public var layers: [LottieLayer]
  public var precomps: [String: [LottieLayer]]
  /// Image assets by id.
  public var images: [String: LottieImageAsset]
  public var name: String?
  /// Colours in the old 0 … 255 form (files whose `v` is below 4.1.9, read
  /// as lottie-web reads them).
  public var oldColors: Bool
  /// Each kind of feature drawn without, where it first appears.
  public var skipped: [(kind: String, location: SourceLocation, path: JSONPath)]
}

/// Elementary functions for the transform, correctly rounded on every
/// machine (PortableMath through Primitives' transforms).
enum LottieMath {
  static func tan(_ x: Double) -> Double {
    let r = AffineTransform.rotation(x)
    return r.a != 0 ? r.b / r.a : .infinity
  }
}
