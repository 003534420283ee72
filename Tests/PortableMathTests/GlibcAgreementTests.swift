#if canImport(Glibc)
  import Glibc
  import PortableMath
  import Primitives
  import Testing

  /// A metamorphic sanity check: on random arguments every function agrees
  /// with the host's C library to within glibc's own error bound (1 ulp,
  /// but 4 for cbrt: glibc's x86-64 libm-test-ulps; ours are correctly
  /// rounded, so a larger gap is a bug on one side), and most results agree
  /// exactly (9 in 10; 4 in 10 for glibc's cbrt, often 1 ulp off).
  @Suite struct GlibcAgreementTests {
    static func ulpsApart(_ a: Double, _ b: Double) -> UInt64 {
      if a == b || (a.isNaN && b.isNaN) { return 0 }
      guard a.isFinite, b.isFinite, a.sign == b.sign else { return .max }
      let (x, y) = (a.magnitude.bitPattern, b.magnitude.bitPattern)
      return x > y ? x - y : y - x
    }

    /// Random doubles with exponents in `exponents` (either sign unless
    /// `positive`).
    static func arguments(_ count: Int, exponents: ClosedRange<Int>, positive: Bool = false, seed: UInt64) -> [Double] {
      var rng = SplitMix64(seed: seed)
      return (0..<count).map { _ in
        let x = Double(
          sign: positive || Bool.random(using: &rng) ? .plus : .minus, exponent: Int.random(in: exponents, using: &rng),
          significand: Double.random(in: 1..<2, using: &rng))
        return x
      }
    }

    typealias Pair = (
      ours: @Sendable (Double) -> Double, glibc: @Sendable (Double) -> Double, exponents: ClosedRange<Int>, positive: Bool
    )

    /// glibc's largest error in ulps where it is more than 1.
    static let glibcTolerance: [String: UInt64] = ["cbrt": 4]
    /// The least share of exactly equal results.
    static let equalShare: [String: Double] = ["cbrt": 0.4]

    static let unary: [String: Pair] = [
      "sin": ({ Elementary.sin($0) }, { Glibc.sin($0) }, -40...1023, false),
      "cos": ({ Elementary.cos($0) }, { Glibc.cos($0) }, -40...1023, false),
      "tan": ({ Elementary.tan($0) }, { Glibc.tan($0) }, -40...1023, false),
      "exp": ({ Elementary.exp($0) }, { Glibc.exp($0) }, -40...9, false),
      "expMinusOne": ({ Elementary.expMinusOne($0) }, { Glibc.expm1($0) }, -60...9, false),
      "log": ({ Elementary.log($0) }, { Glibc.log($0) }, -1074...1023, true),
      "log2": ({ Elementary.log2($0) }, { Glibc.log2($0) }, -1074...1023, true),
      "log10": ({ Elementary.log10($0) }, { Glibc.log10($0) }, -1074...1023, true),
      "atan": ({ Elementary.atan($0) }, { Glibc.atan($0) }, -60...100, false),
      "acos": ({ Elementary.acos($0) }, { Glibc.acos($0) }, -60...(-1), false),
      "cbrt": ({ Elementary.cbrt($0) }, { Glibc.cbrt($0) }, -1074...1023, false),
    ]

    @Test(arguments: unary.keys.sorted())
    func unaryWithinOneUlp(_ name: String) throws {
      let pair = try #require(Self.unary[name])
      var equal = 0
      let xs = Self.arguments(20_000, exponents: pair.exponents, positive: pair.positive, seed: UInt64(name.utf8.count) * 7919)
      for x in xs {
        let d = Self.ulpsApart(pair.ours(x), pair.glibc(x))
        #expect(d <= Self.glibcTolerance[name, default: 1], "\(name)(\(x)): ours \(pair.ours(x)), glibc \(pair.glibc(x))")
        if d == 0 { equal += 1 }
      }
      #expect(Double(equal) >= Double(xs.count) * Self.equalShare[name, default: 0.9], "\(name): only \(equal) of \(xs.count) equal")
    }

    @Test func powAndAtan2WithinOneUlp() {
      var rng = SplitMix64(seed: 42)
      var equal = 0
      let count = 20_000
      for _ in 0..<count {
        let x = Double.random(in: 0...20, using: &rng), y = Double.random(in: -40...40, using: &rng)
        #expect(Self.ulpsApart(Elementary.pow(x, y), Glibc.pow(x, y)) <= 1, "pow(\(x), \(y))")
        let (a, b) = (Double.random(in: -5...5, using: &rng), Double.random(in: -5...5, using: &rng))
        #expect(Self.ulpsApart(Elementary.atan2(y: a, x: b), Glibc.atan2(a, b)) <= 1, "atan2(\(a), \(b))")
        if Elementary.pow(x, y) == Glibc.pow(x, y) && Elementary.atan2(y: a, x: b) == Glibc.atan2(a, b) { equal += 1 }
      }
      #expect(equal * 10 >= count * 9)
    }
  }
#endif
