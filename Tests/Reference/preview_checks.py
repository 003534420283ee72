#!/usr/bin/env python3
"""`render preview` checked as its users meet it: over raw HTTP, and in a
real browser (Debian's chromium, headless, driven by Playwright for Python).

    preview_checks.py CHECK --render BIN     (CHECK: see CHECKS below)
    preview_checks.py --can-browse           exit 0 if Chromium starts

Every reference comes from outside the preview: frames are compared with
the PNG `render still` writes (decoded by Pillow), errors with what
`render validate` prints. Exit 0 when the check passes, 1 when it fails
(saying why), 77 when the browser cannot start (the Swift test that runs
this reports itself skipped before that, through --can-browse).
"""
import argparse
import base64
import contextlib
import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
CHROMIUM = "/usr/bin/chromium"


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def wait_for(predicate, what, timeout=20.0):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise CheckFailed(f"timed out after {timeout} s waiting for {what}")


@contextlib.contextmanager
def preview(render, scene, *options):
    """`render preview SCENE --port 0 OPTIONS`: yields (base URL, process);
    stopped by SIGINT at the end, which must end it with 0 within a second."""
    process = subprocess.Popen([render, "preview", str(scene), "--port", "0", *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        match = re.fullmatch(r"preview: (http://127\.0\.0\.1:(\d+)/)", line)
        expect(match, f"the first line on standard output is {line!r}, not 'preview: http://127.0.0.1:PORT/' (stderr: {process.stderr.read() if process.poll() is not None else ''})")
        yield match.group(1), process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            start = time.time()
            try:
                status = process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                raise CheckFailed("render preview did not end within 5 s of SIGINT")
            expect(status == 0, f"render preview ended with {status} after SIGINT, not 0")
            expect(time.time() - start < 1.0, f"render preview took {time.time() - start:.2f} s to end after SIGINT")


def get(url, headers=None):
    """(status, headers, body) of a GET."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def raw(port, request):
    """The status line of a raw HTTP request, and the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request.encode("latin-1"))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"(?i)content-length: *(\d+)", head)
        while length and len(body) < int(length.group(1)):
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    status = data.split(b"\r\n", 1)[0].decode("latin-1")
    return status, head + b"\r\n\r\n" + body


