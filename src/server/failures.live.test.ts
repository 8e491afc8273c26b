/**
 * The failure modes the article warns are silent, made loud: boundary drift
 * (409 naming both hashes, also when the index changes under a running
 * server), a node that does not answer (503 "unavailable") and a missing index.
 *
 * The node is shared by every live test, so "the node is stopped" is tested by
 * pointing the API at a local port where nothing listens: to the API that is
 * the same failure as a stopped node (the connection is refused).
 */
import { describe, it, expect, afterAll } from 'vitest';
import { Router } from '../core/index.ts';
import { OpenSearchClient } from '../cluster/client.ts';
import { seedIndex } from '../ops/seed/seeder.ts';
import { sampleOf, docsOf } from '../data/sample.ts';
import { KM_PER_MILE } from '../core/index.ts';
import { createApiMiddleware } from './middleware.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, getJson, closedPortUrl, TEST_INDEX, type RunningApi } from '../testing/testkit.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bulkBody } from '../opensearch/bulk.ts';
import { indexBody } from '../opensearch/sampleIndex.ts';

const client = liveClient();
const DRIFT_INDEX = 'geoshard-live-drift';
const PARTIAL_INDEX = 'geoshard-live-partial';
const running: RunningApi[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await client.request('DELETE', `/${DRIFT_INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/${PARTIAL_INDEX}`, { okStatuses: [404] });
});

async function api(opts: Parameters<typeof startApi>[0]): Promise<RunningApi> {
  const r = await startApi(opts);
  running.push(r);
  return r;
}

const SF = 'lat=37.7749&lng=-122.4194&radius=15mi';

describe('boundary drift', () => {
  it('refuses every search with 409 naming both hashes when the server’s boundary file is not the index’s', async () => {
    const indexFile = derivedFile(TEST_INDEX);
    await ensureSeeded(client, indexFile);
    const drifted = derivedFile(TEST_INDEX, 2);
    const s = await api({ file: drifted, client });
    for (const qs of [SF, `${SF}&compare=1`, 'diet=vegan']) {
      const { status, body } = await getJson(`${s.url}/api/search?${qs}`);
      expect(status, qs).toBe(409);
      expect(body.status).toBe('drift');
      expect(body.error.message).toContain(indexFile.hash);
      expect(body.error.message).toContain(drifted.hash);
      expect(body.drift).toMatchObject({ status: 'mismatch', indexHash: indexFile.hash, fileHash: drifted.hash });
      expect(body.hits).toBeUndefined();
    }
    const st = await getJson(`${s.url}/api/status`);
    expect(st.body.drift.status).toBe('mismatch');
  });

  it('notices an index recreated with another boundary file under a running server, on the next search', async () => {
    const v1 = derivedFile(DRIFT_INDEX, 1);
    const v2 = derivedFile(DRIFT_INDEX, 2);
    await seedIndex({ client, router: new Router(v1), restaurants: 200, dishesPerRestaurant: 2, recreate: true });
    const s = await api({ file: v1, client });
    const ok = await getJson(`${s.url}/api/search?diet=vegan&size=1`);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('complete');

    await seedIndex({ client, router: new Router(v2), restaurants: 200, dishesPerRestaurant: 2, recreate: true });
    const { status, body } = await getJson(`${s.url}/api/search?diet=vegan&size=1`);
    expect(status).toBe(409);
    expect(body.error.message).toContain(v1.hash);
    expect(body.error.message).toContain(v2.hash);
  });

  it('refuses searches on an index without geoshard _meta', async () => {
    const f = derivedFile(DRIFT_INDEX, 1);
    await client.request('DELETE', `/${DRIFT_INDEX}`, { okStatuses: [404] });
    await client.request('PUT', `/${DRIFT_INDEX}`, { body: { settings: { index: { number_of_shards: f.numberOfShards, number_of_replicas: 0 } } } });
    const s = await api({ file: f, client });
    const { status, body } = await getJson(`${s.url}/api/search?${SF}`);
    expect(status).toBe(409);
    expect(body.drift.status).toBe('no-meta');
  });

  it('answers 503 "unavailable" naming the missing index and how to create it', async () => {
    const f = derivedFile('geoshard-live-missing');
    await client.request('DELETE', '/geoshard-live-missing', { okStatuses: [404] });
    const s = await api({ file: f, client });
    const { status, body } = await getJson(`${s.url}/api/search?${SF}`);
    expect(status).toBe(503);
    expect(body.status).toBe('unavailable');
    expect(body.error.message).toContain('"geoshard-live-missing" does not exist');
    expect(body.error.message).toContain('geoshard seed');
  });
});

