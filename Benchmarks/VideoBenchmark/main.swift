import CMalloc
import Foundation
import PNGCodec
import PortableMath
import Primitives
import Raster
import VideoOutput

// The video encoder's benchmark (not a test): N synthetic 1920×1080 frames
// (a moving gradient and shapes, drawn once before timing) through
// `YUVConverter.bt709` alone, through `MP4Writer` alone (frames converted
// beforehand), and through both, as the pipeline will run them. Prints
// frames per second and the file size.
//
//   swift run -c release video-benchmark [--frames N] [--crf X] [--preset P]
//        [--threads T] [--size WxH] [--output PATH] [--rounds R] [--psnr]
//
// `--png-dir DIR` encodes the PNG frames in DIR (sorted by name) instead:
// scripts/bench-pipeline uses it for "x264 alone" on a scene's own frames.
//
// `--psnr` also decodes the file (MediaProbe, BT.709) and prints the RGB
// PSNR against the source frames, the worst pixel error (4:2:0 chroma at
// coloured edges dominates it) and the PSNR of BT.709 luma (the encoder's loss).

// The allocator as `render` sets it (RenderCommand's Entry): "x264 alone"
// is measured under the same malloc as the end-to-end render it is the
// baseline of.
mallopt(M_MMAP_THRESHOLD, 256 << 20)
mallopt(M_TRIM_THRESHOLD, 512 << 20)

var frameCount = 120
var options = MP4Options()
var width = 1920, height = 1080
var output = FileManager.default.temporaryDirectory.appendingPathComponent("video-benchmark.mp4").path
var rounds = 3
var measureQuality = false
var pngFolder: String?
var arguments = CommandLine.arguments.dropFirst()
func usage() -> Never {
  FileHandle.standardError.write(
    Data(
      "usage: video-benchmark [--frames N] [--crf X] [--preset P] [--threads T] [--size WxH] [--output PATH] [--rounds R] [--psnr]\n".utf8))
  exit(2)
}
while let argument = arguments.popFirst() {
  if argument == "--psnr" { measureQuality = true; continue }
  guard let value = arguments.popFirst() else { usage() }
  switch argument {
  case "--frames": frameCount = Int(value) ?? frameCount
  case "--crf": options.crf = Double(value) ?? options.crf
  case "--preset": options.preset = value
  case "--threads": options.threads = Int(value) ?? options.threads
  case "--rounds": rounds = max(1, Int(value) ?? rounds)
  case "--output": output = value
  case "--png-dir": pngFolder = value
  case "--size":
    let parts = value.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else { usage() }
    (width, height) = (parts[0], parts[1])
  default: usage()
  }
}

/// Frame i: a diagonal gradient whose stops drift, a rounded card sliding
/// across, a circle bouncing, a row of small rounded "buttons" fading, a
/// stroked ring: flat fills, gradients and anti-aliased edges, like UI motion.
func makeFrame(_ i: Int, width: Int, height: Int) -> Pixmap {
  let t = Double(i) / 60
  let w = Double(width), h = Double(height)
  let canvas = Canvas(width: width, height: height, background: Color(hex: "#F2F2F7")!.premultiplied)
  let drift = 0.5 + 0.5 * Elementary.sin(t * 2)
  let gradient = LinearGradientShader(
    start: Point(x: 0, y: 0), end: Point(x: w, y: h * (0.6 + 0.4 * drift)),
    stops: [
      GradientStop(offset: 0, color: Color(hex: "#4F7CFF")!.premultiplied),
      GradientStop(offset: 0.5 + 0.3 * (drift - 0.5), color: Color(hex: "#A45CFF")!.premultiplied),
      GradientStop(offset: 1, color: Color(hex: "#FF8A5C")!.premultiplied),
    ])
  canvas.fill(.rect(Rect(x: 0, y: 0, width: w, height: h * 0.35)), paint: .linearGradient(gradient))
  let cardX = (w - 600) * (0.5 + 0.5 * Elementary.sin(t * 1.3))
  canvas.fill(
    .roundedRect(Rect(x: cardX, y: h * 0.25, width: 600, height: 360), cornerRadius: 32),
    paint: .color(Color(hex: "#FFFFFF")!))
  canvas.fill(
    .roundedRect(Rect(x: cardX + 40, y: h * 0.25 + 40, width: 120, height: 120), cornerRadius: 60),
    paint: .color(Color(hex: "#34C759")!))
  for line in 0..<4 {
    canvas.fill(
      .roundedRect(Rect(x: cardX + 200, y: h * 0.25 + 50 + Double(line) * 40, width: 340 - Double(line) * 50, height: 18), cornerRadius: 9),
      paint: .color(Color(hex: "#D1D1D6")!))
  }
  let bounce = abs(Elementary.sin(t * 3))
  canvas.fill(
    .circle(in: Rect(x: w * 0.75, y: h * 0.9 - 200 - bounce * 300, width: 200, height: 200)),
    paint: .color(Color(hex: "#FF3B30")!))
  for button in 0..<6 {
    let alpha = 0.35 + 0.65 * (0.5 + 0.5 * Elementary.sin(t * 2 + Double(button)))
    canvas.fill(
      .capsule(in: Rect(x: 80 + Double(button) * 220, y: h * 0.85, width: 180, height: 64)),
      paint: .color(Color(red: 0, green: 0.48, blue: 1, alpha: alpha)))
  }
  canvas.stroke(
    .circle(in: Rect(x: w * 0.1, y: h * 0.45, width: 260, height: 260)),
    transform: .identity, style: StrokeStyle(width: 14 + 10 * drift), paint: .color(Color(hex: "#FF9500")!))
  return canvas.pixmap
}

