import Foundation
import TestSupport
import Testing

/// The deployment files (README.md, "In CI"): the GitHub workflow passes
/// actionlint, the Kubernetes manifest passes kubernetes-validate, the
/// Dockerfile passes hadolint, its runtime package list covers what `ldd`
/// says the binary loads and what it opens to write a video (the dynamic
/// linker's trace), and the Indexed Job, simulated with N processes,
/// writes what one run writes, byte for byte. The linters come from PyPI
/// into .build-tools/venv (scripts/install-deps); without them the tests
/// that need them are skipped.
@Suite struct DeployTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
  static func file(_ relative: String) -> String { root + "/" + relative }
  static func tool(_ name: String) -> String? {
    let path = file(".build-tools/venv/bin/" + name)
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }
  static func system(_ name: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  struct Run {
    var status: Int32
    var output: String
  }

  /// Runs `tool` with `arguments`; standard output and error together.
  static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }

  // MARK: the linters

  @Test(.enabled(if: tool("actionlint") != nil, "actionlint is not installed (scripts/install-deps puts it in .build-tools/venv)"))
  func theWorkflowPassesActionlint() throws {
    let workflow = Self.file(".github/workflows/render.yml")
    let lint = try Self.run(Self.tool("actionlint")!, [workflow])
    #expect(lint.status == 0, "\(lint.output)")
    // The linter can fail: a job that needs a job that does not exist.
    let dir = Scratch("springframe-actionlint")
    defer { dir.cleanUp() }
    let text = try String(contentsOfFile: workflow, encoding: .utf8)
    let broken = dir.write(Array(text.replacingOccurrences(of: "needs: build\n", with: "needs: biuld\n").utf8), "broken.yml")
    #expect(try Self.run(Self.tool("actionlint")!, [broken]).status != 0)
    // What the issue asks of it.
    for needed in [
      "actions/cache", "path: .build", "--shard", "strategy.job-total", "actions/upload-artifact", "merge-multiple: true", "--baseline",
      "--report", "pull_request", "github.event.pull_request.base.sha", "GITHUB_STEP_SUMMARY", "hashFiles('scenes/**'",
    ] {
      #expect(text.contains(needed), "the workflow has no \(needed)")
    }
  }

  @Test(.enabled(if: tool("kubernetes-validate") != nil, "kubernetes-validate is not installed (scripts/install-deps)"))
  func theManifestValidates() throws {
    let manifest = Self.file("deploy/kubernetes/render-job.yaml")
    let check = try Self.run(Self.tool("kubernetes-validate")!, ["--strict", manifest])
    #expect(check.status == 0, "\(check.output)")
    let dir = Scratch("springframe-k8s")
    defer { dir.cleanUp() }
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
    let broken = dir.write(Array(text.replacingOccurrences(of: "  parallelism: 4", with: "  paralelism: 4").utf8), "broken.yaml")
    #expect(try Self.run(Self.tool("kubernetes-validate")!, ["--strict", broken]).status != 0, "a misspelt field fails")

    let job = try #require(try Self.manifest().first { $0["kind"] as? String == "Job" })
    let spec = try #require(job["spec"] as? [String: Any])
    #expect(spec["completionMode"] as? String == "Indexed")
    let completions = try #require(spec["completions"] as? Int)
    #expect(spec["parallelism"] as? Int == completions)
    #expect(try Self.container()["env"].flatMap(Self.env)?["SHARDS"] == "\(completions)", "SHARDS must equal completions")
  }

  @Test(.enabled(if: tool("hadolint") != nil, "hadolint is not installed (scripts/install-deps)"))
  func theDockerfilePassesHadolint() throws {
    let dockerfile = Self.file("deploy/Dockerfile")
    let lint = try Self.run(Self.tool("hadolint")!, [dockerfile])
    #expect(lint.status == 0, "\(lint.output)")
    let dir = Scratch("springframe-hadolint")
    defer { dir.cleanUp() }
    let text = try String(contentsOfFile: dockerfile, encoding: .utf8)
    let broken = dir.write(Array(text.replacingOccurrences(of: "WORKDIR /work", with: "RUN cd /work").utf8), "Dockerfile")
    #expect(try Self.run(Self.tool("hadolint")!, [broken]).status != 0, "hadolint can fail")
    #expect(text.contains("debian:bookworm-slim") && text.contains("deploy/runtime-packages.txt") && text.contains("--static-swift-stdlib"))
  }

  // MARK: the runtime libraries

  /// deploy/runtime-packages.txt, comments and blank lines left out.
  static func runtimePackages() throws -> [String] {
    try String(contentsOfFile: file("deploy/runtime-packages.txt"), encoding: .utf8).split(separator: "\n").compactMap { line in
      let word = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
      return word.isEmpty ? nil : word
    }
  }

  /// The Debian packages that own `paths` (a path no package owns is
  /// missing), in one call of dpkg; symbolic links are tried resolved too.
  static func owners(_ paths: [String]) throws -> [String: String] {
    let resolved = Dictionary(paths.map { ($0, URL(fileURLWithPath: $0).resolvingSymlinksInPath().path) }) { a, _ in a }
    let r = try run(system("dpkg")!, ["-S"] + Array(Set(paths + resolved.values)))
    var byPath: [String: String] = [:]
    for line in r.output.split(separator: "\n") {
      guard let separator = line.range(of: ": ") else { continue }
      let package = line[..<separator.lowerBound].split(separator: ",")[0].split(separator: ":")[0]
      byPath[String(line[separator.upperBound...])] = String(package)
    }
    var owners: [String: String] = [:]
    for path in paths { owners[path] = byPath[path] ?? resolved[path].flatMap { byPath[$0] } }
    return owners
  }

  /// `packages` and everything they depend on (Depends and Pre-Depends),
  /// among the installed packages.
  static func closure(_ packages: [String]) throws -> Set<String> {
    let r = try run(system("dpkg-query")!, ["-W", "-f=${Package}\t${Pre-Depends}, ${Depends}\n"])
    var depends: [String: [String]] = [:]
    for line in r.output.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2 else { continue }
      depends[String(parts[0]), default: []] += parts[1].split(whereSeparator: { $0 == "," || $0 == "|" }).compactMap { alternative in
        alternative.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map { String($0.split(separator: ":")[0]) }
      }
    }
    var seen = Set<String>(), queue = packages
    while let p = queue.popLast() {
      guard seen.insert(p).inserted else { continue }
      queue += depends[p] ?? []
    }
    return seen
  }

  /// Swift's runtime, which the image's binary links statically.
  static func isSwiftRuntime(_ library: String) -> Bool {
    let name = (library as NSString).lastPathComponent
    return ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"].contains { name.hasPrefix($0) }
  }

  @Test(.enabled(if: system("ldd") != nil && system("dpkg") != nil && system("objdump") != nil, "ldd, dpkg or objdump is missing"))
  func theRuntimeListCoversWhatTheBinaryLoads() throws {
    let binary = RenderBinary.url.path
    let listed = try Self.runtimePackages()
    let installed = try Self.closure(listed)
    let ldd = try Self.run(Self.system("ldd")!, [binary])
    #expect(ldd.status == 0 && !ldd.output.contains("not found"), "\(ldd.output)")
    var libraries: [String] = []
    for line in ldd.output.split(separator: "\n") {
      let words = line.split(separator: " ")
      if let arrow = words.firstIndex(of: "=>"), arrow + 1 < words.count, words[arrow + 1].hasPrefix("/") {
        libraries.append(String(words[arrow + 1]))
      }
    }
    #expect(libraries.count > 5)
    // FFmpeg's libraries are not linked but opened when a video is written:
    // what the process maps then, as the dynamic linker traces it
    // (LD_DEBUG=files: "calling init: PATH" for each library it starts,
    // "file=NAME …; dynamically loaded by" for each one `render` opens).
    let dir = try PipelineCommandTests.folder("deploy-ffmpeg")
    let scene = try PipelineCommandTests.scene(in: dir)
    let video = try RenderBinary.run(
      [scene, "--fps", "5", "-o", dir.appendingPathComponent("a.mp4").path, "--quiet"], environment: ["LD_DEBUG": "files"])
    #expect(video.status == 0, "\(video.stderr.suffix(300))")
    var opened = Set<String>()
    for line in video.stderr.split(separator: "\n") {
      if let start = line.range(of: "calling init: ") {
        let path = String(line[start.upperBound...])
        if path.hasPrefix("/"), !libraries.contains(path) { libraries.append(path) }
      }
      if line.contains("dynamically loaded by"), let name = line.split(separator: "=").dropFirst().first?.split(separator: " ").first {
        opened.insert(String(name))
      }
    }
    #expect(opened.contains { $0.hasPrefix("libavcodec.so") } && opened.contains { $0.hasPrefix("libswscale.so") }, "\(opened.sorted())")
    let owners = try Self.owners(libraries)
    for library in libraries {
      if let package = owners[library] {
        let covered = installed.contains(package)
        #expect(covered, "\(library) (\(package)) is not installed by deploy/runtime-packages.txt")
      } else {
        #expect(Self.isSwiftRuntime(library), "\(library) belongs to no Debian package and is not Swift's runtime")
      }
    }
    // The list names each library the binary links itself, and nothing it does not.
    let dump = try Self.run(Self.system("objdump")!, ["-p", binary])
    let needed = dump.output.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      return words.first == "NEEDED" ? words.last.map(String.init) : nil
    }
    var direct = Set<String>()
    for name in needed + opened.sorted() where !Self.isSwiftRuntime(name) {
      guard let path = libraries.first(where: { ($0 as NSString).lastPathComponent == name }) ?? (name.hasPrefix("ld-linux") ? nil : name) else {
        continue
      }
      if let package = owners[path] { direct.insert(package) }
    }
    #expect(direct.isSubset(of: Set(listed)), "linked or opened but not listed: \(direct.subtracting(listed).sorted())")
    let libraryPackages = Set(listed.filter { !$0.hasPrefix("fonts-") })
    #expect(
      libraryPackages.subtracting(direct).subtracting(["libstdc++6", "libgcc-s1"]).isEmpty,
      "listed but neither linked nor opened: \(libraryPackages.subtracting(direct).sorted())")
  }

  // MARK: the Indexed Job, simulated

  /// The manifest's documents as JSON objects (PyYAML from the tools' venv).
  static func manifest() throws -> [[String: Any]] {
    let python = try #require(tool("python"))
    let r = try run(
      python,
      ["-c", "import sys, json, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))", file("deploy/kubernetes/render-job.yaml")])
    #expect(r.status == 0, "\(r.output)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [[String: Any]])
  }

  static func container() throws -> [String: Any] {
    let job = try #require(try manifest().first { $0["kind"] as? String == "Job" })
    let pod = try #require(((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
    return try #require((pod["containers"] as? [[String: Any]])?.first)
  }

  /// A container's plain `env` values by name.
  static func env(_ list: Any) -> [String: String]? {
    (list as? [[String: Any]]).map {
      Dictionary(uniqueKeysWithValues: $0.compactMap { e in (e["value"] as? String).map { (e["name"] as! String, $0) } })
    }
  }

  /// N processes run the manifest's own command, each with its
  /// JOB_COMPLETION_INDEX, into one output folder and one cache, all at
  /// once; what they write is what one `render batch` writes. Two scenes
  /// with the same bytes in different folders race for one cache entry.
  @Test(.enabled(if: tool("python") != nil && system("bash") != nil, "the tools' venv (PyYAML) is not installed (scripts/install-deps)"))
  func theIndexedJobEqualsOneRun() throws {
    let dir = Scratch("springframe-indexed-job")
    defer { dir.cleanUp() }
    let scenes = BatchScaleTests.tree(dir, count: 7)
    try FileManager.default.createDirectory(atPath: scenes + "/twin", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: scenes + "/s0.json", toPath: scenes + "/twin/s0.json")

    let container = try Self.container()
    let command = try #require(container["command"] as? [String]) + (try #require(container["args"] as? [String]))
    let env = try #require(container["env"].flatMap(Self.env))
    let shards = try #require(Int(env["SHARDS"] ?? ""))
    let options = "--fps 10 --format mp4,gif"
    var base = ProcessInfo.processInfo.environment
    base["PATH"] = RenderBinary.url.deletingLastPathComponent().path + ":" + (base["PATH"] ?? "/usr/bin:/bin")
    base["SHARDS"] = "\(shards)"
    base["SCENES"] = scenes
    base["OUT"] = dir.path("job")
    base["CACHE"] = dir.path("cache")
    base["RENDER_ARGS"] = options
    base["JOBS"] = "1"
    var pods: [Process] = []
    for index in 0..<shards {
      let pod = Process()
      pod.executableURL = URL(fileURLWithPath: command[0])
      pod.arguments = Array(command.dropFirst())
      pod.environment = base.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { _, new in new }
      pod.standardError = FileHandle.nullDevice
      try pod.run()
      pods.append(pod)
    }
    for pod in pods { pod.waitUntilExit() }
    #expect(pods.allSatisfy { $0.terminationStatus == 0 }, "\(pods.map(\.terminationStatus))")

    let one = try RenderBinary.run(["batch", scenes, "--out", dir.path("one"), "--quiet"] + options.split(separator: " ").map(String.init))
    #expect(one.status == 0, "\(one.stderr)")
    var job = BatchScaleTests.files(dir.path("job"))
    let results = job.keys.filter { $0.hasPrefix(".results/") }
    #expect(results.count == shards)
    var rendered: [String] = []
    for key in results {
      rendered += try BatchScaleTests.json(String(decoding: job.removeValue(forKey: key)!, as: UTF8.self)).compactMap { $0["scene"] as? String }
    }
    #expect(rendered.sorted() == rendered.sorted().reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }, "no scene twice")
    #expect(rendered.count == 8, "every scene once")
    let single = BatchScaleTests.files(dir.path("one"))
    #expect(job.count == single.count && job.count == 16)
    #expect(job == single, "the pods' outputs are one run's, byte for byte")
  }
}
