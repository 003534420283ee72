#!/usr/bin/env python3
"""Reference values for PortableMath's Elementary functions, from mpmath.

Writes Tests/PortableMathTests/Fixtures/elementary.json: for each function,
a list of cases [arguments..., expected, near], each double written as its
16 hex digits of IEEE 754 bits (so NaN, infinities, −0 and subnormals are
exact). `expected` is the exact value rounded to the nearest double (ties to
even, subnormals on their own grid), computed from a 300-bit mpmath value;
`near` is 1 when that value lies within NEAR ulp of the midpoint between two
doubles (or on it, for a result that is not an integer power), where the
documented accuracy of Elementary (a relative error below 2⁻⁸⁸) does not
decide the rounding; such cases may be 1 ulp off.

Arguments: random ones (a fixed seed, so the file is reproducible) over the
whole range, and hard ones: huge and tiny arguments, doubles next to
multiples of π/2, arguments near 1 for logarithms and near 0 for expm1,
exact powers and the special cases of pow, atan2 in all quadrants and with
zeros and infinities, acos near ±1, exact cubes.

Also prints the double-double constants used in the Swift sources
(--constants). Requires: pip install mpmath. Run from the repository root:
    python3 scripts/portable-math-fixtures.py
"""
import json
import math
import random
import struct
import sys

from mpmath import mp, mpf

mp.prec = 300
NEAR = mpf(2) ** -30
OUT = "Tests/PortableMathTests/Fixtures/elementary.json"


def bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def from_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def round_double(v):
    """(nearest double to the mpf v, distance from the midpoint in ulps)."""
    if v == 0:
        return 0.0, mpf(1)
    sign, man, exp, bc = v._mpf_
    e = exp + bc - 1  # v in [2^e, 2^(e+1))
    q = max(e - 52, -1074)  # the quantum of doubles near v
    if exp >= q:
        n, distance = man << (exp - q), mpf(1) / 2
    else:
        shift = q - exp
        n = man >> shift
        rem = man - (n << shift)
        half = 1 << (shift - 1)
        distance = abs(mpf(rem - half) / (1 << shift))
        if rem > half or (rem == half and n & 1):
            n += 1
    if n == 1 << 53:  # rounded up to the next binade
        n, q = n >> 1, q + 1
    r = math.inf if q + 52 > 1023 else math.ldexp(n, q)
    return (-r if sign else r), distance


def case(args, value, integer_power=False):
    """A fixture row for a special double `value`, or for `value()`, an mpf
    (recomputed at 5,000 bits when it is near a midpoint at 300, for
    arguments like atan2(3·2⁻¹⁰⁷⁴, 2) whose excess over the midpoint is
    smaller than 2⁻³⁰⁰ of it)."""
    if isinstance(value, float):
        return [bits(a) for a in args] + [bits(value), 0]
    r, distance = round_double(value())
    if distance < NEAR:
        with mp.workprec(5000):
            r, distance = round_double(value())
    near = distance < NEAR and not (distance == 0 and integer_power)
    return [bits(a) for a in args] + [bits(r), 1 if near else 0]


rng = random.Random(20260525)


def random_double(lo_exp, hi_exp, negative=True):
    x = math.ldexp(1 + rng.random(), rng.randint(lo_exp, hi_exp))
    return -x if negative and rng.random() < 0.5 else x


def neighbours(x, k=2):
    out = []
    for d in range(-k, k + 1):
        b = struct.unpack("<q", struct.pack("<d", x))[0] + d
        out.append(from_bits(b & 0xFFFFFFFFFFFFFFFF))
    return out


SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan]
N = 400


