import Primitives

// Drawing at reduced resolution: a recording's ops with every device
// coordinate scaled by s (1/k), and paints that shade the same picture on
// the smaller grid. A material's backdrop of a large σ is drawn this way
// before it is blurred: its blur passes nothing finer than σ/3 pixels, so
// drawing it k times smaller (each small pixel the coverage-weighted mean
// of k × k pixels) loses nothing the blur would keep, and costs k² times
// less. `TileRenderer.SharedImages.backdrop` accounts for the box the small
// pixels average over in the blur's σ.

extension Recording {
  /// `ops` with device coordinates scaled by `s`: outlines, clips, layer
  /// bounds, blur and shadow radii and offsets, and the paints' geometry.
  static func scaled(_ ops: some Sequence<Op>, by s: Double) -> [Op] {
    let scale = AffineTransform.scale(s, s)
    func lines(_ polylines: [Polyline]) -> [Polyline] {
      polylines.map { Polyline(points: $0.points.map(scale.apply), isClosed: $0.isClosed) }
    }
    return ops.map { op in
      switch op {
      case .fill(let polylines, let rule, let paint, _): .fill(lines(polylines), rule, paint.scaled(by: s), nil)
      case .pushClip(let polylines, let rule, _): .pushClip(lines(polylines), rule, nil)
      case .popClip, .endLayer, .endShadow: op
      case .beginLayer(let bounds, let opacity, var effects):
        {
          effects.blur *= s
          if let shadow = effects.shadow { effects.shadow = (shadow.color, shadow.sigma * s, Vector2(shadow.offset.x * s, shadow.offset.y * s)) }
          return .beginLayer(scale.apply(bounds), opacity: opacity, effects)
        }()
      case .backdrop(let polylines, let rule, let index): .backdrop(lines(polylines), rule, index: index)
      }
    }
  }
}

extension Paint {
  /// The paint that shades on a grid scaled by `s` what this one shades
  /// on the device's.
  func scaled(by s: Double) -> Paint {
    switch self {
    case .solid: self
    case .linearGradient(let g):
      .linearGradient(
        LinearGradientShader(start: Point(g.start.x * s, g.start.y * s), direction: Vector2(g.direction.x / s, g.direction.y / s), ramp: g.ramp))
    case .radialGradient(let g):
      .radialGradient(
        RadialGradientShader(
          deviceToGradient: AffineTransform.scale(1 / s, 1 / s).concatenating(g.deviceToGradient), center: g.center,
          startRadius: g.startRadius, inverseSpan: g.inverseSpan, ramp: g.ramp, focus: g.focus))
    case .image(let i): .image(ImageShader(pyramid: i.pyramid, imageToDevice: i.imageToDevice.concatenating(.scale(s, s)), opacity: i.opacity))
    case .magnifiedImage(let m):
      .image(
        ImageShader(
          image: m.image,
          imageToDevice: AffineTransform.scale(Double(m.factor) * s, Double(m.factor) * s).concatenating(
            .translation(Double(m.origin.x) * s, Double(m.origin.y) * s))))
    case .projectedImage(let p):
      .projectedImage(
        ProjectedImageShader(
          image: p.image, digest: p.imageDigest, imageToDevice: p.imageToDevice.concatenating(Homography(.scale(s, s))), opacity: p.opacity))
    }
  }
}

extension LinearGradientShader {
  init(start: Point, direction: Vector2, ramp: GradientRamp) {
    self.start = start
    self.direction = direction
    self.ramp = ramp
  }
}

extension RadialGradientShader {
  init(deviceToGradient: AffineTransform, center: Point, startRadius: Double, inverseSpan: Double, ramp: GradientRamp, focus: Vector2) {
    self.deviceToGradient = deviceToGradient
    self.center = center
    self.startRadius = startRadius
    self.inverseSpan = inverseSpan
    self.ramp = ramp
    self.focus = focus
  }
}
