/**
 * The geoshard plugin's per-cell traffic counters on the real 3-node cluster (issue 39: "with the
 * plugin, per-cell counts equal the pattern's coverings exactly"):
 *
 * - an index with the plugin's two pipelines (geo_routing for writes, geo_routing_search for
 *   searches), written and searched by a plain client that sends no routing;
 * - the pattern: circles of several sizes around three cities, a few searches that the plugin must
 *   not count (a client's own routing, `search_pipeline=_none`, no location clause), and writes
 *   at known points;
 * - expected counts come from the TypeScript core, the other implementation: per cell, the
 *   number of searches whose level-10 covering (routeShape) holds it, and the number of
 *   documents whose point lies in it (ordinalAt);
 * - GET /_plugins/geoshard/traffic/<alias> (merged over the three nodes) equals them exactly, and
 *   the recorder writes the same counts into the history as the interval's per-cell record.
 *
 * Skips (saying why) on a cluster without the plugin on every node: start one with
 * `node scripts/cluster.mjs start --plugin` (npm test does).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Client } from '@opensearch-project/opensearch';
import { Router } from '../../core/index.ts';
import { cellToken, cellFromOrdinal, ordinalAt } from '../../core/cells.ts';
import { routeShape } from '../../core/shapeRoute.ts';
import { trafficRangesOf } from '../../core/traffic.ts';
import { mulberry32 } from '../../core/prng.ts';
import { restaurantSource } from '../../opensearch/sampleDocuments.ts';
import { geoDistanceFilter } from '../../opensearch/routedSearch.ts';
import { SAMPLE_CONFIG } from '../../opensearch/indexConfig.ts';
import { derivedFile, ensureSeeded, liveClient } from '../../testing/testkit.ts';
import { installPipeline } from '../routing/pipelineInstall.ts';
import { installSearchPipeline } from '../routing/searchPipelineInstall.ts';
import { readCellCounters, type CellCounts } from './cellCounters.ts';
import { TrafficSampler } from './sampler.ts';
import { recordId } from './history.ts';

const INDEX = 'gs-cells-live';
const HISTORY = 'gs-cells-history-live';
const INTERVAL_S = 30;
const client = liveClient();
const file = derivedFile(INDEX);
const router = new Router(file);
let skip = '';
let os: Client;

const CITIES = [
  { lat: 37.7749, lng: -122.4194 },
  { lat: 41.8781, lng: -87.6298 },
  { lat: 40.7128, lng: -74.006 },
];

/** The pattern the test sends, and what the core says each part touches. */
const expected = { searches: 0, writes: 0, searchCells: new Map<string, number>(), writeCells: new Map<string, number>() };
let windowStart = 0;

const add = (m: Map<string, number>, token: string) => m.set(token, (m.get(token) ?? 0) + 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const plugins = await client.request<{ name: string; component: string }[]>('GET', '/_cat/plugins', { query: { format: 'json' } });
  const nodes = await client.request<unknown[]>('GET', '/_cat/nodes', { query: { format: 'json', h: 'name' } });
  const with_ = new Set(plugins.body.filter((p) => p.component === 'geoshard').map((p) => p.name));
  if (with_.size === 0 || with_.size < nodes.body.length) {
    skip = `the cluster at ${client.url} does not run the geoshard plugin on every node (start it with "node scripts/cluster.mjs start --plugin")`;
    return;
  }
  await ensureSeeded(client, file, 60, 1);
  await installPipeline(client, INDEX, file, null, undefined, undefined, 'plugin');
  await installSearchPipeline(client, INDEX);
  await client.request('DELETE', `/${HISTORY}`, { okStatuses: [404] });
  os = new Client({ node: client.config.url, ...(client.config.auth ? { auth: client.config.auth } : {}) });

  // The counters keep one-second slots: the pattern runs inside one recorder interval, so that
  // the recorder's read of [windowStart, windowStart + INTERVAL_S) holds all of it.
  const into = Date.now() % (INTERVAL_S * 1000);
  if (into > (INTERVAL_S * 1000) / 2) await sleep(INTERVAL_S * 1000 - into + 100);
  windowStart = Date.now() - (Date.now() % (INTERVAL_S * 1000));

  // "Small traffic": each node's summary of a second is exact while that second touches at most
  // its capacity (256) of distinct cells. The searches all reach one node; a search whose
  // covering would bring the client's current second past 120 distinct cells waits for the next
  // second (the node's second may take in the end of the client's one before: 240 at most).
  const rand = mulberry32(3901);
  let second = -1;
  const inSecond = new Set<number>();
  for (let k = 0; k < 24; k++) {
    const c = CITIES[k % CITIES.length];
    const lat = c.lat + (rand() - 0.5) * 0.5;
    const lng = c.lng + (rand() - 0.5) * 0.5;
    const radiusKm = [0.5, 3, 12, 25][k % 4];
    const route = routeShape(router, { kind: 'circle', lat, lng, radiusKm });
    if (Math.floor(Date.now() / 1000) !== second || inSecond.size + route.ordinals.length > 120) {
      if (Math.floor(Date.now() / 1000) === second) await sleep(1000 - (Date.now() % 1000) + 5);
      second = Math.floor(Date.now() / 1000);
      inSecond.clear();
    }
    for (const o of route.ordinals) inSecond.add(o);
    const r = await os.search({ index: INDEX, body: { size: 0, query: { bool: { filter: [geoDistanceFilter(SAMPLE_CONFIG, { lat, lng, radiusKm })] } } } });
    const g = (r.body as { ext?: { geoshard?: { routed: boolean; cells: number; reason: string | null } } }).ext?.geoshard;
    expect(g?.routed, `search ${k}: ${g?.reason}`).toBe(true);
    expect(g?.cells, `search ${k}: the plugin's covering and the core's`).toBe(route.ordinals.length);
    for (const o of route.ordinals) add(expected.searchCells, cellToken(cellFromOrdinal(o)));
    expected.searches++;
  }
  // Not narrowed by the plugin, so not counted: the client's own routing, no pipeline, no location.
  const c0 = CITIES[0];
  const own = router.cover(c0.lat, c0.lng, 5);
  await os.search({ index: INDEX, routing: own.routing, body: { size: 0, query: geoDistanceFilter(SAMPLE_CONFIG, { lat: c0.lat, lng: c0.lng, radiusKm: 5 }) } });
  await os.search({ index: INDEX, search_pipeline: '_none', body: { size: 0, query: geoDistanceFilter(SAMPLE_CONFIG, { lat: c0.lat, lng: c0.lng, radiusKm: 5 }) } } as never);
  await os.search({ index: INDEX, body: { size: 0, query: { match_all: {} } } });
  // Writes with no routing: geo_routing places each in its point's cell.
  for (let k = 0; k < 18; k++) {
    const c = CITIES[k % CITIES.length];
    const lat = c.lat + (rand() - 0.5) * 0.3;
    const lng = c.lng + (rand() - 0.5) * 0.3;
    const id = `cells-live-${k}`;
    const doc = restaurantSource({ id, name: `Cells ${id}`, lat, lng }, 'unset');
    await os.index({ index: INDEX, id, body: doc });
    add(expected.writeCells, cellToken(cellFromOrdinal(ordinalAt(lat, lng))));
    expected.writes++;
  }
  if (Date.now() >= windowStart + INTERVAL_S * 1000) throw new Error(`the pattern took longer than the ${INTERVAL_S} s interval it must fit in: the machine is too slow for this test's timing`);
}, 120_000);

