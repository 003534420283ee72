// gif-compare: Springframe's GIF encoder against FFmpeg's two-pass
// palettegen/paletteuse on the same PNG frames.
//
//   gif-compare FRAMES_DIR FPS [--out DIR] [--samples N] [--noise-penalty L] [--edge D] [--bayer | --blue-noise] [--dump FRAME] [--also GIF]
//
// Encodes the frames (sorted by name) with GIFOutput and with the ffmpeg CLI
// (`palettegen=stats_mode=full`, then `paletteuse` with its default dither,
// sierra2_4a), decodes both GIFs with an independent decoder, and prints for
// each: file size, PSNR against the source over all frames, PSNR after a
// Gaussian blur (σ = 1 px) of both (the colour perceived at normal viewing,
// which dithering aims at), flicker (mean absolute frame-to-frame change of
// the decoded output where the source did not change, and the share of such
// pixels that changed), and encode time. Colour values are compared as
// stored (sRGB-encoded, premultiplied over black), RGB only.
import Foundation
import GIFOutput
import PNGCodec
import PortableMath
import Raster
import TestSupport

struct Options {
  var folder = ""
  var fps = 30.0
  var out: String?
  var samples: Int?
  var noisePenalty: Float?
  var dump: Int?
  var edge: Int?
  var dither = GIFQuantizer.defaultDither
  /// Other GIFs of the same frames to measure (e.g. `render -o x.gif`, whose palette comes from sampled frames).
  var also: [String] = []
}

func usage() -> Never {
  FileHandle.standardError.write(
    "usage: gif-compare FRAMES_DIR FPS [--out DIR] [--samples N] [--noise-penalty L] [--edge D] [--bayer | --blue-noise] [--dump FRAME] [--also GIF]\n"
      .data(using: .utf8)!)
  exit(2)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write("gif-compare: \(message)\n".data(using: .utf8)!)
  exit(1)
}

func value(_ args: inout ArraySlice<String>) -> String {
  guard let v = args.popFirst() else { usage() }
  return v
}

func parse() -> Options {
  var o = Options()
  var positional = [String]()
  var args = CommandLine.arguments.dropFirst()
  while let a = args.popFirst() {
    switch a {
    case "--out": o.out = value(&args)
    case "--samples": guard let n = Int(value(&args)), n > 0 else { usage() }; o.samples = n
    case "--noise-penalty": guard let l = Float(value(&args)) else { usage() }; o.noisePenalty = l
    case "--bayer": o.dither = .bayer
    case "--blue-noise": o.dither = .blueNoise
    case "--edge": guard let n = Int(value(&args)) else { usage() }; o.edge = n
    case "--also": o.also.append(value(&args))
    case "--dump": guard let n = Int(value(&args)), n >= 0 else { usage() }; o.dump = n
    case "-h", "--help": usage()
    default: positional.append(a)
    }
  }
  guard positional.count == 2, let fps = Double(positional[1]), fps > 0 else { usage() }
  o.folder = positional[0]; o.fps = fps
  return o
}

func now() -> Double { Date().timeIntervalSince1970 }

/// Runs a command, returns its exit status and standard error.
func run(_ arguments: [String]) -> (status: Int32, error: String) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = arguments
  let pipe = Pipe()
  p.standardError = pipe
  p.standardOutput = FileHandle.nullDevice
  do { try p.run() } catch { return (127, "\(error)") }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

// MARK: - Metrics

/// RGB of premultiplied RGBA bytes as Float planes (r, g, b interleaved).
func rgbFloats(_ rgba: [UInt8]) -> [Float] {
  var out = [Float](repeating: 0, count: rgba.count / 4 * 3)
  for i in 0..<(rgba.count / 4) {
    let a = Float(rgba[4 * i + 3]) / 255
    // Decoded GIF pixels are straight with alpha 0 or 255; sources are premultiplied.
    out[3 * i] = Float(rgba[4 * i]) * (a == 0 ? 0 : 1)
    out[3 * i + 1] = Float(rgba[4 * i + 1]) * (a == 0 ? 0 : 1)
    out[3 * i + 2] = Float(rgba[4 * i + 2]) * (a == 0 ? 0 : 1)
  }
  return out
}

let gaussian: [Float] = {
  let k = (-3...3).map { Float(Elementary.exp(-Double($0 * $0) / 2)) }
  let s = k.reduce(0, +)
  return k.map { $0 / s }
}()

