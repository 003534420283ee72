import Foundation
import PNGCodec
import Raster
import Render
import SceneModel
import Testing

/// Golden stills of whole scenes: each `NAME@T.png` in Goldens is the scene
/// `NAME.json` at time T, rendered once and inspected by eye (a card with a
/// gradient, a clipped blurred glow, a shadow, a stack whose rows are
/// inserted and removed with transitions while the others slide, a trimmed
/// ring on a spring and a dashed curve). They guard against regressions;
/// the geometry itself is checked by hand-computed pixels elsewhere.
/// No tolerance: the bytes must be equal. Timing and geometry use
/// PortableMath's correctly rounded functions, never the host's libm, so
/// every machine renders the same bytes (shards of one batch run on
/// different machines).
/// To regenerate after an intended change: `scripts/update-goldens`.
@Suite struct GoldenStillTests {
  static let folder = Bundle.module.url(forResource: "Goldens", withExtension: nil)!
  static let stills: [String] =
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
    .filter { $0.hasSuffix(".png") }.sorted() ?? []

  @Test func thereAreGoldenStills() { #expect(Self.stills.count >= 3) }

  @Test(arguments: stills)
  func stillMatchesItsGolden(_ file: String) throws {
    let stem = file.dropLast(4)
    let parts = stem.split(separator: "@")
    let name = String(parts[0]), t = try #require(Double(parts[1]))
    let url = Self.folder.appendingPathComponent(name + ".json")
    let scene = try SceneDecoder.decode(Array(try Data(contentsOf: url)), file: url.path, defaultName: name)
    let ours = try SceneRenderer(scene: scene).render(at: t)
    let golden = try PNG.read(path: Self.folder.appendingPathComponent(file).path)
    #expect(ours.width == golden.width && ours.height == golden.height)
    let differing = zip(ours.bytes, golden.bytes).filter { $0 != $1 }.count
    let worst = zip(ours.bytes, golden.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
    if differing > 0 { try? PNG.write(ours, to: "/tmp/springframe-still-\(stem).png") }
    #expect(
      differing == 0,
      "\(file): \(differing) bytes differ, by up to \(worst) levels; ours is in /tmp/springframe-still-\(stem).png")
  }
}
