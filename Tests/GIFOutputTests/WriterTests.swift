import Foundation
import GIFOutput
import Primitives
import Raster
import Testing

@Suite struct WriterTests {
  static let uiColors = [rgb(242, 242, 247), rgb(255, 255, 255), rgb(88, 86, 214), rgb(0, 122, 255), rgb(28, 28, 30)]

  /// A frame of flat UI colours: background, white rows, an indigo square at
  /// `squareX`, blue bars, dark "text" strokes.
  static func uiFrame(squareX: Int, width: Int = 160, height: Int = 120) -> Pixmap {
    pixmap(width, height) { x, y in
      if (squareX..<(squareX + 24)).contains(x) && (8..<32).contains(y) { return uiColors[2] }
      if (10..<150).contains(x) && (40..<60).contains(y) {
        return (20..<90).contains(x) && (48..<51).contains(y) ? uiColors[4] : uiColors[1]
      }
      if (10..<150).contains(x) && (66..<86).contains(y) { return uiColors[3] }
      return uiColors[0]
    }
  }

  @Test func headerAndLoopForever() throws {
    let frame = Self.uiFrame(squareX: 10)
    let palette = GIFPalette.build(samples: [frame], transparent: false)
    let q = GIFQuantizer(palette: palette).quantize(frame)
    let (bytes, gif) = try writeAndDecode([q, q], delays: [3, 4], palette: palette)
    #expect(Array(bytes.prefix(6)) == Array("GIF89a".utf8))
    #expect(gif.width == 160 && gif.height == 120)
    #expect(gif.loopCount == 0)
    // The application extension, byte for byte (GIF89a §26 and Netscape's block).
    let netscape: [UInt8] = [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
    #expect(bytes.indices.contains { bytes[$0...].starts(with: netscape) })
    #expect(bytes.last == 0x3B)
  }

  @Test func flatUIColoursDecodeExactly() throws {
    let frames = [10, 40, 90].map { Self.uiFrame(squareX: $0) }
    let palette = GIFPalette.build(samples: frames, transparent: false)
    let quantizer = GIFQuantizer(palette: palette)
    let (_, gif) = try writeAndDecode(frames.map(quantizer.quantize), delays: [3, 4, 3], palette: palette)
    #expect(gif.canvases.count == 3)
    for (canvas, frame) in zip(gif.canvases, frames) {
      #expect(canvas == frame.bytes)  // opaque: straight = premultiplied
    }
  }

  @Test func delaysAreWrittenAndIdenticalFramesMerge() throws {
    let a = Self.uiFrame(squareX: 10), b = Self.uiFrame(squareX: 50)
    let palette = GIFPalette.build(samples: [a, b], transparent: false)
    let quantizer = GIFQuantizer(palette: palette)
    let delays = GIFTiming.delays(count: 5, fps: 30)
    #expect(delays == [3, 4, 3, 3, 4])
    let frames = [a, a, b, b, b].map(quantizer.quantize)
    let (_, gif) = try writeAndDecode(frames, delays: delays, palette: palette)
    #expect(gif.totalDelay == 17)
    #expect(gif.images.map(\.delay) == [7, 10])
    let shown = canvasesAtFrames(gif, delays: delays)
    for (canvas, frame) in zip(shown, [a, a, b, b, b]) { #expect(canvas == frame.bytes) }
  }

  @Test func delaysAtFiftyFramesPerSecondAreAllTwo() throws {
    let frames = (0..<10).map { Self.uiFrame(squareX: 5 + 10 * $0) }
    let palette = GIFPalette.build(samples: frames, transparent: false)
    let quantizer = GIFQuantizer(palette: palette)
    let delays = GIFTiming.delays(count: 10, fps: 60)
    let (_, gif) = try writeAndDecode(frames.map(quantizer.quantize), delays: delays, palette: palette)
    #expect(gif.images.map(\.delay) == Array(repeating: 2, count: 10))
  }

  /// A square moving over a static gradient and flat areas: every later
  /// image is a small rectangle, yet compositing reproduces every frame.
  @Test func changedRectanglesCompositeExactly() throws {
    let w = 200, h = 100
    let frames = (0..<24).map { i -> Pixmap in
      let sx = 5 + 7 * i, sy = 20 + (i % 5) * 6
      return pixmap(w, h) { x, y in
        if (sx..<(sx + 20)).contains(x) && (sy..<(sy + 20)).contains(y) {
          return (sx + 6..<sx + 14).contains(x) ? rgb(255, 59, 48) : rgb(88, 86, 214)
        }
        if y < 16 { return rgb(40 + x, 90 + x / 2, 230 - x / 2) }  // gradient header
        return i % 6 == 5 && y > 90 ? rgb(255, 204, 0) : rgb(242, 242, 247)
      }
    }
    let palette = GIFPalette.build(samples: frames, transparent: false)
    let quantizer = GIFQuantizer(palette: palette)
    let indexed = frames.map(quantizer.quantize)
    let delays = GIFTiming.delays(count: frames.count, fps: 30)
    let (_, gif) = try writeAndDecode(indexed, delays: delays, palette: palette)
    #expect(gif.images.count == frames.count)
    #expect(gif.images.allSatisfy { $0.disposal == 1 })
    for (k, (canvas, frame)) in zip(gif.canvases, indexed).enumerated() {
      #expect(canvas == expectedRGBA(frame, palette), "frame \(k)")
    }
    // Each later image is exactly the bounding box of the source pixels that changed.
    for k in 1..<frames.count {
      var x0 = w, y0 = h, x1 = -1, y1 = -1
      for y in 0..<h {
        for x in 0..<w where frames[k][x, y] != frames[k - 1][x, y] {
          x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
        }
      }
      let image = gif.images[k]
      #expect([image.left, image.top, image.width, image.height] as [Int] == [x0, y0, x1 - x0 + 1, y1 - y0 + 1], "frame \(k)")
    }
    #expect(gif.images[0].width == w && gif.images[0].height == h)
  }

  /// Two small changes at opposite corners of a dithered gradient: the
  /// rectangle spans the frame, and masking its unchanged pixels as
  /// transparent encodes far smaller than repeating the dither.
  @Test func unchangedPixelsAreMaskedWhenSmaller() throws {
    let w = 160, h = 120
    let frames = (0..<4).map { i -> Pixmap in
      pixmap(w, h) { x, y in
        if x < 6 && y < 6 || x >= w - 6 && y >= h - 6 { return i % 2 == 0 ? rgb(255, 59, 48) : rgb(52, 199, 89) }
        return rgb(30 + x, 60 + y, 200 - x / 2)
      }
    }
    let palette = GIFPalette.build(samples: frames, transparent: false)
    let quantizer = GIFQuantizer(palette: palette)
    let indexed = frames.map(quantizer.quantize)
    let (bytes, gif) = try writeAndDecode(indexed, delays: [3, 4, 3, 3], palette: palette)
    for (canvas, frame) in zip(gif.canvases, indexed) { #expect(canvas == expectedRGBA(frame, palette)) }
    for image in gif.images.dropFirst() {
      #expect([image.left, image.top, image.width, image.height] as [Int] == [0, 0, w, h])
      #expect(image.transparentIndex == palette.colors.count)
    }
    // The three masked frames together cost less than half of the first.
    let first = GIFLZW.encode(indexed[0].indices, minCodeSize: 8).count
    #expect(bytes.count < first * 3 / 2)
  }

  @Test func transparentBackgroundRoundTripsAlpha() throws {
    let w = 96, h = 64
    // A disc moving on nothing, an edge of partial alphas, a flat area at alpha 200.
    let frames = (0..<6).map { i -> Pixmap in
      pixmap(w, h) { x, y in
        let dx = Double(x) + 0.5 - Double(20 + 10 * i), dy = Double(y) + 0.5 - 30
        let coverage = min(max(14 - (dx * dx + dy * dy).squareRoot(), 0), 1)
        if coverage > 0 {
          let a = coverage
          return RGBA8(r: UInt8((0 * a).rounded()), g: UInt8((122 * a).rounded()), b: UInt8((255 * a).rounded()), a: UInt8((255 * a).rounded()))
        }
        if y >= 56 { return RGBA8(r: 200, g: 47, b: 24, a: 200) }  // straight round(c · 255 / 200) = (255, 60, 31)
        return .transparent
      }
    }
    let palette = GIFPalette.build(samples: frames, transparent: true)
    #expect(palette.transparentIndex != nil)
    #expect(palette.colors[palette.transparentIndex!].a == 0)
    let quantizer = GIFQuantizer(palette: palette)
    let (_, gif) = try writeAndDecode(frames.map(quantizer.quantize), delays: [3, 4, 3, 3, 4, 3], palette: palette)
    #expect(gif.images.allSatisfy { $0.transparentIndex == palette.transparentIndex })
    #expect(gif.images.contains { $0.disposal == 2 })  // the disc leaves pixels behind that must clear
    for (k, (canvas, frame)) in zip(gif.canvases, frames).enumerated() {
      var wrongAlpha = 0, wrongFlat = 0
      for p in 0..<(w * h) {
        let a = frame.bytes[4 * p + 3]
        if canvas[4 * p + 3] != (a >= 128 ? 255 : 0) { wrongAlpha += 1 }
        if a == 200 && Array(canvas[(4 * p)..<(4 * p + 3)]) != [255, 60, 31] { wrongFlat += 1 }
      }
      #expect(wrongAlpha == 0, "frame \(k)")  // also: no ghost of the disc's previous place
      #expect(wrongFlat == 0, "frame \(k)")
    }
  }

  /// Random edits of random frames — rectangles of colours or of nothing,
  /// repeats, blank frames — composite to exactly the frames given, with
  /// and without transparency.
  @Test(arguments: [false, true]) func randomSequencesCompositeExactly(transparent: Bool) throws {
    let w = 48, h = 40
    let colors = (0..<7).map { rgb(30 * $0, 255 - 30 * $0, 90) }
    let palette = transparent ? GIFPalette(colors: colors + [.transparent], transparentIndex: 7) : GIFPalette(colors: colors)
    let clear: UInt8 = transparent ? 7 : 0
    var random = SplitMix64(seed: transparent ? 11 : 12)
    func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    var current = [UInt8](repeating: clear, count: w * h)
    var frames = [IndexedFrame]()
    for _ in 0..<60 {
      switch below(10) {
      case 0: break  // the same again
      case 1: current = [UInt8](repeating: clear, count: w * h)
      default:
        for _ in 0..<(1 + below(3)) {
          let x0 = below(w), y0 = below(h), x1 = min(w, x0 + 1 + below(20)), y1 = min(h, y0 + 1 + below(16))
          let value = UInt8(below(transparent ? 8 : 7))
          for y in y0..<y1 { for x in x0..<x1 { current[y * w + x] = value } }
        }
      }
      frames.append(IndexedFrame(width: w, height: h, indices: current))
    }
    let delays = GIFTiming.delays(count: frames.count, fps: 24)
    let (_, gif) = try writeAndDecode(frames, delays: delays, palette: palette)
    #expect(gif.totalDelay == delays.reduce(0, +))
    for (k, (canvas, frame)) in zip(canvasesAtFrames(gif, delays: delays), frames).enumerated() {
      #expect(canvas == expectedRGBA(frame, palette), "frame \(k)")
    }
    if transparent { #expect(gif.images.contains { $0.disposal == 2 }) }
  }

  @Test func errorsNameTheFile() throws {
    let palette = GIFPalette(colors: [rgb(0, 0, 0), rgb(255, 255, 255)])
    let path = "/nonexistent-folder-\(UInt32.random(in: 0...UInt32.max))/a.gif"
    do {
      _ = try GIFWriter(path: path, width: 4, height: 4, palette: palette)
      Issue.record("expected an error")
    } catch {
      #expect(error.path == path)
      #expect(error.description.hasPrefix("\(path): cannot create"))
    }
    let good = temporaryPath("e.gif")
    defer { try? FileManager.default.removeItem(atPath: good) }
    let writer = try GIFWriter(path: good, width: 4, height: 4, palette: palette)
    #expect(throws: GIFError.self) {
      try writer.append(IndexedFrame(width: 2, height: 2, indices: [0, 0, 0, 0]), delay: 3)
    }
  }
}
