/// Arc-length operations on flattened paths: trimming and dashing.
enum PathMeasure {
  /// The points of a polyline with its closing segment made explicit.
  static func walk(_ line: Polyline) -> [Point] {
    guard line.isClosed, let first = line.points.first, line.points.last != first else { return line.points }
    return line.points + [first]
  }

  static func length(_ points: [Point]) -> Double {
    var total = 0.0
    for i in 1..<max(points.count, 1) { total += (points[i] - points[i - 1]).length }
    return total
  }

  /// The piece of `points` between arc lengths `a` and `b` (0 ≤ a ≤ b).
  static func slice(_ points: [Point], from a: Double, to b: Double) -> [Point] {
    var out: [Point] = []
    var travelled = 0.0
    for i in 1..<points.count {
      let p = points[i - 1], q = points[i]
      let l = (q - p).length
      let next = travelled + l
      if next >= a && travelled <= b && l > 0 {
        let t0 = max(0, (a - travelled) / l), t1 = min(1, (b - travelled) / l)
        let start = Point.interpolate(p, q, t0), end = Point.interpolate(p, q, t1)
        if out.isEmpty { out.append(start) }
        out.append(end)
      }
      travelled = next
      if travelled > b { break }
    }
    return out
  }

  /// SwiftUI's `trimmedPath(from:to:)` over the whole path's length: the
  /// subpaths in order, as one run. Untrimmed polylines keep being closed.
  static func trim(_ lines: [Polyline], from: Double, to: Double) -> [Polyline] {
    let from = min(max(from, 0), 1), to = min(max(to, 0), 1)
    if from <= 0 && to >= 1 { return lines }
    guard from < to else { return [] }
    let walks = lines.map(walk)
    let total = walks.reduce(0) { $0 + length($1) }
    let a = from * total, b = to * total
    var out: [Polyline] = []
    var offset = 0.0
    for w in walks {
      let l = length(w)
      if offset + l > a && offset < b {
        let piece = slice(w, from: a - offset, to: b - offset)
        if piece.count > 1 { out.append(Polyline(points: piece, isClosed: false)) }
      }
      offset += l
    }
    return out
  }

  /// Most dashes one stroke draws: a pattern so fine against its path that
  /// it would draw more strokes solid (its dashes would be far below a
  /// pixel anyway), so that no scene stalls the renderer.
  static let maximumDashes = 100_000

  /// Dashes each subpath with `pattern` (on, off, …) starting `phase` into it.
  static func dash(_ lines: [Polyline], pattern raw: [Double], phase: Double) -> [Polyline] {
    let pattern = raw.count % 2 == 1 ? raw + raw : raw
    let period = pattern.reduce(0, +)
    guard !pattern.isEmpty, period > 0, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return lines }
    let walks = lines.map(walk)
    let lengths = walks.map(length)
    let dashes = lengths.reduce(0) { $0 + ($1 / period + 1) * Double(pattern.count / 2) }
    guard dashes <= Double(maximumDashes) else { return lines }
    var out: [Polyline] = []
    for (w, total) in zip(walks, lengths) {
      // Where in the pattern the subpath starts.
      var position = phase.truncatingRemainder(dividingBy: period)
      if position < 0 { position += period }
      var index = 0
      while position >= pattern[index] {
        position -= pattern[index]
        index = (index + 1) % pattern.count
      }
      var s = 0.0
      var remaining = pattern[index] - position
      while s < total {
        let e = min(total, s + remaining)
        if index % 2 == 0 && e > s {
          let piece = slice(w, from: s, to: e)
          if piece.count > 1 { out.append(Polyline(points: piece, isClosed: false)) }
        } else if index % 2 == 0 && pattern[index] == 0 {
          // A zero-length dash: a dot for round and square caps.
          let p = slice(w, from: s, to: s + 1e-9)
          if let first = p.first { out.append(Polyline(points: [first], isClosed: false)) }
        }
        s = e
        index = (index + 1) % pattern.count
        remaining = pattern[index]
      }
    }
    return out
  }
}

extension Path {
  /// The part of the path between fractions `from` and `to` of its whole
  /// length (its subpaths in order, as one run, as `trimmedPath(from:to:)`
  /// trims), flattened within `tolerance`: open subpaths of line segments,
  /// which a fill closes. The whole path when nothing is trimmed; empty
  /// when `from` ≥ `to`.
  public func trimmed(from: Double, to: Double, tolerance: Double = defaultTolerance) -> Path {
    if from <= 0 && to >= 1 { return self }
    var out = Path()
    for line in PathMeasure.trim(flattened(tolerance: tolerance), from: from, to: to) {
      guard let first = line.points.first else { continue }
      out.move(to: first)
      for p in line.points.dropFirst() { out.line(to: p) }
    }
    return out
  }
}
