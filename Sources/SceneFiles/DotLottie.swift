import Lottie
import Primitives
import Render
import SceneModel
import Syntax

/// dotLottie archives (docs/cli.md, "Lottie input"): a zip whose
/// `manifest.json` names its animations, in the v1 layout (`animations/`,
/// `images/`) or the v2 layout (`a/`, `i/`). The first animation is used,
/// with its images. The zip is read by libzip (DotLottie+Unsafe.swift),
/// entry by entry with their sizes bounded, so a bomb is refused before
/// it is inflated past the limits.
enum DotLottie {
  /// The most an entry may inflate to (a Lottie file's own limit).
  static let maximumEntryBytes = LottieDecoder.maximumBytes
  /// The most all entries read may inflate to together.
  static let maximumTotalBytes = 256 << 20
  /// The most entries an archive may list.
  static let maximumEntries = 10_000

  /// A zip's local file header signature.
  static func isArchive(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

  /// The entries worth reading: the manifest, animations and images.
  static func wanted(_ name: String) -> Bool {
    name == "manifest.json" || ["animations/", "a/", "images/", "i/"].contains { name.hasPrefix($0) && name.count > $0.count }
  }

  /// The animation's entry: the manifest's first, in either layout; without
  /// a manifest naming one, the first animation in the archive.
  static func animationEntry(manifest: [UInt8]?, names: [String]) -> String? {
    let animations = names.filter { ($0.hasPrefix("animations/") || $0.hasPrefix("a/")) && $0.hasSuffix(".json") }.sorted()
    if let manifest, let root = try? JSONParser.parse(manifest), let first = root["animations"]?.array?.first,
      let id = first["id"]?.string
    {
      for candidate in ["animations/\(id).json", "a/\(id).json"] where animations.contains(candidate) { return candidate }
    }
    return animations.first
  }

  /// The animation's bytes, the name its errors carry (`anim.lottie/a/x.json`)
  /// and its images as files named relative to it.
  static func open(_ bytes: [UInt8], file: String) throws(SceneErrors) -> (json: [UInt8], file: String, read: LottieImages.Reader) {
    func failure(_ message: String) -> SceneErrors {
      SceneErrors(diagnostics: [
        SceneDiagnostic(file: file, location: SourceLocation(line: 1, column: 1, offset: 0), path: .root, message: message)
      ])
    }
    let entries: [String: [UInt8]]
    do throws(ResourceError) {
      entries = try ZipArchive.read(
        bytes, wanted: wanted, maximumEntries: maximumEntries, maximumEntryBytes: maximumEntryBytes, maximumTotalBytes: maximumTotalBytes)
    } catch {
      throw failure("not a dotLottie archive that can be read: \(error.message)")
    }
    guard let entry = animationEntry(manifest: entries["manifest.json"], names: Array(entries.keys)), let json = entries[entry] else {
      throw failure("the dotLottie archive holds no animation (animations/NAME.json or a/NAME.json)")
    }
    let read: LottieImages.Reader = { (name: String) throws(ResourceError) -> [UInt8] in
      // Exports name images as "/images/x.png", "/i/x.png" or just "x.png".
      for candidate in [name, "images/" + name, "i/" + name] { if let data = entries[candidate] { return data } }
      throw ResourceError("the archive has no \(Excerpt.quoted(name))")
    }
    return (json, "\(file)/\(entry)", read)
  }
}
