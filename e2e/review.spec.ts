/**
 * Boundary review in Debian's Chromium with software WebGL. Candidates are made here (a boundary
 * of data/boundaries.json nudged in JSON and re-hashed with the core; a 16-shard file from
 * `geoshard balance`); expected figures come from `geoshard diff --json` and the routing core,
 * never from the page.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Router, parseCellsCsv, diffBoundaries, withHash, formatBoundaryFile, validateBoundaryFile, cellCenter, cellFromOrdinal, cellOrdinal, parseToken, KM_PER_MILE, type BoundaryFile } from '../src/core/index.ts';
import { tokenOfOrdinal } from '../src/core/cells.ts';
import { openExplorer } from './explorer.ts';
import { splitShard } from '../src/core/edit.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CURRENT_PATH = join(ROOT, 'data/boundaries.json');
const current: BoundaryFile = JSON.parse(readFileSync(CURRENT_PATH, 'utf8'));
const router = new Router(current);
const cells = parseCellsCsv(readFileSync(join(ROOT, 'data/cells.csv'), 'utf8'));
const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const TMP = mkdtempSync(join(tmpdir(), 'geoshard-review-'));

/** The CLI's diff, as a user runs it (same 500-centre workload as the explorer). */
function cliDiff(candidatePath: string) {
  const out = execFileSync('npx', ['geoshard', 'diff', '--boundaries', CURRENT_PATH, '--candidate', candidatePath, '--json', '--centres', '500', '--seed', '1'], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as {
    moves: { from: string; to: string; start: string; end: string | null; restaurants: number; dishes: number }[];
    totals: { restaurants: number; dishes: number; documents: number; share: number };
    evenness: { before: { heaviestOverMean: number }; after: { heaviestOverMean: number } };
    reindex: string | null;
    fanout: { current: { meanShards: number }; candidate: { meanShards: number } };
  };
}

/** A file with boundary k (0-based in `boundaries`) moved by `steps` non-empty cells, re-hashed. */
function nudged(file: BoundaryFile, k: number, steps: number): BoundaryFile {
  const at = cellOrdinal(parseToken(file.boundaries[k]));
  const pos = cells.findIndex((c) => c.ordinal >= at);
  const { hash: _h, ...rest } = file;
  return withHash({ ...rest, boundaries: file.boundaries.map((t, i) => (i === k ? tokenOfOrdinal(cells[pos + steps].ordinal)! : t)) });
}

async function open(page: Page, query: string, candidateText?: string): Promise<string[]> {
  if (candidateText !== undefined) await page.route('**/review-candidate.json', (r) => r.fulfill({ body: candidateText, contentType: 'application/json' }));
  return openExplorer(page, query, { consoleErrors: true });
}

/** Waits until the page shows the diff and the fan-out of the candidate with this hash. */
async function reviewed(page: Page, hash: string) {
  await page.waitForFunction((h) => document.body.dataset.reviewDiff === h, hash);
}

/** Near-white pixels of the WebGL canvas (the diff hatch; no shard colour is that light), with their positions in CSS px. */
async function whitePixels(page: Page): Promise<{ count: number; first: { x: number; y: number } | null }> {
  return page.evaluate(() => {
    const c = document.querySelector('.globe-canvas canvas:not(.globe-labels)') as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const scale = c.clientWidth / c.width;
    let count = 0;
    let first: { x: number; y: number } | null = null;
    // Prefer a point inside a patch of white: its neighbours to the right are white too.
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] >= 250 && d[i + 1] >= 250 && d[i + 2] >= 250) {
        count++;
        const px = (i / 4) % c.width;
        if (!first && d[i + 8] >= 250 && d[i + 9] >= 250 && d[i + 10] >= 250) first = { x: (px + 1) * scale, y: Math.floor(i / 4 / c.width) * scale };
      }
    }
    return { count, first };
  });
}

