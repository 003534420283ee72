import Foundation
import PNGCodec
import Primitives
import Raster
import Render
import SceneFiles
import SceneModel
import Testing

/// A scene with files: writes the PNGs and other files given, decodes `json`
/// as a scene file in the same folder and loads its resources.
func loadWithFiles(_ json: String, pngs: [String: Pixmap] = [:], files: [String: [UInt8]] = [:]) throws -> SceneRenderer {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("springframe-resources-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  for (name, pixmap) in pngs { try PNG.write(pixmap, to: folder.appendingPathComponent(name).path) }
  for (name, bytes) in files { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
  return try SceneRenderer(decoding: Array(json.utf8), file: "t.json", directory: folder.path, defaultName: "t")
}

let red = RGBA8(r: 255, g: 0, b: 0, a: 255), blue = RGBA8(r: 0, g: 0, b: 255, a: 255), white = RGBA8(r: 255, g: 255, b: 255, a: 255)

/// 4 × 2 pixels: the left half blue, the right half red.
let halves: Pixmap = {
  var p = Pixmap(width: 4, height: 2, fill: red)
  for y in 0..<2 { for x in 0..<2 { p[x, y] = blue } }
  return p
}()

@Suite struct ImageLayerTests {
  @Test func oneToOneReproducesThePixels() throws {
    // 7 × 5 pixels of every kind, transparent and translucent included,
    // drawn at its own size on whole pixels: exactly its decoded pixels.
    var image = Pixmap(width: 7, height: 5)
    for y in 0..<5 {
      for x in 0..<7 {
        let a = UInt8([255, 255, 128, 0, 37][y])
        image[x, y] = RGBA8(Color(r8: x * 37 % 256, g8: y * 61 % 256, b8: (x * y * 23) % 256, a8: Int(a)).premultiplied)
      }
    }
    let renderer = try loadWithFiles(
      ##"{"version": 1, "size": [7, 5], "scale": 1, "background": "transparent", "assets": {"p": {"file": "p.png"}}, "layers": [{"type": "image", "asset": "p", "position": [3.5, 2.5]}]}"##,
      pngs: ["p.png": image])
    let decoded = try #require(renderer.resources.images["p"]).pyramid.levels[0]
    let p = try renderer.render(at: 0)
    #expect(p.bytes == decoded.bytes)
    #expect(p[0, 0].a == 255 && p[0, 3].a == 0 && p[0, 2].a == 128)
  }

  @Test func anAt2xAssetHasHalfItsPixelSizeInPoints() throws {
    // 8 × 6 pixels at scale 2 is 4 × 3 points; on a 2× canvas, pixel for pixel.
    var image = Pixmap(width: 8, height: 6, fill: blue)
    image[7, 5] = red
    let renderer = try loadWithFiles(
      ##"{"version": 1, "size": [4, 3], "scale": 2, "assets": {"p": {"file": "p@2x.png", "scale": 2}}, "layers": [{"type": "image", "asset": "p", "position": [2, 1.5]}]}"##,
      pngs: ["p@2x.png": image])
    let p = try renderer.render(at: 0)
    #expect(p.width == 8 && p.height == 6 && p.bytes == image.bytes)
  }

  /// The 4 × 2 halves image in a 20 × 20-point frame centred on a 40 × 40 canvas.
  func halvesIn(_ mode: String, cornerRadius: Double = 0) throws -> Pixmap {
    try loadWithFiles(
      ##"{"version": 1, "size": [40, 40], "scale": 1, "assets": {"h": {"file": "h.png"}}, "layers": [{"type": "image", "asset": "h", "size": [20, 20], "position": [20, 20], "contentMode": "\##(mode)", "cornerRadius": \##(cornerRadius)}]}"##,
      pngs: ["h.png": halves]
    ).render(at: 0)
  }

  @Test func fitLetterboxes() throws {
    // 2:1 in 20 × 20: 20 × 10 at x 10…30, y 15…25; 5 points per image pixel,
    // texel centres at x 12.5, 17.5 (blue) and 22.5, 27.5 (red).
    let p = try halvesIn("fit")
    #expect(p[20, 14] == white && p[20, 25] == white && p[20, 15] != white && p[20, 24] != white)
    #expect(p[9, 20] == white && p[30, 20] == white)
    #expect(p[10, 20] == blue && p[17, 15] == blue && p[22, 24] == red && p[29, 20] == red)
    // Pixel 19's centre, 19.5, is 2/5 of the way from blue (17.5) to red (22.5).
    #expect(p[19, 20] == RGBA8(r: 102, g: 0, b: 153, a: 255))
  }

  @Test func stretchFillsTheBounds() throws {
    let p = try halvesIn("stretch")
    #expect(p[20, 9] == white && p[20, 30] == white && p[9, 20] == white && p[30, 20] == white)
    #expect(p[10, 10] == blue && p[17, 29] == blue && p[22, 10] == red && p[29, 29] == red)
    #expect(p[19, 10] == RGBA8(r: 102, g: 0, b: 153, a: 255))
  }

  @Test func fillCoversAndCrops() throws {
    // 2:1 covering 20 × 20 is 40 × 20 at x 0…40, cropped to x 10…30;
    // 10 points per image pixel, texel centres at 5, 15 (blue), 25, 35 (red).
    let p = try halvesIn("fill")
    #expect(p[9, 20] == white && p[30, 20] == white && p[20, 9] == white && p[20, 30] == white)
    #expect(p[10, 10] == blue && p[14, 29] == blue && p[25, 10] == red && p[29, 29] == red)
    // Pixel 20's centre, 20.5, is 55% of the way from blue to red.
    #expect(p[20, 20] == RGBA8(r: 140, g: 0, b: 115, a: 255))
  }

  @Test func cornerRadiusRoundsTheImage() throws {
    // Radius 8: the corner pixel (10, 10) is outside the arc (its centre is
    // 8 − 7.5·√2 ≈ −2.6 points from it), the middle of the edge inside.
    let p = try halvesIn("fill", cornerRadius: 8)
    #expect(p[10, 10] == white && p[10, 20] == blue && p[29, 29] == white && p[29, 20] == red)
  }

  @Test func downscalingACheckerboardFourTimesIsFlatGrey() throws {
    // 64 × 64 one-pixel squares drawn in 16 × 16 points: every output pixel
    // covers 4 × 4 squares, half white, half black.
    var board = Pixmap(width: 64, height: 64, fill: white)
    for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 1 { board[x, y] = RGBA8(r: 0, g: 0, b: 0, a: 255) } }
    for (size, spread) in [(16.0, 1), (15.0, 3), (13.7, 3)] {
      let p = try loadWithFiles(
        ##"{"version": 1, "size": [20, 20], "scale": 1, "assets": {"b": {"file": "b.png"}}, "layers": [{"type": "image", "asset": "b", "size": [\##(size), \##(size)], "position": [10, 10]}]}"##,
        pngs: ["b.png": board]
      ).render(at: 0)
      // The pixels wholly inside the image.
      let inside = Int((10 - size / 2).rounded(.up))..<Int((10 + size / 2).rounded(.down))
      var values: [Int] = []
      for y in inside { for x in inside { values.append(Int(p[x, y].g)) } }
      let (low, high) = (values.min()!, values.max()!)
      #expect(low >= 127 - spread && high <= 128 + spread, "at \(size) points: grey from \(low) to \(high)")
    }
  }
}

@Suite struct TextLayerTests {
  @Test func theIntrinsicSizeIsTheMeasuredTextBox() throws {
    // "To" at 17 pt in Noto Sans CJK JP: (525 + 606) / 1000 × 17 = 19.227
    // wide, 1448 / 1000 × 17 = 24.616 high (hmtx, GPOS kern, hhea). Its
    // `fill` is the background of that box: from (10, 10) to (29.227, 34.616).
    let renderer = try loadWithFiles(
      ##"{"version": 1, "size": [40, 40], "scale": 1, "layers": [{"type": "text", "text": "To", "font": {"family": "Noto Sans CJK JP"}, "fill": "#FF0000", "color": "clear", "anchor": [0, 0], "position": [10, 10]}]}"##
    )
    let p = try renderer.render(at: 0)
    #expect(p[10, 10] == red && p[28, 33] == red && p[9, 20] == white && p[30, 20] == white && p[20, 35] == white)
    // Coverage 0.227 of pixel 29 and 0.616 of row 34: white keeps 1 − coverage.
    #expect(p[29, 20] == RGBA8(r: 255, g: 197, b: 197, a: 255))
    #expect(p[20, 34] == RGBA8(r: 255, g: 98, b: 98, a: 255))
  }

  @Test func glyphsAreDrawnInTheTextColourAtTheBaseline() throws {
    // "T" at 100 pt, top-left at (0, 0): its stem is 0.1 pt per unit, the
    // bar's top at the cap height 733 under the ascender 1160, so from
    // y = 42.7; the bar spans x 3.1…56.8.
    let renderer = try loadWithFiles(
      ##"{"version": 1, "size": [60, 150], "scale": 1, "layers": [{"type": "text", "text": "T", "font": {"family": "Noto Sans CJK JP", "size": 100}, "color": "#007AFF", "anchor": [0, 0], "position": [0, 0]}]}"##
    )
    let p = try renderer.render(at: 0)
    let systemBlue = RGBA8(r: 0, g: 122, b: 255, a: 255)
    #expect(p[30, 42] != systemBlue && p[30, 43] == systemBlue && p[30, 100] == systemBlue && p[30, 30] == white)
    #expect(p[2, 44] == white && p[4, 44] == systemBlue && p[55, 44] == systemBlue && p[57, 44] == white)
    // Pixel 56 is 0.8 covered: white × 0.2 + blue × 0.8.
    #expect(p[56, 44] == RGBA8(r: 51, g: 149, b: 255, a: 255))
    #expect(p[3, 44] == RGBA8(r: 25, g: 135, b: 255, a: 255))  // 0.9 covered
  }

  @Test func textScalesLikeAShape() throws {
    // Drawing at scale 2 is the same as a font twice the size at scale 1,
    // pixel for pixel (both are the same outline at the same pixel size).
    let a = try loadWithFiles(
      ##"{"version": 1, "size": [60, 30], "scale": 2, "layers": [{"type": "text", "text": "トマト", "font": {"size": 12}, "position": [30, 15]}]}"##
    ).render(at: 0)
    let b = try loadWithFiles(
      ##"{"version": 1, "size": [120, 60], "scale": 1, "layers": [{"type": "text", "text": "トマト", "font": {"size": 24}, "position": [60, 30]}]}"##
    ).render(at: 0)
    #expect(a.bytes == b.bytes)
    #expect(a.bytes.contains(0))
  }
}

@Suite struct ResourceErrorTests {
  func errors(_ json: String, files: [String: [UInt8]] = [:]) throws -> [String] {
    do {
      _ = try loadWithFiles(json, files: files)
      return []
    } catch let error as SceneErrors {
      return error.diagnostics.map(\.description)
    }
  }

  @Test func missingAndCorruptFilesAreLocated() throws {
    let json = """
      {"version": 1, "size": [10, 10],
       "assets": {"gone": {"file": "gone.png"}, "junk": {"file": "junk.png"}},
       "fonts": {"Junk": "junk.ttf", "Gone": "gone.otf"},
       "layers": [{"type": "text", "text": "a", "font": {"family": "Helvetica Nue"}}]}
      """
    let found = try errors(json, files: ["junk.png": Array("not a png".utf8), "junk.ttf": Array("not a font".utf8)])
    #expect(found.count == 5, "\(found)")
    // Located at the asset's object, the font's file name and the family.
    #expect(found[0].hasPrefix("t.json:2:21: error: assets.gone: cannot load asset 'gone'") && found[0].contains("gone.png: cannot open"))
    #expect(found[1].hasPrefix("t.json:2:51: error: assets.junk: cannot load asset 'junk'") && found[1].contains("junk.png: cannot decode PNG"))
    #expect(found[2].hasPrefix("t.json:3:20: error: fonts.Junk: ") && found[2].contains("junk.ttf is not a font"))
    #expect(found[3].hasPrefix("t.json:3:40: error: fonts.Gone: ") && found[3].contains("gone.otf: no such file"))
    #expect(found[4].hasPrefix("t.json:4:62: error: layers[0].font.family: unknown font family 'Helvetica Nue' (available: "))
  }
}

/// Emoji drawn in colour from the colour font's bitmaps, scaled with
/// filtering to the text's size; the text's colour does not tint them.
@Suite struct ColorEmojiTests {
  @Test func emojiPixelsAreInColour() throws {
    let renderer = try loadWithFiles(
      ##"{"version": 1, "size": [80, 60], "scale": 1, "layers": [{"type": "text", "text": "\##u{1F600}", "color": "black", "font": {"size": 40}, "position": [40, 30]}]}"##
    )
    let p = try renderer.render(at: 0)
    var yellow = 0, dark = 0
    for y in 0..<60 {
      for x in 0..<80 {
        let c = p[x, y]
        if c.r > 200 && c.g > 150 && c.b < 100 { yellow += 1 }
        if c.r < 120 && c.g < 80 && c.b < 60 { dark += 1 }
      }
    }
    // A 40-point face: hundreds of yellow pixels, and its dark eyes and mouth.
    #expect(yellow > 300, "\(yellow) yellow pixels")
    #expect(dark > 10, "\(dark) dark pixels")
  }
}
