/**
 * Reading an index shard by shard, the one reader every phase of a reindex
 * uses: checkpoints (`max_seq_no` per primary), a point-in-time per shard
 * paged in `_doc` order, ids page by page, documents by id. Node only.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';

/** ShardReadError: an index's shards cannot be read as this reader needs (a shard without a primary in `_stats`). */
export class ShardReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardReadError';
  }
}

const enc = encodeURIComponent;

/** seqNos returns every shard's primary `max_seq_no`, by shard number (-1 for a shard with no operation). */
export async function seqNos(client: OpenSearchClient, index: string): Promise<number[]> {
  type Stats = { indices: Record<string, { shards: Record<string, { routing: { primary: boolean }; seq_no: { max_seq_no: number } }[]> }> };
  const { body } = await client.request<Stats>('GET', `/${enc(index)}/_stats/docs`, { query: { level: 'shards', filter_path: 'indices.*.shards.*.seq_no,indices.*.shards.*.routing.primary' }, timeoutMs: 60_000 });
  const shards = Object.values(body.indices)[0]?.shards ?? {};
  const out: number[] = [];
  for (const [k, copies] of Object.entries(shards)) {
    const p = copies.find((c) => c.routing.primary);
    if (!p) throw new ShardReadError(`shard ${k} of "${index}" has no primary in _stats: cannot take a checkpoint`);
    out[Number(k)] = p.seq_no.max_seq_no;
  }
  return out;
}

export interface Hit {
  _id: string;
  _routing?: string;
  _source?: Record<string, unknown>;
  sort: unknown[];
}

export const PAGE = 5000;

/** shardPages reads one shard of an index with a point-in-time (sorted by `_doc`), `size` at a time. */
export async function* shardPages(client: OpenSearchClient, index: string, shard: number, query: Record<string, unknown>, size: number, source: boolean): AsyncGenerator<Hit[]> {
  const keepAlive = '5m';
  const created = await client.request<{ pit_id: string }>('POST', `/${enc(index)}/_search/point_in_time`, { query: { keep_alive: keepAlive, preference: `_shards:${shard}` }, timeoutMs: 60_000 });
  const pit = { id: created.body.pit_id };
  try {
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await client.request<{ pit_id?: string; hits: { hits: Hit[] } }>('POST', '/_search', {
        query: { filter_path: 'pit_id,hits.hits._id,hits.hits._routing,hits.hits._source,hits.hits.sort' },
        body: { size, query, _source: source, pit: { id: pit.id, keep_alive: keepAlive }, sort: [{ _doc: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
        timeoutMs: 120_000,
      });
      if (body.pit_id) pit.id = body.pit_id;
      const hits = body.hits?.hits ?? [];
      if (hits.length === 0) return;
      yield hits;
      if (hits.length < size) return;
      after = hits[hits.length - 1].sort;
    }
  } finally {
    await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit.id] }, okStatuses: [404] }).catch(() => undefined);
  }
}

/** shardCount returns an index's number of shards. */
export async function shardCount(client: OpenSearchClient, index: string): Promise<number> {
  const body = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${enc(index)}/_settings/index.number_of_shards`);
  return Number(Object.values(body)[0].settings.index.number_of_shards);
}

/** eachIdOfIndex reads every id of an index, shard by shard, passing each page of ids to `f` (nothing is kept). */
export async function eachIdOfIndex(client: OpenSearchClient, index: string, shards: number, f: (ids: readonly string[]) => void, concurrency = 3): Promise<number> {
  let n = 0;
  await eachShard(shards, concurrency, async (k) => {
    for await (const hits of shardPages(client, index, k, { match_all: {} }, 10_000, false)) {
      f(hits.map((h) => h._id));
      n += hits.length;
    }
  });
  return n;
}

/** eachShard runs `f` for shards 0..n-1, `concurrency` at a time. */
export async function eachShard(n: number, concurrency: number, f: (k: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, async () => {
    while (next < n) await f(next++);
  }));
}

/** hitsByIds finds documents by id on every shard (an `ids` query: no routing needed), with their routing and source. */
export async function hitsByIds(client: OpenSearchClient, index: string, ids: readonly string[], source: boolean): Promise<Hit[]> {
  const out: Hit[] = [];
  for (let i = 0; i < ids.length; i += 2000) {
    const chunk = ids.slice(i, i + 2000);
    const { body } = await client.request<{ hits: { hits: Hit[] } }>('POST', `/${enc(index)}/_search`, {
      body: { size: chunk.length * 2, query: { ids: { values: chunk } }, _source: source, track_total_hits: false },
      timeoutMs: 120_000,
    });
    out.push(...body.hits.hits);
  }
  return out;
}

