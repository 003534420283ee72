import Foundation
import PortableMath
import Primitives
import Raster

/// A picture as a list of drawing operations, readable and writable as the
/// JSON that scripts/skia_frames.py draws with Skia: the raster benchmark's
/// workloads and the rasterizer's golden images are both written this way,
/// so Springframe and Skia draw exactly the same thing.
public struct DisplayList {
  public enum Shape {
    case rect(Rect)
    /// Circular corners: Skia has no continuous ones.
    case roundedRect(Rect, radius: Double)
    case circle(center: Point, radius: Double)
    /// Elements as `[code, coordinates…]`: 0 move, 1 line, 2 cubic, 3 close.
    case path([[Double]])

    public var path: Path {
      switch self {
      case .rect(let r): return .rect(r)
      case .roundedRect(let r, let radius): return .roundedRect(r, cornerRadius: radius, style: .circular)
      case .circle(let c, let radius): return .circle(in: Rect(x: c.x - radius, y: c.y - radius, width: 2 * radius, height: 2 * radius))
      case .path(let elements):
        var p = Path()
        for e in elements {
          switch Int(e[0]) {
          case 0: p.move(to: Point(e[1], e[2]))
          case 1: p.line(to: Point(e[1], e[2]))
          case 2: p.cubic(to: Point(e[5], e[6]), control1: Point(e[1], e[2]), control2: Point(e[3], e[4]))
          default: p.close()
          }
        }
        return p
      }
    }

    var json: [String: Any] {
      switch self {
      case .rect(let r): return ["rect": [r.minX, r.minY, r.width, r.height]]
      case .roundedRect(let r, let radius): return ["rrect": [r.minX, r.minY, r.width, r.height, radius]]
      case .circle(let c, let radius): return ["circle": [c.x, c.y, radius]]
      case .path(let elements): return ["path": elements]
      }
    }

