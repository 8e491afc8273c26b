/**
 * The geoshard plugin on the secured node (OpenSearch 2.19.4, the official security plugin, TLS
 * from its own CA: `scripts/cluster.mjs start --secure --plugin`). The admin installs the plugin's
 * search pipeline as the index's `index.search.default_pipeline`; a user holding only the role
 * docs/security.md gives searches (roles.json `search`: the built-in readall_and_monitor) then
 * gets searches narrowed by the cluster: `ext.geoshard.routed` true, the core's routing,
 * `_shards.total` the covering's shard count, and the hits, order and total of every shard
 * (`search_pipeline=_none`); the same user's routedSearch (the client's routing, its cluster-state
 * read of `_meta`) routes alike. During a move (the admin publishes a migration state in `_meta`),
 * the user's narrowed searches leave out the copy that is not the read copy. The same user reads
 * the plugin's per-cell traffic counts of its searches. No output holds a password.
 *
 * Expected values come from the core (Router.cover, shapeRoute.ts routeShape) and from every
 * shard searched by the admin. Skips, saying why, when the node runs without the plugin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../core/router.ts';
import { mulberry32 } from '../core/prng.ts';
import { ordinalAt, cellFromOrdinal, cellToken } from '../core/cells.ts';
import { routeShape } from '../core/shapeRoute.ts';
import type { GeoShape } from '../core/coverShapes.ts';
import { plan } from '../core/plan.ts';
import { advance, intermediateFile, startState } from '../core/migrationState.ts';
import { withHash, type BoundaryFile } from '../core/boundaries.ts';
import { derivedFile } from '../testing/testkit.ts';
import { secrets, secureClient, secureNode } from '../testing/secureTestkit.ts';
import { indexMeta } from './indexSpec.ts';
import { routedSearch } from './routedSearch.ts';

const st = secureNode();
const admin = secureClient();
/** The role roles.json gives searches (docs/security.md). */
const SEARCH_ROLE = 'readall_and_monitor';
const searcher = secureClient(st.users[SEARCH_ROLE]);
const INDEX = 'sec-t-plugin';
const PIPELINE = 'sec-t-plugin-route';
const file = derivedFile(INDEX);
const router = new Router(file);
const FIELDS = { location: 'pos', childLocation: null, stamp: false };
const HUBS = [
  { lat: 40.7, lng: -74 },
  { lat: 51.5, lng: -0.1 },
  { lat: -33.9, lng: 151.2 },
  { lat: 35.7, lng: 139.7 },
];
let skip = '';

/** Documents near the hubs, written with the core's routing (no ingest pipeline needed). */
const docs = (() => {
  const rand = mulberry32(19);
  return Array.from({ length: 1500 }, (_, n) => {
    const h = HUBS[n % HUBS.length];
    return { id: `s${n}`, n, lat: h.lat + (rand() - 0.5) * 3, lng: h.lng + (rand() - 0.5) * 3 };
  });
})();

/** Circles and boxes over the documents. */
const shapes: GeoShape[] = (() => {
  const rand = mulberry32(23);
  return Array.from({ length: 40 }, (_, k) => {
    const h = HUBS[k % HUBS.length];
    const lat = h.lat + (rand() - 0.5) * 2;
    const lng = h.lng + (rand() - 0.5) * 2;
    return k % 2 === 0 ? { kind: 'circle' as const, lat, lng, radiusKm: 2 + rand() * 120 } : { kind: 'box' as const, top: lat + 0.4, left: lng - 0.6, bottom: lat - 0.4, right: lng + 0.6 };
  });
})();

const clause = (s: GeoShape): Record<string, unknown> =>
  s.kind === 'circle'
    ? { geo_distance: { distance: `${s.radiusKm * 1000}m`, pos: { lat: s.lat, lon: s.lng } } }
    : s.kind === 'box'
      ? { geo_bounding_box: { pos: { top_left: { lat: s.top, lon: s.left }, bottom_right: { lat: s.bottom, lon: s.right } } } }
      : {};

type Answer = { hits: { total: { value: number }; hits: { _id: string }[] }; _shards: { total: number }; ext?: { geoshard?: { routed: boolean; routing: string | null; excluded: number; reason: string | null } } };