/// Separable Gaussian blur, σ = 1, radius 3, edges clamped.
func blur(_ p: [Float], _ w: Int, _ h: Int) -> [Float] {
  var tmp = [Float](repeating: 0, count: p.count), out = tmp
  for y in 0..<h {
    for x in 0..<w {
      for c in 0..<3 {
        var s: Float = 0
        for k in -3...3 { s += gaussian[k + 3] * p[3 * (y * w + min(max(x + k, 0), w - 1)) + c] }
        tmp[3 * (y * w + x) + c] = s
      }
    }
  }
  for y in 0..<h {
    for x in 0..<w {
      for c in 0..<3 {
        var s: Float = 0
        for k in -3...3 { s += gaussian[k + 3] * tmp[3 * (min(max(y + k, 0), h - 1) * w + x) + c] }
        out[3 * (y * w + x) + c] = s
      }
    }
  }
  return out
}

func psnr(_ squaredError: Double, _ count: Int) -> Double {
  let mse = squaredError / Double(count)
  return mse == 0 ? .infinity : 10 * Elementary.log10(255 * 255 / mse)
}

struct Metrics {
  var bytes = 0
  var psnr = 0.0, blurredPSNR = 0.0
  var flicker = 0.0, flickerShare = 0.0
  var seconds = 0.0
  var images = 0
}

/// Writes decoded frame `options.dump` as OUT/NAME-FRAME.png.
func dump(_ decoded: [[UInt8]], _ name: String) {
  guard let k = options.dump, k < decoded.count else { return }
  let p = Pixmap(width: w, height: h, bytes: decoded[k])
  try? PNG.write(p, to: "\(out)/\(name)-\(k).png")
}

/// `decoded[i]` is what the GIF shows at the start of source frame i.
func measure(source: [Pixmap], decoded: [[UInt8]]) -> Metrics {
  var m = Metrics()
  var se = 0.0, seBlur = 0.0, n = 0
  var flickerSum = 0.0, staticPixels = 0, changedStatic = 0
  for (frame, out) in zip(source, decoded) {
    let w = frame.width, h = frame.height
    let s = rgbFloats(frame.bytes), d = rgbFloats(out)
    for i in s.indices { let e = Double(s[i] - d[i]); se += e * e }
    let bs = blur(s, w, h), bd = blur(d, w, h)
    for i in bs.indices { let e = Double(bs[i] - bd[i]); seBlur += e * e }
    n += s.count
  }
  for i in 1..<max(1, source.count) {
    let a = source[i - 1].bytes, b = source[i].bytes
    let da = decoded[i - 1], db = decoded[i]
    for p in 0..<(a.count / 4)
    where a[4 * p] == b[4 * p] && a[4 * p + 1] == b[4 * p + 1] && a[4 * p + 2] == b[4 * p + 2] && a[4 * p + 3] == b[4 * p + 3] {
      staticPixels += 1
      var diff = 0
      for c in 0..<3 { diff += abs(Int(da[4 * p + c]) - Int(db[4 * p + c])) }
      if diff != 0 || da[4 * p + 3] != db[4 * p + 3] { changedStatic += 1 }
      flickerSum += Double(diff) / 3
    }
  }
  m.psnr = psnr(se, n)
  m.blurredPSNR = psnr(seBlur, n)
  m.flicker = staticPixels == 0 ? 0 : flickerSum / Double(staticPixels)
  m.flickerShare = staticPixels == 0 ? 0 : Double(changedStatic) / Double(staticPixels)
  return m
}

/// The canvas showing at each source frame's start time, round(100 i / fps)
/// hundredths (images of a GIF may merge identical frames).
func framesByTime(_ gif: DecodedGIF, count: Int, fps: Double) -> [[UInt8]] {
  (0..<count).map { gif.canvas(atHundredths: Int((100 * Double($0) / fps).rounded())) }
}

// MARK: - Main

let options = parse()
let fm = FileManager.default
guard let names = try? fm.contentsOfDirectory(atPath: options.folder).filter({ $0.lowercased().hasSuffix(".png") }).sorted(),
  !names.isEmpty
else { fail("no PNG frames in \(options.folder)") }
let out = options.out ?? NSTemporaryDirectory() + "gif-compare-\(getpid())"
try? fm.createDirectory(atPath: out, withIntermediateDirectories: true)
let fps = GIFTiming.frameRate(for: options.fps)
if fps != options.fps { print("note: a GIF runs at most 50 fps; both encoders get the frames at \(fps) fps") }

// Ours: read, palette, quantize, write.
var t0 = now()
var frames = [Pixmap]()
for name in names {
  do { frames.append(try PNG.read(path: options.folder + "/" + name)) } catch { fail("\(error)") }
}
let tRead = now() - t0
let w = frames[0].width, h = frames[0].height
guard frames.allSatisfy({ $0.width == w && $0.height == h }) else { fail("frames differ in size") }
let transparent = frames.contains { f in stride(from: 3, to: f.bytes.count, by: 4).contains { f.bytes[$0] != 255 } }
t0 = now()
let sampleFrames: [Pixmap] = {
  guard let n = options.samples, n < frames.count else { return frames }
  return (0..<n).map { frames[$0 * (frames.count - 1) / max(1, n - 1)] }
}()
let palette = GIFPalette.build(samples: sampleFrames, transparent: transparent)
let tPalette = now() - t0
t0 = now()
let quantizer = GIFQuantizer(
  palette: palette, noisePenalty: options.noisePenalty ?? GIFQuantizer.defaultNoisePenalty,
  edgeThreshold: options.edge ?? GIFQuantizer.defaultEdgeThreshold, dither: options.dither)
