/**
 * The geoshard OpenSearch plugin (plugin/, docs/plugin.md) on a real node: its search pipeline
 * installed as the index's `index.search.default_pipeline`, searches sent WITHOUT routing against
 * the same searches routed by the TypeScript core (`search_pipeline=_none` and the core's
 * routing), for 1,200 seeded circles, boxes and polygons (a third on cell corners, the
 * antimeridian or a pole): the same hits, in the same order, the same total, and `_shards.total`
 * the core's shard count. Then what is not narrowed (no location, a drifted pipeline, a client's
 * routing, two indices) says why; the same at every step of a two-range move (both owners hold
 * the moving range, and each document answers once, as routedRequest's exclusions give, while a
 * search without a location, or through a point in time, is left as it is); the
 * searches by Python's opensearch-py; and placement: geo_routing and the Painless pipeline put
 * the same points (cell corners included) on the same shards.
 *
 * Skips (saying why) on a cluster without the plugin: start one with
 * `node scripts/cluster.mjs start --plugin` (npm test does).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { s2 } from 's2js';
import { Router } from '../core/router.ts';
import { CELL_COUNT, cellFromOrdinal, cellVertices, ordinalAt, type LatLng } from '../core/cells.ts';
import { mulberry32 } from '../core/prng.ts';
import { EARTH_RADIUS_KM } from '../core/earth.ts';
import { routeShape } from '../core/shapeRoute.ts';
import type { GeoShape } from '../core/coverShapes.ts';
import { plan } from '../core/plan.ts';
import { advance, intermediateFile, startState, MOVE_STEPS, type MigrationState } from '../core/migrationState.ts';
import { withHash, type BoundaryFile } from '../core/boundaries.ts';
import { cellFromOrdinal as fromOrd, cellOrdinal, parseToken, cellToken } from '../core/cells.ts';
import { ROOT, derivedFile } from '../testing/testkit.ts';
import { indexMeta } from './indexSpec.ts';
import { routingPipeline, pipelineId, type PipelineFields } from './routingPipeline.ts';
import { routedRequest } from './routedSearch.ts';

const URL_ = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const client = new Client({ node: URL_ });
const INDEX = 'gs-plugin-live';
const SEARCH_PIPELINE = 'gs-plugin-route';
const FIELDS: PipelineFields = { location: 'pos', childLocation: null, stamp: false };
const file = derivedFile(INDEX);
const DOCS = Number(process.env.GEOSHARD_PLUGIN_DOCS ?? 6000);
const SHAPES = Number(process.env.GEOSHARD_PLUGIN_SHAPES ?? 1200);
const RAD = Math.PI / 180;
let skip = '';

type Body = Record<string, unknown>;
async function req(method: string, path: string, body?: unknown, querystring?: Record<string, string>): Promise<{ statusCode: number; body: any; headers: Record<string, string> }> {
  const r = await client.transport.request({ method, path, body: body as Body, querystring }, { ignore: [400, 404, 409] });
  return { statusCode: r.statusCode ?? 0, body: r.body, headers: (r.headers ?? {}) as Record<string, string> };
}

/** The geo clause OpenSearch runs for a shape. */
function clause(shape: GeoShape, field = 'pos'): Body {
  if (shape.kind === 'circle') return { geo_distance: { distance: `${shape.radiusKm * 1000}m`, [field]: { lat: shape.lat, lon: shape.lng } } };
  if (shape.kind === 'box') return { geo_bounding_box: { [field]: { top_left: { lat: shape.top, lon: shape.left }, bottom_right: { lat: shape.bottom, lon: shape.right } } } };
  return { geo_polygon: { [field]: { points: shape.points.map((p) => ({ lat: p.lat, lon: p.lng })) } } };
}

