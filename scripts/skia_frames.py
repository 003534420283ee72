#!/usr/bin/env python3
"""Draws the raster benchmark's workloads with Skia (skia-python) and times
them, for a side-by-side comparison with Springframe's rasterizer.

    scripts/skia_frames.py DIR [--frames N] [--only WORKLOAD]
    scripts/skia_frames.py --goldens DIR     (writes Skia's NAME.png for every NAME.json)

DIR holds WORKLOAD.json files written by `raster-benchmark --emit DIR`. For
each, prints Skia's median ms per frame, and the pixel difference between
Skia's frame and Springframe's (WORKLOAD.springframe.png, if present).
"""
import json, sys, time, glob, os
import numpy as np
import skia

def color(hex_):
    h = hex_.lstrip('#')
    r, g, b, a = (int(h[i:i + 2], 16) for i in (0, 2, 4, 6))
    return skia.Color(r, g, b, a)

def shape_path(s):
    p = skia.Path()
    if 'rect' in s:
        x, y, w, h = s['rect']; p.addRect(skia.Rect.MakeXYWH(x, y, w, h))
    elif 'rrect' in s:
        x, y, w, h, r = s['rrect']; p.addRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x, y, w, h), r, r))
    elif 'circle' in s:
        x, y, r = s['circle']; p.addCircle(x, y, r)
    else:
        for e in s['path']:
            code = int(e[0])
            if code == 0: p.moveTo(e[1], e[2])
            elif code == 1: p.lineTo(e[1], e[2])
            elif code == 2: p.cubicTo(e[1], e[2], e[3], e[4], e[5], e[6])
            else: p.close()
    return p

# As docs/scene-format.md says, gradients interpolate premultiplied colours, as Springframe does.
PREMUL = skia.GradientShader.kInterpolateColorsInPremul_Flag

CAPS = {'butt': skia.Paint.kButt_Cap, 'round': skia.Paint.kRound_Cap, 'square': skia.Paint.kSquare_Cap}
JOINS = {'miter': skia.Paint.kMiter_Join, 'round': skia.Paint.kRound_Join, 'bevel': skia.Paint.kBevel_Join}

def stops_of(op):
    return [color(c) for _, c in op['stops']], [o for o, _ in op['stops']]

