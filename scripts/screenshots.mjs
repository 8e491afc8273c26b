#!/usr/bin/env node
// `npm run screenshots`: the README's explorer screenshots at a desktop (1400×900) and a phone
// (390×844) size, taken with Debian's Chromium from the built explorer (`npm start` must be
// serving it: BASE_URL, default http://127.0.0.1:5173). OUT_DIR (default docs/screenshots/) receives
// screenshot-<name>-<size>.png. Each shot waits for the scene's first frame (data-ready) and,
// for a search, for its covering (data-covering), never for a fixed time.
import { chromium } from '@playwright/test';
import { join } from 'node:path';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:5173';
const out = process.env.OUT_DIR ?? 'docs/screenshots';
const SIZES = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } };
/** name → query; `only` limits a shot to some sizes. */
const SHOTS = (process.env.SHOTS ? JSON.parse(process.env.SHOTS) : [
  { name: 'first', query: '' },
  { name: 'search', query: '?lat=37.7749&lng=-122.4194&radius=15mi', covering: true },
  { name: 'tour', query: '?tour=5&lat=40.7143&lng=-74.006&radius=50mi&level=6&layers=shards,grid,land,labels', covering: true },
]);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
try {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const page = await browser.newPage({ viewport });
    for (const shot of SHOTS) {
      if (shot.only && !shot.only.includes(size)) continue;
      await page.goto(base + '/' + shot.query);
      await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60_000 });
      if (shot.covering) await page.waitForFunction(() => !!document.body.dataset.covering, null, { timeout: 60_000 });
      // Two frames after the last data arrived, so the picture is the settled one.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const file = join(out, `screenshot-${shot.name}-${size}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
