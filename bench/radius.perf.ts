/**
 * The radius explorer in headless Chromium with software WebGL (Debian's chromium,
 * SwiftShader), on a production build:
 *
 *   - the longest main-thread task (PerformanceObserver 'longtask', i.e. > 50 ms) while the
 *     radius slider is dragged from 1 to 100 miles around San Francisco and New York (the
 *     covering follows in a worker, drawn once per animation frame), and how many distinct
 *     coverings the panel showed during the drag;
 *   - the covering worker's time for the 100-mile covering;
 *   - the fan-out map's compute time in its worker (the world's and the view's fields, once per
 *     view: what panning or zooming costs) at 15 and 50 mi;
 *   - the same slider drag with the fan-out map on (New York, city zoom): the longest main-thread
 *     task and how many distinct radii the map drew during the drag (it redraws from its fields
 *     each frame), beside the from-scratch worker time for one radius, measured in the same run
 *     (the view's grid computed at 50 mi with the fan-out worker's grid method, which the page
 *     uses beyond the slider's range: 150 mi typed).
 *
 * The baseline, measured in the same run and browser, is the same slider drag with no search
 * centre (the page's own cost of a drag: input events, store, one frame each, no covering).
 * On a shared machine, long tasks mostly measure contention: compare with the baseline, and
 * read the load average printed with the figures.
 *
 * Run: npx tsx bench/radius.perf.ts [--skip-build]
 * Builds into test-results/radius-dist, serves it with `vite preview`, writes test-results/radius-perf.json.
 */
import { build, preview } from 'vite';
import { chromium, type Page } from 'playwright';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'test-results', 'radius-dist');
const port = Number(process.env.RADIUS_PERF_PORT ?? 5304);
const runs = Number(process.env.RADIUS_PERF_RUNS ?? 3);

// Data files are not inlined as data: URLs, so the page names them as in development.
if (!process.argv.includes('--skip-build')) await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false, assetsInlineLimit: 0 } });
const server = await preview({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', preview: { port, strictPort: true, host: '127.0.0.1' }, build: { outDir } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-background-networking'],
});
const base = `http://127.0.0.1:${port}/`;

async function open(query: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; ms: number }[] };
    w.__long = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push({ start: e.startTime, ms: e.duration }))).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(base + query);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 120_000 });
  await page.waitForFunction(() => /cities/.test(document.body.dataset.loaded ?? ''), null, { timeout: 120_000 });
  await page.waitForTimeout(1500);
  return page;
}

/** Drags the radius slider from its left end to its right end in `moves` steps about a frame apart; returns the longest task and the coverings (and fan-out radii) seen. */
async function drag(page: Page, moves = 60): Promise<{ longestMs: number; coverings: number; fanoutRadii: number; finalCells: string; dragMs: number }> {
  const slider = page.getByTestId('radius-slider');
  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForTimeout(800);
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  const t0 = await page.evaluate(() => performance.now());
  const seen = new Set<string>();
  const radii = new Set<number>();
  const start = Date.now();
  await page.mouse.move(box.x + 2, y);
  await page.mouse.down();
  for (let k = 1; k <= moves; k++) {
    await page.mouse.move(box.x + 2 + ((box.width + 8) * k) / moves, y);
    await page.waitForTimeout(16);
    const [covering, fanoutKm] = await page.evaluate(() => [document.body.dataset.covering ?? '', (JSON.parse(document.body.dataset.fanoutDrawn ?? '{}') as { radiusKm?: number }).radiusKm ?? 0] as const);
    seen.add(covering);
    if (fanoutKm) radii.add(fanoutKm);
  }
  await page.mouse.up();
  const dragMs = Date.now() - start;
  await page.waitForTimeout(800);
  const longestMs = await page.evaluate((from) => Math.max(0, ...(window as unknown as { __long: { start: number; ms: number }[] }).__long.filter((t) => t.start >= from).map((t) => Math.round(t.ms))), t0);
  return { longestMs, coverings: seen.size, fanoutRadii: radii.size, finalCells: (await page.getByTestId('cell-count').textContent()) ?? '', dragMs };
}

