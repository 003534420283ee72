#!/usr/bin/env python3
"""Writes moving-40-1080p.json beside this script: the speed issue's scene of
40 layers all moving with linear animations over 5 s at 1920 × 1080 (960 ×
540 pt at 2×) — a gradient card, 18 circles, 18 rounded rectangles and 2
stroked paths, the kind of frame a dashboard or a list transition makes.
scripts/bench-command renders it and draws the same frames with Skia and
Blend2D (the shapes are simple enough to state in each: `shapes(t)`).

    Benchmarks/Scenes/moving-40.py          rewrite the scene (deterministic)
"""
import json, os

DURATION = 5.0
COLORS = ["#FF3B30", "#FF9500", "#FFCC00", "#34C759", "#00C7BE", "#30B0C7",
          "#007AFF", "#5856D6", "#AF52DE", "#FF2D55", "#A2845E", "#8E8E93"]


def layers():
    """Each layer: id, kind, size (pt), start and end centre (pt), and its look."""
    out = [dict(id="card", kind="card", size=(560, 260), start=(300, 170), end=(660, 370),
                radius=28, stops=[(0, "#4F7CFF"), (0.6, "#A45CFF"), (1, "#FF6FB1")])]
    for i in range(18):
        d = 40 + (i * 37) % 80
        x0, y0 = 60 + (i % 6) * 160, 70 + (i // 6) * 170
        out.append(dict(id=f"dot{i}", kind="circle", size=(d, d), start=(x0, y0),
                        end=(x0 + 90 + (i % 4) * 25, y0 + 60 - (i % 3) * 45), color=COLORS[i % len(COLORS)] + "CC"))
    for i in range(18):
        w, h = 60 + (i * 29) % 100, 40 + (i * 17) % 60
        x0, y0 = 110 + (i % 6) * 150, 120 + (i // 6) * 150
        out.append(dict(id=f"tile{i}", kind="rrect", size=(w, h), start=(x0, y0),
                        end=(x0 - 70 + (i % 5) * 30, y0 + 40 + (i % 2) * 30), radius=12, color=COLORS[(i + 5) % len(COLORS)]))
    for i in range(2):
        out.append(dict(id=f"line{i}", kind="stroke", size=(240, 100), start=(200 + 500 * i, 460 - 40 * i),
                        end=(320 + 420 * i, 380 + 60 * i), d="M 0 80 C 60 -20 120 120 180 30 S 230 10 240 60",
                        width=6, color="#1C1C1E"))
    return out


def scene():
    ls, sets = [], {}
    for l in layers():
        base = {"id": l["id"], "size": list(l["size"]), "position": list(l["start"])}
        if l["kind"] == "card":
            base.update(type="rect", cornerRadius=l["radius"],
                        fill={"linear": {"from": [0, 0], "to": [1, 1], "stops": [[s, c] for s, c in l["stops"]]}})
        elif l["kind"] == "circle":
            base.update(type="circle", fill=l["color"])
        elif l["kind"] == "rrect":
            base.update(type="rect", cornerRadius=l["radius"], fill=l["color"])
        else:
            base.update(type="path", d=l["d"], stroke={"color": l["color"], "width": l["width"], "cap": "round", "join": "round"})
        ls.append(base)
        sets[l["id"]] = {"position": list(l["end"])}
    return {"version": 1, "name": "moving-40-1080p", "size": [960, 540], "scale": 2, "background": "#F2F2F7",
            "duration": DURATION, "layers": ls,
            "timeline": [{"at": 0, "animation": f"linear(duration: {DURATION:g})", "set": sets}]}


if __name__ == "__main__":
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "moving-40-1080p.json")
    with open(path, "w") as f:
        json.dump(scene(), f, indent=1)
        f.write("\n")
    print(path)
