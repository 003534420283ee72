import DisplayListFixtures
import Foundation
import PNGCodec
import Primitives
import Raster

// The rasterizer's benchmark (not a test): typical 1920×1080 UI frames and
// the primitives one by one, timed against a full-frame clear measured in
// the same run. `--emit DIR` also writes every workload as JSON (for
// scripts/skia_frames.py, which draws the same operations with Skia) and
// our rendering of each as PNG.
//
//   swift run -c release raster-benchmark [--frames N] [--emit DIR]

var frames = 30
var emitFolder: String?
var only: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--frames": frames = Int(arguments.popFirst() ?? "") ?? frames
  case "--emit": emitFolder = arguments.popFirst()
  case "--only": only = arguments.popFirst()
  default:
    FileHandle.standardError.write(Data("usage: raster-benchmark [--frames N] [--emit DIR] [--only WORKLOAD]\n".utf8))
    exit(2)
  }
}

let clock = ContinuousClock()
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }

/// Median seconds per run of `body` over `runs` runs (after one warm-up).
func measure(runs: Int, _ body: (Int) -> Void) -> Double {
  body(0)
  var times: [Double] = []
  for i in 0..<runs { times.append(seconds(clock.measure { body(i + 1) })) }
  return times.sorted()[times.count / 2]
}

let width = 1920, height = 1080
let megapixels = Double(width * height) / 1e6
var sink = 0

let clearTime = measure(runs: frames * 4) { _ in
  let p = Pixmap(width: width, height: height, fill: RGBA8(r: 242, g: 242, b: 247, a: 255))
  sink &+= Int(p.bytes[p.bytes.count / 2])
}

struct Workload {
  let name: String
  let make: (Int) -> DisplayList
}

func primitives(_ name: String, _ ops: @escaping (Int) -> [DisplayList.Op]) -> Workload {
  Workload(name: name) { frame in
    DisplayList(width: width, height: height, background: Color(hex: "#F2F2F7")!, ops: ops(frame))
  }
}

let palette = Frames.palette

func circles(_ f: Int) -> [DisplayList.Op] {
  (0..<40).map { (i: Int) -> DisplayList.Op in
    let center = Point(100 + Double(i % 10) * 180 + Double(f), 150 + Double(i / 10) * 250)
    return .fill(.circle(center: center, radius: 80), palette[i % 8])
  }
}
func roundedRects(_ f: Int) -> [DisplayList.Op] {
  (0..<40).map { (i: Int) -> DisplayList.Op in
    let x = 40 + Double(i % 10) * 185 + Double(f) * 0.5
    let y = 60 + Double(i / 10) * 250
    return .fill(.roundedRect(Rect(x: x, y: y, width: 170, height: 220), radius: 24), palette[i % 8])
  }
}
func gradient(_ f: Int) -> [DisplayList.Op] {
  let stops: [(Double, Color)] = [(0, palette[0]), (0.5, palette[3]), (1, palette[4])]
  return [.linearGradient(.rect(Rect(x: 0, y: 0, width: 1920, height: 1080)), from: Point(Double(f), 0), to: Point(1920, 1080), stops: stops)]
}
func curves(_ f: Int) -> [DisplayList.Op] {
  (0..<40).map { (i: Int) -> DisplayList.Op in
    let y = 30 + Double(i) * 26
    let elements: [[Double]] = [[0, 40, y], [2, 600, y - 80 + Double(f), 1200, y + 80, 1880, y]]
    return .stroke(.path(elements), .init(color: palette[i % 8], width: 4, cap: .round, join: .round))
  }
}
func shadowedCard(_ f: Int) -> [DisplayList.Op] {
  let card = Rect(x: 560 + Double(f), y: 240, width: 800, height: 600)
  return [.shadowed(.roundedRect(card, radius: 32), .white, shadow: Color(red: 0, green: 0, blue: 0, alpha: 0.3), sigma: 16, offset: Vector2(0, 10))]
}

let workloads: [Workload] = [
  Workload(name: "ui-frame") { Frames.ui(frame: $0) },
  primitives("40-circles", circles),
  primitives("40-rounded-rects", roundedRects),
  primitives("gradient-full-frame", gradient),
  primitives("40-stroked-curves", curves),
  primitives("shadowed-card", shadowedCard),
]

print("raster benchmark, \(width)×\(height), median of \(frames) frames")
print("baseline: full-frame clear \(String(format: "%.3f", clearTime * 1000)) ms (\(String(format: "%.0f", megapixels / clearTime)) MP/s)")
print("")
print("workload".padding(toLength: 22, withPad: " ", startingAt: 0) + "   ms/frame      fps     MP/s   × clear")
for workload in workloads where only == nil || workload.name == only {
  let time = measure(runs: frames) { i in
    let pixmap = workload.make(i).draw()
    sink &+= Int(pixmap.bytes[pixmap.bytes.count / 2])
  }
  let line =
    workload.name.padding(toLength: 22, withPad: " ", startingAt: 0)
    + String(format: " %10.2f %8.1f %8.0f %9.1f", time * 1000, 1 / time, megapixels / time, time / clearTime)
  print(line)
  if let emitFolder {
    try FileManager.default.createDirectory(atPath: emitFolder, withIntermediateDirectories: true)
    let data = try JSONSerialization.data(withJSONObject: workload.make(0).json, options: [.sortedKeys])
    try data.write(to: URL(fileURLWithPath: "\(emitFolder)/\(workload.name).json"))
    try PNG.write(workload.make(0).draw(), to: "\(emitFolder)/\(workload.name).springframe.png")
  }
}
if sink == 42 { print("") }
