import ArgumentParser
import Review
import Syntax
import Timing

/// `render curve ANIMATION`: samples one animation and prints time, value
/// and velocity per frame, with its settling duration (docs/cli.md).
struct Curve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Sample one animation: time, value, velocity and settling duration.",
    discussion: """
      ANIMATION is written as in SwiftUI ("snappy(duration: 0.4, extraBounce: 0.1).delay(0.2)") \
      or as a JSON object ('{"spring": {"duration": 0.5, "bounce": 0.2}}'). The samples run \
      from t = 0 to the time the animation is finished for rendering: a spring's settling \
      duration, a curve's delay + duration / speed × passes. Keyframes \
      ('LinearKeyframe(1, duration: 0.2)' 'SpringKeyframe(0, spring: .bouncy)') make one \
      track, played from --from: the samples run to its end.
      """
  )

  /// More samples than this is a mistake (a spring that takes hours to settle).
  static let maximumSamples = 1_000_000

  @Argument(
    help: ArgumentHelp("The animation, in SwiftUI syntax or as a JSON object; several with -o, overlaid on one chart.", valueName: "animation"))
  var animations: [String]

  @Option(name: [.short, .customLong("output")], help: "Chart the animations to a .png or an .svg instead of printing samples.")
  var output: String?

  @OptionGroup var scaleOption: ScaleOption

  @Option(parsing: .unconditional, help: "Start value.")
  var from: Double = 0

  @Option(parsing: .unconditional, help: "End value.")
  var to: Double = 1

  @Option(parsing: .unconditional, help: "Initial velocity in units per second (springs; it replaces the spring's own).")
  var velocity: Double?

  @Option(help: "Samples per second.")
  var fps: Double = 60

  /// {"animation", "settlingDuration", "duration", "samples": [{"t", "value", "velocity"}]}.
  @OptionGroup var jsonFlag: JSONSummary

  @Flag(help: "Draw the value over time as a chart in the terminal instead of the table.")
  var plot = false

  func validate() throws {
    guard !animations.isEmpty else { throw ValidationError("give an animation, e.g. 'spring(duration: 0.5, bounce: 0.3)'") }
    if let output {
      try ChartOutput.check(output)
      if plot { throw ValidationError("--plot draws in the terminal; it cannot go with -o") }
    } else if animations.count > 1 && !Self.isKeyframe(animations[0]) {
      throw ValidationError("several animations are charted together: give -o F.png or -o F.svg")
    }
    guard fps.isFinite, fps > 0 else { throw ValidationError("--fps must be a positive number, got \(fps)") }
    guard from.isFinite else { throw ValidationError("--from must be a finite number") }
    guard to.isFinite else { throw ValidationError("--to must be a finite number") }
    if let velocity, !velocity.isFinite { throw ValidationError("--velocity must be a finite number") }
  }

  func run() throws {
    if Self.isKeyframe(animations[0]) { return try runTrack() }
    var all: [(text: String, animation: Animation)] = []
    for text in animations {
      do {
        all.append((text, try AnimationParser.parse(argument: text)))
      } catch {
        Terminal.error(Diagnostics.render(error, source: text, label: "animation"))
        throw Failure(status: .usage)
      }
    }
    if let output {
      let data = ChartData(animations: all, from: from, to: to, velocity: velocity)
      try ChartOutput.write(data, to: output, scale: scaleOption.scale, json: jsonFlag.json)
      return
    }
    let parsed = all[0].animation
    if velocity != nil, case .curve = parsed.base {
      Terminal.error("render: note: --velocity is ignored: a timing curve cannot start from a velocity (use a spring)")
    }

    var motion = Motion(from)
    motion.animate(to: to, at: 0, with: parsed, velocity: velocity)
    var out = "animation         \(parsed)\n"
    if let spring = parsed.spring {
      out += "spring            mass \(fmt(spring.mass)), stiffness \(fmt(spring.stiffness)), damping \(fmt(spring.damping))\n"
      out += "                  duration \(fmt(spring.duration)) s, bounce \(fmt(spring.bounce)), damping ratio \(fmt(spring.dampingRatio))\n"
    }
    try report(motion, label: animations[0], header: out, target: to)
  }

  /// Several arguments that are keyframes make one track, played from
  /// `--from` (moving at `--velocity`), as SwiftUI's KeyframeTrack.
  func runTrack() throws {
    var keyframes: [Keyframe<Double>] = []
    for text in animations {
      do {
        let written = try KeyframeParser.parse(argument: text)
        keyframes.append(try written.map { (value) throws(SyntaxError) in try value.number(for: "a keyframe's value in render curve") })
      } catch {
        Terminal.error(Diagnostics.render(error, source: text, label: "keyframe"))
        throw Failure(status: .usage)
      }
    }
    var motion = Motion(from)
    motion.play(keyframes, at: 0, velocity: velocity)
    let label = animations.joined(separator: " ")
    if let output {
      try ChartOutput.write(ChartData(motions: [(label, motion)], title: label), to: output, scale: scaleOption.scale, json: jsonFlag.json)
      return
    }
    let layout = motion.lastKeyframeTrack!.layout.map { "\($0.kind) \(fmt($0.start))–\(fmt($0.start + $0.duration)) s" }
    try report(motion, label: label, header: "keyframes         \(layout.joined(separator: ", "))\n", target: motion.target)
  }

  /// Prints the samples of a motion that starts at t = 0 (its only event).
  private func report(_ motion: Motion<Double>, label: String, header: String, target: Double) throws {
    let event = motion.events[0]
    let duration = event.end, settling = event.settlingDuration ?? event.end
    let times = SampleTimes(from: 0, to: duration, rate: fps)
    guard let count = times.count(limit: Self.maximumSamples) else {
      throw Failure.usage(
        "'\(animations[0])' lasts \(formatNumber(duration)) s: \(formatNumber(times.countEstimate)) samples at \(formatNumber(fps)) fps is more than the limit of \(Self.maximumSamples)"
      )
    }
    let samples = motion.samples(times, count: count)

    if jsonFlag.json {
      try Terminal.json(
        CurveSummary(
          animation: label, settlingDuration: settling, duration: duration,
          samples: samples.map { ChartSample(t: $0.time, value: $0.value, velocity: $0.velocity) }))
      return
    }

    var out = header
    out += "settling duration \(fmt(settling)) s\n"
    out += "duration          \(fmt(duration)) s (\(count) samples at \(fmt(fps)) fps)\n"
    if plot {
      out += TerminalChart.draw(samples.map { ($0.time, $0.value) }, duration: duration, from: from, to: target)
    } else {
      out += "\n" + pad("t", 12) + pad("value", 20) + pad("velocity", 20) + "\n"
      for s in samples {
        out += pad(fmt(s.time), 12) + pad(fmt(s.value), 20) + pad(fmt(s.velocity), 20) + "\n"
      }
    }
    Terminal.write(out)
  }

  /// Whether an argument is a keyframe (`LinearKeyframe(1, duration: 0.2)`,
  /// `{"linear": {"to": 1, "duration": 0.2}}`) rather than an animation.
  static func isKeyframe(_ text: String) -> Bool {
    let trimmed = text.drop { $0 == " " }
    if trimmed.first == "{" {
      guard let node = try? JSONParser.parse(text), let members = node.members, members.count == 1 else { return false }
      return KeyframeParser.isKeyframe(members[0].key) && members[0].value["to"] != nil
    }
    guard let chain = try? CallParser.parse(text) else { return false }
    return KeyframeParser.swiftUINames.contains(chain.calls[0].name)
  }

  private func fmt(_ x: Double) -> String { formatNumber(x, significantDigits: 7) }
  private func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
  }
}

