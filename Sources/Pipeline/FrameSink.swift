import Foundation
import Primitives
import Raster

/// One file or folder written by a render.
public struct OutputSummary: Sendable, Hashable, Codable {
  public var path: String
  public var format: String
  public var frames: Int
  public var bytes: Int
  /// A sequence's frame files, in order (not in `--json`: `batch` lists them).
  public var files: [String] = []
  public init(path: String, format: String, frames: Int, bytes: Int, files: [String] = []) {
    self.path = path; self.format = format; self.frames = frames; self.bytes = bytes; self.files = files
  }
  enum CodingKeys: String, CodingKey { case path, format, frames, bytes }

  /// A size for people: B, kB (10³) or MB (10⁶), as messages print it.
  public static func size(_ n: Int) -> String {
    n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : n >= 1000 ? String(format: "%.0f kB", Double(n) / 1e3) : "\(n) B"
  }
}

/// A destination for frames: an MP4, a GIF, a PNG sequence, or nothing.
///
/// The pipeline calls `prepare` on worker threads, concurrently and in any
/// order (so conversion and compression run on all cores), and `consume` on
/// one thread in frame order (the encoder), with what `prepare` made of the
/// same frame. `finish` completes the output and renames it into place;
/// `abort` removes whatever was written.
public protocol FrameSink: AnyObject, Sendable {
  /// What the sink makes of a rendered frame off the writer's thread
  /// (converted YUV planes, quantized indices, nothing for files already
  /// written).
  associatedtype Prepared: Sendable

  var schedule: FrameSchedule { get }
  /// Scene times to render before the main pass (a GIF's palette is chosen
  /// from them); none by default.
  var sampleTimes: [Double] { get }
  /// One rendered sample, in the order of `sampleTimes`, one at a time (so
  /// that what a sink builds from them, like a GIF palette, does not depend
  /// on which worker finished first).
  func sample(_ frame: Pixmap) throws
  /// After the samples, before the first frame.
  func setUp() throws
  /// Before the first frame: the pipeline starts frame i's job only once
  /// every job at least `framesInFlight` jobs before it has been consumed,
  /// so a sink may keep that many buffers and reuse them in turn.
  func willRender(framesInFlight: Int) throws
  /// A rendered frame, with its tiles' digests (`RenderedFrame`): a sink
  /// may reuse the work it did for equal tiles of earlier frames.
  func prepare(_ frame: RenderedFrame, index: Int) throws -> Prepared
  /// Work to do on each tile of frame `index` as soon as it is drawn, on
  /// the worker drawing it, before `prepare`; none by default.
  func tileDrawn(index: Int) -> ((DrawnTile) -> Void)?
  func consume(_ frame: Prepared, index: Int) throws
  func finish() throws -> OutputSummary?
  func abort()
}

extension FrameSink {
  public var sampleTimes: [Double] { [] }
  public func sample(_ frame: Pixmap) throws {}
  public func setUp() throws {}
  public func willRender(framesInFlight: Int) throws {}
  public func tileDrawn(index: Int) -> ((DrawnTile) -> Void)? { nil }
}

/// An error of an output, with the file it concerns.
public typealias OutputError = FileError

/// A temporary file beside its destination, renamed into place when
/// complete; its name starts with a dot and ends in `.tmp`.
public struct TemporaryFile: Sendable {
  public let destination: String
  public let path: String

  public init(for destination: String) throws(OutputError) {
    self.destination = destination
    let url = URL(fileURLWithPath: destination)
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw OutputError(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
    }
    path = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
  }

  /// Renames the temporary file into place.
  public func commit() throws(OutputError) {
    guard rename(path, destination) == 0 else {
      let reason = String(cString: strerror(errno))
      remove()
      throw OutputError(path: destination, message: "cannot write: \(reason)")
    }
  }

  public func remove() { unlink(path) }

  /// The destination's size in bytes (once committed).
  public var size: Int { fileSize(atPath: destination) }

  /// Writes `destination` through a temporary file: `body` writes the file
  /// at the path it is given; the file is renamed into place if `body`
  /// succeeds and removed if it throws.
  public static func write(to destination: String, _ body: (String) throws -> Void) throws {
    let file = try TemporaryFile(for: destination)
    do {
      try body(file.path)
    } catch {
      file.remove()
      throw error
    }
    try file.commit()
  }
}

/// A file's size in bytes; 0 when it cannot be read.
public func fileSize(atPath path: String) -> Int {
  var s = stat()
  return stat(path, &s) == 0 ? Int(s.st_size) : 0
}

/// Discards every frame (`--null`): for timing the renderer.
public final class NullSink: FrameSink {
  public let schedule: FrameSchedule
  public init(schedule: FrameSchedule) { self.schedule = schedule }
  public func prepare(_ frame: RenderedFrame, index: Int) throws {}
  public func consume(_ frame: Void, index: Int) throws {}
  public func finish() throws -> OutputSummary? { nil }
  public func abort() {}
}
