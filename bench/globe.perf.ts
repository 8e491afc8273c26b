/**
 * The shard globe in headless Chromium with software WebGL (Debian's chromium, SwiftShader):
 * the first screen's JavaScript (every script the page and its workers requested before the
 * first frame was drawn, gzip; the rest of the build loads on demand; also what has loaded by
 * the time the late parts, cells, cities and land, are drawn), time from navigation
 * to the first drawn frame, the longest main-thread task (PerformanceObserver 'longtask',
 * i.e. > 50 ms) during load (until the data is in and 3 s after) and while rotating,
 * spinning, changing level and flattening. The baseline, measured in the same run and
 * browser, is a bare page that creates a WebGL2 context and draws one frame, timed from
 * navigation like the explorer. Targets (issue 24): first screen ≤ 290 KB gzip, no task over
 * 200 ms during load, ready ≤ 3× the bare page (medians of GLOBE_PERF_RUNS, default 5).
 *
 * A link's answer (issue 31): each run also opens one of three search links in a fresh page and
 * times, from navigation, its first frame (the `geoshard-ready` mark) and its answer (the
 * covering shown: the moment `data-covering` is set on <body>, seen by a MutationObserver the
 * page gets before its own scripts, so no hook of the explorer's own is needed). Target: the
 * answer at most 300 ms after the first frame. With `--against DIR` (a checkout of another
 * commit, e.g. `git worktree add /work/wt-base main`) the same links are timed on DIR's build
 * too, in the same runs and browser, alternating, so both builds share each moment's load.
 *
 * Run: npx tsx bench/globe.perf.ts [--skip-build] [--first-screen (load figures only)] [--against DIR]
 * Builds into test-results/globe-dist, serves it with `vite preview`, writes test-results/globe-perf.json.
 */
import { build, preview } from 'vite';
import { chromium, type Page } from 'playwright';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordRun } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'test-results', 'globe-dist');
const port = Number(process.env.GLOBE_PERF_PORT ?? 5303);

if (!process.argv.includes('--skip-build')) await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
const assets = join(outDir, 'assets');
const bundles = readdirSync(assets)
  .filter((f) => f.endsWith('.js'))
  .map((f) => {
    const bytes = readFileSync(join(assets, f));
    return { file: f, kb: bytes.length / 1024, gzipKb: gzipSync(bytes, { level: 9 }).length / 1024 };
  });

// The preview mounts the live API; a bench of page load records no traffic into whatever cluster is up.
process.env.GEOSHARD_TRAFFIC_INTERVAL_S ??= '0';
const server = await preview({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', preview: { port, strictPort: true, host: '127.0.0.1' }, build: { outDir } });
// The baseline build (--against DIR): DIR's own sources and config, built into DIR's test-results.
const againstAt = process.argv.indexOf('--against');
const against = againstAt > 0 ? process.argv[againstAt + 1] : null;
if (againstAt > 0 && !against) throw new Error('--against needs a directory: a checkout of the commit to compare with (e.g. git worktree add /work/wt-base main)');
const againstOut = against ? join(against, 'test-results', 'globe-dist') : '';
if (against && !process.argv.includes('--skip-build')) await build({ root: against, configFile: join(against, 'vite.config.ts'), logLevel: 'warn', build: { outDir: againstOut, emptyOutDir: true, sourcemap: false } });
const againstServer = against ? await preview({ root: against, configFile: join(against, 'vite.config.ts'), logLevel: 'warn', preview: { port: port + 1, strictPort: true, host: '127.0.0.1' }, build: { outDir: againstOut } }) : null;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-background-networking'],
});
const base = `http://127.0.0.1:${port}/`;
const againstBase = `http://127.0.0.1:${port + 1}/`;

/** The search links whose answer is timed, one per run in turn (the spin layer off: a still globe). */
const LINKS = [
  '?lat=37.7749&lng=-122.4194&radius=15mi&layers=shards,grid,land,labels',
  '?lat=40.7143&lng=-74.006&radius=50mi&layers=shards,grid,land,labels',
  '?lat=48.8566&lng=2.3522&radius=300km&layers=shards,grid,land,labels',
];

