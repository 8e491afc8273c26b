/**
 * The routing ingest pipeline on a real node (2.19 with the modules
 * scripts/cluster.mjs adds, and 3.8): documents written with NO routing land
 * on the shard the core names, with the cell the core computes, for every
 * point, including those where the arithmetic is most fragile (poles, the
 * antimeridian, cube-face edges and corners, both sides of every boundary of
 * data/boundaries.json, a hair either side of level-10 cell edges). The
 * expected cell and shard come from the core (s2js); the actual ones from the
 * node: each shard read on its own (`preference=_shards:N`).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Router, withHash, cellAt, cellCenter, cellFromOrdinal, cellOrdinal, cellToken, parseToken, CELL_COUNT, type PlanMove, type BoundaryFile } from '../../core/index.ts';
import { cellVertices } from '../../core/cells.ts';
import { startState, advance, type MigrationState } from '../../core/migrationState.ts';
import { mulberry32 } from '../../core/prng.ts';
import { s2 } from 's2js';
import { derivedFile, liveClient } from '../../testing/testkit.ts';
import { installPipeline, readPipeline, uninstallPipeline, pipelineStatusOf } from './pipelineInstall.ts';
import { LiveApi } from '../../server/api.ts';
import { withState } from '../migrate/migration.ts';
import { indexMeta } from '../../opensearch/indexSpec.ts';
import { pipelineId, expectedIdentity } from '../../opensearch/routingPipeline.ts';
import { seedIndex } from '../seed/seeder.ts';
import { main } from '../../cli/main.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import { indexBody } from '../../opensearch/sampleIndex.ts';

const client = liveClient();
const INDEX = 'gs-pipe-fidelity';
const file = derivedFile(INDEX);
const router = new Router(file);
const BATCH = 2000;

type Point = { lat: number; lng: number; why: string; group?: number };

/** The fragile and the ordinary points, >= 20,000, deterministic. */
function points(): Point[] {
  const out: Point[] = [];
  const rnd = mulberry32(20_2026);
  const add = (lat: number, lng: number, why: string, group?: number) => {
    if (lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180) out.push({ lat, lng, why, group });
  };
  const nudges = [0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7];
  const around = (lat: number, lng: number, why: string) => {
    for (const a of nudges) for (const b of [0, 1e-12, -1e-12, 1e-9, -1e-9]) add(lat + a, lng + b, why);
  };
  // Seeded random points, uniform on the sphere.
  for (let k = 0; k < 9000; k++) add((Math.asin(2 * rnd() - 1) * 180) / Math.PI, rnd() * 360 - 180, 'random');
  // Both poles, at many longitudes, and next to them.
  for (let k = 0; k <= 36; k++) {
    const lng = -180 + 10 * k;
    for (const lat of [90, -90, 90 - 1e-9, -90 + 1e-9, 89.999, -89.999]) add(lat, lng, 'pole');
  }
  // The antimeridian: lng = ±180 and a hair inside, at many latitudes.
  for (let k = 0; k <= 90; k++) {
    const lat = -89 + (178 * k) / 90;
    for (const lng of [180, -180, 180 - 1e-9, -180 + 1e-9, 180 - 1e-12, -180 + 1e-12]) add(lat, lng, 'antimeridian');
  }
  // Cube-face corners and edges: the vertices of the six face cells, and points along their edges.
  for (let face = 0; face < 6; face++) {
    const id = s2.cellid.fromFace(face);
    const vs = cellVertices(id);
    for (let k = 0; k < 4; k++) {
      around(vs[k].lat, vs[k].lng, 'face corner');
      const cell = s2.Cell.fromCellID(id);
      const a = cell.vertex(k).vector;
      const b = cell.vertex((k + 1) % 4).vector;
      for (let t = 1; t < 5; t++) {
        const f = t / 5;
        const v = new s2.Point(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f);
        around(s2.LatLng.latitude(v) * (180 / Math.PI), s2.LatLng.longitude(v) * (180 / Math.PI), 'face edge');
      }
    }
  }
  // The two cells either side of every boundary: their centres, corners, and a hair inside the corners.
  for (const b of file.boundaries) {
    const o = cellOrdinal(parseToken(b));
    for (const ord of [o - 1, o]) {
      const id = cellFromOrdinal(ord);
      const c = cellCenter(id);
      add(c.lat, c.lng, `boundary ${b} cell ${cellToken(id)}`);
      for (const v of cellVertices(id)) {
        add(v.lat, v.lng, `boundary ${b} corner`);
        add(c.lat + (v.lat - c.lat) * 0.999999, c.lng + (v.lng - c.lng) * 0.999999, `boundary ${b} inner corner`);
      }
    }
  }
  // A hair either side of level-10 cell edges: edge midpoints of random cells, nudged across.
  for (let g = 0; out.length < 20_500; g++) {
    const id = cellFromOrdinal(Math.floor(rnd() * CELL_COUNT));
    const cell = s2.Cell.fromCellID(id);
    const k = Math.floor(rnd() * 4);
    const a = cell.vertex(k).vector;
    const b = cell.vertex((k + 1) % 4).vector;
    const f = rnd();
    const v = new s2.Point(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f);
    const lat = s2.LatLng.latitude(v) * (180 / Math.PI);
    const lng = s2.LatLng.longitude(v) * (180 / Math.PI);
    for (const d of [0, 1e-11, -1e-11, 1e-13, -1e-13]) add(lat + d, lng - d, 'cell edge', g);
  }
  return out;
}