/** Seeded shapes, a third of them on cell corners, over the antimeridian or at a pole (where the documents are). */
function shapes(n: number, seed: number, near: LatLng[]): { label: string; shape: GeoShape }[] {
  const rand = mulberry32(seed);
  const out: { label: string; shape: GeoShape }[] = [];
  const clampLat = (x: number) => Math.max(-90, Math.min(90, x));
  const wrap = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
  for (let i = 0; out.length < n; i++) {
    const kind = i % 3;
    const special = i % 9 < 3;
    const c = near[Math.floor(rand() * near.length)];
    const centre = { lat: clampLat(c.lat + (rand() - 0.5) * 2), lng: wrap(c.lng + (rand() - 0.5) * 2) };
    if (kind === 0) {
      if (special) {
        const v = cellVertices(cellFromOrdinal(ordinalAt(centre.lat, centre.lng)))[Math.floor(rand() * 4)];
        const p = s2.Point.fromLatLng(s2.LatLng.fromDegrees(centre.lat, centre.lng)).vector;
        const q = s2.Point.fromLatLng(s2.LatLng.fromDegrees(v.lat, v.lng)).vector;
        out.push({ label: `circle ${i} through a cell corner`, shape: { kind: 'circle', lat: centre.lat, lng: centre.lng, radiusKm: Math.max(0.001, p.angle(q) * EARTH_RADIUS_KM) } });
      } else out.push({ label: `circle ${i}`, shape: { kind: 'circle', lat: centre.lat, lng: centre.lng, radiusKm: 1 + rand() * 200 } });
    } else if (kind === 1) {
      const h = 0.05 + rand() * 2;
      const w = 0.05 + rand() * 3;
      if (special) {
        const v = cellVertices(cellFromOrdinal(ordinalAt(centre.lat, centre.lng)))[Math.floor(rand() * 4)];
        out.push({ label: `box ${i} edged on a cell corner`, shape: { kind: 'box', top: v.lat, left: v.lng, bottom: clampLat(v.lat - h), right: wrap(v.lng + w) } });
      } else out.push({ label: `box ${i}`, shape: { kind: 'box', top: clampLat(centre.lat + h / 2), left: wrap(centre.lng - w / 2), bottom: clampLat(centre.lat - h / 2), right: wrap(centre.lng + w / 2) } });
    } else {
      const r = 0.1 + rand();
      const pts = Array.from({ length: 3 + Math.floor(rand() * 4) }, (_, k) => {
        const a = (2 * Math.PI * k) / 5 + rand() * 0.5;
        return { lat: clampLat(centre.lat + r * Math.sin(a)), lng: Math.max(-180, Math.min(180, centre.lng + r * Math.cos(a))) };
      });
      if (special) pts[0] = cellVertices(cellFromOrdinal(ordinalAt(centre.lat, centre.lng)))[0];
      out.push({ label: `polygon ${i}${special ? ' with a vertex on a cell corner' : ''}`, shape: { kind: 'polygon', points: pts } });
    }
  }
  return out;
}

/** Documents: random points near a few places, cell corners, the antimeridian and the poles. */
function documents(n: number): { id: string; n: number; pos: { lat: number; lon: number } }[] {
  const rand = mulberry32(7);
  const out: { id: string; n: number; pos: { lat: number; lon: number } }[] = [];
  for (let i = 0; i < n; i++) {
    const hub = HUBS[Math.floor(rand() * HUBS.length)];
    let lat = Math.max(-90, Math.min(90, hub.lat + (rand() - 0.5) * 4));
    let lon = hub.lng + (rand() - 0.5) * 4;
    lon = lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
    if (i % 4 === 0) {
      const v = cellVertices(cellFromOrdinal(ordinalAt(lat, lon)))[i % 4 === 0 ? (i >> 2) % 4 : 0];
      lat = v.lat;
      lon = Math.max(-180, Math.min(180, v.lng));
    }
    out.push({ id: `d${i}`, n: i, pos: { lat, lon } });
  }
  return out;
}
const HUBS: LatLng[] = [
  { lat: 40.7, lng: -74 },
  { lat: 51.5, lng: -0.1 },
  { lat: -33.9, lng: 151.2 },
  { lat: 0, lng: 179.5 },
  { lat: 0, lng: -179.5 },
  { lat: 89.2, lng: 10 },
  { lat: -89.2, lng: -60 },
  { lat: 35.7, lng: 139.7 },
];

const geoshardOf = (body: any) => body?.ext?.geoshard as { routed: boolean; routing: string | null; cells: number; shards: number; reason: string | null; micros: number; excluded: number };

async function putSearchPipeline(id: string, config: Body): Promise<void> {
  const r = await req('PUT', `/_search/pipeline/${id}`, { request_processors: [{ geo_routing_search: config }], response_processors: [{ geo_routing_report: {} }] });
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
}

async function writeMeta(state: MigrationState | null): Promise<void> {
  const meta = { ...indexMeta(file), fields: FIELDS, ...(state ? { migration: state } : {}) };
  const r = await req('PUT', `/${INDEX}/_mapping`, { _meta: meta });
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
}

