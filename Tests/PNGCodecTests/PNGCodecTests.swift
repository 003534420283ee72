import Foundation
import Primitives
import Raster
import TestSupport
import Testing

@testable import PNGCodec

// MARK: - Helpers

/// A seeded generator, so every run sees the same "random" images.

/// round(c · a / 255) computed independently of the codec.
func referencePremultiply(_ c: Int, _ a: Int) -> UInt8 { UInt8((Double(c * a) / 255).rounded()) }

/// round(v / 257): a 16-bit sample as 8 bits.
func referenceScale16(_ v: Int) -> Int { Int((Double(v) / 257).rounded()) }

/// Straight RGBA8 → premultiplied bytes, reference arithmetic.
func referencePremultiplied(_ straight: [[Int]]) -> [UInt8] {
  straight.flatMap { p in
    [referencePremultiply(p[0], p[3]), referencePremultiply(p[1], p[3]), referencePremultiply(p[2], p[3]), UInt8(p[3])]
  }
}

func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

func randomPremultiplied(width: Int, height: Int, seed: UInt64, opaque: Bool = false) -> Pixmap {
  var rng = SplitMix64(seed: seed)
  var p = Pixmap(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      // Mostly the interesting alphas: 0, 255 and everything between.
      let a: UInt8 = opaque ? 255 : [0, 255, UInt8.random(in: 0...255, using: &rng)][Int.random(in: 0..<3, using: &rng)]
      p[x, y] = RGBA8(
        r: .random(in: 0...a, using: &rng), g: .random(in: 0...a, using: &rng),
        b: .random(in: 0...a, using: &rng), a: a)
    }
  }
  return p
}

// MARK: - Input formats

struct Format: Sendable, CustomTestStringConvertible {
  var colorType: TinyPNG.ColorType
  var depth: Int
  var tRNS = false
  var interlaced = false
  var testDescription: String {
    "\(colorType) \(depth)-bit\(tRNS ? " tRNS" : "")\(interlaced ? " Adam7" : "")"
  }
}

struct Size: Sendable, CustomTestStringConvertible {
  var width: Int, height: Int
  var testDescription: String { "\(width)×\(height)" }
}

/// Every colour type at every depth it allows, with and without tRNS where
/// the type allows it, plain and interlaced.
let allFormats: [Format] = {
  var plain: [Format] = []
  for depth in [1, 2, 4, 8, 16] {
    plain.append(Format(colorType: .grey, depth: depth))
    plain.append(Format(colorType: .grey, depth: depth, tRNS: true))
  }
  for depth in [8, 16] {
    plain.append(Format(colorType: .greyAlpha, depth: depth))
    plain.append(Format(colorType: .rgb, depth: depth))
    plain.append(Format(colorType: .rgb, depth: depth, tRNS: true))
    plain.append(Format(colorType: .rgba, depth: depth))
  }
  for depth in [1, 2, 4, 8] {
    plain.append(Format(colorType: .palette, depth: depth))
    plain.append(Format(colorType: .palette, depth: depth, tRNS: true))
  }
  return plain
    + plain.map {
      var f = $0; f.interlaced = true; return f
    }
}()

