import Primitives  // SplitMix64
import Testing

@testable import PortableMath

/// Hand-picked values and identities, carried over from the expression
/// evaluator's tests (where these functions began): correctly rounded
/// values from 500-bit arithmetic, and the special cases of pow.
@Suite struct KnownValueTests {
  @Test func powerSpecialCases() {
    let pow = Elementary.pow
    #expect(pow(0, 0) == 1)
    #expect(pow(.nan, 0) == 1)
    #expect(pow(1, .nan) == 1)
    #expect(pow(0, -1) == .infinity)
    #expect(pow(-0.0, -3) == -.infinity)
    #expect(pow(-0.0, 3).sign == .minus)
    #expect(pow(-2, 3) == -8)
    #expect(pow(-2, -2) == 0.25)
    #expect(pow(-2, 0.5).isNaN)
    #expect(pow(-1, .infinity) == 1)
    #expect(pow(0.5, .infinity) == 0)
    #expect(pow(2, -.infinity) == 0)
    #expect(pow(-.infinity, 3) == -.infinity)
    #expect(pow(.infinity, -1) == 0)
    #expect(pow(2, 1024) == .infinity)
    #expect(pow(2, -1074) == 0x1p-1074)
    #expect(pow(10, -3) == 0.001)
    #expect(pow(0.5, 10) == 0.0009765625)
    #expect(pow(3, 20) == 3_486_784_401)
    #expect(pow(3, 40) == 1.2157665459056929e19)
    // (1 + 2⁻⁵²)^(2⁵³ + 2) ≈ e², positive: a power that large is an even integer.
    #expect(pow(-1.0000000000000002, 0x1p53 + 2) == pow(1.0000000000000002, 0x1p53 + 2))
    #expect((pow(-1.0000000000000002, 0x1p53 + 2) - 7.38905609893065).magnitude < 1e-13)
  }

  @Test func knownValues() {
    let tolerance = 1e-14
    #expect(relativeError(Elementary.sin(1), 0.8414709848078965) < tolerance)
    #expect(relativeError(Elementary.cos(1), 0.5403023058681398) < tolerance)
    #expect(relativeError(Elementary.exp(1), 2.718281828459045) < tolerance)
    #expect(relativeError(Elementary.sin(Double.pi / 6), 0.5) < tolerance)
    #expect(relativeError(Elementary.exp(-2.5), 0.0820849986238988) < tolerance)
    #expect(relativeError(Elementary.sin(100), -0.5063656411097588) < tolerance)
  }

  /// Correctly rounded values of sin and cos (from 500-bit arithmetic); the
  /// results match exactly, not just to 1e-14.
  @Test(
    arguments: [
      (1, 0.8414709848078965, 0.5403023058681398),
      (0.5, 0.479425538604203, 0.8775825618903728),
      (-1, -0.8414709848078965, 0.5403023058681398),
      (2, 0.9092974268256817, -0.4161468365471424),
      (3, 0.1411200080598672, -0.9899924966004454),
      (10, -0.5440211108893698, -0.8390715290764524),
      (100, -0.5063656411097588, 0.8623188722876839),
      (-100, 0.5063656411097588, 0.8623188722876839),
      (1000000.0, -0.34999350217129294, 0.9367521275331447),
      (1e+22, -0.8522008497671888, 0.523214785395139),
      (0.1, 0.09983341664682815, 0.9950041652780258),
      (1e-05, 9.999999999833334e-06, 0.99999999995),
      (0.5235987755982988, 0.49999999999999994, 0.8660254037844387),
      (3.141592653589793, 1.2246467991473532e-16, -1.0),
      (1e+300, -0.8178819121159085, -0.5753861119575491),
      (0x1p-1074, 0x1p-1074, 1.0),
      (710.5, 0.4794784460505837, 0.8775536563498083),
      (0.7853981633974483, 0.7071067811865475, 0.7071067811865476),
      (0.7853981633974484, 0.7071067811865476, 0.7071067811865475),
    ] as [(Double, Double, Double)])
  func sineAndCosine(_ x: Double, _ sine: Double, _ cosine: Double) {
    #expect(relativeError(Elementary.sin(x), sine) < 1e-14)
    #expect(relativeError(Elementary.cos(x), cosine) < 1e-14)
    #expect(Elementary.sin(x) == sine)
    #expect(Elementary.cos(x) == cosine)
  }

  @Test(
    arguments: [
      (1, 2.718281828459045),
      (-2.5, 0.0820849986238988),
      (0.5, 1.6487212707001282),
      (10, 22026.465794806718),
      (-10, 4.5399929762484854e-05),
      (100, 2.6881171418161356e+43),
      (700, 1.0142320547350045e+304),
      (-700, 9.85967654375977e-305),
      (1e-10, 1.0000000001),
      (709.7, 1.6549840276802644e+308),
      (0.34657359027997264, 1.414213562373095),
      (-0.1, 0.9048374180359595),
      (0, 1),
    ] as [(Double, Double)])
  func exponential(_ x: Double, _ expected: Double) {
    #expect(relativeError(Elementary.exp(x), expected) < 1e-14)
    #expect(Elementary.exp(x) == expected)
  }

