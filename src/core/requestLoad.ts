/**
 * Request rates and load: what a workload (workload.ts) asks of each level-10
 * cell and each shard.
 *
 * - A search covers the level-10 cells of its circle's covering (the same
 *   covering Router.cover gives). coverWorkload walks each distinct circle
 *   once; every figure below is derived from those coverings, so a workload
 *   is walked once however many boundary files it judges.
 * - Request rate of a cell = Σ weight over the searches covering it (searches
 *   per workload, not per second: divide by the workload's duration for a rate).
 * - Load of a cell = its request rate × its documents (restaurants + dishes):
 *   every search that covers a cell scans the cell's documents. A shard's load
 *   is the sum over its cells, which equals Σ over the searches asking the
 *   shard of weight × the documents of the shard that search's covering holds.
 *   Units: weighted document scans.
 */
import { coverOrdinals } from './coverWalk.ts';
import type { Router } from './router.ts';
import type { CellWeight } from './build.ts';
import type { WorkloadSearch } from './workload.ts';

/**
 * coverWorkload returns each search's level-10 covering as ascending curve
 * ordinals, in the order of the searches. Searches with the same centre and
 * radius share one array (walked once). Throws the core's RangeError on an
 * invalid circle. Cost: one covering walk per distinct circle, about 0.5 ms
 * at 5 mi and 5 ms at 50 mi (Node 20; bench/workload.bench.ts).
 */
export function coverWorkload(searches: readonly WorkloadSearch[]): Int32Array[] {
  const memo = new Map<string, Int32Array>();
  return searches.map((s) => {
    const key = `${s.lat},${s.lng},${s.radius.km}`;
    let c = memo.get(key);
    if (!c) memo.set(key, (c = coverOrdinals(s.lat, s.lng, s.radius.km)));
    return c;
  });
}

/** Request rates of the cells a workload covers. */
export interface CellRates {
  /** Covered level-10 cells, ascending curve ordinals. */
  ordinals: Int32Array;
  /** rates[k]: Σ weight of the searches covering ordinals[k] (> 0). */
  rates: Float64Array;
}

function assertAligned(searches: readonly WorkloadSearch[], coverings: readonly Int32Array[]): void {
  if (coverings.length !== searches.length) throw new RangeError(`coverings has ${coverings.length} entries for ${searches.length} searches: pass coverWorkload(searches)`);
}

/** requestRates sums, per level-10 cell, the weights of the searches whose covering holds it. coverings = coverWorkload(searches). */
export function requestRates(searches: readonly WorkloadSearch[], coverings: readonly Int32Array[]): CellRates {
  assertAligned(searches, coverings);
  const acc = new Map<number, number>();
  for (let i = 0; i < searches.length; i++) {
    const w = searches[i].weight;
    for (const o of coverings[i]) acc.set(o, (acc.get(o) ?? 0) + w);
  }
  const ordinals = Int32Array.from(acc.keys()).sort();
  const rates = Float64Array.from(ordinals, (o) => acc.get(o)!);
  return { ordinals, rates };
}

/** rateOf returns a cell's request rate (0 when no search covers it). */
export function rateOf(r: CellRates, ordinal: number): number {
  let lo = 0;
  let hi = r.ordinals.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r.ordinals[mid] < ordinal) lo = mid + 1;
    else hi = mid;
  }
  return lo < r.ordinals.length && r.ordinals[lo] === ordinal ? r.rates[lo] : 0;
}

/** cellLoads returns, per cell of the cells list (same order), its load: request rate × (restaurants + dishes). */
export function cellLoads(cells: readonly CellWeight[], rates: CellRates): Float64Array {
  return Float64Array.from(cells, (c) => rateOf(rates, c.ordinal) * (c.restaurants + c.dishes));
}

/**
 * shardTotals sums a per-cell value (aligned with the cells list) per shard,
 * each cell counted for the shard searches read it from (the read owner;
 * the boundaries' owner without a migration). Index = key-order shard index.
 */
