import { describe, it, expect } from 'vitest';
import { bulkBody, bulkErrors, seedIndex, SeedError } from './seeder.ts';
import { OpenSearchClient } from './opensearch.ts';
import { LiveApi } from './api.ts';
import { indexBody, readIndexMeta } from './indexSpec.ts';
import { driftState } from './drift.ts';
import { docsOf, predictCounts } from './sample.ts';
import { Router, shardForRouting, cellAt, cellOrdinal, withMigration, cellToken, cellFromOrdinal } from '../core/index.ts';
import { fileWithCuts } from '../core/testutil.ts';
import type { Restaurant } from '../data/generator.ts';

const file = fileWithCuts([10_000, 2_000_000, 4_000_000], 'geoshard-unit');
const router = new Router(file);

/** A restaurant as the generator makes them (fields used by the sample). */
const restaurant = (index: number, lat: number, lng: number, dishCount: number): Restaurant => ({
  index,
  id: `r${String(index).padStart(6, '0')}`,
  name: 'Test Kitchen',
  place: 'Testville',
  state: 'CA',
  placeId: 1,
  lat,
  lng,
  cell: '',
  cuisines: ['italian'],
  priceLevel: 2,
  dishCount,
});

describe('the index definition', () => {
  it('has the file’s shard count, no replicas, required routing and the restaurant → dish join', () => {
    const b = indexBody(file) as { settings: { index: Record<string, unknown> }; mappings: Record<string, any> };
    expect(b.settings.index.number_of_shards).toBe(4);
    expect(b.settings.index.number_of_replicas).toBe(0);
    expect(b.settings.index.number_of_routing_shards).toBeUndefined();
    expect(b.mappings._routing).toEqual({ required: true });
    expect(b.mappings.dynamic).toBe('strict');
    expect(b.mappings.properties.join).toEqual({ type: 'join', relations: { restaurant: 'dish' } });
    expect(b.mappings.properties.location).toEqual({ type: 'geo_point' });
    for (const f of ['diets', 'allergens', 'cuisines', 'cuisine']) expect(b.mappings.properties[f]).toEqual({ type: 'keyword' });
  });

  it('records the boundary file’s hash, version and index in _meta, and reads it back', () => {
    const b = indexBody(file) as { mappings: { _meta: Record<string, unknown> } };
    expect(b.mappings._meta).toMatchObject({ hash: file.hash, version: 1, index: 'geoshard-unit', numberOfShards: 4 });
    const mapping = { 'geoshard-unit': { mappings: b.mappings } };
    expect(readIndexMeta(mapping, 'geoshard-unit')?.hash).toBe(file.hash);
    expect(readIndexMeta({ 'geoshard-unit': { mappings: {} } }, 'geoshard-unit')).toBeNull();
  });

  it('sets number_of_replicas to the replicas asked for (geoshard seed --replicas), keeping the shard count', () => {
    const b = indexBody(file, undefined, 2) as { settings: { index: Record<string, unknown> } };
    expect(b.settings.index.number_of_replicas).toBe(2);
    expect(b.settings.index.number_of_shards).toBe(4);
  });

  it('sets number_of_routing_shards when the boundary file declares it', () => {
    const b = indexBody({ ...file, routingNumShards: 8 }) as { settings: { index: Record<string, unknown> } };
    expect(b.settings.index.number_of_routing_shards).toBe(8);
  });
});

