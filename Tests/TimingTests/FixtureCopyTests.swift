import Foundation
import Testing

/// The bundled copy of the vectors must stay identical to ../shared's, where
/// a checkout has it beside it (as in CI).
@Test func bundledVectorsMatchShared() throws {
  let shared = TimingVectors.sharedURL
  guard FileManager.default.fileExists(atPath: shared.path) else { return }
  #expect(try Data(contentsOf: shared) == Data(contentsOf: TimingVectors.bundledURL))
}
