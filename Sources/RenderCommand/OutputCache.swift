import Foundation
import Pipeline
import Primitives
import Render
import SceneModel
import Typography

/// `render batch --cache DIR`: outputs kept under a key that covers
/// everything that decides their bytes — the renderer's version, every
/// option that changes the output, the scene file's bytes and the bytes of
/// every asset and font file it uses. An entry is a folder `DIR/KEY/` with
/// the output files (by their path below the scene's output folder) and
/// `manifest.json` (each file's SHA-256, size, format and frames), written
/// in a temporary folder and renamed into place, so shards sharing one
/// cache never see half an entry. A hit is verified file by file before it
/// is copied; a damaged entry is removed and rendered again.
struct OutputCache {
  let folder: URL

  struct Manifest: Codable {
    struct Output: Codable {
      /// Below the scene's output folder: the file, or a sequence's folder or pattern.
      var path: String
      var format: String
      var frames: Int
      var bytes: Int
      /// A sequence's frame files, below the output folder.
      var files: [String]
    }
    struct File: Codable {
      var path: String
      var sha256: String
      var bytes: Int
    }
    var version: String
    var frames: Int
    var outputs: [Output]
    var files: [File]
  }

  /// The cache folder, created if missing and tried for writing: a folder
  /// that cannot be written is an error (exit 1) before anything renders.
  static func open(_ path: String) throws(Failure) -> OutputCache {
    OutputCache(folder: try writableFolder(path, option: "--cache"))
  }

