/// The page `render preview` serves: HTML, CSS and script of its own, no
/// build step, nothing loaded from anywhere but the server (its Content
/// Security Policy says so to the browser). docs/cli.md, "Live preview",
/// describes what it does.
public enum PreviewPage {
  /// The policy sent with the page: its own files, frames and socket only.
  public static func contentSecurityPolicy(port: Int) -> String {
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
      + "connect-src 'self' ws://127.0.0.1:\(port) ws://localhost:\(port); base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  }

  /// The page for the scene file `scene` (its name in the title).
  public static func html(scene: String) -> String {
    let name = (scene.split(separator: "/").last.map(String.init) ?? scene)
      .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
    return template.replacingOccurrences(of: "{{scene}}", with: name)
  }

  static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{scene}} · Springframe preview</title>
    <link rel="icon" href="/favicon.svg">
    <link rel="stylesheet" href="/preview.css">
    <script src="/preview.js" defer></script>
    </head>
    <body>
    <header>
      <div class="title"><span id="status" class="dot" title="connecting"></span><strong id="name">{{scene}}</strong><span class="product">Springframe preview</span></div>
      <div class="meta"><span id="generation">loading…</span></div>
    </header>
    <main>
      <section class="stage" aria-label="Frame">
        <div class="canvas-wrap"><canvas id="frame" width="1" height="1"></canvas><p id="empty">No frame yet</p></div>
      </section>
      <section class="side">
        <section id="errors" role="alert" hidden></section>
        <section class="chart" id="chart-panel" aria-label="Motion chart">
          <div class="chart-wrap" id="chart-wrap"><img id="chart" alt="The motion chart of render chart"><div id="chart-playhead"></div></div>
          <p id="chart-empty" hidden>Nothing in this scene animates a property to chart.</p>
        </section>
      </section>
    </main>
    <footer class="transport" aria-label="Transport">
      <div class="buttons">
        <button id="start" title="First frame (Home)" aria-label="First frame">⏮</button>
        <button id="back" title="One frame back (←)" aria-label="One frame back">◀︎❘</button>
        <button id="play" title="Play or pause (Space)" aria-label="Play">▶︎</button>
        <button id="forward" title="One frame forward (→)" aria-label="One frame forward">❘▶︎</button>
        <button id="end" title="Last frame (End)" aria-label="Last frame">⏭</button>
      </div>
      <input id="scrubber" type="range" min="0" max="1" step="any" value="0" aria-label="Scene time">
      <div class="readout"><span id="time">0.000 s</span><span id="frame-number">frame 0</span></div>
      <div class="speeds" id="speeds" role="group" aria-label="Playback speed"></div>
      <div class="keys">Space play · ←/→ frame · ⇧←/→ 1 s · Home/End</div>
    </footer>
    </body>
    </html>
    """#

  /// The tab's icon: a dot on a spring's path.
  public static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#16171a"/><path d="M4 24 C10 24 11 6 16 6 S21 20 28 14" fill="none" stroke="#0a84ff" stroke-width="2.5" stroke-linecap="round"/><circle cx="28" cy="14" r="3.5" fill="#ff453a"/></svg>
    """#