def status_code(line):
    parts = line.split(" ")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def still_rgba(render, scene, t, *options):
    """The RGBA bytes, width and height of `render still SCENE --at T`."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "still.png")
        done = subprocess.run([render, "still", str(scene), "--at", repr(t), "-o", out, "--quiet", *options], capture_output=True, text=True)
        expect(done.returncode == 0, f"render still --at {t} failed: {done.stderr}")
        image = Image.open(out).convert("RGBA")
        return image.tobytes(), image.width, image.height


CANVAS_RGBA = """() => {
  const c = document.getElementById('frame');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let s = '';
  for (let i = 0; i < data.length; i += 0x8000) s += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
  return [btoa(s), c.width, c.height];
}"""


def canvas_rgba(page):
    data, width, height = page.evaluate(CANVAS_RGBA)
    return base64.b64decode(data), width, height


def expect_same_pixels(page, render, scene, t, *options):
    got, w, h = canvas_rgba(page)
    want, ww, wh = still_rgba(render, scene, t, *options)
    expect((w, h) == (ww, wh), f"at t={t} the canvas is {w}×{h}, render still's frame {ww}×{wh}")
    if got != want:
        differing = sum(1 for i in range(0, len(got), 4) if got[i : i + 4] != want[i : i + 4])
        raise CheckFailed(f"at t={t}, {differing} of {w * h} canvas pixels differ from render still's")


@contextlib.contextmanager
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


def open_page(b, url, requests=None):
    # Playwright evaluates its waits with eval, which the page's policy forbids.
    page = b.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=1, bypass_csp=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A resource that fails to load (a 404) is a console error too.
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    if requests is not None:
        page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    page.wait_for_function("window.preview && (window.preview.generation !== null || window.preview.error !== null)", timeout=15000)
    page.page_errors = errors
    return page


def seek(page, t):
    page.evaluate("(t) => window.preview.seek(t)", t)


def scene_copy(folder, name="toggle.json", assets=False):
    target = pathlib.Path(folder) / "scene.json"
    shutil.copy(ROOT / "scenes" / name, target)
    if assets:
        shutil.copytree(ROOT / "scenes" / "assets", pathlib.Path(folder) / "assets")
    return target


def save_in_place(path, text):
    with open(path, "w") as f:  # same inode, truncated and written
        f.write(text)


def save_by_rename(path, text):
    temporary = path.with_name("." + path.name + ".swp~")
    temporary.write_text(text)
    os.replace(temporary, path)


def edited(path, change):
    scene = json.loads(path.read_text())
    change(scene)
    return json.dumps(scene, indent=2)


# The checks.


def check_pixels(render, folder):
    """The canvas is, pixel for pixel, `render still` at seeked times; so is /frame.png."""
    scene = scene_copy(folder)
    with preview(render, scene) as (url, _), browser() as b:
        page = open_page(b, url)
        duration = json.loads(get(url + "scene")[2])["duration"]
        for t in [0, 0.4, 1.2345, 2.0, duration]:
            seek(page, t)
            expect(abs(page.evaluate("window.preview.time") - t) < 1e-12, f"preview.time is {page.evaluate('window.preview.time')} after seek({t})")
            expect_same_pixels(page, render, scene, t)
        seek(page, duration + 5)
        expect(page.evaluate("window.preview.time") == duration, "seek past the end is not clamped to the duration")
        expect(not page.page_errors, f"the page threw: {page.page_errors}")
    with preview(render, scene, "--scale", "1", "--appearance", "dark") as (url, _):
        status, headers, body = get(url + "frame.png?t=1.5")
        expect(status == 200 and headers.get("Content-Type") == "image/png", f"/frame.png answered {status}")
        with tempfile.TemporaryDirectory() as d:
            (pathlib.Path(d) / "f.png").write_bytes(body)
            from PIL import Image

            got = Image.open(pathlib.Path(d) / "f.png").convert("RGBA")
            want, w, h = still_rgba(render, scene, 1.5, "--scale", "1", "--appearance", "dark")
            expect(got.tobytes() == want and got.size == (w, h), "/frame.png with --scale 1 --appearance dark differs from render still's")


def check_step(render, folder):
    """→ steps one output frame, 1 / (fps × slow) of scene time; Shift+→ one second; Home, End; the frame is right."""
    scene = scene_copy(folder)
    with preview(render, scene, "--fps", "30", "--slow", "4") as (url, _), browser() as b:
        page = open_page(b, url)
        duration = json.loads(get(url + "scene")[2])["duration"]
        seek(page, 1.0)
        page.keyboard.press("ArrowRight")
        want = 1.0 + 1 / 120
        wait_for(lambda: abs(page.evaluate("window.preview.time") - want) < 1e-9, f"preview.time {want} after →")
        expect_same_pixels(page, render, scene, page.evaluate("window.preview.time"))
        page.keyboard.press("ArrowLeft")
        wait_for(lambda: abs(page.evaluate("window.preview.time") - 1.0) < 1e-9, "preview.time 1.0 after ← from 1 + 1/120")
        page.keyboard.press("Shift+ArrowRight")
        wait_for(lambda: abs(page.evaluate("window.preview.time") - 2.0) < 1e-9, "preview.time 2.0 after Shift+→ from 1.0")
        page.keyboard.press("Shift+ArrowLeft")
        wait_for(lambda: abs(page.evaluate("window.preview.time") - 1.0) < 1e-9, "preview.time 1.0 after Shift+←")
        page.keyboard.press("End")
        wait_for(lambda: page.evaluate("window.preview.time") == duration, "preview.time at the duration after End")
        expect_same_pixels(page, render, scene, duration)
        page.keyboard.press("Home")
        wait_for(lambda: page.evaluate("window.preview.time") == 0, "preview.time 0 after Home")
        speeds = page.evaluate("[...document.querySelectorAll('#speeds button')].map(b => b.textContent)")
        expect(speeds[:3] == ["1×", "½×", "¼×"], f"the speeds are {speeds}, not 1×, ½×, ¼× first")
        readout = page.inner_text("#frame-number")
        expect(readout.startswith("frame 0"), f"the frame readout is {readout!r} at t = 0")
        # Space plays (at ¼×, the --slow factor, by default), Space pauses.
        page.keyboard.press("Space")
        wait_for(lambda: page.evaluate("window.preview.time") > 0.05, "playback to move the frame", timeout=5)
        page.keyboard.press("Space")
        time.sleep(0.3)
        paused = page.evaluate("window.preview.time")
        time.sleep(0.3)
        expect(page.evaluate("window.preview.time") == paused, "Space did not pause playback")
        expect(not page.page_errors, f"the page threw: {page.page_errors}")


def check_saves(render, folder):
    """A save in place and a save by rename both reach the page, at the same time; identical bytes leave the generation."""
    scene = scene_copy(folder)
    with preview(render, scene) as (url, _), browser() as b:
        page = open_page(b, url)
        seek(page, 1.5)
        before = canvas_rgba(page)[0]
        save_in_place(scene, edited(scene, lambda s: s.__setitem__("background", "#102030")))
        wait_for(lambda: page.evaluate("window.preview.generation") == 2, "generation 2 after a save in place")
        expect(page.evaluate("window.preview.time") == 1.5, "the playhead moved on a save")
        wait_for(lambda: canvas_rgba(page)[0] != before, "the new frame after a save in place")
        expect_same_pixels(page, render, scene, 1.5)
        save_by_rename(scene, edited(scene, lambda s: s.__setitem__("background", "#302010")))
        wait_for(lambda: page.evaluate("window.preview.generation") == 3, "generation 3 after a save by rename")
        wait_for(lambda: json.loads(get(url + "scene")[2])["generation"] == 3, "/scene at generation 3")
        time.sleep(0.2)
        expect_same_pixels(page, render, scene, 1.5)
        # The same bytes again: no new generation.
        save_in_place(scene, scene.read_text())
        time.sleep(0.4)
        expect(json.loads(get(url + "scene")[2])["generation"] == 3, "a save of identical bytes made a new generation")
        # A save that shortens the scene keeps the playhead, clamped.
        seek(page, 3.0)
        save_by_rename(scene, edited(scene, lambda s: s.__setitem__("duration", 2.0)))
        wait_for(lambda: page.evaluate("window.preview.generation") == 4, "generation 4 after shortening the scene")
        wait_for(lambda: page.evaluate("window.preview.time") == 2.0, "the playhead clamped to the new duration 2.0")
        expect_same_pixels(page, render, scene, 2.0)
        expect(not page.page_errors, f"the page threw: {page.page_errors}")


def check_invalid(render, folder):
    """An invalid save shows scene.json:L:C in #errors, exactly as render validate says it, and keeps the last good frame."""
    scene = scene_copy(folder)
    good = scene.read_text()
    with preview(render, scene) as (url, _), browser() as b:
        page = open_page(b, url)
        seek(page, 1.0)
        frame = canvas_rgba(page)[0]
        bad = good.replace('"duration"', '"duration": "long", "x_duration"', 1)
        save_in_place(scene, bad)
        wait_for(lambda: page.is_visible("#errors"), "#errors to show")
        shown = page.inner_text("#errors")
        validate = subprocess.run([render, "validate", str(scene)], capture_output=True, text=True)
        expect(validate.returncode == 65, "render validate accepted the invalid scene")
        expect(re.search(re.escape(str(scene)) + r":\d+:\d+", shown), f"#errors does not name {scene}:LINE:COLUMN: {shown!r}")
        state = json.loads(get(url + "scene")[2])
        expect(state["error"] == validate.stderr.rstrip("\n"), f"/scene's error {state['error']!r} is not render validate's {validate.stderr!r}")
        expect(page.evaluate("window.preview.error") == state["error"], "preview.error is not the diagnostics")
        expect(state["generation"] == 1, "a failed load changed the generation")
        expect(canvas_rgba(page)[0] == frame, "the last good frame did not stay")
        status, _, body = get(url + "frame.png?t=nope")
        expect(status == 409 and str(scene) in body.decode(), f"/frame.png of an invalid scene answered {status}, not 409 with the diagnostics (409 wins over 400)")
        # Broken JSON, then a valid save clears the errors.
        save_by_rename(scene, good[: len(good) // 2])
        wait_for(lambda: re.search(r"scene\.json:\d+:\d+", page.inner_text("#errors")) and page.evaluate("window.preview.error") != state["error"], "the truncated file's error")
        save_by_rename(scene, good)
        wait_for(lambda: not page.is_visible("#errors"), "#errors to clear after a valid save")
        expect(page.evaluate("window.preview.error") is None, "preview.error stays after a valid save")
        expect(json.loads(get(url + "scene")[2])["generation"] == 1, "the same bytes as the last good version made a new generation")
        expect(not page.page_errors, f"the page threw: {page.page_errors}")


def check_assets(render, folder):
    """An asset that disappears is an error where the scene names it; it coming back clears it. A scene invalid at start still serves."""
    scene = scene_copy(folder, "hero-transition.json", assets=True)
    with preview(render, scene) as (url, _), browser() as b:
        page = open_page(b, url)
        seek(page, 0.5)
        photo = pathlib.Path(folder) / "assets" / "photo.png"
        kept = photo.read_bytes()
        photo.unlink()
        wait_for(lambda: page.is_visible("#errors"), "#errors after the asset was deleted")
        expect("photo.png" in page.inner_text("#errors"), f"#errors does not name the missing asset: {page.inner_text('#errors')!r}")
        photo.write_bytes(kept)
        wait_for(lambda: not page.is_visible("#errors"), "#errors to clear once the asset is back")
    broken = pathlib.Path(folder) / "broken.json"
    broken.write_text('{"size": [100, 100], "layers": [}')
    with preview(render, broken) as (url, _), browser() as b:
        state = json.loads(get(url + "scene")[2])
        expect(state["generation"] is None and state["duration"] is None and state["size"] is None and state["fps"] is None, f"/scene before any version: {state}")
        expect(state["error"] and "broken.json:1:" in state["error"], f"/scene's error: {state['error']!r}")
        page = open_page(b, url)
        wait_for(lambda: page.is_visible("#errors"), "#errors for a scene invalid at start")
        broken.write_text((ROOT / "scenes" / "hello.json").read_text())
        wait_for(lambda: page.evaluate("window.preview.generation") == 1, "generation 1 once the scene becomes valid")
        wait_for(lambda: not page.is_visible("#errors"), "#errors to clear")


def check_scrub(render, folder):
    """Dragging the scrubber paints frames while it moves; the chart's playhead follows; nothing is loaded from elsewhere."""
    scene = scene_copy(folder)
    requests = []
    with preview(render, scene) as (url, _), browser() as b:
        page = open_page(b, url, requests)
        seek(page, 0)
        page.evaluate("""() => { window.painted = new Set(); const watch = () => { window.painted.add(window.preview.time); requestAnimationFrame(watch); }; watch(); }""")
        box = page.locator("#scrubber").bounding_box()
        y = box["y"] + box["height"] / 2
        page.mouse.move(box["x"] + 2, y)
        page.mouse.down()
        for i in range(1, 25):
            page.mouse.move(box["x"] + 2 + (box["width"] - 4) * i / 24, y)
            time.sleep(0.03)
        painted_while_dragging = page.evaluate("window.painted.size")
        page.mouse.up()
        expect(painted_while_dragging >= 5, f"only {painted_while_dragging} frames were painted while dragging")
        wait_for(lambda: page.evaluate("window.preview.time") > 3.0, "the frame at the scrubber's end")
        left = page.evaluate("parseFloat(document.getElementById('chart-playhead').style.left)")
        expect(left > 50, f"the chart's playhead is at {left}% at the scene's end")
        expect(page.evaluate("document.getElementById('chart').naturalWidth") > 0, "the chart did not load")
        outside = [r for r in requests if not (r.startswith(url) or r.startswith("ws://127.0.0.1") or r.startswith("blob:"))]
        expect(not outside, f"the page loaded from elsewhere: {outside}")
        expect(not page.page_errors, f"the page threw: {page.page_errors}")


def check_trust(render, folder):
    """Host, Origin, methods, paths and times, over raw HTTP; ports."""
    scene = scene_copy(folder)
    (pathlib.Path(folder) / "secret.txt").write_text("SECRET")
    outside = pathlib.Path(folder).parent / (pathlib.Path(folder).name + "-outside.txt")
    outside.write_text("OUTSIDE")
    (pathlib.Path(folder) / "link.txt").symlink_to(outside)
    try:
        with preview(render, scene) as (url, server):
            port = int(url.rsplit(":", 1)[1].strip("/"))
            status, headers, _body = get(url)
            expect(status == 200 and "default-src 'none'" in headers.get("Content-Security-Policy", ""), "the page has no Content-Security-Policy")
            host = f"Host: 127.0.0.1:{port}\r\n"
            ws = "GET /events HTTP/1.1\r\n{host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
            cases = [
                ("GET /scene HTTP/1.1\r\nHost: evil.example\r\n\r\n", range(400, 500), "a foreign Host"),
                (f"GET /scene HTTP/1.1\r\nHost: 127.0.0.1:{port + 1}\r\n\r\n", range(400, 500), "another port in Host"),
                ("GET /scene HTTP/1.1\r\n\r\n", range(400, 500), "no Host"),
                (f"GET /scene HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n", [200], "Host localhost"),
                (ws.format(host=host, extra="Origin: http://evil.example\r\n"), [403], "a WebSocket upgrade from a foreign Origin"),
                (ws.format(host=host, extra=f"Origin: http://localhost:{port + 1}\r\n"), [403], "a WebSocket upgrade from another port's Origin"),
                (ws.format(host=host, extra=f"Origin: http://127.0.0.1:{port}\r\n"), [101], "a WebSocket upgrade from the page's Origin"),
                (f"POST /scene HTTP/1.1\r\n{host}Origin: http://evil.example\r\nContent-Length: 0\r\n\r\n", [403], "a POST from a foreign Origin"),
                (f"PUT /scene.json HTTP/1.1\r\n{host}Origin: http://evil.example\r\nContent-Length: 0\r\n\r\n", [403], "a PUT from a foreign Origin"),
                (f"DELETE /scene HTTP/1.1\r\n{host}Content-Length: 0\r\n\r\n", [405], "a DELETE"),
            ]
            for request, statuses, what in cases:
                line, _ = raw(port, request)
                expect(status_code(line) in statuses, f"{what}: answered {line!r}")
            for path in ["/scene.json", "/secret.txt", "/link.txt", "/../secret.txt", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                         "//etc/passwd", "/etc/passwd", "/frame.png/../secret.txt", "/%2fetc%2fpasswd", "/assets/../../etc/passwd", "/.%2e/secret.txt"]:
                line, answer = raw(port, f"GET {path} HTTP/1.1\r\n{host}Connection: close\r\n\r\n")
                expect(status_code(line) == 404, f"GET {path}: answered {line!r}")
                for secret in [b"SECRET", b"OUTSIDE", b"root:", b"layers"]:
                    expect(secret not in answer, f"GET {path} served {secret!r}")
            for t in [None, "", "nan", "NaN", "inf", "-1", "-0.001", "1e400", "0x1p1", "1,5", "99", "3.6000001"]:
                query = "" if t is None else f"?t={t}"
                status, _, _ = get(url + "frame.png" + query)
                expect(status == 400, f"/frame.png{query} answered {status}, not 400")
            for t in ["0", "3.6", "1.5e0", "%2B1"]:
                expect(get(url + f"frame.png?t={t}")[0] == 200, f"/frame.png?t={t} was refused")
            # Once the frames around the playhead are drawn, nothing runs.
            time.sleep(1.5)
            ticks = lambda: sum(int(x) for x in open(f"/proc/{server.pid}/stat").read().rsplit(")", 1)[1].split()[11:13])
            before = ticks()
            time.sleep(1.0)
            expect(ticks() - before <= 2, f"the server used {ticks() - before} clock ticks of CPU in a second with nothing changing")
            # Another server on the default port: the next free one.
        taken = socket.socket()
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            done = subprocess.run([render, "preview", str(scene), "--port", str(port)], capture_output=True, text=True, timeout=10)
            expect(done.returncode == 2 and done.stderr.startswith("render: error:") and str(port) in done.stderr, f"--port of a taken port: exit {done.returncode}, {done.stderr!r}")
        finally:
            taken.close()
        default_taken = socket.socket()
        try:
            default_taken.bind(("127.0.0.1", 7780))
            default_taken.listen()
        except OSError:
            pass  # someone else holds it: the preview must still take the next one
        try:
            process = subprocess.Popen([render, "preview", str(scene)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            line = process.stdout.readline().strip()
            process.send_signal(signal.SIGINT)
            process.wait(timeout=5)
            match = re.fullmatch(r"preview: http://127\.0\.0\.1:(\d+)/", line)
            expect(match and 7780 < int(match.group(1)) < 7800, f"with 7780 taken, the preview said {line!r}")
        finally:
            default_taken.close()
        done = subprocess.run([render, "preview", str(pathlib.Path(folder) / "missing.json")], capture_output=True, text=True, timeout=10)
        expect(done.returncode == 2 and done.stderr.startswith("render: error: cannot read"), f"a missing scene: exit {done.returncode}, {done.stderr!r}")
    finally:
        outside.unlink()


CHECKS = {
    "trust": (check_trust, False),
    "pixels": (check_pixels, True),
    "step": (check_step, True),
    "saves": (check_saves, True),
    "invalid": (check_invalid, True),
    "assets": (check_assets, True),
    "scrub": (check_scrub, True),
}


def can_browse():
    try:
        with browser() as b:
            page = b.new_page()
            page.goto("data:text/html,<p>ok</p>")
            return page.inner_text("p") == "ok"
    except Exception as error:  # noqa: BLE001 — any reason the browser cannot start
        print(f"the browser cannot start: {error}", file=sys.stderr)
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("check", nargs="?", choices=sorted(CHECKS))
    parser.add_argument("--render")
    parser.add_argument("--can-browse", action="store_true")
    args = parser.parse_args()
    if args.can_browse:
        sys.exit(0 if can_browse() else 77)
    check, needs_browser = CHECKS[args.check]
    if needs_browser and not can_browse():
        sys.exit(77)
    with tempfile.TemporaryDirectory(prefix="preview-") as folder:
        try:
            check(args.render, folder)
        except CheckFailed as failure:
            print(f"{args.check}: {failure}", file=sys.stderr)
            sys.exit(1)
    print(f"{args.check}: passed")


if __name__ == "__main__":
    main()
