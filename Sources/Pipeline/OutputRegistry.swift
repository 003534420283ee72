import Foundation
import GIFOutput
import Primitives
import Raster
import Syntax
import VideoOutput

/// Where an output goes, as `-o` names it.
public enum OutputDestination: Sendable, Hashable {
  /// One file: `renders/x.mp4`, `hello.gif`, `still.png`.
  case file(String)
  /// A folder of numbered frames, `NAME_00000.png…` (`frames/`).
  case folder(String)
  /// Numbered frames by a printf pattern (`f_%05d.png`).
  case pattern(String)

  /// The path as given, for messages.
  public var path: String {
    switch self {
    case .file(let path), .folder(let path), .pattern(let path): path
    }
  }
}

/// What a sink needs besides its destination: what every format needs
/// (the frames' times and size, transparency, the name of numbered frames,
/// the matte) and the encoder choices, of which each format reads the ones
/// it takes (`OutputFormat.options`).
public struct OutputSettings: Sendable {
  /// Which scene times the output shows.
  public var schedule: FrameSchedule
  /// Frame size in pixels.
  public var width: Int
  public var height: Int
  /// The frames' background is transparent.
  public var transparent: Bool
  /// The source's name: numbered frames in a folder are `NAME_00000.png`.
  public var name: String
  /// `--matte`: the colour outputs without (full) alpha composite a
  /// transparent scene over (MP4: black without it; GIF: only partly
  /// transparent pixels).
  public var matte: PremultipliedColor? = nil
  public var encoding: EncoderChoices

  public init(
    schedule: FrameSchedule, width: Int, height: Int, transparent: Bool, name: String, matte: PremultipliedColor? = nil,
    encoding: EncoderChoices = EncoderChoices()
  ) {
    self.schedule = schedule; self.width = width; self.height = height; self.transparent = transparent; self.name = name
    self.matte = matte; self.encoding = encoding
  }
}

/// An encoder option a render can give (docs/cli.md); each format says
/// which ones it takes.
public enum FormatOption: String, Sendable, CaseIterable {
  /// `--crf` and `--preset`: H.264's quality and speed.
  case crf, preset
  /// `--quality`: lossy at this quality (WebP).
  case quality
}

/// The encoder choices of a render: what the options say, and the colour
/// step `--max-size` has lowered to.
public struct EncoderChoices: Sendable, Hashable {
  /// H.264's constant rate factor and x264 preset (`FormatOption.crf`, `.preset`).
  public var crf = MP4Options().crf
  public var preset = MP4Options().preset
  /// Lossy quality 0 … 100; nil for the format's default (`FormatOption.quality`).
  public var quality: Double?
  /// The colours `--max-size` lowered to, if it did.
  public var colours: ColourStep?

  public init(crf: Double = MP4Options().crf, preset: String = MP4Options().preset, quality: Double? = nil, colours: ColourStep? = nil) {
    self.crf = crf; self.preset = preset; self.quality = quality; self.colours = colours
  }
}

/// The last lever of a size budget, after the frame rate and the scale:
/// fewer colours.
public enum ColourStep: Sendable, Hashable {
  /// A palette of at most this many opaque colours (GIF).
  case palette(Int)
  /// Lossy at this quality (WebP).
  case quality(Double)

  /// "64 colours", "quality 60", for messages.
  public var description: String {
    switch self {
    case .palette(let n): "\(n) colours"
    case .quality(let q): "quality \(formatNumber(q))"
    }
  }
}

/// How an output format keeps within a size (`--max-size`): lower rates,
/// then smaller scales, then its colour steps, each only as far as needed.
public struct SizeBudget: Sendable {
  /// Frame rates tried below the output's own, highest first.
  public var rates = [30, 24, 20, 15]
  /// Fractions of the output's own scale tried, largest first.
  public var scales = [0.85, 0.7, 0.6, 0.5]
  /// The colour steps, from the render's own quality (nil: the default).
  public var colours: @Sendable (_ quality: Double?) -> [ColourStep]
}

