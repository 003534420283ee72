import Foundation
import Testing

/// Lottie input against a reference player (docs/cli.md, "Lottie input"):
/// Tests/Reference/lottie_fidelity.py renders 8 frames evenly spaced over
/// each file's [ip, op) with the release `render still` and with ThorVG
/// (thorvg-python, installed by scripts/install-deps into
/// .build-tools/venv), at 128 px on the longer side, and compares them over
/// white and over black. The files, from MIT-licensed public test suites,
/// are in Tests/Fixtures/lottie with their sources (its README.md).
@Suite struct LottieFidelityTests {
  static let folder = DeployTests.file("Tests/Fixtures/lottie")
  static let python = DeployTests.tool("python")
  static let thorvg: Bool = {
    guard let python else { return false }
    return (try? DeployTests.run(python, ["-c", "import thorvg_python"]).status) == 0
  }()

  /// The files held to 30 dB at 128 px: all but the two below (at 250 px)
  /// and the old-colour copy (against its original).
  static let held = [
    "1st_animation", "4479-fireworks", "5344-honey-sack-hud", "R_QPKIVi", "StickAndBall", "a_cup_of_coffee", "alien", "birth_stone_logo",
    "bounching_ball", "done", "emoji_wink",
    "fly_in_beaker", "focal_test", "gradient_background", "frog_vr", "gears", "gradient_animated_background", "gradient_sleepy_loader",
    "gradient_smoke", "graph",
    "happy_trio", "hourglass",
    "it_s_lunch_time", "loader_4", "loading", "loading_animation", "maps", "masking", "material_wave_loading", "matte_two_item_with_lowerlayer",
    "peli-canon", "polystar",
    "pumpkin", "ripple_loading_animation", "slot1", "telegram", "water_filling", "waves",
  ]

  @Test(.enabled(if: thorvg, "thorvg-python (scripts/install-deps) is not installed"))
  func filesAgreeWithThorVGTo30dB() throws {
    let folder = Self.folder
    var files = Self.held.map { "\(folder)/\($0).json" }
    // The old 0 … 255 colours, which ThorVG does not read, against the original's frames.
    files.append("\(folder)/material_wave_loading_v4colours.json=\(folder)/material_wave_loading.json")
    let run = try DeployTests.run(
      try #require(Self.python),
      [DeployTests.file("Tests/Reference/lottie_fidelity.py"), "--render", RenderBinary.url.path, "--size", "128", "--min", "30"] + files)
    #expect(run.status == 0, "\(run.output)")
  }

  /// Files whose solids and rectangles fall on fractions of a pixel at 128
  /// px: ThorVG draws an axis-aligned rectangle with its edges rounded to
  /// whole pixels, where we (and lottie-web) cover them partly. At 250 px
  /// their edges are whole pixels.
  static let heldAt250 = ["mask", "triib_manage"]

  @Test(.enabled(if: thorvg, "thorvg-python (scripts/install-deps) is not installed"))
  func filesWithRectanglesAgreeWithThorVGTo30dBAt250px() throws {
    let run = try DeployTests.run(
      try #require(Self.python),
      [DeployTests.file("Tests/Reference/lottie_fidelity.py"), "--render", RenderBinary.url.path, "--size", "250", "--min", "30"]
        + Self.heldAt250.map { "\(Self.folder)/\($0).json" })
    #expect(run.status == 0, "\(run.output)")
  }

  /// dotLottie archives (Tests/Reference/dotlottie_checks.py builds them
  /// with Python's zipfile): v1 and v2 layouts and images inside draw the
  /// pixels of the same animation as JSON; a bomb, a truncated zip and an
  /// archive without an animation fail located, exit 65, nothing written.
  @Test func dotLottieArchives() throws {
    let run = try DeployTests.run(
      "/usr/bin/python3",
      [DeployTests.file("Tests/Reference/dotlottie_checks.py"), RenderBinary.url.path, "\(Self.folder)/gradient_background.json"])
    #expect(run.status == 0, "\(run.output)")
  }
}
