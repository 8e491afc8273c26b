/**
 * The Live panel's Measure action in Debian's Chromium, with /api answered by
 * the test in the server's JSON shapes (src/server/wire.ts MeasureAnswer): the
 * panel posts the current search, shows it running, then the figures beside
 * their all-shards baseline, each gain, the warm-up note and the machine's
 * load; a busy server is said as such. The real path (the server measuring a
 * real node) is src/server/measure.live.test.ts.
 */
import { test, expect, type Page, type Route } from '@playwright/test';
import { Router, KM_PER_MILE } from '../src/core/index.ts';
import { e2eFile } from './e2eIndex.ts';
import { openExplorer, liveOn } from './explorer.ts';

const file = e2eFile();
const router = new Router(file);
const N = router.numberOfShards;
const SF = { lat: 37.7749, lng: -122.4194 };
const sf = router.cover(SF.lat, SF.lng, 15 * KM_PER_MILE);

const asked = (shards: readonly { name: string; shard: number }[]) => shards.map((s) => ({ index: router.shards.findIndex((x) => x.name === s.name), name: s.name, shard: s.shard, cells: 0, status: 'ok' }));
const side = (scope: 'routed' | 'all-shards', shardsAsked: unknown[]) => ({
  scope,
  routing: scope === 'routed' ? sf.routing : null,
  shardsAsked,
  took: 4,
  wallMs: 6.5,
  timedOut: false,
  total: 2,
  hits: [],
  facets: { diets: [], allergens: [], cuisines: [] },
  shards: { total: shardsAsked.length, successful: shardsAsked.length, skipped: 0, failed: 0 },
});
const SEARCH = {
  status: 'complete',
  index: file.index,
  boundary: { hash: file.hash, version: file.version, numberOfShards: N },
  query: { lat: SF.lat, lng: SF.lng, radius: '15mi', radiusKm: 15 * KM_PER_MILE },
  ...side('routed', asked(sf.shards)),
  unrouted: side('all-shards', asked(router.shards)),
  identical: true,
  differences: [],
  ratio: { shards: sf.shards.length / N, took: 1, wall: 1 },
};
const STATUS = {
  connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'c', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: 1 } },
  boundary: { file: 'data/boundaries.json', index: file.index, hash: file.hash, version: file.version, numberOfShards: N, shards: [] },
  index: { name: file.index, exists: true, docs: { restaurants: 10, dishes: 50, total: 60 }, shards: [] },
  drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash, indexVersion: 1, fileVersion: 1, message: '' },
  limits: {},
  vocabulary: {},
};
/** The measurement the stub answers: figures chosen so every displayed value and gain is known here. */
const MEASURE = {
  status: 'complete',
  index: file.index,
  boundary: { hash: file.hash, version: file.version, numberOfShards: N },
  query: { lat: SF.lat, lng: SF.lng, radius: '15mi' },
  runs: 30,
  concurrency: 4,
  warmup: { runs: 3, note: 'The first 3 of the 30 one-at-a-time runs of each plan were warm-up (cold caches and code paths) and are discarded: p50 and p99 are of the other 27.' },
  routing: sf.routing,
  routed: { shardsAsked: sf.shards.length, latency: { n: 27, p50Ms: 12.5, p99Ms: 31 }, tookP50Ms: 8, cpuMsPerSearch: 4.2, searchesPerS: 96.4, underLoad: { n: 30, p50Ms: 30, p99Ms: 60 } },
  all: { shardsAsked: N, latency: { n: 27, p50Ms: 45, p99Ms: 93 }, tookP50Ms: 38, cpuMsPerSearch: 21, searchesPerS: 24.1, underLoad: { n: 30, p50Ms: 150, p99Ms: 240 } },
  gain: { p50: 45 / 12.5, p99: 93 / 31, cpu: 21 / 4.2, throughput: 96.4 / 24.1 },
  identical: true,
  differences: [],
  partialRuns: 0,
  load: { before: { '1m': 2.5, '5m': 2.1, '15m': 1.9 }, after: { '1m': 3.25, '5m': 2.2, '15m': 1.9 }, nodes: 1, processors: 2 },
  method: '30 searches per plan one at a time, alternating routed and all shards; then 30 per plan with 4 in flight.',
  ms: 9200,
  at: '2026-12-02T00:00:00.000Z',
};

async function stubApi(page: Page, onMeasure: (r: Route) => Promise<void> | void): Promise<void> {
  await page.route('**/api/status', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(STATUS) }));
  await page.route('**/api/search?*', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(SEARCH) }));
  await page.route('**/api/measure', onMeasure);
}

