/**
 * The Requests layer (issue 15) in Debian's Chromium with software WebGL: the request rate per
 * level-10 cell of a workload, its legend and the hot ranges. Expected figures come from the
 * routing core run here, in Node, on the same workload file (data/workload.csv, or a file written
 * here), never from the page.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, parseCellsCsv, type BoundaryFile } from '../src/core/index.ts';
import { parseWorkload } from '../src/core/workload.ts';
import { coverWorkload, requestRates, cellLoads, findHotspots } from '../src/core/requestLoad.ts';
import { requestColor, HOT_RGB } from '../src/app/requests/requests.ts';
import { openExplorer } from './explorer.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const current: BoundaryFile = JSON.parse(readFileSync(join(ROOT, 'data/boundaries.json'), 'utf8'));
const router = new Router(current);
const cells = parseCellsCsv(readFileSync(join(ROOT, 'data/cells.csv'), 'utf8'));
const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** What the core makes of a workload file: rates per covered cell, hot ranges (factor 2, the CLI's default) and the rated cells inside them. */
function expected(text: string) {
  const searches = parseWorkload(text);
  const rates = requestRates(searches, coverWorkload(searches));
  const hot = findHotspots(router, cells, cellLoads(cells, rates), 2);
  const hotIndex = new Set(hot.map((h) => h.index));
  const hotCells = [...rates.ordinals].filter((o) => hotIndex.has(router.indexOfOrdinal(o))).length;
  return { searches, rates, hot, hotCells };
}
const bundled = expected(readFileSync(join(ROOT, 'data/workload.csv'), 'utf8'));

const open = (page: Page, query: string): Promise<string[]> => openExplorer(page, query, { consoleErrors: true });

/** Waits until the layer has drawn the rates and the hot ranges of `source` for the current file. */
async function drawn(page: Page, source: string) {
  await page.waitForFunction(([s, h]) => document.body.dataset.requests === `${s} ${h}` && /^\d+ \d+$/.test(document.body.dataset.requestsDrawn ?? ''), [source, current.hash] as const, { timeout: 60_000 });
}

/** Pixels of the WebGL canvas within `tol` (0–255, per channel) of any of the colours. */
async function pixelsNear(page: Page, colors: [number, number, number][], tol: number): Promise<number> {
  return page.evaluate(
    ([cols, t]) => {
      const c = document.querySelector('.globe-canvas canvas:not(.globe-labels)') as HTMLCanvasElement;
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d')!;
      ctx.drawImage(c, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (cols.some((k) => Math.abs(d[i] - k[0]) <= t && Math.abs(d[i + 1] - k[1]) <= t && Math.abs(d[i + 2] - k[2]) <= t)) n++;
      return n;
    },
    [colors, tol] as const,
  );
}
const bytes = (c: [number, number, number]) => c.map((v) => Math.round(v * 255)) as [number, number, number];

/** Checks the legend against the core: total cells, each bucket's count over its [lo, hi) edges, the hot ranges and their outlined cells. */
async function legendMatches(page: Page, e: ReturnType<typeof expected>) {
  const legend = page.getByTestId('requests-legend');
  await expect(legend).toBeVisible();
  await expect(page.getByTestId('requests-cells')).toHaveText(int.format(e.rates.ordinals.length));
  const buckets = await page.getByTestId('requests-buckets').locator('li[data-count]').evaluateAll((li) => li.map((x) => ({ lo: Number(x.getAttribute('data-lo')), hi: Number(x.getAttribute('data-hi')), count: Number(x.getAttribute('data-count')) })));
  expect(buckets.length).toBeGreaterThan(1);
  const rates = [...e.rates.rates];
  expect(buckets[0].lo).toBeLessThanOrEqual(Math.min(...rates));
  expect(buckets[buckets.length - 1].hi).toBeGreaterThan(Math.max(...rates));
  for (const b of buckets) expect(b.count, `bucket [${b.lo}, ${b.hi})`).toBe(rates.filter((r) => r >= b.lo && r < b.hi).length);
  const rows = page.getByTestId('requests-hot-row');
  await expect(rows).toHaveCount(e.hot.length);
  for (let k = 0; k < e.hot.length; k++) {
    await expect(rows.nth(k)).toHaveAttribute('data-name', e.hot[k].name);
    await expect(rows.nth(k)).toContainText(`${e.hot[k].overMean.toFixed(2)}×`);
    if (e.hot[k].split) await expect(rows.nth(k)).toContainText(`split at ${e.hot[k].split!.token}`);
  }
  if (e.hot.length > 0) await expect(page.getByTestId('requests-hot-cells')).toHaveText(int.format(e.hotCells));
  return buckets.length;
}

test('the legend fits its panel on a 1400 × 900 desktop: every line wraps inside it, none is cut at the right edge', async ({ page }) => {
  test.slow(); // the bundled workload covered in the worker
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page, '?lat=39&lng=-96&zoom=1.6&level=4&layers=shards,requests');
  await drawn(page, 'data/workload.csv');
  await expect(page.getByTestId('requests-hot-row').first()).toBeVisible();
  const fit = await page.getByTestId('requests-legend').evaluate((legend) => {
    const panel = legend.closest('.layer-toggles')!.getBoundingClientRect();
    const box = legend.getBoundingClientRect();
    const past: string[] = [];
    const walker = document.createTreeWalker(legend, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.right > box.right - 1) past.push(`"${n.textContent.trim().slice(0, 30)}" ends at ${r.right.toFixed(0)} px, the legend at ${box.right.toFixed(0)} px`);
    }
    return { legendRight: box.right, panelRight: panel.right, scrolls: legend.scrollWidth > legend.clientWidth, past };
  });
  expect(fit.legendRight, 'the legend inside its panel').toBeLessThanOrEqual(fit.panelRight);
  expect(fit.scrolls, 'no sideways scroll in the legend').toBe(false);
  expect(fit.past).toEqual([]);
});

