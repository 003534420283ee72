import Primitives
import Synchronization

/// A 128-bit fingerprint of drawing commands: two independently mixed
/// 64-bit lanes over the exact bit patterns of every number, with a fixed
/// seed (the same commands give the same digest in every run). Caches use it
/// as the identity of what a pixel rectangle will show; at 128 bits a
/// chance collision among the few million digests of a long render is about
/// 10⁻²⁶.
public struct Digest: Sendable, Hashable, CustomStringConvertible {
  public var high: UInt64
  public var low: UInt64
  public var description: String {
    let h = String(high, radix: 16), l = String(low, radix: 16)
    return String(repeating: "0", count: 16 - h.count) + h + String(repeating: "0", count: 16 - l.count) + l
  }
}

/// Builds a `Digest` from words, doubles and other digests.
public struct Digester: Sendable {
  private var a: UInt64 = 0x243F_6A88_85A3_08D3
  private var b: UInt64 = 0x1319_8A2E_0370_7344
  private var count: UInt64 = 0

  public init() {}

  /// Each step is a bijection of the lane for a fixed previous state, so two
  /// sequences differing in one word always differ after it.
  @inline(__always)
  public mutating func add(_ w: UInt64) {
    a = (a ^ w) &* 0x9E37_79B9_7F4A_7C15
    a ^= a &>> 29
    b = (b &+ w &+ count) &* 0xBF58_476D_1CE4_E5B9
    b ^= b &>> 31
    b = b &+ (a &>> 7)
    count &+= 1
  }
  @inline(__always) public mutating func add(_ x: Double) { add(x.bitPattern) }
  @inline(__always) public mutating func add(_ x: Int) { add(UInt64(bitPattern: Int64(x))) }
  @inline(__always) public mutating func add(_ d: Digest) { add(d.high); add(d.low) }
  public mutating func add(_ p: Point) { add(p.x); add(p.y) }
  public mutating func add(_ c: PremultipliedColor) { add(c.red); add(c.green); add(c.blue); add(c.alpha) }
  public mutating func add(_ t: AffineTransform) { add(t.a); add(t.b); add(t.c); add(t.d); add(t.tx); add(t.ty) }

  /// The digest of everything added (with the count, so a prefix differs).
  public var digest: Digest {
    func mix(_ x: UInt64) -> UInt64 {
      var z = x
      z = (z ^ (z &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
      z = (z ^ (z &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
      return z ^ (z &>> 33)
    }
    return Digest(high: mix(a ^ count), low: mix(b &+ a))
  }

  /// A digest no other call returns in this process: for drawing whose
  /// content cannot be fingerprinted (it is then never found in a cache).
  public static func unique() -> Digest {
    let n = uniqueCounter.add(1, ordering: .relaxed).newValue
    var d = Digester()
    d.add(0x756E_6971_7565 as UInt64)
    d.add(UInt64(n))
    return Digest(high: ~d.digest.high, low: UInt64(n))
  }
}

private let uniqueCounter = Atomic<UInt64>(0)
