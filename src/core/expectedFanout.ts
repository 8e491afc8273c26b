/**
 * Expected fan-out: how many shards a typical search asks under a boundary file, over a seeded
 * workload of searches (searchWorkload.ts), beside a hash-sharded index where every search asks
 * all N shards.
 *
 * Fan-out of a search = the number of shards its level-10 covering touches
 * (Router.shardsAsked, the read owners). Shard-queries per second at a
 * query rate = queries/s × mean shards asked.
 */
import type { Router } from './router.ts';
import type { RadiusShare, Workload } from './searchWorkload.ts';

/** Fan-out figures for one radius of the mix. */
export interface RadiusFanout extends RadiusShare {
  meanShards: number;
  oneShardShare: number;
}

/** The expected fan-out of a boundary file over a workload. */
export interface Fanout {
  /** Searches evaluated: centres × radii. */
  searches: number;
  numberOfShards: number;
  /** Mean shards asked per search, weighted by the radius mix; in [1, N]. */
  meanShards: number;
  /** Share of searches asking exactly one shard, in [0, 1]. */
  oneShardShare: number;
  /** The query rate the next figure is for, queries/s. */
  qps: number;
  /** qps × meanShards. */
  shardQueriesPerSecond: number;
  byRadius: RadiusFanout[];
  /** The hash-sharded baseline: every search asks all N shards. */
  hash: { meanShards: number; oneShardShare: number; shardQueriesPerSecond: number };
}

/**
 * fanoutOf evaluates a workload with a function giving the number of shards a
 * circle asks (lat, lng in degrees, radius in km). expectedFanout uses the
 * router's fast path; tests pass full coverings to check it.
 */
export function fanoutOf(numberOfShards: number, workload: Workload, shardsAsked: (lat: number, lng: number, radiusKm: number) => number, qps = 1000): Fanout {
  if (!Number.isFinite(qps) || qps < 0) throw new RangeError(`qps ${qps} is invalid: expected a non-negative number of queries per second`);
  const n = workload.centres.length;
  const byRadius: RadiusFanout[] = workload.radii.map((r) => {
    let shards = 0;
    let one = 0;
    for (const c of workload.centres) {
      const k = shardsAsked(c.lat, c.lng, r.km);
      shards += k;
      if (k === 1) one++;
    }
    return { ...r, meanShards: shards / n, oneShardShare: one / n };
  });
  const meanShards = byRadius.reduce((a, r) => a + r.weight * r.meanShards, 0);
  const oneShardShare = byRadius.reduce((a, r) => a + r.weight * r.oneShardShare, 0);
  return {
    searches: n * workload.radii.length,
    numberOfShards,
    meanShards,
    oneShardShare,
    qps,
    shardQueriesPerSecond: qps * meanShards,
    byRadius,
    hash: { meanShards: numberOfShards, oneShardShare: numberOfShards === 1 ? 1 : 0, shardQueriesPerSecond: qps * numberOfShards },
  };
}

/** expectedFanout evaluates a workload under a router with Router.shardsAsked (the fast path). qps ≥ 0, default 1000. */
export function expectedFanout(router: Router, workload: Workload, qps = 1000): Fanout {
  return fanoutOf(router.numberOfShards, workload, (lat, lng, km) => router.shardsAsked(lat, lng, km).length, qps);
}
