/**
 * Live mode in Debian's Chromium.
 *
 * (a) The real path: the explorer's own server (npm start) with the live API
 *     mounted, against the real OpenSearch node (npm run cluster:start, or
 *     OPENSEARCH_URL). The tests' own index (e2e/e2eIndex.ts: the bundled file as `geoshard-e2e-dishes`) is seeded
 *     with a small sample when missing. Expected values come from the routing
 *     core (the shards a circle asks) and from OpenSearch itself (a plain
 *     unrouted _count written here), never from the page.
 * (b) The displays of failures (drift, partial, node down, no API), with /api
 *     answered by page.route in the server's JSON shapes.
 */
import { test, expect, type Page } from '@playwright/test';
import { Router, KM_PER_MILE } from '../src/core/index.ts';
import { formatShardCount } from '../src/core/searches.ts';
import type { OpenSearchClient } from '../src/cluster/client.ts';
import { shardColor, toBytes } from '../src/app/shell/palette.ts';
import { ensureLiveIndex, file, clusterRouting, searchPipelineOf } from './liveIndex.ts';
import { openExplorer, liveOn as switchLiveOn } from './explorer.ts';
const router = new Router(file);
const N = router.numberOfShards;
const SF = { lat: 37.7749, lng: -122.4194 };
const SF_KM = 15 * KM_PER_MILE;
const SF_LINK = `?lat=${SF.lat}&lng=${SF.lng}&radius=15mi`;
const sfRoute = router.cover(SF.lat, SF.lng, SF_KM);

const open = (page: Page, query = ''): Promise<string[]> => openExplorer(page, query);

/** Switches Live on from its tab (it starts off). */
const liveOn = (page: Page): Promise<void> => switchLiveOn(page, { fromOff: true });

const intText = async (page: Page, id: string) => Number((await page.getByTestId(id).textContent())!.replace(/,/g, ''));

/** OpenSearch's own count, on every shard, of the dishes whose restaurant lies in the San Francisco circle. */
async function sfDishCount(client: OpenSearchClient): Promise<number> {
  const { body } = await client.request<{ count: number }>('POST', `/${file.index}/_count`, {
    body: { query: { has_parent: { parent_type: 'restaurant', query: { geo_distance: { distance: `${SF_KM * 1000}m`, location: { lat: SF.lat, lon: SF.lng } } } } } },
  });
  return body.count;
}