export function shardTotals(router: Router, cells: readonly CellWeight[], values: ArrayLike<number>): Float64Array {
  if (values.length !== cells.length) throw new RangeError(`values has ${values.length} entries for ${cells.length} cells`);
  const out = new Float64Array(router.numberOfShards);
  cells.forEach((c, i) => (out[router.readIndexOfOrdinal(c.ordinal)] += values[i]));
  return out;
}

/** What the balancer evens out: documents, load, or a mix (alpha = the documents' part, in [0, 1]). */
export type BalanceWeight = { kind: 'docs' } | { kind: 'requests' } | { kind: 'mix'; alpha: number };

/** parseBalanceWeight reads "docs", "requests" or "mix:A" (A in [0, 1], the documents' part); throws RangeError naming the value otherwise. */
export function parseBalanceWeight(text: string, field = 'weight'): BalanceWeight {
  if (text === 'docs' || text === 'requests') return { kind: text };
  const m = /^mix:((?:\d+\.?\d*|\.\d+))$/.exec(text);
  const alpha = m ? Number(m[1]) : NaN;
  if (!m || !(alpha >= 0 && alpha <= 1)) throw new RangeError(`${field} ${JSON.stringify(text)} is invalid: expected docs, requests or mix:A with A in [0, 1] (the documents' part, e.g. mix:0.5)`);
  return { kind: 'mix', alpha };
}

/** formatBalanceWeight writes a BalanceWeight as parseBalanceWeight reads it. */
export function formatBalanceWeight(w: BalanceWeight): string {
  return w.kind === 'mix' ? `mix:${w.alpha}` : w.kind;
}

/** Integer scale of load and mixed weights: shares of the total in parts per 10^12 (exact integers, total < 2^53). */
export const SHARE_SCALE = 1e12;

/**
 * balanceWeights returns the integer per-cell weights the balancer evens
 * (balance.ts needs integers), aligned with the cells list:
 * - docs: restaurants + dishes;
 * - requests: load / total load, in parts per SHARE_SCALE, rounded;
 * - mix:α: (α · documents / all documents + (1 − α) · load / total load), in
 *   parts per SHARE_SCALE, rounded.
 * loads = cellLoads(cells, rates); required unless docs. Throws RangeError
 * when the loads are missing, misaligned, or sum to 0 (no search covers a
 * document).
 */
export function balanceWeights(cells: readonly CellWeight[], weight: BalanceWeight, loads?: ArrayLike<number>): number[] {
  const docs = cells.map((c) => c.restaurants + c.dishes);
  if (weight.kind === 'docs') return docs;
  if (!loads || loads.length !== cells.length) throw new RangeError(`weight ${formatBalanceWeight(weight)} needs a load per cell (a workload): got ${loads ? loads.length : 'none'} for ${cells.length} cells`);
  let totalLoad = 0;
  for (let i = 0; i < loads.length; i++) totalLoad += loads[i];
  if (!(totalLoad > 0)) throw new RangeError(`weight ${formatBalanceWeight(weight)}: the workload's load is 0 (no search covers a cell with documents), so there is no load to balance`);
  const totalDocs = docs.reduce((a, b) => a + b, 0);
  const alpha = weight.kind === 'mix' ? weight.alpha : 0;
  return docs.map((d, i) => Math.round(SHARE_SCALE * (alpha * (totalDocs > 0 ? d / totalDocs : 0) + (1 - alpha) * (loads[i] / totalLoad))));
}

/** Fan-out of a boundary file over a workload. */
export interface WorkloadFanout {
  /** Searches (lines) and their total weight. */
  searches: number;
  weight: number;
  numberOfShards: number;
  /** Weighted mean of the shards each search asks, in [1, N]. */
  meanShards: number;
  /** Weighted share of searches asking exactly one shard, in [0, 1]. */
  oneShardShare: number;
}

/**
 * workloadFanout counts, for every search, the shards its covering asks (read
 * owners, as Router.shardsAsked) and returns the weighted mean and the
 * one-shard share. coverings = coverWorkload(searches). Over
 * searchesOfMix(mix) it gives expectedFanout's meanShards and oneShardShare.
 */
