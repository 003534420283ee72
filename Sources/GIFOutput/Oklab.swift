import PortableMath

/// Björn Ottosson's Oklab, the perceptual space the palette is chosen in:
/// Euclidean distance there tracks perceived colour difference far better
/// than in sRGB, so palette entries are spent where the eye would notice.
struct Oklab: Sendable, Hashable {
  var l: Double, a: Double, b: Double

  /// sRGB-encoded byte → linear light, exact for every byte.
  static let linearFromByte: [Double] = (0..<256).map { i in
    let c = Double(i) / 255
    return c <= 0.04045 ? c / 12.92 : Elementary.pow((c + 0.055) / 1.055, 2.4)
  }

  /// An sRGB colour given as bytes.
  init(r: Int, g: Int, b: Int) {
    let lut = Oklab.linearFromByte
    self.init(linearRed: lut[r], green: lut[g], blue: lut[b])
  }

  init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

  init(linearRed r: Double, green g: Double, blue b: Double) {
    let l = Elementary.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    let m = Elementary.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    let s = Elementary.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    self.l = 0.2104542553 * l + 0.7936177850 * m - 0.0040720427 * s
    self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
    self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
  }

  /// The nearest sRGB bytes (out-of-gamut colours are clipped per channel).
  var srgbBytes: (r: UInt8, g: UInt8, b: UInt8) {
    let lRoot = l + 0.3963377774 * a + 0.2158037573 * b
    let mRoot = l - 0.1055613458 * a - 0.0638541728 * b
    let sRoot = l - 0.0894841775 * a - 1.2914855480 * b
    let l3 = lRoot * lRoot * lRoot, m3 = mRoot * mRoot * mRoot, s3 = sRoot * sRoot * sRoot
    let r = 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3
    let g = -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3
    let bl = -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
    return (Oklab.byte(r), Oklab.byte(g), Oklab.byte(bl))
  }

  static func byte(_ linear: Double) -> UInt8 {
    let x = min(max(linear, 0), 1)
    let e = x <= 0.0031308 ? 12.92 * x : 1.055 * Elementary.pow(x, 1 / 2.4) - 0.055
    return UInt8((e * 255).rounded())
  }

  @inline(__always) func distanceSquared(_ o: Oklab) -> Double {
    let dl = l - o.l, da = a - o.a, db = b - o.b
    return dl * dl + da * da + db * db
  }
}
