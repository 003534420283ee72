import DisplayListFixtures
import Foundation
import PNGCodec
import Raster
import Testing

/// One golden image per feature, rendered by Skia (scripts/skia_frames.py
/// --goldens) from the same JSON display list that this test draws with
/// Springframe. Each file states its tolerance and why: mean and 99.9th
/// percentile of the per-channel difference, and its maximum, in 8-bit levels.
@Suite struct GoldenTests {
  static let folder = Bundle.module.url(forResource: "Goldens", withExtension: nil)!
  static let names: [String] =
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
    .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted() ?? []

  @Test func everyFeatureHasAGolden() {
    #expect(Self.names.count >= 8)
  }

  @Test(arguments: names)
  func matchesSkia(_ name: String) throws {
    let jsonURL = Self.folder.appendingPathComponent(name + ".json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: jsonURL)) as? [String: Any])
    let tolerance = try #require(object["tolerance"] as? [String: Double])
    let ours = try DisplayList(json: object).draw()
    let golden = try PNG.read(path: Self.folder.appendingPathComponent(name + ".png").path)
    #expect(ours.width == golden.width && ours.height == golden.height)
    let differences = zip(ours.bytes, golden.bytes).map { abs(Int($0) - Int($1)) }.sorted()
    let mean = Double(differences.reduce(0, +)) / Double(differences.count)
    let p999 = differences[Int(Double(differences.count - 1) * 0.999)]
    let worst = differences.last ?? 0
    let summary = "\(name): mean \(mean), 99.9% \(p999), max \(worst)"
    let failed = mean > tolerance["mean"]! || Double(p999) > tolerance["p999"]! || Double(worst) > tolerance["max"]!
    if failed || ProcessInfo.processInfo.environment["SPRINGFRAME_KEEP_GOLDENS"] != nil {
      // Keep ours for a look (always on failure): /tmp/springframe-golden-NAME.png
      try? PNG.write(ours, to: "/tmp/springframe-golden-\(name).png")
    }
    #expect(mean <= tolerance["mean"]!, "\(summary)")
    #expect(Double(p999) <= tolerance["p999"]!, "\(summary)")
    #expect(Double(worst) <= tolerance["max"]!, "\(summary)")
  }
}
