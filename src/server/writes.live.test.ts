/**
 * Writes on the real node, through the API (GEOSHARD_WRITES on) and through
 * the package's writer (GeoIndexer), into indexes of this test's own
 * (gs-writer-*). Every document is looked for on each shard by itself
 * (`preference=_shards:N`), so "on the shard the core names" and "on no other
 * shard" are the engine's word, not the writer's.
 *
 *   - a restaurant put lands on the shard the core names, and the engine's
 *     acknowledgement names the same shard; its dish lands beside it;
 *   - moved to a location of another shard, it and its dishes are on the new
 *     shard only, none left behind; deleted, it is on no shard;
 *   - an unknown restaurant is a 404; an index made for another boundary file a 409;
 *   - under a migration state written into `_meta` here, GeoIndexer writes to
 *     both owners (each copy with its own routing), re-reads `_meta` when the
 *     epoch changes, and a write block (the cutover window) is waited out.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Router, cellOrdinal, ordinalAt, parseToken, type BoundaryFile } from '../core/index.ts';
import type { MigrationState } from '../core/migrationState.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, type RunningApi } from '../testing/testkit.ts';
import { sampleOf } from '../data/sample.ts';
import { movedCandidate } from '../testing/migrationFixture.ts';
import { withState } from '../ops/migrate/migration.ts';
import { tryInstallPipeline } from '../ops/routing/pipelineInstall.ts';
import { SampleIndexer } from '../opensearch/index.ts';
import type { WriteAnswer } from './wire.ts';
import { fetchIndexMeta } from '../opensearch/indexMeta.ts';
import { writeMeta } from '../cluster/indexMeta.ts';
import { indexMappings } from '../opensearch/sampleIndex.ts';

const client = liveClient();
const SAMPLE = { restaurants: 300, dishesPerRestaurant: 2 };
const file = derivedFile('gs-writer-live');
const migFile = derivedFile('gs-writer-migration');
const router = new Router(file);

/** The shards (numbers) on which a search of `id` by itself finds it, with the routing of each copy found. */
async function whereIs(index: string, id: string, numberOfShards: number): Promise<{ shard: number; routing: string; source: Record<string, unknown> }[]> {
  await client.request('POST', `/${index}/_refresh`);
  const out: { shard: number; routing: string; source: Record<string, unknown> }[] = [];
  for (let n = 0; n < numberOfShards; n++) {
    const { body } = await client.request<{ hits: { hits: { _routing: string; _source: Record<string, unknown> }[] } }>('POST', `/${index}/_search`, {
      query: { preference: `_shards:${n}` },
      body: { size: 10, query: { ids: { values: [id] } } },
    });
    for (const h of body.hits.hits) out.push({ shard: n, routing: h._routing, source: h._source });
  }
  return out;
}

/** The shards holding dishes of a restaurant, by shard number, each with how many. */
async function dishShards(index: string, restaurantId: string, numberOfShards: number): Promise<Record<number, number>> {
  await client.request('POST', `/${index}/_refresh`);
  const out: Record<number, number> = {};
  for (let n = 0; n < numberOfShards; n++) {
    const { body } = await client.request<{ count: number }>('POST', `/${index}/_count`, { query: { preference: `_shards:${n}` }, body: { query: { term: { restaurant_id: restaurantId } } } });
    if (body.count > 0) out[n] = body.count;
  }
  return out;
}

