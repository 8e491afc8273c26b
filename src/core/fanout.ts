/**
 * Expected fan-out: how many shards a typical search asks under a boundary
 * file, over a seeded workload of searches, beside a hash-sharded index where
 * every search asks all N shards.
 *
 * The workload: `centres` search centres drawn in proportion to restaurants
 * (pick a cell of the cells list with probability restaurants / all
 * restaurants, then a uniformly random level-30 leaf cell inside it: uniform
 * in the cell's S2 (s, t) square, which at level 10 is uniform in area to
 * well under 1%), each searched once at every radius of a radius mix. A
 * radius's weight is its share of searches, so the mix is exact rather than
 * sampled. Default mix: 5, 15, 25 and 50 miles, equally often.
 *
 * Fan-out of a search = the number of shards its level-10 covering touches
 * (Router.shardsAsked, the read owners). Shard-queries per second at a
 * query rate = queries/s × mean shards asked.
 */
import { s2 } from 's2js';
import { cellFromOrdinal, CELL_COUNT, type LatLng } from './cells.ts';
import { KM_PER_MILE, assertRadiusKm } from './cover.ts';
import type { Router } from './router.ts';
import type { CellWeight } from './build.ts';

const { cellid } = s2;

/** One radius of a workload's mix: radius in km, relative weight (share of searches) > 0, and a label for reports. */
export interface RadiusShare {
  km: number;
  weight: number;
  label: string;
}

/** The default radius mix: 5, 15, 25 and 50 miles, equally often. */
export const DEFAULT_RADIUS_MIX: readonly RadiusShare[] = Object.freeze([5, 15, 25, 50].map((mi) => Object.freeze({ km: mi * KM_PER_MILE, weight: 1, label: `${mi}mi` })));

/** Options for searchWorkload. */
export interface WorkloadOptions {
  /** Seed of the PRNG (an integer; default 1): the same seed gives the same centres. */
  seed?: number;
  /** Number of search centres, an integer in [1, 1e6] (default 2000); searches = centres × radii. */
  centres?: number;
  /** The radius mix (default DEFAULT_RADIUS_MIX); radii in (0, MAX_RADIUS_KM], weights > 0. */
  radii?: readonly RadiusShare[];
}

/** A seeded search workload. */
export interface Workload {
  seed: number;
  /** Search centres in degrees. */
  centres: LatLng[];
  /** The radius mix with weights normalised to sum to 1. */
  radii: RadiusShare[];
}

/** mulberry32: a small seeded PRNG yielding floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Leaf (level-30) cells per level-10 cell: 4^20 = 2^40. */
const LEAVES_PER_CELL = 2 ** 40;

/**
 * pointInCell returns a point of a level-10 cell (by ordinal) given two
 * uniform numbers in [0, 1): the centre of the leaf cell at that position
 * along the cell's Hilbert range, so uniform in the cell's (s, t) square.
 */
export function pointInCell(ordinal: number, u1: number, u2: number): LatLng {
  const k = Math.floor(u1 * 2 ** 20) * 2 ** 20 + Math.floor(u2 * 2 ** 20);
  if (!(k >= 0 && k < LEAVES_PER_CELL)) throw new RangeError(`u1 ${u1}, u2 ${u2}: expected numbers in [0, 1)`);
  const leaf = cellid.rangeMin(cellFromOrdinal(ordinal)) + 2n * BigInt(k);
  const ll = cellid.latLng(leaf);
  return { lat: (ll.lat * 180) / Math.PI, lng: (ll.lng * 180) / Math.PI };
}

/**
 * searchWorkload draws a seeded workload from a cells list (see the file
 * comment). Throws RangeError when the cells hold no restaurant, or an option
 * is out of range (naming it).
 */
export function searchWorkload(cells: readonly CellWeight[], opts: WorkloadOptions = {}): Workload {
  const seed = opts.seed ?? 1;
  const count = opts.centres ?? 2000;
  if (!Number.isInteger(seed)) throw new RangeError(`seed ${seed} is invalid: expected an integer`);
  if (!Number.isInteger(count) || count < 1 || count > 1e6) throw new RangeError(`centres ${count} is invalid: expected an integer in [1, 1000000]`);
  const radii = opts.radii ?? DEFAULT_RADIUS_MIX;
  if (radii.length === 0) throw new RangeError('radii is empty: give at least one radius');
  radii.forEach((r, i) => {
    assertRadiusKm(r.km, `radii[${i}]`);
    if (!Number.isFinite(r.weight) || r.weight <= 0) throw new RangeError(`radii[${i}].weight ${r.weight} is invalid: expected a number greater than 0`);
  });
  const wsum = radii.reduce((a, r) => a + r.weight, 0);

  const cum = new Float64Array(cells.length);
  let total = 0;
  cells.forEach((c, i) => {
    if (!(c.ordinal >= 0 && c.ordinal < CELL_COUNT)) throw new RangeError(`cells[${i}].ordinal ${c.ordinal} is out of range [0, ${CELL_COUNT})`);
    total += c.restaurants;
    cum[i] = total;
  });
  if (!(total > 0)) throw new RangeError('the cells hold no restaurant: search centres are drawn in proportion to restaurants');
  const rand = mulberry32(seed);
  const centres: LatLng[] = [];
  for (let t = 0; t < count; t++) {
    // First cell whose cumulative count exceeds u: probability restaurants / total.
    const u = rand() * total;
    let lo = 0;
    let hi = cells.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    centres.push(pointInCell(cells[lo].ordinal, rand(), rand()));
  }
  return { seed, centres, radii: radii.map((r) => ({ km: r.km, weight: r.weight / wsum, label: r.label })) };
}

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