afterAll(async () => {
  if (!skip && process.env.GEOSHARD_KEEP !== '1') await client.request('DELETE', `/${HISTORY}`, { okStatuses: [404] });
  await os?.close();
});

const bySearches = (c: CellCounts) => new Map(c.counts.filter((x) => x.searches > 0).map((x) => [x.cell, x.searches]));
const byWrites = (c: CellCounts) => new Map(c.counts.filter((x) => x.writes > 0).map((x) => [x.cell, x.writes]));
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));

describe('the plugin counts the cells of what it routes', () => {
  it('counts, merged over every node, equal the core’s coverings of the searches and the cells of the writes, exactly', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const read = await readCellCounters(client, INDEX, windowStart, windowStart + INTERVAL_S * 1000);
    expect(read.status).toBe('read');
    if (read.status !== 'read') return;
    expect(read.failedNodes).toBe(0);
    const c = read.counts;
    expect(c.searches).toBe(expected.searches);
    expect(c.writes).toBe(expected.writes);
    expect(c.exact).toBe(true);
    expect(c.maxError).toEqual({ searches: 0, writes: 0 });
    expect(sorted(bySearches(c))).toEqual(sorted(expected.searchCells));
    expect(sorted(byWrites(c))).toEqual(sorted(expected.writeCells));
    // A window before the pattern holds none of it.
    const before = await readCellCounters(client, INDEX, windowStart - 5000, windowStart);
    expect(before.status === 'read' && before.counts.searches).toBe(0);
  });

  it('refuses a window it cannot read, naming the parameter, and an index that does not exist', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const bad = await client.request<{ error: { reason: string } }>('GET', `/_plugins/geoshard/traffic/${INDEX}`, { query: { from: 'yesterday', to: 1 }, okStatuses: [400] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reason).toMatch(/\bfrom\b.*yesterday/);
    const size = await client.request<{ error: { reason: string } }>('GET', `/_plugins/geoshard/traffic/${INDEX}`, { query: { from: 0, to: 1000, size: 0 }, okStatuses: [400] });
    expect(size.body.error.reason).toMatch(/\bsize\b/);
    const none = await client.request<{ error: { type: string } }>('GET', '/_plugins/geoshard/traffic/gs-no-such-index', { query: { from: 0, to: 1000 }, okStatuses: [404] });
    expect(none.status).toBe(404);
    expect(none.body.error.type).toBe('index_not_found_exception');
  });

  it('the recorder writes the interval’s per-cell counts into the history beside its engine sample', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // The recorder's clock at the end of the interval: it samples the shards and reads the
    // plugin's counts of the interval before that moment (the pattern's).
    const at = windowStart + INTERVAL_S * 1000 + 200;
    const sampler = new TrafficSampler({ client, historyIndex: HISTORY, intervalSeconds: INTERVAL_S, retentionDays: 1, now: () => at, target: async () => ({ index: INDEX, hash: file.hash, ranges: trafficRangesOf(router) }) });
    const o = await sampler.sampleOnce();
    expect(o.status, JSON.stringify(o)).toBe('recorded');
    if (o.status !== 'recorded') return;
    expect(o.cells.status, JSON.stringify(o.cells)).toBe('recorded');
    expect(sampler.status().cells).toBe('recorded (exact)');
    await client.request('POST', `/${HISTORY}/_refresh`);
    const doc = await client.request<{ _source: { source: string; start: number; cells: CellCounts } }>('GET', `/${HISTORY}/_doc/${encodeURIComponent(recordId('cells', INDEX, windowStart))}`);
    expect(doc.body._source.source).toBe('cells');
    expect(doc.body._source.start).toBe(windowStart);
    expect(sorted(bySearches(doc.body._source.cells))).toEqual(sorted(expected.searchCells));
    expect(sorted(byWrites(doc.body._source.cells))).toEqual(sorted(expected.writeCells));
  });
});
