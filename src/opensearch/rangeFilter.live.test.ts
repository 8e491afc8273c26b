/**
 * The range filter (rangeFilter.ts) on a real node, where it matters: documents on and a hair
 * either side of the edges and corners of the cells of a moving range, whose stored geo_point
 * (rounded down to ~1 cm) cannot say which cell the routing pipeline placed them in.
 *
 *   1. The filter selects exactly the documents the Painless routing pipeline placed in a range
 *      (the core's ordinalAt of the exact point), for the moving range and its neighbours on
 *      the curve: what `geoshard migrate`'s copy, checks and delete select a range with.
 *   2. Mid-move, with the range on both owners (the copies written as the executor writes
 *      them), at every step: routedRequest (the client's routing and exclusions) and the
 *      plugin's geo_routing_search (no routing, the index's default search pipeline) answer
 *      each document once, the same set as every shard with duplicates removed
 *      (`search_pipeline=_none`); with routedRequest's exclusions a search without a location
 *      counts every document once (the plugin leaves such a search as it is).
 *
 * Expected values come from the core (s2js ordinalAt of each document's exact point) and from
 * the all-shards search of the same query; the documents' stored points are computed as
 * Lucene's GeoEncodingUtils rounds them, to count how many are ambiguous (the test insists on
 * many). The plugin part skips, saying why, on a cluster without the plugin.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Client } from '@opensearch-project/opensearch';
import { s2 } from 's2js';
import { Router } from '../core/router.ts';
import { cellFromOrdinal, cellToken, cellVertices, cellCenter, ordinalAt, CELL_COUNT, type LatLng } from '../core/cells.ts';
import { quantizedCellAt } from '../core/audit.ts';
import { mulberry32 } from '../core/prng.ts';
import { EARTH_RADIUS_KM } from '../core/earth.ts';
import { plan } from '../core/plan.ts';
import { advance, intermediateFile, startState, MOVE_STEPS, type MigrationState } from '../core/migrationState.ts';
import { withHash, type BoundaryFile } from '../core/boundaries.ts';
import { derivedFile } from '../testing/testkit.ts';
import { indexMeta } from './indexSpec.ts';
import { routingPipeline, pipelineId, type PipelineFields } from './routingPipeline.ts';
import { cellRangeFilter, type CellRange } from './rangeFilter.ts';
import { routedRequest } from './routedSearch.ts';

const URL_ = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const client = new Client({ node: URL_ });
const INDEX = 'gs-range-edges';
const SEARCH_PIPELINE = 'gs-range-edges-route';
const FIELDS: PipelineFields = { location: 'pos', childLocation: null, stamp: false };
const file = derivedFile(INDEX);
const base = new Router(file);
/** The moving range: the first MOVED cells of the shard holding New York move to the shard before it. */
const MOVED = 64;
let plugin = '';

type Body = Record<string, any>;
async function req(method: string, path: string, body?: unknown, querystring?: Record<string, string>): Promise<{ statusCode: number; body: any }> {
  const r = await client.transport.request({ method, path, body: body as Body, querystring }, { ignore: [400, 404] });
  return { statusCode: r.statusCode ?? 0, body: r.body };
}

/** Lucene's stored point (GeoEncodingUtils: rounded down to 180/2^32° of latitude and 360/2^32° of longitude). */
function stored(lat: number, lng: number): LatLng {
  const LAT = 180 / 2 ** 32;
  const LNG = 360 / 2 ** 32;
  const la = lat === 90 ? 90 - Number.EPSILON * 64 : lat;
  const lo = lng === 180 ? 180 - Number.EPSILON * 128 : lng;
  return { lat: Math.floor(la / LAT) * LAT, lng: Math.floor(lo / LNG) * LNG };
}

// The move: boundary ny-1 (the start of New York's shard) forward by MOVED cells.
const nyShard = base.indexOfOrdinal(ordinalAt(40.7, -74));
const lo = base.starts[nyShard];
const hi = lo + MOVED;
const boundaries = [...file.boundaries];
boundaries[nyShard - 1] = cellToken(cellFromOrdinal(hi));
const { hash: _h, ...rest } = file;
const candidate: BoundaryFile = withHash({ ...rest, version: 2, parent: file.hash, boundaries });
const moving: CellRange = { start: cellToken(cellFromOrdinal(lo)), end: cellToken(cellFromOrdinal(hi)) };