    init(json: [String: Any]) throws {
      func numbers(_ key: String) -> [Double]? { (json[key] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } }
      if let r = numbers("rect"), r.count == 4 {
        self = .rect(Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
      } else if let r = numbers("rrect"), r.count == 5 {
        self = .roundedRect(Rect(x: r[0], y: r[1], width: r[2], height: r[3]), radius: r[4])
      } else if let c = numbers("circle"), c.count == 3 {
        self = .circle(center: Point(c[0], c[1]), radius: c[2])
      } else if let elements = json["path"] as? [[Any]] {
        self = .path(elements.map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } })
      } else {
        throw DisplayListError("unknown shape \(json)")
      }
    }
  }

  public struct Stroke {
    public var color: Color
    public var width: Double
    public var cap: LineCap = .butt
    public var join: LineJoin = .miter
    public var miterLimit: Double = 4  // Skia's default, written out for both
    public var dash: [Double] = []
    public var dashPhase: Double = 0
    public init(
      color: Color, width: Double, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4,
      dash: [Double] = [], dashPhase: Double = 0
    ) {
      self.color = color; self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
      self.dash = dash; self.dashPhase = dashPhase
    }
  }

  public enum Op {
    case fill(Shape, Color, rule: FillRule = .nonZero)
    case linearGradient(Shape, from: Point, to: Point, stops: [(Double, Color)])
    case radialGradient(Shape, center: Point, radius: Double, stops: [(Double, Color)])
    /// A radial gradient from a focal point (absolute) to the circle.
    case focalGradient(Shape, center: Point, radius: Double, focus: Point, stops: [(Double, Color)])
    case stroke(Shape, Stroke)
    /// A filled shape with a drop shadow (blurred silhouette, σ, offset).
    case shadowed(Shape, Color, shadow: Color, sigma: Double, offset: Vector2)
    case clip(Shape)
    case unclip
    case beginLayer(bounds: Rect, opacity: Double, blur: Double)
    case endLayer
    /// A mask layer: what is drawn until `endMask` multiplies the layer it
    /// is drawn in (by alpha or luminance, inverted or not, times `opacity`).
    case beginMask(LayerMask, opacity: Double)
    case endMask
    /// A checkerboard image of `size` pixels in squares of `cell`, drawn through `transform`.
    case image(size: (Int, Int), cell: Int, colors: (Color, Color), transform: Primitives.AffineTransform)
  }

  public var width: Int
  public var height: Int
  public var background: Color
  public var ops: [Op]

  public init(width: Int, height: Int, background: Color, ops: [Op]) {
    self.width = width; self.height = height; self.background = background; self.ops = ops
  }

  public func draw() -> Pixmap {
    let canvas = Canvas(width: width, height: height, background: background.premultiplied)
    for op in ops {
      switch op {
      case .fill(let shape, let color, let rule):
        canvas.fill(shape.path, paint: .color(color), rule: rule)
      case .linearGradient(let shape, let from, let to, let stops):
        let shader = LinearGradientShader(start: from, end: to, stops: stops.map { GradientStop(offset: $0.0, color: $0.1.premultiplied) })
        canvas.fill(shape.path, paint: .linearGradient(shader))
      case .radialGradient(let shape, let center, let radius, let stops):
        let shader = RadialGradientShader(
          center: center, startRadius: 0, endRadius: radius, stops: stops.map { GradientStop(offset: $0.0, color: $0.1.premultiplied) })
        canvas.fill(shape.path, paint: .radialGradient(shader))
      case .focalGradient(let shape, let center, let radius, let focus, let stops):
        let shader = RadialGradientShader(
          center: center, radius: radius, focus: Vector2(focus.x - center.x, focus.y - center.y),
          stops: stops.map { GradientStop(offset: $0.0, color: $0.1.premultiplied) })
        canvas.fill(shape.path, paint: .radialGradient(shader))
      case .stroke(let shape, let s):
        let style = StrokeStyle(width: s.width, cap: s.cap, join: s.join, miterLimit: s.miterLimit, dash: s.dash, dashPhase: s.dashPhase)
        canvas.stroke(shape.path, style: style, paint: .color(s.color))
      case .shadowed(let shape, let color, let shadow, let sigma, let offset):
        let path = shape.path
        canvas.beginLayer(bounds: path.bounds, effects: LayerEffects(shadow: (shadow.premultiplied, sigma, offset)))
        canvas.fill(path, paint: .color(color))
        canvas.endLayer()
      case .clip(let shape):
        canvas.pushClip(shape.path)
      case .unclip:
        canvas.popClip()
      case .beginLayer(let bounds, let opacity, let blur):
        canvas.beginLayer(bounds: bounds, opacity: opacity, effects: LayerEffects(blur: blur))
      case .endLayer, .endMask:
        canvas.endLayer()
      case .beginMask(let mask, let opacity):
        canvas.beginLayer(bounds: Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6), opacity: opacity, effects: LayerEffects(mask: mask))
      case .image(let size, let cell, let colors, let transform):
        canvas.drawImage(Self.checkerboard(size: size, cell: cell, colors: colors), transform: transform)
      }
    }
    return canvas.pixmap
  }

  static func checkerboard(size: (Int, Int), cell: Int, colors: (Color, Color)) -> Pixmap {
    var image = Pixmap(width: size.0, height: size.1)
    let (a, b) = (RGBA8(colors.0.premultiplied), RGBA8(colors.1.premultiplied))
    for y in 0..<size.1 { for x in 0..<size.0 { image[x, y] = (x / cell + y / cell) % 2 == 0 ? a : b } }
    return image
  }

  // MARK: JSON

  static func hex(_ c: Color) -> String {
    "#" + [c.red, c.green, c.blue, c.alpha].map { String(format: "%02X", Int(($0 * 255).rounded())) }.joined()
  }

  public var json: [String: Any] {
    func stops(_ s: [(Double, Color)]) -> [[Any]] { s.map { [$0.0, Self.hex($0.1)] } }
    return [
      "width": width, "height": height, "background": Self.hex(background),
      "ops": ops.map { op -> [String: Any] in
        switch op {
        case .fill(let s, let c, let rule): return ["op": "fill", "shape": s.json, "color": Self.hex(c), "rule": rule.rawValue]
        case .linearGradient(let s, let a, let b, let st):
          return ["op": "linear", "shape": s.json, "from": [a.x, a.y], "to": [b.x, b.y], "stops": stops(st)]
        case .radialGradient(let s, let c, let r, let st):
          return ["op": "radial", "shape": s.json, "center": [c.x, c.y], "radius": r, "stops": stops(st)]
        case .focalGradient(let s, let c, let r, let f, let st):
          return ["op": "radial", "shape": s.json, "center": [c.x, c.y], "radius": r, "focus": [f.x, f.y], "stops": stops(st)]
        case .stroke(let s, let k):
          return [
            "op": "stroke", "shape": s.json, "color": Self.hex(k.color), "width": k.width, "cap": k.cap.rawValue,
            "join": k.join.rawValue, "miterLimit": k.miterLimit, "dash": k.dash, "dashPhase": k.dashPhase,
          ]
        case .shadowed(let s, let c, let sc, let sigma, let o):
          return ["op": "shadowed", "shape": s.json, "color": Self.hex(c), "shadowColor": Self.hex(sc), "sigma": sigma, "offset": [o.x, o.y]]
        case .clip(let s): return ["op": "clip", "shape": s.json]
        case .unclip: return ["op": "unclip"]
        case .beginLayer(let b, let o, let blur):
          return ["op": "beginLayer", "bounds": [b.minX, b.minY, b.width, b.height], "opacity": o, "blur": blur]
        case .endLayer: return ["op": "endLayer"]
        case .beginMask(let m, let o):
          return ["op": "beginMask", "source": m.source == .alpha ? "alpha" : "luminance", "inverted": m.inverted, "opacity": o]
        case .endMask: return ["op": "endMask"]
        case .image(let size, let cell, let colors, let t):
          return [
            "op": "image", "checker": [size.0, size.1, cell], "colors": [Self.hex(colors.0), Self.hex(colors.1)],
            "transform": [t.a, t.b, t.c, t.d, t.tx, t.ty],
          ]
        }
      },
    ]
  }

  /// Reads the JSON form.
  public init(json: [String: Any]) throws {
    func number(_ o: [String: Any], _ k: String, _ d: Double? = nil) throws -> Double {
      if let n = o[k] as? NSNumber { return n.doubleValue }
      if let d { return d }
      throw DisplayListError("missing '\(k)' in \(o)")
    }
    func numbers(_ o: [String: Any], _ k: String) -> [Double] { (o[k] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? [] }
    func color(_ s: Any?) throws -> Color {
      guard let s = s as? String, let c = Color(hex: s) else { throw DisplayListError("bad colour \(String(describing: s))") }
      return c
    }
    func stops(_ o: [String: Any]) throws -> [(Double, Color)] {
      try ((o["stops"] as? [[Any]]) ?? []).map { (($0[0] as! NSNumber).doubleValue, try color($0[1])) }
    }
    width = Int(try number(json, "width"))
    height = Int(try number(json, "height"))
    background = try color(json["background"])
    let list: [[String: Any]] = (json["ops"] as? [[String: Any]]) ?? []
    ops = try list.map { (o: [String: Any]) throws -> Op in
      func shape() throws -> Shape { try Shape(json: (o["shape"] as? [String: Any]) ?? [:]) }
      switch o["op"] as? String {
      case "fill": return .fill(try shape(), try color(o["color"]), rule: FillRule(rawValue: o["rule"] as? String ?? "nonzero") ?? .nonZero)
      case "linear":
        let (a, b) = (numbers(o, "from"), numbers(o, "to"))
        return .linearGradient(try shape(), from: Point(a[0], a[1]), to: Point(b[0], b[1]), stops: try stops(o))
      case "radial":
        let c = numbers(o, "center")
        if o["focus"] != nil, case let f = numbers(o, "focus"), f.count == 2 {
          return .focalGradient(
            try shape(), center: Point(c[0], c[1]), radius: try number(o, "radius"), focus: Point(f[0], f[1]), stops: try stops(o))
        }
        return .radialGradient(try shape(), center: Point(c[0], c[1]), radius: try number(o, "radius"), stops: try stops(o))
      case "stroke":
        return .stroke(
          try shape(),
          Stroke(
            color: try color(o["color"]), width: try number(o, "width"), cap: LineCap(rawValue: o["cap"] as? String ?? "butt") ?? .butt,
            join: LineJoin(rawValue: o["join"] as? String ?? "miter") ?? .miter, miterLimit: try number(o, "miterLimit", 4),
            dash: numbers(o, "dash"), dashPhase: try number(o, "dashPhase", 0)))
      case "shadowed":
        let offset = numbers(o, "offset")
        return .shadowed(
          try shape(), try color(o["color"]), shadow: try color(o["shadowColor"]), sigma: try number(o, "sigma"),
          offset: Vector2(offset[0], offset[1]))
      case "clip": return .clip(try shape())
      case "unclip": return .unclip
      case "beginLayer":
        let b = numbers(o, "bounds")
        return .beginLayer(
          bounds: Rect(x: b[0], y: b[1], width: b[2], height: b[3]), opacity: try number(o, "opacity", 1), blur: try number(o, "blur", 0))
      case "endLayer": return .endLayer
      case "beginMask":
        let source: LayerMask.Source = (o["source"] as? String) == "luminance" ? .luminance : .alpha
        return .beginMask(LayerMask(source, inverted: o["inverted"] as? Bool ?? false), opacity: try number(o, "opacity", 1))
      case "endMask": return .endMask
      case "image":
        let k = numbers(o, "checker"), t = numbers(o, "transform")
        let colors = (o["colors"] as? [Any]) ?? []
        return .image(
          size: (Int(k[0]), Int(k[1])), cell: Int(k[2]), colors: (try color(colors.first), try color(colors.last)),
          transform: Primitives.AffineTransform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5]))
      default: throw DisplayListError("unknown op \(o)")
      }
    }
  }
}