test.describe('the Live panel’s Measure action', () => {
  test('posts the current search and shows p50/p99, CPU per search and searches/s beside all shards, with gains, the warm-up note and the load', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const posted: { method: string; body: unknown }[] = [];
    await stubApi(page, async (r) => {
      posted.push({ method: r.request().method(), body: r.request().postDataJSON() });
      await held;
      await r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(MEASURE) });
    });
    const errors = await openExplorer(page, `?lat=${SF.lat}&lng=${SF.lng}&radius=15mi`);
    await liveOn(page, { fromOff: true });
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete');
    const m = page.getByTestId('live-measure');
    await expect(m).toHaveAttribute('data-phase', 'idle');
    await page.getByTestId('live-measure-button').click();
    await expect(m).toHaveAttribute('data-phase', 'running');
    await expect(page.getByTestId('live-measure-button')).toBeDisabled();
    await expect(page.getByTestId('live-measure-button')).toHaveText('Measuring…');
    release();
    await expect(m).toHaveAttribute('data-phase', 'done');
    expect(posted).toEqual([{ method: 'POST', body: { lat: SF.lat, lng: SF.lng, radius: '15mi', size: 20 } }]);

    await expect(page.getByTestId('live-measure-warmup')).toHaveText(MEASURE.warmup.note);
    const row = (id: string) => page.getByTestId(`live-measure-row-${id}`);
    await expect(row('p50')).toContainText('12.5 ms');
    await expect(row('p50')).toContainText('45.0 ms');
    await expect(row('p50')).toContainText('3.60×');
    await expect(row('p50')).toContainText('27 runs');
    await expect(row('p99')).toContainText('31.0 ms');
    await expect(row('p99')).toContainText('93.0 ms');
    await expect(row('p99')).toContainText('3.00×');
    await expect(row('cpu')).toContainText('4.2 ms');
    await expect(row('cpu')).toContainText('21.0 ms');
    await expect(row('cpu')).toContainText('5.00×');
    await expect(row('throughput')).toContainText('96.4/s');
    await expect(row('throughput')).toContainText('24.1/s');
    await expect(row('throughput')).toContainText('4.00×');
    await expect(row('throughput')).toContainText('4 in flight');
    await expect(m).toContainText(`routed · ${sf.shards.length} shards`);
    await expect(m).toContainText(`all · ${N} shards`);
    await expect(page.getByTestId('live-measure-identical')).toHaveAttribute('data-identical', 'true');
    const load = page.getByTestId('live-measure-load');
    await expect(load).toContainText('2.50 before, 3.25 after on 2 processors, 1 node');
    await expect(m).toHaveAttribute('data-stale', 'false');
    expect(errors).toEqual([]);
  });

  test('says when the server is busy with another measurement, and marks figures of a previous search as such', async ({ page }) => {
    let answer: { status: number; body: unknown } = { status: 429, body: { status: 'busy', error: { message: 'a measurement is already running on this server: wait for it' } } };
    await stubApi(page, (r) => r.fulfill({ status: answer.status, contentType: 'application/json', headers: { 'retry-after': '5' }, body: JSON.stringify(answer.body) }));
    await openExplorer(page, `?lat=${SF.lat}&lng=${SF.lng}&radius=15mi`);
    await liveOn(page, { fromOff: true });
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete');
    await page.getByTestId('live-measure-button').click();
    await expect(page.getByTestId('live-measure')).toHaveAttribute('data-phase', 'failed');
    await expect(page.getByTestId('live-measure-failure')).toHaveAttribute('data-kind', 'busy');
    await expect(page.getByTestId('live-measure-failure')).toContainText('already running');
    answer = { status: 200, body: MEASURE };
    await page.getByTestId('live-measure-button').click();
    await expect(page.getByTestId('live-measure')).toHaveAttribute('data-phase', 'done');
    await expect(page.getByTestId('live-measure')).toHaveAttribute('data-stale', 'false');
    // Another radius: the figures stay, said to be for the previous search.
    await page.getByTestId('tab-radius').click();
    const field = page.getByTestId('radius-input');
    await field.fill('16');
    await field.press('Enter');
    await page.getByTestId('tab-live').click();
    await expect(page.getByTestId('live-measure')).toHaveAttribute('data-stale', 'true');
    await expect(page.getByTestId('live-measure')).toContainText('for the previous search');
    await expect(page.getByTestId('live-measure-row-cpu')).toContainText('5.00×');
  });
});
