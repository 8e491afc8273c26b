#!/usr/bin/env node
// `node scripts/shots.mjs take DIR` takes the explorer's reference links (below) at
// 1280×800 with Debian's Chromium from a served build (`npm start`: BASE_URL, default
// http://127.0.0.1:5173) into DIR/<name>.png, each once the scene's first frame, the link's
// covering (for a search), every part loaded after it (cells, cities, land) and the layers a link
// shows (`drawn`: the requests layer with its hot ranges, the fan-out map) are drawn.
// `node scripts/shots.mjs compare A B` decodes each pair A/<name>.png, B/<name>.png in the browser
// and counts the pixels that differ; exits 1 when any does. Used to show that a refactor of the
// explorer (issue 31) leaves what it draws unchanged: take the shots from the old build and the new.
import { chromium } from '@playwright/test';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The requests layer is drawn with its hot ranges (src/app/requests/RequestsLayer.tsx: its test hook). */
const REQUESTS_DRAWN = "/^\\d+ \\d+$/.test(document.body.dataset.requestsDrawn ?? '')";
/** The fan-out map draws its world grid and the view's grid (src/app/fanout/FanoutMap.tsx: its test hook) */
const FANOUT_DRAWN = "(() => { const d = JSON.parse(document.body.dataset.fanoutDrawn ?? 'null'); return !!d && !!d.view && !!d.worldPixels; })()";

/**
 * The links: the first screen, two searches (one with the requests layer and the Hilbert curve), a
 * tour step, a tab by link, and the three cell views at once more: the requests layer's hot ranges
 * and the fan-out map (world grid and the view's grid) under a covering.
 */
export const SHOTS = [
  // Without the `spin` layer (on by default), so that the globe stands still for the picture.
  { name: 'first', query: '?layers=shards,grid,land,labels' },
  { name: 'search', query: '?lat=37.7749&lng=-122.4194&radius=15mi&layers=shards,grid,land,labels', covering: true },
  { name: 'requests', query: '?lat=48.8566&lng=2.3522&radius=300km&level=5&layers=shards,hilbert,land,labels,requests', covering: true, drawn: REQUESTS_DRAWN },
  { name: 'tour', query: '?tour=5&lat=40.7143&lng=-74.006&radius=50mi&level=6&layers=shards,grid,land,labels', covering: true },
  { name: 'shards-tab', query: '?tab=shards&lat=-33.8688&lng=151.2093&radius=100km&layers=shards,grid,land,labels', covering: true },
  { name: 'requests-hot', query: '?lat=40.7143&lng=-74.006&radius=2mi&zoom=40&layers=shards,land,labels,requests', covering: true, drawn: REQUESTS_DRAWN },
  { name: 'fanout', query: '?lat=39.1&lng=-94.58&radius=50mi&zoom=2.5&fanout=1&layers=shards,grid,land,labels', covering: true, drawn: FANOUT_DRAWN },
];
const PARTS = ['cells', 'cities', 'land'];

const launch = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });

async function take(dir) {
  const base = process.env.BASE_URL ?? 'http://127.0.0.1:5173';
  mkdirSync(dir, { recursive: true });
  const browser = await launch();
  try {
    for (const shot of SHOTS) {
      // A fresh page per link: nothing of one link's session (kept work, strip folds) reaches the next.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(base + '/' + shot.query);
      await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60_000 });
      if (shot.covering) await page.waitForFunction(() => !!document.body.dataset.covering, null, { timeout: 60_000 });
      await page.waitForFunction((parts) => parts.every((p) => (document.body.dataset.loaded ?? '').split(' ').includes(p)), PARTS, { timeout: 60_000 });
      if (shot.drawn) await page.waitForFunction(shot.drawn, null, { timeout: 90_000 });
      await page.evaluate(() => document.fonts.ready);
      // Settled: no frame asked for in the last second (the globe draws on demand), then two frames.
      await page.waitForTimeout(1500);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const file = join(dir, `${shot.name}.png`);
      await page.screenshot({ path: file });
      console.log(file);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

async function compare(a, b) {
  const browser = await launch();
  let bad = 0;
  try {
    const page = await browser.newPage();
    for (const shot of SHOTS) {
      const [fa, fb] = [join(a, `${shot.name}.png`), join(b, `${shot.name}.png`)];
      if (!existsSync(fa) || !existsSync(fb)) {
        console.log(`${shot.name}: missing ${existsSync(fa) ? fb : fa}`);
        bad++;
        continue;
      }
      const [ua, ub] = [fa, fb].map((f) => `data:image/png;base64,${readFileSync(f).toString('base64')}`);
      const r = await page.evaluate(async ([ua, ub]) => {
        const pixels = async (u) => {
          const img = new Image();
          img.src = u;
          await img.decode();
          const c = new OffscreenCanvas(img.width, img.height);
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          return { w: img.width, h: img.height, d: g.getImageData(0, 0, img.width, img.height).data };
        };
        const [p, q] = [await pixels(ua), await pixels(ub)];
        if (p.w !== q.w || p.h !== q.h) return { size: `${p.w}×${p.h} vs ${q.w}×${q.h}`, diff: -1, total: p.w * p.h };
        let diff = 0;
        for (let i = 0; i < p.d.length; i += 4) if (p.d[i] !== q.d[i] || p.d[i + 1] !== q.d[i + 1] || p.d[i + 2] !== q.d[i + 2] || p.d[i + 3] !== q.d[i + 3]) diff++;
        return { diff, total: p.w * p.h };
      }, [ua, ub]);
      console.log(`${shot.name}: ${r.size ?? ''}${r.diff} of ${r.total} pixels differ`);
      if (r.diff !== 0) bad++;
    }
  } finally {
    await browser.close();
  }
  console.log(bad === 0 ? 'identical' : `${bad} of ${SHOTS.length} differ`);
  process.exit(bad === 0 ? 0 : 1);
}

const [cmd, x, y] = process.argv.slice(2);
if (cmd === 'take' && x) await take(resolve(x));
else if (cmd === 'compare' && x && y) await compare(resolve(x), resolve(y));
else {
  console.error('usage: node scripts/shots.mjs take DIR | compare DIR_A DIR_B');
  process.exit(2);
}
