import PortableMath

/// A syntax error in SVG path data (the `d` attribute of `<path>`).
///
/// `offset` is the 0-based offset, counted in Unicode scalars, of the
/// offending text in the input string; `message` quotes that text, for
/// example `expected a number after 'L', found 'x'`.
public struct SVGPathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A human-readable explanation that quotes the offending text.
  public var message: String
  /// The 0-based Unicode-scalar offset of the offending text in the input.
  /// At the end of the data it equals the input's scalar count.
  public var offset: Int

  public init(message: String, offset: Int) {
    self.message = message
    self.offset = offset
  }

  public var description: String { "\(message) (at offset \(offset))" }
}

extension Path {
  /// Parses SVG path data (the `d` attribute of `<path>`), SVG 1.1 / SVG 2
  /// grammar.
  ///
  /// - Commands `M L H V C S Q T A Z`: upper case is absolute, lower case is
  ///   relative to the current point. Argument groups may repeat without
  ///   repeating the letter; extra pairs after `M`/`m` are implicit `L`/`l`.
  /// - `S`/`s` and `T`/`t` reflect the previous control point only when the
  ///   previous command was `C`/`S` respectively `Q`/`T`; otherwise the first
  ///   control point is the current point.
  /// - After `Z`/`z` the current point is the subpath's start; a drawing
  ///   command there starts a new subpath from that point.
  /// - Numbers follow the SVG number grammar (sign, decimals, exponent).
  ///   Separators are optional where unambiguous: `"1.5.5"` is 1.5 then .5,
  ///   `"-1-2"` is −1 then −2, and arc flags need no separator
  ///   (`"a1 1 0 00 1 1"`).
  /// - Elliptical arcs become cubic Béziers of at most 90° each (control
  ///   length 4/3·tan(θ/4)), following SVG 1.1 appendix F.6: a zero radius
  ///   makes a straight line, identical endpoints omit the arc, radii too
  ///   small to span the endpoints are scaled up, negative radii are made
  ///   positive, the x-axis rotation is in degrees, and sweep-flag 1 runs in
  ///   the angle-increasing direction, which is clockwise on screen (y down).
  ///   Each arc ends exactly at its specified endpoint.
  ///
  /// Coordinates are taken unit-for-unit (user units) in the path's space.
  /// Empty or whitespace-only data gives an empty path.
  ///
  /// - Throws: `SVGPathError` for data not starting with `M`/`m`, an unknown
  ///   command, a missing, malformed or out-of-range (non-finite) number, an
  ///   arc flag other than `0`/`1`, or a stray comma. Unlike a browser, which
  ///   renders up to the first error, nothing is returned on error.
  public init(svgPathData: String) throws(SVGPathError) {
    var parser = SVGPathParser(svgPathData)
    try parser.parse()
    self = parser.path
  }
}

/// A recursive-descent parser of SVG path data over Unicode scalars.
private struct SVGPathParser {
  let input: [Unicode.Scalar]
  var index = 0
  var path = Path()

  // Geometry state.
  var current = Point.zero
  var subpathStart = Point.zero
  /// The second control point of the previous command, when it was C/c/S/s.
  var lastCubicControl: Point?
  /// The control point of the previous command, when it was Q/q/T/t.
  var lastQuadControl: Point?

  init(_ text: String) { input = Array(text.unicodeScalars) }

  // MARK: Scanning

  var peek: Unicode.Scalar? { index < input.count ? input[index] : nil }