/// A PNG in `format` with random samples, and the premultiplied RGBA8 bytes it
/// must decode to, computed by hand from the samples.
func makeCase(
  _ format: Format, width: Int, height: Int, seed: UInt64, extraChunks: [(String, [UInt8])] = []
) -> (png: [UInt8], expected: [UInt8]) {
  var rng = SplitMix64(seed: seed)
  let depth = format.depth
  let maxSample = (1 << depth) - 1
  let count = width * height
  let channels = format.colorType.channels
  func sample() -> Int { Int(rng.next() % UInt64(maxSample + 1)) }
  func scale(_ v: Int) -> Int { depth == 16 ? referenceScale16(v) : v * 255 / maxSample }

  var image = TinyPNG.Image(
    width: width, height: height, colorType: format.colorType, depth: depth, samples: [],
    interlaced: format.interlaced, extraChunks: extraChunks)
  var samples = (0..<count).map { _ in (0..<channels).map { _ in sample() } }
  // The extremes always appear.
  if count > 1 { samples[0] = Array(repeating: maxSample, count: channels) }
  if count > 2 { samples[1] = Array(repeating: 0, count: channels) }

  var straight: [[Int]] = []
  switch format.colorType {
  case .grey, .rgb:
    var key: [Int]? = nil
    if format.tRNS {
      let k = (0..<channels).map { _ in sample() }
      key = k
      for i in stride(from: 2, to: count, by: 3) { samples[i] = k }  // some pixels match the key
      if count == 1 { samples[0] = k }
      image.transparency = k.flatMap { be16($0) }
    }
    straight = samples.map { s in
      let alpha = s == key ? 0 : 255
      return s.count == 1 ? [scale(s[0]), scale(s[0]), scale(s[0]), alpha] : [scale(s[0]), scale(s[1]), scale(s[2]), alpha]
    }
  case .greyAlpha:
    straight = samples.map { [scale($0[0]), scale($0[0]), scale($0[0]), scale($0[1])] }
  case .rgba:
    straight = samples.map { $0.map(scale) }
  case .palette:
    let entries = 1 << depth
    image.palette = (0..<entries).map { _ in
      [UInt8.random(in: 0...255, using: &rng), .random(in: 0...255, using: &rng), .random(in: 0...255, using: &rng)]
    }
    var alphas: [Int] = []
    if format.tRNS {
      // Shorter than the palette: the entries after it are opaque.
      alphas = (0..<max(1, entries / 2 + 1)).map { _ in Int.random(in: 0...255, using: &rng) }
      alphas[0] = 0
      if alphas.count > 2 { alphas[1] = 255; alphas[2] = 1 }
      image.transparency = alphas.map { UInt8($0) }
    }
    straight = samples.map { s in
      let entry = image.palette[s[0]].map(Int.init)
      return entry + [s[0] < alphas.count ? alphas[s[0]] : 255]
    }
  }
  image.samples = samples
  return (TinyPNG.encode(image), referencePremultiplied(straight))
}

// MARK: - Tests

@Suite struct PNGReadTests {
  @Test(arguments: allFormats, [Size(width: 13, height: 7), Size(width: 1, height: 1), Size(width: 3, height: 5)])
  func decodesEveryFormat(format: Format, size: Size) throws {
    let seed = UInt64(format.depth * 1000 + Int(format.colorType.rawValue) * 10 + (format.tRNS ? 1 : 0) + size.width * 7)
    let (png, expected) = makeCase(format, width: size.width, height: size.height, seed: seed)
    let pixmap = try PNG.decode(png, name: "case.png")
    #expect(pixmap.width == size.width && pixmap.height == size.height)
    #expect(pixmap.bytes == expected)
  }

  @Test func handComputedRGBA8() throws {
    let png = TinyPNG.encode(
      TinyPNG.Image(
        width: 5, height: 1, colorType: .rgba, depth: 8,
        samples: [[200, 100, 50, 128], [255, 255, 255, 0], [255, 1, 128, 1], [10, 20, 30, 254], [127, 128, 129, 127]]))
    let pixmap = try PNG.decode(png, name: "rgba8.png")
    #expect(pixmap.bytes == [100, 50, 25, 128, 0, 0, 0, 0, 1, 0, 1, 1, 10, 20, 30, 254, 63, 64, 64, 127])
  }

  @Test func handComputedRGBA16() throws {
    let png = TinyPNG.encode(
      TinyPNG.Image(
        width: 3, height: 1, colorType: .rgba, depth: 16,
        samples: [[51400, 25700, 12850, 32896], [32895, 128, 129, 65535], [65535, 65535, 65535, 32767]]))
    let pixmap = try PNG.decode(png, name: "rgba16.png")
    // 51400/257 = 200, 32896/257 = 128, 32895/257 ≈ 127.996, 128/257 ≈ 0.498,
    // 129/257 ≈ 0.502, 32767/257 ≈ 127.498; then premultiplied.
    #expect(pixmap.bytes == [100, 50, 25, 128, 128, 0, 1, 255, 127, 127, 127, 127])
  }