  public static let css = #"""
    :root { color-scheme: dark; --bg: #16171a; --panel: #1f2024; --line: #2e3036; --ink: #e8e9ec; --dim: #9a9ca3;
      --accent: #0a84ff; --red: #ff453a; --green: #30d158; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    html, body { margin: 0; height: 100%; background: var(--bg); color: var(--ink); }
    body { display: grid; grid-template-rows: auto 1fr auto; }
    header { display: flex; justify-content: space-between; align-items: center; padding: 8px 16px; border-bottom: 1px solid var(--line); }
    .title { display: flex; gap: 8px; align-items: center; }
    .product { color: var(--dim); }
    .meta { color: var(--dim); font-variant-numeric: tabular-nums; }
    .dot { width: 9px; height: 9px; border-radius: 50%; background: var(--dim); display: inline-block; }
    .dot.live { background: var(--green); } .dot.invalid { background: var(--red); }
    main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; padding: 16px; min-height: 0; overflow: auto; }
    @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
    .stage { position: sticky; top: 0; align-self: start; display: flex; justify-content: center; }
    .canvas-wrap { position: relative; max-width: 100%; max-height: 100%;
      background: repeating-conic-gradient(#2a2b30 0% 25%, #222327 0% 50%) 0 0 / 16px 16px; box-shadow: 0 0 0 1px var(--line); }
    canvas#frame { display: block; }
    #empty { position: absolute; inset: 0; margin: 0; display: flex; align-items: center; justify-content: center; color: var(--dim); }
    .side { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
    #errors { background: #3a1d1d; border: 1px solid #7a2e2b; border-radius: 8px; padding: 10px 12px; font: 12px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
    #errors .loc { color: #ffb4ab; font-weight: 600; }
    #errors .head { font: 600 13px/1.4 system-ui, sans-serif; margin-bottom: 6px; color: #ffd7d2; }
    .chart { background: #fff; border-radius: 8px; padding: 4px; }
    .chart-wrap { position: relative; cursor: crosshair; }
    #chart { display: block; width: 100%; height: auto; }
    #chart-playhead { position: absolute; width: 2px; margin-left: -1px; background: #cf222e; pointer-events: none; }
    #chart-empty { color: #57606a; margin: 8px; }
    .transport { display: grid; grid-template-columns: auto 1fr auto auto; grid-template-rows: auto auto; gap: 6px 16px; align-items: center;
      padding: 10px 16px; border-top: 1px solid var(--line); background: var(--panel); }
    .buttons { display: flex; gap: 4px; }
    button { background: #2c2d33; color: var(--ink); border: 1px solid #3a3c43; border-radius: 6px; padding: 4px 10px; font: inherit; cursor: pointer; min-width: 34px; }
    button:hover { background: #35363d; } button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
    #scrubber { width: 100%; accent-color: var(--accent); }
    .readout { display: flex; gap: 12px; font-variant-numeric: tabular-nums; min-width: 200px; }
    .speeds { display: flex; gap: 4px; }
    .keys { grid-column: 1 / -1; color: var(--dim); font-size: 12px; }
    """#

  public static let script = #"""
    'use strict';
    (() => {
      const $ = (id) => document.getElementById(id);
      const canvas = $('frame'), context = canvas.getContext('2d'), scrubber = $('scrubber');
      let scene = null;            // the last state the server pushed
      let playhead = 0;            // the scene time wanted, seconds
      let shown = { time: null, generation: null };
      let playing = false, speed = 1, lastTick = null;
      let want = null, inflight = false;
      let chartGeometry = null, chartGeneration = null, chartAfterFrame = null;
      const seeks = [];            // pending seek() promises, oldest first
      let seekCount = 0;

      const rate = () => scene.fps * scene.slow;                 // output frames per second of scene time
      const clamp = (t) => Math.min(Math.max(t, 0), scene.duration);
      const onGrid = (t) => Math.abs(t * rate() - Math.round(t * rate())) < 1e-6;
      const gridTime = (t) => clamp(Math.round(t * rate()) / rate());

      const preview = {
        time: 0, generation: null, error: null,
        seek(t) {
          return new Promise((resolve) => {
            if (!scene || scene.generation === null) { seeks.push({ t: null, resolve, raw: t }); return; }
            pause();
            const target = clamp(Number(t));
            seeks.push({ t: target, resolve, n: ++seekCount });
            go(target);
          });
        },
      };
      window.preview = preview;

      // Frames: one request in flight; the newest time wanted goes next, and
      // every frame that arrives is painted.
      function request(t) {
        want = t;
        if (!inflight) pump();
      }
      async function pump() {
        inflight = true;
        try {
          while (want !== null) {
            const t = want;
            want = null;
            let answer;
            try { answer = await fetch('/frame.png?t=' + t, { cache: 'no-store' }); } catch (e) { setStatus('offline'); break; }
            if (answer.ok) {
              const generation = Number(answer.headers.get('X-Generation'));
              const bitmap = await createImageBitmap(await answer.blob(), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
              paint(bitmap, t, generation);
            } else {
              await answer.text();
              settle(t, null);            // invalid scene (409): the last good frame stays
            }
          }
        } finally {
          inflight = false;
          if (chartAfterFrame !== null) { const g = chartAfterFrame; chartAfterFrame = null; chart(g); }
        }
      }
      function paint(bitmap, t, generation) {
        if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
          canvas.width = bitmap.width;
          canvas.height = bitmap.height;
          fit();
        }
        context.clearRect(0, 0, canvas.width, canvas.height);
        context.drawImage(bitmap, 0, 0);
        bitmap.close();
        $('empty').hidden = true;
        shown = { time: t, generation };
        preview.time = t;
        preview.generation = generation;
        $('generation').textContent = 'version ' + generation;
        settle(t, generation);
      }
      // A seek is settled by the frame of its time (or by the answer that
      // the scene is invalid); seeks before it were superseded.
      function settle(t, generation) {
        const done = seeks.filter((s) => s.t === t && (generation === null || generation >= scene.generation));
        if (done.length === 0) return;
        const last = Math.max(...done.map((s) => s.n));
        for (const s of seeks.filter((x) => x.t !== null && x.n <= last)) { seeks.splice(seeks.indexOf(s), 1); s.resolve(); }
      }
      // The frame at its size in points where it fits (a frame pixel per
      // screen pixel on a 1× screen), smaller where it does not.
      function fit() {
        const stage = document.querySelector('.stage'), main = document.querySelector('main');
        const room = { w: stage.clientWidth, h: main.clientHeight - 32 };
        const scale = Math.min(1 / Math.max(1, window.devicePixelRatio || 1), room.w / canvas.width, room.h / canvas.height);
        canvas.style.width = (canvas.width * scale) + 'px';
        canvas.style.height = (canvas.height * scale) + 'px';
      }
      window.addEventListener('resize', fit);

      // The playhead and what shows it.
      function go(t) {
        playhead = clamp(t);
        show();
        request(playhead);
      }
      function show() {
        scrubber.value = String(playhead);
        $('time').textContent = playhead.toFixed(3) + ' s / ' + scene.duration.toFixed(3) + ' s';
        const last = Math.floor(scene.duration * rate() + 1e-6);
        $('frame-number').textContent = 'frame ' + Math.round(playhead * rate()) + ' / ' + last;
        placePlayhead();
      }
      function step(frames) {
        pause();
        const t = onGrid(playhead) ? (Math.round(playhead * rate()) + frames) / rate() : playhead + frames / rate();
        go(t);
      }
      function pause() {
        playing = false;
        lastTick = null;
        $('play').textContent = '▶︎';
        $('play').setAttribute('aria-label', 'Play');
      }
      function play() {
        if (!scene || scene.generation === null) return;
        if (playhead >= scene.duration) playhead = 0;
        playing = true;
        $('play').textContent = '❚❚';
        $('play').setAttribute('aria-label', 'Pause');
        requestAnimationFrame(tick);
      }
      function tick(now) {
        if (!playing) return;
        if (lastTick !== null) {
          playhead += (now - lastTick) / 1000 * speed;
          if (playhead > scene.duration) playhead = 0;   // playback loops
        }
        lastTick = now;
        const t = gridTime(playhead);
        show();
        if (t !== shown.time) request(t);
        requestAnimationFrame(tick);
      }

      // Speeds: 1×, ½×, ¼× and the --slow factor (the default).
      const names = { 1: '1×', 0.5: '½×', 0.25: '¼×' };
      function speeds() {
        const box = $('speeds');
        box.textContent = '';
        const list = [1, 0.5, 0.25];
        const slow = 1 / scene.slow;
        if (!list.includes(slow)) list.push(slow);
        speed = slow;
        for (const s of list) {
          const b = document.createElement('button');
          b.textContent = names[s] || ('1/' + +scene.slow.toFixed(3) + '×');
          if (s === slow && scene.slow !== 1) b.title = 'The --slow factor';
          b.dataset.speed = s;
          b.setAttribute('aria-pressed', String(s === speed));
          b.addEventListener('click', () => {
            speed = s;
            for (const o of box.children) o.setAttribute('aria-pressed', String(Number(o.dataset.speed) === s));
          });
          box.appendChild(b);
        }
      }

      // The chart of render chart, with the playhead over it.
      async function chart(generation) {
        if (chartGeneration === generation) return;
        chartGeneration = generation;
        const answer = await fetch('/chart.json', { cache: 'no-store' });
        const geometry = answer.ok ? await answer.json() : null;
        if (!geometry) {
          chartGeometry = null;
          $('chart-wrap').hidden = true;
          $('chart-empty').hidden = false;
          return;
        }
        chartGeometry = geometry;
        $('chart').src = '/chart.svg?g=' + generation;
        $('chart-wrap').hidden = false;
        $('chart-empty').hidden = true;
        placePlayhead();
      }
      function placePlayhead() {
        const g = chartGeometry, line = $('chart-playhead');
        if (!g || !scene) return;
        const span = g.t1 > g.t0 ? (Math.min(Math.max(playhead, g.t0), g.t1) - g.t0) / (g.t1 - g.t0) : 0;
        const x = g.x0 + span * (g.x1 - g.x0);
        line.style.left = (100 * x / g.width) + '%';
        line.style.top = (100 * g.top / g.height) + '%';
        line.style.height = (100 * (g.bottom - g.top) / g.height) + '%';
      }
      $('chart-wrap').addEventListener('click', (e) => {
        const g = chartGeometry;
        if (!g || !scene) return;
        const box = $('chart').getBoundingClientRect();
        const x = (e.clientX - box.left) / box.width * g.width;
        pause();
        go(gridTime(g.t0 + (x - g.x0) / (g.x1 - g.x0) * (g.t1 - g.t0)));
      });

      // The scene's state, pushed by the server.
      function state(s) {
        const before = scene;
        scene = s;
        preview.error = s.error;
        errors(s.error);
        setStatus(s.error ? 'invalid' : 'live');
        if (s.generation === null) return;
        if (!before || before.generation === null || before.slow !== s.slow) speeds();
        scrubber.max = String(s.duration);
        if (playhead > s.duration) playhead = s.duration;
        for (const pending of seeks.filter((x) => x.t === null)) { seeks.splice(seeks.indexOf(pending), 1); preview.seek(pending.raw).then(pending.resolve); }
        show();
        if (s.generation !== shown.generation && !s.error) request(playhead);
        // The chart once the frame is painted: the frame comes first.
        if (inflight) chartAfterFrame = s.generation; else chart(s.generation);
      }
      function errors(text) {
        const panel = $('errors');
        panel.textContent = '';
        if (!text) { panel.hidden = true; return; }
        const head = document.createElement('div');
        head.className = 'head';
        head.textContent = scene && scene.generation !== null ? 'The scene is invalid: the last good frame stays until a valid save.' : 'The scene is invalid.';
        panel.appendChild(head);
        for (const line of text.split('\n')) {
          const row = document.createElement('div');
          const m = /^(.*?:\d+:\d+):\s*(.*)$/.exec(line);
          if (m) {
            const loc = document.createElement('span');
            loc.className = 'loc';
            loc.textContent = m[1];
            row.append(loc, ': ' + m[2]);
          } else {
            row.textContent = line;
          }
          panel.appendChild(row);
        }
        panel.hidden = false;
      }
      function setStatus(kind) {
        const dot = $('status');
        dot.className = 'dot ' + kind;
        dot.title = { live: 'watching the scene', invalid: 'the scene is invalid', offline: 'the preview server is not answering' }[kind] || kind;
      }
      function connect() {
        const socket = new WebSocket('ws://' + location.host + '/events');
        socket.onmessage = (e) => state(JSON.parse(e.data));
        socket.onclose = () => { setStatus('offline'); setTimeout(connect, 500); };
      }

      // Keys and controls.
      window.addEventListener('keydown', (e) => {
        if (!scene || scene.generation === null || e.altKey || e.ctrlKey || e.metaKey) return;
        let done = true;
        switch (e.key) {
          case ' ': playing ? pause() : play(); break;
          case 'ArrowLeft': e.shiftKey ? (pause(), go(playhead - 1)) : step(-1); break;
          case 'ArrowRight': e.shiftKey ? (pause(), go(playhead + 1)) : step(1); break;
          case 'Home': pause(); go(0); break;
          case 'End': pause(); go(scene.duration); break;
          default: done = false;
        }
        if (done) e.preventDefault();
      }, true);
      scrubber.addEventListener('input', () => { pause(); go(gridTime(Number(scrubber.value))); });
      $('play').addEventListener('click', () => (playing ? pause() : play()));
      $('back').addEventListener('click', () => step(-1));
      $('forward').addEventListener('click', () => step(1));
      $('start').addEventListener('click', () => { pause(); go(0); });
      $('end').addEventListener('click', () => { pause(); go(scene.duration); });
      for (const b of document.querySelectorAll('button')) b.addEventListener('keydown', (e) => { if (e.key === ' ') e.preventDefault(); });
      fetch('/scene', { cache: 'no-store' }).then((r) => r.json()).then((s) => { if (!scene) state(s); });
      connect();
    })();
    """#
}