test.describe('live mode on the real node', () => {
  let client: OpenSearchClient;

  test.beforeAll(async ({}, info) => {
    test.setTimeout(180_000);
    client = await ensureLiveIndex(info.project.use.baseURL!);
  });

  test('at San Francisco 15 mi the routed search asks the globe’s shards, all shards give the identical answer, and dishes are found', async ({ page }) => {
    expect(sfRoute.shards.length).toBeLessThan(N);
    const errors = await open(page, SF_LINK);
    // The radius explorer's answer (the shards the globe lights up) is the core's.
    await expect(page.getByTestId('routing')).toHaveText(sfRoute.routing);
    await liveOn(page);
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'up');
    await expect(page.getByTestId('live-status')).toContainText(file.hash.slice(0, 12));
    await expect(page.getByTestId('live-search')).toHaveAttribute('data-state', 'circle');
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });

    const routed = page.getByTestId('live-routed');
    const unrouted = page.getByTestId('live-unrouted');
    await expect(routed).toHaveAttribute('data-status', 'complete');
    await expect(unrouted).toHaveAttribute('data-status', 'complete');
    await expect(page.getByTestId('live-routed-routing')).toHaveText(sfRoute.routing);
    await page.getByTestId('tab-radius').click();
    const pageRouting = await page.getByTestId('routing').textContent();
    await page.getByTestId('tab-live').click();
    await expect(page.getByTestId('live-routed-routing')).toHaveText(pageRouting!);
    await expect(page.getByTestId('live-routed-shards')).toHaveText(formatShardCount(sfRoute.shards.length, N));
    await expect(page.getByTestId('live-unrouted-shards')).toHaveText(formatShardCount(N, N));
    await expect(page.getByTestId('live-unrouted-routing')).toHaveText('(none)');
    await expect(page.getByTestId('live-routing-match')).toHaveAttribute('data-match', 'true');
    for (const s of sfRoute.shards) await expect(page.getByTestId(`live-routed-chip-${s.name}`)).toHaveAttribute('data-status', 'ok');
    await expect(page.getByTestId('live-unrouted-chips').locator('.live-chip[data-status="ok"]')).toHaveCount(N);

    await expect(page.getByTestId('live-identical')).toHaveAttribute('data-identical', 'true');
    await expect(page.getByTestId('live-identical')).toContainText('Identical ✓');

    // The total is OpenSearch's own unrouted count of dishes whose restaurant lies in the circle.
    const count = await sfDishCount(client);
    expect(count).toBeGreaterThan(0);
    expect(await intText(page, 'live-routed-total')).toBe(count);
    expect(await intText(page, 'live-unrouted-total')).toBe(count);

    const hits = page.getByTestId('live-hit');
    await expect(page.getByTestId('live-hits')).toHaveAttribute('data-count', String(Math.min(20, count)));
    const routings = await hits.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.routing));
    const asked = new Set(sfRoute.shards.map((s) => s.name));
    expect(routings.every((r) => asked.has(r!)), `every dish found lives on a routed shard: ${routings.join(',')}`).toBe(true);
    expect(errors).toEqual([]);
  });

  test('a diet facet filters to exactly its count, and an allergen filter keeps the dishes free of it', async ({ page }) => {
    await open(page, SF_LINK);
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    const total = await intText(page, 'live-routed-total');
    const facet = page.locator('[data-testid^="live-facet-diet-"]').first();
    const diet = (await facet.getAttribute('data-testid'))!.replace('live-facet-diet-', '');
    const dietCount = Number((await facet.locator('.count').textContent())!.replace(/,/g, ''));
    expect(dietCount).toBeGreaterThan(0);
    await facet.click();
    await expect(facet).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('live-routed-total')).toHaveText(dietCount.toLocaleString('en-US'), { timeout: 30_000 });
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete');
    await expect(page.getByTestId('live-identical')).toHaveAttribute('data-identical', 'true');
    await facet.click();
    await expect(page.getByTestId('live-routed-total')).toHaveText(total.toLocaleString('en-US'), { timeout: 30_000 });

    const allergen = page.locator('[data-testid^="live-facet-allergen-"]').first();
    const containing = Number((await allergen.locator('.count').textContent())!.replace(/,/g, ''));
    await allergen.click();
    await expect(allergen).toContainText('free of');
    await expect(page.getByTestId('live-routed-total')).toHaveText((total - containing).toLocaleString('en-US'), { timeout: 30_000 });
    await expect(page.getByTestId('live-identical')).toHaveAttribute('data-identical', 'true');
  });

  test('with no location both sides ask all shards, and the panel says so', async ({ page }) => {
    await open(page, '?location=none');
    await liveOn(page);
    await expect(page.getByTestId('live-search')).toHaveAttribute('data-state', 'all');
    await expect(page.getByTestId('live-search')).toContainText(`all ${N} shards`);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(page.getByTestId('live-routed')).toHaveAttribute('data-scope', 'all-shards');
    await expect(page.getByTestId('live-routed-shards')).toHaveText(formatShardCount(N, N));
    await expect(page.getByTestId('live-identical')).toHaveAttribute('data-identical', 'true');
  });
});