  @Test func handComputedLowDepthGreyPaletteAndGreyAlpha() throws {
    let grey = TinyPNG.encode(
      TinyPNG.Image(
        width: 4, height: 1, colorType: .grey, depth: 2, samples: [[0], [1], [2], [3]], transparency: [0, 2]))
    #expect(try PNG.decode(grey, name: "g2.png").bytes == [0, 0, 0, 255, 85, 85, 85, 255, 0, 0, 0, 0, 255, 255, 255, 255])

    let palette = TinyPNG.encode(
      TinyPNG.Image(
        width: 3, height: 1, colorType: .palette, depth: 4, samples: [[0], [1], [2]],
        palette: [[255, 0, 0], [0, 255, 0], [10, 20, 30]], transparency: [128, 0]))
    #expect(try PNG.decode(palette, name: "p4.png").bytes == [128, 0, 0, 128, 0, 0, 0, 0, 10, 20, 30, 255])

    let greyAlpha = TinyPNG.encode(
      TinyPNG.Image(
        width: 2, height: 1, colorType: .greyAlpha, depth: 8, samples: [[100, 51], [7, 255]]))
    #expect(try PNG.decode(greyAlpha, name: "ga8.png").bytes == [20, 20, 20, 51, 7, 7, 7, 255])
  }

  /// Every 16-bit value v reads as round(v / 257): no linear→sRGB conversion.
  /// Interlaced too (libpng's simplified API gets those wrong; see the shim).
  @Test(arguments: [false, true])
  func sixteenBitIsHighByteRoundedExhaustively(interlaced: Bool) throws {
    let all = (0..<65536).map { [$0] }
    let grey = try PNG.decode(
      TinyPNG.encode(
        TinyPNG.Image(
          width: 256, height: 256, colorType: .grey, depth: 16, samples: all, interlaced: interlaced)),
      name: "g16.png")
    #expect(
      grey.bytes
        == all.flatMap { s -> [UInt8] in
          let g = UInt8(referenceScale16(s[0])); return [g, g, g, 255]
        })

