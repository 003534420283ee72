import Foundation
import Primitives
import Syntax
import Testing

@testable import Timing

@Suite struct ParserTests {
  @Test func presetsAreApplesValues() throws {
    func spring(_ text: String) throws -> Spring { try #require(try AnimationParser.parse(text).spring) }
    func check(_ text: String, duration: Double, bounce: Double) throws {
      let s = try spring(text)
      #expect(abs(s.duration - duration) < 1e-12, "\(text) duration")
      #expect(abs(s.bounce - bounce) < 1e-12, "\(text) bounce")
    }
    try check("smooth", duration: 0.5, bounce: 0)
    try check("snappy", duration: 0.5, bounce: 0.15)
    try check("bouncy", duration: 0.5, bounce: 0.3)
    try check("spring", duration: 0.5, bounce: 0)
    try check("spring()", duration: 0.5, bounce: 0)
    try check("default", duration: 0.55, bounce: 0)
    try check("interactiveSpring", duration: 0.15, bounce: 0.15)
    try check("smooth(duration: 0.4)", duration: 0.4, bounce: 0)
    try check("snappy(duration: 0.4, extraBounce: 0.1)", duration: 0.4, bounce: 0.25)
    try check("bouncy(extraBounce: 0.1)", duration: 0.5, bounce: 0.4)
    try check("spring(duration: 0.6, bounce: -0.2)", duration: 0.6, bounce: -0.2)
    let r = try spring("spring(response: 0.55, dampingFraction: 0.825)")
    #expect(abs(r.duration - 0.55) < 1e-12 && r.dampingRatio == 0.825)
    let defaults = try spring("spring(response: 0.3)")
    #expect(defaults.dampingRatio == 0.825)
    let physical = try spring("interpolatingSpring(mass: 2, stiffness: 300, damping: 20)")
    #expect(abs(physical.stiffness - 300) < 1e-9 && abs(physical.damping - 20) < 1e-9 && physical.mass == 2)
  }

  @Test(arguments: [
    "spring(duration: 0.5, bounce: 0.2)",
    "snappy(duration: 0.4, extraBounce: 0.1).delay(0.2)",
    ".snappy",
    "easeInOut(duration: 0.35).delay(0.1)",
    "timingCurve(0.2, 0.8, 0.2, 1, duration: 0.5)",
    "interpolatingSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)",
    "uikitSpring(duration: 0.4, dampingRatio: 0.5, initialVelocity: 0)",
    "easeOutBack(duration: 1).speed(2).repeatCount(3, autoreverses: false)",
    "default.repeatForever()",
    "linear.repeatForever(autoreverses: false)",
  ])
  func descriptionRoundTrips(_ text: String) throws {
    let animation = try AnimationParser.parse(text)
    let again = try AnimationParser.parse(animation.description)
    #expect(again.modifiers == animation.modifiers)
    switch (animation.base, again.base) {
    case (.curve(let f, let d), .curve(let g, let e)):
      #expect(f == g && d == e)
    case (.spring(let s, let v), .spring(let t, let w)):
      #expect(abs(s.naturalFrequency - t.naturalFrequency) < 1e-9 && abs(s.dampingRatio - t.dampingRatio) < 1e-12 && v == w)
    case (.uikitSpring(let s, _, _, _), .uikitSpring(let t, _, _, _)):
      #expect(abs(s.naturalFrequency - t.naturalFrequency) < 1e-9)
    default:
      Issue.record("\(text) came back as \(again)")
    }
  }

  @Test func spacingAndLeadingDotsDoNotMatter() throws {
    let a = try AnimationParser.parse(".snappy(duration:0.4,extraBounce:0.1) . delay( 0.2 )")
    let b = try AnimationParser.parse("snappy(duration: 0.4, extraBounce: 0.1).delay(0.2)")
    #expect(a == b)
    // Any white space, newlines too, may stand between a label and its colon.
    let c = try AnimationParser.parse("snappy(duration\n:\t0.4,\n extraBounce \r\n: 0.1).delay(0.2)")
    #expect(c == b)
  }

  @Test func jsonObjectFormIsTheSameModel() throws {
    func json(_ text: String) throws -> Animation {
      try AnimationParser.parse(json: try JSONParser.parse(text), path: JSONPath().appending("animation"))
    }
    #expect(
      try json(#"{"spring": {"duration": 0.5, "bounce": 0.2}, "delay": 0.1}"#)
        == AnimationParser.parse("spring(duration: 0.5, bounce: 0.2).delay(0.1)"))
    #expect(try json(#"{"snappy": {}}"#) == AnimationParser.parse("snappy"))
    #expect(try json(#"{"easeInOut": true}"#) == AnimationParser.parse("easeInOut"))
    #expect(try json(#"{"easeInOut": {"duration": 1}, "repeatCount": 3}"#) == AnimationParser.parse("easeInOut(duration: 1).repeatCount(3)"))
    #expect(
      try json(#"{"linear": null, "repeatCount": {"count": 2, "autoreverses": false}}"#)
        == AnimationParser.parse("linear.repeatCount(2, autoreverses: false)"))
    #expect(
      try json(#"{"timingCurve": [0.2, 0.8, 0.2, 1]}"#) == AnimationParser.parse("timingCurve(0.2, 0.8, 0.2, 1)"))
    #expect(
      try json(#"{"timingCurve": {"p1x": 0.2, "p1y": 0.8, "p2x": 0.2, "p2y": 1, "duration": 0.5}}"#)
        == AnimationParser.parse("timingCurve(0.2, 0.8, 0.2, 1, duration: 0.5)"))
    #expect(try json(#""snappy.delay(0.2)""#) == AnimationParser.parse("snappy.delay(0.2)"))
    // Modifiers apply in the order written, which the object keeps.
    #expect(try json(#"{"linear": {}, "speed": 2, "delay": 1}"#).modifiers == [.speed(2), .delay(1)])
  }

  /// An unlabelled parameter's documented name, the object form's key, is
  /// accepted as a label in SwiftUI syntax too.
  @Test func documentedNamesServeAsLabels() throws {
    #expect(try AnimationParser.parse("linear.delay(delay: 1)") == AnimationParser.parse("linear.delay(1)"))
    #expect(try AnimationParser.parse("linear.repeatCount(count: 2)") == AnimationParser.parse("linear.repeatCount(2)"))
  }

  /// The bad-input catalogue: each message quotes the offending text and
  /// points at it.
  @Test(
    arguments: [
      ("sprung", "unknown animation 'sprung'; did you mean 'spring'?", 0..<6),
      (".snapy(duration: 0.3)", "unknown animation 'snapy'; did you mean 'snappy'?", 1..<6),
      ("easeInOutCric", "unknown animation 'easeInOutCric'; did you mean 'easeInOutCirc'?", 0..<13),
      ("spring(duration: 0)", "duration must be between 1e-06 and 1000000 seconds, got 0 in 'spring(duration: 0)'", 7..<18),
      (
        "spring(duration: -0.5, bounce: 0.2)",
        "duration must be between 1e-06 and 1000000 seconds, got -0.5 in 'spring(duration: -0.5, bounce: 0.2)'", 7..<21
      ),
      (
        "spring(duration: 0.5, bounce: 1.5)",
        "bounce must be greater than -1 and less than 1 (1 never settles, -1 never moves), got 1.5 in 'spring(duration: 0.5, bounce: 1.5)'", 22..<33
      ),
      (
        "spring(bounce: -1)", "bounce must be greater than -1 and less than 1 (1 never settles, -1 never moves), got -1 in 'spring(bounce: -1)'",
        7..<17
      ),
      (
        "bouncy(extraBounce: 0.8)",
        "bounce must be greater than -1 and less than 1 (1 never settles, -1 never moves), bouncy reaches a bounce of 1.1 in 'bouncy(extraBounce: 0.8)'",
        7..<23
      ),
      (
        "interpolatingSpring(mass: -1, stiffness: 100, damping: 10)",
        "mass must be between 1e-06 and 1000000, got -1 in 'interpolatingSpring(mass: -1, stiffness…'", 20..<28
      ),
      (
        "interpolatingSpring(stiffness: -100, damping: 10)",
        "stiffness must be between 1e-06 and 1000000, got -100 in 'interpolatingSpring(stiffness: -100, da…'", 20..<35
      ),
      (
        "interpolatingSpring(stiffness: 100, damping: 0)",
        "damping must be between 1e-06 and 1000000 (an undamped spring never settles), got 0 in 'interpolatingSpring(stiffness: 100, dam…'", 36..<46
      ),
      ("linear.speed(0)", "speed must be greater than 0, got 0 in 'speed(0)'", 13..<14),
      ("linear.repeatCount(0)", "count must be a whole number from 1 to 1000000, got 0 in 'repeatCount(0)'", 19..<20),
      ("linear.repeatCount(2.5)", "count must be a whole number from 1 to 1000000, got 2.5 in 'repeatCount(2.5)'", 19..<22),
      ("linear.delay(-1)", "delay must be 0 or more seconds, got -1 in 'delay(-1)'", 13..<15),
      ("snappy.dealy(0.2)", "unknown modifier 'dealy'; did you mean 'delay'? (the modifiers are delay, speed, repeatCount, repeatForever)", 7..<12),
      ("spring.snappy", "'snappy' is an animation, not a modifier; the modifiers are delay, speed, repeatCount, repeatForever", 7..<13),
      ("delay(0.2)", "'delay' is a modifier; write it after an animation, as in 'easeInOut.delay(…)'", 0..<5),
      (
        "spring(duraton: 0.5)",
        "unknown argument 'duraton' for 'spring'; did you mean 'duration'? (spring takes spring(duration:bounce:blendDuration:) or spring(response:dampingFraction:blendDuration:))",
        7..<19
      ),
      ("spring(duration: nan)", "'duration' of spring must be a number, got a name", 7..<20),
      ("spring(duration: 1e999)", "number '1e999' is out of range", 17..<22),
      ("easeInOut(duration: 0.3", "missing ')' to close 'easeInOut('", 9..<10),
      ("easeInOut(duration: .3)", "a number needs a digit before '.' (write 0.5, not .5)", 20..<22),
      (
        "timingCurve(1.2, 0, 0.5, 1)",
        "p1x must be between 0 and 1 (a timing curve must move forward in time), got 1.2 in 'timingCurve(1.2, 0, 0.5, 1)'", 12..<15
      ),
      ("timingCurve", "'timingCurve' needs arguments: timingCurve(_:_:_:_:duration:)", 0..<11),
      (
        "uikitSpring(duration: 0.4, dampingRatio: 0)",
        "dampingRatio must be greater than 0 and at most 1, got 0 in 'uikitSpring(duration: 0.4, dampingRatio…'", 27..<42
      ),
      (
        "uikitSpring(duration: 0.4)",
        "missing argument 'dampingRatio'; uikitSpring takes uikitSpring(duration:dampingRatio:initialVelocity:), got 'uikitSpring(duration: 0.4)'",
        12..<25
      ),
      (
        "spring(bounce: 0.2, duration: 0.5)",
        "argument 'duration' must precede argument 'bounce'; spring takes spring(duration:bounce:blendDuration:) or spring(response:dampingFraction:blendDuration:), got 'spring(bounce: 0.2, duration: 0.5)'",
        20..<33
      ),
      (
        "spring(duration: 0.5, duration: 0.6)",
        "argument 'duration' is given twice; spring takes spring(duration:bounce:blendDuration:) or spring(response:dampingFraction:blendDuration:), got 'spring(duration: 0.5, duration: 0.6)'",
        22..<35
      ),
      (
        "spring(response: 0.3, bounce: 0.1)",
        "unexpected argument 'bounce'; spring takes spring(duration:bounce:blendDuration:) or spring(response:dampingFraction:blendDuration:), got 'spring(response: 0.3, bounce: 0.1)'",
        22..<33
      ),
      (
        "interpolatingSpring(damping: 10, stiffness: 100)",
        "argument 'stiffness' must precede argument 'damping'; interpolatingSpring takes interpolatingSpring(mass:stiffness:damping:initialVelocity:) or interpolatingSpring(duration:bounce:initialVelocity:), got 'interpolatingSpring(damping: 10, stiffn…'",
        20..<31
      ),
      (
        "uikitSpring()",
        "missing argument 'duration'; uikitSpring takes uikitSpring(duration:dampingRatio:initialVelocity:), got 'uikitSpring()'", 0..<13
      ),
      ("linear.repeatCount(true)", "'count' of repeatCount must be a whole number, got a boolean", 19..<23),
      ("spring(blendDuration: -1)", "blendDuration must be 0 or more seconds, got -1 in 'spring(blendDuration: -1)'", 7..<24),
      ("snappy(duration: -.5)", "a number needs a digit before '.' (write 0.5, not .5)", 17..<20),
      ("linear(duration: 1.e1)", "invalid number '1.e1'", 17..<21),
      ("snappy extra", "unexpected 'extra' after 'snappy'", 7..<12),
      ("", "empty expression", 0..<0),
      (
        "spring(dampingFraction: 1000000000)",
        "spring(dampingFraction: 1000000000) takes more than an hour to settle (more than the limit of 3600 s)", 0..<35
      ),
    ] as [(String, String, Range<Int>)])
  func badInputIsReportedPrecisely(_ text: String, _ message: String, _ range: Range<Int>) {
    do {
      let animation = try AnimationParser.parse(text)
      Issue.record("'\(text)' parsed as \(animation)")
    } catch {
      #expect(error.message == message)
      #expect(error.origin == .text(range), "origin of '\(text)'")
    }
  }

  /// An object's arguments come in the parameters' order, as in Swift.
  @Test func jsonArgumentsKeepSwiftsOrder() throws {
    let node = try JSONParser.parse(#"{"spring": {"bounce": 0.2, "duration": 0.5}}"#)
    do {
      _ = try AnimationParser.parse(json: node, path: JSONPath().appending("animation"))
      Issue.record("accepted")
    } catch {
      #expect(
        error.message
          == "argument 'duration' must precede argument 'bounce'; spring takes spring(duration:bounce:blendDuration:) or spring(response:dampingFraction:blendDuration:), got 'spring(bounce: 0.2, duration: 0.5)'"
      )
      guard case .json(let path, let location) = error.origin else {
        Issue.record("not a JSON origin")
        return
      }
      #expect(path.description == "animation.spring.duration" && location.column == 40)
    }
  }

  @Test func jsonErrorsPointIntoTheFile() throws {
    let text = """
      {"animation": {"spring": {"duraton": 0.5}}}
      """
    let node = try JSONParser.parse(text)
    #expect(throws: SyntaxError.self) {
      try AnimationParser.parse(json: node["animation"]!, path: JSONPath().appending("animation"))
    }
    do {
      _ = try AnimationParser.parse(json: node["animation"]!, path: JSONPath().appending("animation"))
    } catch {
      guard case .json(let path, let location) = error.origin else { Issue.record("not a JSON origin"); return }
      #expect(path.description == "animation.spring.duraton")
      #expect(location.line == 1 && location.column == 38)
      #expect(error.message.hasPrefix("unknown argument 'duraton' for 'spring'; did you mean 'duration'?"))
    }
    // An error inside a string value points at the character in the file.
    let inline = try JSONParser.parse(#"{"animation": "snappy.dealy(1)"}"#)
    do {
      _ = try AnimationParser.parse(json: inline["animation"]!, path: JSONPath().appending("animation"))
      Issue.record("accepted")
    } catch {
      guard case .json(_, let location) = error.origin else { Issue.record("not a JSON origin"); return }
      #expect(location.column == 23)  // the 'd' of 'dealy': quote at 15, +1, +7
    }
  }

  /// Random animations with random (often bad) parameters: each either is
  /// rejected with a message or yields finite samples everywhere. Never a
  /// crash, never a NaN.
  @Test func randomAnimationsNeverProduceNaN() {
    var random = SplitMix64(seed: 2026)
    let names = AnimationParser.animationNames
    let numbers: [Double] = [0, -1, 1, 0.5, 1e-9, 1e9, -0.999, 0.999, 2, 1e-3, 100, 37.5, -1e-12]
    func pick<T>(_ array: [T]) -> T { array[Int(random.next() % UInt64(array.count))] }
    let labels = [
      "duration", "bounce", "extraBounce", "response", "dampingFraction", "mass", "stiffness", "damping", "initialVelocity", "dampingRatio",
    ]
    var accepted = 0
    for _ in 0..<3000 {
      var text = pick(names)
      if random.next() % 3 != 0 {
        let count = Int(random.next() % 4)
        let args = (0..<count).map { _ in random.next() % 4 == 0 ? formatNumber(pick(numbers)) : "\(pick(labels)): \(formatNumber(pick(numbers)))" }
        text += "(" + args.joined(separator: ", ") + ")"
      }
      if random.next() % 2 == 0 { text += ".delay(\(formatNumber(pick(numbers))))" }
      if random.next() % 3 == 0 { text += ".speed(\(formatNumber(pick(numbers))))" }
      if random.next() % 4 == 0 { text += ".repeatCount(\(formatNumber(pick(numbers))))" }
      guard let animation = try? AnimationParser.parse(text) else { continue }
      var motion = Motion(0.0)
      motion.animate(to: 1, at: 0, with: animation, velocity: random.next() % 2 == 0 ? nil : pick(numbers))
      let end = motion.endTime
      #expect(end.isFinite && end >= 0, "\(text) ends at \(end)")
      guard end.isFinite else { continue }
      accepted += 1
      for i in 0...20 {
        let s = motion.sample(at: min(end, 1e4) * Double(i) / 20)
        #expect(s.value.isFinite && s.velocity.isFinite, "\(text) at sample \(i)")
      }
    }
    #expect(accepted > 300)
  }
}