interface Bulk {
  errors: boolean;
  items: Record<string, { _id: string; status: number; _shards?: unknown; error?: unknown }>[];
}

async function bulk(lines: object[][], query: Record<string, string> = {}): Promise<Bulk> {
  const body = lines.map((l) => l.map((x) => JSON.stringify(x)).join('\n')).join('\n') + '\n';
  return (await client.request<Bulk>('POST', '/_bulk', { body, query, timeoutMs: 120_000 })).body;
}

async function recreate(index: string, f: BoundaryFile): Promise<void> {
  await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.request('PUT', `/${index}`, { body: indexBody(f) });
}

/** Every document of one shard: id → { routing, cell, shard field }. */
async function readShard(index: string, shard: number): Promise<Map<string, { routing: string; cell: unknown; shardField: unknown }>> {
  const out = new Map<string, { routing: string; cell: unknown; shardField: unknown }>();
  let after: unknown[] | undefined;
  for (;;) {
    const res = await client.request<{ hits: { hits: { _id: string; _routing: string; _source: { cell?: unknown; shard?: unknown }; sort: unknown[] }[] } }>('POST', `/${index}/_search`, {
      query: { preference: `_shards:${shard}` },
      body: { size: 5000, _source: ['cell', 'shard'], sort: [{ id: 'asc' }], query: { match_all: {} }, ...(after ? { search_after: after } : {}) },
    });
    const hits = res.body.hits.hits;
    for (const h of hits) out.set(h._id, { routing: h._routing, cell: h._source.cell, shardField: h._source.shard });
    if (hits.length < 5000) return out;
    after = hits[hits.length - 1].sort;
  }
}

const errorText = (b: Bulk, k: number) => JSON.stringify(Object.values(b.items[k])[0].error ?? null);

beforeAll(async () => {
  await recreate(INDEX, file);
  await installPipeline(client, INDEX, file, null);
});

afterAll(async () => {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/${INDEX}-move`, { okStatuses: [404] });
  await client.request('DELETE', `/${INDEX}-seed`, { okStatuses: [404] });
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(`${INDEX}-seed`)}`, { okStatuses: [404] });
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`, { okStatuses: [404] });
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(`${INDEX}-move`)}`, { okStatuses: [404] });
  await client.close();
});

