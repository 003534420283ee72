#!/usr/bin/env python3
"""dotLottie archives through the release `render` (docs/cli.md, "Lottie
input"), built here with Python's zipfile: the v1 and v2 layouts, images
in the archive, an archive without a manifest, and broken ones (a bomb, a
truncated zip, one without an animation), which must fail with exit 65 and
write nothing; `render batch` finds archives in a folder. Each drawn archive must give the same pixels as the same
animation given as a JSON file with its image embedded.

    dotlottie_checks.py RENDER FIXTURE.json
Prints one line per check; exits 1 if any failed.
"""
import base64, json, os, subprocess, sys, tempfile, zipfile

render, fixture = sys.argv[1], sys.argv[2]
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def run(*args):
    return subprocess.run([render, *args], capture_output=True, text=True, timeout=120)


with tempfile.TemporaryDirectory() as d:
    anim = json.load(open(fixture))
    # The fixture's embedded image, moved into the archive.
    image = next(a for a in anim["assets"] if str(a.get("p", "")).startswith("data:"))
    data = base64.b64decode(image["p"].split(",", 1)[1])
    reference = os.path.join(d, "reference.png")
    r = run("still", fixture, "--at", "1", "-o", reference)
    check("the JSON file renders", r.returncode == 0, r.stderr)
    ref_bytes = open(reference, "rb").read() if r.returncode == 0 else b""

    def archive(name, entries):
        path = os.path.join(d, name)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for entry, content in entries:
                z.writestr(entry, content)
        return path

    def with_image(u, p):
        a = json.loads(json.dumps(anim))
        for asset in a["assets"]:
            if asset.get("id") == image["id"]:
                asset.update({"u": u, "p": p, "e": 0})
        return json.dumps(a)

    cases = {
        "v1": [("manifest.json", json.dumps({"version": "1", "animations": [{"id": "main"}]})),
               ("animations/main.json", with_image("/images/", "img_0.jpg")), ("images/img_0.jpg", data)],
        "v2": [("manifest.json", json.dumps({"version": "2", "animations": [{"id": "main"}, {"id": "other"}]})),
               ("a/other.json", "{}"), ("a/main.json", with_image("/i/", "img_0.jpg")), ("i/img_0.jpg", data)],
        "no-manifest": [("animations/main.json", with_image("", "img_0.jpg")), ("images/img_0.jpg", data)],
    }
    for name, entries in cases.items():
        path = archive(name + ".lottie", entries)
        out = os.path.join(d, name + ".png")
        r = run("still", path, "--at", "1", "-o", out)
        same = r.returncode == 0 and open(out, "rb").read() == ref_bytes
        check(f"{name}: the same pixels as the JSON file", same, r.stderr)
        r = run("validate", path)
        check(f"{name}: validate accepts it", r.returncode == 0, r.stderr)

    # `render batch` takes archives in a folder beside JSON files.
    folder = os.path.join(d, "batch")
    os.makedirs(folder)
    os.rename(os.path.join(d, "v2.lottie"), os.path.join(folder, "archive.lottie"))
    open(os.path.join(folder, "plain.json"), "w").write(json.dumps(anim))
    out = os.path.join(d, "batch-out")
    r = run("batch", folder, "--out", out, "--scale", "0.1", "--quiet")
    made = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check("batch: a folder's .lottie and .json files are rendered", r.returncode == 0 and made == ["archive.mp4", "plain.mp4"],
          f"exit {r.returncode}, made {made}: {r.stderr.strip()}")

    # Broken archives: a located error, exit 65, nothing written.
    bomb = os.path.join(d, "bomb.lottie")
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps({"version": "1", "animations": [{"id": "x"}]}))
        with z.open("animations/x.json", "w", force_zip64=True) as f:
            for _ in range(80):
                f.write(b" " * (1 << 20))
    truncated = os.path.join(d, "truncated.lottie")
    open(truncated, "wb").write(open(os.path.join(d, "v1.lottie"), "rb").read()[:4000])
    empty = archive("empty.lottie", [("manifest.json", "{}"), ("images/x.png", b"")])
    broken_json = archive("broken.lottie", [("manifest.json", "{}"), ("animations/x.json", '{"fr": 30, "layers": [}')])
    for path, message in [
        (bomb, "inflates to more than 64 MiB"),
        (truncated, "not a dotLottie archive that can be read"),
        (empty, "holds no animation"),
        (broken_json, "broken.lottie/animations/x.json:1:"),
    ]:
        out = os.path.join(d, "out-" + os.path.basename(path) + ".mp4")
        r = run(path, "-o", out)
        ok = r.returncode == 65 and message in r.stderr and not os.path.exists(out)
        check(f"{os.path.basename(path)}: exit 65, located, nothing written", ok, f"exit {r.returncode}: {r.stderr.strip()}")

sys.exit(1 if failures else 0)