const SF = '?lat=37.7749&lng=-122.4194&radius=1mi';
const NY = '?lat=40.7143&lng=-74.006&radius=1mi';
const rows: Record<string, number[]> = { baselineLongestMs: [], sfLongestMs: [], nyLongestMs: [], sfCoverings: [], nyCoverings: [], cover100MiMs: [], fanoutWorld15Ms: [], fanoutView15Ms: [], fanoutWorld50Ms: [], fanoutView50Ms: [], fanoutDragLongestMs: [], fanoutDragRadiiDrawn: [], fanoutScratchView150Ms: [] };
let finals: string[] = [];
for (let r = 0; r < runs; r++) {
  const bare = await open('?lat=36&lng=-98&zoom=1');
  rows.baselineLongestMs.push((await drag(bare)).longestMs);
  await bare.close();
  for (const [name, q] of [
    ['sf', SF],
    ['ny', NY],
  ] as const) {
    const page = await open(q);
    const d = await drag(page);
    rows[`${name}LongestMs`].push(d.longestMs);
    rows[`${name}Coverings`].push(d.coverings);
    finals.push(`${name}: ${d.finalCells} cells at 100 mi, drag ${d.dragMs} ms`);
    if (name === 'sf') rows.cover100MiMs.push(Number(await page.evaluate(() => document.body.dataset.coveringMs)));
    await page.close();
  }
  for (const mi of [15, 50]) {
    const page = await open(`?lat=40.7143&lng=-74.006&radius=${mi}mi&fanout=1`);
    await page.waitForFunction(() => document.body.dataset.fanoutWorldMs && document.body.dataset.fanoutViewMs, null, { timeout: 180_000 });
    const ms = await page.evaluate(() => [Number(document.body.dataset.fanoutWorldMs), Number(document.body.dataset.fanoutViewMs)]);
    rows[`fanoutWorld${mi}Ms`].push(ms[0]);
    rows[`fanoutView${mi}Ms`].push(ms[1]);
    await page.close();
  }
  // The drag with the fan-out map on: the map follows from its fields (no worker call per radius).
  {
    const page = await open('?lat=40.7143&lng=-74.006&radius=1mi&zoom=12&fanout=1');
    await page.waitForFunction(() => document.body.dataset.fanoutViewMs && document.body.dataset.fanoutDrawn?.includes('"view":{'), null, { timeout: 180_000 });
    const d = await drag(page);
    rows.fanoutDragLongestMs.push(d.longestMs);
    rows.fanoutDragRadiiDrawn.push(d.fanoutRadii);
    // From scratch, for comparison: a radius beyond the fields (typed) is computed in the worker at that radius.
    await page.evaluate(() => delete document.body.dataset.fanoutViewMs);
    await page.getByTestId('radius-input').fill('150');
    await page.getByTestId('radius-input').press('Enter');
    await page.waitForFunction(() => document.body.dataset.fanoutViewMs, null, { timeout: 180_000 });
    rows.fanoutScratchView150Ms.push(Number(await page.evaluate(() => document.body.dataset.fanoutViewMs)));
    await page.close();
  }
  finals = finals.slice(-2);
}
await browser.close();
await server.close();

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
const result = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, { median: median(v), runs: v }]));
mkdirSync(join(root, 'test-results'), { recursive: true });
writeFileSync(join(root, 'test-results', 'radius-perf.json'), JSON.stringify({ runs, loadavg: loadavg(), result, finals }, null, 2) + '\n');
console.log(`radius explorer, ${runs} runs (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}):`);
for (const [k, v] of Object.entries(result)) console.log(`  ${k.padEnd(20)} median ${String(v.median).padStart(6)}   runs ${v.runs.join(', ')}`);
// Long tasks are only reported above 50 ms, so a run without any counts as 50 in the ratio.
console.log(`  ratio longest task while dragging, SF / no-search baseline (each at least 50): ${(Math.max(50, median(rows.sfLongestMs)) / Math.max(50, median(rows.baselineLongestMs))).toFixed(2)}`);
console.log(`  fan-out drag 1 → 100 mi at New York: longest task ${median(rows.fanoutDragLongestMs)} ms (target ≤ 50; baseline drag ${median(rows.baselineLongestMs)} ms), ${median(rows.fanoutDragRadiiDrawn)} radii drawn during 60 moves; one view grid from scratch (150 mi) ${median(rows.fanoutScratchView150Ms)} ms in the worker`);
for (const f of finals) console.log('  ' + f);