describe('the routing pipeline on the real node', () => {
  it('routes >= 20,000 points written with no routing to the shard and cell the core names: 0 differences', async () => {
    const pts = points();
    expect(pts.length).toBeGreaterThanOrEqual(20_000);
    const t0 = performance.now();
    for (let i = 0; i < pts.length; i += BATCH) {
      const lines = pts.slice(i, i + BATCH).map((p, k) => [{ index: { _index: INDEX, _id: `p${i + k}` } }, { join: 'restaurant', id: `p${i + k}`, location: { lat: p.lat, lon: p.lng } }]);
      const b = await bulk(lines);
      if (b.errors) {
        const bad = b.items.map((it, k) => ({ k, it: Object.values(it)[0] })).filter((x) => x.it.error).slice(0, 5);
        throw new Error(`bulk refused ${bad.length}+ documents: ${bad.map((x) => `${x.it._id} (${JSON.stringify(pts[i + x.k])}): ${JSON.stringify(x.it.error)}`).join('; ')}`);
      }
    }
    const writeMs = performance.now() - t0;
    await client.request('POST', `/${INDEX}/_refresh`);
    const found = new Map<string, { shard: number; routing: string; cell: unknown; shardField: unknown }>();
    for (const s of router.shards) for (const [id, d] of await readShard(INDEX, s.shard)) found.set(id, { shard: s.shard, ...d });
    const diffs: string[] = [];
    pts.forEach((p, k) => {
      const id = `p${k}`;
      const want = router.route(p.lat, p.lng);
      const got = found.get(id);
      if (!got) diffs.push(`${id} ${p.why} (${p.lat}, ${p.lng}): not found on any shard`);
      else if (got.shard !== want.shard || got.routing !== want.name || got.cell !== want.token || got.shardField !== want.name) {
        diffs.push(`${id} ${p.why} (${p.lat}, ${p.lng}): core ${want.token} ${want.name} shard ${want.shard}, node ${String(got.cell)} ${got.routing} shard ${got.shard} (field ${String(got.shardField)})`);
      }
    });
    expect(found.size).toBe(pts.length);
    expect(diffs.slice(0, 20)).toEqual([]);
    expect(diffs.length).toBe(0);
    // The hair points do straddle edges: in many groups of nudges around one edge point the core itself names two cells.
    const groups = new Map<string, Set<string>>();
    pts.forEach((p) => {
      if (p.group === undefined) return;
      const key = String(p.group);
      if (!groups.has(key)) groups.set(key, new Set());
      groups.get(key)!.add(cellToken(cellAt(p.lat, p.lng)));
    });
    const straddling = [...groups.values()].filter((g) => g.size > 1).length;
    expect(straddling).toBeGreaterThan(500);
    console.log(`pipeline fidelity: ${pts.length} points through the pipeline in ${(writeMs / 1000).toFixed(1)} s, 0 differences (${straddling} of ${groups.size} cell-edge groups straddle an edge)`);
  });

  it('refuses a write whose explicit routing is not the cell\'s owner, naming the routing, the cell and the owner', async () => {
    const lat = 37.7749;
    const lng = -122.4194;
    const want = router.route(lat, lng);
    const wrong = router.shards.find((s) => s.name !== want.name)!.name;
    const b = await bulk([[{ index: { _index: INDEX, _id: 'wrong-routing', routing: wrong } }, { join: 'restaurant', id: 'wrong-routing', location: { lat, lon: lng } }]]);
    expect(b.errors).toBe(true);
    const text = errorText(b, 0);
    expect(text).toContain(`routing \\"${wrong}\\" is not an owner of cell ${want.token}`);
    expect(text).toContain(`expected ${want.name}`);
    expect(text).toContain(file.hash);
  });

  it('keeps a valid explicit routing and routes a dish like its restaurant', async () => {
    const lat = 48.8566;
    const lng = 2.3522;
    const want = router.route(lat, lng);
    const b = await bulk([
      [{ index: { _index: INDEX, _id: 'r-paris', routing: want.name } }, { join: 'restaurant', id: 'r-paris', location: { lat, lon: lng } }],
      // A dish: no routing, its restaurant's location as a "lat,lon" string (a geo_point form plain writers send).
      [{ index: { _index: INDEX, _id: 'd-paris' } }, { join: { name: 'dish', parent: 'r-paris' }, id: 'd-paris', restaurant_id: 'r-paris', restaurant_location: `${lat},${lng}` }],
    ]);
    expect(b.errors, JSON.stringify(b.items)).toBe(false);
    await client.request('POST', `/${INDEX}/_refresh`);
    const shard = await readShard(INDEX, want.shard);
    expect(shard.get('r-paris')).toEqual({ routing: want.name, cell: want.token, shardField: want.name });
    // A dish gets its routing, not the restaurant's fields.
    expect(shard.get('d-paris')).toEqual({ routing: want.name, cell: undefined, shardField: undefined });
    const child = await client.request<{ hits: { total: { value: number } } }>('POST', `/${INDEX}/_search`, { query: { routing: want.name }, body: { query: { parent_id: { type: 'dish', id: 'r-paris' } } } });
    expect(child.body.hits.total.value).toBe(1);
  });

  it('fails a document with neither location nor restaurant_location, saying so', async () => {
    const b = await bulk([[{ index: { _index: INDEX, _id: 'nowhere' } }, { join: 'restaurant', id: 'nowhere', name: 'Nowhere' }]]);
    expect(b.errors).toBe(true);
    expect(errorText(b, 0)).toContain('neither location (a restaurant) nor restaurant_location (a dish)');
  });

  it('reads its identity back and shows it in /api/status; a search refuses with 409 while it disagrees with _meta', async () => {
    const installed = await readPipeline(client, INDEX);
    expect(installed?.defaultPipeline).toBe(pipelineId(INDEX));
    expect(pipelineStatusOf(installed, await fetchIndexMeta(client, INDEX), INDEX)?.matches).toBe(true);
    const api = new LiveApi({ file, client, pipelineTtlMs: 0, pipelineSettleMs: 20 });
    const status = await api.status();
    expect(status.body.pipeline).toMatchObject({ id: pipelineId(INDEX), hash: file.hash, epoch: 0, matches: true });
    const q = new URLSearchParams('lat=37.7749&lng=-122.4194&radius=5km&size=1');
    expect((await api.search(q)).httpStatus).toBe(200);
    // A pipeline made from another boundary file (a stale writer's): searches are refused until it is reinstalled.
    const other = derivedFile(INDEX, 2);
    await installPipeline(client, INDEX, other, null);
    const refused = await api.search(q);
    expect(refused.httpStatus).toBe(409);
    expect(refused.body.drift).toMatchObject({ status: 'pipeline-mismatch' });
    expect(JSON.stringify(refused.body.error)).toContain('npx geoshard pipeline --install');
    expect((await api.status()).body.pipeline).toMatchObject({ hash: other.hash, matches: false });
    await installPipeline(client, INDEX, file, null);
    expect((await api.search(q)).httpStatus).toBe(200);
    // No pipeline: not a refusal; the status says none.
    const removed = await uninstallPipeline(client, INDEX);
    expect(removed).toEqual({ id: pipelineId(INDEX), unset: true, deleted: true });
    expect((await api.status()).body.pipeline).toBeNull();
    expect((await api.search(q)).httpStatus).toBe(200);
    await installPipeline(client, INDEX, file, null);
  });
});