/// An output format: the name `--format` gives it, the file extension that
/// picks it from `-o`, and how its sink is made. Adding a format is adding
/// one here (with its sink); the command line reads this table.
public struct OutputFormat: Sendable {
  public let name: String
  /// `-o` of a file with this extension writes this format.
  public let fileExtension: String
  /// A folder or a `%d` pattern is a sequence of this format's files.
  public let writesSequences: Bool
  /// What a single file of it holds, for help and messages.
  public let summary: String
  /// A transparent background stays transparent (else it becomes black).
  public var keepsTransparency = true
  /// The highest frame rate it plays at its real speed (a faster render is
  /// sampled at this rate: `FrameSchedule.capped(at:)`).
  public var maximumFrameRate: Int? = nil
  /// Bytes above which the file is too big to attach to a pull request.
  public var shareLimit: Int? = nil
  /// The encoder options it takes.
  public var options: Set<FormatOption> = []
  /// How it keeps under `--max-size`; nil: it cannot.
  public var sizeBudget: SizeBudget? = nil
  let makeSink: @Sendable (OutputDestination, OutputSettings) throws(OutputError) -> any FrameSink

  /// What this output will lose of the scene as `settings` render it
  /// (docs/cli.md: warnings, the exit status unchanged).
  public func losses(_ settings: OutputSettings) -> [String] {
    var losses: [String] = []
    if settings.transparent && !keepsTransparency && settings.matte == nil {
      let names = OutputFormats.all.filter(\.keepsTransparency).map { $0.name.uppercased() }
      let keeping = names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
      losses.append("\(summary) has no transparency: the transparent background becomes black (\(keeping) keep it)")
    }
    if let maximumFrameRate, case let capped = settings.schedule.capped(at: maximumFrameRate), capped.rate != settings.schedule.rate {
      losses.append(
        "\(summary) plays at most \(maximumFrameRate) fps (shorter frame delays play slowly in browsers): sampled at \(capped.rate) fps, not \(settings.schedule.rate)"
      )
    }
    return losses
  }

  /// Why a file of `bytes` is hard to share, if it is.
  public func sizeWarning(bytes: Int) -> String? {
    guard let shareLimit, bytes > shareLimit else { return nil }
    return
      "it is \(OutputSummary.size(bytes)), over GitHub's \(formatNumber(Double(shareLimit) / 1e6)) MB limit for attachments (lower --scale, --fps or the length)"
  }

  /// The sink that writes this format to `destination`.
  public func sink(to destination: OutputDestination, _ settings: OutputSettings) throws(OutputError) -> any FrameSink {
    try makeSink(destination, settings)
  }
}

/// Every output format the renderer writes.
public enum OutputFormats {
  /// H.264 in MP4 (libx264), BT.709.
  public static let mp4 = OutputFormat(
    name: "mp4", fileExtension: "mp4", writesSequences: false, summary: "an H.264 video", keepsTransparency: false, options: [.crf, .preset]
  ) {
    destination, s throws(OutputError) in
    guard case .file(let path) = destination else { throw OutputError(path: destination.path, message: "an MP4 is one file") }
    return try MP4Sink(
      schedule: s.schedule, path: path, width: s.width, height: s.height, options: MP4Options(crf: s.encoding.crf, preset: s.encoding.preset),
      matte: s.transparent ? s.matte.map { Matte(color: $0) } : nil)
  }