/** Documents on the vertices and edge midpoints of the range's cells and the cells around them, exactly and a hair either side, in the three forms the pipeline reads; and points inside the cells. */
function documents(): { id: string; pos: unknown; lat: number; lng: number }[] {
  const rand = mulberry32(38);
  const seen = new Set<string>();
  const out: { id: string; pos: unknown; lat: number; lng: number }[] = [];
  const add = (lat: number, lng: number) => {
    const key = `${lat},${lng}`;
    if (seen.has(key)) return;
    seen.add(key);
    const n = out.length;
    const pos = n % 3 === 0 ? { lat, lon: lng } : n % 3 === 1 ? `${lat},${lng}` : [lng, lat];
    out.push({ id: `e${n}`, pos, lat, lng });
  };
  const hair = [0, 1e-9, -1e-9, 3e-8, -3e-8];
  // The range's cells and the MOVED cells either side of it on the curve (its neighbours in space include some of them).
  for (let o = lo - MOVED; o < hi + MOVED; o++) {
    const vs = cellVertices(cellFromOrdinal(o));
    const points = [...vs, ...vs.map((v, k) => ({ lat: (v.lat + vs[(k + 1) % 4].lat) / 2, lng: (v.lng + vs[(k + 1) % 4].lng) / 2 }))];
    for (const p of points) {
      const d = hair[Math.floor(rand() * hair.length)];
      const e = hair[Math.floor(rand() * hair.length)];
      add(p.lat + d, p.lng + e);
    }
    const c = cellCenter(cellFromOrdinal(o));
    add(c.lat + (rand() - 0.5) * 0.05, c.lng + (rand() - 0.5) * 0.05);
  }
  return out;
}
const docs = documents();
const inRange = (d: { lat: number; lng: number }, r: { lo: number; hi: number }) => {
  const o = ordinalAt(d.lat, d.lng);
  return o >= r.lo && o < r.hi;
};
/** Documents whose stored point straddles a cell edge: the cell is known only from _source. */
const ambiguous = docs.filter((d) => {
  const s = stored(d.lat, d.lng);
  return quantizedCellAt(s.lat, s.lng) === null;
});

/** Every hit of a search (size 10,000 is above the documents here), ids sorted (a document answered twice appears twice). */
async function ids(body: Body, querystring: Record<string, string>): Promise<{ ids: string[]; total: number; shards: number; geoshard: any }> {
  const r = await req('POST', `/${INDEX}/_search`, { size: 10_000, track_total_hits: true, ...body }, querystring);
  expect(r.statusCode, JSON.stringify(r.body).slice(0, 600)).toBe(200);
  expect(r.body._shards.failed, JSON.stringify(r.body._shards)).toBe(0);
  return { ids: r.body.hits.hits.map((h: { _id: string }) => h._id).sort(), total: r.body.hits.total.value, shards: r.body._shards.total, geoshard: r.body.ext?.geoshard };
}

async function writeMeta(state: MigrationState | null): Promise<void> {
  const r = await req('PUT', `/${INDEX}/_mapping`, { _meta: { ...indexMeta(file), fields: FIELDS, ...(state ? { migration: state } : {}) } });
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
}

