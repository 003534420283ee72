internal import CFFmpeg
internal import CFFmpegShim
import Primitives

/// A video that could not be written, read or decoded. When FFmpeg
/// reported the failure, `message` carries FFmpeg's own words (av_strerror's
/// text and any error FFmpeg logged meanwhile).
public typealias VideoError = FileError

/// FFmpeg's logging, routed once per process into per-thread error capture
/// (see `spf_av_log_capture_install`): nothing is printed to standard error.
private let logCaptureInstalled: Bool = {
  spf_av_log_capture_install()
  return true
}()

/// Helpers shared by the writer and the probe.
enum FFmpeg {
  static let eagain = spf_averror_eagain()
  static let eof = spf_averror_eof()
  static let noPTS = spf_av_nopts_value()

  /// Opens FFmpeg's libraries, once per process (they are not linked: see
  /// CFFmpegShim/FFmpegLoader.c); every way into FFmpeg calls this first,
  /// so a machine without them gets an error about `path`.
  static func load(_ path: String) throws(VideoError) {
    guard let why = spf_ffmpeg_load() else { return }
    throw VideoError(
      path: path,
      message: "FFmpeg's libraries could not be opened (\(String(cString: why))); install FFmpeg's shared libraries to write or read videos")
  }

  /// Installs the log capture (once) and forgets this thread's earlier errors.
  static func beginCapture() {
    _ = logCaptureInstalled
    spf_av_log_errors_clear()
  }

  /// av_strerror's text for `code`.
  static func string(for code: Int32) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
      spf_av_strerror(code, buffer.baseAddress!, buffer.count)
      return String(cString: buffer.baseAddress!)
    }
  }

  /// The errors FFmpeg logged on this thread since `beginCapture`.
  static func loggedErrors() -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer in
      spf_av_log_errors(buffer.baseAddress!, buffer.count)
      return String(cString: buffer.baseAddress!)
    }
  }

  /// `"<what>: <av_strerror text> (<logged errors>)"` for `path`.
  static func error(_ path: String, _ what: String, _ code: Int32) -> VideoError {
    var message = "\(what): \(string(for: code))"
    let logged = loggedErrors()
    if !logged.isEmpty { message += " (\(logged))" }
    return VideoError(path: path, message: message)
  }

  /// A failure FFmpeg did not give a code for (any logged errors appended).
  static func error(_ path: String, _ what: String) -> VideoError {
    let logged = loggedErrors()
    return VideoError(path: path, message: logged.isEmpty ? what : "\(what) (\(logged))")
  }
}