    let rgb = try PNG.decode(
      TinyPNG.encode(
        TinyPNG.Image(
          width: 256, height: 256, colorType: .rgb, depth: 16,
          samples: (0..<65536).map { [$0, 65535 - $0, ($0 &* 31) & 0xFFFF] }, interlaced: interlaced)),
      name: "rgb16.png")
    #expect(
      rgb.bytes
        == (0..<65536).flatMap { v -> [UInt8] in
          [UInt8(referenceScale16(v)), UInt8(referenceScale16(65535 - v)), UInt8(referenceScale16((v &* 31) & 0xFFFF)), 255]
        })

    // Alpha too: white with every 16-bit alpha.
    let alpha = try PNG.decode(
      TinyPNG.encode(
        TinyPNG.Image(
          width: 256, height: 256, colorType: .greyAlpha, depth: 16, samples: (0..<65536).map { [65535, $0] },
          interlaced: interlaced)),
      name: "ga16.png")
    #expect(
      alpha.bytes
        == (0..<65536).flatMap { v -> [UInt8] in
          let a = UInt8(referenceScale16(v)); return [a, a, a, a]
        })
  }

  /// Interlaced 16-bit files go through the shim's full-API reader (libpng
  /// bug workaround); it must agree with the simplified API on the same
  /// pixels stored without interlacing, including gamma conversion.
  @Test(
    arguments: [
      [], [("gAMA", [0, 0x01, 0x86, 0xA0] as [UInt8])], [("gAMA", [0, 0, 0xB1, 0x8F])], [("sRGB", [0])],
    ] as [[(String, [UInt8])]])
  func interlacedSixteenBitAgreesWithPlain(chunks: [(String, [UInt8])]) throws {
    for format in allFormats where format.depth == 16 && !format.interlaced {
      var interlaced = format
      interlaced.interlaced = true
      let plain = makeCase(format, width: 29, height: 19, seed: 42, extraChunks: chunks)
      let adam7 = makeCase(interlaced, width: 29, height: 19, seed: 42, extraChunks: chunks)
      let a = try PNG.decode(plain.png, name: "plain.png"), b = try PNG.decode(adam7.png, name: "adam7.png")
      #expect(a == b, "\(format) \(chunks.map(\.0))")
      if chunks.isEmpty || chunks[0].0 == "sRGB" { #expect(a.bytes == plain.expected) }
      if chunks.first?.1 == [0, 0x01, 0x86, 0xA0] { #expect(a.bytes != plain.expected) }  // linear → sRGB happened
    }
  }

  /// An 8-bit straight RGBA image with every (colour, alpha) pair.
  @Test func premultipliesEveryPairWithRounding() throws {
    let samples = (0..<65536).map { i in [i & 0xFF, 255 - (i & 0xFF), (i * 7) & 0xFF, i >> 8] }
    let png = TinyPNG.encode(TinyPNG.Image(width: 256, height: 256, colorType: .rgba, depth: 8, samples: samples))
    #expect(try PNG.decode(png, name: "pairs.png").bytes == referencePremultiplied(samples))
  }
}

@Suite struct PNGWriteTests {
  /// premultiply(unpremultiply(p)) == p for every valid premultiplied byte
  /// pair c ≤ a, and the codec's premultiply is round(c · a / 255).
  @Test func unpremultiplyIsExactlyInvertedForEveryPair() {
    var failures = 0
    for a in 0...255 {
      for c in 0...255 {
        if PNG.premultiply(UInt8(c), UInt8(a)) != referencePremultiply(c, a) { failures += 1 }
      }
      for c in 0...a {
        let p = RGBA8(r: UInt8(c), g: UInt8(c), b: UInt8(c), a: UInt8(a))
        let u = PNG.unpremultiply(p)
        if u.a != p.a || u.r != u.g || u.g != u.b { failures += 1 }
        if a == 0 { if u != .transparent { failures += 1 }; continue }
        if Int(u.r) != Int((Double(c) * 255 / Double(a)).rounded()) { failures += 1 }
        if referencePremultiply(Int(u.r), a) != UInt8(c) { failures += 1 }
      }
    }
    #expect(failures == 0)
  }

  /// The same through files: all 32,896 valid pairs survive encode → decode.
  @Test func everyPremultipliedPairRoundTrips() throws {
    var p = Pixmap(width: 256, height: 256)
    for a in 0..<256 {
      for c in 0..<256 {
        let v = UInt8(min(c, a))
        p[c, a] = RGBA8(r: v, g: UInt8((c * 7) % (a + 1)), b: UInt8(a) - v, a: UInt8(a))
      }
    }
    #expect(try PNG.decode(PNG.encode(p), name: "pairs") == p)
  }

  @Test(arguments: [
    Size(width: 1, height: 1), Size(width: 3, height: 5), Size(width: 17, height: 9), Size(width: 64, height: 33),
    Size(width: 301, height: 203),
  ])
  func randomPixmapsRoundTripByteIdentically(size: Size) throws {
    for (i, opaque) in [false, true].enumerated() {
      let p = randomPremultiplied(width: size.width, height: size.height, seed: UInt64(size.width * 100 + i), opaque: opaque)
      let png = try PNG.encode(p)
      #expect(try PNG.decode(png, name: "random") == p)
      // RGB when every pixel is opaque, RGBA otherwise.
      let ihdr = try #require(TinyPNG.chunks(png)?.first)
      #expect(ihdr.type == "IHDR" && ihdr.data[8] == 8)
      #expect(ihdr.data[9] == (p.bytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 } ? 2 : 6))
    }
    let clear = Pixmap(width: size.width, height: size.height)
    #expect(try PNG.decode(PNG.encode(clear), name: "clear") == clear)
  }

  @Test func everyOptionIsLossless() throws {
    let p = randomPremultiplied(width: 37, height: 23, seed: 99)
    for filter in PNG.Options.Filter.allCases {
      for strategy in PNG.Options.Strategy.allCases {
        for level in [0, 1, 6, 9] {
          let options = PNG.Options(compressionLevel: level, filter: filter, strategy: strategy)
          #expect(try PNG.decode(PNG.encode(p, options: options), name: "options") == p, "\(options)")
        }
      }
    }
    #expect(try PNG.decode(PNG.encode(p, options: .compact), name: "compact") == p)
  }

  @Test func writtenFilesDeclareSRGB() throws {
    for p in [randomPremultiplied(width: 5, height: 4, seed: 1), Pixmap(width: 2, height: 2, fill: RGBA8(r: 1, g: 2, b: 3, a: 255))] {
      let chunks = try #require(TinyPNG.chunks(try PNG.encode(p)))
      #expect(chunks.allSatisfy { $0.crcOK })
      let types = chunks.map(\.type)
      #expect(types.first == "IHDR" && types.last == "IEND")
      let srgb = try #require(types.firstIndex(of: "sRGB"))
      let idat = try #require(types.firstIndex(of: "IDAT"))
      #expect(srgb < idat)
      #expect(chunks[srgb].data == [0])  // perceptual
      let gama = try #require(chunks.first { $0.type == "gAMA" })
      #expect(gama.data == [0, 0, 0xB1, 0x8F])  // 45455
    }
  }

  @Test func fileRoundTrip() throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let p = randomPremultiplied(width: 3, height: 5, seed: 7)
    let path = scratch.path("frame.png")
    try PNG.write(p, to: path)
    #expect(try PNG.read(path: path) == p)
    // Overwriting replaces the file.
    let q = Pixmap(width: 1, height: 1, fill: RGBA8(r: 9, g: 8, b: 7, a: 200))
    try PNG.write(q, to: path)
    #expect(try PNG.read(path: path) == q)
  }
}