describe('a shard that does not answer', () => {
  // A real missing shard: the index is created with at most N-1 shards per
  // node, all on the node the client talks to, so OpenSearch leaves one primary
  // unassigned (the index is red until the test deletes it). Searches that
  // ask that shard come back with successful < total and no failure entry.
  it('makes searches that ask it "partial", never "complete", and names the shard', async () => {
    const f = derivedFile(PARTIAL_INDEX);
    const router = new Router(f);
    const n = f.numberOfShards;
    await client.request('DELETE', `/${PARTIAL_INDEX}`, { okStatuses: [404] });
    const body = indexBody(f) as { settings: { index: Record<string, unknown> } };
    body.settings.index['routing.allocation.total_shards_per_node'] = n - 1;
    // On a cluster of several nodes, keep every shard on one node, so that exactly one stays unassigned.
    body.settings.index['routing.allocation.require._name'] = (await client.get<{ name: string }>('/')).name;
    await client.request('PUT', `/${PARTIAL_INDEX}`, { body, query: { wait_for_active_shards: 0 } });
    // Wait until the allocator has placed the N-1 shards it can.
    await client.get(`/_cluster/health/${PARTIAL_INDEX}`, { query: { wait_for_active_shards: n - 1, timeout: '30s' }, timeoutMs: 40_000 });
    const rows = await client.get<{ shard: string; state: string }[]>(`/_cat/shards/${PARTIAL_INDEX}`, { query: { format: 'json', h: 'shard,state' } });
    const down = rows.filter((r) => r.state !== 'STARTED').map((r) => Number(r.shard));
    expect(down).toHaveLength(1);
    const u = down[0];

    // Write a few sample restaurants whose shards are up, and pick circles that do and do not touch shard u.
    const restaurants = sampleOf(400);
    const up = restaurants.filter((r) => router.route(r.lat, r.lng).shard !== u);
    const docs = up.slice(0, 40).flatMap((r) => docsOf(r, router, 2));
    const bulk = await client.request<{ errors: boolean }>('POST', '/_bulk', { body: bulkBody(docs.map((d) => ({ op: 'index', index: PARTIAL_INDEX, id: d.id, routing: d.routing, source: d.source }))), query: { refresh: 'true' } });
    expect(bulk.body.errors).toBe(false);
    const avoid = up.find((r) => !router.cover(r.lat, r.lng, 15 * KM_PER_MILE).shards.some((s) => s.shard === u))!;
    const touch = restaurants.find((r) => router.route(r.lat, r.lng).shard === u)!;

    const s = await api({ file: f, client });
    const all = await getJson(`${s.url}/api/search?size=5`);
    expect(all.status).toBe(200);
    expect(all.body.status).toBe('partial');
    expect(all.body.shards.total).toBe(n);
    expect(all.body.shards.successful).toBe(n - 1);
    const chips = all.body.shardsAsked as { shard: number; status: string }[];
    expect(chips.filter((c) => c.status !== 'ok').map((c) => [c.shard, c.status])).toEqual([[u, 'unavailable']]);

    const touching = await getJson(`${s.url}/api/search?lat=${touch.lat}&lng=${touch.lng}&radius=15mi`);
    expect(touching.body.status).toBe('partial');

    const avoiding = await getJson(`${s.url}/api/search?lat=${avoid.lat}&lng=${avoid.lng}&radius=15mi&compare=1`);
    expect(avoiding.status).toBe(200);
    expect(avoiding.body.total).toBeGreaterThan(0);
    expect(avoiding.body.shardsAsked.every((c: { status: string }) => c.status === 'ok')).toBe(true);
    expect(avoiding.body.unrouted.status).toBe('partial');
    // One of the two searches is partial, so the comparison as a whole is partial.
    expect(avoiding.body.status).toBe('partial');

    await client.request('DELETE', `/${PARTIAL_INDEX}`);
  });
});

describe('a node that does not answer', () => {
  it('gives 503 "unavailable" with a message naming the URL and the refused connection', async () => {
    const url = await closedPortUrl();
    const s = await api({ file: derivedFile(TEST_INDEX), client: new OpenSearchClient({ url, timeoutMs: 3000 }) });
    for (const qs of [SF, `${SF}&compare=1`, 'size=1']) {
      const { status, body } = await getJson(`${s.url}/api/search?${qs}`);
      expect(status, qs).toBe(503);
      expect(body.status).toBe('unavailable');
      expect(body.error.message).toContain('unreachable');
      expect(body.error.message).toContain(url);
      expect(body.error.message).toContain('ECONNREFUSED');
      expect(body.hits).toBeUndefined();
    }
    const st = await getJson(`${s.url}/api/status`);
    expect(st.status).toBe(200);
    expect(st.body.connection.status).toBe('down');
    expect(st.body.connection.message).toContain('ECONNREFUSED');
  });

  it('still validates parameters first (400, not 503)', async () => {
    const s = await api({ file: derivedFile(TEST_INDEX), client: new OpenSearchClient({ url: await closedPortUrl(), timeoutMs: 3000 }) });
    expect((await getJson(`${s.url}/api/search?lat=1`)).status).toBe(400);
  });
});

describe('createApiMiddleware', () => {
  it('answers /api/* and passes every other path to the next handler', async () => {
    const handler = await createApiMiddleware({ file: derivedFile(TEST_INDEX), client });
    const server = createServer((req, res) => handler(req, res, () => res.writeHead(299).end('next')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/index.html`)).status).toBe(299);
      const st = await getJson(`${base}/api/status`);
      expect(st.body.connection.status).toBe('up');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