def trig(name, f, special):
    xs = [random_double(-30, 1023) for _ in range(N // 2)]
    xs += [rng.uniform(-10, 10) for _ in range(N // 4)]
    xs += [random_double(-1074, -30) for _ in range(20)]
    xs += [5e-324, -5e-324, 1e-300, 2.2250738585072014e-308, 1e22, 1e300, 1.7976931348623157e308, -1.7976931348623157e308]
    xs += [6381956970095103 * 2.0**797, 5.319372648326541e255, 1.5707963267948966, 3.141592653589793, 0.7853981633974483,
           0.7853981633974484, 2.356194490192345]
    for k in list(range(1, 40)) + [100, 1000, 12345, 10**6, 10**9, 2**40, 3 * 2**50]:
        xs += neighbours(float(mp.pi * k / 2), 2)
    rows = [case([x], lambda: f(mpf(x))) for x in xs]
    rows += [case([x], v) for x, v in special]
    return rows


def exp_rows():
    xs = [rng.uniform(-745, 709.78) for _ in range(N // 2)]
    xs += [rng.uniform(-5, 5) for _ in range(N // 4)]
    xs += [random_double(-1074, -1) for _ in range(N // 4)]
    xs += [709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412, -708.3964185322641,
           -708.4, -720, -740, -744.44, 1.0, -1.0, 0.5, 100.0, 1e-300, 5e-324]
    rows = [case([x], lambda: mp.exp(mpf(x))) for x in xs]
    rows += [case([x], v) for x, v in [(0.0, 1.0), (-0.0, 1.0), (math.inf, math.inf), (-math.inf, 0.0),
                                       (math.nan, math.nan), (710.0, math.inf), (-746.0, 0.0), (1e300, math.inf)]]
    return rows


def expm1_rows():
    xs = [rng.uniform(-40, 709.78) for _ in range(N // 4)]
    xs += [rng.uniform(-2, 2) for _ in range(N // 4)]
    xs += [random_double(-1074, -1) for _ in range(N // 2)]
    half = math.log(2) / 2
    xs += neighbours(half, 3) + neighbours(-half, 3) + [-37.9, -38.0, -36.0, 709.78, 1e-10, -1e-10, 2.0**-54, 5e-324]
    rows = [case([x], lambda: mp.expm1(mpf(x))) for x in xs]
    rows += [case([x], v) for x, v in [(0.0, 0.0), (-0.0, -0.0), (math.inf, math.inf), (-math.inf, -1.0),
                                       (math.nan, math.nan), (-40.0, -1.0), (710.0, math.inf)]]
    return rows


def log_rows(f, specials=True):
    xs = [random_double(-1074, 1023, negative=False) for _ in range(N // 2)]
    xs += [rng.uniform(0.5, 2) for _ in range(N // 4)]
    xs += [1 + k * 2.0**-52 for k in range(1, 11)] + [1 - k * 2.0**-53 for k in range(1, 11)]
    xs += [1 + 2.0**-k for k in range(1, 53, 3)] + [1 - 2.0**-k for k in range(1, 54, 3)]
    xs += [2.0**k for k in range(-1074, 1024, 37)] + [10.0**k for k in range(-300, 301, 7)]
    xs += [5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1.4142135623730951, 0.7071067811865476]
    rows = [case([x], lambda: f(mpf(x))) for x in xs]
    if specials:
        rows += [case([x], v) for x, v in [(1.0, 0.0), (0.0, -math.inf), (-0.0, -math.inf), (math.inf, math.inf),
                                           (-1.0, math.nan), (-math.inf, math.nan), (math.nan, math.nan),
                                           (-5e-324, math.nan)]]
    return rows


def pow_rows():
    rows = []
    for _ in range(N // 2):
        x, y = rng.uniform(0, 10), rng.uniform(-60, 60)
        rows.append(case([x, y], lambda: mpf(x) ** mpf(y)))
    for _ in range(N // 4):
        x, y = rng.uniform(0, 2), float(rng.randint(-64, 64))
        rows.append(case([x, y], lambda: mpf(x) ** int(y), integer_power=True))
    for _ in range(N // 8):
        x, y = -rng.uniform(0, 3), float(rng.randint(-70, 70))
        if y != 0:
            rows.append(case([x, y], lambda: mpf(x) ** int(y), integer_power=abs(y) <= 64))
    exact = [(3.0, 20.0), (3.0, 40.0), (2.0, -1074.0), (2.0, 1023.0), (10.0, -3.0), (0.5, 10.0), (100.0, 1.5),
             (4.0, 0.5), (8.0, 1 / 3), (27.0, 2 / 3), (10.0, 22.0), (10.0, 23.0), (7.0, 18.0), (1.5, 3.0),
             (134217727.0, 2.0), (3 * 2.0**-215, 5.0), (1.0000000000000002, 2.0**53 + 2), (0.9, -700.5),
             (1.0001, 10000.0), (2.0, 0.5), (2.0, -0.5), (1e-300, 2.0), (1e300, 2.0), (1e-160, 2.0)]
    for x, y in exact:
        integer = y == int(y) and abs(y) <= 64
        rows.append(case([x, y], lambda: mpf(x) ** (int(y) if integer else mpf(y)), integer_power=integer))
    nan, inf = math.nan, math.inf
    specials = [((0.0, 0.0), 1.0), ((nan, 0.0), 1.0), ((nan, -0.0), 1.0), ((1.0, nan), 1.0), ((1.0, inf), 1.0),
                ((-1.0, inf), 1.0), ((-1.0, -inf), 1.0), ((0.0, -1.0), inf), ((-0.0, -1.0), -inf),
                ((-0.0, -2.0), inf), ((0.0, -0.5), inf), ((-0.0, 3.0), -0.0), ((-0.0, 2.0), 0.0), ((0.0, 3.0), 0.0),
                ((-2.0, 0.5), nan), ((-2.0, 3.0), -8.0), ((0.5, inf), 0.0), ((0.5, -inf), inf), ((2.0, inf), inf),
                ((2.0, -inf), 0.0), ((inf, -1.0), 0.0), ((inf, 0.5), inf), ((-inf, 3.0), -inf), ((-inf, 2.0), inf),
                ((-inf, -3.0), -0.0), ((-inf, -2.0), 0.0), ((nan, 1.0), nan), ((2.0, nan), nan),
                ((2.0, 1024.0), inf), ((0.5, 1075.0), 0.0), ((-2.0, 1025.0), -inf)]
    rows += [case(list(args), v) for args, v in specials]
    return rows


def atan2_rows():
    rows = []
    for _ in range(N // 2):
        y, x = rng.uniform(-10, 10), rng.uniform(-10, 10)
        rows.append(case([y, x], lambda: mp.atan2(mpf(y), mpf(x))))
    for _ in range(N // 4):
        y, x = random_double(-1074, 1023), random_double(-1074, 1023)
        rows.append(case([y, x], lambda: mp.atan2(mpf(y), mpf(x))))
    hard = [(1.0, 1.0), (-1.0, -1.0), (1e-300, 1e300), (-1e-300, 1e300), (5e-324, 2.0), (3 * 5e-324, 2.0),
            (5e-324, 1.0), (1e-310, 1e-305), (1e300, 1e-300), (1e300, -1e-300), (1.0, -1e-20), (1e-20, -1.0),
            (5e-324, -1.0), (1.7976931348623157e308, 1.7976931348623157e308), (3.0, -4.0), (-3.0, 4.0)]
    rows += [case([y, x], lambda: mp.atan2(mpf(y), mpf(x))) for y, x in hard]
    pi, nan, inf = float(mp.pi), math.nan, math.inf
    rpi = round_double(mp.pi)[0]
    rhalf, rquarter, r3q = round_double(mp.pi / 2)[0], round_double(mp.pi / 4)[0], round_double(3 * mp.pi / 4)[0]
    specials = [((0.0, 0.0), 0.0), ((-0.0, 0.0), -0.0), ((0.0, -0.0), rpi), ((-0.0, -0.0), -rpi),
                ((0.0, 1.0), 0.0), ((-0.0, 1.0), -0.0), ((0.0, -1.0), rpi), ((-0.0, -1.0), -rpi),
                ((1.0, 0.0), rhalf), ((1.0, -0.0), rhalf), ((-1.0, 0.0), -rhalf), ((-1.0, -0.0), -rhalf),
                ((1.0, inf), 0.0), ((-1.0, inf), -0.0), ((1.0, -inf), rpi), ((-1.0, -inf), -rpi),
                ((inf, 1.0), rhalf), ((-inf, -1.0), -rhalf), ((inf, inf), rquarter), ((-inf, inf), -rquarter),
                ((inf, -inf), r3q), ((-inf, -inf), -r3q), ((nan, 1.0), nan), ((1.0, nan), nan),
                ((inf, 0.0), rhalf), ((0.0, inf), 0.0), ((0.0, -inf), rpi)]
    assert pi == rpi
    rows += [case(list(args), v) for args, v in specials]
    return rows


def atan_rows():
    xs = [rng.uniform(-4, 4) for _ in range(N // 2)] + [random_double(-1074, 1023) for _ in range(N // 2)]
    xs += [1.0, -1.0, 1 / 16, 0.5, 2.0, 1e300, 5e-324, 1e-10]
    rows = [case([x], lambda: mp.atan(mpf(x))) for x in xs]
    rhalf = round_double(mp.pi / 2)[0]
    rows += [case([x], v) for x, v in [(0.0, 0.0), (-0.0, -0.0), (math.inf, rhalf), (-math.inf, -rhalf),
                                       (math.nan, math.nan)]]
    return rows


def acos_rows():
    xs = [rng.uniform(-1, 1) for _ in range(N // 2)]
    xs += [1 - k * 2.0**-53 for k in range(1, 30)] + [-1 + k * 2.0**-53 for k in range(1, 30)]
    xs += [1 - 2.0**-k for k in range(1, 53, 2)] + [-1 + 2.0**-k for k in range(1, 53, 2)]
    xs += [random_double(-1074, -1) for _ in range(N // 4)] + [0.5, -0.5, 1e-300, 5e-324]
    rows = [case([x], lambda: mp.acos(mpf(x))) for x in xs]
    rows += [case([x], v) for x, v in [(1.0, 0.0), (-1.0, round_double(mp.pi)[0]), (0.0, round_double(mp.pi / 2)[0]),
                                       (-0.0, round_double(mp.pi / 2)[0]), (1.0000000000000002, math.nan),
                                       (-1.0000000000000002, math.nan), (2.0, math.nan), (math.inf, math.nan),
                                       (math.nan, math.nan)]]
    return rows


def cbrt_rows():
    xs = [random_double(-1074, 1023) for _ in range(N // 2)] + [rng.uniform(-10, 10) for _ in range(N // 4)]
    xs += [float(k**3) for k in range(1, 60)] + [-27.0, 0.125, 1e300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308]
    xs += [float(k) ** 3 * 2.0**-1074 for k in (1, 2, 3, 10, 100)]
    rows = [case([x], lambda: mp.cbrt(mpf(x)) if x >= 0 else -mp.cbrt(mpf(-x))) for x in xs]
    rows += [case([x], x) for x in SPECIAL]
    return rows


def main():
    if "--constants" in sys.argv:
        def dd(v):
            h = float(v)
            return "DoubleDouble(%r, %r)" % (h, float(v - mpf(h)))
        for name, v in [("piOver2", mp.pi / 2), ("pi", mp.pi), ("piOver4", mp.pi / 4), ("threePiOver4", 3 * mp.pi / 4),
                        ("ln2", mp.log(2)), ("log2OfE", 1 / mp.log(2)), ("log10Of2", mp.log(2) / mp.log(10)),
                        ("log10OfE", 1 / mp.log(10))]:
            print(name, dd(v))
        for j in range(17):
            print("atan(%d/16)" % j, dd(mp.atan(mpf(j) / 16)))
        for j in range(52):
            print("sin, cos(%d/64)" % j, dd(mp.sin(mpf(j) / 64)), dd(mp.cos(mpf(j) / 64)))
        for n in range(28):
            print("1/%d!" % n, dd(1 / mp.factorial(n)))
        for j in range(22):
            print("1/%d" % (2 * j + 1), dd(mpf(1) / (2 * j + 1)))

        def leading(v, bits):  # v rounded to `bits` significant bits
            m, e = mp.frexp(v)
            return float(mp.ldexp(mp.nint(mp.ldexp(m, bits)), e - bits))
        c1 = leading(mp.pi / 2, 32)
        c2 = leading(mp.pi / 2 - c1, 32)
        c3 = float(mp.pi / 2 - c1 - c2)
        print("pi/2 in parts of 32, 32 and 53 bits: %r %r %r" % (c1, c2, c3))
        return
    nan, inf = math.nan, math.inf
    fixtures = {
        "sin": trig("sin", mp.sin, [(0.0, 0.0), (-0.0, -0.0), (inf, nan), (-inf, nan), (nan, nan)]),
        "cos": trig("cos", mp.cos, [(0.0, 1.0), (-0.0, 1.0), (inf, nan), (-inf, nan), (nan, nan)]),
        "tan": trig("tan", mp.tan, [(0.0, 0.0), (-0.0, -0.0), (inf, nan), (-inf, nan), (nan, nan)]),
        "exp": exp_rows(),
        "expMinusOne": expm1_rows(),
        "log": log_rows(mp.log),
        "log2": log_rows(lambda x: mp.log(x, 2)),
        "log10": log_rows(mp.log10),
        "pow": pow_rows(),
        "atan": atan_rows(),
        "atan2": atan2_rows(),
        "acos": acos_rows(),
        "cbrt": cbrt_rows(),
    }
    with open(OUT, "w") as f:
        f.write("{\n")
        names = list(fixtures)
        for i, name in enumerate(names):
            f.write('  "%s": [\n' % name)
            rows = fixtures[name]
            for j, row in enumerate(rows):
                f.write("    " + json.dumps(row) + ("," if j < len(rows) - 1 else "") + "\n")
            f.write("  ]" + ("," if i < len(names) - 1 else "") + "\n")
        f.write("}\n")
    for name in fixtures:
        print(name, len(fixtures[name]), "cases,", sum(r[-1] for r in fixtures[name]), "near a midpoint")


if __name__ == "__main__":
    main()
