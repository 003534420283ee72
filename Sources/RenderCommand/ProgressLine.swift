import Foundation
import Pipeline

/// `NAME: 120/480 frames  58.3 fps  0:06 left` on standard error, redrawn
/// at most ten times a second, only on a terminal.
final class ProgressLine {
  let label: String
  let enabled: Bool
  var lastDraw = -1.0
  var drawn = false

  init(label: String, enabled: Bool) { self.label = label; self.enabled = enabled }

  func update(_ p: FramePipeline.Progress) {
    guard enabled, p.elapsed - lastDraw >= 0.1 || p.done == p.total else { return }
    lastDraw = p.elapsed
    let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
    let left = rate > 0 ? Int((Double(p.total - p.done) / rate).rounded(.up)) : 0
    let text = String(format: "%@: %d/%d frames  %.1f fps  %d:%02d left", label, p.done, p.total, rate, left / 60, left % 60)
    FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
    drawn = true
  }

  func finish() {
    if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    drawn = false
  }

}