async function search(as: typeof admin, body: Record<string, unknown>, query: Record<string, string> = {}): Promise<Answer> {
  return (await as.request<Answer>('POST', `/${INDEX}/_search`, { body: { size: 100, sort: [{ n: 'asc' }], track_total_hits: true, ...body }, query })).body;
}
const ids = (a: Answer) => a.hits.hits.map((h) => h._id);

beforeAll(async () => {
  const plugins = await admin.request<{ component: string }[]>('GET', '/_cat/plugins', { query: { format: 'json' } });
  if (!plugins.body.some((p) => p.component === 'geoshard')) {
    skip = `the secured node at ${st.url} runs without the geoshard plugin (start it with "node scripts/cluster.mjs start --secure --plugin")`;
    return;
  }
  await admin.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await admin.request('PUT', `/_search/pipeline/${PIPELINE}`, { body: { request_processors: [{ geo_routing_search: { hash: file.hash } }], response_processors: [{ geo_routing_report: {} }] } });
  await admin.admin('PUT', `/${INDEX}`, {
    body: {
      settings: { index: { number_of_shards: file.numberOfShards, number_of_replicas: 0, 'search.default_pipeline': PIPELINE } },
      mappings: { _routing: { required: true }, dynamic: 'strict', properties: { pos: { type: 'geo_point' }, n: { type: 'integer' } }, _meta: { ...indexMeta(file), fields: FIELDS } },
    },
  });
  const lines = docs.flatMap((d) => [JSON.stringify({ index: { _index: INDEX, _id: d.id, routing: router.readShard(d.lat, d.lng).name } }), JSON.stringify({ n: d.n, pos: { lat: d.lat, lon: d.lng } })]);
  const bulk = await admin.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true' }, body: lines.join('\n') + '\n', timeoutMs: 120_000 });
  expect(bulk.body.errors).toBe(false);
}, 300_000);

afterAll(async () => {
  if (!skip) {
    await admin.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
    await admin.request('DELETE', `/_search/pipeline/${PIPELINE}`, { okStatuses: [404] });
  }
  await searcher.close();
  await admin.close();
});