  /// The folder `path`, created if missing and tried for writing (a file
  /// created and removed); one that cannot be written is an error naming
  /// `option` (exit 1).
  static func writableFolder(_ path: String, option: String) throws(Failure) -> URL {
    let url = URL(fileURLWithPath: path)
    let probe = url.appendingPathComponent(".probe.\(getpid())")
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try Data().write(to: probe)
      try FileManager.default.removeItem(at: probe)
    } catch {
      Terminal.error("render: error: \(option) \(path): cannot write there (\(error.localizedDescription))")
      throw Failure(status: .renderFailed)
    }
    return url
  }

  /// The SHA-256 of a file's bytes, hexadecimal ("" when unreadable).
  static func sha256(file path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    // In chunks: an output of any length costs a megabyte of memory.
    var h = SHA256()
    while true {
      let chunk = handle.readData(ofLength: 1 << 20)
      if chunk.isEmpty { break }
      h.update(chunk)
    }
    return h.hex()
  }

  /// The system's fonts, which text falls back to: each font file's path
  /// and size, hashed once per process (another font package, or another
  /// version of one, misses the cache; the files' dates do not matter).
  static let systemFonts: String = {
    var h = SHA256()
    for file in Set(SystemFonts.shared.faces.map(\.file)).sorted(by: Batch.byteOrder) { h.update("\(file) \(fileSize(atPath: file))\n") }
    return h.hex()
  }()

  /// What decides the bytes of the loaded scene at `path` (file `bytes`)
  /// rendered with `options`, as a SHA-256: two scenes with one key render
  /// the same pixels.
  static func key(_ path: String, bytes: [UInt8], renderer: SceneRenderer, options: RenderOptions) -> String {
    var h = SHA256()
    h.update(
      "\(RenderVersion.identity)\n\(options.outputKey)\nname \(renderer.scene.name)\nsystem fonts \(systemFonts)\nscene \(SHA256.hex(bytes))\n")
    let directory = (path as NSString).deletingLastPathComponent
    // Loading checked that every file is inside the scene's folder.
    for (name, asset) in renderer.scene.assets.sorted(by: { $0.key < $1.key }) {
      h.update("asset \(name) \(asset.file) \(sha256(file: (directory as NSString).appendingPathComponent(asset.file)))\n")
    }
    for (family, font) in renderer.scene.fonts.sorted(by: { $0.key < $1.key }) {
      h.update("font \(family) \(font.file) \(sha256(file: (directory as NSString).appendingPathComponent(font.file)))\n")
    }
    return h.hex()
  }

  /// Copies entry `key`'s outputs into `destination` (each atomically) and
  /// returns their summary and each file's SHA-256 (by its new path); nil
  /// on a miss, or when the entry is damaged (then it is removed).
  func copy(_ key: String, into destination: String) -> (RenderSummary, [String: String])? {
    let entry = folder.appendingPathComponent(key)
    guard let data = FileManager.default.contents(atPath: entry.appendingPathComponent("manifest.json").path) else { return nil }
    guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.version == RenderVersion.identity,
      manifest.files.allSatisfy({ f in
        let p = entry.appendingPathComponent("files").appendingPathComponent(f.path).path
        return fileSize(atPath: p) == f.bytes && Self.sha256(file: p) == f.sha256
      })
    else {
      try? FileManager.default.removeItem(at: entry)
      return nil
    }
    // Marked as used now: a CI run keeps only the entries it used.
    utimes(entry.path, nil)
    let base = URL(fileURLWithPath: destination)
    do {
      for f in manifest.files {
        let source = entry.appendingPathComponent("files").appendingPathComponent(f.path)
        try TemporaryFile.write(to: base.appendingPathComponent(f.path).path) { temporary in
          try FileManager.default.copyItem(atPath: source.path, toPath: temporary)
        }
      }
    } catch {
      return nil
    }
    let outputs = manifest.outputs.map { o in
      OutputSummary(
        path: Self.join(destination, o.path), format: o.format, frames: o.frames, bytes: o.bytes, files: o.files.map { Self.join(destination, $0) })
    }
    let digests = Dictionary(manifest.files.map { (Self.join(destination, $0.path), $0.sha256) }, uniquingKeysWith: { a, _ in a })
    return (RenderSummary(scene: "", frames: manifest.frames, seconds: 0, outputs: outputs), digests)
  }

  /// `folder/relative` as the command line gave `folder` (not made
  /// absolute), keeping a trailing `/`.
  static func join(_ folder: String, _ relative: String) -> String {
    let joined = (folder as NSString).appendingPathComponent(relative)
    return relative.hasSuffix("/") && !joined.hasSuffix("/") ? joined + "/" : joined
  }

  /// Keeps a render's outputs (all below `outputFolder`; `digests` holds
  /// each file's SHA-256 by its path) under `key`. Failing to keep them
  /// costs only a later render: it is never an error.
  func keep(_ summary: RenderSummary, under key: String, from outputFolder: String, digests: [String: String]) {
    guard !summary.outputs.isEmpty else { return }
    let base = URL(fileURLWithPath: outputFolder).standardizedFileURL.path + "/"
    func relative(_ path: String) -> String? {
      let full = URL(fileURLWithPath: path).standardizedFileURL.path + (path.hasSuffix("/") ? "/" : "")
      return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : nil
    }
    var outputs: [Manifest.Output] = []
    var files: [Manifest.File] = []
    for o in summary.outputs {
      guard let path = relative(o.path) else { return }
      let frameFiles = o.files.compactMap(relative)
      guard frameFiles.count == o.files.count else { return }
      outputs.append(Manifest.Output(path: path, format: o.format, frames: o.frames, bytes: o.bytes, files: frameFiles))
      for (f, original) in zip(o.files.isEmpty ? [path] : frameFiles, o.files.isEmpty ? [o.path] : o.files) {
        guard let sha = digests[original] else { return }
        files.append(Manifest.File(path: f, sha256: sha, bytes: fileSize(atPath: base + f)))
      }
    }
    let entry = folder.appendingPathComponent(key)
    guard !FileManager.default.fileExists(atPath: entry.path) else { return }
    let temporary = folder.appendingPathComponent(".\(key).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    do {
      for f in files {
        let target = temporary.appendingPathComponent("files").appendingPathComponent(f.path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: base + f.path, toPath: target.path)
      }
      let manifest = Manifest(version: RenderVersion.identity, frames: summary.frames, outputs: outputs, files: files)
      try JSONEncoder().encode(manifest).write(to: temporary.appendingPathComponent("manifest.json"))
      // Another shard may have kept the same entry meanwhile: either is right.
      if rename(temporary.path, entry.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
    }
  }
}