public struct DisplayListError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}

public enum Frames {
  public static let palette = ["#007AFF", "#34C759", "#FF9500", "#FF2D55", "#5856D6", "#AF52DE", "#30B0C7", "#FFCC00"].map { Color(hex: $0)! }

  /// A typical UI frame at 1920×1080: a gradient header, cards with rounded
  /// corners (one with a blurred shadow), avatars (circles), stroked curves
  /// and buttons — 40 layers. `frame` moves things as an animation would.
  public static func ui(frame: Int, width: Int = 1920, height: Int = 1080) -> DisplayList {
    var random = SplitMix64(seed: 2026)
    let t = Double(frame) / 60
    var ops: [DisplayList.Op] = []
    let w = Double(width), h = Double(height)
    ops.append(
      .linearGradient(
        .rect(Rect(x: 0, y: 0, width: w, height: h * 0.22)), from: Point(0, 0), to: Point(w, h * 0.22),
        stops: [(0, Color(hex: "#5856D6")!), (1, Color(hex: "#30B0C7")!)]))
    ops.append(
      .shadowed(
        .roundedRect(Rect(x: w * 0.06, y: h * 0.28 + 10 * Elementary.sin(t), width: w * 0.4, height: h * 0.55), radius: 28),
        .white, shadow: Color(red: 0, green: 0, blue: 0, alpha: 0.25), sigma: 12, offset: Vector2(0, 8)))
    for i in 0..<12 {
      let x = w * 0.5 + Double(i % 3) * w * 0.16 + 6 * Elementary.sin(t + Double(i))
      let y = h * 0.28 + Double(i / 3) * h * 0.17
      ops.append(.fill(.roundedRect(Rect(x: x, y: y, width: w * 0.145, height: h * 0.14), radius: 18), .white))
      ops.append(.fill(.circle(center: Point(x + 44, y + h * 0.07), radius: 26), palette[i % palette.count]))
    }
    for i in 0..<8 {
      let y0 = h * 0.36 + Double(i) * 46 + random.range(-4, 4)
      let x0 = w * 0.09
      let curve: [[Double]] = [[0, x0, y0], [2, x0 + 200, y0 - 40 * Elementary.sin(t + Double(i)), x0 + 400, y0 + 40, x0 + 640, y0]]
      ops.append(.stroke(.path(curve), .init(color: palette[(i + 3) % palette.count], width: 3, cap: .round, join: .round)))
    }
    for i in 0..<6 {
      let x = w * 0.08 + Double(i) * 130
      ops.append(.fill(.roundedRect(Rect(x: x, y: h * 0.9, width: 110, height: 44), radius: 22), palette[i]))
    }
    ops.append(
      .stroke(
        .roundedRect(Rect(x: w * 0.06, y: h * 0.86, width: w * 0.42, height: 72), radius: 36),
        .init(color: Color(hex: "#8E8E93")!, width: 2)))
    return DisplayList(width: width, height: height, background: Color(hex: "#F2F2F7")!, ops: ops)
  }
}