export function workloadFanout(router: Router, searches: readonly WorkloadSearch[], coverings: readonly Int32Array[]): WorkloadFanout {
  assertAligned(searches, coverings);
  const seen = new Int32Array(router.numberOfShards).fill(-1);
  let weight = 0;
  let shards = 0;
  let one = 0;
  for (let i = 0; i < searches.length; i++) {
    let k = 0;
    for (const o of coverings[i]) {
      const s = router.readIndexOfOrdinal(o);
      if (seen[s] !== i) (seen[s] = i), k++;
    }
    const w = searches[i].weight;
    weight += w;
    shards += w * k;
    if (k === 1) one += w;
  }
  return { searches: searches.length, weight, numberOfShards: router.numberOfShards, meanShards: weight > 0 ? shards / weight : 0, oneShardShare: weight > 0 ? one / weight : 0 };
}

/** A shard whose load is far above the mean, and the cut that evens it best. */
export interface Hotspot {
  /** Key-order index, name and OpenSearch shard number. */
  index: number;
  name: string;
  shard: number;
  /** The shard's load and its multiple of the mean shard load. */
  load: number;
  overMean: number;
  /** Share of all load, in [0, 1]. */
  share: number;
  /** Non-empty cells the shard holds. */
  cells: number;
  /**
   * The split that best evens the shard's load: a new boundary at `token`
   * (the first cell of the upper half, a level-10 token), and the two halves'
   * loads. null when the shard holds fewer than two non-empty cells.
   */
  split: { token: string; ordinal: number; loads: [number, number] } | null;
}

/**
 * findHotspots lists the shards whose load / mean shard load ≥ factor
 * (factor > 0), hottest first, each with its best split: the cut between two
 * of its non-empty cells minimising the heavier half (ties: the lower cut).
 * Ranges are the file's boundaries (indexOfOrdinal). loads = cellLoads(...),
 * aligned with cells (ascending ordinals).
 */
export function findHotspots(router: Router, cells: readonly CellWeight[], loads: ArrayLike<number>, factor = 2): Hotspot[] {
  if (!(Number.isFinite(factor) && factor > 0)) throw new RangeError(`factor ${factor} is invalid: expected a number greater than 0 (load / mean shard load)`);
  if (loads.length !== cells.length) throw new RangeError(`loads has ${loads.length} entries for ${cells.length} cells`);
  const n = router.numberOfShards;
  // Cells of shard j: positions [first[j], first[j + 1]) of the cells list.
  const first = new Int32Array(n + 1).fill(cells.length);
  for (let i = cells.length - 1; i >= 0; i--) first[router.indexOfOrdinal(cells[i].ordinal)] = i;
  for (let j = n - 1; j >= 0; j--) first[j] = Math.min(first[j], first[j + 1]);
  const prefix = new Float64Array(cells.length + 1);
  for (let i = 0; i < cells.length; i++) prefix[i + 1] = prefix[i] + loads[i];
  const total = prefix[cells.length];
  const mean = total / n;
  const out: Hotspot[] = [];
  if (!(total > 0)) return out;
  for (let j = 0; j < n; j++) {
    const a = first[j];
    const b = first[j + 1];
    const load = prefix[b] - prefix[a];
    if (load / mean < factor) continue;
    let split: Hotspot['split'] = null;
    let best = Infinity;
    for (let c = a + 1; c < b; c++) {
      const lower = prefix[c] - prefix[a];
      const upper = prefix[b] - prefix[c];
      const heavier = Math.max(lower, upper);
      if (heavier < best) {
        best = heavier;
        split = { token: cells[c].token, ordinal: cells[c].ordinal, loads: [lower, upper] };
      }
    }
    const s = router.shards[j];
    out.push({ index: j, name: s.name, shard: s.shard, load, overMean: load / mean, share: load / total, cells: b - a, split });
  }
  return out.sort((x, y) => y.load - x.load || x.index - y.index);
}