test('loads a candidate from ?candidate=, shows the documents moved as geoshard diff computes them, and hatches the moving area on the globe with from → to on hover', async ({ page }) => {
  const candidate = nudged(current, 7, 12);
  const path = join(TMP, 'nudged.json');
  writeFileSync(path, formatBoundaryFile(candidate));
  const cli = cliDiff(path);
  expect(cli.moves).toHaveLength(1);
  const move = cli.moves[0];
  // Look at the heaviest cell of the moving range, close enough that its level-10 cells are several pixels wide.
  const lo = cellOrdinal(parseToken(move.start));
  const hi = cellOrdinal(parseToken(move.end!));
  const heaviest = cells.filter((c) => c.ordinal >= lo && c.ordinal < hi).sort((a, b) => b.dishes - a.dishes)[0];
  const at = cellCenter(cellFromOrdinal(heaviest.ordinal));
  const errors = await open(page, `?candidate=/review-candidate.json&lat=${at.lat.toFixed(4)}&lng=${at.lng.toFixed(4)}&zoom=30&layers=shards`, formatBoundaryFile(candidate));
  await reviewed(page, candidate.hash);

  await expect(page.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('review-moved-documents')).toHaveText(int.format(cli.totals.documents));
  await expect(page.getByTestId('review-moved-share')).toHaveText(`${(100 * cli.totals.share).toFixed(2)}%`);
  await expect(page.getByTestId('review-moves').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('review-moves').locator('tbody tr')).toContainText(`${move.from} → ${move.to}`);
  await expect(page.getByTestId('review-reindex')).toHaveCount(0);
  await expect(page.getByTestId('review-ribbon')).toBeVisible();

  // The moving area is hatched: white pixels appear with the candidate and go with it.
  await expect.poll(async () => (await whitePixels(page)).count).toBeGreaterThan(200);
  const hatched = await whitePixels(page);
  const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  await page.mouse.move(box.x + hatched.first!.x, box.y + hatched.first!.y);
  await expect(page.getByTestId('review-hover')).toContainText(`moves: ${move.from} → ${move.to}`);
  await page.mouse.move(box.x + 5, box.y + box.height - 5);
  await page.getByTestId('review-clear').click();
  await expect.poll(async () => (await whitePixels(page)).count).toBe(0);
  expect(errors).toEqual([]);
});

