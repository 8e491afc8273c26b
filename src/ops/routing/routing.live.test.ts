/**
 * Routing on a real OpenSearch node: shard names land where the core says,
 * documents sit on the shards the core predicts, and OpenSearch itself refuses
 * a write without routing. Runs after `node scripts/cluster.mjs start` (or
 * against OPENSEARCH_URL), on its own index.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { Router, shardForRouting } from '../../core/index.ts';
import { verifyRouting } from './verifyRouting.ts';
import { seedIndex, SeedError } from '../seed/seeder.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, getJson, TEST_INDEX, TEST_RESTAURANTS, TEST_DISHES_PER_RESTAURANT } from '../../testing/testkit.ts';
import { LiveApi } from '../../server/api.ts';
import { sampleOf } from '../../data/sample.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { searchShardsOf } from '../../opensearch/fingerprint.ts';
import { indexMappings } from '../../opensearch/sampleIndex.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

const client = liveClient();
const file = derivedFile(TEST_INDEX);
const router = new Router(file);

beforeAll(async () => {
  await ensureSeeded(client, file);
});

describe('shard names on the real node', () => {
  it('lands every shard name of the boundary file on its declared shard (_search_shards)', async () => {
    for (const s of router.shards) {
      expect(await searchShardsOf(client, TEST_INDEX, s.name), `name ${s.name}`).toEqual([s.shard]);
    }
  });

  it('sends names that are not shard names wherever the hash says, as the core computes', async () => {
    // A control: arbitrary routing values agree with the core's murmur3 model too.
    for (const v of ['x', 'restaurant-42', 'Zürich', 'a'.repeat(40)]) {
      expect(await searchShardsOf(client, TEST_INDEX, v)).toEqual([shardForRouting(v, file.numberOfShards)]);
    }
  });

  it('passes verify-routing: names, shard count, hash and per-shard counts all as predicted', async () => {
    const r = await verifyRouting(client, router);
    expect(r.problems).toEqual([]);
    expect(r.names.every((n) => n.ok)).toBe(true);
    expect(r.counts).toHaveLength(file.numberOfShards);
    const sample = sampleOf(TEST_RESTAURANTS);
    expect(r.counts!.reduce((n, c) => n + c.restaurants, 0)).toBe(sample.length);
    expect(r.counts!.reduce((n, c) => n + c.docs, 0)).toBe(sample.reduce((n, x) => n + 1 + Math.min(x.dishCount, TEST_DISHES_PER_RESTAURANT), 0));
  });

  it('fails verify-routing loudly when the index belongs to another boundary file', async () => {
    const other = new Router(derivedFile(TEST_INDEX, 2));
    const r = await verifyRouting(client, other);
    expect(r.problems.join('\n')).toContain(`made for boundary file ${file.hash}`);
  });
});

describe('the routing fingerprint', () => {
  it('is recorded by seed in _meta: the engine as the node names itself, the formula and the routing_num_shards', async () => {
    const root = await client.get<{ version: { number: string; distribution?: string } }>('/');
    const meta = await fetchIndexMeta(client, TEST_INDEX);
    expect(meta?.routing?.engine).toBe(root.version.distribution ?? 'elasticsearch');
    expect(meta?.routing?.version).toBe(root.version.number);
    expect(meta?.routing?.major).toBe(Number(root.version.number.split('.')[0]));
    expect(meta?.routing?.formula).toContain('murmur3(routing) floorMod routing_num_shards');
    // OpenSearch's default for 15 shards (number_of_routing_shards unset): 15 * 2^6, the largest 15 * 2^k <= 1024.
    expect(meta?.routing?.routingNumShards).toBe(960);
  });

  describe('on an index created with number_of_routing_shards 30 (not the 960 the names were chosen for)', () => {
    const INDEX = 'geoshard-live-routing-30';
    const other = derivedFile(INDEX);
    const otherRouter = new Router(other);

    beforeAll(async () => {
      await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
      // Same boundary file hash in _meta (no drift by hash), no documents: only the routing setting differs.
      await client.request('PUT', `/${INDEX}`, {
        body: { settings: { index: { number_of_shards: 15, number_of_routing_shards: 30, number_of_replicas: 0 } }, mappings: indexMappings(other) },
        timeoutMs: 60_000,
      });
      await client.request('GET', `/_cluster/health/${INDEX}`, { query: { wait_for_status: 'yellow', timeout: '60s' }, timeoutMs: 70_000 });
      return () => client.request('DELETE', `/${INDEX}`, { okStatuses: [404] }).then(() => undefined);
    });

    it('refuses live searches with a 409 naming the engine, the setting and the fix', async () => {
      const root = await client.get<{ version: { number: string; distribution?: string } }>('/');
      const api = await startApi({ file: other, client });
      try {
        const first = await api.api.start();
        expect('status' in first && first.status).toBe('routing-mismatch');
        const { status, body } = await getJson(`${api.url}/api/search?lat=40.7&lng=-74&radius=20mi`);
        expect(status).toBe(409);
        expect(body.status).toBe('drift');
        expect(body.drift.status).toBe('routing-mismatch');
        expect(body.routing.fingerprint.routingNumShards).toBe(30);
        expect(body.routing.misroutes.length).toBeGreaterThan(0);
        const m: string = body.error.message;
        expect(m).toContain(`${root.version.distribution ?? 'elasticsearch'} ${root.version.number}`);
        expect(m).toContain('number_of_routing_shards');
        expect(m).toContain('routing_num_shards 30');
        expect(m).toContain('chosen for 960');
        expect(m).toContain('geoshard seed --recreate');
        expect(m).toContain('geoshard balance');
      } finally {
        await api.close();
      }
    });

    it('makes verify-routing fail with the same explanation', async () => {
      const r = await verifyRouting(client, otherRouter);
      expect(r.fingerprint?.routingNumShards).toBe(30);
      expect(r.names.some((n) => !n.ok)).toBe(true);
      expect(r.problems.join('\n')).toMatch(/routing mismatch: .*number_of_routing_shards.*geoshard balance/s);
    });

    it('a LiveApi on the seeded index with the default setting is not refused', async () => {
      const api = new LiveApi({ file, client });
      const first = await api.start();
      expect('status' in first && first.status).toBe('ok');
    });
  });
});

describe('writes', () => {
  it('are rejected by OpenSearch when they carry no routing and bypass the routing pipeline', async () => {
    // seed installs the routing pipeline (pipeline.live.test.ts tests it); pipeline=_none skips it,
    // and the mapping's _routing.required is what is left to refuse the write.
    const doc = { join: 'restaurant', id: 'r-no-routing', name: 'Nowhere Diner', location: { lat: 40, lon: -100 } };
    const e = (await client.request('PUT', `/${TEST_INDEX}/_doc/r-no-routing`, { body: doc, query: { pipeline: '_none' } }).catch((x) => x)) as OpenSearchError;
    expect(e).toBeInstanceOf(OpenSearchError);
    expect(e.status).toBe(400);
    expect(e.type).toBe('routing_missing_exception');
    const bulk = await client.request<{ errors: boolean; items: { index: { status: number; error?: { type: string } } }[] }>('POST', '/_bulk', {
      body: JSON.stringify({ index: { _index: TEST_INDEX, _id: 'r-no-routing-2' } }) + '\n' + JSON.stringify(doc) + '\n',
      query: { pipeline: '_none' },
    });
    expect(bulk.body.errors).toBe(true);
    expect(bulk.body.items[0].index.error?.type).toBe('routing_missing_exception');
    expect((await client.get<{ count: number }>(`/${TEST_INDEX}/_count`, { query: { q: 'id:r-no-routing*' } })).count).toBe(0);
  });

  it('re-seeding the same sample overwrites by id: the document count does not change', async () => {
    const before = (await client.get<{ count: number }>(`/${TEST_INDEX}/_count`)).count;
    const r = await seedIndex({ client, router, restaurants: TEST_RESTAURANTS, dishesPerRestaurant: TEST_DISHES_PER_RESTAURANT });
    expect(r.created).toBe(false);
    expect(r.indexDocs).toBe(before);
    expect(r.restaurantDocs + r.dishDocs).toBe(before);
  });

  it('seeding with another boundary file is refused, naming both hashes, and writes nothing', async () => {
    const other = derivedFile(TEST_INDEX, 2);
    const before = (await client.get<{ count: number }>(`/${TEST_INDEX}/_count`)).count;
    const e = await seedIndex({ client, router: new Router(other), restaurants: 10, dishesPerRestaurant: 1 }).catch((x) => x);
    expect(e).toBeInstanceOf(SeedError);
    expect(e.message).toContain(file.hash);
    expect(e.message).toContain(other.hash);
    expect(e.message).toContain('--recreate');
    expect((await client.get<{ count: number }>(`/${TEST_INDEX}/_count`)).count).toBe(before);
    expect((await fetchIndexMeta(client, TEST_INDEX))?.hash).toBe(file.hash);
  });

  it('seeding another sample size into the index is refused', async () => {
    const e = await seedIndex({ client, router, restaurants: TEST_RESTAURANTS + 1, dishesPerRestaurant: TEST_DISHES_PER_RESTAURANT }).catch((x) => x);
    expect(e).toBeInstanceOf(SeedError);
    expect(e.message).toContain(`${TEST_RESTAURANTS} restaurants`);
  });
});