const docs = documents(DOCS);

beforeAll(async () => {
  const plugins = await req('GET', '/_cat/plugins', undefined, { format: 'json' });
  const nodes = new Set((plugins.body as { name: string; component: string }[]).filter((p) => p.component === 'geoshard').map((p) => p.name));
  const all = await req('GET', '/_cat/nodes', undefined, { format: 'json', h: 'name' });
  if (nodes.size === 0 || nodes.size < (all.body as unknown[]).length) {
    skip = `the cluster at ${URL_} does not run the geoshard plugin on every node (start it with "node scripts/cluster.mjs start --plugin")`;
    return;
  }
  await req('DELETE', `/${INDEX}`);
  const pipe = await req('PUT', `/_ingest/pipeline/${pipelineId(INDEX)}`, routingPipeline(file, null, INDEX, FIELDS));
  expect(pipe.statusCode, JSON.stringify(pipe.body)).toBe(200);
  await putSearchPipeline(SEARCH_PIPELINE, { hash: file.hash });
  const created = await req('PUT', `/${INDEX}`, {
    settings: { number_of_shards: file.numberOfShards, number_of_replicas: 0, 'index.default_pipeline': pipelineId(INDEX), 'index.search.default_pipeline': SEARCH_PIPELINE },
    mappings: { _routing: { required: true }, dynamic: 'strict', properties: { pos: { type: 'geo_point' }, n: { type: 'integer' } }, _meta: { ...indexMeta(file), fields: FIELDS } },
  });
  expect(created.statusCode, JSON.stringify(created.body)).toBe(200);
  // Writes without routing, through the Painless pipeline (the default where the plugin is absent).
  for (let k = 0; k < docs.length; k += 2000) {
    const lines = docs.slice(k, k + 2000).flatMap((d) => [JSON.stringify({ index: { _index: INDEX, _id: d.id } }), JSON.stringify({ n: d.n, pos: d.pos })]);
    const r = await client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: lines, querystring: { refresh: 'true' } });
    expect((r.body as { errors: boolean }).errors).toBe(false);
  }
}, 300_000);

