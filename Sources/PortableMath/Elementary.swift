/// The elementary functions of every Springframe module, in pure Swift, so
/// that timing (springs, easings), geometry (arcs, joins, caps), blur
/// kernels and colour conversions — and therefore pixels — are the same
/// bits on every machine, whatever its C library.
///
/// **Policy.** The host's libm (glibc, musl, Apple's) is not used: its
/// results differ between versions in the last bit. Each function here
/// works in double-double arithmetic (`DoubleDouble`, about 106 bits) built
/// from IEEE 754 basic operations only (+ − × ÷ √, and exact products by
/// Dekker's algorithm or a fused multiply-add, both exact), and rounds once
/// at the end. IEEE 754 specifies each of those operations exactly, so the
/// result is a function of the argument alone: the same on x86-64 with or
/// without FMA hardware, on arm64, in debug and release builds.
///
/// **Accuracy.** Before its final rounding, each function's double-double
/// value has a relative error below 2⁻⁸⁸ (the bound of each is stated in
/// its own documentation). The returned double is therefore the correctly
/// rounded one (nearest, ties to even) unless the exact value lies within
/// 2⁻⁸⁸ relative — about 2⁻³⁵ of an ulp — of the midpoint between two
/// doubles; there it may be the other neighbour, 1 ulp away. Such
/// arguments are rare (about one in 2³⁵ at random; the tests check a
/// fixture of random and hard arguments against 300-bit mpmath values and
/// allow a mismatch only there). Exact results (`exp(0)`, `log2(8)`,
/// `pow(3, 20)`, `cbrt(27)`) are exact, and results below the normal range
/// are rounded once on the subnormal grid.
///
/// **Special values** follow C's libm (C23 Annex F, IEEE 754 §9.2): NaN in,
/// NaN out, except `pow(x, ±0) = 1` and `pow(1, y) = 1`; domain errors
/// (`log(−1)`, `acos(2)`, `sin(∞)`) give NaN; poles give ±∞ (`log(0)`);
/// odd functions keep the sign of zero (`sin(−0) = −0`).
///
/// **Cost.** sin, cos, sinCos and tan take a fast path first (Ziv's
/// strategy: a table-driven evaluation with a proven error bound, returned
/// only when that bound cannot change the rounding, so the result is the
/// same bits either way): some tens of nanoseconds, a few times glibc's.
/// The others, and the rare hard trigonometric argument, cost 0.1–0.5 µs
/// of double-double arithmetic. The renderer calls them per animated
/// property and per stroked arc, not per pixel (README, "Determinism
/// across machines").
public enum Elementary {}