test('toggles the Requests layer on: legend, cells and hot ranges of the bundled workload as the core computes them, drawn in their own colours, and off again', async ({ page }) => {
  test.slow(); // a thousand circles covered in the worker, then several redraws in software WebGL
  expect(bundled.hot.length).toBeGreaterThan(0); // the bundled workload has a hot range to mark
  const errors = await open(page, '?lat=39&lng=-96&zoom=1.6&level=4&layers=shards');
  await expect(page.getByTestId('requests-legend')).toHaveCount(0);
  const requestColors = Array.from({ length: 21 }, (_, i) => bytes(requestColor(i / 20)));
  const greyBefore = await pixelsNear(page, requestColors, 6);
  const hotBefore = await pixelsNear(page, [bytes(HOT_RGB)], 24);

  await page.getByTestId('layer-requests').click();
  await expect(page.getByTestId('layer-requests')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]layers=shards,requests(&|$)/);
  await drawn(page, 'data/workload.csv');
  await expect(page.getByTestId('requests-source')).toContainText(`data/workload.csv · ${int.format(bundled.searches.length)} searches`);
  const buckets = await legendMatches(page, bundled);
  expect((await page.evaluate(() => document.body.dataset.requestsDrawn))!.split(' ')).toEqual([String(buckets), String(bundled.hotCells)]);
  // The cells show in the request scale's colours, and the hot ranges' outlines in theirs.
  await expect.poll(() => pixelsNear(page, requestColors, 6)).toBeGreaterThan(greyBefore + 2000);
  await expect.poll(() => pixelsNear(page, [bytes(HOT_RGB)], 24)).toBeGreaterThan(hotBefore + 50);

  await page.getByTestId('layer-requests').click();
  await expect(page.getByTestId('requests-legend')).toHaveCount(0);
  await expect.poll(() => pixelsNear(page, requestColors, 6)).toBeLessThanOrEqual(greyBefore + 50);
  expect(errors).toEqual([]);
});

test('opens with layers=requests from a link, and a workload file the user opens replaces the bundled one; a bad file is refused naming the line and field', async ({ page }) => {
  test.slow();
  await open(page, '?lat=39&lng=-96&zoom=1.6&level=4&layers=shards,requests');
  await drawn(page, 'data/workload.csv');
  // Three searches by hand: two at New York (weights 1 and 2, one circle), one at Chicago.
  const text = 'lat,lng,radius,timestamp,weight\n40.7128,-74.006,10mi,,1\n40.7128,-74.006,10mi,2026-11-24T12:05:00Z,2\n41.8781,-87.6298,25km\n';
  const mine = expected(text);
  await page.getByTestId('requests-file-input').setInputFiles({ name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await drawn(page, 'three.csv');
  await expect(page.getByTestId('requests-source')).toContainText('three.csv · 3 searches (weight 4)');
  await legendMatches(page, mine);
  if (mine.hot.length === 0) await expect(page.getByTestId('requests-no-hot')).toBeVisible();

  await page.getByTestId('requests-file-input').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('40.7,-74.0,5mi\n40.7,-74.0,5 miles\n') });
  await expect(page.getByTestId('requests-error')).toContainText('bad.csv is not a valid workload file');
  await expect(page.getByTestId('requests-error')).toContainText('line 2: radius "5 miles" is invalid');
  // The last good workload stays drawn.
  await expect(page.getByTestId('requests-source')).toContainText('three.csv');
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the Requests layer toggles on and its legend, cells and hot ranges show', async ({ page }) => {
    test.slow();
    await open(page, '?lat=39&lng=-96&zoom=1&level=4&layers=shards');
    // On a phone the layer boxes fold behind one button (src/app/globe/ControlsFold.tsx): open it to pick the layer;
    // the layer's legend is shown with them.
    await page.getByTestId('globe-controls-toggle').click();
    await page.getByTestId('layer-requests').click();
    await drawn(page, 'data/workload.csv');
    await expect(page.getByTestId('requests-legend')).toBeInViewport();
    await legendMatches(page, bundled);
  });
});