  @Test(
    arguments: [
      (2, 0.5, 1.4142135623730951),
      (10, 0.3, 1.9952623149688795),
      (0.3, 2.7, 0.038746045822494066),
      (1.0001, 10000.0, 2.7181459268249255),
      (7, -0.25, 0.6147881529512643),
      (1.5, 100.0, 4.065611775352152e+17),
      (0.9, -700.5, 1.1301136947634693e+32),
      (3, 0.5, 1.7320508075688772),
      (100, 1.5, 1000.0),
    ] as [(Double, Double, Double)])
  func power(_ x: Double, _ y: Double, _ expected: Double) {
    #expect(Elementary.pow(x, y) == expected)
  }

  @Test func exponentialEdges() {
    #expect(Elementary.exp(.infinity) == .infinity)
    #expect(Elementary.exp(-.infinity) == 0)
    #expect(Elementary.exp(.nan).isNaN)
    #expect(Elementary.exp(709.79) == .infinity)
    #expect(Elementary.exp(-745.2) == 0)
    #expect(Elementary.exp(-745) > 0)
    #expect(Elementary.sin(-0.0).sign == .minus)
    #expect(Elementary.sin(.infinity).isNaN)
    #expect(Elementary.cos(.nan).isNaN)
  }

  /// sin² + cos² = 1, sin(−x) = −sin x and cos(−x) = cos x at every
  /// magnitude, which exercises the argument reduction up to 1e308.
  @Test func identitiesAtEveryMagnitude() {
    var rng = SplitMix64(seed: 1)
    for _ in 0..<2000 {
      let x = Double(sign: .plus, exponent: Int.random(in: -30...1023, using: &rng), significand: Double.random(in: 1..<2, using: &rng))
      let s = Elementary.sin(x), c = Elementary.cos(x)
      #expect((s * s + c * c - 1).magnitude < 5e-16, "x = \(x)")
      #expect(Elementary.sin(-x) == -s)
      #expect(Elementary.cos(-x) == c)
      let y = Double.random(in: -300...300, using: &rng), z = Double.random(in: -300...300, using: &rng)
      #expect(relativeError(Elementary.exp(y) * Elementary.exp(z), Elementary.exp(y + z)) < 1e-12)
    }
  }
}

func relativeError(_ a: Double, _ b: Double) -> Double {
  a == b ? 0 : (a - b).magnitude / b.magnitude
}

/// The fast path of sin, cos, sinCos and tan (table-driven, with Ziv's
/// rounding test) and the double-double evaluation are two algorithms;
/// wherever the fast path answers, it must give the bits the other gives,
/// and it must answer almost always, next to multiples of π/2 too.
@Suite struct FastPathTests {
  static func slowTangent(_ x: Double) -> Double {
    let (n, r) = x.magnitude <= Elementary.quarterPi ? (0, DoubleDouble(x.magnitude)) : Elementary.reduce(x.magnitude)
    let (s, c) = Elementary.sineAndCosineOfReduced(r)
    let t = (n & 1 == 0 ? s / c : -(c / s)).rounded
    return x > 0 ? t : -t
  }

  static func check(_ x: Double) -> Bool {
    let (s, c) = Elementary.sinCos(x)
    return Elementary.sin(x) == Elementary.accurateSine(x) && Elementary.cos(x) == Elementary.accurateCosine(x)
      && s == Elementary.accurateSine(x) && c == Elementary.accurateCosine(x) && Elementary.tan(x) == slowTangent(x)
  }

  /// Whether the fast path decides sin x by itself.
  static func answers(_ x: Double) -> Bool {
    let (n, r) = Elementary.quickReduce(x.magnitude)
    let (s, c) = Elementary.quickSineCosine(r)
    return Elementary.quickRounded(n & 1 == 0 ? s : c, quadrant: n) != nil
  }

  @Test func randomArguments() {
    var rng = SplitMix64(seed: 7)
    var fallbacks = 0
    for _ in 0..<20_000 {
      let x = Double(
        sign: rng.next() & 1 == 0 ? .plus : .minus, exponent: Int.random(in: -27...20, using: &rng),
        significand: Double.random(in: 1..<2, using: &rng))
      #expect(Self.check(x), "\(x)")
      if !Self.answers(x) { fallbacks += 1 }
    }
    #expect(fallbacks <= 20)
  }

  @Test func nextToMultiplesOfHalfPi() {
    var fallbacks = 0
    for k in 1...500 {
      let x = Double(k) * (Double.pi / 2)
      for y in [x.nextDown.nextDown, x.nextDown, x, x.nextUp, x.nextUp.nextUp] {
        #expect(Self.check(y), "\(y)")
        if !Self.answers(y) { fallbacks += 1 }
      }
    }
    #expect(fallbacks <= 5)
  }
}