describe('sample documents', () => {
  it('routes a restaurant and each of its dishes by the shard holding its location', () => {
    const r = restaurant(42, 37.77, -122.42, 25);
    const docs = docsOf(r, router, 10);
    expect(docs).toHaveLength(11);
    const expected = router.shards[router.indexOfOrdinal(cellOrdinal(cellAt(37.77, -122.42)))].name;
    for (const d of docs) expect(d.routing).toBe(expected);
    expect(docs[0].source.join).toBe('restaurant');
    expect(docs[0].source.location).toEqual({ lat: 37.77, lon: -122.42 });
    for (const d of docs.slice(1)) expect(d.source.join).toEqual({ name: 'dish', parent: 'r000042' });
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
  });

  it('gives each dish a copy of what a hit shows of its restaurant and its location, indexed apart', () => {
    const r = restaurant(42, 37.77, -122.42, 25);
    const [parent, ...dishes] = docsOf(r, router, 10);
    const p = parent.source as Record<string, unknown>;
    for (const d of dishes) {
      expect(d.source.restaurant).toEqual({ id: p.id, name: p.name, place: p.place, state: p.state, location: p.location, cuisines: p.cuisines });
      expect(d.source.restaurant_location).toEqual({ lat: 37.77, lon: -122.42 });
    }
    const props = (indexBody(file) as { mappings: { properties: Record<string, unknown> } }).mappings.properties;
    expect(props.restaurant).toEqual({ type: 'object', enabled: false });
    expect(props.restaurant_location).toEqual({ type: 'geo_point' });
  });

  it('produces the same ids on every call, so re-seeding overwrites', () => {
    const r = restaurant(7, 40.7, -74, 12);
    expect(docsOf(r, router, 5).map((d) => d.id)).toEqual(docsOf(r, router, 5).map((d) => d.id));
  });

  it('predicts per-shard counts by OpenSearch shard number, dishes capped', () => {
    const rs = [restaurant(1, 37.77, -122.42, 25), restaurant(2, 37.78, -122.41, 3), restaurant(3, -33.9, 151.2, 8)];
    const p = predictCounts(router, rs, 5);
    const shardOf = (r: Restaurant) => shardForRouting(router.route(r.lat, r.lng).name, 4);
    const expected = { restaurants: [0, 0, 0, 0], dishes: [0, 0, 0, 0] };
    for (const r of rs) {
      expected.restaurants[shardOf(r)]++;
      expected.dishes[shardOf(r)] += Math.min(5, r.dishCount);
    }
    expect(p).toEqual(expected);
  });
});

describe('bulk requests', () => {
  it('writes an action line with index, id and routing before each source line', () => {
    const text = bulkBody('i', [{ id: 'a', routing: 'lima', source: { x: 1 } }]);
    expect(text).toBe('{"index":{"_index":"i","_id":"a","routing":"lima"}}\n{"x":1}\n');
  });

  it('lists every failed item of a bulk response', () => {
    const errs = bulkErrors({
      errors: true,
      items: [
        { index: { _id: 'a', status: 201 } },
        { index: { _id: 'b', status: 400, error: { type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict' } } },
      ],
    });
    expect(errs).toEqual([{ id: 'b', status: 400, type: 'strict_dynamic_mapping_exception', reason: 'mapping set to strict' }]);
    expect(bulkErrors({ errors: false, items: [] })).toEqual([]);
  });
});

describe('driftState', () => {
  const meta = (hash: string) => ({ app: 'geoshard' as const, hash, version: 3, index: file.index, numberOfShards: 4 });

  it('is ok when the index was made with this file', () => {
    expect(driftState(file, meta(file.hash)).status).toBe('ok');
  });

  it('names both hashes on a mismatch', () => {
    const d = driftState(file, meta('f'.repeat(64)));
    expect(d.status).toBe('mismatch');
    expect(d.message).toContain('f'.repeat(64));
    expect(d.message).toContain(file.hash);
  });

  it('tells a missing index from an index without geoshard _meta', () => {
    expect(driftState(file, undefined).status).toBe('missing-index');
    expect(driftState(file, null).status).toBe('no-meta');
  });
});

describe('boundary files with moves in progress', () => {
  // A move of [1,000,000, 2,000,000) from shard 1 to shard 2, being copied.
  const migrating = withMigration(file, {
    epoch: 1,
    target: 'f'.repeat(64),
    moves: [{ start: cellToken(cellFromOrdinal(1_000_000)), end: cellToken(cellFromOrdinal(2_000_000)), from: file.shards[1].name, to: file.shards[2].name, phase: 'copying' }],
  });
  // Nothing listens here: the refusals must come before any request.
  const client = new OpenSearchClient({ url: 'http://127.0.0.1:9', timeoutMs: 1000 });

  it('are refused by seed, which writes each document to one owner only', async () => {
    const e = await seedIndex({ client, router: new Router(migrating), restaurants: 1, dishesPerRestaurant: 0 }).catch((x) => x);
    expect(e).toBeInstanceOf(SeedError);
    expect(e.message).toContain('1 move(s) in progress');
  });

  it('are refused by the live API, which has no read exclusions', async () => {
    const r = await new LiveApi({ file: migrating, client }).search(new URLSearchParams('lat=1&lng=2&radius=3mi'));
    expect(r.httpStatus).toBe(500);
    expect(r.body.status).toBe('error');
    expect(JSON.stringify(r.body.error)).toContain('move(s) in progress');
  });
});