@Suite struct PNGErrorTests {
  /// Found by fuzzing (Fuzz/Regressions/png): 41 bytes whose tEXt chunk
  /// claims 2³¹ − 1 bytes made libpng allocate and zero 2 GB before
  /// noticing the data missing. The chunk walk refuses it first.
  @Test func aChunkLongerThanTheFileIsTruncation() {
    let bytes: [UInt8] = [
      137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0, 58, 126, 155, 85, 127, 255, 255,
      255, 116, 69, 88, 116,
    ]
    #expect(throws: PNGError.self) { try PNG.decode(bytes, name: "t.png") }
    do {
      _ = try PNG.decode(bytes, name: "t.png")
    } catch {
      #expect(error.message.contains("the file is truncated: a chunk of 2147483647 bytes at offset 33"), "\(error.message)")
    }
  }

  func expectError(_ path: String, containing text: String? = nil, _ body: () throws(PNGError) -> Void) {
    do {
      try body()
      Issue.record("no error for \(path)")
    } catch {
      #expect(error.path == path)
      #expect(error.description.hasPrefix("\(path): ") && !error.message.isEmpty, "\(error)")
      if let text { #expect(error.message.contains(text), "\(error)") }
    }
  }

  @Test func missingFile() {
    let path = "/nonexistent-springframe-dir/missing.png"
    expectError(path, containing: "No such file") { () throws(PNGError) in _ = try PNG.read(path: path) }
  }

  @Test func truncatedFiles() throws {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let png = try PNG.encode(randomPremultiplied(width: 40, height: 30, seed: 3))
    for cut in [png.count / 2, png.count - 13, 20, 8] {
      let path = scratch.write(Array(png[0..<cut]), "cut-\(cut).png")
      expectError(path, containing: "truncated") { () throws(PNGError) in _ = try PNG.read(path: path) }
    }
    // A stored-block file, cut inside the pixel data.
    let stored = makeCase(Format(colorType: .rgba, depth: 8), width: 20, height: 20, seed: 5).png
    let path = scratch.write(Array(stored[0..<(stored.count * 2 / 3)]), "stored-cut.png")
    expectError(path, containing: "truncated") { () throws(PNGError) in _ = try PNG.read(path: path) }
    // Interlaced 16-bit files take the shim's reader; its errors too.
    let deep = makeCase(Format(colorType: .rgba, depth: 16, interlaced: true), width: 20, height: 20, seed: 6).png
    let deepPath = scratch.write(Array(deep[0..<(deep.count * 2 / 3)]), "deep-cut.png")
    expectError(deepPath, containing: "truncated") { () throws(PNGError) in _ = try PNG.read(path: deepPath) }
  }

  @Test func notAPNG() {
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let text = scratch.write(Array("hello, this is not an image\n".utf8), "text.png")
    expectError(text, containing: "Not a PNG") { () throws(PNGError) in _ = try PNG.read(path: text) }
    let empty = scratch.write([], "empty.png")
    expectError(empty) { () throws(PNGError) in _ = try PNG.read(path: empty) }
    let directory = scratch.directory.path
    expectError(directory) { () throws(PNGError) in _ = try PNG.read(path: directory) }
    expectError("memory.png") { () throws(PNGError) in _ = try PNG.decode([1, 2, 3], name: "memory.png") }
  }

  @Test func corruptedData() throws {
    let png = try PNG.encode(randomPremultiplied(width: 8, height: 8, seed: 11))
    // The file ends IDAT data (…, Adler-32), IDAT CRC, IEND (12 bytes).
    var badCRC = png
    badCRC[png.count - 13] ^= 0xFF
    expectError("crc.png", containing: "CRC") { () throws(PNGError) in _ = try PNG.decode(badCRC, name: "crc.png") }
    var badAdler = png
    badAdler[png.count - 17] ^= 0xFF
    expectError("adler.png") { () throws(PNGError) in _ = try PNG.decode(badAdler, name: "adler.png") }
  }

  @Test func unwritableAndEmpty() {
    let path = "/nonexistent-springframe-dir/out.png"
    expectError(path) { () throws(PNGError) in try PNG.write(Pixmap(width: 1, height: 1), to: path) }
    let empty = Pixmap(width: 0, height: 4)
    expectError("empty.png") { () throws(PNGError) in _ = try PNG.encode(empty, name: "empty.png") }
    let scratch = Scratch()
    defer { scratch.cleanUp() }
    let zero = scratch.path("zero.png")
    expectError(zero) { () throws(PNGError) in try PNG.write(empty, to: zero) }
    #expect(!FileManager.default.fileExists(atPath: zero))
    var wrongSize = Pixmap(width: 2, height: 2)
    wrongSize.bytes.removeLast()
    expectError("short.png") { () throws(PNGError) in _ = try PNG.encode(wrongSize, name: "short.png") }
    expectError("level.png") { () throws(PNGError) in
      _ = try PNG.encode(Pixmap(width: 1, height: 1), options: .init(compressionLevel: 12, filter: .up, strategy: .rle), name: "level.png")
    }
  }
}

/// The pointer loop of PNGCodec (PNGCodec+Unsafe.swift) against its safe
/// twin on random straight pixels, byte for byte.
@Suite struct PremultiplyTwinTests {
  @Test func premultiplyingInPlaceMatchesTheSafeTwin() {
    var random = SplitMix64(seed: 255)
    for pixelCount in [0, 1, 2, 7, 1000] {
      // Alpha 0 and 255 for a quarter of the pixels each, any other byte otherwise.
      let straight = (0..<(4 * pixelCount)).map { i -> UInt8 in
        let byte = UInt8(truncatingIfNeeded: random.next())
        guard i % 4 == 3 else { return byte }
        return byte & 3 == 0 ? 0 : byte & 3 == 1 ? 255 : byte
      }
      var premultiplied = straight
      premultiplied.withUnsafeMutableBufferPointer { PNG.premultiply($0) }
      #expect(premultiplied == PNG.referencePremultiplied(straight), "\(pixelCount) pixels")
      if pixelCount == 1000 { #expect(premultiplied != straight) }
    }
  }
}
