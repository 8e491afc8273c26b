/**
 * The Nodes view and the per-shard timing in Debian's Chromium, on the REAL
 * cluster (npm run cluster:start -- --nodes 3, or OPENSEARCH_URL): the
 * explorer's own server with the live API, the `dishes` index of
 * data/boundaries.json (seeded as live.spec.ts does). Expected values come
 * from OpenSearch itself (`_cat/nodes`, `_cat/shards`), never from the page.
 *
 * The node-loss test that really stops node 3 (`node scripts/cluster.mjs
 * stop --node 3`, with the test's own environment) and starts it again,
 * waiting for every shard to be started so the index is left as found, runs
 * only with E2E_STOP_NODE=1: measured on the 2-core machine, the stop and
 * the marks take ~36 s and the restart until green ~106 s, too long for every
 * run. The marking is checked on every run with /api answered by the test in
 * the server's shapes (a 3-node status with node 3 gone, a partial search
 * naming it; and a replica promoted).
 */
import { test, expect, type Page } from '@playwright/test';
import { centreBlock } from './globePixels.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Router } from '../src/core/index.ts';
import type { OpenSearchClient } from '../src/cluster/client.ts';
import { ensureLiveIndex, file, ROOT } from './liveIndex.ts';
import { fromHex, toBytes } from '../src/app/shell/palette.ts';
import { COPY_COLORS, NODE_PALETTE } from '../src/app/nodes/regionColors.ts';
import { openExplorer as open, liveOn } from './explorer.ts';

const router = new Router(file);
const SF_LINK = '?lat=37.7749&lng=-122.4194&radius=15mi';
const sfRoute = router.cover(37.7749, -122.4194, 15 * 1.609344);



type CatNode = { name: string };
type CatShard = { index: string; shard: string; prirep: string; state: string; node: string | null };
const catNodes = (c: OpenSearchClient) => c.get<CatNode[]>('/_cat/nodes', { query: { format: 'json', h: 'name' } });
const catShards = (c: OpenSearchClient) => c.get<CatShard[]>(`/_cat/shards/${file.index}`, { query: { format: 'json', h: 'index,shard,prirep,state,node' } });

