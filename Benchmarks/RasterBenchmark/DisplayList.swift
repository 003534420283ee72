import Foundation
import Primitives
import Raster

/// A frame as a list of drawing operations, shared with the Skia script
/// (scripts/skia_frames.py) as JSON so both draw exactly the same thing.
struct DisplayList {
  enum Shape {
    case rect(Rect)
    case roundedRect(Rect, radius: Double)  // circular corners: Skia has no continuous ones
    case circle(center: Point, radius: Double)
    case path([[Double]])  // ["M", x, y] etc. encoded as [code, args...]: 0 M, 1 L, 2 C, 3 Z

    var path: Path {
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
  }

  enum Op {
    case fill(Shape, Color)
    case linearGradient(Shape, from: Point, to: Point, stops: [(Double, Color)])
    case stroke(Shape, Color, width: Double, cap: LineCap, join: LineJoin)
    /// A filled shape with a drop shadow (blurred silhouette, σ, offset).
    case shadowed(Shape, Color, shadow: Color, sigma: Double, offset: Vector2)
  }

  var width: Int
  var height: Int
  var background: Color
  var ops: [Op]

  func draw() -> Pixmap {
    let canvas = Canvas(width: width, height: height, background: background.premultiplied)
    for op in ops {
      switch op {
      case .fill(let shape, let color):
        canvas.fill(shape.path, paint: .color(color))
      case .linearGradient(let shape, let from, let to, let stops):
        let shader = LinearGradientShader(
          start: from, end: to, stops: stops.map { GradientStop(offset: $0.0, color: $0.1.premultiplied) })
        canvas.fill(shape.path, paint: .shader(shader))
      case .stroke(let shape, let color, let width, let cap, let join):
        canvas.stroke(shape.path, style: StrokeStyle(width: width, cap: cap, join: join), paint: .color(color))
      case .shadowed(let shape, let color, let shadow, let sigma, let offset):
        let path = shape.path
        canvas.beginLayer(
          bounds: path.bounds, effects: LayerEffects(shadow: (shadow.premultiplied, sigma, offset)))
        canvas.fill(path, paint: .color(color))
        canvas.endLayer()
      }
    }
    return canvas.pixmap
  }

  var json: [String: Any] {
    func hex(_ c: Color) -> String {
      let v = [c.red, c.green, c.blue, c.alpha].map { String(format: "%02X", Int(($0 * 255).rounded())) }
      return "#" + v.joined()
    }
    return [
      "width": width, "height": height, "background": hex(background),
      "ops": ops.map { op -> [String: Any] in
        switch op {
        case .fill(let s, let c): return ["op": "fill", "shape": s.json, "color": hex(c)]
        case .linearGradient(let s, let a, let b, let stops):
          return ["op": "linear", "shape": s.json, "from": [a.x, a.y], "to": [b.x, b.y], "stops": stops.map { [$0.0, hex($0.1)] }]
        case .stroke(let s, let c, let w, let cap, let join):
          return ["op": "stroke", "shape": s.json, "color": hex(c), "width": w, "cap": cap.rawValue, "join": join.rawValue]
        case .shadowed(let s, let c, let sc, let sigma, let o):
          return ["op": "shadowed", "shape": s.json, "color": hex(c), "shadowColor": hex(sc), "sigma": sigma, "offset": [o.x, o.y]]
        }
      },
    ]
  }
}

/// Deterministic pseudo-random numbers (SplitMix64).
struct Random {
  var state: UInt64
  mutating func next() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
  }
  mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
}

enum Frames {
  static let palette = ["#007AFF", "#34C759", "#FF9500", "#FF2D55", "#5856D6", "#AF52DE", "#30B0C7", "#FFCC00"].map { Color(hex: $0)! }

  /// A typical UI frame at 1920×1080: a gradient header, cards with rounded
  /// corners (one with a blurred shadow), avatars (circles), stroked curves
  /// and buttons — 40 layers. `frame` moves things as an animation would.
  static func ui(frame: Int, width: Int = 1920, height: Int = 1080) -> DisplayList {
    var random = Random(state: 2026)
    let t = Double(frame) / 60
    var ops: [DisplayList.Op] = []
    let w = Double(width), h = Double(height)
    ops.append(.linearGradient(.rect(Rect(x: 0, y: 0, width: w, height: h * 0.22)), from: Point(0, 0), to: Point(w, h * 0.22),
                               stops: [(0, Color(hex: "#5856D6")!), (1, Color(hex: "#30B0C7")!)]))
    ops.append(.shadowed(.roundedRect(Rect(x: w * 0.06, y: h * 0.28 + 10 * sin(t), width: w * 0.4, height: h * 0.55), radius: 28),
                         .white, shadow: Color(red: 0, green: 0, blue: 0, alpha: 0.25), sigma: 12, offset: Vector2(0, 8)))
    for i in 0..<12 {
      let x = w * 0.5 + Double(i % 3) * w * 0.16 + 6 * sin(t + Double(i))
      let y = h * 0.28 + Double(i / 3) * h * 0.17
      ops.append(.fill(.roundedRect(Rect(x: x, y: y, width: w * 0.145, height: h * 0.14), radius: 18), .white))
      ops.append(.fill(.circle(center: Point(x + 44, y + h * 0.07), radius: 26), palette[i % palette.count]))
    }
    for i in 0..<8 {
      let y0 = h * 0.36 + Double(i) * 46 + random.range(-4, 4)
      let x0 = w * 0.09
      ops.append(.stroke(.path([[0, x0, y0], [2, x0 + 200, y0 - 40 * sin(t + Double(i)), x0 + 400, y0 + 40, x0 + 640, y0]]),
                         palette[(i + 3) % palette.count], width: 3, cap: .round, join: .round))
    }
    for i in 0..<6 {
      let x = w * 0.08 + Double(i) * 130
      ops.append(.fill(.roundedRect(Rect(x: x, y: h * 0.9, width: 110, height: 44), radius: 22), palette[i]))
    }
    ops.append(.stroke(.roundedRect(Rect(x: w * 0.06, y: h * 0.86, width: w * 0.42, height: 72), radius: 36), Color(hex: "#8E8E93")!,
                       width: 2, cap: .butt, join: .miter))
    return DisplayList(width: width, height: height, background: Color(hex: "#F2F2F7")!, ops: ops)
  }
}
