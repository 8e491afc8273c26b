/**
 * `geoshard explore` on a team's own index, in Debian's Chromium (issue 22's places path): the
 * flat `places` index -> `geoshard cells --from-index places --field geo` -> `geoshard balance` ->
 * a geosharded copy (`exp-places`, e2e/placesPath.ts) -> `geoshard explore` on those files, on a
 * port of its own (EXPLORE_PORT, default 5273; other specs use 5199). Expected values come from
 * the routing core, given the boundary file the CLI wrote (src/core, read here), and from
 * OpenSearch itself (a plain `_count` written here), never from the page. Skips, saying why,
 * only when no OpenSearch node answers.
 */
import { test, expect, type Page } from '@playwright/test';
import { Router, parseRadius, parseToken, cellCenter, type BoundaryFile } from '../src/core/index.ts';
import { formatShardCount } from '../src/core/searches.ts';
import { CELLS, BOUNDARIES, SOURCE_BOUNDARIES, SOURCE_INDEX, GEO_INDEX, FIELD, OpenSearchClient, configFromEnv, count, preparePlaces, reachable, startExplore, type Explore } from './placesPath.ts';
import { liveOn } from './explorer.ts';

const PORT = Number(process.env.EXPLORE_PORT ?? 5273);

test.describe.configure({ mode: 'serial' });

let client: OpenSearchClient;
let file: BoundaryFile;
let sourceFile: BoundaryFile;
let router: Router;
let docs = 0;
let server: Explore | null = null;

test.beforeAll(async () => {
  test.setTimeout(900_000);
  client = new OpenSearchClient(configFromEnv());
  const why = await reachable(client);
  test.skip(why !== null, why ?? '');
  ({ file, sourceFile, docs } = await preparePlaces(client));
  router = new Router(file);
  server = await startExplore(client, ['--boundaries', BOUNDARIES, '--cells', CELLS, '--field', FIELD], PORT);
});

test.afterAll(async () => {
  await server?.stop();
  await client?.close();
});

/** Opens the explore server's page at `query` and waits for its first frame; returns the page's errors. */
async function open(page: Page, query = '', base = server!.url): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(base + query);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return errors;
}

/** The covering the core computes for a circle, with this boundary file. */
function expected(lat: number, lng: number, radius: string) {
  const r = router.cover(lat, lng, parseRadius(radius).km);
  return { cells: r.ordinals.length, shardCount: formatShardCount(r.shards.length, router.numberOfShards), routing: r.routing, shards: r.shards };
}

/** World cities (static), and a search on the boundary between the first two shards (the centre of boundaries[0]'s cell, known once the file is balanced). */
const CITIES = [
  { name: 'Paris', lat: 48.8566, lng: 2.3522, radius: '30mi' },
  { name: 'Lagos', lat: 6.4541, lng: 3.3947, radius: '40km' },
  { name: 'Tokyo', lat: 35.6895, lng: 139.6917, radius: '25mi' },
];
const EDGE = 'the first boundary';
function search(name: string): { name: string; lat: number; lng: number; radius: string } {
  if (name !== EDGE) return CITIES.find((c) => c.name === name)!;
  const edge = cellCenter(parseToken(file.boundaries[0]));
  return { name: `${EDGE} (${file.boundaries[0]})`, lat: Number(edge.lat.toFixed(4)), lng: Number(edge.lng.toFixed(4)), radius: '60km' };
}