def checker(w, h, cell, a, b):
    ca, cb = (np.array([int(x[i:i + 2], 16) for i in (1, 3, 5, 7)], dtype=np.float64) for x in (a, b))
    img = np.zeros((h, w, 4), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            c = ca if (x // cell + y // cell) % 2 == 0 else cb
            img[y, x, :3] = np.round(c[:3] * c[3] / 255)  # premultiplied
            img[y, x, 3] = c[3]
    return skia.Image.fromarray(img, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)

def draw(frame, canvas):
    canvas.clear(color(frame['background']))
    for op in frame['ops']:
        kind = op['op']
        if kind == 'unclip' or kind == 'endLayer' or kind == 'endMask':
            canvas.restore(); continue
        if kind == 'beginLayer':
            paint = skia.Paint()
            paint.setAlphaf(op.get('opacity', 1))
            if op.get('blur', 0) > 0:
                paint.setImageFilter(skia.ImageFilters.Blur(op['blur'], op['blur']))
            canvas.saveLayer(None, paint); continue
        if kind == 'beginMask':
            # A mask layer multiplies the layer beneath it when restored:
            # destination-in (out, inverted) of its alpha, or of its luminance.
            paint = skia.Paint()
            paint.setAlphaf(op.get('opacity', 1))
            paint.setBlendMode(skia.BlendMode.kDstOut if op.get('inverted') else skia.BlendMode.kDstIn)
            if op.get('source') == 'luminance':
                paint.setColorFilter(skia.LumaColorFilter.Make())
            canvas.saveLayer(None, paint); continue
        if kind == 'image':
            w, h, cell = op['checker']; a, b, c, d, tx, ty = op['transform']
            canvas.save()
            canvas.concat(skia.Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1))
            # Anti-aliased edges, as Springframe draws an image's rectangle.
            canvas.drawImage(checker(int(w), int(h), int(cell), *op['colors']), 0, 0,
                             skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear), skia.Paint(AntiAlias=True))
            canvas.restore(); continue
        path = shape_path(op['shape'])
        if kind == 'clip':
            canvas.save(); canvas.clipPath(path, skia.ClipOp.kIntersect, True); continue
        paint = skia.Paint(AntiAlias=True)
        if kind == 'fill':
            if op.get('rule') == 'evenodd':
                path.setFillType(skia.PathFillType.kEvenOdd)
            paint.setColor(color(op['color'])); canvas.drawPath(path, paint)
        elif kind == 'linear':
            colors, positions = stops_of(op)
            paint.setShader(skia.GradientShader.MakeLinear([skia.Point(*op['from']), skia.Point(*op['to'])], colors, positions, skia.TileMode.kClamp, PREMUL))
            canvas.drawPath(path, paint)
        elif kind == 'radial':
            colors, positions = stops_of(op)
            if 'focus' in op:
                # From the focal point (radius 0) to the circle: SVG's fx, fy.
                paint.setShader(skia.GradientShader.MakeTwoPointConical(skia.Point(*op['focus']), 0, skia.Point(*op['center']), op['radius'],
                                                                         colors, positions, skia.TileMode.kClamp, PREMUL))
            else:
                paint.setShader(skia.GradientShader.MakeRadial(skia.Point(*op['center']), op['radius'], colors, positions, skia.TileMode.kClamp, PREMUL))
            canvas.drawPath(path, paint)
        elif kind == 'stroke':
            paint.setStyle(skia.Paint.kStroke_Style); paint.setStrokeWidth(op['width'])
            paint.setStrokeCap(CAPS[op['cap']]); paint.setStrokeJoin(JOINS[op['join']])
            paint.setStrokeMiter(op.get('miterLimit', 4))
            if op.get('dash'):
                paint.setPathEffect(skia.DashPathEffect.Make(op['dash'], op.get('dashPhase', 0)))
            paint.setColor(color(op['color'])); canvas.drawPath(path, paint)
        elif kind == 'shadowed':
            dx, dy = op['offset']; s = op['sigma']
            paint.setColor(color(op['color']))
            paint.setImageFilter(skia.ImageFilters.DropShadow(dx, dy, s, s, color(op['shadowColor'])))
            canvas.drawPath(path, paint)

def render(frame):
    surface = skia.Surface(frame['width'], frame['height'])
    draw(frame, surface.getCanvas())
    return surface.makeImageSnapshot()

def main():
    if sys.argv[1] == '--goldens':
        # Writes NAME.png beside every NAME.json: Skia's rendering, the golden image.
        for name in sorted(glob.glob(os.path.join(sys.argv[2], '*.json'))):
            render(json.load(open(name))).save(name[:-5] + '.png', skia.kPNG)
            print('wrote', name[:-5] + '.png')
        return
    folder = sys.argv[1]
    frames = int(sys.argv[sys.argv.index('--frames') + 1]) if '--frames' in sys.argv else 30
    only = sys.argv[sys.argv.index('--only') + 1] if '--only' in sys.argv else None
    for name in sorted(glob.glob(os.path.join(folder, '*.json'))):
        if only and os.path.basename(name)[:-5] != only:
            continue
        frame = json.load(open(name))
        surface = skia.Surface(frame['width'], frame['height'])
        canvas = surface.getCanvas()
        draw(frame, canvas)  # warm-up
        times = []
        for _ in range(frames):
            start = time.perf_counter()
            draw(frame, canvas)
            surface.flushAndSubmit()  # raster surfaces draw synchronously; this is for form
            times.append(time.perf_counter() - start)
        ms = sorted(times)[len(times) // 2] * 1000
        skia_pixels = surface.makeImageSnapshot().toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
        base = name[:-5]
        skia.Image.fromarray(skia_pixels, colorType=skia.kRGBA_8888_ColorType).save(base + '.skia.png', skia.kPNG)
        ours_path = base + '.springframe.png'
        diff = ''
        if os.path.exists(ours_path):
            ours = skia.Image.open(ours_path).toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
            d = np.abs(ours.astype(int) - skia_pixels.astype(int))
            diff = f'  pixels vs Skia: mean {d.mean():.3f}/255, 99.9% ≤ {np.percentile(d, 99.9):.0f}/255, max {d.max()}/255'
        print(f'{os.path.basename(base):22s} skia {ms:8.2f} ms/frame{diff}')

if __name__ == '__main__':
    main()
