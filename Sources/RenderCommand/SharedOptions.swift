import ArgumentParser

// The options several commands share, each declared once (docs/cli.md):
// a command takes them as `@OptionGroup`s, so their names, help and checks
// cannot drift apart.

/// `--jobs N`: worker threads.
struct Workers: ParsableArguments {
  @Option(help: "Worker threads, 1 … 256 (default: all cores).")
  var jobs: Int?

  func validate() throws {
    if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
  }
}

/// `--scale S`: pixels per point.
struct ScaleOption: ParsableArguments {
  @Option(help: "Pixels per point, above 0 and at most 16 (default: the scene's; a chart's PNG: 2).")
  var scale: Double?

  func validate() throws {
    if let scale, !(scale > 0 && scale.isFinite && scale <= 16) { throw ValidationError("--scale must be greater than 0 and at most 16") }
  }
}

/// `--quiet`: nothing on standard error but errors.
struct Quiet: ParsableArguments {
  @Flag(help: "No progress or warnings on standard error (errors are still printed).")
  var quiet = false
}

/// `--json`: what the command did, as one line of JSON on standard output.
struct JSONSummary: ParsableArguments {
  @Flag(help: "Print what the command did as one line of JSON on standard output (docs/cli.md gives each command's fields).")
  var json = false
}