/** The viewports a link is opened at, in turn: a desktop and a phone. */
const LINK_SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * linkTimes opens `url` in a fresh page: ms from navigation to its first frame, to its covering
 * shown on the globe (`data-covering` on <body>), and to its result on screen: the Radius tab's
 * result section (`.search-result`) at `data-state="ready"` with a number of cells, the state a
 * person reads and a Playwright test waits for.
 */
async function linkTimes(url: string, viewport: { width: number; height: number }): Promise<{ readyMs: number; answerMs: number; resultMs: number }> {
  const page = await browser.newPage({ viewport });
  // A string, not a function: tsx (esbuild keepNames) wraps a named inner function in a `__name`
  // helper the page does not have.
  await page.addInitScript(`
    new MutationObserver(() => {
      if (window.__answerAt === undefined && document.body?.dataset.covering) window.__answerAt = performance.now();
      if (window.__resultAt === undefined) {
        const r = document.querySelector('.search-result[data-state="ready"]');
        if (r && /^\\d[\\d,]*$/.test(r.querySelector('[data-testid="cell-count"]')?.textContent ?? '')) window.__resultAt = performance.now();
      }
    }).observe(document, { attributes: true, childList: true, characterData: true, subtree: true, attributeFilter: ['data-covering', 'data-state'] });
  `);
  await page.goto(url);
  await page.waitForFunction(() => { const w = window as unknown as { __answerAt?: number; __resultAt?: number }; return w.__answerAt !== undefined && w.__resultAt !== undefined && document.body.dataset.ready === 'true'; }, null, { timeout: 120_000 });
  const t = await page.evaluate(() => ({ readyMs: Math.round(performance.getEntriesByName('geoshard-ready')[0].startTime), answerMs: Math.round((window as unknown as { __answerAt: number }).__answerAt), resultMs: Math.round((window as unknown as { __resultAt: number }).__resultAt) }));
  await page.close();
  return t;
}

async function newPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; ms: number }[] };
    w.__long = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push({ start: e.startTime, ms: e.duration }))).observe({ type: 'longtask', buffered: true });
  });
  return page;
}

/** Runs an action and returns the longest main-thread task (ms, 0 if none over 50 ms) during it. */
async function longestDuring(page: Page, action: () => Promise<void>): Promise<number> {
  const t0 = await page.evaluate(() => performance.now());
  await action();
  await page.waitForTimeout(300);
  return page.evaluate((from) => Math.max(0, ...(window as unknown as { __long: { start: number; ms: number }[] }).__long.filter((t) => t.start >= from).map((t) => Math.round(t.ms))), t0);
}

async function waitStill(page: Page) {
  // The view is still when no frame has been drawn for 600 ms.
  let last = '';
  for (let k = 0; k < 60; k++) {
    const f = await page.evaluate(() => document.body.dataset.frame ?? '');
    if (f === last) return;
    last = f;
    await page.waitForTimeout(600);
  }
}

