/**
 * /api/status and /api/search against a scripted OpenSearch that answers
 * `_cat/nodes` and `_cat/shards` in the shapes recorded from a real 3-node
 * 2.19.6 cluster (see placement.test.ts): the nodes, every copy, a node that
 * left, and a search whose shard was on it.
 */
import { describe, it, expect } from 'vitest';
import { LiveApi } from './api.ts';
import { OpenSearchClient, type RequestOptions, type Response } from '../cluster/client.ts';
import { derivedFile } from '../testing/testkit.ts';
import { Router } from '../core/index.ts';
import type { StatusAnswer } from './wire.ts';

const file = derivedFile('geoshard-unit-status');
const router = new Router(file);
const NODES = [
  { id: 'fKJ8HLLnQReiPCqy5DeC8g', name: 'geoshard-node-1', 'node.roles': 'cluster_manager,data,ingest,remote_cluster_client' },
  { id: 'roh2bwOhQkiXqxGXY4wNqA', name: 'geoshard-node-2', 'node.roles': 'cluster_manager,data,ingest,remote_cluster_client' },
  { id: 'cYW6yVxdQLWKcgmPiN2aAw', name: 'geoshard-node-3', 'node.roles': 'cluster_manager,data,ingest,remote_cluster_client' },
];
/** Shard n's primary on node n % 3 + 1, no replicas; `lost` nodes' shards unassigned. */
const shardRows = (lost: string[] = []) =>
  Array.from({ length: file.numberOfShards }, (_, n) => {
    const node = NODES[n % 3];
    return lost.includes(node.name)
      ? { shard: String(n), prirep: 'p', state: 'UNASSIGNED', docs: null, node: null, id: null }
      : { shard: String(n), prirep: 'p', state: 'STARTED', docs: '100', node: node.name, id: node.id };
  });

class Scripted extends OpenSearchClient {
  lost: string[] = [];
  constructor() {
    super({ url: 'http://127.0.0.1:9200', timeoutMs: 2000 });
  }
  override async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    const r = (status: number, body: unknown) => ({ status, body: body as T });
    if (path === '/') return r(200, { cluster_name: 'geoshard', version: { number: '2.19.6', distribution: 'opensearch' } });
    if (path === '/_cluster/health') return r(200, { status: this.lost.length ? 'red' : 'green', number_of_nodes: 3 - this.lost.length });
    if (path.endsWith('/_mapping')) return r(200, { [file.index]: { mappings: { _meta: { app: 'geoshard', hash: file.hash, version: 1, index: file.index, numberOfShards: file.numberOfShards } } } });
    if (path.startsWith('/_cluster/state/metadata')) return r(200, { metadata: { indices: { [file.index]: { routing_num_shards: 960 } } } });
    if (path.endsWith('/_search_shards')) {
      const s = router.shards.find((x) => x.name === opts.query?.routing)!;
      return r(200, { shards: [[{ shard: s.shard, index: file.index, primary: true }]] });
    }
    if (path === '/_cat/nodes') return r(200, NODES.filter((n) => !this.lost.includes(n.name)));
    if (path.startsWith('/_cat/shards')) return r(200, shardRows(this.lost));
    if (path.endsWith('/_count')) return r(200, { count: 10 });
    if (path.endsWith('/_search')) {
      const asked = (opts.query?.routing as string).split(',').map((name) => router.shards.find((s) => s.name === name)!.shard);
      const down = asked.filter((n) => this.lost.includes(NODES[n % 3].name));
      const profiled = (opts.body as { profile?: boolean }).profile === true;
      return r(200, {
        took: 2,
        timed_out: false,
        _shards: { total: asked.length, successful: asked.length - down.length, skipped: 0, failed: 0 },
        hits: { total: { value: 0, relation: 'eq' }, hits: [] },
        aggregations: {},
        // The profile API's shape (a real 2.19.6 answer, times made round): shard n takes (n + 1) ms of query time.
        ...(profiled
          ? { profile: { shards: asked.filter((n) => !down.includes(n)).map((n) => ({ id: `[${NODES[n % 3].id}][${file.index}][${n}]`, searches: [{ query: [{ time_in_nanos: (n + 1) * 1e6 }], rewrite_time: 0, collector: [{ time_in_nanos: 5e6 }] }], aggregations: [] })) } }
          : {}),
      });
    }
    throw new Error(`unexpected ${method} ${path}`);
  }
}