describe('the routing pipeline during a move', () => {
  // The bundled file's boundaries[3] moved back by 400 cells: [b3 - 400, b3) goes from shard 3 to shard 4 (key order).
  const index = `${INDEX}-move`;
  const moved = derivedFile(index);
  const names = moved.shards.map((s) => s.name);
  const b3 = cellOrdinal(parseToken(moved.boundaries[3]));
  const tok = (o: number) => cellToken(cellFromOrdinal(o));
  const { hash: _h, ...rest } = moved;
  const candidate = { ...rest, version: 2, parent: moved.hash, boundaries: moved.boundaries.map((b, i) => (i === 3 ? tok(b3 - 400) : b)) };
  const move: PlanMove = { n: 1, from: names[3], to: names[4], start: tok(b3 - 400), end: tok(b3), startOrdinal: b3 - 400, endOrdinal: b3, fromShard: moved.shards[3].shard, toShard: moved.shards[4].shard, candidateTo: names[4], cells: 400, restaurants: 0, dishes: 0, share: 0 };
  const NOW = '2026-12-01T00:00:00.000Z';
  let state: MigrationState;
  const c = cellCenter(cellFromOrdinal(b3 - 200));

  beforeAll(async () => {
    const cand = withHash(candidate);
    state = advance(advance(startState(moved, cand, [move], NOW), 0, 'dual-write', NOW), 0, 'copying', NOW);
    await recreate(index, moved);
    await writeMeta(client, index, withState(indexMeta(moved), state));
    await installPipeline(client, index, moved, state);
  });

  it('routes a plain write to the read owner, keeps a write to either owner, refuses a third shard naming both', async () => {
    const src = (id: string) => ({ join: 'restaurant', id, location: { lat: c.lat, lon: c.lng } });
    const third = names[0];
    const b = await bulk([
      [{ index: { _index: index, _id: 'plain' } }, src('plain')],
      [{ index: { _index: index, _id: 'old-owner', routing: names[3] } }, src('old-owner')],
      [{ index: { _index: index, _id: 'new-owner', routing: names[4] } }, src('new-owner')],
      [{ index: { _index: index, _id: 'third', routing: third } }, src('third')],
    ]);
    expect(Object.values(b.items[0])[0].error).toBeUndefined();
    expect(Object.values(b.items[1])[0].error).toBeUndefined();
    expect(Object.values(b.items[2])[0].error).toBeUndefined();
    expect(errorText(b, 3)).toContain(`expected ${names[3]} or ${names[4]}`);
    await client.request('POST', `/${index}/_refresh`);
    const r = new Router(moved);
    const onOld = await readShard(index, moved.shards[3].shard);
    const onNew = await readShard(index, moved.shards[4].shard);
    expect(r.shards[3].shard).not.toBe(r.shards[4].shard);
    expect([...onOld.keys()].sort()).toEqual(['old-owner', 'plain']);
    expect([...onNew.keys()]).toEqual(['new-owner']);
    expect(onNew.get('new-owner')?.shardField).toBe(names[4]);
    expect(onOld.get('plain')?.routing).toBe(names[3]);
  });
});