beforeAll(async () => {
  const plugins = await req('GET', '/_cat/plugins', undefined, { format: 'json' });
  const nodes = new Set((plugins.body as { name: string; component: string }[]).filter((p) => p.component === 'geoshard').map((p) => p.name));
  const all = await req('GET', '/_cat/nodes', undefined, { format: 'json', h: 'name' });
  if (nodes.size === 0 || nodes.size < (all.body as unknown[]).length) plugin = `the cluster at ${URL_} does not run the geoshard plugin on every node (start it with "node scripts/cluster.mjs start --plugin")`;
  await req('DELETE', `/${INDEX}`);
  const pipe = await req('PUT', `/_ingest/pipeline/${pipelineId(INDEX)}`, routingPipeline(file, null, INDEX, FIELDS));
  expect(pipe.statusCode, JSON.stringify(pipe.body)).toBe(200);
  if (!plugin) {
    const sp = await req('PUT', `/_search/pipeline/${SEARCH_PIPELINE}`, { request_processors: [{ geo_routing_search: { hash: file.hash } }], response_processors: [{ geo_routing_report: {} }] });
    expect(sp.statusCode, JSON.stringify(sp.body)).toBe(200);
  }
  const created = await req('PUT', `/${INDEX}`, {
    settings: { number_of_shards: file.numberOfShards, number_of_replicas: 0, 'index.default_pipeline': pipelineId(INDEX), ...(plugin ? {} : { 'index.search.default_pipeline': SEARCH_PIPELINE }) },
    mappings: { _routing: { required: true }, dynamic: 'strict', properties: { pos: { type: 'geo_point' } }, _meta: { ...indexMeta(file), fields: FIELDS } },
  });
  expect(created.statusCode, JSON.stringify(created.body)).toBe(200);
  // Written without routing: the Painless pipeline places each document by its exact point.
  const lines = docs.flatMap((d) => [JSON.stringify({ index: { _index: INDEX, _id: d.id } }), JSON.stringify({ pos: d.pos })]);
  const w = await client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: lines, querystring: { refresh: 'true' } });
  expect((w.body as { errors: boolean }).errors, JSON.stringify(w.body).slice(0, 500)).toBe(false);
}, 300_000);