async function call(api: RunningApi, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(api.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Two points on different shards of the file (sample restaurants' locations, so real places). */
function twoShards(): [{ lat: number; lng: number }, { lat: number; lng: number }] {
  const rs = sampleOf(SAMPLE.restaurants);
  const a = rs[0];
  const b = rs.find((r) => router.route(r.lat, r.lng).shard !== router.route(a.lat, a.lng).shard)!;
  return [
    { lat: a.lat, lng: a.lng },
    { lat: b.lat, lng: b.lng },
  ];
}

describe('writes through the API on the real node', () => {
  let api: RunningApi;
  const id = 'gsw-r1';
  const dishId = 'gsw-r1-d0';
  const [A, B] = twoShards();

  beforeAll(async () => {
    await ensureSeeded(client, file, SAMPLE.restaurants, SAMPLE.dishesPerRestaurant);
    api = await startApi({ file, client, writes: true });
    // A run stopped half-way leaves its documents: start clean.
    await call(api, 'DELETE', `/api/restaurants/${id}`);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('puts a restaurant on the shard the core names, and the engine acknowledges that shard', async () => {
    const r = await call(api, 'PUT', `/api/restaurants/${id}`, { name: 'Blue Fig', lat: A.lat, lng: A.lng, cuisines: ['thai'], price_level: 2 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const w = r.body as WriteAnswer;
    const core = router.route(A.lat, A.lng);
    expect(w).toMatchObject({ status: 'written', kind: 'restaurant', id, restaurantId: id, core: { name: core.name, shard: core.shard }, owners: [{ name: core.name, shard: core.shard, role: 'read' }], epoch: null, dishes: 0 });
    expect(w.acknowledged).toEqual([{ routing: core.name, shard: core.shard, node: expect.any(String), result: 'created' }]);
    const found = await whereIs(file.index, id, file.numberOfShards);
    expect(found.map((f) => [f.shard, f.routing])).toEqual([[core.shard, core.name]]);
    expect(found[0].source).toMatchObject({ name: 'Blue Fig', shard: core.name, cell: w.cell, cuisines: ['thai'], price_level: 2, location: { lat: A.lat, lon: A.lng } });
  });

  it('puts a dish beside its restaurant, carrying its copy of the restaurant', async () => {
    const r = await call(api, 'PUT', `/api/restaurants/${id}/dishes/${dishId}`, { name: 'Fig salad', cuisine: 'thai', price_cents: 1299, diets: ['vegan'] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const core = router.route(A.lat, A.lng);
    expect(r.body).toMatchObject({ status: 'written', kind: 'dish', id: dishId, restaurantId: id, core: { shard: core.shard }, dishes: 0 });
    expect(r.body.acknowledged).toMatchObject([{ routing: core.name, shard: core.shard, result: 'created' }]);
    const found = await whereIs(file.index, dishId, file.numberOfShards);
    expect(found.map((f) => f.shard)).toEqual([core.shard]);
    expect(found[0].source).toMatchObject({ restaurant_id: id, restaurant: { id, name: 'Blue Fig' }, restaurant_location: { lat: A.lat, lon: A.lng }, price_cents: 1299 });
    // The restaurant counts it.
    expect((await whereIs(file.index, id, file.numberOfShards))[0].source.dish_count).toBe(1);
  });

  it('moves the restaurant and its dishes to the shard of its new location, leaving none behind', async () => {
    const from = router.route(A.lat, A.lng);
    const to = router.route(B.lat, B.lng);
    expect(to.shard).not.toBe(from.shard);
    const r = await call(api, 'PUT', `/api/restaurants/${id}`, { name: 'Blue Fig II', lat: B.lat, lng: B.lng });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ core: { name: to.name, shard: to.shard }, owners: [{ name: to.name, shard: to.shard, role: 'read' }], dishes: 1 });
    expect(r.body.acknowledged).toMatchObject([{ routing: to.name, shard: to.shard, result: 'created' }]);
    const rest = await whereIs(file.index, id, file.numberOfShards);
    expect(rest.map((f) => [f.shard, f.routing])).toEqual([[to.shard, to.name]]);
    expect(rest[0].source).toMatchObject({ name: 'Blue Fig II', location: { lat: B.lat, lon: B.lng }, shard: to.name, dish_count: 1 });
    expect(await dishShards(file.index, id, file.numberOfShards)).toEqual({ [to.shard]: 1 });
    const dish = await whereIs(file.index, dishId, file.numberOfShards);
    expect(dish.map((f) => f.shard)).toEqual([to.shard]);
    expect(dish[0].source).toMatchObject({ restaurant: { name: 'Blue Fig II' }, restaurant_location: { lat: B.lat, lon: B.lng }, name: 'Fig salad' });
  });

  it('deletes the restaurant with its dishes from every shard', async () => {
    const r = await call(api, 'DELETE', `/api/restaurants/${id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'deleted', kind: 'restaurant', id, dishes: 1 });
    expect(r.body.acknowledged).toMatchObject([{ result: 'deleted', shard: router.route(B.lat, B.lng).shard }]);
    expect(await whereIs(file.index, id, file.numberOfShards)).toEqual([]);
    expect(await whereIs(file.index, dishId, file.numberOfShards)).toEqual([]);
    expect(await dishShards(file.index, id, file.numberOfShards)).toEqual({});
  });

  it('answers 404 for a dish of an unknown restaurant and a delete of an unknown id', async () => {
    const d = await call(api, 'PUT', '/api/restaurants/gsw-nobody/dishes/gsw-x', { name: 'Ghost soup' });
    expect(d.status).toBe(404);
    expect(d.body.status).toBe('not-found');
    expect(d.body.error.message).toContain('"gsw-nobody"');
    const del = await call(api, 'DELETE', '/api/restaurants/gsw-nobody');
    expect(del.status).toBe(404);
    expect(del.body.status).toBe('not-found');
    expect(await whereIs(file.index, 'gsw-x', file.numberOfShards)).toEqual([]);
  });

  it('refuses a restaurant id that is a dish id (400 naming id) and writes nothing', async () => {
    const seeded = sampleOf(SAMPLE.restaurants)[1];
    const taken = `${seeded.id}-d0`;
    const r = await call(api, 'PUT', `/api/restaurants/${taken}`, { name: 'Clash', lat: A.lat, lng: A.lng });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ param: 'id' });
    expect((await whereIs(file.index, taken, file.numberOfShards)).map((f) => f.source.restaurant_id)).toEqual([seeded.id]);
  });

  it('refuses writes into an index made with another boundary file (409 drift), writing nothing', async () => {
    const other = await startApi({ file: derivedFile(file.index, 2), client, writes: true });
    try {
      const r = await call(other, 'PUT', '/api/restaurants/gsw-drift', { name: 'Drift', lat: A.lat, lng: A.lng });
      expect(r.status).toBe(409);
      expect(r.body.status).toBe('drift');
    } finally {
      await other.close();
    }
    expect(await whereIs(file.index, 'gsw-drift', file.numberOfShards)).toEqual([]);
  });
});

describe('writes into an index whose engine routes the names elsewhere', () => {
  const INDEX = 'gs-writer-routing-30';
  const other = derivedFile(INDEX);
  beforeAll(async () => {
    await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
    // Same boundary file hash in _meta (no drift by hash): only number_of_routing_shards differs from what the names were chosen for.
    await client.request('PUT', `/${INDEX}`, { body: { settings: { index: { number_of_shards: 15, number_of_routing_shards: 30, number_of_replicas: 0 } }, mappings: indexMappings(other) }, timeoutMs: 60_000 });
    await client.request('GET', `/_cluster/health/${INDEX}`, { query: { wait_for_status: 'yellow', timeout: '60s' }, timeoutMs: 70_000 });
    return () => client.request('DELETE', `/${INDEX}`, { okStatuses: [404] }).then(() => undefined);
  }, 90_000);

  it('are refused with 409 routing-mismatch, writing nothing', async () => {
    const api = await startApi({ file: other, client, writes: true });
    try {
      const r = await call(api, 'PUT', '/api/restaurants/gsw-r30', { name: 'Elsewhere', lat: 40.7, lng: -74 });
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body).toMatchObject({ status: 'drift', drift: { status: 'routing-mismatch' } });
      expect(r.body.error.message).toContain('number_of_routing_shards');
    } finally {
      await api.close();
    }
    expect(await whereIs(INDEX, 'gsw-r30', 15)).toEqual([]);
  });
});

describe('GeoIndexer under a migration state in _meta', () => {
  const base: BoundaryFile = migFile;
  const candidate = movedCandidate(base, SAMPLE.restaurants, [5], 3);
  const k = 5;
  const start = candidate.boundaries[k];
  const end = base.boundaries[k];
  // A sample restaurant inside the moving range [start, end): its old and new owners, from the two files' routers.
  const inRange = sampleOf(SAMPLE.restaurants).find((r) => {
    const o = ordinalAt(r.lat, r.lng);
    return o >= cellOrdinal(parseToken(start)) && o < cellOrdinal(parseToken(end));
  })!;
  const P = { lat: inRange.lat, lng: inRange.lng };
  const from = new Router(base).route(P.lat, P.lng);
  const to = new Router(candidate).route(P.lat, P.lng);
  const state = (epoch: number, step: 'dual-write' | 'copying' | 'deleting'): MigrationState => ({
    epoch,
    base: base.hash,
    target: candidate.hash,
    targetFile: candidate,
    startedAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
    moves: [{ start, end, from: from.name, to: to.name, step, copied: { restaurants: 0, dishes: 0 }, verified: step === 'deleting' ? { from: { restaurants: 1, dishes: 1 }, to: { restaurants: 1, dishes: 1 } } : null }],
  });
  const setState = async (s: MigrationState | null) => {
    const meta = (await fetchIndexMeta(client, base.index))!;
    await writeMeta(client, base.index, withState(meta, s));
    // As `geoshard migrate` does: the routing pipeline (installed by the seed) follows the state, or it
    // would refuse the new owner's routing as no owner of the cell.
    await tryInstallPipeline(client, base.index, base, s);
  };
  const indexer = new SampleIndexer(client.os, base.index, { metaTtlMs: 0 });
  const id = 'gsw-m1';

  beforeAll(async () => {
    expect(from.shard).not.toBe(to.shard);
    await ensureSeeded(client, base, SAMPLE.restaurants, SAMPLE.dishesPerRestaurant);
    await setState(null);
    await client.request('PUT', `/${base.index}/_settings`, { body: { index: { 'blocks.write': false } } });
    await indexer.deleteRestaurant(id).catch(() => {});
  }, 120_000);
  afterAll(async () => {
    await client.request('PUT', `/${base.index}/_settings`, { body: { index: { 'blocks.write': false } } }).catch(() => {});
    await indexer.deleteRestaurant(id).catch(() => {});
    await setState(null).catch(() => {});
  });

  it('writes to the one owner while settled, then to both owners once _meta says the range is copying (a new epoch)', async () => {
    const settled = await indexer.putRestaurant({ id, name: 'Moving Fig', lat: P.lat, lng: P.lng });
    expect(settled.owners.map((o) => o.name)).toEqual([from.name]);
    expect(settled.epoch).toBeNull();
    expect((await whereIs(base.index, id, base.numberOfShards)).map((f) => [f.shard, f.routing])).toEqual([[from.shard, from.name]]);

    await setState(state(3, 'copying'));
    const dual = await indexer.putRestaurant({ id, name: 'Moving Fig', lat: P.lat, lng: P.lng, priceLevel: 3 });
    expect(dual.epoch).toBe(3);
    expect(dual.owners.map((o) => o.name)).toEqual([from.name, to.name]);
    expect(dual.read.name).toBe(from.name);
    const found = await whereIs(base.index, id, base.numberOfShards);
    expect(found.map((f) => [f.shard, f.routing]).sort()).toEqual([[from.shard, from.name], [to.shard, to.name]].sort());
    // Each copy's `shard` field names its own routing.
    for (const f of found) expect(f.source).toMatchObject({ shard: f.routing, price_level: 3 });
    for (const o of dual.owners) expect((await indexer.locate(id, o.name))?.shard).toBe(o.shard);
  });

  it('writes a dish to both owners, and the API names both owners and the epoch', async () => {
    const api = await startApi({ file: base, client, writes: true });
    try {
      const r = await call(api, 'PUT', `/api/restaurants/${id}/dishes/${id}-d0`, { name: 'Both ways' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const w = r.body as WriteAnswer;
      expect(w.epoch).toBe(3);
      expect(w.core).toEqual({ name: from.name, shard: from.shard });
      expect(w.owners).toEqual([
        { name: from.name, shard: from.shard, role: 'read' },
        { name: to.name, shard: to.shard, role: 'write' },
      ]);
      expect(w.acknowledged.map((a) => [a.routing, a.shard, a.result])).toEqual([
        [from.name, from.shard, 'created'],
        [to.name, to.shard, 'created'],
      ]);
    } finally {
      await api.close();
    }
    expect(await dishShards(base.index, id, base.numberOfShards)).toEqual({ [from.shard]: 1, [to.shard]: 1 });
  });

  it('once the range is past the switch, a put writes the new owner only and deletes the old copy with its dishes', async () => {
    await setState(state(7, 'deleting'));
    const p = await indexer.putRestaurant({ id, name: 'Moved Fig', lat: P.lat, lng: P.lng });
    expect(p.epoch).toBe(7);
    expect(p.owners.map((o) => o.name)).toEqual([to.name]);
    expect(p.movedFrom).toEqual([from.name]);
    expect(p.dishes).toBe(1);
    expect((await whereIs(base.index, id, base.numberOfShards)).map((f) => f.shard)).toEqual([to.shard]);
    expect(await dishShards(base.index, id, base.numberOfShards)).toEqual({ [to.shard]: 1 });
  });

  it('waits out a write block (a cutover window) and loses nothing; the API answers 429 busy when it outlasts its retries', async () => {
    await setState(state(3, 'copying'));
    await client.request('PUT', `/${base.index}/_settings`, { body: { index: { 'blocks.write': true } } });
    const t0 = performance.now();
    const pending = indexer.putRestaurant({ id, name: 'Blocked Fig', lat: P.lat, lng: P.lng });
    await new Promise((r) => setTimeout(r, 800));
    const api = await startApi({ file: base, client, writes: true, writeRetryMs: 300 });
    try {
      const busy = await call(api, 'PUT', `/api/restaurants/${id}`, { name: 'Impatient Fig', lat: P.lat, lng: P.lng });
      expect(busy.status, JSON.stringify(busy.body)).toBe(429);
      expect(busy.body.status).toBe('busy');
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
    await client.request('PUT', `/${base.index}/_settings`, { body: { index: { 'blocks.write': false } } });
    const p = await pending;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(800);
    expect(p.results[0].attempts).toBeGreaterThan(1);
    const found = await whereIs(base.index, id, base.numberOfShards);
    expect(found.map((f) => f.shard).sort((a, b) => a - b)).toEqual([from.shard, to.shard].sort((a, b) => a - b));
    for (const f of found) expect(f.source.name).toBe('Blocked Fig');
  });

  it('deletes from both owners during the move', async () => {
    const d = await indexer.deleteRestaurant(id);
    expect(d.routings.sort()).toEqual([from.name, to.name].sort());
    expect(d.dishes).toBe(1);
    expect(await whereIs(base.index, id, base.numberOfShards)).toEqual([]);
    expect(await dishShards(base.index, id, base.numberOfShards)).toEqual({});
  });
});