describe('/api/status on a 3-node cluster', () => {
  it('lists every node and every shard copy with its node, and keeps a node that left, down', async () => {
    const client = new Scripted();
    const api = new LiveApi({ file, client });
    let body: StatusAnswer = (await api.status()).body;
    expect(body.nodes?.map((n) => [n.name, n.up, n.roles.includes('data')])).toEqual([
      ['geoshard-node-1', true, true],
      ['geoshard-node-2', true, true],
      ['geoshard-node-3', true, true],
    ]);
    if (!body.index || !('copies' in body.index)) throw new Error('no index copies');
    expect(body.index.copies).toHaveLength(file.numberOfShards);
    expect(body.index.copies[4]).toEqual({ shard: 4, name: file.shards.find((s) => s.shard === 4)!.name, primary: true, state: 'STARTED', node: { id: NODES[1].id, name: 'geoshard-node-2' }, docs: 100 });

    client.lost = ['geoshard-node-2'];
    body = (await api.status()).body;
    expect(body.nodes?.map((n) => [n.name, n.up])).toEqual([
      ['geoshard-node-1', true],
      ['geoshard-node-2', false],
      ['geoshard-node-3', true],
    ]);
    if (!body.index || !('copies' in body.index)) throw new Error('no index copies');
    expect(body.index.copies[4]).toMatchObject({ shard: 4, state: 'UNASSIGNED', node: null, docs: null });
  });

  it('answers a search whose shard was on the lost node "partial", naming the node', async () => {
    const client = new Scripted();
    const api = new LiveApi({ file, client });
    await api.start();
    client.lost = ['geoshard-node-2'];
    // A search over the whole country asks every shard, so some lived on node 2.
    const r = await api.search(new URLSearchParams('lat=39&lng=-98&radius=1000km&size=0'));
    const b = r.body as { status: string; placement: { lostNodes: string[]; missing: { shard: number; node: string }[] }; partialReason: string };
    expect(b.status).toBe('partial');
    expect(b.placement.lostNodes).toEqual(['geoshard-node-2']);
    expect(b.placement.missing.every((m) => m.shard % 3 === 1 && m.node === 'geoshard-node-2')).toBe(true);
    expect(b.partialReason).toContain('held by node geoshard-node-2');
  });
});

describe('/api/search with profile=1', () => {
  it('reports each asked shard’s time with the node that answered, named as /api/status names it; no times without profile', async () => {
    const client = new Scripted();
    const api = new LiveApi({ file, client });
    await api.start();
    const q = 'lat=39&lng=-98&radius=1000km&size=0';
    type Timed = { status: string; shardTimes?: { shard: number; name: string; node: string; ms: number }[] };
    const plain = (await api.search(new URLSearchParams(q))).body as Timed;
    expect(plain.shardTimes).toBeUndefined();
    const b = (await api.search(new URLSearchParams(`${q}&profile=1`))).body as Timed;
    expect(b.status).toBe('complete');
    const asked = router.cover(39, -98, 1000).shards.map((s) => s.shard).sort((x, y) => x - y);
    expect(b.shardTimes!.map((t) => t.shard)).toEqual(asked);
    for (const t of b.shardTimes!) {
      expect(t.ms).toBe(t.shard + 1);
      expect(t.node).toBe(NODES[t.shard % 3].name);
      expect(t.name).toBe(file.shards.find((s) => s.shard === t.shard)!.name);
    }
  });
});
