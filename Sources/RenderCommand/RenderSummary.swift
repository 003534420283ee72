import Foundation
import Jobs
import Pipeline
import Raster
import Review

/// What one render wrote (`--json`).
struct RenderSummary: Encodable {
  var scene: String
  var frames: Int
  /// Wall-clock seconds, to the millisecond.
  var seconds: Double
  /// The process's peak resident set size so far.
  var peakMemoryBytes = Self.peakResidentBytes
  var outputs: [OutputSummary]
  /// With `--overlay`: where each part of the frame is.
  var overlay: OverlayGeometry?
  /// `render compare`: each panel's label, scene file and pixels.
  var panels: [CompareSummaryPanel]?

  init(scene: String, frames: Int, seconds: Double, outputs: [OutputSummary]) {
    self.scene = scene; self.frames = frames; self.seconds = (seconds * 1000).rounded() / 1000; self.outputs = outputs
  }

  static var peakResidentBytes: Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  }
}

/// `"overlay"` in a render's `--json`: where the scene's pixels and each
/// burn-in are, and the plot area the playhead crosses, in output pixels.
struct OverlayGeometry: Encodable {
  struct Plot: Encodable {
    var rect: [Double]
    var t: [Double]
  }
  var scene: [Int]
  var timecode: [Int]?
  var chart: [Int]?
  var plot: Plot?

  init(_ overlay: ReviewOverlay) {
    func rect(_ r: PixelRect) -> [Int] { [r.x0, r.y0, max(0, r.width), max(0, r.height)] }
    scene = rect(overlay.scene)
    timecode = overlay.timecode.map(rect)
    chart = overlay.chart.map(rect)
    plot = overlay.plot.map { Plot(rect: [$0.rect.origin.x, $0.rect.origin.y, $0.rect.size.x, $0.rect.size.y], t: [$0.t0, $0.t1]) }
  }
}