  /// An animated GIF (our encoder): at most 50 fps, loops forever.
  public static let gif = OutputFormat(
    name: "gif", fileExtension: "gif", writesSequences: false, summary: "an animated GIF", maximumFrameRate: Int(GIFTiming.maxFrameRate),
    shareLimit: 10_000_000, sizeBudget: SizeBudget { _ in [128, 64, 32].map { .palette($0) } }
  ) {
    destination, s throws(OutputError) in
    guard case .file(let path) = destination else { throw OutputError(path: destination.path, message: "a GIF is one file") }
    return try GIFSink(
      schedule: s.schedule, path: path, width: s.width, height: s.height, transparent: s.transparent,
      matte: s.transparent ? s.matte.map { Matte(color: $0, keepsClear: true) } : nil, colors: s.encoding.palette ?? GIFPalette.maxOpaqueColors)
  }

  /// PNG frames: a sequence in a folder or by a pattern, or one still.
  public static let png = OutputFormat(name: "png", fileExtension: "png", writesSequences: true, summary: "one still (a PNG)") {
    destination, s throws(OutputError) in
    switch destination {
    case .file(let path): PNGSequenceSink(schedule: s.schedule, file: path)
    case .folder(let folder): PNGSequenceSink(schedule: s.schedule, folder: folder, name: s.name)
    case .pattern(let pattern): try PNGSequenceSink(schedule: s.schedule, pattern: pattern)
    }
  }

  /// ProRes 4444 in QuickTime (prores_ks, `ap4h`, `yuva444p10le`, straight
  /// alpha, BT.709): for Final Cut, Motion and Keynote.
  public static let mov = OutputFormat(name: "mov", fileExtension: "mov", writesSequences: false, summary: "a ProRes 4444 movie") {
    destination, s throws(OutputError) in
    guard case .file(let path) = destination else { throw OutputError(path: destination.path, message: "a movie is one file") }
    return try EncodedVideoSink(schedule: s.schedule, path: path, width: s.width, height: s.height, profile: .proRes4444, format: "mov")
  }

  /// VP9 in WebM (libvpx-vp9, BT.709), with alpha (`yuva420p`) when the
  /// background is transparent: for web pages.
  public static let webm = OutputFormat(name: "webm", fileExtension: "webm", writesSequences: false, summary: "a VP9 WebM video") {
    destination, s throws(OutputError) in
    guard case .file(let path) = destination else { throw OutputError(path: destination.path, message: "a WebM video is one file") }
    return try EncodedVideoSink(
      schedule: s.schedule, path: path, width: s.width, height: s.height, profile: .vp9(alpha: s.transparent), format: "webm")
  }

  /// Animated PNG (FFmpeg's apng encoder and muxer): lossless, with alpha,
  /// loops forever, each frame 1/fps exactly.
  public static let apng = OutputFormat(
    name: "apng", fileExtension: "apng", writesSequences: false, summary: "an animated PNG", shareLimit: 10_000_000
  ) {
    destination, s throws(OutputError) in
    guard case .file(let path) = destination else { throw OutputError(path: destination.path, message: "an APNG is one file") }
    return try EncodedVideoSink(
      schedule: s.schedule, path: path, width: s.width, height: s.height, profile: .apng(alpha: s.transparent), format: "apng")
  }

  /// An animated WebP (libwebp): lossless unless a quality is given, with
  /// alpha, at most 50 fps, loops forever.
  public static let webp = OutputFormat(
    name: "webp", fileExtension: "webp", writesSequences: false, summary: "an animated WebP", maximumFrameRate: WebPSink.maximumFrameRate,
    shareLimit: 10_000_000, options: [.quality],
    sizeBudget: SizeBudget { quality in [90.0, 75, 60, 45, 30].filter { $0 < (quality ?? 101) }.map { .quality($0) } }
  ) {
    destination, s throws(OutputError) in
    guard case .file(let path) = destination else { throw OutputError(path: destination.path, message: "a WebP is one file") }
    return try WebPSink(schedule: s.schedule, path: path, width: s.width, height: s.height, options: WebPOptions(quality: s.encoding.lossyQuality))
  }

  public static let all = [mp4, gif, png, webp, apng, mov, webm]