test.describe('the Nodes view on the real cluster', () => {
  let client: OpenSearchClient;

  test.beforeAll(async ({}, info) => {
    test.setTimeout(180_000);
    client = await ensureLiveIndex(info.project.use.baseURL!);
  });

  test('shows as many nodes as the cluster has with every primary where OpenSearch puts it, and a real search’s shard times as chips with numbers and a rolling p50/p99', async ({ page }) => {
    // One page for both (a page load is the slow part under software WebGL).
    const nodes = (await catNodes(client)).map((n) => n.name).sort();
    const primaries = (await catShards(client)).filter((s) => s.prirep === 'p');
    const errors = await open(page, SF_LINK);
    await page.getByTestId('tab-nodes').click();
    await expect(page.getByTestId('nodes-count')).toHaveAttribute('data-count', String(nodes.length));
    for (const n of nodes) await expect(page.getByTestId(`nodes-col-${n}`)).toHaveAttribute('data-up', 'true');
    await expect(page.getByTestId('nodes-grid').locator('thead th[data-testid^="nodes-col-"]')).toHaveCount(nodes.length);
    for (const p of primaries) {
      const name = router.shards.find((s) => s.shard === Number(p.shard))!.name;
      await expect(page.getByTestId(`nodes-cell-${name}-${p.node}`).locator('.copy.primary')).toHaveCount(1);
    }
    // The globe is coloured by node while the view is shown, with one legend entry per node.
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-by', 'node');
    for (const n of nodes) await expect(page.getByTestId(`region-legend-node-${n}`)).toBeVisible();

    await liveOn(page);
    // Leaving the Nodes view gives the globe back its shard colours.
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-by', 'shard');
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    for (const s of sfRoute.shards) {
      const chip = page.getByTestId(`live-timing-chip-${s.name}`);
      await expect(chip).toHaveText(new RegExp(`^${s.name} \\d[\\d,]*(\\.\\d+)? ms$`));
      const ms = Number(await chip.getAttribute('data-ms'));
      expect(Number.isFinite(ms) && ms >= 0, `${s.name}: ${ms} ms`).toBe(true);
      // The node that answered is one OpenSearch lists.
      expect(nodes).toContain(await chip.getAttribute('data-node'));
      // One search: its routed and all-shards sides each timed the shard once.
      await expect(page.getByTestId(`live-latency-${s.name}`)).toHaveAttribute('data-n', '2');
    }
    // The globe coloured by latency has a legend with the fastest and slowest p50.
    await page.getByTestId('color-by-latency').click();
    const legend = page.getByTestId('region-legend-latency');
    await expect(legend).toBeVisible();
    expect(Number(await legend.getAttribute('data-min'))).toBeLessThanOrEqual(Number(await legend.getAttribute('data-max')));
    expect(errors).toEqual([]);
  });

  test('stopping a node marks the regions it held, the panel names it, and all is complete again once it is back', async ({ page }) => {
    test.skip(process.env.E2E_STOP_NODE !== '1', 'stopping and restarting a real node takes ~2.5 min: run with E2E_STOP_NODE=1 (the stubbed test below checks the marking on every run)');
    test.skip(!!process.env.OPENSEARCH_URL, 'OPENSEARCH_URL names an external cluster: this test stops a node of the local one');
    const nodes = (await catNodes(client)).map((n) => n.name);
    test.skip(nodes.length < 3 || !nodes.includes('geoshard-node-3'), `the cluster has ${nodes.length} node(s) (${nodes.join(', ')}): start it with --nodes 3`);
    const settings = await client.get<Record<string, { settings: { index: { number_of_replicas: string } } }>>(`/${file.index}/_settings`);
    const replicas = Number(Object.values(settings)[0].settings.index.number_of_replicas);
    test.skip(replicas !== 0, `index "${file.index}" has ${replicas} replica(s): this test checks the loss of primaries with no replica`);
    test.setTimeout(300_000);
    const lost = (await catShards(client)).filter((s) => s.node === 'geoshard-node-3').map((s) => Number(s.shard));
    expect(lost.length, 'node 3 holds some primaries').toBeGreaterThan(0);
    // Marked names in key order, as the page lists them.
    const lostNames = router.shards.filter((s) => lost.includes(s.shard)).map((s) => s.name);

    await open(page, '?location=none');
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    const run = (args: string[]) => promisify(execFile)('node', ['scripts/cluster.mjs', ...args], { cwd: ROOT, timeout: 240_000 });
    const t0 = Date.now();
    await run(['stop', '--node', '3']);
    try {
      await page.getByTestId('tab-nodes').click();
      await expect(page.getByTestId('nodes-col-geoshard-node-3')).toHaveAttribute('data-up', 'false', { timeout: 30_000 });
      for (const name of lostNames) await expect(page.getByTestId(`nodes-row-${name}`)).toHaveAttribute('data-health', 'none');
      await page.getByTestId('color-by-no-copy').click();
      await expect(page.getByTestId('region-paint')).toHaveAttribute('data-by', 'no-copy');
      // A new search (Live off and on): its shards on node 3 are missing, and the globe marks exactly those regions.
      await page.getByTestId('tab-live').click();
      await page.getByTestId('live-toggle').click();
      await liveOn(page);
      await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', /^(partial|unavailable)$/, { timeout: 30_000 });
      await expect(page.getByTestId('placement-note')).toHaveAttribute('data-nodes', 'geoshard-node-3');
      await expect(page.getByTestId('placement-note')).toContainText('geoshard-node-3');
      await expect(page.getByTestId('region-paint')).toHaveAttribute('data-marked', lostNames.join(','));
    } finally {
      const t1 = Date.now();
      await run(['start', '--node', '3']);
      await client.get('/_cluster/health', { query: { wait_for_status: 'green', timeout: '180s' }, timeoutMs: 190_000 });
      console.log(`node 3 stopped for the marks in ${((t1 - t0) / 1000).toFixed(1)} s; restarted and green in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    }
    // Back: the same search is complete and nothing is marked.
    await page.getByTestId('live-toggle').click();
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-marked', '');
  });
});

/** centrePixel reads the globe's centre pixel (sRGB bytes) after a few frames. */
async function centrePixel(page: Page): Promise<number[]> {
  return (await centreBlock(page, 1)).slice(0, 3);
}

/** Waits until the globe's centre pixel is `rgb`, each channel within 2 (the surface at the view's centre is unshaded). */
async function expectCentre(page: Page, rgb: readonly number[]): Promise<void> {
  await expect
    .poll(async () => Math.max(...(await centrePixel(page)).map((v, k) => Math.abs(v - rgb[k]))), { message: `the centre pixel should be ${rgb}` })
    .toBeLessThanOrEqual(2);
}

// ---------------------------------------------------------------------------
// Node loss with /api answered by the test, in the server's shapes (src/server/wire.ts).

const NODES3 = ['geoshard-node-1', 'geoshard-node-2', 'geoshard-node-3'];
/** Shard n's primary on node n % 3 (+1); the shards of `gone` nodes unassigned, or (promoted) their replica on the next node started as primary. */
function statusOf(gone: string | null, promoted = false) {
  const copies = router.shards
    .map((s) => s.shard)
    .sort((a, b) => a - b)
    .flatMap((n) => {
      const home = NODES3[n % 3];
      const next = NODES3[(n + 1) % 3];
      const at = (name: string) => ({ id: `id-${name}`, name });
      const name = router.shards.find((s) => s.shard === n)!.name;
      if (!promoted) return [home === gone ? { shard: n, name, primary: true, state: 'UNASSIGNED', node: null, docs: null } : { shard: n, name, primary: true, state: 'STARTED', node: at(home), docs: 600 }];
      if (home === gone)
        return [
          { shard: n, name, primary: true, state: 'STARTED', node: at(next), docs: 600 },
          { shard: n, name, primary: false, state: 'UNASSIGNED', node: null, docs: null },
        ];
      return [
        { shard: n, name, primary: true, state: 'STARTED', node: at(home), docs: 600 },
        { shard: n, name, primary: false, state: next === gone ? 'UNASSIGNED' : 'STARTED', node: next === gone ? null : at(next), docs: next === gone ? null : 600 },
      ];
    });
  return {
    connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'geoshard', version: '2.19.6', distribution: 'opensearch', health: gone ? (promoted ? 'yellow' : 'red') : 'green', nodes: gone ? 2 : 3 } },
    boundary: { file: 'data/boundaries.json', index: file.index, hash: file.hash, version: file.version, numberOfShards: router.numberOfShards, shards: [] },
    nodes: NODES3.map((name) => ({ id: `id-${name}`, name, roles: name === gone ? [] : ['data'], up: name !== gone })),
    index: { name: file.index, exists: true, docs: { restaurants: 1500, dishes: 7500, total: 9000 }, sample: null, shards: [], copies },
    drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash, indexVersion: 1, fileVersion: 1, message: '' },
    limits: {},
    vocabulary: {},
  };
}

/** A no-location search answer (every shard asked) where the shards of `gone` did not answer, or were served by promoted replicas. */
function searchOf(gone: string, promoted = false) {
  const lostShards = router.shards.filter((s) => NODES3[s.shard % 3] === gone);
  const asked = router.shards.map((s, i) => ({ index: i, name: s.name, shard: s.shard, cells: 0, status: !promoted && lostShards.includes(s) ? 'unavailable' : 'ok', reason: null }));
  const N = router.numberOfShards;
  const ok = promoted ? N : N - lostShards.length;
  const side = (scope: string) => ({
    scope,
    routing: null,
    shardsAsked: asked,
    partialReason: promoted ? null : `partial: ${ok} of ${N} shards answered`,
    took: 5,
    wallMs: 9,
    timedOut: false,
    total: 100,
    hits: [],
    facets: { diets: [], allergens: [], cuisines: [] },
    shards: { total: N, successful: ok, skipped: 0, failed: 0 },
    shardTimes: router.shards.filter((s) => promoted || !lostShards.includes(s)).map((s) => ({ shard: s.shard, name: s.name, node: NODES3[s.shard % 3], ms: 1 + s.shard })),
  });
  return {
    status: promoted ? 'complete' : 'partial',
    index: file.index,
    boundary: { hash: file.hash, version: 1, numberOfShards: N },
    query: { radiusKm: null },
    drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash },
    ...side('all-shards'),
    note: `no location: the search went to all ${N} shards`,
    unrouted: side('all-shards'),
    identical: true,
    differences: [],
    ratio: { shards: 1, took: 1, wall: 1 },
    placement: promoted
      ? { missing: [], lostNodes: [], promoted: lostShards.map((s) => ({ shard: s.shard, name: s.name, from: gone, to: NODES3[(s.shard + 1) % 3] })) }
      : { missing: lostShards.map((s) => ({ shard: s.shard, name: s.name, node: gone })), lostNodes: [gone], promoted: [] },
  };
}

test.describe('the Nodes view when a node is lost (API answered by the test)', () => {
  test('the globe colours the region under the view’s centre by its primary’s node, then red once no copy of it is started', async ({ page }) => {
    // The stubbed cluster puts shard n's primary on node n % 3 + 1; San Francisco's shard is expected there.
    const sf = router.route(37.7749, -122.4194);
    const home = NODES3[sf.shard % 3];
    let status: unknown = statusOf(null);
    await page.route('**/api/status', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(status) }));
    await open(page, '?lat=37.7749&lng=-122.4194&zoom=40&level=10&layers=shards');
    await page.getByTestId('tab-nodes').click();
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-by', 'node');
    await expect(page.getByTestId('nodes-count')).toHaveAttribute('data-count', '3');
    await expectCentre(page, toBytes(fromHex(NODE_PALETTE[sf.shard % 3])));
    status = statusOf(home);
    await expect(page.getByTestId(`nodes-row-${sf.name}`)).toHaveAttribute('data-health', 'none');
    await page.getByTestId('color-by-no-copy').click();
    await expectCentre(page, toBytes(fromHex(COPY_COLORS.none)));
  });

  test('a node that left is struck through, its regions have no started copy, and a search’s missing regions are marked with the node named', async ({ page }) => {
    let status: unknown = statusOf(null);
    await page.route('**/api/status', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(status) }));
    await page.route('**/api/search?*', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(searchOf('geoshard-node-3')) }));
    const lostNames = router.shards.filter((s) => s.shard % 3 === 2).map((s) => s.name);
    const errors = await open(page, '?location=none');
    await page.getByTestId('tab-nodes').click();
    await expect(page.getByTestId('nodes-count')).toHaveAttribute('data-count', '3');
    // Node 3 stops: the next poll (every 2 s) shows it.
    status = statusOf('geoshard-node-3');
    await expect(page.getByTestId('nodes-col-geoshard-node-3')).toHaveAttribute('data-up', 'false');
    await expect(page.getByTestId('nodes-count')).toHaveAttribute('data-count', '2');
    await expect(page.getByTestId('nodes-count')).toHaveAttribute('data-left', '1');
    for (const name of lostNames) await expect(page.getByTestId(`nodes-row-${name}`)).toHaveAttribute('data-health', 'none');
    await expect(page.getByTestId('nodes-col-unassigned')).toBeVisible();
    await page.getByTestId('color-by-no-copy').click();
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-by', 'no-copy');
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-marked', '');

    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'partial');
    await expect(page.getByTestId('placement-note')).toHaveAttribute('data-kind', 'lost');
    await expect(page.getByTestId('placement-note')).toContainText('geoshard-node-3');
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-marked', lostNames.join(','));
    // The Nodes view names the node too.
    await page.getByTestId('tab-nodes').click();
    await expect(page.getByTestId('placement-note')).toHaveAttribute('data-nodes', 'geoshard-node-3');
    await page.screenshot({ path: 'test-results/nodes-lost.png' });
    expect(errors).toEqual([]);
  });

  test('with a replica promoted the answer stays complete and the panel says the replica served it', async ({ page }) => {
    await page.route('**/api/status', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(statusOf('geoshard-node-3', true)) }));
    await page.route('**/api/search?*', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(searchOf('geoshard-node-3', true)) }));
    await open(page, '?location=none');
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete');
    await expect(page.getByTestId('placement-note')).toHaveAttribute('data-kind', 'promoted');
    await expect(page.getByTestId('placement-note')).toContainText('Served by the replica');
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-marked', '');
    await page.getByTestId('tab-nodes').click();
    // Every shard still has a started copy; those that lost a replica are degraded, none is without a copy.
    await expect(page.getByTestId('nodes-grid').locator('tr[data-health="none"]')).toHaveCount(0);
    await expect(page.getByTestId('nodes-grid').locator('tr[data-health="degraded"]')).not.toHaveCount(0);
  });

  for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }])
  test(`when the city changes the comparison leads the Live panel and stays in view at ${viewport.width}×${viewport.height} (issue 11)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.route('**/api/status', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(statusOf(null)) }));
    await page.route('**/api/search?*', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...searchOf('geoshard-node-3', true), placement: { missing: [], lostNodes: [], promoted: [] } }) }));
    await open(page, SF_LINK);
    // Another city first (a history entry), so going back changes the city while the Live panel stays open.
    await page.getByTestId('city-search').fill('philad');
    await page.getByTestId('city-search').press('Enter');
    await liveOn(page);
    await expect(page.getByTestId('live-search')).toContainText('Philadelphia');
    await expect(page.getByTestId('live-identical')).toBeVisible();
    // Scrolled to the end of a panel taller than its box (the dishes, the shard times)...
    const panel = page.locator('#panel-live');
    expect(await panel.evaluate((e) => e.scrollHeight > e.clientHeight + 100)).toBe(true);
    await panel.evaluate((e) => (e.scrollTop = e.scrollHeight));
    // ...the city changes: the verdict is in view.
    await page.goBack();
    await expect(page.getByTestId('live-search')).not.toContainText('Philadelphia');
    await expect(page.getByTestId('live-identical')).toBeInViewport();
  });
});
