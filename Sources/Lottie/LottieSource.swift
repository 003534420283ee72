import Primitives
import Raster
import Render
import SceneModel
import Syntax

/// A Lottie animation as a frame source: scene time t shows Lottie frame
/// ip + t × fr, fractional frames interpolated; frame op itself is never
/// drawn. Every command takes it as it takes a scene.
public struct LottieSource: FrameSource {
  public let animation: LottieAnimation
  public let name: String
  public let inputDigest: String
  /// The image assets' pixels by id (loaded by whoever reads files).
  public let images: [String: ImagePyramid]

  public init(animation: LottieAnimation, name: String, inputDigest: String, images: [String: ImagePyramid] = [:]) {
    self.animation = animation
    self.name = name
    self.inputDigest = inputDigest
    self.images = images
  }

  /// The file's bytes decoded (located errors as `SceneErrors`).
  public init(decoding bytes: [UInt8], file: String, defaultName: String) throws(SceneErrors) {
    let animation = try LottieDecoder.decode(bytes, file: file)
    self.init(animation: animation, name: defaultName, inputDigest: SHA256.hex(bytes))
  }

  public var duration: Double { (animation.outPoint - animation.inPoint) / animation.frameRate }
  public var defaultScale: Double { 1 }
  public var pointSize: Vector2 { Vector2(Double(animation.width), Double(animation.height)) }
  public func pixelSize(scale: Double?) -> (width: Int, height: Int) {
    let s = scale ?? 1
    return (max(1, Int((Double(animation.width) * s).rounded())), max(1, Int((Double(animation.height) * s).rounded())))
  }
  public var naturalFrameRate: Double? { animation.frameRate }
  /// Transparent: outputs with alpha keep it, the others follow --matte.
  public var background: PremultipliedColor? { nil }

  /// One warning per kind of feature drawn without, where it first appears.
  public func warnings(file: String) -> [SceneDiagnostic] {
    animation.skipped.map {
      SceneDiagnostic(file: file, location: $0.location, path: $0.path, message: "\($0.kind) are not supported; drawn without them")
    }
  }

  /// The Lottie frame shown at scene time `t`.
  public func lottieFrame(at t: Double) -> Double {
    var f = animation.inPoint + t * animation.frameRate
    // A time that names a whole frame, give or take the rounding of t ×
    // fr, is that frame (hold keyframes change exactly there).
    if abs(f - f.rounded()) < 1e-9 * max(1, abs(f)) { f = f.rounded() }
    return min(f, animation.outPoint.nextDown)
  }

  public func draw(at t: Double, on list: Recording, transform: AffineTransform, frame: Int) throws(RenderError) {
    var painter = LottiePainter(animation: animation, list: list, images: images)
    painter.composition(animation.layers, at: lottieFrame(at: t), transform: transform)
  }
}

/// Draws compositions, layers and shapes into a recording.
struct LottiePainter {
  let animation: LottieAnimation
  let list: Recording
  var images: [String: ImagePyramid] = [:]

  /// Layers of one composition at its frame `f`, bottom (last) first.
  /// Precompositions nested deeper are not drawn (a file cannot loop, but
  /// it can nest thousands deep).
  static let maximumNesting = 16
  /// Points a polystar has at most.
  static let maximumStarPoints = 1000

  /// Layers drawn in one frame at most: precompositions referred to many
  /// times, nested, multiply.
  static let maximumDrawnLayers = 10_000
  var drawnLayers = 0
  /// Fills and strokes drawn in one frame at most (repeaters nested in
  /// repeaters multiply).
  static let maximumDrawnShapes = 100_000
  var drawnShapes = 0

  /// Every pixel: the bounds of a layer that holds a whole layer of the
  /// file (the canvas bounds it by what it draws on).
  static let everywhere = Rect(x: -1e7, y: -1e7, width: 2e7, height: 2e7)

  mutating func composition(_ layers: [LottieLayer], at f: Double, transform: AffineTransform, depth: Int = 0) {
    guard depth <= Self.maximumNesting else { return }
    let byIndex = Dictionary(layers.compactMap { l in l.index.map { ($0, l) } }, uniquingKeysWith: { a, _ in a })
    for (position, layer) in layers.enumerated().reversed() {
      guard !layer.hidden, !layer.isMatte, f >= layer.inPoint, f < layer.outPoint else { continue }
      // A track matte: the layer above (`td`), or the one `tp` names,
      // multiplies this one by its alpha or luminance, inverted or not.
      if let mode = layer.matteMode, (1...4).contains(mode),
        let matte = layer.matteParent.map({ byIndex[$0] }) ?? (position > 0 ? layers[position - 1] : nil)
      {
        guard layer.transform.opacity(at: f) > 0 else { continue }
        let mask = LayerMask(mode <= 2 ? .alpha : .luminance, inverted: mode % 2 == 0)
        list.beginLayer(bounds: Self.everywhere)
        drawLayer(layer, byIndex: byIndex, at: f, transform: transform, depth: depth)
        list.beginLayer(bounds: Self.everywhere, effects: LayerEffects(mask: mask))
        if f >= matte.inPoint, f < matte.outPoint {
          drawLayer(matte, byIndex: byIndex, at: f, transform: transform, depth: depth)
        }
        list.endLayer()
        list.endLayer()
      } else {
        drawLayer(layer, byIndex: byIndex, at: f, transform: transform, depth: depth)
      }
    }
  }