  public static func named(_ name: String) -> OutputFormat? { all.first { $0.name == name } }
  public static var names: [String] { all.map(\.name) }
}

/// One output of a render: a format at a destination.
public struct OutputTarget: Sendable {
  public var format: OutputFormat
  public var destination: OutputDestination

  public init(format: OutputFormat, destination: OutputDestination) {
    self.format = format
    self.destination = destination
  }

  /// A single file of a sequence format: one frame (`-o still.png`).
  public var isStill: Bool {
    if case .file = destination { return format.writesSequences }
    return false
  }

  /// The outputs `-o OUTPUT` and `--format a,b` name: with formats, `-o`
  /// is the folder they go into (default `folder`), each as NAME.EXT or, for
  /// a sequence format, numbered frames in the folder; without, `-o` is a
  /// file whose extension picks the format, a folder (ending in `/`, or
  /// existing) of numbered PNG frames, or a `%d` pattern; with neither,
  /// `folder/NAME.mp4`. Errors are usage errors: their `message` says all.
  public static func targets(name: String, output: String?, formats: [String]?, folder: String) throws(OutputError) -> [OutputTarget] {
    func isFolder(_ p: String) -> Bool {
      var d: ObjCBool = false
      return p.hasSuffix("/") || (FileManager.default.fileExists(atPath: p, isDirectory: &d) && d.boolValue)
    }
    let ext = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? ""
    if let formats {
      if let output, !isFolder(output), !ext.isEmpty {
        throw OutputError(path: output, message: "with --format, -o names a folder (ending in /), not '\(output)'")
      }
      let dir = output ?? folder
      return try formats.map { formatName throws(OutputError) in
        guard let format = OutputFormats.named(formatName) else { throw OutputError(path: formatName, message: "unknown format") }
        return OutputTarget(
          format: format, destination: format.writesSequences ? .folder(dir) : .file((dir as NSString).appendingPathComponent(fileName(name, format)))
        )
      }
    }
    guard let output else {
      let path = (folder as NSString).appendingPathComponent(fileName(name, OutputFormats.mp4))
      return [OutputTarget(format: OutputFormats.mp4, destination: .file(path))]
    }
    let sequence = OutputFormats.all.first(where: \.writesSequences) ?? OutputFormats.png
    if isFolder(output) { return [OutputTarget(format: sequence, destination: .folder(output))] }
    guard let format = OutputFormats.all.first(where: { $0.fileExtension == ext }) else {
      let kinds = OutputFormats.all.map { "." + $0.fileExtension }.joined(separator: ", ")
      throw OutputError(
        path: output, message: "cannot tell the format of -o '\(output)': use \(kinds), a folder ending in / or a pattern such as frames/f_%05d.png")
    }
    if format.writesSequences && output.contains("%") { return [OutputTarget(format: format, destination: .pattern(output))] }
    return [OutputTarget(format: format, destination: .file(output))]
  }

  static func fileName(_ name: String, _ format: OutputFormat) -> String { name + "." + format.fileExtension }

  /// What this output of the scene `name` writes, as one path: the file,
  /// or the pattern its numbered frames follow (`%d` for the number). Two
  /// outputs with the same claim would overwrite each other.
  public func claim(name: String) -> String {
    let path: String
    switch destination {
    case .file(let file): path = file
    case .folder(let folder): path = PNGSequenceSink.frameFile(folder: folder, name: name, number: "%d")
    case .pattern(let pattern): path = pattern
    }
    return URL(fileURLWithPath: path).standardizedFileURL.path
  }
}

extension EncoderChoices {
  /// A GIF's palette size, when `--max-size` lowered it.
  public var palette: Int? {
    if case .palette(let n) = colours { return n }
    return nil
  }
  /// A WebP's lossy quality: `--max-size`'s step, else `--quality`.
  public var lossyQuality: Double? {
    if case .quality(let q) = colours { return q }
    return quality
  }
}