/// `render curve --json`: `{"animation", "settlingDuration", "duration", "samples": [{"t", "value", "velocity"}]}`.
struct CurveSummary: Encodable {
  var animation: String
  /// The animation's base duration for this move, seconds.
  var settlingDuration: Double
  /// When it is finished for rendering, seconds.
  var duration: Double
  var samples: [ChartSample]
}

/// A value-over-time chart for a terminal: rows are values, columns time.
enum TerminalChart {
  static let width = 64
  static let height = 16

  static func draw(_ points: [(t: Double, value: Double)], duration: Double, from: Double, to: Double) -> String {
    guard !points.isEmpty, duration > 0 else { return "" }
    let values = points.map(\.value)
    let lo = min(values.min()!, from, to)
    let hi = max(values.max()!, from, to)
    let span = hi - lo == 0 ? 1 : hi - lo
    var grid = [[Character]](repeating: [Character](repeating: " ", count: width), count: height)
    func row(_ v: Double) -> Int { height - 1 - Int(((v - lo) / span * Double(height - 1)).rounded()) }
    // The target as a dotted line.
    let targetRow = row(to)
    for c in 0..<width where c % 2 == 0 { grid[targetRow][c] = "·" }
    for p in points {
      let c = min(width - 1, Int((p.t / duration * Double(width - 1)).rounded()))
      grid[row(p.value)][c] = "•"
    }
    var out = "\n"
    for (r, line) in grid.enumerated() {
      let label: String
      if r == 0 { label = short(hi) } else if r == height - 1 { label = short(lo) } else if r == targetRow { label = short(to) } else { label = "" }
      out += String(repeating: " ", count: max(0, 9 - label.count)) + label + " │" + String(line) + "\n"
    }
    out += String(repeating: " ", count: 10) + "└" + String(repeating: "─", count: width) + "\n"
    let end = short(duration) + " s"
    out += String(repeating: " ", count: 11) + "0" + String(repeating: " ", count: max(1, width - 1 - end.count)) + end + "\n"
    return out
  }

  private static func short(_ x: Double) -> String {
    let r = (x * 1000).rounded() / 1000
    return r == 0 ? "0" : "\(r)"
  }
}