  /// The frame a precomposition layer's composition shows at its own
  /// composition's frame `f`: moved by its start time, at its stretch.
  /// (A layer's own keyframes are in its composition's frames.)
  static func localFrame(_ layer: LottieLayer, _ f: Double) -> Double { (f - layer.startTime) / layer.stretch }

  /// A layer's transform at frame `f`, then its parents'.
  func matrix(_ layer: LottieLayer, byIndex: [Int: LottieLayer], at f: Double, depth: Int = 0) -> AffineTransform {
    let local = layer.transform.matrix(at: f)
    guard depth < 64, let p = layer.parent, let parent = byIndex[p] else { return local }
    return local.concatenating(matrix(parent, byIndex: byIndex, at: f, depth: depth + 1))
  }

  /// One layer with its opacity and masks (not its matte).
  mutating func drawLayer(_ layer: LottieLayer, byIndex: [Int: LottieLayer], at f: Double, transform: AffineTransform, depth: Int) {
    drawnLayers += 1
    guard drawnLayers <= Self.maximumDrawnLayers else { return }
    let opacity = layer.transform.opacity(at: f)
    guard opacity > 0 else { return }
    let m = matrix(layer, byIndex: byIndex, at: f).concatenating(transform)
    let masks = layer.masks.filter { $0.mode != "n" }
    let clipped = Self.masksAreClips(masks, at: f)
    let isolated = opacity < 1 || !clipped
    if isolated { list.beginLayer(bounds: Self.everywhere, opacity: opacity) }
    var clips = 0
    if clipped { clips = maskClips(masks, at: f, transform: m) }
    switch layer.type {
    case 4:
      shapes(layer.shapes, at: f, transform: m, alpha: 1, trims: [])
    case 1:
      if let c = layer.solidColor {
        let rect = Path.rect(Rect(x: 0, y: 0, width: layer.solidSize.0, height: layer.solidSize.1))
        list.fill(rect, transform: m, paint: .solid(Color(red: c[0], green: c[1], blue: c[2], alpha: 1).premultiplied))
      }
    case 2:
      // The image stretched over its asset's size.
      if let ref = layer.reference, let asset = animation.images[ref], let image = images[ref] {
        let pixels = image.levels[0]
        if pixels.width > 0, pixels.height > 0, asset.width > 0, asset.height > 0 {
          let place = AffineTransform.scale(asset.width / Double(pixels.width), asset.height / Double(pixels.height)).concatenating(m)
          list.fill(.rect(pixels.bounds), transform: place, paint: .image(ImageShader(pyramid: image, imageToDevice: place)))
        }
      }
    case 0:
      if let ref = layer.reference, let children = animation.precomps[ref] {
        // Its start time and stretch (or its time remapping, in seconds)
        // move the frames of the composition it holds.
        var childFrame = Self.localFrame(layer, f)
        if let tm = layer.timeRemap { childFrame = tm.numbers(at: f, fallback: [0])[0] * animation.frameRate }
        if layer.solidSize.0 > 0, layer.solidSize.1 > 0 {
          list.pushClip(Path.rect(Rect(x: 0, y: 0, width: layer.solidSize.0, height: layer.solidSize.1)), transform: m)
          clips += 1
        }
        composition(children, at: childFrame, transform: m, depth: depth + 1)
      }
    default:
      break
    }
    for _ in 0..<clips { list.popClip() }
    if !clipped { maskLayer(masks, at: f, transform: m) }
    if isolated { list.endLayer() }
  }

  /// Whether masks are exactly clips: opaque and unexpanded, the added
  /// ones (not inverted) first, then the others; or a single one.
  static func masksAreClips(_ masks: [LottieMask], at f: Double) -> Bool {
    var addsDone = false
    for mask in masks {
      guard maskOpacity(mask, at: f) >= 1, maskExpansion(mask, at: f) == 0, ["a", "s", "i"].contains(mask.mode) else { return false }
      let add = mask.mode == "a" && !mask.inverted
      if add && addsDone && masks.count > 1 { return false }
      if !add { addsDone = true }
    }
    return true
  }