const runs = Number(process.env.GLOBE_PERF_RUNS ?? 5);
const firstScreenOnly = process.argv.includes('--first-screen');
const rows: Record<string, number[]> = { baselineFirstFrameMs: [], baselineLongestMs: [], readyMs: [], linkReadyMs: [], linkAnswerMs: [], linkAnswerAfterReadyMs: [], linkResultMs: [], linkResultAfterReadyMs: [], againstLinkReadyMs: [], againstLinkAnswerMs: [], againstLinkAnswerAfterReadyMs: [], againstLinkResultMs: [], againstLinkResultAfterReadyMs: [], firstScreenJsGzipKb: [], loadedJsGzipKb: [], loadLongestMs: [], rotateLongestMs: [], spinLongestMs: [], levelLongestMs: [], flattenLongestMs: [] };
const gzipOf = new Map(bundles.map((b) => [b.file, b.gzipKb]));
let firstScreenFiles: string[] = [];
let loadedFiles: string[] = [];
// The bare page: a WebGL2 context and one frame, marked like the explorer's first frame.
const BARE = `<!doctype html><html><body style="margin:0;background:#0b1220"><canvas width="940" height="508"></canvas><script>
const gl = document.querySelector('canvas').getContext('webgl2');
gl.clearColor(0.1, 0.2, 0.3, 1); gl.clear(gl.COLOR_BUFFER_BIT); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
requestAnimationFrame(() => { performance.mark('bare-ready'); document.body.dataset.ready = 'true'; });
</script></body></html>`;
for (let r = 0; r < runs; r++) {
  const bare = await newPage();
  await bare.route('**/bare.html', (route) => route.fulfill({ contentType: 'text/html', body: BARE }));
  await bare.goto(base + 'bare.html');
  await bare.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60_000 });
  rows.baselineFirstFrameMs.push(await bare.evaluate(() => Math.round(performance.getEntriesByName('bare-ready')[0].startTime)));
  // The bare page's own longest task (creating the WebGL context is one): the floor under loadLongestMs.
  await bare.waitForTimeout(300);
  rows.baselineLongestMs.push(await bare.evaluate(() => Math.max(0, ...(window as unknown as { __long: { ms: number }[] }).__long.map((t) => Math.round(t.ms)))));
  await bare.close();

  // A link's answer, on this build and (in turn, first or second by run) on the baseline's.
  const link = LINKS[r % LINKS.length];
  const order = against && r % 2 === 1 ? ['against', 'this'] : ['this', 'against'];
  for (const which of order) {
    if (which === 'against' && !against) continue;
    const t = await linkTimes((which === 'this' ? base : againstBase) + link, LINK_SIZES[Math.floor(r / LINKS.length) % LINK_SIZES.length]);
    const k = which === 'this' ? 'link' : 'againstLink';
    rows[`${k}ReadyMs`].push(t.readyMs);
    rows[`${k}AnswerMs`].push(t.answerMs);
    rows[`${k}AnswerAfterReadyMs`].push(t.answerMs - t.readyMs);
    rows[`${k}ResultMs`].push(t.resultMs);
    rows[`${k}ResultAfterReadyMs`].push(t.resultMs - t.readyMs);
  }

  const page = await newPage();
  // Every script requested before the first frame: the page's resource timing (which lists the
  // workers' own scripts too) and, for any script a worker imports itself, the request's wall
  // clock against the ready mark's (performance.timeOrigin + mark).
  const requested: { file: string; at: number }[] = [];
  page.on('request', (req) => {
    const file = new URL(req.url()).pathname.split('/').pop()!;
    if (file.endsWith('.js')) requested.push({ file, at: Date.now() });
  });
  await page.goto(base + '?lat=36&lng=-98&zoom=1&level=4&layers=shards,grid,land,labels');
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 120_000, polling: 20 });
  const scriptsUntil = (mark: string) =>
    page.evaluate((name) => {
      const at = performance.getEntriesByName(name)[0].startTime;
      const files = performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= at && /\.js$/.test(new URL(e.name).pathname))
        .map((e) => new URL(e.name).pathname.split('/').pop()!);
      return { files, wall: performance.timeOrigin + at };
    }, mark);
  const beforeReady = await scriptsUntil('geoshard-ready');
  firstScreenFiles = [...new Set([...beforeReady.files, ...requested.filter((r) => r.at <= beforeReady.wall).map((r) => r.file)])];
  rows.firstScreenJsGzipKb.push(Math.round(firstScreenFiles.reduce((a, f) => a + (gzipOf.get(f) ?? 0), 0)));
  rows.readyMs.push(await page.evaluate(() => Math.round(performance.getEntriesByName('geoshard-ready')[0].startTime)));
  await page.waitForFunction(() => /cells.*cities.*land/.test(document.body.dataset.loaded ?? ''), null, { timeout: 120_000 });
  // Everything loaded by the time the late parts are drawn too (workers that start after the first frame).
  await page.evaluate(() => performance.mark('geoshard-loaded'));
  const beforeLoaded = await scriptsUntil('geoshard-loaded');
  loadedFiles = [...new Set([...beforeLoaded.files, ...requested.filter((r) => r.at <= beforeLoaded.wall).map((r) => r.file)])];
  rows.loadedJsGzipKb.push(Math.round(loadedFiles.reduce((a, f) => a + (gzipOf.get(f) ?? 0), 0)));
  // Load lasts until the data is in; tasks just after it (deferred work) count too.
  await page.waitForTimeout(3000);
  rows.loadLongestMs.push(await page.evaluate(() => Math.max(0, ...(window as unknown as { __long: { ms: number }[] }).__long.map((t) => Math.round(t.ms)))));
  if (firstScreenOnly) {
    await page.close();
    continue;
  }
  await waitStill(page);

  const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  rows.rotateLongestMs.push(
    await longestDuring(page, async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      for (let k = 0; k < 40; k++) {
        await page.mouse.move(box.x + box.width / 2 + 6 * k, box.y + box.height / 2 + 2 * Math.sin(k / 5) * 20);
        await page.waitForTimeout(40);
      }
      await page.mouse.up();
      await waitStill(page);
    }),
  );
  rows.spinLongestMs.push(
    await longestDuring(page, async () => {
      await page.getByTestId('layer-spin').click();
      await page.waitForTimeout(3000);
      await page.getByTestId('layer-spin').click();
      await waitStill(page);
    }),
  );
  rows.levelLongestMs.push(
    await longestDuring(page, async () => {
      await page.getByTestId('layer-hilbert').click();
      for (const level of [5, 6, 7, 8, 10, 3, 0, 7]) {
        await page.getByTestId('level-input').fill(String(level));
        await page.waitForTimeout(700);
      }
      await waitStill(page);
    }),
  );
  rows.flattenLongestMs.push(
    await longestDuring(page, async () => {
      for (const mode of ['map', 'net', 'globe']) {
        await page.getByTestId(`flatten-${mode}`).click();
        await page.waitForFunction((m) => document.body.dataset.view === m, mode, { timeout: 60_000 });
      }
    }),
  );
  await page.close();
}
await browser.close();
await server.close();
await againstServer?.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = {
  at: new Date().toISOString(),
  runs,
  bundles,
  totalJsGzipKb: bundles.reduce((a, b) => a + b.gzipKb, 0),
  median: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)])),
  readyRatioPerRun: rows.readyMs.map((ms, i) => ms / Math.max(1, rows.baselineFirstFrameMs[i])),
  loadAverage: (await import('node:os')).loadavg(),
  max: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, Math.max(...v)])),
  all: rows,
};
console.log('JS bundles (KB, gzip; * = loaded before the first frame, + = loaded after it, by the time cells, cities and land are drawn):');
for (const b of bundles) console.log(`  ${firstScreenFiles.includes(b.file) ? '*' : loadedFiles.includes(b.file) ? '+' : ' '} ${b.file.padEnd(34)} ${b.kb.toFixed(0).padStart(6)}  gzip ${b.gzipKb.toFixed(0).padStart(5)}`);
console.log(`\n${runs} runs, median (max):`);
for (const k of Object.keys(rows)) if (rows[k].length) console.log(`  ${k.padEnd(22)} ${String(result.median[k]).padStart(6)} ${k.endsWith('Kb') ? 'KB' : 'ms'} (${result.max[k]})`);
const ratio = result.median.readyMs / result.median.baselineFirstFrameMs;
// Each run's explorer against the bare page loaded just before it (on a loaded machine the pair shares its moment's load).
const runRatios = rows.readyMs.map((ms, i) => ms / Math.max(1, rows.baselineFirstFrameMs[i]));
console.log(`  ready / bare WebGL page, both from navigation: ${ratio.toFixed(1)}x (median of each run's own ratio: ${median(runRatios).toFixed(1)}x; runs: ${runRatios.map((x) => x.toFixed(1)).join(', ')})`);
console.log(`\ntargets (issue 24, first screen):`);
console.log(`  first screen JS ≤ 290 KB gzip: ${result.median.firstScreenJsGzipKb} KB ${result.median.firstScreenJsGzipKb <= 290 ? 'met' : 'NOT met'} (all JS in the build: ${result.totalJsGzipKb.toFixed(0)} KB; loaded by the time cells, cities and land are drawn: ${result.median.loadedJsGzipKb} KB)`);
console.log(`  no task > 200 ms during load: median run ${result.median.loadLongestMs} ms ${result.median.loadLongestMs <= 200 ? 'met' : 'NOT met'}, worst run ${result.max.loadLongestMs} ms (the bare WebGL page's longest task: ${result.median.baselineLongestMs} ms)`);
console.log(`  ready ≤ 3× the bare WebGL page: ${ratio.toFixed(1)}x ${ratio <= 3 ? 'met' : 'NOT met'}`);
const gap = result.median.linkAnswerAfterReadyMs;
console.log(`\na link's answer (issue 31; links: ${LINKS.join(' ')}):`);
console.log(`  this build: first frame ${result.median.linkReadyMs} ms, answer ${result.median.linkAnswerMs} ms from navigation; answer − first frame ${gap} ms ≤ 300 ms: ${gap <= 300 ? 'met' : 'NOT met'} (runs: ${rows.linkAnswerAfterReadyMs.join(', ')}); bare WebGL page ${result.median.baselineFirstFrameMs} ms`);
console.log(`  this build: result section ready ${result.median.linkResultMs} ms from navigation; result − first frame ${result.median.linkResultAfterReadyMs} ms ≤ 50 ms: ${result.median.linkResultAfterReadyMs <= 50 ? 'met' : 'NOT met'} (runs: ${rows.linkResultAfterReadyMs.join(', ')})`);
if (against) console.log(`  ${against}: result section ready ${result.median.againstLinkResultMs} ms; result − first frame ${result.median.againstLinkResultAfterReadyMs} ms (runs: ${rows.againstLinkResultAfterReadyMs.join(', ')}); first frame ratio this/baseline ${(result.median.linkReadyMs / result.median.againstLinkReadyMs).toFixed(2)}`);
if (against) console.log(`  ${against}: first frame ${result.median.againstLinkReadyMs} ms, answer ${result.median.againstLinkAnswerMs} ms; answer − first frame ${result.median.againstLinkAnswerAfterReadyMs} ms (runs: ${rows.againstLinkAnswerAfterReadyMs.join(', ')}); answer ratio this/baseline ${(result.median.linkAnswerMs / result.median.againstLinkAnswerMs).toFixed(2)}`);
// A link's result against the baseline build, same runs and browser: the results file (docs/performance.md quotes it).
if (against) {
  const os = await import('node:os');
  const m = result.median;
  // Each link was opened on both builds in turn: the median of the differences, link by link.
  const paired = rows.linkReadyMs.map((t, i) => t - rows.againstLinkReadyMs[i]).sort((a, b) => a - b);
  const pairedMs = Math.round((paired[(paired.length - 1) >> 1] + paired[paired.length >> 1]) / 2);
  recordRun('linkResult', {
    what: `A search link's result on screen (the Radius tab's result section at data-state="ready" with its cell count) against its first frame, this build and the baseline build (${against}) opened in turn in the same headless Chromium (SwiftShader WebGL), ${rows.linkResultAfterReadyMs.length} links (${LINKS.length} searches at ${LINK_SIZES.map((v) => `${v.width}×${v.height}`).join(' and ')}); medians; firstFramePairedMs: the median over the links of this build's first frame minus the baseline's on the same link`,
    command: 'npx tsx bench/globe.perf.ts --first-screen --against DIR (DIR: a checkout of the commit to compare with)',
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    machine: `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'CPU not named'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node.split('.').slice(0, 2).join('.')}, Debian's Chromium`,
    load: os.loadavg()[0].toFixed(1),
    figures: {
      resultAfterFrame: `${m.linkResultAfterReadyMs} ms`,
      baselineResultAfterFrame: `${m.againstLinkResultAfterReadyMs} ms`,
      firstFrame: `${m.linkReadyMs} ms`,
      baselineFirstFrame: `${m.againstLinkReadyMs} ms`,
      firstFrameRatio: `${(m.linkReadyMs / m.againstLinkReadyMs).toFixed(2)}×`,
      firstFramePairedMs: `${pairedMs >= 0 ? '+' : ''}${pairedMs} ms`,
    },
  });
}
if (firstScreenOnly) {
  mkdirSync(join(root, 'test-results'), { recursive: true });
  writeFileSync(join(root, 'test-results', 'globe-perf.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(`(software WebGL on a shared machine: load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')})`);
  process.exit(0);
}
const typical = Math.max(result.median.rotateLongestMs, result.median.levelLongestMs);
const worst = Math.max(result.max.rotateLongestMs, result.max.levelLongestMs);
console.log(`\ntarget: no main-thread task > 50 ms while rotating or changing level: median run ${typical <= 50 ? 'met' : `NOT met (${typical} ms)`}, worst run ${worst <= 50 ? 'met' : `${worst} ms`}`);
console.log(`(software WebGL on a shared machine: load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')})`);
mkdirSync(join(root, 'test-results'), { recursive: true });
writeFileSync(join(root, 'test-results', 'globe-perf.json'), JSON.stringify(result, null, 2) + '\n');
