import Foundation

/// ../shared/vectors/timing.json, copied into the test bundle: reference
/// values from an independent numerical integration (scipy solve_ivp) and
/// the standard formulas, not from this code.
struct TimingVectors: Decodable {
  struct AppleExample: Decodable {
    let spring: String
    let mass: Double?
    let stiffness: Double?
    let damping: Double?
    let duration: Double?
    let bounce: Double?
    let tolerance: Double
  }
  struct Sample: Decodable, Sendable {
    let t: Double
    let value: Double
    let velocity: Double
  }
  struct SpringFixture: Decodable, Sendable {
    let name: String
    let mass: Double
    let stiffness: Double
    let damping: Double
    let dampingRatio: Double
    let target: Double
    let initialVelocity: Double
    let settlingDuration: Double
    let samples: [Sample]
  }
  struct Conversion: Decodable, Sendable {
    let duration: Double
    let bounce: Double
    let dampingRatio: Double
    let mass: Double
    let stiffness: Double
    let damping: Double
  }
  let appleDocumentationExamples: [AppleExample]
  let springs: [SpringFixture]
  let conversions: [Conversion]
  let pennerEasings: [String: [String: Double]]
  let cubicBezierCurves: [String: [String: Double]]

  static let shared: TimingVectors = try! JSONDecoder().decode(TimingVectors.self, from: Data(contentsOf: bundledURL))

  /// The copy in the bundle, and the path of the shared original when this
  /// checkout sits beside ../shared (as in CI).
  static var bundledURL: URL {
    Bundle.module.url(forResource: "timing", withExtension: "json", subdirectory: "Fixtures")!
  }
  static var sharedURL: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("shared/vectors/timing.json")
  }
}

/// Sorted "x": value pairs of an easing or curve fixture.
func points(_ table: [String: Double]) -> [(x: Double, y: Double)] {
  table.map { (Double($0.key)!, $0.value) }.sorted { $0.x < $1.x }
}