  static func maskOpacity(_ mask: LottieMask, at f: Double) -> Double {
    min(max((mask.opacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100, 0), 1)
  }

  static func maskExpansion(_ mask: LottieMask, at f: Double) -> Double {
    let x = mask.expansion?.numbers(at: f, fallback: [0])[0] ?? 0
    return x.isFinite ? x : 0
  }

  /// A rectangle around everything, in device pixels: an inverted mask's
  /// outside.
  static let outside = Path.rect(Rect(x: -1e6, y: -1e6, width: 2e6 + 1, height: 2e6 + 1))

  /// Masks as clips: the added ones' union, then each subtracted one's
  /// outside, then each intersected one (an inverted mask: its outside).
  /// Returns how many clips were pushed.
  func maskClips(_ masks: [LottieMask], at f: Double, transform m: AffineTransform) -> Int {
    var clips = 0
    func clip(_ path: Path, inverted: Bool) {
      if inverted {
        var p = Self.outside.transformed(by: m.inverted ?? .identity)
        p.append(path)
        list.pushClip(p, transform: m, rule: .evenOdd)
      } else {
        list.pushClip(path, transform: m)
      }
      clips += 1
    }
    let added = masks.filter { $0.mode == "a" && !$0.inverted }
    if !added.isEmpty {
      var union = Path()
      for mask in added { if let shape = mask.path.value(at: f).shape { union.append(shape.path) } }
      clip(union, inverted: false)
    }
    for mask in masks where !(mask.mode == "a" && !mask.inverted) {
      guard let shape = mask.path.value(at: f).shape else { continue }
      clip(shape.path, inverted: (mask.mode == "s") != mask.inverted)
    }
    return clips
  }

  /// Masks as lottie-web composes them, in order, into a mask layer that
  /// multiplies the layer by its alpha: an added one is drawn over what
  /// is there (its coverage times its opacity), a subtracted one takes
  /// that away, an intersected one keeps only that; a first mask that
  /// subtracts or intersects starts from everything. Expansion grows (or
  /// shrinks) a mask by a stroke of twice its amount, round-joined.
  func maskLayer(_ masks: [LottieMask], at f: Double, transform m: AffineTransform) {
    let opaque = Paint.solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
    list.beginLayer(bounds: Self.everywhere, effects: LayerEffects(mask: LayerMask(.alpha)))
    for (i, mask) in masks.enumerated() {
      let mode = ["s", "i"].contains(mask.mode) ? mask.mode : "a"
      if i == 0 && mode != "a" { list.fill(Self.outside, paint: opaque) }
      let shape = mask.path.value(at: f).shape?.path ?? Path()
      let opacity = Self.maskOpacity(mask, at: f), x = Self.maskExpansion(mask, at: f)
      if mode != "a" {
        list.beginLayer(bounds: Self.everywhere, effects: LayerEffects(mask: LayerMask(.alpha, inverted: mode == "s")))
      }
      // The mask's coverage times its opacity.
      if x == 0 && !mask.inverted {
        list.fill(shape, transform: m, paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: opacity)))
      } else {
        list.beginLayer(bounds: Self.everywhere, opacity: opacity)
        if mask.inverted {
          list.fill(Self.outside, paint: opaque)
          list.beginLayer(bounds: Self.everywhere, effects: LayerEffects(mask: LayerMask(.alpha, inverted: true)))
        }
        list.fill(shape, transform: m, paint: opaque)
        let stroke = StrokeStyle(width: 2 * abs(x), cap: .round, join: .round)
        if x > 0 { list.stroke(shape, transform: m, style: stroke, paint: opaque) }
        if x < 0 {
          list.beginLayer(bounds: Self.everywhere, effects: LayerEffects(mask: LayerMask(.alpha, inverted: true)))
          list.stroke(shape, transform: m, style: stroke, paint: opaque)
          list.endLayer()
        }
        if mask.inverted { list.endLayer() }
        list.endLayer()
      }
      if mode != "a" { list.endLayer() }
    }
    list.endLayer()
  }

  /// A group's items: each fill and stroke paints the paths above it in
  /// the group (and in the groups above it), groups drawn in their turn,
  /// the last item at the bottom.
  /// `trims`: the trim modifiers that follow this group in the groups
  /// around it, which apply to its paths too (outermost last).
  mutating func shapes(_ items: [LottieShape], at f: Double, transform m: AffineTransform, alpha: Double, trims: [Trim]) {
    let items = Self.expandingRepeaters(items, at: f)
    guard drawnShapes < Self.maximumDrawnShapes else { return }
    func paths(before i: Int) -> [Trimmed] { Self.apply(trims, to: collect(items[0..<i], at: f, relative: .identity)) }
    for i in items.indices.reversed() {
      switch items[i] {
      case .group(let sub, let hidden):
        guard !hidden else { continue }
        let (gm, ga) = Self.groupTransform(sub, at: f)
        guard ga > 0 else { continue }
        // The trims after the group in this one apply to its paths.
        let after = items[(i + 1)...].compactMap { item -> Trim? in
          if case .trim(let s, let e, let o, let individually) = item { return Trim(s, e, o, individually, at: f) }
          return nil
        }
        shapes(sub, at: f, transform: gm.concatenating(m), alpha: alpha * ga, trims: after + trims)
      case .fill(let color, let opacity, let evenOdd):
        drawnShapes += 1
        let paths = paths(before: i)
        guard !paths.isEmpty else { continue }
        let o = (opacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100 * alpha
        list.fill(
          Self.filled(paths, transform: m), transform: m,
          paint: .solid(self.color(color.numbers(at: f, fallback: [0, 0, 0, 1]), opacity: o)), rule: evenOdd ? .evenOdd : .nonZero)
      case .gradientFill(let gradient, let evenOdd):
        drawnShapes += 1
        let paths = paths(before: i)
        guard !paths.isEmpty, let paint = self.gradient(gradient, at: f, transform: m, alpha: alpha) else { continue }
        list.fill(Self.filled(paths, transform: m), transform: m, paint: paint, rule: evenOdd ? .evenOdd : .nonZero)
      case .stroke(let stroke):
        drawnShapes += 1
        let paths = paths(before: i)
        guard !paths.isEmpty else { continue }
        self.stroke(stroke, paths: paths, at: f, transform: m, alpha: alpha)
      default:
        break
      }
    }
  }

  /// Copies a repeater makes at most, and items repeaters make in one group.
  static let maximumCopies = 1000
  static let maximumRepeatedItems = 100_000

  /// `items` with each repeater replaced by copies of the items above it
  /// (as lottie-web makes them): a copy is moved by the repeater's
  /// transform a number of times (rotation and scale about its anchor,
  /// then the position; a fraction of a time moves it that fraction of
  /// the way), its opacity from the start's to the end's (copy 0 the
  /// start's, on top); composite 1 moves copy i offset + i times, 2 moves
  /// copy n − 1 − i that many.
  static func expandingRepeaters<C: Collection<LottieShape>>(_ items: C, at f: Double) -> [LottieShape] {
    guard items.contains(where: { if case .repeater = $0 { true } else { false } }) else { return Array(items) }
    var out: [LottieShape] = []
    for item in items {
      guard case .repeater(let r) = item else {
        out.append(item)
        continue
      }
      let count = r.copies?.numbers(at: f, fallback: [0])[0] ?? 0
      let n = count.isFinite ? Int(min(max(count, 0), Double(maximumCopies)).rounded(.up)) : 0
      guard n > 0, out.count * n <= maximumRepeatedItems else {
        out = []
        continue
      }
      let offset = r.offset?.numbers(at: f, fallback: [0])[0] ?? 0
      let t = r.transform
      let a = t.anchor?.numbers(at: f, fallback: [0, 0]) ?? [0, 0]
      let p = t.position?.numbers(at: f, fallback: [0, 0]) ?? [0, 0]
      let sc = t.scale?.numbers(at: f, fallback: [100, 100]) ?? [100, 100]
      let rotation = t.rotation?.numbers(at: f, fallback: [0])[0] ?? 0
      let start = (r.startOpacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100
      let end = (r.endOpacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100
      /// The transform applied `k` times (k may be fractional or negative).
      func moved(_ k: Double) -> AffineTransform {
        guard k.isFinite, abs(k) <= Double(maximumCopies) * 2 else { return .identity }
        let whole = k.rounded(.towardZero), fraction = k - whole
        func power(_ s: Double) -> Double {
          let base = s / 100
          var v = 1.0
          for _ in 0..<Int(abs(whole)) { v *= base }
          if whole < 0 { v = v == 0 ? 1 : 1 / v }
          // A fraction of a time: the scale that far from 1 (lottie-web's).
          let partial = base + (1 - base) * (1 - abs(fraction))
          return fraction >= 0 ? v * partial : (partial == 0 ? v : v / partial)
        }
        let toAnchor = AffineTransform.translation(-a[0], -a[1]), back = AffineTransform.translation(a[0], a[1])
        return toAnchor.concatenating(.rotation(rotation * k * .pi / 180)).concatenating(.scale(power(sc[0]), power(sc[1])))
          .concatenating(back).concatenating(.translation(p[0] * k, p[1] * k))
      }
      let content = out
      var copies: [LottieShape] = []
      for i in 0..<n {
        let k = offset + Double(r.composite == 2 ? n - 1 - i : i)
        let opacity = n == 1 ? start : start + (end - start) * Double(i) / Double(n - 1)
        copies.append(.group(content + [.matrix(moved(k), opacity: min(max(opacity, 0), 1))], hidden: false))
      }
      // Copy 0 on top, whichever the composite (lottie-web's order; the
      // composite decides which copy is moved least).
      out = copies
    }
    return out
  }

  static func groupTransform(_ items: [LottieShape], at f: Double) -> (AffineTransform, Double) {
    for item in items.reversed() {
      if case .transform(let t) = item { return (t.matrix(at: f), t.opacity(at: f)) }
      if case .matrix(let m, let opacity) = item { return (m, opacity) }
    }
    return (.identity, 1)
  }

  /// A trim modifier's ranges at a frame.
  struct Trim {
    var ranges: [(Double, Double)]
    var individually: Bool

    init(_ s: LottieProperty?, _ e: LottieProperty?, _ o: LottieProperty?, _ individually: Bool, at f: Double) {
      let start = (s?.numbers(at: f, fallback: [0])[0] ?? 0) / 100, end = (e?.numbers(at: f, fallback: [100])[0] ?? 100) / 100
      let offset = (o?.numbers(at: f, fallback: [0])[0] ?? 0) / 360
      ranges = LottiePainter.trimRanges(start: start, end: end, offset: offset)
      self.individually = individually
    }
  }

  /// `trims` (innermost first) applied to `paths`, each to what the ones
  /// before it left (lottie-web's modifiers run in turn): a path trimmed
  /// already is trimmed again within the parts it kept.
  static func apply(_ trims: [Trim], to paths: [Trimmed]) -> [Trimmed] {
    var paths = paths
    for trim in trims where !paths.isEmpty {
      if paths.contains(where: { $0.trims != nil }) {
        paths = paths.map { p in
          Trimmed(path: p.path, trims: p.trims.map { compose($0, trim.ranges) } ?? trim.ranges, individually: p.individually)
        }
      } else if trim.individually {
        paths = [Trimmed(path: joined(paths), trims: trim.ranges, individually: true)]
      } else {
        paths = paths.map { Trimmed(path: $0.path, trims: trim.ranges) }
      }
    }
    return paths
  }

  /// The ranges `inner` (fractions of what `outer` keeps, taken as one
  /// run in order) as fractions of the whole path.
  static func compose(_ outer: [(Double, Double)], _ inner: [(Double, Double)]) -> [(Double, Double)] {
    let total = outer.reduce(0) { $0 + ($1.1 - $1.0) }
    guard total > 0 else { return [] }
    var out: [(Double, Double)] = []
    for (c, d) in inner {
      let from = c * total, to = d * total
      var offset = 0.0
      for (a, b) in outer {
        let lo = max(from, offset), hi = min(to, offset + (b - a))
        if hi - lo >= emptyTrim { out.append((a + lo - offset, a + hi - offset)) }
        offset += b - a
      }
    }
    return out
  }

  /// A path with its trim, if a trim modifier applies to it.
  struct Trimmed {
    var path: Path
    var trims: [(Double, Double)]?
    var individually = false
  }

  /// The paths of `items` in the group's space, with the trims that
  /// follow them applied.
  func collect(_ items: ArraySlice<LottieShape>, at f: Double, relative: AffineTransform) -> [Trimmed] {
    var out: [Trimmed] = []
    for item in Self.expandingRepeaters(items, at: f) {
      switch item {
      case .rect(let p, let s, let r, let reversed):
        let c = p.numbers(at: f, fallback: [0, 0]), size = s.numbers(at: f, fallback: [0, 0])
        let radius = min(r?.numbers(at: f, fallback: [0])[0] ?? 0, min(abs(size[0]), abs(size[1])) / 2)
        let rect = Rect(x: c[0] - size[0] / 2, y: c[1] - size[1] / 2, width: size[0], height: size[1])
        var path = radius > 0 ? Path.roundedRect(rect, cornerRadius: radius, style: .circular) : Self.rectPath(rect)
        if reversed { path = path.reversed() }
        out.append(Trimmed(path: path.transformed(by: relative)))
      case .ellipse(let p, let s, let reversed):
        let c = p.numbers(at: f, fallback: [0, 0]), size = s.numbers(at: f, fallback: [0, 0])
        var path = Self.ellipsePath(center: Point(c[0], c[1]), radii: Vector2(size[0] / 2, size[1] / 2))
        if reversed { path = path.reversed() }
        out.append(Trimmed(path: path.transformed(by: relative)))
      case .path(let ks, _):
        if let shape = ks.value(at: f).shape { out.append(Trimmed(path: shape.path.transformed(by: relative))) }
      case .polystar(let star):
        out.append(Trimmed(path: Self.polystar(star, at: f).transformed(by: relative)))
      case .group(let sub, let hidden):
        guard !hidden else { continue }
        let (gm, _) = Self.groupTransform(sub, at: f)
        out += collect(sub[...], at: f, relative: gm.concatenating(relative))
        // Repeaters nested in repeaters multiply: a bounded number of paths.
        if out.count > Self.maximumRepeatedItems { return out }
      case .trim(let s, let e, let o, let individually):
        out = Self.apply([Trim(s, e, o, individually, at: f)], to: out)
      case .roundCorners(let r):
        let radius = r?.numbers(at: f, fallback: [0])[0] ?? 0
        if radius > 0, radius.isFinite {
          out = out.map { Trimmed(path: LottieCorners.rounded($0.path, radius: radius), trims: $0.trims, individually: $0.individually) }
        }
      default:
        break
      }
    }
    return out
  }

  /// The shortest trim drawn, as a fraction of the path's length.
  static let emptyTrim = 1e-6

  /// A trim's start and end (fractions) and offset (turns) as one or two
  /// ranges within 0 … 1.
  static func trimRanges(start: Double, end: Double, offset: Double) -> [(Double, Double)] {
    var a = min(start, end) + offset, b = max(start, end) + offset
    if b - a >= 1 { return [(0, 1)] }
    // A trim within a millionth of the length of nothing is nothing (as
    // the players draw it): a keyframe's easing creeps off its value by
    // 10⁻¹⁵ just after it, which would otherwise draw a round cap's dot.
    if !(b - a >= Self.emptyTrim) { return [] }
    let k = a.rounded(.down)
    a -= k
    b -= k
    return b <= 1 ? [(a, b)] : [(a, 1), (0, b - 1)]
  }

  /// What a fill fills: each path, or the parts its trim keeps (a trim
  /// shortens the path the fill closes, as lottie-web's trimmed path data
  /// does), flattened within the device tolerance.
  static func filled(_ paths: [Trimmed], transform m: AffineTransform) -> Path {
    guard paths.contains(where: { $0.trims != nil }) else { return joined(paths) }
    let tolerance = Path.defaultTolerance / max(m.maximumScale, 1e-9)
    var out = Path()
    for p in paths {
      guard let ranges = p.trims else {
        out.append(p.path)
        continue
      }
      for (a, b) in ranges { out.append(p.path.trimmed(from: a, to: b, tolerance: tolerance)) }
    }
    return out
  }

  static func joined(_ paths: [Trimmed]) -> Path {
    var out = Path()
    for p in paths { out.append(p.path) }
    return out
  }

  /// After Effects' rectangle: from the top right corner, clockwise.
  static func rectPath(_ r: Rect) -> Path {
    var p = Path()
    p.move(to: Point(r.maxX, r.minY))
    p.line(to: Point(r.maxX, r.maxY))
    p.line(to: Point(r.minX, r.maxY))
    p.line(to: Point(r.minX, r.minY))
    p.close()
    return p
  }

  /// After Effects' ellipse: four cubic arcs from the top, clockwise.
  static func ellipsePath(center c: Point, radii r: Vector2) -> Path {
    let k = 0.5519150244935105707435627
    var p = Path()
    p.move(to: Point(c.x, c.y - r.y))
    p.cubic(to: Point(c.x + r.x, c.y), control1: Point(c.x + k * r.x, c.y - r.y), control2: Point(c.x + r.x, c.y - k * r.y))
    p.cubic(to: Point(c.x, c.y + r.y), control1: Point(c.x + r.x, c.y + k * r.y), control2: Point(c.x + k * r.x, c.y + r.y))
    p.cubic(to: Point(c.x - r.x, c.y), control1: Point(c.x - k * r.x, c.y + r.y), control2: Point(c.x - r.x, c.y + k * r.y))
    p.cubic(to: Point(c.x, c.y - r.y), control1: Point(c.x - r.x, c.y - k * r.y), control2: Point(c.x - k * r.x, c.y - r.y))
    p.close()
    return p
  }

  /// A star or polygon, its first point straight up, turned by its rotation.
  static func polystar(_ s: LottiePolystar, at f: Double) -> Path {
    let c = s.position?.numbers(at: f, fallback: [0, 0]) ?? [0, 0]
    let points = s.points?.numbers(at: f, fallback: [5])[0] ?? 5
    let n = points.isFinite ? Int(min(max(points, 0), Double(maximumStarPoints)).rounded(.down)) : 0
    let outer = s.outerRadius?.numbers(at: f, fallback: [0])[0] ?? 0
    let inner = s.innerRadius?.numbers(at: f, fallback: [0])[0] ?? 0
    let rotation = (s.rotation?.numbers(at: f, fallback: [0])[0] ?? 0) * .pi / 180
    var path = Path()
    guard n >= 2 || (s.star && n >= 1) else { return path }
    let count = s.star ? 2 * n : n
    for i in 0..<count {
      let radius = s.star && i % 2 == 1 ? inner : outer
      let angle = rotation - .pi / 2 + Double(i) * 2 * .pi / Double(count)
      let r = AffineTransform.rotation(angle)
      let point = Point(c[0] + radius * r.a, c[1] + radius * r.b)
      if i == 0 { path.move(to: point) } else { path.line(to: point) }
    }
    path.close()
    if s.reversed { path = path.reversed() }
    return path
  }

  func color(_ c: [Double], opacity: Double) -> PremultipliedColor {
    let scale = animation.oldColors ? 255.0 : 1.0
    func channel(_ i: Int) -> Double { min(max((i < c.count ? c[i] : 0) / scale, 0), 1) }
    return Color(red: channel(0), green: channel(1), blue: channel(2), alpha: min(max(opacity, 0), 1)).premultiplied
  }

  mutating func stroke(_ stroke: LottieStroke, paths: [Trimmed], at f: Double, transform m: AffineTransform, alpha: Double) {
    let width = stroke.width?.numbers(at: f, fallback: [1])[0] ?? 1
    guard width > 0 else { return }
    let o = (stroke.opacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100 * alpha
    let paint: Paint
    if let gradient = stroke.gradient {
      guard let g = self.gradient(gradient, at: f, transform: m, alpha: alpha) else { return }
      paint = g
    } else {
      paint = .solid(color(stroke.color?.numbers(at: f, fallback: [0, 0, 0, 1]) ?? [0, 0, 0, 1], opacity: o))
    }
    var dash = stroke.dashes.map { $0.numbers(at: f, fallback: [0])[0] }
    if dash.count % 2 == 1 { dash += dash }
    if dash.allSatisfy({ $0 <= 0 }) { dash = [] }
    let phase = stroke.offset?.numbers(at: f, fallback: [0])[0] ?? 0
    for p in paths {
      for range in p.trims ?? [(0, 1)] {
        let style = StrokeStyle(
          width: width, cap: stroke.cap, join: stroke.join, miterLimit: stroke.miterLimit, dash: dash, dashPhase: phase, trim: range)
        list.stroke(p.path, transform: m, style: style, paint: paint)
      }
    }
  }

  /// A gradient's paint in device space, nil when it has no stops.
  func gradient(_ g: LottieGradient, at f: Double, transform m: AffineTransform, alpha: Double) -> Paint? {
    guard let raw = g.stops?.value(at: f).numbers, g.count > 0, raw.count >= 4 * g.count else { return nil }
    let o = (g.opacity?.numbers(at: f, fallback: [100])[0] ?? 100) / 100 * alpha
    let scale = animation.oldColors ? 255.0 : 1.0
    var colorStops: [(Double, [Double])] = []
    for i in 0..<g.count { colorStops.append((raw[4 * i], [raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]].map { $0 / scale })) }
    var alphaStops: [(Double, Double)] = []
    var k = 4 * g.count
    while k + 1 < raw.count {
      alphaStops.append((raw[k], raw[k + 1]))
      k += 2
    }
    let offsets = Array(Set(colorStops.map(\.0) + alphaStops.map(\.0))).sorted()
    func lerp(_ stops: [(Double, [Double])], _ x: Double) -> [Double] {
      guard let first = stops.first else { return [0, 0, 0] }
      if x <= first.0 { return first.1 }
      for i in 1..<max(1, stops.count) where x <= stops[i].0 {
        let a = stops[i - 1], b = stops[i]
        let t = b.0 > a.0 ? (x - a.0) / (b.0 - a.0) : 1
        return zip(a.1, b.1).map { $0 + ($1 - $0) * t }
      }
      return stops[stops.count - 1].1
    }
    let stops = offsets.map { x -> GradientStop in
      let rgb = lerp(colorStops, x)
      let a = alphaStops.isEmpty ? 1 : lerp(alphaStops.map { ($0.0, [$0.1]) }, x)[0]
      return GradientStop(
        offset: min(max(x, 0), 1), color: Color(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: min(max(a * o, 0), 1)).premultiplied)
    }
    let s = g.start?.numbers(at: f, fallback: [0, 0]) ?? [0, 0], e = g.end?.numbers(at: f, fallback: [0, 0]) ?? [0, 0]
    if g.radial {
      // In the group's space, mapped to the device by its transform (an
      // ellipse under a non-uniform scale).
      let radius = ((e[0] - s[0]) * (e[0] - s[0]) + (e[1] - s[1]) * (e[1] - s[1])).squareRoot()
      guard radius > 0 else { return nil }
      // The highlight (lottie-web's): a focal point at h (a fraction, within
      // ±0.99) of the radius from the start, at the axis's angle plus a.
      let h = min(max((g.highlight?.numbers(at: f, fallback: [0])[0] ?? 0) / 100, -0.99), 0.99)
      if h != 0, h.isFinite {
        let angle = (g.angle?.numbers(at: f, fallback: [0])[0] ?? 0) * .pi / 180
        let turn = AffineTransform.rotation(angle.isFinite ? angle : 0)
        let axis = Vector2((e[0] - s[0]) / radius, (e[1] - s[1]) / radius)
        let direction = Vector2(turn.a * axis.x + turn.c * axis.y, turn.b * axis.x + turn.d * axis.y)
        let focus = Vector2(direction.x * h * radius, direction.y * h * radius)
        return .radialGradient(RadialGradientShader(center: Point(s[0], s[1]), radius: radius, focus: focus, stops: stops, transform: m))
      }
      return .radialGradient(RadialGradientShader(center: Point(s[0], s[1]), startRadius: 0, endRadius: radius, stops: stops, transform: m))
    }
    // A linear gradient's lines of equal colour are perpendicular to its
    // axis in the group's space; in device space they follow the
    // transform, so the device axis is the inverse transpose of the local
    // one, scaled so that the colour still goes from 0 to 1.
    let start = m.apply(Point(s[0], s[1]))
    let d = Vector2(e[0] - s[0], e[1] - s[1])
    let dd = d.x * d.x + d.y * d.y
    guard dd > 0, let inverse = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: 0, ty: 0).inverted else { return nil }
    // n = M⁻ᵀ d / |d|²: the gradient of the colour parameter in device space.
    let n = Vector2((inverse.a * d.x + inverse.b * d.y) / dd, (inverse.c * d.x + inverse.d * d.y) / dd)
    let nn = n.x * n.x + n.y * n.y
    guard nn > 0 else { return nil }
    let end = Point(start.x + n.x / nn, start.y + n.y / nn)
    return .linearGradient(LinearGradientShader(start: start, end: end, stops: stops))
  }
}

extension LottieSource {
  /// The top composition's layers' animated transform properties
  /// (position, scale, rotation, opacity), each layer named by its `nm`
  /// (else its `ind`, else its index), velocities per second of scene time
  /// by central differences.
  /// Properties charted at most (a file may hold thousands of layers).
  static let maximumSampledProperties = 200

  /// The animated transform properties of every layer, precompositions'
  /// layers included (their frames moved by the layer's start time and
  /// stretch), named by `nm`.
  public var sampledProperties: [SampledProperty] {
    var out: [SampledProperty] = []
    let fr = animation.frameRate
    var visited = 0
    func walk(_ layers: [LottieLayer], depth: Int, frame: @escaping @Sendable (Double) -> Double) {
      for (i, layer) in layers.enumerated() where !layer.isMatte {
        visited += 1
        guard visited <= LottiePainter.maximumDrawnLayers, out.count < Self.maximumSampledProperties else { return }
        let name = layer.name ?? layer.index.map { "\($0)" } ?? "\(i)"
        let t = layer.transform
        var chosen: [(String, String, LottieProperty, [String?])] = []
        if let p = t.position, p.isAnimated { chosen.append(("position", "px", p, ["x", "y"])) }
        if let x = t.positionX, x.isAnimated { chosen.append(("position.x", "px", x, [nil])) }
        if let y = t.positionY, y.isAnimated { chosen.append(("position.y", "px", y, [nil])) }
        if let s = t.scale, s.isAnimated { chosen.append(("scale", "%", s, ["x", "y"])) }
        if let r = t.rotation, r.isAnimated { chosen.append(("rotation", "°", r, [nil])) }
        if let o = t.opacity, o.isAnimated { chosen.append(("opacity", "%", o, [nil])) }
        for (property, unit, prop, names) in chosen.prefix(Self.maximumSampledProperties - out.count) {
          out.append(
            SampledProperty(layer: name, property: property, unit: unit, marks: []) { time in
              let f = frame(time)
              let h = 1e-3
              let v = prop.numbers(at: f, fallback: [0, 0]), a = prop.numbers(at: f - h * fr, fallback: [0, 0]),
                b = prop.numbers(at: f + h * fr, fallback: [0, 0])
              let values = names.enumerated().map { (name: $1, value: v[$0]) }
              let velocities = names.enumerated().map { (name: $1, value: (b[$0] - a[$0]) / (2 * h)) }
              return (values, velocities)
            })
        }
        if layer.type == 0, depth < LottiePainter.maximumNesting, let children = animation.precomps[layer.reference ?? ""] {
          walk(children, depth: depth + 1) { LottiePainter.localFrame(layer, frame($0)) }
        }
      }
    }
    let source = self
    walk(animation.layers, depth: 0) { source.lottieFrame(at: $0) }
    return out
  }
}

extension LottieSource {
  /// `render info`: the layers as a tree, named by `nm` (else `ind`, else
  /// their index), precompositions' layers beneath theirs.
  public var outline: SourceOutline? {
    func tree(_ layers: [LottieLayer], depth: Int) -> [SourceOutline.Layer] {
      layers.enumerated().map { i, layer in
        let kind = [0: "precomp", 1: "solid", 2: "image", 3: "null", 4: "shape", 5: "text"][layer.type] ?? "type \(layer.type)"
        let children = depth < 16 && layer.type == 0 ? tree(animation.precomps[layer.reference ?? ""] ?? [], depth: depth + 1) : []
        return SourceOutline.Layer(id: layer.name ?? layer.index.map { "\($0)" } ?? "\(i)", type: kind, children: children)
      }
    }
    return SourceOutline(events: [], layers: tree(animation.layers, depth: 0), defaultDuration: duration, durationGiven: true)
  }
}
