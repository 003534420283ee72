import Foundation
import Pipeline
import Primitives
import Render
import SceneFiles
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
public struct OutputCache: Sendable {
  public let folder: URL
  /// The renderer's identity: an entry another binary kept is never served.
  public let version: String

  public init(folder: URL, version: String) {
    self.folder = folder
    self.version = version
  }

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

  /// The SHA-256 of a file's bytes, hexadecimal ("" when unreadable).
  public static func sha256(file path: String) -> String { SceneFolder.sha256(file: path) }

  /// The system's fonts, which text falls back to: each font file's path
  /// and size, hashed once per process (another font package, or another
  /// version of one, misses the cache; the files' dates do not matter).
  public static let systemFonts: String = {
    var h = SHA256()
    for file in Set(SystemFonts.shared.faces.map(\.file)).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      h.update("\(file) \(fileSize(atPath: file))\n")
    }
    return h.hex()
  }()

  /// What decides the bytes of `source` rendered with `options`, as a
  /// SHA-256: the binary, the options, the system's fonts and every input
  /// of the source (`FrameSource.inputDigest`: its file's bytes, its images
  /// and fonts). Two sources with one key render the same pixels.
  public static func key(_ source: any FrameSource, version: String, options: String) -> String {
    var h = SHA256()
    h.update(
      "\(version)\n\(options)\nname \(source.name)\nsystem fonts \(systemFonts)\ninputs \(source.inputDigest)\n")
    return h.hex()
  }

  /// Copies entry `key`'s outputs into `destination` (each atomically) and
  /// returns their summary and each file's SHA-256 (by its new path); nil
  /// on a miss, or when the entry is damaged (then it is removed).
  public func copy(_ key: String, into destination: String) -> (frames: Int, outputs: [OutputSummary], digests: [String: String])? {
    let entry = folder.appendingPathComponent(key)
    guard let data = FileManager.default.contents(atPath: entry.appendingPathComponent("manifest.json").path) else { return nil }
    guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.version == version,
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
    return (manifest.frames, outputs, digests)
  }

  /// `folder/relative` as the command line gave `folder` (not made
  /// absolute), keeping a trailing `/`.
  public static func join(_ folder: String, _ relative: String) -> String {
    let joined = (folder as NSString).appendingPathComponent(relative)
    return relative.hasSuffix("/") && !joined.hasSuffix("/") ? joined + "/" : joined
  }

  /// Keeps a render's outputs (all below `outputFolder`; `digests` holds
  /// each file's SHA-256 by its path) under `key`. Failing to keep them
  /// costs only a later render: it is never an error.
  public func keep(frames: Int, outputs summaries: [OutputSummary], under key: String, from outputFolder: String, digests: [String: String]) {
    guard !summaries.isEmpty else { return }
    let base = URL(fileURLWithPath: outputFolder).standardizedFileURL.path + "/"
    func relative(_ path: String) -> String? {
      let full = URL(fileURLWithPath: path).standardizedFileURL.path + (path.hasSuffix("/") ? "/" : "")
      return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : nil
    }
    var outputs: [Manifest.Output] = []
    var files: [Manifest.File] = []
    for o in summaries {
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
      let manifest = Manifest(version: version, frames: frames, outputs: outputs, files: files)
      try JSONEncoder().encode(manifest).write(to: temporary.appendingPathComponent("manifest.json"))
      // Another shard may have kept the same entry meanwhile: either is right.
      if rename(temporary.path, entry.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
    }
  }
}
