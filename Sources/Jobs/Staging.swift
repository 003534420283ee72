import Foundation
import Pipeline

/// Outputs written to hidden files beside their destinations and renamed
/// into place together once every one is complete: a render of several
/// outputs, or of any under a size budget, that fails or is interrupted
/// leaves none of them, and no output it would have replaced is touched.
public final class Staging: Sendable {
  /// Destination → its hidden file.
  let hiddenFiles: [String: String]
  /// The destinations, in the order of the targets.
  let order: [String]

  /// Hidden files for `targets`' destinations (one file each):
  /// `.NAME.PID.staged.EXT` in the same folder, so the rename stays on
  /// one file system.
  public init(_ targets: [OutputTarget]) {
    var files: [String: String] = [:]
    for target in targets {
      let destination = target.destination.path
      let url = URL(fileURLWithPath: destination)
      files[destination] =
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).staged.\(target.format.fileExtension)").path
    }
    hiddenFiles = files
    order = targets.map(\.destination.path)
  }

  /// The target writing to its hidden file instead (targets not staged
  /// stay as they are).
  public func hidden(_ target: OutputTarget) -> OutputTarget {
    guard case .file(let path) = target.destination, let hidden = hiddenFiles[path] else { return target }
    return OutputTarget(format: target.format, destination: .file(hidden))
  }

  /// The destination a hidden file stands for, for messages.
  public func shown(_ path: String) -> String {
    hiddenFiles.first { $0.value == path }?.key ?? path
  }

  /// Renames every hidden file into place and points `outputs` at the
  /// destinations; if one cannot be renamed, the rest are removed.
  public func commit(_ outputs: inout [OutputSummary]) throws(JobError) {
    for destination in order {
      let hidden = hiddenFiles[destination]!
      if rename(hidden, destination) != 0 {
        let reason = String(cString: strerror(errno))
        discard()
        throw .output("\(destination): cannot write: \(reason)")
      }
      for i in outputs.indices where outputs[i].path == hidden {
        outputs[i].path = destination
        outputs[i].bytes = fileSize(atPath: destination)
      }
    }
  }

  /// Removes every hidden file still there.
  public func discard() { for path in hiddenFiles.values { unlink(path) } }
}