let clock = ContinuousClock()
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
func perSecond(_ frames: Int, _ time: Double) -> String {
  String(format: "%7.1f frames/s (%6.2f ms/frame)", Double(frames) / time, time * 1000 / Double(frames))
}

let frames: [Pixmap]
if let pngFolder {
  let names = ((try? FileManager.default.contentsOfDirectory(atPath: pngFolder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
  do {
    frames = try names.map { name throws(PNGError) in try PNG.read(path: pngFolder + "/" + name) }
  } catch {
    FileHandle.standardError.write(Data("video-benchmark: \(error)\n".utf8))
    exit(1)
  }
  guard let first = frames.first else { usage() }
  (width, height, frameCount) = (first.width, first.height, frames.count)
  print("video-benchmark: \(frameCount) frames from \(pngFolder)")
} else {
  frames = (0..<frameCount).map { makeFrame($0, width: width, height: height) }
}
print(
  "video-benchmark: \(frameCount) frames \(width)×\(height), crf \(options.crf), preset \(options.preset), threads \(options.threads), best of \(rounds)"
)

var converted: [YUVFrame] = []

@MainActor func encode(_ body: (MP4Writer) throws(VideoError) -> Void) -> Double {
  do {
    let start = clock.now
    let writer = try MP4Writer(path: output, width: width, height: height, fps: (60, 1), options: options)
    try body(writer)
    try writer.finish()
    return seconds(clock.now - start)
  } catch {
    FileHandle.standardError.write(Data("video-benchmark: \(error)\n".utf8))
    exit(1)
  }
}

var convertTime = Double.infinity, encodeTime = Double.infinity, bothTime = Double.infinity
for _ in 0..<rounds {
  let start = clock.now
  converted = frames.map(YUVConverter.bt709)
  convertTime = min(convertTime, seconds(clock.now - start))
  encodeTime = min(
    encodeTime,
    encode { writer throws(VideoError) in
      for frame in converted { try writer.append(frame) }
    })
  bothTime = min(
    bothTime,
    encode { writer throws(VideoError) in
      for frame in frames { try writer.append(YUVConverter.bt709(frame)) }
    })
}
let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
print("YUV conversion  \(perSecond(frameCount, convertTime))")
print("x264 encode     \(perSecond(frameCount, encodeTime))")
print("both            \(perSecond(frameCount, bothTime))")
print(
  String(
    format: "output          %@: %.0f KB, %.0f kbit/s at 60 fps", output, Double(bytes) / 1024, Double(bytes) * 8 / (Double(frameCount) / 60) / 1000))

if measureQuality {
  do {
    let decoded = try MediaProbe.frames(path: output)
    var squared = 0.0, count = 0.0, worst = 0, lumaSquared = 0.0
    for (source, back) in zip(frames, decoded) {
      for y in 0..<height {
        for x in 0..<width {
          let a = source[x, y], b = back[x, y]
          let lumaA = 0.2126 * Double(a.r) + 0.7152 * Double(a.g) + 0.0722 * Double(a.b)
          let lumaB = 0.2126 * Double(b.r) + 0.7152 * Double(b.g) + 0.0722 * Double(b.b)
          lumaSquared += (lumaA - lumaB) * (lumaA - lumaB)
          for (p, q) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] {
            let d = Int(p) - Int(q)
            squared += Double(d * d); count += 1; worst = max(worst, abs(d))
          }
        }
      }
    }
    let psnr = 10 * Elementary.log10(255 * 255 / (squared / count))
    let lumaPSNR = 10 * Elementary.log10(255 * 255 / (lumaSquared / (count / 3)))
    print(
      String(
        format: "quality         %d frames decoded, RGB PSNR %.2f dB (worst error %d levels, at chroma edges), luma PSNR %.2f dB",
        decoded.count, psnr, worst, lumaPSNR))
  } catch {
    FileHandle.standardError.write(Data("video-benchmark: \(error)\n".utf8))
    exit(1)
  }
}