afterAll(async () => {
  // GEOSHARD_KEEP=1 leaves the index and pipelines for a look after a failure.
  if (!skip && process.env.GEOSHARD_KEEP !== '1') {
    await req('DELETE', `/${INDEX}`);
    await req('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`);
    for (const p of [SEARCH_PIPELINE, `${SEARCH_PIPELINE}-drift`, `${SEARCH_PIPELINE}-geo`]) await req('DELETE', `/_search/pipeline/${p}`);
  }
  await client.close();
});

/** The plugin's search (no routing) and the core's routed one, compared. */
async function compare(router: Router, label: string, shape: GeoShape, query: Body, exclusions: Body[] = []): Promise<{ routed: boolean; micros: number }> {
  const body = { query, size: 30, sort: [{ n: 'asc' }], track_total_hits: true };
  const plugin = await req('POST', `/${INDEX}/_search`, body);
  expect(plugin.statusCode, `${label}: ${JSON.stringify(plugin.body)}`).toBe(200);
  const route = routeShape(router, shape);
  const coreQuery = exclusions.length > 0 ? { bool: { must: [query], must_not: exclusions } } : query;
  const core = await req('POST', `/${INDEX}/_search`, { ...body, query: coreQuery }, { routing: route.routing, search_pipeline: '_none' });
  expect(core.statusCode, `${label}: ${JSON.stringify(core.body)}`).toBe(200);
  const g = geoshardOf(plugin.body);
  expect(g, `${label}: ext.geoshard`).toBeDefined();
  expect(g.routed, `${label}: ${g.reason}`).toBe(true);
  expect(g.routing, label).toBe(route.routing);
  expect(g.cells, label).toBe(route.ordinals.length);
  expect(plugin.body._shards.total, label).toBe(route.shards.length);
  expect(plugin.body.hits.total.value, label).toBe(core.body.hits.total.value);
  expect(plugin.body.hits.hits.map((h: { _id: string }) => h._id), label).toEqual(core.body.hits.hits.map((h: { _id: string }) => h._id));
  return { routed: g.routed, micros: g.micros };
}

describe('geo_routing_search on a real node', () => {
  it(`narrows ${SHAPES} circles, boxes and polygons to the core's shards with the same hits, order and total`, async (ctx) => {
    if (skip) return ctx.skip(skip);
    const router = new Router(file);
    const all = shapes(SHAPES, 38, HUBS);
    const micros: number[] = [];
    let hits = 0;
    const t = Date.now();
    for (const { label, shape } of all) {
      const r = await compare(router, label, shape, { bool: { filter: [clause(shape)] } });
      micros.push(r.micros);
    }
    for (const { shape } of all.slice(0, 50)) hits += ((await req('POST', `/${INDEX}/_count`, { query: clause(shape) })).body.count as number) > 0 ? 1 : 0;
    micros.sort((a, b) => a - b);
    console.log(`plugin: ${all.length} shapes routed as the core in ${((Date.now() - t) / 1000).toFixed(1)} s; processor time p50 ${micros[micros.length >> 1]} µs, p99 ${micros[Math.floor(micros.length * 0.99)]} µs; ${hits}/50 of the first shapes hold documents`);
    expect(hits).toBeGreaterThan(10);
  });

  it('narrows a join filter (should of location clauses, minimum_should_match 1) and the intersection of two clauses', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const router = new Router(file);
    const a: GeoShape = { kind: 'circle', lat: 40.7, lng: -74, radiusKm: 60 };
    const b: GeoShape = { kind: 'box', top: 41, left: -74.5, bottom: 40, right: -73 };
    const union = await req('POST', `/${INDEX}/_search`, { query: { bool: { should: [clause(a), clause(b)], minimum_should_match: 1 } }, size: 0 });
    const both = new Set([...routeShape(router, a).shards, ...routeShape(router, b).shards].map((s) => s.name));
    expect(geoshardOf(union.body).routed).toBe(true);
    expect(union.body._shards.total).toBe(both.size);
    const inter = await req('POST', `/${INDEX}/_search`, { query: { bool: { filter: [clause(a)], must: [{ bool: { filter: [clause(b)] } }] } }, size: 0 });
    const g = geoshardOf(inter.body);
    expect(g.routed).toBe(true);
    expect(g.cells).toBeLessThanOrEqual(Math.min(routeShape(router, a).ordinals.length, routeShape(router, b).ordinals.length));
  });

  it('asks every shard and says why: no location, a location only under should or must_not, a client routing, a drifted pipeline, too many cells, a bad config', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const N = file.numberOfShards;
    const circle = clause({ kind: 'circle', lat: 51.5, lng: -0.1, radiusKm: 30 });
    const cases: [string, () => Promise<{ body: any }>, RegExp][] = [
      ['no location', () => req('POST', `/${INDEX}/_search`, { query: { match_all: {} } }), /no geo_distance, geo_bounding_box or geo_polygon clause/],
      ['should only', () => req('POST', `/${INDEX}/_search`, { query: { bool: { should: [circle, { match_all: {} }] } } }), /no geo_distance/],
      ['must_not', () => req('POST', `/${INDEX}/_search`, { query: { bool: { must_not: [circle] } } }), /no geo_distance/],
      ['huge circle', () => req('POST', `/${INDEX}/_search`, { query: clause({ kind: 'circle', lat: 0, lng: 0, radiusKm: 3000 }) }), /above max_cells 30000/],
    ];
    for (const [label, run, why] of cases) {
      const r = await run();
      const g = geoshardOf(r.body);
      expect(g.routed, label).toBe(false);
      expect(g.reason, label).toMatch(why);
      expect(r.body._shards.total, label).toBe(N);
    }
    const own = await req('POST', `/${INDEX}/_search`, { query: circle }, { routing: file.shards[0].name });
    expect(geoshardOf(own.body)).toMatchObject({ routed: false, reason: expect.stringMatching(/the client set routing/) });
    expect(own.body._shards.total).toBe(1);
    // A pipeline installed for another boundary file: not narrowed, both hashes named.
    await putSearchPipeline(`${SEARCH_PIPELINE}-drift`, { hash: 'f'.repeat(64) });
    const drift = await req('POST', `/${INDEX}/_search`, { query: circle }, { search_pipeline: `${SEARCH_PIPELINE}-drift` });
    expect(geoshardOf(drift.body).routed).toBe(false);
    expect(geoshardOf(drift.body).reason).toContain(file.hash);
    expect(drift.body._shards.total).toBe(N);
    // The header says the same, for clients that read headers.
    expect(JSON.parse(drift.headers['x-geoshard-routing']).routed).toBe(false);
    // A bad config is refused, naming the field, the value and what is valid.
    const bad = await req('PUT', `/_search/pipeline/${SEARCH_PIPELINE}-bad`, { request_processors: [{ geo_routing_search: { max_cells: -3 } }] });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/max_cells -3 is not valid: expected a whole number of level-10 cells of at least 1/);
  });

  it('follows a move step by step from _meta: the core\'s read owners, and each document once though both owners hold the range', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const boundaries = [...file.boundaries];
    // Move the start of the shard holding New York forward past New York: the range from its old start moves to the shard before.
    const base = new Router(file);
    const nyOrd = ordinalAt(40.7, -74);
    const ny = base.indexOfOrdinal(nyOrd);
    expect(ny).toBeGreaterThan(0);
    boundaries[ny - 1] = cellToken(fromOrd(nyOrd + Math.floor((base.starts[ny + 1] - nyOrd) / 2) + 1));
    const { hash: _h, ...rest } = file;
    const candidate: BoundaryFile = withHash({ ...rest, version: 2, parent: file.hash, boundaries });
    const p = plan(file, candidate, []);
    expect(p.moves.length).toBe(1);
    const move = p.moves[0];
    // Dual-written copies: every document of the moving range also on the new owner (same id, the new owner's routing),
    // those exactly on a cell corner included (their stored point straddles a cell edge: the exclusion's range
    // script reads their cell from _source; rangeFilter.live.test.ts checks such documents closely).
    const moving = docs.filter((d) => {
      const o = ordinalAt(d.pos.lat, d.pos.lon);
      return o >= move.startOrdinal && o < move.endOrdinal;
    });
    expect(moving.filter((d) => d.n % 4 === 0).length, 'cell-corner documents among the copies').toBeGreaterThan(5);
    expect(moving.length).toBeGreaterThan(20);
    const lines = moving.flatMap((d) => [JSON.stringify({ index: { _index: INDEX, _id: d.id, routing: move.to } }), JSON.stringify({ n: d.n, pos: d.pos })]);
    let state = startState(file, candidate, p.moves, '2026-12-01T00:00:00.000Z');
    await writeMeta(state);
    // The Painless pipeline was installed for the settled table: the copies go around it, as the executor's copy does.
    const w = await client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: lines, querystring: { refresh: 'true', pipeline: '_none' } });
    expect((w.body as { errors: boolean }).errors, JSON.stringify(w.body).slice(0, 500)).toBe(false);
    const probes = shapes(45, 99, [{ lat: 40.7, lng: -74 }]);
    for (const to of MOVE_STEPS.slice(1, 6)) {
      state = advance(state, 0, to, '2026-12-01T00:00:00.000Z', to === 'verified' ? { verified: { from: { restaurants: moving.length, dishes: 0 }, to: { restaurants: moving.length, dishes: 0 } } } : {});
      await writeMeta(state);
      const router = new Router(intermediateFile(file, state));
      const excl = routedRequest(router, { index: INDEX, location: 'pos', join: null }, { lat: 40.7, lng: -74, radiusKm: 1 }).body.query as { bool: { must_not?: Body[] } };
      expect(excl.bool.must_not?.length, to).toBe(1);
      for (const { label, shape } of probes) await compare(router, `${to} / ${label}`, shape, { bool: { filter: [clause(shape)] } }, excl.bool.must_not);
      // Without a location: not narrowed, so left as it is (every shard, both copies of the range), as without the plugin.
      const all = await req('POST', `/${INDEX}/_search`, { query: { match_all: {} }, size: 0, track_total_hits: true });
      expect(all.body.hits.total.value, to).toBe(docs.length + moving.length);
      expect(geoshardOf(all.body), to).toMatchObject({ routed: false, excluded: 0 });
      // A point-in-time search (how geoshard migrate reads a range) is left as it is: every copy.
      const pit = await req('POST', `/${INDEX}/_search/point_in_time`, undefined, { keep_alive: '1m' });
      const paged = await req('POST', '/_search', { query: { match_all: {} }, size: 0, track_total_hits: true, pit: { id: pit.body.pit_id, keep_alive: '1m' } });
      await req('DELETE', '/_search/point_in_time', { pit_id: [pit.body.pit_id] });
      expect(paged.body.hits.total.value, to).toBe(docs.length + moving.length);
      expect(geoshardOf(paged.body), to).toMatchObject({ routed: false, excluded: 0, reason: expect.stringMatching(/point-in-time search/) });
    }
    // Settled again on the base file: the copies removed from the new owner.
    const del = moving.map((d) => JSON.stringify({ delete: { _index: INDEX, _id: d.id, routing: move.to } }));
    await client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: del, querystring: { refresh: 'true' } });
    await writeMeta(null);
    const left = await req('POST', `/${INDEX}/_search`, { query: { match_all: {} }, size: 0, track_total_hits: true }, { search_pipeline: '_none' });
    expect(left.body.hits.total.value).toBe(docs.length);
  });

  it("answers Python's opensearch-py with ext.geoshard in the body", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const cache = process.env.GEOSHARD_CACHE ?? '/var/cache/geoshard';
    const venv = join(cache, 'py');
    const py = join(venv, 'bin', 'python');
    if (!existsSync(py)) {
      const mk = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8' });
      expect(mk.status, mk.stderr).toBe(0);
    }
    const pip = spawnSync(py, ['-m', 'pip', 'install', '-q', 'opensearch-py==3.2.0'], { encoding: 'utf8', timeout: 240_000 });
    expect(pip.status, pip.stderr).toBe(0);
    const router = new Router(file);
    const probe = shapes(30, 5, HUBS);
    const input = JSON.stringify({ url: URL_, index: INDEX, queries: probe.map(({ shape }) => ({ query: { bool: { filter: [clause(shape)] } }, size: 10, sort: [{ n: 'asc' }] })) });
    const r = spawnSync(py, [join(ROOT, 'plugin', 'test-python', 'search.py')], { input, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const answers = JSON.parse(r.stdout) as { geoshard: { routed: boolean; routing: string }; shards: number; ids: string[] }[];
    expect(answers.length).toBe(probe.length);
    probe.forEach(({ label, shape }, k) => {
      const route = routeShape(router, shape);
      expect(answers[k].geoshard.routed, label).toBe(true);
      expect(answers[k].geoshard.routing, label).toBe(route.routing);
      expect(answers[k].shards, label).toBe(route.shards.length);
    });
  });
});