let indexed = frames.map(quantizer.quantize)
let tQuantize = now() - t0
t0 = now()
let ourPath = out + "/ours.gif"
let delays = GIFTiming.delays(count: frames.count, fps: fps)
do {
  let writer = try GIFWriter(path: ourPath, width: w, height: h, palette: palette)
  for (f, d) in zip(indexed, delays) { try writer.append(f, delay: d) }
  try writer.finish()
} catch { fail("\(error)") }
let tWrite = now() - t0

print("\(names.count) frames \(w)×\(h) at \(fps) fps from \(options.folder)\(transparent ? " (with transparency)" : "")")
print(
  String(
    format: "ours: %d colours; read PNGs %.0f ms, palette %.0f ms, quantize %.1f ms/frame, LZW+write %.1f ms/frame",
    palette.colors.count, tRead * 1000, tPalette * 1000, tQuantize * 1000 / Double(frames.count), tWrite * 1000 / Double(frames.count)))

func decodeFile(_ path: String) -> DecodedGIF {
  guard let data = fm.contents(atPath: path) else { fail("cannot read \(path)") }
  do { return try decodeGIF([UInt8](data)) } catch { fail("\(path): \(error)") }
}

var results: [(String, Metrics)] = []
let ours = decodeFile(ourPath)
let oursFrames = framesByTime(ours, count: frames.count, fps: fps)
dump(oursFrames, "ours")
var mOurs = measure(source: frames, decoded: oursFrames)
mOurs.bytes = (try? fm.attributesOfItem(atPath: ourPath)[.size] as? Int) ?? 0
mOurs.seconds = tRead + tPalette + tQuantize + tWrite
mOurs.images = ours.images.count
results.append(("ours", mOurs))
if ours.totalDelay != delays.reduce(0, +) { print("warning: our delays add up to \(ours.totalDelay), not \(delays.reduce(0, +))") }
for path in options.also {
  let other = decodeFile(path)
  var m = measure(source: frames, decoded: framesByTime(other, count: frames.count, fps: fps))
  m.bytes = (try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  m.images = other.images.count
  results.append((URL(fileURLWithPath: path).lastPathComponent, m))
}

// FFmpeg's two passes.
if run(["ffmpeg", "-version"]).status != 0 {
  print("ffmpeg is not installed (apt-get install -y ffmpeg): FFmpeg's side is skipped")
} else {
  let ffPath = out + "/ffmpeg.gif", palettePath = out + "/ffmpeg-palette.png"
  let input = ["-framerate", "\(fps)", "-pattern_type", "glob", "-i", options.folder + "/*.png"]
  t0 = now()
  let pass1 = run(["ffmpeg", "-v", "error", "-y"] + input + ["-vf", "palettegen=stats_mode=full", palettePath])
  guard pass1.status == 0 else { fail("ffmpeg palettegen failed: \(pass1.error)") }
  let pass2 = run(["ffmpeg", "-v", "error", "-y"] + input + ["-i", palettePath, "-lavfi", "paletteuse", ffPath])
  guard pass2.status == 0 else { fail("ffmpeg paletteuse failed: \(pass2.error)") }
  let tFF = now() - t0
  let ff = decodeFile(ffPath)
  let ffFrames = framesByTime(ff, count: frames.count, fps: fps)
  dump(ffFrames, "ffmpeg")
  var m = measure(source: frames, decoded: ffFrames)
  m.bytes = (try? fm.attributesOfItem(atPath: ffPath)[.size] as? Int) ?? 0
  m.seconds = tFF
  m.images = ff.images.count
  results.append(("ffmpeg", m))
  if ff.totalDelay != delays.reduce(0, +) { print("note: FFmpeg's delays add up to \(ff.totalDelay), ours to \(delays.reduce(0, +))") }
}

print("")
print("encoder       bytes  images   PSNR dB  blurred PSNR dB  flicker  static px changed  encode s")
for (name, m) in results {
  print(
    String(
      format: "%-8@ %10d  %6d  %8.2f  %15.2f  %7.3f  %16.2f%%  %8.2f",
      name as NSString, m.bytes, m.images, m.psnr, m.blurredPSNR, m.flicker, 100 * m.flickerShare, m.seconds))
}
print("(GIFs in \(out); encode time: ours on one thread incl. PNG reading, FFmpeg's two passes incl. theirs)")