afterAll(async () => {
  if (process.env.GEOSHARD_KEEP !== '1') {
    await req('DELETE', `/${INDEX}`);
    await req('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`);
    if (!plugin) await req('DELETE', `/_search/pipeline/${SEARCH_PIPELINE}`);
  }
  await client.close();
});

/** What the plugin answered at each step (the second test checks it). */
const pluginAnswers: { step: string; want: string[]; got: Awaited<ReturnType<typeof ids>>; all: Awaited<ReturnType<typeof ids>> }[] = [];

describe('the range filter on documents at cell edges', () => {
  it('selects exactly the documents the routing pipeline placed in a range, those whose stored point straddles a cell edge included', async () => {
    // The fixture exercises what it is for: many documents the doc values cannot place.
    expect(ambiguous.length, `${ambiguous.length} of ${docs.length} documents straddle a cell edge`).toBeGreaterThan(200);
    expect(ambiguous.filter((d) => inRange(d, { lo, hi })).length).toBeGreaterThan(20);
    const ranges = [
      { label: 'the moving range', lo, hi },
      { label: 'the cells before it', lo: lo - MOVED, hi: lo },
      { label: 'the cells after it', lo: hi, hi: hi + MOVED },
      { label: 'one cell', lo: lo + 5, hi: lo + 6 },
    ];
    for (const r of ranges) {
      const range = { start: cellToken(cellFromOrdinal(r.lo)), end: r.hi >= CELL_COUNT ? null : cellToken(cellFromOrdinal(r.hi)) };
      const want = docs.filter((d) => inRange(d, r)).map((d) => d.id).sort();
      expect(want.length, r.label).toBeGreaterThan(0);
      // Every shard, as the filter's users ask it with a routing (the documents of a range can lie on two owners here).
      const got = await ids({ query: { bool: { filter: [cellRangeFilter({ ...FIELDS, stamp: false }, range)] } } }, { search_pipeline: '_none' });
      const missing = want.filter((id) => !got.ids.includes(id));
      const extra = got.ids.filter((id) => !want.includes(id));
      expect({ missing: missing.slice(0, 5), extra: extra.slice(0, 5), n: got.ids.length }, r.label).toEqual({ missing: [], extra: [], n: want.length });
    }
  });

  it('answers each document once at every step of a move: routedRequest, against every shard', async () => {
    const p = plan(file, candidate, []);
    expect(p.moves.length).toBe(1);
    expect([p.moves[0].startOrdinal, p.moves[0].endOrdinal]).toEqual([lo, hi]);
    const move = p.moves[0];
    // The copies, as the executor writes them: every document of the range on the new owner, around the pipeline.
    const copies = docs.filter((d) => inRange(d, { lo, hi }));
    const lines = copies.flatMap((d) => [JSON.stringify({ index: { _index: INDEX, _id: d.id, routing: move.to } }), JSON.stringify({ pos: d.pos })]);
    let state = startState(file, candidate, p.moves, '2026-12-01T00:00:00.000Z');
    await writeMeta(state);
    const w = await client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: lines, querystring: { refresh: 'true', pipeline: '_none' } });
    expect((w.body as { errors: boolean }).errors).toBe(false);
    // A circle over the range and its neighbours, and a box over the range's corner cells.
    const centre = cellCenter(cellFromOrdinal(lo + MOVED / 2));
    const far = Math.max(...docs.map((d) => s2.Point.fromLatLng(s2.LatLng.fromDegrees(centre.lat, centre.lng)).vector.angle(s2.Point.fromLatLng(s2.LatLng.fromDegrees(d.lat, d.lng)).vector)));
    const circle = { lat: centre.lat, lng: centre.lng, radiusKm: Math.min(900, far * EARTH_RADIUS_KM * 0.6) };
    const geo = { geo_distance: { distance: `${circle.radiusKm * 1000}m`, pos: { lat: circle.lat, lon: circle.lng } } };
    const checked: string[] = [];
    for (const to of MOVE_STEPS.slice(1, 7)) {
      state = advance(state, 0, to, '2026-12-01T00:00:00.000Z', to === 'verified' ? { verified: { from: { restaurants: copies.length, dishes: 0 }, to: { restaurants: copies.length, dishes: 0 } } } : {});
      await writeMeta(state);
      const router = new Router(intermediateFile(file, state));
      // Every shard, without exclusions: both copies of the range; as a set, the answer.
      const everyShard = await ids({ query: geo }, { search_pipeline: '_none' });
      const want = [...new Set(everyShard.ids)].sort();
      expect(everyShard.ids.length, `${to}: the range is on both owners`).toBeGreaterThan(want.length);
      // The client: routedRequest's routing and exclusions.
      const client_ = routedRequest(router, { index: INDEX, location: 'pos', join: null }, circle);
      const routed = await ids(client_.body, { routing: client_.routing, search_pipeline: '_none' });
      expect(routed.ids, `${to}: routedRequest`).toEqual(want);
      expect(routed.total, `${to}: routedRequest total`).toBe(want.length);
      const noLocation = await ids({ query: { bool: { must: [{ match_all: {} }], must_not: (client_.body.query as Body).bool.must_not } }, size: 0 }, { search_pipeline: '_none' });
      expect(noLocation.total, `${to}: every document once without a location`).toBe(docs.length);
      checked.push(`${to}: ${want.length} hits`);
      // The plugin (checked by the next test): no routing, the index's default search pipeline.
      if (!plugin) pluginAnswers.push({ step: to, want, got: await ids({ query: geo }, {}), all: await ids({ query: { match_all: {} }, size: 0 }, {}) });
    }
    console.log(`range edges: ${docs.length} documents (${ambiguous.length} straddle a cell edge), ${copies.length} copied; ${checked.join(', ')}`);
  });

  it('answers each document once at every step of a move: the plugin without routing, against every shard', (ctx) => {
    const copies = docs.filter((d) => inRange(d, { lo, hi })).length;
    if (plugin) return ctx.skip(plugin);
    expect(pluginAnswers.map((a) => a.step)).toEqual(MOVE_STEPS.slice(1, 7));
    for (const { step, want, got, all } of pluginAnswers) {
      expect(got.geoshard?.routed, `${step}: ${got.geoshard?.reason}`).toBe(true);
      expect(got.geoshard.excluded, step).toBe(1);
      expect(got.ids, `${step}: the plugin`).toEqual(want);
      expect(got.total, `${step}: the plugin's total`).toBe(want.length);
      // Without a location the plugin leaves the search as it is: every shard, the copies too.
      expect(all.geoshard, step).toMatchObject({ routed: false, excluded: 0 });
      expect(all.total, `${step}: without a location, every copy`).toBe(docs.length + copies);
    }
  });
});
