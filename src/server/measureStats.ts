/**
 * The statistics of a measurement (POST /api/measure, `geoshard bench`, the
 * live benches, the Live panel's per-shard latencies): nearest-rank
 * percentiles, which runs are warm-up, and the ratio of two plans' figures.
 *
 * Pure TypeScript, no Node and no DOM: imported by the server, the benches
 * and the browser bundle (src/app/shell/latencyStats.ts).
 */

/**
 * percentile returns the nearest-rank p-th percentile of `sorted` (ascending,
 * non-empty); p in (0, 100]. The p-th percentile of n samples is the sample at
 * rank ceil(p / 100 × n) (1-based), so it is always one of the samples: p50 of
 * [1, 2, 3, 4] is 2; p99 of fewer than 100 samples is the largest. Throws
 * RangeError naming the value when `sorted` is empty or p is outside (0, 100].
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples: record a timing first');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile p ${p} is outside (0, 100]`);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1];
}

/**
 * warmupRunsOf returns how many of a plan's first `runs` one-at-a-time runs are
 * warm-up, measured but discarded: a tenth, rounded, at least 1 (30 → 3, 4 → 1,
 * 200 → 20). They pay for cold caches and code paths (the first New York search
 * on a cold cluster took 661 ms, the second 278 ms). `runs` must be an integer
 * >= 2, so at least one run is kept; throws RangeError naming the value otherwise.
 */
export function warmupRunsOf(runs: number): number {
  if (!Number.isInteger(runs) || runs < 2) throw new RangeError(`runs ${runs} is invalid: expected an integer >= 2 (one warm-up run and one kept)`);
  return Math.max(1, Math.round(runs / 10));
}

/** What a list of times (ms) says: how many, p50 and p99 (nearest rank). */
export interface TimeSummary {
  n: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * summarise returns n, p50 and p99 of times in ms (any order, non-empty; not
 * changed). Throws RangeError when `ms` is empty.
 */
export function summarise(ms: readonly number[]): TimeSummary {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

/**
 * keptRuns returns the runs after the first `warmup` (the warm-up, discarded).
 * `warmup` must be in [0, runs.length): throws RangeError naming it otherwise,
 * so a figure is never made of no runs.
 */
export function keptRuns<T>(runs: readonly T[], warmup: number): T[] {
  if (!Number.isInteger(warmup) || warmup < 0 || warmup >= runs.length) {
    throw new RangeError(`warm-up ${warmup} is invalid for ${runs.length} run(s): expected an integer in [0, ${runs.length - 1}]`);
  }
  return runs.slice(warmup);
}

/**
 * gain returns how many times better the routed plan is on one figure:
 * `all / routed` for a cost (a time, CPU per search: lower is better) and
 * `routed / all` for a rate (searches per second: higher is better), so a gain
 * above 1 always means routed is better. Null when the division means nothing:
 * either value not finite, or the divisor not above 0 (CPU per search read as
 * 0 ms when the node's clock did not tick).
 */
export function gain(kind: 'cost' | 'rate', routed: number, all: number): number | null {
  const [num, den] = kind === 'cost' ? [all, routed] : [routed, all];
  if (!Number.isFinite(num) || !Number.isFinite(den) || den <= 0 || num < 0) return null;
  return num / den;
}
