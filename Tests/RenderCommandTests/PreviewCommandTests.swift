import Foundation
import Testing

/// `render preview` as its users meet it (docs/cli.md, "Live preview"):
/// Tests/Reference/preview_checks.py drives the release binary over raw HTTP
/// and in headless Chromium (Debian's `chromium`, through Playwright for
/// Python in .build-tools/venv, both installed by scripts/install-deps).
/// The browser checks are skipped, and say so, when the browser cannot
/// start; the raw HTTP checks need only Python.
@Suite(.serialized) struct PreviewCommandTests {
  static let script = DeployTests.file("Tests/Reference/preview_checks.py")
  static let python = DeployTests.tool("python")

  /// Whether headless Chromium starts under Playwright here (asked once).
  static let canBrowse: Bool = {
    guard let python, FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else { return false }
    return (try? DeployTests.run(python, [script, "--can-browse"]).status) == 0
  }()

  static func check(_ name: String) throws {
    let python = try #require(Self.python)
    let run = try DeployTests.run(python, [script, name, "--render", RenderBinary.url.path])
    #expect(run.status == 0, "\(name): \(run.output)")
  }

  @Test(.enabled(if: python != nil, "the tools' venv is not installed (scripts/install-deps)"))
  func trustChecksPortsAndBadTimes() throws { try Self.check("trust") }

  @Test(.enabled(if: canBrowse, "headless Chromium (/usr/bin/chromium with Playwright) cannot start"))
  func canvasPixelsEqualRenderStill() throws { try Self.check("pixels") }

  @Test(.enabled(if: canBrowse, "headless Chromium (/usr/bin/chromium with Playwright) cannot start"))
  func keysStepFramesAndSecondsAndSpacePlays() throws { try Self.check("step") }

  @Test(.enabled(if: canBrowse, "headless Chromium (/usr/bin/chromium with Playwright) cannot start"))
  func savesInPlaceAndByRenameReachThePage() throws { try Self.check("saves") }

  @Test(.enabled(if: canBrowse, "headless Chromium (/usr/bin/chromium with Playwright) cannot start"))
  func invalidSavesShowWhereAndKeepTheLastGoodFrame() throws { try Self.check("invalid") }

  @Test(.enabled(if: canBrowse, "headless Chromium (/usr/bin/chromium with Playwright) cannot start"))
  func missingAssetsAndScenesInvalidAtStart() throws { try Self.check("assets") }

  @Test(.enabled(if: canBrowse, "headless Chromium (/usr/bin/chromium with Playwright) cannot start"))
  func scrubbingPaintsWhileDraggingAndNothingLoadsFromElsewhere() throws { try Self.check("scrub") }
}
