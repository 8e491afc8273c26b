/**
 * Per-shard timing on a real OpenSearch cluster: a search with profile=1
 * reports a time for exactly the shards it asked (routed and all-shards
 * sides), each answered by a node the cluster lists; without profile=1 there
 * are no times. Expected shards come from the routing core, nodes from
 * OpenSearch's own `_cat/shards`.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Router, KM_PER_MILE } from '../core/index.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, getJson, TEST_INDEX, type RunningApi } from '../testing/testkit.ts';
import type { SearchAnswer } from './wire.ts';

const client = liveClient();
const file = derivedFile(TEST_INDEX);
const router = new Router(file);
let server: RunningApi;

beforeAll(async () => {
  await ensureSeeded(client, file);
  server = await startApi({ file, client });
}, 300_000);
afterAll(async () => {
  await server?.close();
});

describe('profile=1 on a real cluster', () => {
  it('times exactly the asked shards, each on a node holding a started copy of it; no times without profile', async () => {
    const q = `lat=37.7749&lng=-122.4194&radius=50mi&size=5&compare=1`;
    const plain = await getJson(`${server.url}/api/search?${q}`);
    expect(plain.status).toBe(200);
    expect(plain.body.shardTimes).toBeUndefined();

    const { status, body } = (await getJson(`${server.url}/api/search?${q}&profile=1`)) as { status: number; body: SearchAnswer };
    expect(status).toBe(200);
    expect(body.status).toBe('complete');
    const asked = router.cover(37.7749, -122.4194, 50 * KM_PER_MILE).shards.map((s) => s.shard).sort((a, b) => a - b);
    expect(body.shardTimes!.map((t) => t.shard)).toEqual(asked);
    expect(body.unrouted!.shardTimes!.map((t) => t.shard)).toEqual(router.shards.map((s) => s.shard).sort((a, b) => a - b));
    const rows = await client.get<{ shard: string; state: string; node: string | null }[]>(`/_cat/shards/${TEST_INDEX}`, { query: { format: 'json', h: 'shard,state,node' } });
    for (const t of [...body.shardTimes!, ...body.unrouted!.shardTimes!]) {
      expect(t.name).toBe(router.shards.find((s) => s.shard === t.shard)!.name);
      expect(Number.isFinite(t.ms) && t.ms > 0, `shard ${t.shard}: ${t.ms} ms`).toBe(true);
      const holders = rows.filter((r) => Number(r.shard) === t.shard && r.state === 'STARTED').map((r) => r.node);
      expect(holders, `shard ${t.shard} answered from ${t.node}`).toContain(t.node);
    }
    // The same hits with and without profiling.
    expect(body.hits.map((h) => h.id)).toEqual(plain.body.hits.map((h: { id: string }) => h.id));
  }, 60_000);
});
