#!/usr/bin/env python3
"""Candidate seeds for the fuzz targets, drawn from the scenes and the test
catalogue (docs/fuzzing.md). `scripts/fuzz --update-corpus` writes them to
OUTDIR/<target>/ and keeps in Fuzz/Corpus/<target>/ the subset that covers
what they all cover (libFuzzer's -merge=1).

  scene       scenes/, Benchmarks/Scenes, Benchmarks/GIFScenes, the render
              goldens' scenes, and every scene the SceneModel and Render
              tests write (the decoder's bad-input catalogue included)
  animation   every string of the Timing, CallBinder and curve-command
              tests; the `animation` of every scene (strings, JSON objects)
  transition  the transition tests' values; the `transition` of every scene
  expression  every string of the progress-expression tests; the custom
              transitions' expressions in the scenes
  svg-path    every string of the SVG path tests; the `d` of every scene
  png         the raster goldens, and tiny PNGs of every colour type, bit
              depth and interlacing, with tRNS, gAMA and broken chunks
  lottie      the Lottie fixtures under 8 KB, and every animation the
              Lottie tests write (the decoder's bad-input catalogue included)

  Fuzz/seeds.py OUTDIR
"""
import hashlib
import json
import pathlib
import re
import struct
import sys
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Swift string literals: raw (#"…"#, ##"…"##, and multi-line), multi-line,
# and plain. Escapes are undone only in non-raw literals.
LITERAL = re.compile(
    r'(?P<raw>#+)"""\n(?P<rawmulti>.*?)\n[ \t]*"""(?P=raw)'
    r'|(?P<raw1>#+)"(?P<rawsingle>.*?)"(?P=raw1)'
    r'|"""\n(?P<multi>.*?)\n[ \t]*"""'
    r'|"(?P<plain>(?:[^"\\\n]|\\.)*)"',
    re.S,
)


def unescape(text):
    return re.sub(r'\\([\\"nt0r\'])', lambda m: {"n": "\n", "t": "\t", "0": "\0", "r": "\r"}.get(m[1], m[1]), text)


def dedent(text):
    lines = text.split("\n")
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    return "\n".join(l[indent:] for l in lines)


def literals(path):
    """Every string literal of a Swift file, with its text as Swift reads it."""
    source = path.read_text(encoding="utf-8")
    # Comments would only add prose.
    source = re.sub(r"^\s*//.*$", "", source, flags=re.M)
    for m in LITERAL.finditer(source):
        if m["rawmulti"] is not None:
            yield dedent(m["rawmulti"])
        elif m["rawsingle"] is not None:
            yield m["rawsingle"]
        elif m["multi"] is not None:
            yield unescape(dedent(m["multi"]))
        else:
            yield unescape(m["plain"])


def scene_helper_calls(path):
    """`scene(layers: …, timeline: …, extra: …)` of DecoderTests, assembled as it does."""
    source = path.read_text(encoding="utf-8")
    lit = r'(?:#+"(?:.*?)"#+|"(?:[^"\\\n]|\\.)*")'
    call = re.compile(r"scene\(\s*layers:\s*(" + lit + r")(?:,\s*timeline:\s*(" + lit + r"))?(?:,\s*extra:\s*(" + lit + r"))?\s*\)")

    def value(text):
        if text is None:
            return None
        m = LITERAL.fullmatch(text)
        return m["rawsingle"] if m["rawsingle"] is not None else unescape(m["plain"])

    for m in call.finditer(source):
        layers, timeline, extra = value(m[1]), value(m[2]) or "[]", value(m[3]) or ""
        yield '{"version": 1, "size": [390, 200],' + extra + ' "layers": ' + layers + ', "timeline": ' + timeline + "}"


def walk_json(node, key=None):
    """(key, value) of every member of every object in a JSON document."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield k, v
            yield from walk_json(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from walk_json(v, key)


def scene_files():
    files = sorted(ROOT.glob("scenes/*.json")) + sorted(ROOT.glob("Benchmarks/Scenes/*.json"))
    files += sorted(ROOT.glob("Benchmarks/GIFScenes/*.json")) + sorted(ROOT.glob("Tests/RenderTests/Goldens/*.json"))
    return files


def scene_values(key):
    for f in scene_files():
        try:
            document = json.loads(f.read_text(encoding="utf-8"))
        except ValueError:
            continue
        for k, v in walk_json(document):
            if k == key:
                yield v


def texts(files):
    for f in files:
        yield from literals(f)


# MARK: PNG


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, color_type, depth, interlaced=False, extra=(), rows=None):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    bits_per_pixel = channels * depth

    def raw_rows(w, h, y0):
        out = b""
        for y in range(h):
            row_bytes = (w * bits_per_pixel + 7) // 8
            out += b"\0" + bytes(((x * 37 + (y + y0) * 101) & 0xFF) for x in range(row_bytes))
        return out

    if rows is not None:
        raw = rows
    elif not interlaced:
        raw = raw_rows(width, height, 0)
    else:
        raw = b""
        for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            w, h = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
            if w > 0 and h > 0:
                raw += raw_rows(w, h, y0)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0)
    body = chunk(b"IHDR", ihdr)
    for kind, data in extra:
        body += chunk(kind, data)
    body += chunk(b"IDAT", zlib.compress(raw, 9))
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b"")


def pngs():
    depths = {0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]}
    palette = (b"PLTE", bytes(range(48)))
    out = []
    for color_type, ds in depths.items():
        for depth in ds:
            for interlaced in (False, True):
                extra = [palette, (b"tRNS", bytes([0, 128, 255]))] if color_type == 3 else []
                out.append(png(5, 3, color_type, depth, interlaced, extra))
    out.append(png(4, 4, 0, 8, extra=[(b"tRNS", struct.pack(">H", 37))]))
    out.append(png(4, 4, 2, 16, extra=[(b"tRNS", struct.pack(">HHH", 1, 2, 3))]))
    out.append(png(4, 4, 6, 8, extra=[(b"gAMA", struct.pack(">I", 100000))]))
    out.append(png(4, 4, 2, 8, extra=[(b"sRGB", b"\0"), (b"gAMA", struct.pack(">I", 45455))]))
    out.append(png(9, 9, 6, 16, interlaced=True, extra=[(b"gAMA", struct.pack(">I", 45455))]))
    out.append(png(1, 1, 6, 8, extra=[(b"tEXt", b"Comment\0fuzz"), (b"pHYs", struct.pack(">IIB", 2835, 2835, 1))]))
    whole = png(4, 4, 6, 8)
    out.append(whole[: len(whole) // 2])  # truncated
    out.append(png(3, 3, 2, 8, rows=b"\4" * 40))  # bad filter type, short data
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = pathlib.Path(sys.argv[1])
    seeds = {t: set() for t in ["scene", "animation", "transition", "expression", "svg-path", "png", "lottie"]}

    def add(target, value):
        data = value if isinstance(value, bytes) else value.encode("utf-8")
        if data.strip():
            seeds[target].add(data)

    tests = ROOT / "Tests"
    for f in scene_files():
        add("scene", f.read_bytes())
    for f in sorted(tests.glob("SceneModelTests/*.swift")) + sorted(tests.glob("RenderTests/*.swift")):
        for text in literals(f):
            if '"layers"' in text or '"version"' in text:
                add("scene", text)
        for text in scene_helper_calls(f):
            add("scene", text)

    def as_call_text(v):
        return v if isinstance(v, str) else json.dumps(v)

    for v in scene_values("animation"):
        add("animation", as_call_text(v))
    animation_tests = sorted(tests.glob("TimingTests/*.swift")) + [tests / "SyntaxTests/CallBinderTests.swift"]
    animation_tests += [tests / "RenderCommandTests/CurveCommandTests.swift"]
    for text in texts(animation_tests):
        if len(text) < 300:
            add("animation", text)
    timing = json.loads((tests / "TimingTests/Fixtures/timing.json").read_text(encoding="utf-8"))
    for k, v in walk_json(timing):
        if k in ("spring", "animation") and isinstance(v, str):
            add("animation", v)

    for v in scene_values("transition"):
        add("transition", as_call_text(v))
    for text in texts([tests / "SceneModelTests/TransitionTests.swift"]):
        try:
            value = json.loads(text)
        except ValueError:
            add("transition", text)
            continue
        add("transition", value if isinstance(value, str) else text)

    for v in scene_values("modifier"):
        for _, x in walk_json(v):
            if isinstance(x, str):
                add("expression", x)
    for text in texts([tests / "SyntaxTests/ProgressExpressionTests.swift"]):
        add("expression", text)

    for v in scene_values("d"):
        if isinstance(v, str):
            add("svg-path", v)
    for text in texts([tests / "PrimitivesTests/SVGPathTests.swift"]):
        add("svg-path", text)

    for f in sorted(tests.glob("RasterTests/Goldens/*.png")):
        add("png", f.read_bytes())
    for data in pngs():
        add("png", data)

    for f in sorted((tests / "Fixtures/lottie").glob("*.json")):
        if f.stat().st_size < 8192:
            add("lottie", f.read_bytes())
    for text in literals(tests / "LottieTests/LottieTests.swift"):
        if '"layers"' in text or '"fr"' in text:
            add("lottie", text)

    for target, values in seeds.items():
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        for data in sorted(values):
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"{target}: {len(values)} candidates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
