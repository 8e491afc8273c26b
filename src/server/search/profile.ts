/**
 * Per-shard search time from OpenSearch's `profile` section (profile=1): one time per shard asked.
 */
import type { ShardTiming } from '../wire.ts';

/** A timed node of OpenSearch's profile tree (query, collector, aggregation or fetch). */
interface ProfileNode {
  time_in_nanos?: number;
}

/** One shard's part of OpenSearch's `profile` section. */
export interface ProfileShard {
  /** "[nodeId][index][shard]". */
  id: string;
  searches?: { query?: ProfileNode[]; rewrite_time?: number; collector?: ProfileNode[] }[];
  aggregations?: ProfileNode[];
  /** Fetch phase, on engines that profile it (a list on some versions, one node on others). */
  fetch?: ProfileNode | ProfileNode[];
}

const PROFILE_ID = /^\[([^\]]*)\]\[([^\]]*)\]\[(\d+)\]$/;

/**
 * shardTimesOf turns OpenSearch's profile section into one time per shard:
 * the top-level queries' time_in_nanos plus rewrite_time of each search, plus
 * the top-level aggregations and the fetch phase when profiled, in ms. The
 * collectors' times are left out: OpenSearch times them independently of the
 * queries and they overlap the queries' scoring time. Names come from `nameOf`
 * (shard number → routing name); node ids are kept as given (`[nodeId]`).
 * Sorted by shard number; a shard profiled twice (never expected) adds up.
 * Entries whose id is not "[node][index][shard]" are skipped.
 */
export function shardTimesOf(profile: { shards?: ProfileShard[] } | undefined, nameOf: (shard: number) => string): ShardTiming[] {
  const byShard = new Map<number, ShardTiming>();
  const ns = (n: ProfileNode | undefined) => (typeof n?.time_in_nanos === 'number' && Number.isFinite(n.time_in_nanos) ? n.time_in_nanos : 0);
  for (const sh of profile?.shards ?? []) {
    const m = PROFILE_ID.exec(sh.id ?? '');
    if (!m) continue;
    const shard = Number(m[3]);
    let nanos = 0;
    for (const search of sh.searches ?? []) {
      for (const q of search.query ?? []) nanos += ns(q);
      if (typeof search.rewrite_time === 'number' && Number.isFinite(search.rewrite_time)) nanos += search.rewrite_time;
    }
    for (const a of sh.aggregations ?? []) nanos += ns(a);
    for (const f of Array.isArray(sh.fetch) ? sh.fetch : sh.fetch ? [sh.fetch] : []) nanos += ns(f);
    const prev = byShard.get(shard);
    if (prev) prev.ms += nanos / 1e6;
    else byShard.set(shard, { shard, name: nameOf(shard), node: m[1] || null, ms: nanos / 1e6 });
  }
  return [...byShard.values()].sort((a, b) => a.shard - b.shard);
}
