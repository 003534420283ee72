#!/usr/bin/env python3
"""Lottie fidelity against ThorVG (thorvg-python, in .build-tools/venv):
for each file, 8 frames evenly spaced over [ip, op), `render still FILE
--at t` against ThorVG's frame ip + t·fr at the same size, both composited
over white and over black; prints the worst PSNR of each file.

    lottie_fidelity.py --render BIN [--size 256] [--min DB] [--player thorvg|rlottie] FILE[=REFERENCE]...

With --player rlottie the reference is rlottie (rlottie-python), which
draws whole frames only: the 8 frames are then the whole frames
ip + ⌊k·(op − ip)/8⌋.

FILE=REFERENCE compares FILE with ThorVG's frames of REFERENCE (a file
ThorVG cannot read, say in the old 0…255 colour form, against the original).

Each reference frame is drawn in a subprocess with a timeout (the players
crash on some inputs). Exit 1 if any file is under --min (default: none).
"""
import argparse, json, math, os, subprocess, sys, tempfile

CHILD = r'''
import sys, json, ctypes
import thorvg_python as tvg
path, frame, w, h, out = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
engine = tvg.Engine(threads=0)
canvas = tvg.SwCanvas(engine)
canvas.set_target(w, h, w, tvg.Colorspace.ABGR8888)
anim = tvg.LottieAnimation(engine)
pic = anim.get_picture()
assert pic.load(path) == tvg.Result.SUCCESS, "load failed"
pic.set_size(w, h)
canvas.add(pic)
anim.set_frame(frame)
canvas.update(); canvas.draw(True); canvas.sync()
open(out, "wb").write(bytes(canvas.buffer_arr))
'''


RLOTTIE = r'''
import sys
from rlottie_python import LottieAnimation
path, frame, w, h, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
anim = LottieAnimation.from_file(path)
bgra = anim.lottie_animation_render(frame_num=frame, width=w, height=h)
rgba = bytearray(len(bgra))
rgba[0::4], rgba[1::4], rgba[2::4], rgba[3::4] = bgra[2::4], bgra[1::4], bgra[0::4], bgra[3::4]
open(out, "wb").write(bytes(rgba))
'''


def rlottie(path, frame, w, h, python):
    """rlottie's whole frame `frame` (counted from ip), premultiplied RGBA."""
    with tempfile.NamedTemporaryFile(suffix=".raw") as f:
        done = subprocess.run([python, "-c", RLOTTIE, path, str(frame), str(w), str(h), f.name], capture_output=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode()[-300:])
        return open(f.name, "rb").read()


def thorvg(path, frame, w, h, python):
    with tempfile.NamedTemporaryFile(suffix=".raw") as f:
        done = subprocess.run([python, "-c", CHILD, path, repr(frame), str(w), str(h), f.name], capture_output=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode()[-300:])
        return open(f.name, "rb").read()  # premultiplied RGBA (ABGR8888 little-endian)


def ours(render, path, t, scale):
    from PIL import Image
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "f.png")
        done = subprocess.run([render, "still", path, "--at", repr(t), "-o", out, "--scale", repr(scale), "--quiet"], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-300:])
        return Image.open(out).convert("RGBA").tobytes()  # straight RGBA


def psnr_over(premultiplied, straight, background):
    se = 0
    n = 0
    for i in range(0, len(straight), 4):
        a1 = premultiplied[i + 3]
        a2 = straight[i + 3]
        for c in range(3):
            x = premultiplied[i + c] + (255 - a1) * background / 255
            y = straight[i + c] * a2 / 255 + (255 - a2) * background / 255
            se += (x - y) ** 2
            n += 1
    mse = se / n
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--render", required=True)
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--min", type=float)
    p.add_argument("--player", choices=["thorvg", "rlottie"], default="thorvg")
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    python = sys.executable
    failed = []
    for given in a.files:
        path, _, reference = given.partition("=")
        reference = reference or path
        d = json.load(open(path))
        w, h, fr, ip, op = d["w"], d["h"], d["fr"], d["ip"], d["op"]
        scale = a.size / max(w, h)
        W, H = max(1, round(w * scale)), max(1, round(h * scale))
        duration = (op - ip) / fr
        worst = 99.0
        try:
            for k in range(8):
                if a.player == "rlottie":
                    whole = math.floor(k * (op - ip) / 8)
                    t = whole / fr
                    ref = rlottie(reference, whole, W, H, python)
                else:
                    t = duration * k / 8
                    ref = thorvg(reference, t * fr, W, H, python)
                got = ours(a.render, path, t, scale)
                if len(got) != len(ref):
                    raise RuntimeError(f"size differs: {len(got)} vs {len(ref)}")
                worst = min(worst, psnr_over(ref, got, 255), psnr_over(ref, got, 0))
        except Exception as e:  # noqa: BLE001
            print(f"{os.path.basename(path):40} error: {e}")
            failed.append(path)
            continue
        mark = "" if a.min is None or worst >= a.min else "  < min"
        if mark:
            failed.append(path)
        print(f"{os.path.basename(path):40} {worst:6.1f} dB{mark}")
    sys.exit(1 if failed and a.min is not None else 0)


if __name__ == "__main__":
    main()