  static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
    c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
  }
  static func isDigit(_ c: Unicode.Scalar?) -> Bool {
    guard let c else { return false }
    return c.value >= 0x30 && c.value <= 0x39
  }
  static func startsNumber(_ c: Unicode.Scalar?) -> Bool {
    guard let c else { return false }
    return isDigit(c) || c == "+" || c == "-" || c == "."
  }

  mutating func skipWhitespace() {
    while let c = peek, Self.isWhitespace(c) { index += 1 }
  }
  /// Skips `wsp* ,? wsp*`; returns whether a comma was consumed.
  @discardableResult
  mutating func skipCommaWhitespace() -> Bool {
    skipWhitespace()
    guard peek == "," else { return false }
    index += 1
    skipWhitespace()
    return true
  }

  /// The text at the current position, for messages: one scalar or "end of data".
  var foundText: String {
    guard let c = peek else { return "end of data" }
    return "'\(Character(c))'"
  }

  func text(_ range: Range<Int>) -> String {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: input[range])
    return String(s)
  }

  func error(_ message: String, at offset: Int) -> SVGPathError {
    SVGPathError(message: message, offset: offset)
  }

  // MARK: Tokens

  /// Reads one number: `sign? (digits ("." digits?)? | "." digits) ([eE] sign? digits)?`.
  mutating func number(after command: Unicode.Scalar) throws(SVGPathError) -> Double {
    let start = index
    guard Self.startsNumber(peek) else {
      throw error("expected a number after '\(Character(command))', found \(foundText)", at: index)
    }
    if peek == "+" || peek == "-" { index += 1 }
    var digits = 0
    while Self.isDigit(peek) { index += 1; digits += 1 }
    if peek == "." {
      index += 1
      while Self.isDigit(peek) { index += 1; digits += 1 }
    }
    guard digits > 0 else {
      // A sign or point with no digits.
      throw error("malformed number \(Excerpt.quoted(text(start..<index))) after '\(Character(command))'", at: start)
    }
    if peek == "e" || peek == "E" {
      // No command is named 'e', so an exponent marker must start an exponent.
      index += 1
      if peek == "+" || peek == "-" { index += 1 }
      guard Self.isDigit(peek) else {
        throw error(
          "malformed exponent in number \(Excerpt.quoted(text(start..<index))) after '\(Character(command))'", at: start)
      }
      while Self.isDigit(peek) { index += 1 }
    }
    let lexeme = text(start..<index)
    guard let value = Double(lexeme), value.isFinite else {
      throw error("number \(Excerpt.quoted(lexeme)) after '\(Character(command))' is out of range", at: start)
    }
    return value
  }

  /// Reads an arc flag: a single `0` or `1`.
  mutating func flag(after command: Unicode.Scalar) throws(SVGPathError) -> Bool {
    switch peek {
    case "0": index += 1; return false
    case "1": index += 1; return true
    default:
      throw error("expected an arc flag (0 or 1) after '\(Character(command))', found \(foundText)", at: index)
    }
  }

  /// Reads `count` numbers separated by optional comma-whitespace.
  mutating func numbers(_ count: Int, after command: Unicode.Scalar) throws(SVGPathError) -> [Double] {
    var values: [Double] = []
    values.reserveCapacity(count)
    for i in 0..<count {
      if i > 0 { skipCommaWhitespace() }
      values.append(try number(after: command))
    }
    return values
  }

  // MARK: Grammar

  mutating func parse() throws(SVGPathError) {
    skipWhitespace()
    guard let first = peek else { return }  // Empty data: an empty path.
    if first != "M" && first != "m" {
      throw error("path data must start with 'M' or 'm', found \(foundText)", at: index)
    }
    var previous: Unicode.Scalar?
    while true {
      skipWhitespace()
      guard let c = peek else { return }
      guard let command = SVGCommand(c) else {
        if previous == "Z" || previous == "z", Self.startsNumber(c) {
          throw error("expected a command, found \(foundText) ('\(Character(previous!))' takes no arguments)", at: index)
        }
        let isLetter = (c.value >= 0x41 && c.value <= 0x5A) || (c.value >= 0x61 && c.value <= 0x7A)
        throw error(isLetter ? "unknown command \(foundText)" : "expected a command, found \(foundText)", at: index)
      }
      index += 1
      previous = c
      if command == .close {
        path.close()
        current = subpathStart
        lastCubicControl = nil
        lastQuadControl = nil
        continue
      }
      skipWhitespace()
      var repetition = 0
      while true {
        try arguments(for: command, letter: c, relative: c.value >= 0x61, repetition: repetition)
        repetition += 1
        let commaOffset = index
        let hadComma = skipCommaWhitespace()
        if Self.startsNumber(peek) { continue }
        if hadComma {
          // A comma may only separate arguments; skip back to report it.
          var offset = commaOffset
          while input[offset] != "," { offset += 1 }
          throw error("unexpected ',' after the arguments of '\(Character(c))'", at: offset)
        }
        break
      }
    }
  }

  /// Reads one argument group of `command` and appends its geometry.
  mutating func arguments(
    for command: SVGCommand, letter: Unicode.Scalar, relative: Bool, repetition: Int
  ) throws(SVGPathError) {
    let base = relative ? current : .zero
    var cubicControl: Point?
    var quadControl: Point?
    switch command {
    case .move:
      let v = try numbers(2, after: letter)
      let p = base + Point(v[0], v[1])
      if repetition == 0 {
        path.move(to: p)
        subpathStart = p
      } else {
        path.line(to: p)  // Implicit L/l.
      }
      current = p
    case .line:
      let v = try numbers(2, after: letter)
      let p = base + Point(v[0], v[1])
      path.line(to: p)
      current = p
    case .horizontal:
      let x = try number(after: letter)
      let p = Point(relative ? current.x + x : x, current.y)
      path.line(to: p)
      current = p
    case .vertical:
      let y = try number(after: letter)
      let p = Point(current.x, relative ? current.y + y : y)
      path.line(to: p)
      current = p
    case .cubic:
      let v = try numbers(6, after: letter)
      let c1 = base + Point(v[0], v[1]), c2 = base + Point(v[2], v[3]), p = base + Point(v[4], v[5])
      path.cubic(to: p, control1: c1, control2: c2)
      current = p
      cubicControl = c2
    case .smoothCubic:
      let v = try numbers(4, after: letter)
      let c1 = lastCubicControl.map { current * 2 - $0 } ?? current
      let c2 = base + Point(v[0], v[1]), p = base + Point(v[2], v[3])
      path.cubic(to: p, control1: c1, control2: c2)
      current = p
      cubicControl = c2
    case .quad:
      let v = try numbers(4, after: letter)
      let c = base + Point(v[0], v[1]), p = base + Point(v[2], v[3])
      path.quad(to: p, control: c)
      current = p
      quadControl = c
    case .smoothQuad:
      let v = try numbers(2, after: letter)
      let c = lastQuadControl.map { current * 2 - $0 } ?? current
      let p = base + Point(v[0], v[1])
      path.quad(to: p, control: c)
      current = p
      quadControl = c
    case .arc:
      let radii = try numbers(3, after: letter)
      skipCommaWhitespace()
      let largeArc = try flag(after: letter)
      skipCommaWhitespace()
      let sweep = try flag(after: letter)
      skipCommaWhitespace()
      let v = try numbers(2, after: letter)
      let p = base + Point(v[0], v[1])
      appendArc(to: p, rx: radii[0], ry: radii[1], rotationDegrees: radii[2], largeArc: largeArc, sweep: sweep)
      current = p
    case .close:
      break
    }
    lastCubicControl = cubicControl
    lastQuadControl = quadControl
  }

  /// Appends an SVG endpoint-parameterized elliptical arc from `current` to
  /// `end` as cubics (SVG 1.1 F.6.5 and F.6.6). The last cubic ends exactly
  /// at `end`.
  mutating func appendArc(
    to end: Point, rx rawRx: Double, ry rawRy: Double, rotationDegrees: Double, largeArc: Bool, sweep: Bool
  ) {
    let start = current
    // F.6.2: identical endpoints omit the arc; a zero radius makes a line.
    if start == end { return }
    var rx = abs(rawRx), ry = abs(rawRy)
    if rx == 0 || ry == 0 {
      path.line(to: end)
      return
    }
    let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * (Double.pi / 180)
    let (sinPhi, cosPhi) = Elementary.sinCos(phi)
    // Step 1: the midpoint of the chord in the ellipse's rotated frame.
    let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    // F.6.6: scale radii that cannot span the endpoints.
    let lambda = (x1 / rx) * (x1 / rx) + (y1 / ry) * (y1 / ry)
    guard lambda > 0, lambda.isFinite else {
      // Endpoints indistinguishable at this scale, or overflow: a line keeps the path exact.
      path.line(to: end)
      return
    }
    // Step 2: the centre in the rotated frame. With Λ = x1²/rx² + y1²/ry²,
    // the F.6.5.2 radicand simplifies to (1 − Λ)/Λ.
    var cx1 = 0.0, cy1 = 0.0
    if lambda > 1 {
      let s = lambda.squareRoot()
      rx *= s
      ry *= s
    } else {
      var coefficient = max(0, (1 - lambda) / lambda).squareRoot()
      if largeArc == sweep { coefficient = -coefficient }
      cx1 = coefficient * rx * y1 / ry
      cy1 = -coefficient * ry * x1 / rx
    }
    // Step 3: the centre in user space.
    let cx = cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2
    let cy = sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2
    // Step 4: start angle and sweep (parametric angles on the unit circle).
    let ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry
    let vx = (-x1 - cx1) / rx, vy = (-y1 - cy1) / ry
    let theta1 = Elementary.atan2(y: uy, x: ux)
    var delta = Elementary.atan2(y: vy, x: vx) - theta1
    if !sweep && delta > 0 {
      delta -= 2 * Double.pi
    } else if sweep && delta < 0 {
      delta += 2 * Double.pi
    }
    // Endpoints a subnormal distance apart give Λ ≈ 1e-311 and an infinite
    // centre: as above, a line keeps the path exact.
    guard delta.isFinite, cx.isFinite, cy.isFinite else {
      path.line(to: end)
      return
    }
    // Cubics of at most 90°: unit-circle control length 4/3·tan(θ/4).
    let pieces = max(1, Int((abs(delta) / (Double.pi / 2) - 1e-9).rounded(.up)))
    let step = delta / Double(pieces)
    let k = 4.0 / 3.0 * Elementary.tan(step / 4)
    func map(_ x: Double, _ y: Double) -> Point {
      Point(cx + cosPhi * rx * x - sinPhi * ry * y, cy + sinPhi * rx * x + cosPhi * ry * y)
    }
    var angle = theta1
    for i in 0..<pieces {
      let last = i == pieces - 1
      let next = last ? theta1 + delta : angle + step
      let (s0, c0) = Elementary.sinCos(angle)
      let (s1, c1) = Elementary.sinCos(next)
      path.cubic(
        to: last ? end : map(c1, s1),
        control1: map(c0 - k * s0, s0 + k * c0),
        control2: map(c1 + k * s1, s1 - k * c1))
      angle = next
    }
  }
}

/// The SVG path commands, case-folded.
private enum SVGCommand {
  case move, line, horizontal, vertical, cubic, smoothCubic, quad, smoothQuad, arc, close

  init?(_ c: Unicode.Scalar) {
    switch c {
    case "M", "m": self = .move
    case "L", "l": self = .line
    case "H", "h": self = .horizontal
    case "V", "v": self = .vertical
    case "C", "c": self = .cubic
    case "S", "s": self = .smoothCubic
    case "Q", "q": self = .quad
    case "T", "t": self = .smoothQuad
    case "A", "a": self = .arc
    case "Z", "z": self = .close
    default: return nil
    }
  }
}