test.describe('live mode where the cluster routes (the geoshard plugin’s search pipeline)', () => {
  let client: OpenSearchClient;

  test.beforeAll(async ({}, info) => {
    test.setTimeout(240_000);
    client = await ensureLiveIndex(info.project.use.baseURL!);
    const { body: plugins } = await client.request<{ component: string }[]>('GET', '/_cat/plugins', { query: { format: 'json' } });
    expect(plugins.some((p) => p.component === 'geoshard'), `every node needs the geoshard plugin (node scripts/cluster.mjs start --plugin): ${JSON.stringify(plugins)}`).toBe(true);
    const said = await clusterRouting(true);
    expect(await searchPipelineOf(client), said).toBe(`geoshard-search-${file.index}`);
  });

  // The other tests search as a client that routes: the index goes back to its ingest pipeline alone.
  test.afterAll(async () => {
    test.setTimeout(120_000);
    await clusterRouting(false);
    expect(await searchPipelineOf(client)).toBeNull();
  });

  test('the panel says the cluster routed the search, to the core’s shards, with the identical answer, and Measure shows the third way', async ({ page }) => {
    test.setTimeout(180_000);
    const errors = await open(page, SF_LINK);
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    // Who routed: the cluster's pipeline (the API sent no routing); the shards it asked are the core's.
    await expect(page.getByTestId('live-routed-routed-by')).toHaveAttribute('data-by', 'cluster');
    await expect(page.getByTestId('live-routed-routed-by')).toContainText('cluster');
    await expect(page.getByTestId('live-routed-routing')).toHaveText(sfRoute.routing);
    await expect(page.getByTestId('live-routed-shards')).toHaveText(formatShardCount(sfRoute.shards.length, N));
    await expect(page.getByTestId('live-routing-match')).toHaveAttribute('data-match', 'true');
    await expect(page.getByTestId('live-unrouted-shards')).toHaveText(formatShardCount(N, N));
    await expect(page.getByTestId('live-identical')).toHaveAttribute('data-identical', 'true');
    // The total is OpenSearch's own count on every shard (_count runs no search pipeline and names no routing).
    const count = await sfDishCount(client);
    expect(count).toBeGreaterThan(0);
    expect(await intText(page, 'live-routed-total')).toBe(count);

    // Measure: routed by the server, by the cluster, and every shard, on the same searches.
    await page.getByTestId('live-measure-button').click();
    await expect(page.getByTestId('live-measure')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
    await expect(page.getByTestId('live-measure-identical')).toHaveAttribute('data-identical', 'true');
    for (const row of ['p50', 'p99', 'throughput']) {
      const r = page.getByTestId(`live-measure-row-${row}`);
      const [routed, cluster, all, gain] = await Promise.all(['data-routed', 'data-cluster', 'data-all', 'data-cluster-gain'].map((a) => r.getAttribute(a)));
      expect(cluster, `${row}: the cluster-routed column is shown`).not.toBeNull();
      for (const [name, v] of Object.entries({ routed, cluster, all, gain })) expect(Number(v), `${row} ${name}: ${v}`).toBeGreaterThan(0);
      // The cluster's gain is all-shards over cluster-routed (above 1: better), as the panel computes it for the server's routing.
      const expected = row === 'throughput' ? Number(cluster) / Number(all) : Number(all) / Number(cluster);
      expect(Math.abs(Number(gain) - expected) / expected, `${row}: gain ${gain}, expected ${expected}`).toBeLessThan(0.01);
    }
    expect(errors).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// (b) Failure displays, /api answered by the test in the server's shapes.

const shardsOf = (names: readonly { index: number; name: string; shard: number; cells?: number }[], status = 'ok') => names.map((s) => ({ index: s.index, name: s.name, shard: s.shard, cells: s.cells ?? 0, status }));
const statusBody = (over: Record<string, unknown> = {}) => ({
  connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'c', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: 1 } },
  boundary: { path: 'data/boundaries.json', index: file.index, hash: file.hash, version: file.version, numberOfShards: N, shards: [] },
  index: { name: file.index, exists: true, docs: { restaurants: 10, dishes: 50, total: 60 }, shards: [] },
  drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash, indexVersion: 1, fileVersion: 1, message: '' },
  limits: {},
  vocabulary: {},
  ...over,
});
const side = (scope: 'routed' | 'all-shards', shardsAsked: unknown[], shards: Record<string, number>, extra: Record<string, unknown> = {}) => ({
  scope,
  routing: scope === 'routed' ? sfRoute.routing : null,
  shardsAsked,
  took: 4,
  wallMs: 6.5,
  timedOut: false,
  total: 2,
  hits: [],
  facets: { diets: [{ value: 'vegan', count: 1 }], allergens: [{ value: 'peanuts', count: 2 }], cuisines: [{ value: 'thai', count: 2 }] },
  shards: { skipped: 0, ...shards },
  ...extra,
});

async function stub(page: Page, status: unknown, search: { status: number; body: unknown }): Promise<void> {
  await page.route('**/api/status', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(status) }));
  await page.route('**/api/search?*', (r) => r.fulfill({ status: search.status, contentType: 'application/json', body: JSON.stringify(search.body) }));
}

