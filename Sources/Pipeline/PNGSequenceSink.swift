import Foundation
import PNGCodec
import Raster
import Synchronization

/// A PNG sequence: `FOLDER/NAME_00000.png…` (five digits, more when needed)
/// or a printf-style pattern with `%05d` (or `%d`). Frames are compressed
/// and written on the worker threads, each to a temporary file, and renamed
/// into place only when the whole sequence is complete.
public final class PNGSequenceSink: FrameSink {
  public let schedule: FrameSchedule
  /// Where frame i goes.
  let names: @Sendable (Int) -> String
  let display: String
  private let written = Mutex<[Int: TemporaryFile]>([:])
  private let bytes = Atomic<Int>(0)

  /// `pattern` contains one `%d` or `%0Nd`; without one, frames go into the
  /// folder `pattern` as `NAME_00000.png`.
  public init(schedule: FrameSchedule, folder: String, name: String) {
    self.schedule = schedule
    let digits = max(5, String(max(0, schedule.count - 1)).count)
    names = { i in
      let number = String(i)
      return Self.frameFile(folder: folder, name: name, number: String(repeating: "0", count: max(0, digits - number.count)) + number)
    }
    display = folder.hasSuffix("/") ? folder : folder + "/"
  }

  /// Frame `number`'s file in a folder of scene `name`'s frames:
  /// `FOLDER/NAME_00042.png`.
  static func frameFile(folder: String, name: String, number: String) -> String {
    (folder as NSString).appendingPathComponent(name + "_" + number + ".png")
  }

  /// One still: the schedule must be one frame (every frame would be the
  /// same file).
  public init(schedule: FrameSchedule, file: String) {
    precondition(schedule.count == 1, "a single PNG file holds one frame")
    self.schedule = schedule
    names = { _ in file }
    display = file
  }

  public init(schedule: FrameSchedule, pattern: String) throws(OutputError) {
    self.schedule = schedule
    guard let spec = Self.parse(pattern) else {
      throw OutputError(path: pattern, message: "a PNG sequence pattern needs exactly one %d or %0Nd (e.g. frames/f_%05d.png)")
    }
    names = { i in
      let number = String(i)
      return spec.prefix + String(repeating: "0", count: max(0, spec.width - number.count)) + number + spec.suffix
    }
    display = pattern
  }

  /// `prefix%0Nd suffix` → (prefix, N, suffix).
  static func parse(_ pattern: String) -> (prefix: String, width: Int, suffix: String)? {
    guard let percent = pattern.range(of: "%") else { return nil }
    var rest = pattern[percent.upperBound...]
    var widthText = ""
    while let c = rest.first, c.isNumber {
      widthText.append(c)
      rest = rest.dropFirst()
    }
    guard rest.first == "d" else { return nil }
    let suffix = String(rest.dropFirst())
    guard !suffix.contains("%") else { return nil }
    return (String(pattern[..<percent.lowerBound]), Int(widthText) ?? 0, suffix)
  }

  /// Writes the frame to its temporary file.
  public func prepare(_ rendered: RenderedFrame, index: Int) throws {
    let frame = rendered.pixmap
    let destination = names(index)
    let file = try TemporaryFile(for: destination)
    written.withLock { $0[index] = file }
    do {
      try PNG.write(frame, to: file.path)
      bytes.add(fileSize(atPath: file.path), ordering: .relaxed)
    } catch {
      throw OutputError(path: destination, message: "\(error)")
    }
  }

  public func consume(_ frame: Void, index: Int) throws {}

  public func finish() throws -> OutputSummary? {
    let files = written.withLock { $0 }
    for i in files.keys.sorted() { try files[i]!.commit() }
    written.withLock { $0 = [:] }
    let isStill = files.count == 1 && files.first?.value.destination == display
    let frameFiles = isStill ? [] : files.keys.sorted().map { files[$0]!.destination }
    return OutputSummary(path: display, format: "png", frames: files.count, bytes: bytes.load(ordering: .relaxed), files: frameFiles)
  }

  public func abort() {
    written.withLock { files in
      for file in files.values { file.remove() }
      files = [:]
    }
  }
}