test('the cells file counts every document of the index once, and the explorer opens the files explore serves, naming the index', async ({ page }) => {
  test.setTimeout(180_000);
  // The CLI's cells file against OpenSearch's own count of the source index.
  expect(docs).toBe(await count(client, SOURCE_INDEX));
  expect(await count(client, GEO_INDEX)).toBe(docs);
  expect(server!.out).toContain(`index ${GEO_INDEX}, ${file.numberOfShards} shards, hash ${file.hash.slice(0, 12)}`);
  expect(server!.out).toContain(`${docs.toLocaleString('en-US')} documents)`);
  const errors = await open(page);
  const info = page.getByTestId('file-info');
  await expect(info).toContainText(`index ${GEO_INDEX}`);
  await expect(info).toContainText(file.hash.slice(0, 10));
  await expect(info).toContainText('places.boundaries.json');
  // The index bar: one segment per shard of this file, in key order; widths are its documents.
  // (It loads after the globe's first frame: wait for its segments before reading them.)
  await expect(page.getByTestId('shard-bar').locator(':scope > *')).toHaveCount(router.shards.length);
  const bar = await page.getByTestId('shard-bar').locator(':scope > *').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.shard));
  expect(bar).toEqual(router.shards.map((s) => s.name));
  await expect(page.locator('body')).toContainText('width ∝ documents');
  // The ribbon's density is this cells file's (token,docs).
  await expect(page.getByTestId('ribbon')).toContainText('density: documents per cell (log)');
  expect(errors).toEqual([]);
});

for (const name of [...CITIES.map((c) => c.name), EDGE]) {
  test(`a search link at ${name} shows the cells, the shard count and the routing string the core computes for this boundary file`, async ({ page }) => {
    test.setTimeout(180_000);
    const s = search(name);
    const want = expected(s.lat, s.lng, s.radius);
    if (name === EDGE) expect(want.shards.length, 'a search across the first boundary asks two shards or more').toBeGreaterThan(1);
    const errors = await open(page, `?lat=${s.lat}&lng=${s.lng}&radius=${s.radius}`);
    await expect(page.getByTestId('cell-count')).toHaveText(String(want.cells));
    await expect(page.getByTestId('shard-count')).toHaveText(want.shardCount);
    await expect(page.getByTestId('routing')).toHaveText(want.routing);
    const asked = new Set(want.routing.split(','));
    const bar = await page.getByTestId('shard-bar').locator(':scope > *').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.shard, (e as HTMLElement).dataset.asked]));
    expect(bar).toEqual(router.shards.map((x) => [x.name, String(asked.has(x.name))]));
    expect(errors).toEqual([]);
  });
}

for (const name of ['Paris', EDGE]) {
  test(`live at ${name}: the routed search asks the core’s shards, all shards give the identical answer, and the total is OpenSearch’s own count`, async ({ page }) => {
    test.setTimeout(180_000);
    const s = search(name);
    const want = expected(s.lat, s.lng, s.radius);
    await open(page, `?lat=${s.lat}&lng=${s.lng}&radius=${s.radius}`);
    await liveOn(page);
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'up');
    await expect(page.getByTestId('live-status')).toContainText(file.hash.slice(0, 12));
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    await expect(page.getByTestId('live-routed-routing')).toHaveText(want.routing);
    await expect(page.getByTestId('live-routed-shards')).toHaveText(want.shardCount);
    await expect(page.getByTestId('live-unrouted-shards')).toHaveText(formatShardCount(router.numberOfShards, router.numberOfShards));
    await expect(page.getByTestId('live-routing-match')).toHaveAttribute('data-match', 'true');
    await expect(page.getByTestId('live-identical')).toHaveAttribute('data-identical', 'true');
    const total = await count(client, GEO_INDEX, { geo_distance: { distance: `${parseRadius(s.radius).km * 1000}m`, [FIELD]: { lat: s.lat, lon: s.lng } } });
    expect(total, 'places in the circle').toBeGreaterThan(0);
    const shown = async (id: string) => Number((await page.getByTestId(id).textContent())!.replace(/,/g, ''));
    expect(await shown('live-routed-total')).toBe(total);
    expect(await shown('live-unrouted-total')).toBe(total);
    // The panel lists documents (not the sample's dishes), each on a shard the routed search asked.
    await expect(page.getByTestId('live-identical')).toContainText(`same ${total.toLocaleString('en-US')} documents`);
    await expect(page.getByTestId('live-hits')).toHaveAttribute('data-count', String(Math.min(20, total)));
    const routings = await page.getByTestId('live-hit').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.routing));
    const asked = new Set(want.shards.map((x) => x.name));
    expect(routings.every((r) => asked.has(r!)), `every document found lives on a routed shard: ${routings.join(',')}`).toBe(true);
    await expect(page.getByTestId('live-facets')).toHaveCount(0);
  });
}

