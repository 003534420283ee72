import SceneModel
import Timing

/// What `render info` tells of a source beyond its size and duration: its
/// events in time order (each with what it changes, its animation, when that
/// settles and ends) and its layers as a tree (a scene's; a source made of
/// others, a comparison, has none). Encoded as `render info --json` prints
/// it.
public struct SourceOutline: Sendable {
  public var events: [Event]
  public var layers: [Layer]
  /// The latest end of any event: the duration when none is given.
  public var defaultDuration: Double
  /// True when the source states its duration (else it is `defaultDuration`).
  public var durationGiven: Bool

  public init(events: [Event], layers: [Layer], defaultDuration: Double, durationGiven: Bool) {
    self.events = events; self.layers = layers; self.defaultDuration = defaultDuration; self.durationGiven = durationGiven
  }

  public struct Event: Sendable, Encodable {
    public var at: Double
    /// nil for an immediate change (encoded as `null`, as is its settling).
    public var animation: String?
    public var settlingDuration: Double?
    public var end: Double
    /// What it changes, one phrase each (`set card`, `insert row into list`).
    public var changes: [String]
    /// Only for an event with keyframes, phases or an animator.
    public var keyframes: [KeyframeLayout]?
    public var phases: Phases?
    public var animator: Animator?

    public init(at: Double, animation: String?, settlingDuration: Double?, end: Double, changes: [String]) {
      self.at = at; self.animation = animation; self.settlingDuration = settlingDuration; self.end = end; self.changes = changes
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(at, forKey: .at)
      try c.encode(animation, forKey: .animation)
      try c.encode(settlingDuration, forKey: .settlingDuration)
      try c.encode(end, forKey: .end)
      try c.encode(changes, forKey: .changes)
      try c.encodeIfPresent(keyframes, forKey: .keyframes)
      try c.encodeIfPresent(phases, forKey: .phases)
      try c.encodeIfPresent(animator, forKey: .animator)
    }
    enum CodingKeys: CodingKey { case at, animation, settlingDuration, end, changes, keyframes, phases, animator }
  }

  /// A phase animation's first cycle: each step's time, phase and animation
  /// (none for phase 0 at the start), and the cycle's length.
  public struct Phases: Sendable, Encodable {
    public struct Step: Sendable, Encodable {
      public var at: Double
      public var phase: Int
      public var animation: String?
    }
    public var count: Int
    public var repeats: Bool
    /// Seconds from setting phase 1 to setting it again.
    public var cycle: Double
    public var steps: [Step]
  }

  /// An interactive animator: its timing, duration and stretches in the
  /// source's time.
  public struct Animator: Sendable, Encodable {
    public var timing: String
    public var duration: Double
    public var stretches: [InteractiveAnimator.Stretch]
  }

  /// A layer: its name (a scene's id), its type, its children.
  public struct Layer: Sendable, Encodable {
    public var id: String?
    public var type: String
    public var children: [Layer]?

    public init(id: String?, type: String, children: [Layer]) {
      self.id = id; self.type = type; self.children = children.isEmpty ? nil : children
    }
  }
}
