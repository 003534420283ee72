extension Elementary {
  // The fast path of sin and cos (Ziv's strategy): a cheap evaluation with
  // a proven error bound, returned only when that bound cannot change its
  // rounding; otherwise the full double-double evaluation decides. Both
  // paths return the same correctly rounded double, so the choice never
  // shows in a result.

  /// Arguments up to this magnitude take the fast reduction.
  static let quickReductionLimit = 0x1p20

  /// π/2 = C₁ + C₂ + C₃ + ε: C₁ and C₂ have 32 significant bits (n·C₁ and
  /// n·C₂ are exact for n < 2²¹), C₃ is the nearest double to the rest, and
  /// |ε| < 2⁻¹²²; from mpmath (`scripts/portable-math-fixtures.py
  /// --constants`).
  static let piOver2Part1 = 1.5707963267341256
  static let piOver2Part2 = 6.077100506303966e-11
  static let piOver2Part3 = 2.0222662487959506e-21
  /// 2/π rounded: it only chooses n.
  static let twoOverPiRounded = 0.6366197723675814

  /// |x| = n·π/2 + r for 0 ≤ |x| ≤ 2²⁰ (Cody–Waite), |r| ≤ π/4 + 2⁻³²,
  /// with r within n·|ε| + 2⁻¹⁰³·|r| < n·2⁻¹²² + 2⁻¹⁰³·|r| of the exact
  /// |x| − n·π/2 (r − n·C₁ and n·C₂ exact, the last double-double
  /// subtraction within 2⁻¹⁰⁴ of its result): relatively exact next to the
  /// small multiples of π/2 that geometry meets (cos(π/2) is 6.1e-17).
  @inline(__always) static func quickReduce(_ x: Double) -> (n: Int, r: DoubleDouble) {
    let n = DoubleDouble.nearestInteger(x * twoOverPiRounded)
    let r1 = x - n * piOver2Part1  // exact (Sterbenz)
    let s = DoubleDouble.sum(r1, -(n * piOver2Part2))  // exact
    return (Int(n), s + -DoubleDouble.product(n, piOver2Part3))
  }

  /// sin r and cos r for |r| ≤ 0.8, each with an error below
  /// `quickRelativeError` of its value, plus the error of r itself.
  ///
  /// r = j/64 + b with |b| ≤ 1/128: sin b and cos b − 1 by their Taylor
  /// series (b³ and b⁴ terms onward in doubles, −b²/2 exact), then
  /// sin r = S + S·(cos b − 1) + C·sin b and cos r = C + C·(cos b − 1) − S·sin b
  /// with S, C = sin(j/64), cos(j/64) from `sineCosineOfSixtyFourths`.
  @inline(__always) static func quickSineCosine(_ r: DoubleDouble) -> (sin: DoubleDouble, cos: DoubleDouble) {
    let negative = r.high < 0
    let a = negative ? -r : r
    let j = Int(DoubleDouble.nearestInteger(a.high * 64))
    let bh = a.high - Double(j) / 64  // exact (Sterbenz); b = bh + bl
    let bl = a.low
    let b2 = bh * bh
    // sin b − b: −b³/6 + b⁵/120 − b⁷/5040 + b⁹/362880 (next term below
    // 2⁻¹⁰⁰·b), and −b²·bl/2 for the low part of b.
    let sineTail = bh * b2 * (-1.0 / 6 + b2 * (1.0 / 120 + b2 * (-1.0 / 5040 + b2 * (1.0 / 362_880)))) - b2 * bl / 2
    let sb = DoubleDouble.sum(bh, bl + sineTail)
    // cos b − 1: −b²/2 exactly from bh, −bh·bl, and b⁴/24 − b⁶/720 + b⁸/40320.
    let square = DoubleDouble.product(bh, bh)
    let cosineTail = b2 * b2 * (1.0 / 24 + b2 * (-1.0 / 720 + b2 * (1.0 / 40_320))) - bh * bl
    let cm1 = DoubleDouble.sum(-square.high / 2, -square.low / 2 + cosineTail)
    var sine: DoubleDouble, cosine: DoubleDouble
    if j == 0 {
      sine = sb
      cosine = cm1 + 1
    } else {
      let (s, c) = sineCosineOfSixtyFourths[j]
      sine = s + (cm1 * s.high + (sb * c.high + (s.low * cm1.high + c.low * sb.high)))
      cosine = c + (cm1 * c.high + (-(sb * s.high) + (c.low * cm1.high - s.low * sb.high)))
    }
    return (negative ? -sine : sine, cosine)
  }

  /// The fast path's bound: a relative error below 2⁻⁷³ from the series
  /// in doubles (2⁻⁸¹ absolute over values of at least 2⁻⁸) and 2⁻¹⁰² from
  /// r's relative error (the value is at least |r|/1.2), doubled for the
  /// rounding of the test itself; plus n·`quickReductionError` for π/2's
  /// truncation, which sin and cos carry with a slope at most 1.
  static let quickRelativeError = 0x1p-70
  static let quickReductionError = 0x1p-121

  /// The double nearest v when every value within `error` of v rounds to
  /// it; nil when the rounding is in doubt.
  @inline(__always) static func roundedIfCertain(_ v: DoubleDouble, error: Double) -> Double? {
    let lower = v.high + (v.low - error), upper = v.high + (v.low + error)
    return lower == upper ? lower : nil
  }

  /// Ziv's test for a value of the fast path in quadrant n.
  @inline(__always) static func quickRounded(_ v: DoubleDouble, quadrant n: Int) -> Double? {
    roundedIfCertain(v, error: Double(n) * quickReductionError + quickRelativeError * v.high.magnitude)
  }

  /// (sin(j/64), cos(j/64)) for j = 0…51 as double-doubles, from mpmath at
  /// 400 bits (`scripts/portable-math-fixtures.py --constants`).
  static let sineCosineOfSixtyFourths: [(DoubleDouble, DoubleDouble)] = [
    (DoubleDouble(0.0, 0.0), DoubleDouble(1.0, 0.0)),
    (DoubleDouble(0.015624364224883372, -1.2650937552759816e-19), DoubleDouble(0.9998779321710066, 3.216122229972341e-17)),
    (DoubleDouble(0.03124491398532608, -1.562781562225433e-18), DoubleDouble(0.9995117584851364, -3.418806487972947e-17)),
    (DoubleDouble(0.04685783574813424, -2.3419368365610254e-18), DoubleDouble(0.9989015683384429, -2.1425557800399754e-17)),
    (DoubleDouble(0.0624593178423802, -2.040259504585711e-18), DoubleDouble(0.9980475107000991, 3.3232291674141346e-17)),
    (DoubleDouble(0.07804555138996731, -5.449443782005793e-18), DoubleDouble(0.9969497940760287, -1.2467075728553626e-17)),
    (DoubleDouble(0.09361273123551289, 1.4628632005878733e-18), DoubleDouble(0.9956086864580017, 3.312922430932991e-17)),
    (DoubleDouble(0.10915705687532236, 6.6284699502736666e-18), DoubleDouble(0.9940245152582091, 1.3287985046260087e-17)),
    (DoubleDouble(0.12467473338522769, -2.925947496057858e-18), DoubleDouble(0.992197667229329, 4.754870575189364e-17)),
    (DoubleDouble(0.1401619723470637, -9.946847113883478e-18), DoubleDouble(0.9901285883701071, -4.589906353553811e-18)),
    (DoubleDouble(0.15561499277355603, 8.886053372342288e-18), DoubleDouble(0.9878177838164719, 4.91917302237681e-17)),
    (DoubleDouble(0.17103002203139503, -9.954774726452923e-18), DoubleDouble(0.9852658177182139, -4.925721262944555e-17)),
    (DoubleDouble(0.18640329676226988, 2.3493796901281573e-18), DoubleDouble(0.9824733131012553, -3.919920375420088e-17)),
    (DoubleDouble(0.2017310638016388, 5.587232815460113e-18), DoubleDouble(0.9794409517155483, 1.3108769521526758e-17)),
    (DoubleDouble(0.21700958109501015, 1.1170071073364376e-17), DoubleDouble(0.9761694738686353, -7.850690609285027e-18)),
    (DoubleDouble(0.23223511861151147, -8.318080852687206e-18), DoubleDouble(0.9726596782449127, 2.3920264546490165e-17)),
    (DoubleDouble(0.24740395925452294, -7.53102495590706e-18), DoubleDouble(0.9689124217106447, 5.071436662403936e-17)),
    (DoubleDouble(0.2625123997691533, -2.2534597527902125e-17), DoubleDouble(0.964928619104771, -3.0345542681018625e-18)),
    (DoubleDouble(0.2775567516463363, 1.7674070262791822e-17), DoubleDouble(0.9607092430155619, -2.807827063516729e-17)),
    (DoubleDouble(0.29253334202332754, 7.516944930327352e-18), DoubleDouble(0.9562553235431753, -3.148450868841629e-17)),
    (DoubleDouble(0.30743851458038085, 1.1004366442765296e-19), DoubleDouble(0.9515679480481722, -3.8614834675674123e-17)),
    (DoubleDouble(0.3222686304333866, 2.093773358126606e-17), DoubleDouble(0.9466482608860534, -3.911683334934152e-17)),
    (DoubleDouble(0.33702006902225307, 1.0312279860787216e-17), DoubleDouble(0.9414974631278811, -4.8523830236797095e-18)),
    (DoubleDouble(0.3516892289948141, -2.5616208736069942e-17), DoubleDouble(0.9361168122670553, -5.2350302039683216e-17)),
    (DoubleDouble(0.36627252908604757, -9.938814562106524e-18), DoubleDouble(0.9305076219123143, 4.488760003328074e-18)),
    (DoubleDouble(0.38076640899239017, 2.1372528646211374e-17), DoubleDouble(0.924671261467036, 5.5444125388034563e-17)),
    (DoubleDouble(0.39516733024093426, -1.9613487871414228e-17), DoubleDouble(0.9186091557949183, -4.0564150104514996e-17)),
    (DoubleDouble(0.40947177705329507, -5.679403000091266e-18), DoubleDouble(0.9123227848721178, 2.6349040211413332e-17)),
    (DoubleDouble(0.42367625720393803, -2.331800700068871e-17), DoubleDouble(0.9058136834259364, 4.2864666490805214e-17)),
    (DoubleDouble(0.4377773028727551, 7.64345629962023e-18), DoubleDouble(0.8990834405601384, 9.076951775075616e-18)),
    (DoubleDouble(0.4517714714916838, -8.234073942098903e-18), DoubleDouble(0.8921336993669944, 2.3160655211380166e-17)),
    (DoubleDouble(0.46565534658516017, 1.459870391051426e-17), DoubleDouble(0.8849661565261433, -7.690557775987357e-18)),
    (DoubleDouble(0.479425538604203, -5.103969860556013e-18), DoubleDouble(0.8775825618903728, -4.2623149864279997e-17)),
    (DoubleDouble(0.49307868575392305, 5.605083973871755e-18), DoubleDouble(0.8699847180584174, 1.657385110740923e-17)),
    (DoubleDouble(0.5066114548142574, -3.269413423618168e-17), DoubleDouble(0.8621744799348805, 4.4132427578105805e-18)),
    (DoubleDouble(0.520020541953727, -3.983266745698455e-17), DoubleDouble(0.8541537542773854, 5.420565102675286e-18)),
    (DoubleDouble(0.5333026735360201, 5.129318115032044e-17), DoubleDouble(0.8459244992310679, 1.549506647350329e-17)),
    (DoubleDouble(0.5464546069192036, 8.399754840929507e-18), DoubleDouble(0.8374887238505236, 4.3337026043948396e-17)),
    (DoubleDouble(0.5594731312473669, 1.575565514488728e-17), DoubleDouble(0.8288484876093257, 1.1163935406617444e-17)),
    (DoubleDouble(0.5723550682345072, 2.6575872357215316e-17), DoubleDouble(0.820005899897234, -3.912431748209128e-17)),
    (DoubleDouble(0.5850972729404622, -5.4883972461161805e-17), DoubleDouble(0.8109631195052179, -3.091333486122179e-17)),
    (DoubleDouble(0.5976966345387015, 5.450323593054385e-17), DoubleDouble(0.8017223540984184, 4.0134533311087014e-17)),
    (DoubleDouble(0.6101500770757914, -1.479826990758988e-17), DoubleDouble(0.7922858596771786, -2.9049779312834576e-17)),
    (DoubleDouble(0.6224545602223437, -6.049035765709707e-18), DoubleDouble(0.7826559400262728, -1.474071641211487e-17)),
    (DoubleDouble(0.6346070800152693, -3.4568582392624965e-17), DoubleDouble(0.7728349461524715, 4.231014921891023e-17)),
    (DoubleDouble(0.6466046695911524, 4.567647714393289e-19), DoubleDouble(0.7628252757105762, 1.6672995021546628e-17)),
    (DoubleDouble(0.6584443999105676, -3.7736386700306717e-17), DoubleDouble(0.7526293724180665, -1.2970993013150526e-17)),
    (DoubleDouble(0.6701233804731629, 6.183536725574959e-18), DoubleDouble(0.7422497254585013, -1.2339303604869521e-17)),
    (DoubleDouble(0.6816387600233341, 4.410467313197903e-17), DoubleDouble(0.7316888688738209, -1.0475824306512768e-17)),
    (DoubleDouble(0.692987727246318, -5.3543290798909455e-17), DoubleDouble(0.7209493809456964, 3.494986701478816e-17)),
    (DoubleDouble(0.7041675114545337, -3.94095700584825e-17), DoubleDouble(0.7100338835660797, 1.505272211891291e-17)),
    (DoubleDouble(0.7151753832640076, -1.466099578328228e-17), DoubleDouble(0.6989450415971057, -5.5261332036460915e-18)),
  ]
}
