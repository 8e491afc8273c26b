import { describe, it, expect } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedIndex, SeedError } from './seeder.ts';
import { OpenSearchClient } from '../../cluster/client.ts';
import { LiveApi } from '../../server/api.ts';
import { driftState } from '../../server/driftGuard.ts';
import { docsOf, predictCounts, sampleOf } from '../../data/sample.ts';
import { Router, shardForRouting, cellAt, cellOrdinal, cellToken, cellFromOrdinal } from '../../core/index.ts';
import { withMigration } from '../../core/plan.ts';
import { fileWithCuts } from '../../core/testutil.ts';
import type { Restaurant } from '../../data/generator.ts';
import { indexBody } from '../../opensearch/sampleIndex.ts';
import { readIndexMeta } from '../../opensearch/meta.ts';

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

describe('seedIndex on a busy cluster', () => {
  /**
   * A scripted OpenSearch on a local port: every change of the cluster state (index creation,
   * settings, mappings, pipeline) takes 400 ms, past the client's 150 ms deadline, and the index
   * creation answers before its primaries have started. What seed sends is recorded.
   */
  async function busyCluster() {
    const index = file.index;
    let meta: unknown = null;
    const docs = new Map<string, { routing: string; source: Record<string, unknown> }>();
    const calls: { method: string; path: string; query: Record<string, string>; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const u = new URL(req.url ?? '/', 'http://x');
        const method = req.method ?? 'GET';
        const path = u.pathname;
        calls.push({ method, path, query: Object.fromEntries(u.searchParams), body });
        const json = (status: number, b: unknown, delayMs = 0) => setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(b)), delayMs);
        const slow = 400;
        if (method === 'GET' && path === `/${index}/_mapping`) return meta ? json(200, { [index]: { mappings: { _meta: meta } } }) : json(404, { error: { type: 'index_not_found_exception', reason: 'no such index' }, status: 404 });
        if (method === 'PUT' && path === `/${index}`) {
          meta = (JSON.parse(body) as { mappings: { _meta: unknown } }).mappings._meta;
          return json(200, { acknowledged: true, shards_acknowledged: false, index }, slow);
        }
        if (method === 'GET' && path === `/_cluster/health/${index}`) return json(200, { status: 'green', timed_out: false }, 100);
        if (method === 'GET' && path === '/') return json(200, { version: { number: '2.19.6', distribution: 'opensearch' } });
        if (method === 'GET' && path === `/_cluster/state/metadata/${index}`) return json(200, { metadata: { indices: { [index]: { routing_num_shards: 1024 } } } });
        if (method === 'PUT' && path === `/${index}/_mapping`) {
          meta = (JSON.parse(body) as { _meta: unknown })._meta;
          return json(200, { acknowledged: true }, slow);
        }
        if (method === 'PUT' && (path === `/${index}/_settings` || path.startsWith('/_ingest/pipeline/'))) return json(200, { acknowledged: true }, slow);
        if (method === 'GET' && path === `/${index}/_settings/index.default_pipeline`) return json(200, { [index]: { settings: {} } });
        // No routing pipeline yet (what the pipeline's install reads first: the plugin's would be kept).
        if (method === 'GET' && path.startsWith('/_ingest/pipeline/')) return json(404, {});
        if (method === 'POST' && path === '/_bulk') {
          const lines = body.trim().split('\n');
          const items = [];
          for (let i = 0; i < lines.length; i += 2) {
            const a = (JSON.parse(lines[i]) as { index: { _index: string; _id: string; routing: string } }).index;
            docs.set(a._id, { routing: a.routing, source: JSON.parse(lines[i + 1]) });
            items.push({ index: { status: 201, result: 'created' } });
          }
          return json(200, { errors: false, items }, 20);
        }
        if (method === 'POST' && path === `/${index}/_refresh`) return json(200, {});
        if (method === 'GET' && path === `/${index}/_count`) return json(200, { count: docs.size });
        json(400, { error: { type: 'unexpected', reason: `${method} ${path}` } });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls, docs };
  }

  it('waits for slow index creation, settings, mappings and pipeline instead of failing, and writes the same documents', async () => {
    const c = await busyCluster();
    const client = new OpenSearchClient({ url: c.url, timeoutMs: 150 });
    try {
      const r = await seedIndex({ client, router, restaurants: 30, dishesPerRestaurant: 3, batchDocs: 20 });
      // The documents of the sample, each routed by its restaurant's shard (docsOf: the core's Router).
      const expected = sampleOf(30).flatMap((x) => docsOf(x, router, 3));
      expect(r.restaurantDocs + r.dishDocs).toBe(expected.length);
      expect(r.indexDocs).toBe(expected.length);
      expect([...c.docs.keys()].sort()).toEqual(expected.map((d) => d.id).sort());
      for (const d of expected) expect(c.docs.get(d.id)).toEqual({ routing: d.routing, source: JSON.parse(JSON.stringify(d.source)) });
      // Every change of the cluster state tells the engine how long to wait.
      const changes = c.calls.filter((x) => x.method === 'PUT' || x.method === 'DELETE');
      expect(changes.length).toBeGreaterThan(0);
      for (const x of changes) expect(x.query).toMatchObject({ cluster_manager_timeout: '90s', timeout: '45s' });
      // The creation answered before the primaries started: seed waited for them.
      expect(c.calls.some((x) => x.path === `/_cluster/health/${file.index}` && x.query.wait_for_status === 'yellow')).toBe(true);
      // The load settings come with the creation and are restored with the pipeline, in one update.
      const created = JSON.parse(changes.find((x) => x.path === `/${file.index}`)!.body) as { settings: { index: Record<string, unknown> } };
      expect(created.settings.index).toMatchObject({ refresh_interval: '-1', 'translog.durability': 'async' });
      expect(changes.filter((x) => x.path === `/${file.index}/_settings`).map((x) => JSON.parse(x.body))).toEqual([
        { index: { refresh_interval: null, 'translog.durability': null, default_pipeline: `geoshard-${file.index}` } },
      ]);
      // The load routes every document itself: the index's pipeline is not run on it.
      const bulks = c.calls.filter((x) => x.path === '/_bulk');
      expect(bulks.length).toBe(Math.ceil(expected.length / 20));
      for (const b of bulks) expect(b.query.pipeline).toBe('_none');
    } finally {
      await client.close();
      await new Promise((r) => c.server.close(r));
    }
  });
});
