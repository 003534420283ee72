import Foundation
import Testing

/// The bundled copy of the vectors must stay identical to the shared
/// original, where the checkout has it beside it; elsewhere the test reports
/// itself skipped rather than passing without a comparison.
@Test(
  .enabled(
    if: FileManager.default.fileExists(atPath: TimingVectors.sharedURL.path),
    "the shared vectors are not beside this checkout (../shared/vectors/timing.json)"))
func bundledVectorsMatchShared() throws {
  #expect(try Data(contentsOf: TimingVectors.sharedURL) == Data(contentsOf: TimingVectors.bundledURL))
}