test('shows the load over the bundled workload before and after (mean shards, one-shard share, heaviest load, hottest shards, each shard\'s share) as geoshard diff --workload gives them, and over a workload file the user opens', async ({ page }) => {
  test.slow(); // the workload's thousand circles are covered in the worker
  const candidate = nudged(current, 7, 300);
  const path = join(TMP, 'nudged-load.json');
  writeFileSync(path, formatBoundaryFile(candidate));
  const out = execFileSync('npx', ['geoshard', 'diff', '--boundaries', CURRENT_PATH, '--candidate', path, '--json', '--centres', '1', '--workload', join(ROOT, 'data/workload.csv')], { cwd: ROOT, encoding: 'utf8' });
  const cli = (JSON.parse(out) as { workload: { searches: number; fanout: Record<'current' | 'candidate', { meanShards: number; oneShardShare: number }>; evenness: Record<'before' | 'after', { heaviestOverMean: number }>; hottest: Record<'before' | 'after', { name: string; overMean: number }[]>; shards: { name: string; before: { share: number } | null; after: { share: number } | null }[] } }).workload;
  await open(page, '?candidate=/review-candidate.json&layers=shards', formatBoundaryFile(candidate));
  await page.waitForFunction((h) => document.body.dataset.reviewLoad === h, candidate.hash, { timeout: 60_000 });
  await expect(page.getByTestId('review-load-source')).toHaveText('data/workload.csv');
  await expect(page.getByTestId('review-load')).toContainText(`${int.format(cli.searches)} searches`);
  await expect(page.getByTestId('review-load-current-mean')).toHaveText(cli.fanout.current.meanShards.toFixed(3));
  await expect(page.getByTestId('review-load-candidate-mean')).toHaveText(cli.fanout.candidate.meanShards.toFixed(3));
  await expect(page.getByTestId('review-load-current-one')).toHaveText(`${(100 * cli.fanout.current.oneShardShare).toFixed(1)}%`);
  await expect(page.getByTestId('review-load-candidate-one')).toHaveText(`${(100 * cli.fanout.candidate.oneShardShare).toFixed(1)}%`);
  await expect(page.getByTestId('review-load-current-heaviest')).toHaveText(cli.evenness.before.heaviestOverMean.toFixed(3));
  await expect(page.getByTestId('review-load-candidate-heaviest')).toHaveText(cli.evenness.after.heaviestOverMean.toFixed(3));
  const hot = (l: { name: string; overMean: number }[]) => l.map((h) => `${h.name} ${h.overMean.toFixed(2)}×`).join(', ');
  await expect(page.getByTestId('review-load-hottest-before')).toHaveText(hot(cli.hottest.before));
  await expect(page.getByTestId('review-load-hottest-after')).toHaveText(hot(cli.hottest.after));
  const rows = page.getByTestId('review-load-row');
  await expect(rows).toHaveCount(cli.shards.length);
  const share = (x: { share: number } | null) => (x ? `${(100 * x.share).toFixed(1)}%` : '—');
  for (let k = 0; k < cli.shards.length; k++) {
    await expect(rows.nth(k)).toHaveAttribute('data-name', cli.shards[k].name);
    await expect(rows.nth(k).locator('.review-bar-text')).toHaveText(`${share(cli.shards[k].before)} → ${share(cli.shards[k].after)}`);
  }
  // The boundary moved 300 cells: the load moves with it.
  expect(cli.shards.some((s) => s.before && s.after && Math.abs(s.before.share - s.after.share) > 1e-4)).toBe(true);

  // A workload file opened in the Review tab replaces the bundled one; mean shards asked and the one-shard share follow
  // each search's own covering under each file (Router.cover), weighted by hand.
  const searches = [
    { lat: 40.7128, lng: -74.006, mi: 10, weight: 1 },
    { lat: 40.7128, lng: -74.006, mi: 10, weight: 2 },
    { lat: 41.8781, lng: -87.6298, mi: 25, weight: 1 },
    { lat: 29.7604, lng: -95.3698, mi: 2, weight: 4 },
  ];
  const text = searches.map((x) => `${x.lat},${x.lng},${x.mi}mi,,${x.weight}`).join('\n') + '\n';
  const fan = (r: Router) => {
    const k = searches.map((x) => r.cover(x.lat, x.lng, x.mi * KM_PER_MILE).shards.length);
    const w = searches.reduce((a, x) => a + x.weight, 0);
    return { mean: searches.reduce((a, x, i) => a + x.weight * k[i], 0) / w, one: searches.reduce((a, x, i) => a + (k[i] === 1 ? x.weight : 0), 0) / w };
  };
  const [before, after] = [fan(router), fan(new Router(candidate))];
  await page.getByTestId('review-workload-input').setInputFiles({ name: 'four.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await expect(page.getByTestId('review-load-source')).toHaveText('four.csv');
  await expect(page.getByTestId('review-load')).toContainText('4 searches (weight 8)');
  await expect(page.getByTestId('review-load-current-mean')).toHaveText(before.mean.toFixed(3));
  await expect(page.getByTestId('review-load-candidate-mean')).toHaveText(after.mean.toFixed(3));
  await expect(page.getByTestId('review-load-current-one')).toHaveText(`${(100 * before.one).toFixed(1)}%`);
  await expect(page.getByTestId('review-load-candidate-one')).toHaveText(`${(100 * after.one).toFixed(1)}%`);
});

test('evaluates the radius explorer\'s current search under both files: cells, shards asked and routing before → after as the core routes them', async ({ page }) => {
  // Move boundary 8 by 300 cells, then search 3 miles around the first moved cell whose search changes routing.
  const candidate = nudged(current, 7, 300);
  const cand = new Router(candidate);
  const lo = cellOrdinal(parseToken(current.boundaries[7]));
  const hi = cellOrdinal(parseToken(candidate.boundaries[7]));
  const km = 3 * KM_PER_MILE;
  let found: { lat: number; lng: number; before: ReturnType<Router['cover']>; after: ReturnType<Router['cover']> } | null = null;
  for (const c of cells) {
    if (c.ordinal < lo || c.ordinal >= hi) continue;
    const p = cellCenter(cellFromOrdinal(c.ordinal));
    const [lat, lng] = [Number(p.lat.toFixed(4)), Number(p.lng.toFixed(4))];
    const before = router.cover(lat, lng, km);
    const after = cand.cover(lat, lng, km);
    if (before.routing !== after.routing) {
      found = { lat, lng, before, after };
      break;
    }
  }
  expect(found).not.toBeNull();
  const { lat, lng, before, after } = found!;
  await open(page, `?candidate=/review-candidate.json&lat=${lat}&lng=${lng}&radius=3mi&layers=shards`, formatBoundaryFile(candidate));
  await reviewed(page, candidate.hash);
  const box = page.getByTestId('review-search');
  await expect(box).toContainText(`${int.format(before.ordinals.length)} level-10 cells`);
  await expect(page.getByTestId('review-search-shards')).toHaveText(`${before.shards.length} → ${after.shards.length}`);
  await expect(page.getByTestId('review-search-before')).toHaveText(before.routing);
  await expect(page.getByTestId('review-search-after')).toHaveText(after.routing);
});

test('a 16-shard candidate from geoshard balance: reindex said prominently, moved share, evenness and fan-out as the CLI gives them', async ({ page }) => {
  const path = join(TMP, 'balanced16.json');
  execFileSync('npx', ['geoshard', 'balance', '--min', '16', '--max', '16', '--created-at', '2026-12-01T00:00:00.000Z', '--out', path], { cwd: ROOT, encoding: 'utf8' });
  const candidate: BoundaryFile = JSON.parse(readFileSync(path, 'utf8'));
  const cli = cliDiff(path);
  await open(page, '?layers=shards');
  await page.getByTestId('tab-review').click();
  await page.getByTestId('review-file-input').setInputFiles(path);
  await reviewed(page, candidate.hash);
  await expect(page.getByTestId('review-reindex')).toContainText('numberOfShards changes (15 → 16)');
  await expect(page.getByTestId('review-moved-share')).toHaveText(`${(100 * cli.totals.share).toFixed(2)}%`);
  await expect(page.getByTestId('review-evenness-before-hom')).toHaveText(cli.evenness.before.heaviestOverMean.toFixed(4));
  await expect(page.getByTestId('review-evenness-after-hom')).toHaveText(cli.evenness.after.heaviestOverMean.toFixed(4));
  await page.waitForFunction((h) => document.body.dataset.reviewFanout === h, candidate.hash, { timeout: 60_000 });
  await expect(page.getByTestId('review-fanout-current-mean')).toHaveText(cli.fanout.current.meanShards.toFixed(3));
  await expect(page.getByTestId('review-fanout-candidate-mean')).toHaveText(cli.fanout.candidate.meanShards.toFixed(3));
  await expect(page.getByTestId('review-fanout-hash-current-mean')).toHaveText('15.000');
  await expect(page.getByTestId('review-fanout-hash-candidate-mean')).toHaveText('16.000');
  // Pairing by range overlap shows the geometric change instead (the CLI's --match range).
  const byRange = JSON.parse(execFileSync('npx', ['geoshard', 'diff', '--boundaries', CURRENT_PATH, '--candidate', path, '--json', '--centres', '1', '--match', 'range'], { cwd: ROOT, encoding: 'utf8' })) as { totals: { share: number } };
  await page.getByTestId('review-match-range').click();
  await expect(page.getByTestId('review-moved-share')).toHaveText(`${(100 * byRange.totals.share).toFixed(2)}%`);
});

test('refuses an invalid candidate and lists every problem the validator finds, each naming field and value; a valid file dropped on the page is taken', async ({ page }) => {
  const bad = { ...current, numberOfShards: 14, boundaries: [...current.boundaries.slice(0, 3), 'zz', ...current.boundaries.slice(4)] };
  const expected = validateBoundaryFile(bad).map((e) => e.message);
  expect(expected.length).toBeGreaterThan(2);
  await open(page, '?layers=shards');
  await page.getByTestId('tab-review').click();
  await page.getByTestId('review-file-input').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  const box = page.getByTestId('review-errors');
  await expect(box).toContainText('bad.json is not a valid boundary file');
  await expect(box.locator('li')).toHaveText(expected);
  await expect(page.getByTestId('review-ribbon')).toHaveCount(0);

  // A valid file dropped on the page replaces the error with the candidate.
  const good = nudged(current, 3, 5);
  await page.evaluate(
    ([text, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: 'application/json' }));
      document.querySelector('.globe-view')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [formatBoundaryFile(good), 'dropped.json'] as const,
  );
  await reviewed(page, good.hash);
  await expect(page.getByTestId('review-errors')).toHaveCount(0);
  await expect(page.getByTestId('review-candidate')).toContainText('dropped.json');
  await expect(page.getByTestId('review-ribbon')).toBeVisible();
});

test('dragging a candidate tick changes evenness as the core computes it; nudging moves one cell; the saved file validates and loads back', async ({ page }) => {
  await open(page, '?layers=shards');
  await page.getByTestId('tab-review').click();
  await expect(page.getByTestId('review-edit-current')).toBeEnabled();
  await page.getByTestId('review-edit-current').click();
  const k = 8; // boundary 8 (1-based) = boundaries[7]
  await page.getByTestId('review-boundary-select').selectOption(String(k));
  const hom0 = await page.getByTestId('review-evenness-after-hom').textContent();
  expect(hom0).toBe(diffBoundaries(router, router, cells).evenness.after.heaviestOverMean.toFixed(4));
  await page.getByTestId('review-fit-selected').click();

  // Drag the tick 120 px to the right along the handle row.
  const canvas = page.getByTestId('review-ribbon-canvas');
  // Wait for the zoom to the selected tick itself (between its neighbours), not an earlier view:
  // the fit waits for the review's cell sums, which a busy machine delivers late.
  await page.waitForFunction(([lo, at, hi]) => {
    const c = document.querySelector('[data-testid=review-ribbon-canvas]') as HTMLCanvasElement;
    const [from, to] = [Number(c.dataset.from), Number(c.dataset.to)];
    return from >= lo && to <= hi && from <= at && at < to;
  }, [router.starts[k - 1], router.starts[k], router.starts[k + 1]]);
  const box = (await canvas.boundingBox())!;
  const [from, to] = await canvas.evaluate((c) => [Number(c.dataset.from), Number(c.dataset.to)]);
  const x0 = box.x + ((router.starts[k] - from) / (to - from)) * box.width;
  const y = box.y + box.height - 4;
  await page.mouse.move(x0, y);
  await page.mouse.down();
  for (let s = 1; s <= 12; s++) await page.mouse.move(x0 + 10 * s, y);
  await page.mouse.up();

  const tokenOf = async () => ((await page.getByTestId('review-boundary-select').locator('option:checked').textContent()) ?? '').split(' ')[0];
  await expect.poll(tokenOf).not.toBe(current.boundaries[k - 1]);
  const dragged = await tokenOf();
  const expectFile = (token: string) => {
    const { hash: _h, ...rest } = current;
    return withHash({ ...rest, boundaries: current.boundaries.map((t, i) => (i === k - 1 ? token : t)) });
  };
  // The tick snapped to a non-empty cell, and every figure is the core's for that file.
  expect(cells.some((c) => c.token === dragged)).toBe(true);
  const d1 = diffBoundaries(router, new Router(expectFile(dragged)), cells);
  await expect(page.getByTestId('review-evenness-after-hom')).toHaveText(d1.evenness.after.heaviestOverMean.toFixed(4));
  expect(d1.evenness.after.heaviestOverMean.toFixed(4)).not.toBe(hom0);
  await expect(page.getByTestId('review-moved-documents')).toHaveText(int.format(d1.totals.documents));

  // One nudge to the right: the next non-empty cell.
  await page.getByTestId('review-nudge-1').click();
  const next = cells[cells.findIndex((c) => c.token === dragged) + 1].token;
  await expect.poll(tokenOf).toBe(next);
  const d2 = diffBoundaries(router, new Router(expectFile(next)), cells);
  await expect(page.getByTestId('review-moved-documents')).toHaveText(int.format(d2.totals.documents));

  // Save: a valid next version of the current file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('review-save').click()]);
  const savedPath = join(TMP, download.suggestedFilename());
  await download.saveAs(savedPath);
  const saved = JSON.parse(readFileSync(savedPath, 'utf8')) as BoundaryFile;
  expect(validateBoundaryFile(saved)).toEqual([]);
  expect(saved.parent).toBe(current.hash);
  expect(saved.version).toBe(current.version + 1);
  expect(saved.boundaries).toEqual(expectFile(next).boundaries);
  expect(download.suggestedFilename()).toBe(`boundaries-v${saved.version}-${saved.hash.slice(0, 12)}.json`);

  // And load it back as a candidate.
  await page.getByTestId('review-clear').click();
  await page.getByTestId('review-file-input').setInputFiles(savedPath);
  await reviewed(page, saved.hash);
  await expect(page.getByTestId('review-candidate')).toContainText(saved.hash.slice(0, 12));
  await expect(page.getByTestId('review-moved-documents')).toHaveText(int.format(d2.totals.documents));
});

test('splitting the heaviest shard at its weighted median shows the reindex and the evenness the core computes', async ({ page }) => {
  await open(page, '?layers=shards');
  await page.getByTestId('tab-review').click();
  await expect(page.getByTestId('review-split')).toBeVisible();
  const weights = router.shards.map((_, i) => cells.filter((c) => c.ordinal >= router.starts[i] && c.ordinal < router.starts[i + 1]).reduce((a, c) => a + c.restaurants + c.dishes, 0));
  const heaviest = router.shards[weights.indexOf(Math.max(...weights))].name;
  await expect(page.getByTestId('review-split-select')).toHaveValue(heaviest);
  await page.getByTestId('review-split').click();
  const split = splitShard(current, cells, heaviest);
  const d = diffBoundaries(router, new Router(split.file), cells);
  await expect(page.getByTestId('review-reindex')).toContainText('numberOfShards changes (15 → 16)');
  await expect(page.getByTestId('review-edit-cost')).toContainText(`split "${heaviest}" at its weighted median, cell ${split.at}`);
  await expect(page.getByTestId('review-evenness-after-hom')).toHaveText(d.evenness.after.heaviestOverMean.toFixed(4));
  await expect(page.getByTestId('review-moved-documents')).toHaveText(int.format(d.totals.documents));
});

test('refuses a candidate or boundary link whose path resolves to another host, and never fetches it (issue 10)', async ({ page }) => {
  const elsewhere: string[] = [];
  page.on('request', (r) => new URL(r.url()).port === '5399' && elsewhere.push(r.url()));
  // "/\host/x.json" starts with a slash but the browser reads it as //host/x.json.
  await open(page, `?layers=shards&candidate=${encodeURIComponent('/\\127.0.0.1:5399/x.json')}`);
  const box = page.getByTestId('review-errors');
  await expect(box).toContainText('is not a path on this server: it resolves to http://127.0.0.1:5399/x.json');
  await expect(page.getByTestId('review-ribbon')).toHaveCount(0);

  await page.goto(`/?boundaries=${encodeURIComponent('/\\/127.0.0.1:5399/x.json')}`);
  await expect(page.getByTestId('data-error')).toContainText('is not a path on this server');
  expect(elsewhere).toEqual([]);

  // The header says where the drawn boundary file came from.
  await open(page, '?layers=shards');
  await expect(page.locator('header')).toContainText('data/boundaries.json');
  await page.goto('/?layers=shards&boundaries=/data/boundaries.json');
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await expect(page.locator('header')).toContainText('/data/boundaries.json');
});