test.describe('live mode failure displays', () => {
  test('boundary drift is shown with both hashes and the search is refused, never shown as a result', async ({ page }) => {
    const other = 'ab12cd34ef56'.repeat(5) + 'abcd';
    const drift = { status: 'mismatch', indexHash: other, fileHash: file.hash, indexVersion: 3, fileVersion: 1 };
    await stub(page, statusBody({ drift: { ...drift, message: 'boundary drift' } }), {
      status: 409,
      body: { status: 'drift', index: file.index, drift, error: { message: `boundary drift: index "dishes" was written with boundary file ${other} (version 3), but this server routes with ${file.hash} (version 1).` } },
    });
    await open(page, SF_LINK);
    await liveOn(page);
    const st = page.getByTestId('live-status');
    await expect(st).toHaveAttribute('data-state', 'drift');
    await expect(st).toContainText(other.slice(0, 12));
    await expect(st).toContainText(file.hash.slice(0, 12));
    await expect(page.getByTestId('live-command')).toHaveText('npx geoshard seed --recreate');
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'drift');
    await expect(page.getByTestId('live-failure')).toContainText(other);
    await expect(page.getByTestId('live-failure')).toContainText(file.hash);
    await expect(page.getByTestId('live-routed')).toHaveCount(0);
  });

  test('a partial search is badged partial with its failed and unavailable shards, never complete', async ({ page }) => {
    const [first, ...rest] = sfRoute.shards;
    const routedAsked = [...shardsOf([first], 'failed'), ...shardsOf(rest)].map((s) => (s.status === 'failed' ? { ...s, reason: 'node_disconnected_exception: node left' } : s));
    const unAsked = router.shards.map((s, i) => ({ index: i, name: s.name, shard: s.shard, cells: 0, status: s.name === first.name ? 'unavailable' : 'ok' }));
    await stub(page, statusBody(), {
      status: 200,
      body: {
        status: 'partial',
        index: file.index,
        boundary: { hash: file.hash, version: 1, numberOfShards: N },
        query: { radiusKm: SF_KM },
        ...side('routed', routedAsked, { total: sfRoute.shards.length, successful: sfRoute.shards.length - 1, failed: 1 }),
        unrouted: side('all-shards', unAsked, { total: N, successful: N - 1, failed: 0 }),
        identical: true,
        differences: [],
        ratio: { shards: sfRoute.shards.length / N, took: 1, wall: 1 },
      },
    });
    await open(page, SF_LINK);
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'partial');
    await expect(page.getByTestId('live-badge')).not.toContainText('complete');
    await expect(page.getByTestId('live-routed')).toHaveAttribute('data-status', 'partial');
    await expect(page.getByTestId('live-unrouted')).toHaveAttribute('data-status', 'partial');
    await expect(page.getByTestId(`live-routed-chip-${first.name}`)).toHaveAttribute('data-status', 'failed');
    await expect(page.getByTestId(`live-routed-chip-${first.name}`)).toHaveAttribute('title', /node left/);
    await expect(page.getByTestId(`live-unrouted-chip-${first.name}`)).toHaveAttribute('data-status', 'unavailable');
    await expect(page.getByTestId('live-identical')).toContainText('partial');
    // The chip keeps the shard's palette colour (its identity) whatever its status.
    const swatch = await page.getByTestId(`live-routed-chip-${first.name}`).locator('.swatch').evaluate((e) => getComputedStyle(e).backgroundColor);
    const [r, g, b] = toBytes(shardColor(first.index));
    expect(swatch).toBe(`rgb(${r}, ${g}, ${b})`);
  });

  test('a node that is down is named with the command that starts it, and the rest of the explorer keeps working', async ({ page }) => {
    await stub(page, statusBody({ connection: { status: 'down', url: 'http://127.0.0.1:9200', message: 'GET / on http://127.0.0.1:9200: connection refused' }, index: null, drift: null }), {
      status: 503,
      body: { status: 'unavailable', index: file.index, error: { message: 'GET / on http://127.0.0.1:9200: connection refused. No results: start the node ("npm run cluster:start") or check OPENSEARCH_URL (http://127.0.0.1:9200).' } },
    });
    const errors = await open(page, SF_LINK);
    await liveOn(page);
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'down');
    await expect(page.getByTestId('live-command')).toHaveText('npm run cluster:start');
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'unavailable');
    await expect(page.getByTestId('live-failure')).toContainText('npm run cluster:start');
    // The radius explorer still answers.
    await page.getByTestId('tab-radius').click();
    await page.getByTestId('preset-los-angeles').click();
    const la = router.cover(34.0522, -118.2437, SF_KM);
    await expect(page.getByTestId('routing')).toHaveText(la.routing);
    expect(errors).toEqual([]);
  });

  test('a page served without the live API says so instead of failing', async ({ page }) => {
    await page.route('**/api/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body>explorer</body></html>' }));
    const errors = await open(page, SF_LINK);
    await liveOn(page);
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'not-mounted');
    await expect(page.getByTestId('live-status')).toContainText('npm start');
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'unavailable');
    expect(errors).toEqual([]);
  });
});
