import Synchronization

/// Values keyed by digest, shared between threads, in two generations: a
/// value is stored in the young one, and one found in the old one moves to
/// the young one; when the young one fills half the budget it becomes the
/// old one and the old one is dropped. What was used in the last half
/// budget's worth of stores stays; memory never exceeds the budget, however
/// long the render; every operation is O(1) under a short lock.
///
/// A cached value must be a function of its key alone: what the cache holds
/// then changes how fast a frame is made, never its bytes.
public final class DigestCache<Value: Sendable>: Sendable {
  struct Generation {
    var entries: [Digest: (value: Value, bytes: Int)] = [:]
    var bytes = 0
  }
  struct Store {
    var young = Generation()
    var old = Generation()
  }
  private let store = Mutex(Store())
  /// The most bytes held: each generation holds at most half (a value
  /// larger than a quarter of the budget is not kept).
  public let budget: Int

  public init(budget: Int) { self.budget = budget }

  public func value(for key: Digest) -> Value? {
    let (value, dropped): (Value?, Generation?) = store.withLock { s in
      if let e = s.young.entries[key] { return (e.value, nil) }
      guard let e = s.old.entries.removeValue(forKey: key) else { return (nil, nil) }
      s.old.bytes -= e.bytes
      return (e.value, Self.insert(e, for: key, into: &s, half: budget / 2))
    }
    _ = dropped
    return value
  }

  public func store(_ value: Value, bytes n: Int, for key: Digest) {
    guard n <= budget / 4 else { return }
    // A dropped generation is released after the lock.
    let dropped: Generation? = store.withLock { s in
      guard s.young.entries[key] == nil, s.old.entries[key] == nil else { return nil }
      return Self.insert((value, n), for: key, into: &s, half: budget / 2)
    }
    _ = dropped
  }

  /// Puts an entry in the young generation, first making it the old one
  /// (and returning the old one, to drop) if the entry would not fit.
  private static func insert(_ e: (value: Value, bytes: Int), for key: Digest, into s: inout Store, half: Int) -> Generation? {
    var old: Generation?
    if s.young.bytes + e.bytes > half {
      old = s.old
      s.old = s.young
      s.young = Generation()
    }
    s.young.entries[key] = e
    s.young.bytes += e.bytes
    return old
  }

  /// Bytes held now.
  public var bytes: Int { store.withLock { $0.young.bytes + $0.old.bytes } }
}

/// Tiles and effect textures from earlier frames, shared by the threads
/// rendering a video.
public final class TileCache: Sendable {
  let tiles: DigestCache<[UInt8]>
  let textures: DigestCache<Pixmap>

  /// Budgets in bytes for tiles and for effect textures.
  public init(tileBytes: Int, textureBytes: Int) {
    tiles = DigestCache(budget: tileBytes)
    textures = DigestCache(budget: textureBytes)
  }

  /// Budgets for frames of `width × height`: two frames of tiles, two of
  /// textures (so a texture up to half the frame is still kept). Four of
  /// each held 27 MB more at the peak on Benchmarks/Scenes/dashboard-1080p,
  /// for no measurable speed (scripts/bench-memory, scripts/bench-pipeline).
  public convenience init(width: Int, height: Int) {
    let frame = 4 * width * height
    self.init(tileBytes: max(2 * frame, 1 << 22), textureBytes: max(2 * frame, 1 << 22))
  }

  func tile(_ key: Digest) -> [UInt8]? { tiles.value(for: key) }

  /// Tiles and backdrops drawn recently and not kept (at most
  /// `doorkeeperLimit`; past it the set starts afresh).
  private let doorkeeper = Mutex(Set<Digest>())
  static let doorkeeperLimit = 4096

  /// True when the tile or backdrop `key` was drawn before and should now
  /// be kept; otherwise remembers it. A tile under something that moves
  /// every frame is never drawn twice, so it is never kept: it does not
  /// crowd out what is reused, and its memory goes back to the allocator as
  /// soon as its frame is written. A tile that stands still is drawn twice,
  /// then reused. (What
  /// the cache keeps decides speed only.)
  func admit(_ key: Digest) -> Bool {
    doorkeeper.withLock { seen in
      if seen.remove(key) != nil { return true }
      if seen.count >= Self.doorkeeperLimit { seen.removeAll(keepingCapacity: true) }
      seen.insert(key)
      return false
    }
  }
  func store(tile: [UInt8], for key: Digest) { tiles.store(tile, bytes: tile.count, for: key) }
  func texture(_ key: Digest) -> Pixmap? { textures.value(for: key) }
  func store(texture: Pixmap, for key: Digest) { textures.store(texture, bytes: texture.bytes.count, for: key) }

  /// Bytes held (tiles, textures).
  public var bytesHeld: (tiles: Int, textures: Int) { (tiles.bytes, textures.bytes) }
}
