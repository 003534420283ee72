import Primitives

// The moving-texture policy: which recorded layers are drawn relative to
// their own shapes and reused wherever they move (a card's shadow, a
// drifting glow), and the grid their points are kept to. See `Recording`'s
// notes for why a moved texture looks the same.

extension Recording {
  /// The item for a layer drawn as a texture: moving if it can be (see
  /// the type's notes), its every pixel blurred by σ ≥ 8 among them.
  func texture(_ range: Range<Int>) -> Item {
    // Digested only when the texture cannot move.
    let absolute = {
      Item(ops: range, bounds: self.area.intersection(self.frame), digest: self.digest(self.ops[range]), kind: .texture, backdrops: self.finished)
    }
    guard Self.blur(of: ops[range]) >= 8,
      let anchor = ops[range].lazy.compactMap({ op -> Point? in
        if case .fill(_, _, _, let local) = op { return local?.origin }
        return nil
      }).first,
      let relative = Self.relative(ops[range], to: anchor),
      case .beginLayer(let bounds, _, let effects) = relative[0]
    else { return absolute() }
    let area = Self.layerArea(bounds, effects)
    // A texture much larger than the frame is drawn where it shows only.
    guard area.width * area.height <= 4 * frame.width * frame.height else { return absolute() }
    var d = Digester()
    d.add(0x6D6F_7669_6E67 as UInt64)
    d.add(digest(relative[...]))
    // Where it lands: whole pixels of the anchor, and one more for the shift.
    let nx = Int(anchor.x.roundedDown), ny = Int(anchor.y.roundedDown)
    let pixels = PixelRect(x0: area.x0 + nx, y0: area.y0 + ny, x1: area.x1 + nx + 1, y1: area.y1 + ny + 1)
    return Item(ops: range, bounds: pixels.intersection(frame), digest: d.digest, kind: .movingTexture(anchor: anchor, area: area))
  }

  /// The ops of a texture relative to `anchor`: each shape's own outline at
  /// its translation minus the anchor (to 1/1024 px), bounds moved alike;
  /// nil when a shape has no local form or paints with a shader (whose
  /// colours are tied to the frame).
  ///
  /// Points are kept to `grid(blurredBy:)` of the blur every pixel of the
  /// texture has, not to 1/1024 px: a blurred shape does not show finer
  /// moves, and a spring's last creep then stops changing the texture.
  static func relative(_ ops: ArraySlice<Op>, to anchor: Point) -> [Op]? {
    let grid = Self.grid(blurredBy: blur(of: ops))
    func place(_ local: Local) -> [Polyline] {
      let dx = snap(local.origin.x - anchor.x), dy = snap(local.origin.y - anchor.y)
      return local.polylines.map {
        Polyline(points: $0.points.map { Point(snap($0.x + dx, to: grid), snap($0.y + dy, to: grid)) }, isClosed: $0.isClosed)
      }
    }
    var out: [Op] = []
    out.reserveCapacity(ops.count)
    // The layers' bounds become those of the shapes they hold: the recorded
    // ones, taken from the frame, would round differently at every place.
    var ink = Rect.null
    var effectLayers = 0
    for op in ops {
      switch op {
      case .beginLayer(_, _, let effects):
        // A blur or shadow inside spreads past the shapes: not moved.
        if effects.blur > 0 || effects.shadow != nil { effectLayers += 1 }
        if effectLayers > 1 { return nil }
        out.append(op)
      case .fill(_, let rule, let paint, let local):
        guard let local, case .solid = paint else { return nil }
        let lines = place(local)
        ink = ink.union(lines.fillBounds)
        out.append(.fill(lines, rule, paint, nil))
      case .pushClip(_, let rule, let local):
        guard let local else { return nil }
        out.append(.pushClip(place(local), rule, nil))
      case .backdrop:
        // What lies beneath does not move with it.
        return nil
      default:
        out.append(op)
      }
    }
    guard !ink.isNull else { return nil }
    for (i, op) in out.enumerated() {
      if case .beginLayer(_, let opacity, let effects) = op { out[i] = .beginLayer(ink, opacity: opacity, effects) }
    }
    return out
  }

  /// The grid to which a texture whose every pixel is blurred by σ keeps its
  /// points: the largest power of two ≤ σ / 800, from 1/1024 to 1/16 px.
  /// Moving an edge by d changes a Gaussian blur of the shape by at most
  /// d / (σ √(2π)) anywhere (a line integral of the 2-D Gaussian), so
  /// points snapped by at most half the grid change no pixel's coverage by
  /// more than 1/2000, the bound the 1/1024 px grid keeps for sharp shapes.
  static func grid(blurredBy sigma: Double) -> Double {
    guard sigma.isFinite, sigma > 0 else { return 1.0 / 1024 }
    let exponent = min(max(Int((sigma / 800).exponent), -10), -4)
    return Double(sign: .plus, exponent: exponent, significand: 1)
  }

  /// The blur every pixel of a texture layer's ops has: a shadow's alone
  /// (ended by `endShadow`), else the layer's blur (a shadow under it is
  /// blurred by more).
  static func blur(of ops: ArraySlice<Op>) -> Double {
    guard case .beginLayer(_, _, let effects) = ops.first else { return 0 }
    if case .endShadow = ops.last { return effects.shadow?.sigma ?? 0 }
    return effects.blur
  }
}
