import Syntax

/// One problem in a scene file, located as `render` prints it:
/// `FILE:LINE:COLUMN: error: JSON.PATH: what is wrong`.
public struct SceneDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var location: SourceLocation
  public var path: JSONPath
  public var message: String

  public init(file: String, location: SourceLocation, path: JSONPath, message: String) {
    self.file = file; self.location = location; self.path = path; self.message = message
  }

  public var description: String {
    "\(file):\(location.line):\(location.column): error: \(path): \(message)"
  }
}

/// Every problem found in a scene (decoding goes on past the first, so one
/// run reports them all), in file order.
public struct SceneErrors: Error, Sendable, CustomStringConvertible {
  /// Errors one scene reports at most (docs/cli.md); the rest are counted.
  public static let maximumReported = 100

  /// The first `maximumReported` problems in file order.
  public let diagnostics: [SceneDiagnostic]
  /// How many more were found.
  public let omitted: Int

  /// `diagnostics` in file order, the first `maximumReported` kept.
  public init(diagnostics: [SceneDiagnostic]) {
    let sorted = diagnostics.sorted { $0.location < $1.location }
    self.diagnostics = Array(sorted.prefix(Self.maximumReported))
    omitted = sorted.count - self.diagnostics.count
  }

  public var description: String {
    let lines = diagnostics.map(\.description) + (omitted > 0 ? ["… and \(omitted) more"] : [])
    return lines.joined(separator: "\n")
  }
}

/// Limits that protect the machine: a scene over one is an error naming
/// the limit, never an attempt to allocate.
public enum SceneLimits {
  /// Largest magnitude of any number a layer property takes (points,
  /// degrees, scale factors) or a velocity gives per second: far beyond
  /// any screen, far below where geometry loses its precision.
  public static let maximumMagnitude = 1_000_000.0
  /// Largest blur or shadow radius, in points: a blur's work and memory
  /// grow with its radius.
  public static let maximumRadius = 100.0
  /// Largest backdrop saturation: 10 times the colour.
  public static let maximumSaturation = 10.0
  /// Bytes of a scene's `name`: `NAME_00000.png` still fits a file name.
  public static let maximumNameBytes = 200
  /// Rendered pixels per frame (size × scale): 8K × 8K.
  public static let maximumPixels = 8192 * 8192
  /// Longest side in pixels.
  public static let maximumSide = 16384

  /// True when a frame of `width × height` pixels is within the limits.
  public static func fits(width: Int, height: Int) -> Bool {
    width > 0 && height > 0 && width <= maximumSide && height <= maximumSide && width * height <= maximumPixels
  }

  /// How a message states the frame limits.
  public static let frameLimitText = "the limit of \(maximumSide) a side and \(maximumPixels) pixels"
  /// Depth of nested layers.
  public static let maximumDepth = 64
  /// Layers in the whole scene, inserted ones included.
  public static let maximumLayers = 100_000
  /// Characters of SVG path data in one layer.
  public static let maximumPathData = 1_000_000
  /// Characters of text in one layer.
  public static let maximumText = 100_000
  /// Timeline events.
  public static let maximumEvents = 100_000
  /// Points of one drag.
  public static let maximumDragPoints = 100_000
  /// Frames of one render (a 2-minute scene at 60 fps slowed 4× is 28,800).
  public static let maximumFrames = 1_000_000
}