describe('geo_routing (ingest) on a real node', () => {
  it('places points exactly as the Painless pipeline does, cell corners and the hair either side of them included', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const rand = mulberry32(11);
    const pts: LatLng[] = [];
    for (let i = 0; i < 1500; i++) {
      const v = cellVertices(cellFromOrdinal(Math.floor(rand() * CELL_COUNT)))[i % 4];
      const d = [0, 1e-12, -1e-12, 1e-9][i % 4];
      pts.push({ lat: Math.max(-90, Math.min(90, v.lat + d)), lng: Math.max(-180, Math.min(180, v.lng - d)) });
      pts.push({ lat: Math.asin(2 * rand() - 1) / RAD, lng: rand() * 360 - 180 });
    }
    const geo = await req('PUT', `/_ingest/pipeline/${SEARCH_PIPELINE}-geo`, { processors: [{ geo_routing: { hash: file.hash } }] });
    expect(geo.statusCode, JSON.stringify(geo.body)).toBe(200);
    const simulate = async (id: string) => {
      const out: string[] = [];
      for (let k = 0; k < pts.length; k += 500) {
        const r = await req('POST', `/_ingest/pipeline/${id}/_simulate`, { docs: pts.slice(k, k + 500).map((p) => ({ _index: INDEX, _source: { pos: { lat: p.lat, lon: p.lng } } })) });
        expect(r.statusCode, JSON.stringify(r.body).slice(0, 300)).toBe(200);
        out.push(...(r.body.docs as { doc?: { _routing?: string }; error?: unknown }[]).map((d) => d.doc?._routing ?? `error ${JSON.stringify(d.error)}`));
      }
      return out;
    };
    const painless = await simulate(pipelineId(INDEX));
    const plugin = await simulate(`${SEARCH_PIPELINE}-geo`);
    const router = new Router(file);
    const core = pts.map((p) => router.shards[router.readIndexOfOrdinal(ordinalAt(p.lat, p.lng))].name);
    expect(plugin).toEqual(painless);
    expect(plugin).toEqual(core);
    // A routing that is not the point's owner is refused, naming it and the owner.
    const wrong = await req('POST', `/_ingest/pipeline/${SEARCH_PIPELINE}-geo/_simulate`, { docs: [{ _index: INDEX, _routing: 'nobody', _source: { pos: { lat: 40.7, lon: -74 } } }] });
    expect(JSON.stringify(wrong.body)).toMatch(/routing \\"nobody\\" is not an owner of cell [0-9a-f]{6}/);
  });
});