test('an index not written with its boundary file (the flat source) opens from the files, and its live searches are refused saying to run geoshard reindex', async ({ page }) => {
  test.setTimeout(300_000);
  const flat = await startExplore(client, ['--boundaries', SOURCE_BOUNDARIES, '--cells', CELLS, '--field', FIELD], PORT + 1);
  try {
    // Said before the URL is printed.
    expect(flat.err()).toMatch(/live searches will be refused: .*geoshard reindex/);
    const s = search('Paris');
    const want = new Router(sourceFile).cover(s.lat, s.lng, parseRadius(s.radius).km);
    await open(page, `?lat=${s.lat}&lng=${s.lng}&radius=${s.radius}`, flat.url);
    await expect(page.getByTestId('file-info')).toContainText(`index ${SOURCE_INDEX}`);
    await expect(page.getByTestId('routing')).toHaveText(want.routing);
    await liveOn(page);
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'no-meta');
    await expect(page.getByTestId('live-status')).toContainText('geoshard reindex');
    await expect(page.getByTestId('live-routed')).toHaveCount(0);
    // The API refuses the search itself, never answers it routed.
    const res = await fetch(`${flat.url}api/search?lat=${s.lat}&lng=${s.lng}&radius=${s.radius}`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { status: string }).status).toBe('drift');
  } finally {
    await flat.stop();
  }
});

test('with the team\'s config: the Live panel shows the config\'s facets with OpenSearch\'s own counts, and Measure runs the team\'s index and query', async ({ page }) => {
  test.setTimeout(300_000);
  const { writeFileSync, mkdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { WORK } = await import('./placesPath.ts');
  mkdirSync(WORK, { recursive: true });
  const configPath = join(WORK, 'places.config.json');
  writeFileSync(configPath, JSON.stringify({ index: GEO_INDEX, location: FIELD, name: 'name', facets: ['country'] }));
  const withConfig = await startExplore(client, ['--boundaries', BOUNDARIES, '--cells', CELLS, '--config', configPath], PORT + 2);
  try {
    const s = search('Paris');
    await open(page, `?lat=${s.lat}&lng=${s.lng}&radius=${s.radius}`, withConfig.url);
    await liveOn(page);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
    // The sample's filters are not offered; the config's facet is, with the counts OpenSearch itself gives for the circle.
    await expect(page.getByTestId('live-facets')).toHaveCount(0);
    const group = page.getByTestId('live-field-facet-country');
    await expect(group).toBeVisible();
    const shown = await group.getByTestId('live-field-value').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.value, Number((e as HTMLElement).dataset.count)]));
    const agg = await client.request<{ aggregations: { c: { buckets: { key: string; doc_count: number }[] } } }>('POST', `/${GEO_INDEX}/_search`, {
      body: { size: 0, query: { geo_distance: { distance: `${parseRadius(s.radius).km * 1000}m`, [FIELD]: { lat: s.lat, lon: s.lng } } }, aggs: { c: { terms: { field: 'country', size: 50 } } } },
    });
    const want = agg.body.aggregations.c.buckets.map((b) => [b.key, b.doc_count]).sort((a, b) => (b[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b[0])));
    expect(want.length).toBeGreaterThan(0);
    expect(shown).toEqual(want);
    // Measure: the same search of the team's index, routed against every shard, figures beside their baseline.
    await page.getByTestId('live-measure-button').click();
    await expect(page.getByTestId('live-measure')).toHaveAttribute('data-phase', 'done', { timeout: 240_000 });
    await expect(page.getByTestId('live-measure-identical')).toHaveAttribute('data-identical', 'true');
    await expect(page.getByTestId('live-measure-row-p50')).toBeVisible();
  } finally {
    await withConfig.stop();
  }
});