describe('the plugin on the secured node', () => {
  it(`narrows the searches of a user holding only ${SEARCH_ROLE}: the core's routing and shards, every shard's hits`, async (ctx) => {
    if (skip) return ctx.skip(skip);
    let withHits = 0;
    for (const [k, shape] of shapes.entries()) {
      const label = `shape ${k} (${shape.kind})`;
      const route = routeShape(router, shape);
      const mine = await search(searcher, { query: { bool: { filter: [clause(shape)] } } });
      expect(mine.ext?.geoshard, label).toMatchObject({ routed: true, routing: route.routing, excluded: 0 });
      expect(mine._shards.total, label).toBe(route.shards.length);
      const every = await search(admin, { query: { bool: { filter: [clause(shape)] } } }, { search_pipeline: '_none' });
      expect(every._shards.total).toBe(file.numberOfShards);
      expect(ids(mine), label).toEqual(ids(every));
      expect(mine.hits.total.value, label).toBe(every.hits.total.value);
      if (mine.hits.total.value > 0) withHits++;
      if (shape.kind === 'circle') expect(route.routing, label).toBe(router.cover(shape.lat, shape.lng, shape.radiusKm).routing);
    }
    expect(withHits).toBeGreaterThan(20);
    // The pipeline named on the request, as the same user: the same.
    const s = shapes[0];
    const named = await search(searcher, { query: clause(s) }, { search_pipeline: PIPELINE });
    expect(named.ext?.geoshard?.routed).toBe(true);
    // The user's own routedSearch (its _meta read as a read-only role) asks the same shards.
    if (s.kind !== 'circle') throw new Error('shape 0 is a circle');
    const req = await routedSearch(searcher.os, file, { index: INDEX, location: 'pos', weight: 'docs', name: null, join: null, facets: [] }, s, undefined, { size: 100, sort: [{ n: 'asc' }], track_total_hits: true });
    const byClient = (await searcher.request<Answer>('POST', `/${INDEX}/_search`, { body: req.body, query: { routing: req.routing, search_pipeline: '_none' } })).body;
    expect(req.routing).toBe(named.ext?.geoshard?.routing);
    expect(ids(byClient)).toEqual(ids(named));
  });

  it(`counts the cells of the same user's narrowed searches, readable with ${SEARCH_ROLE} (cluster_monitor grants cluster:monitor/geoshard/traffic)`, async (ctx) => {
    if (skip) return ctx.skip(skip);
    // A second of its own: the counters count whole seconds, and the test before searched too.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const from = Date.now() - (Date.now() % 1000);
    // Under the summary's 256 counters a second: every count exact.
    const circle: GeoShape = { kind: 'circle', lat: HUBS[0].lat, lng: HUBS[0].lng, radiusKm: 25 };
    await search(searcher, { query: { bool: { filter: [clause(circle)] } } });
    const r = await searcher.request<{ searches: number; search_cells: { cells: { cell: string; count: number }[] } }>('GET', `/_plugins/geoshard/traffic/${INDEX}`, { query: { from, to: Date.now() + 1000 } });
    expect(r.status).toBe(200);
    expect(r.body.searches).toBe(1);
    const expected = [...routeShape(router, circle).ordinals].map((o) => cellToken(cellFromOrdinal(o))).sort();
    expect(r.body.search_cells.cells.map((c) => c.cell).sort()).toEqual(expected);
    expect(r.body.search_cells.cells.every((c) => c.count === 1)).toBe(true);
  });

  it('leaves out, mid-move, the copy that is not the read copy, for the same user', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // The admin publishes a move (the end of the shard holding New York moves to the next shard) and dual-writes its documents.
    const ny = router.indexOfOrdinal(ordinalAt(40.7, -74));
    const boundaries = [...file.boundaries];
    const end = router.starts[ny + 1];
    boundaries[ny] = cellToken(cellFromOrdinal(ordinalAt(40.7, -74)));
    const { hash: _h, ...rest } = file;
    const candidate: BoundaryFile = withHash({ ...rest, version: 2, parent: file.hash, boundaries });
    const p = plan(file, candidate, []);
    expect(p.moves.length).toBe(1);
    let state = startState(file, candidate, p.moves, '2026-12-01T00:00:00.000Z');
    state = advance(state, 0, 'dual-write', '2026-12-01T00:00:00.000Z');
    state = advance(state, 0, 'copying', '2026-12-01T00:00:00.000Z');
    const moving = docs.filter((d) => {
      const o = ordinalAt(d.lat, d.lng);
      return o >= p.moves[0].startOrdinal && o < Math.min(end, p.moves[0].endOrdinal);
    });
    expect(moving.length).toBeGreaterThan(5);
    await admin.request('PUT', `/${INDEX}/_mapping`, { body: { _meta: { ...indexMeta(file), fields: FIELDS, migration: state } } });
    const lines = moving.flatMap((d) => [JSON.stringify({ index: { _index: INDEX, _id: d.id, routing: p.moves[0].to } }), JSON.stringify({ n: d.n, pos: { lat: d.lat, lon: d.lng } })]);
    expect((await admin.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true' }, body: lines.join('\n') + '\n' })).body.errors).toBe(false);
    try {
      const mid = new Router(intermediateFile(file, state));
      const circle: GeoShape = { kind: 'circle', lat: 40.7, lng: -74, radiusKm: 150 };
      const mine = await search(searcher, { query: clause(circle), size: 1000 });
      expect(mine.ext?.geoshard).toMatchObject({ routed: true, routing: mid.cover(40.7, -74, 150).routing, excluded: 1 });
      const every = await search(admin, { query: clause(circle), size: 1000 }, { search_pipeline: '_none' });
      const once = [...new Set(ids(every))];
      expect(every.hits.total.value, 'both copies on every shard').toBeGreaterThan(once.length);
      expect(ids(mine)).toEqual(once);
      expect(mine.hits.total.value).toBe(once.length);
    } finally {
      await admin.request('POST', '/_bulk', { query: { refresh: 'true' }, body: moving.map((d) => JSON.stringify({ delete: { _index: INDEX, _id: d.id, routing: p.moves[0].to } })).join('\n') + '\n' });
      await admin.request('PUT', `/${INDEX}/_mapping`, { body: { _meta: { ...indexMeta(file), fields: FIELDS } } });
    }
  });

  it('says no password in what it answers', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const a = JSON.stringify(await search(searcher, { query: clause(shapes[0]) }));
    for (const s of secrets(st)) expect(a.includes(s)).toBe(false);
  });
});
