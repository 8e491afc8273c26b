/**
 * The engine's own per-shard counters of an index: `GET <index>/_stats/search,indexing?level=shards`
 * (privilege `indices:monitor/stats` on the index), every copy (primary and replicas) with its
 * node, its role and four cumulative counters (snapshots.ts CopyCounters). Any cluster has them;
 * no plugin needed.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { CopyCounters } from './snapshots.ts';

/** A traffic sample or history read that cannot be made: the message says why and what to do. */
export class TrafficError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrafficError';
  }
}

/** Only what a sample keeps, so a 15-shard index answers in about 4 KB instead of 100. */
export const STATS_FILTER = [
  '_shards',
  'indices.*.uuid',
  'indices.*.shards.*.routing.node',
  'indices.*.shards.*.routing.primary',
  'indices.*.shards.*.search.query_total',
  'indices.*.shards.*.search.query_time_in_millis',
  'indices.*.shards.*.indexing.index_total',
  'indices.*.shards.*.indexing.delete_total',
].join(',');

/** The part of a `_stats?level=shards` answer STATS_FILTER keeps. */
export interface StatsBody {
  _shards?: { total?: number; successful?: number; failed?: number };
  indices?: Record<
    string,
    {
      uuid?: string;
      shards?: Record<string, { routing?: { node?: string | null; primary?: boolean }; search?: { query_total?: number; query_time_in_millis?: number }; indexing?: { index_total?: number; delete_total?: number } }[]>;
    }
  >;
}

/** One index's copies and their counters, from one `_stats` answer. */
export interface ShardCounters {
  /** The concrete index and its uuid. */
  concrete: string;
  uuid: string;
  copies: CopyCounters[];
  /** Shard copies `_stats` could not read (`_shards.failed`). */
  failedShards: number;
}

const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);

/**
 * countersOfStats reads an answer of `_stats/search,indexing?level=shards` for `index` (an index
 * or an alias). Throws TrafficError when it names no index, or several (an alias over more
 * than one index: each has its own shards, and a boundary file routes one).
 */
export function countersOfStats(body: StatsBody, index: string): ShardCounters {
  const names = Object.keys(body.indices ?? {});
  if (names.length === 0) throw new TrafficError(`_stats of "${index}" named no index: does it exist?`);
  if (names.length > 1) throw new TrafficError(`"${index}" is an alias of ${names.length} indices (${names.sort().join(', ')}): traffic is counted per index, and a boundary file routes one; point the alias at one index, or sample the index itself`);
  const concrete = names[0];
  const entry = body.indices![concrete];
  const copies: CopyCounters[] = [];
  for (const [shard, list] of Object.entries(entry.shards ?? {})) {
    for (const c of list) {
      // A copy with no node (unassigned) counts nothing.
      if (typeof c.routing?.node !== 'string') continue;
      copies.push({ shard: Number(shard), node: c.routing.node, primary: c.routing.primary === true, queries: count(c.search?.query_total), queryMs: count(c.search?.query_time_in_millis), indexed: count(c.indexing?.index_total), deleted: count(c.indexing?.delete_total) });
    }
  }
  copies.sort((a, b) => a.shard - b.shard || Number(b.primary) - Number(a.primary) || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  return { concrete, uuid: entry.uuid ?? concrete, copies, failedShards: count(body._shards?.failed) };
}

/**
 * readShardCounters asks the cluster for `index`'s per-copy counters. `sampledAt` is the middle
 * of the request (ms since the epoch): the counters were read somewhere in it. Rejects with
 * OpenSearchError when the cluster refuses or does not answer (404: no such index), TrafficError
 * as countersOfStats.
 */
export async function readShardCounters(client: OpenSearchClient, index: string): Promise<ShardCounters & { sampledAt: number }> {
  const t0 = Date.now();
  const body = await client.get<StatsBody>(`/${encodeURIComponent(index)}/_stats/search,indexing`, { query: { level: 'shards', filter_path: STATS_FILTER } });
  const t1 = Date.now();
  return { ...countersOfStats(body, index), sampledAt: Math.round((t0 + t1) / 2) };
}
