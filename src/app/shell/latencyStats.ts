/**
 * Per-shard timing over recent live searches: a rolling window of each
 * shard's profiled times (ms, the server's `shardTimes`) and its p50 / p99.
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n sorted
 * samples is the sample at rank ceil(p / 100 × n) (1-based), so it is always
 * one of the samples (p50 of [1, 2, 3, 4] is 2; p99 of fewer than 100 samples
 * is the largest). No DOM, no store: the live runner records, the panel and
 * the globe's latency coloring read.
 */
import type { ShardTiming } from '../../server/wire';
import { percentile } from '../../server/measureStats';

/** The nearest-rank percentile, shared with the server's measurements (src/server/measureStats.ts). */
export { percentile };

/** Samples kept per shard (the most recent). */
export const LATENCY_WINDOW = 50;

/** Recent times by shard name, oldest first, each at most LATENCY_WINDOW long. */
export type LatencyHistory = Readonly<Record<string, readonly number[]>>;

/** One shard's summary over its window. */
export interface ShardLatency {
  name: string;
  /** Samples in the window (≥ 1). */
  n: number;
  /** ms. */
  p50: number;
  /** ms. */
  p99: number;
}

/**
 * recordTimings returns the history with one search's shard times appended
 * (a shard timed twice in one answer, e.g. on the routed and the all-shards
 * side, gets both), each shard's window cut to its `window` newest samples.
 * Times without a name or not finite are skipped. The input is not changed.
 */
export function recordTimings(history: LatencyHistory, times: readonly Pick<ShardTiming, 'name' | 'ms'>[], window = LATENCY_WINDOW): LatencyHistory {
  if (times.length === 0) return history;
  const out: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(history)) out[k] = [...v];
  for (const t of times) {
    if (!t.name || !Number.isFinite(t.ms) || t.ms < 0) continue;
    (out[t.name] ??= []).push(t.ms);
  }
  for (const k of Object.keys(out)) if (out[k].length > window) out[k] = out[k].slice(out[k].length - window);
  return out;
}

/** shardLatencies summarises every shard with samples, in the order of `names` (shards of the boundary file in key order); shards without samples are left out. */
export function shardLatencies(history: LatencyHistory, names: readonly string[]): ShardLatency[] {
  const out: ShardLatency[] = [];
  for (const name of names) {
    const xs = history[name];
    if (!xs || xs.length === 0) continue;
    const sorted = [...xs].sort((a, b) => a - b);
    out.push({ name, n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) });
  }
  return out;
}