describe('installing the pipeline', () => {
  async function cli(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  }

  it('seed installs it after its load, for the file it seeded with', async () => {
    const seeded = derivedFile(`${INDEX}-seed`);
    const r = await seedIndex({ client, router: new Router(seeded), restaurants: 200, dishesPerRestaurant: 2, recreate: true });
    expect(r.pipeline).toEqual({ id: pipelineId(seeded.index), identity: expectedIdentity(seeded, null), processor: 'painless' });
    const back = await readPipeline(client, seeded.index);
    expect(back?.defaultPipeline).toBe(pipelineId(seeded.index));
    expect(back?.identity).toEqual(expectedIdentity(seeded, null));
  });

  it('geoshard pipeline --print, --uninstall and --install work on the index named, from its _meta', async () => {
    const index = `${INDEX}-seed`;
    const printed = await cli('pipeline', '--print', '--index', index);
    expect(printed.code, printed.err).toBe(0);
    expect(JSON.parse(printed.out).pipeline.processors[0].script.params.identity).toEqual(expectedIdentity(derivedFile(index), null));
    const un = await cli('pipeline', '--uninstall', '--index', index);
    expect(un.code, un.err).toBe(0);
    expect(un.out).toContain('default_pipeline unset');
    expect((await readPipeline(client, index))?.exists).toBe(false);
    const again = await cli('pipeline', '--uninstall', '--index', index);
    expect(again.out).toContain('nothing to do');
    const inst = await cli('pipeline', '--install', '--index', index);
    expect(inst.code, inst.err).toBe(0);
    expect(inst.out).toContain(`installed ingest pipeline ${pipelineId(index)}`);
    expect((await readPipeline(client, index))?.defaultPipeline).toBe(pipelineId(index));
    const missing = await cli('pipeline', '--install', '--index', 'gs-pipe-does-not-exist');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('index "gs-pipe-does-not-exist" does not exist');
  });
});
