/**
 * Recorded traffic per key range: the one shape every source and every reader of issue 39 shares
 * (the live API's GET /api/traffic, `geoshard traffic --json`, the workload and the hot spots made
 * from it, the explorer's key visualizer).
 *
 * A window is a list of buckets in time order. A bucket is the interval between two consecutive
 * samples of the engine's counters (src/ops/traffic: `_stats?level=shards`, recorded in the
 * cluster's traffic history index); its counts are the counters' exact deltas over that interval,
 * its rates the counts divided by the interval's seconds. Counts per range (a range is a shard of
 * the boundary file the samples were taken under):
 * - searches: Σ over the shard's copies (primary and replicas) of `query_total`'s delta: every copy
 *   counts the shard-level queries it served, and a search that asks k shards adds 1 to each of
 *   those k shards' count (so Σ over ranges counts shard queries, not client searches);
 * - searchMs: Σ over the copies of `query_time_in_millis`'s delta (query time spent; per second it
 *   reads as busy search threads × 1000);
 * - writes: `index_total` + `delete_total`'s delta on the primary alone (every copy applies every
 *   write, so summing copies would count a write once per copy).
 * A bucket may carry per-cell counts too (source `cells`: the geoshard plugin's counters, where
 * it is installed); every figure computed from a window uses them where present.
 *
 * Pure: timestamps are ISO-8601 strings in UTC on the wire, seconds for durations.
 */
import { tokenOfOrdinal } from './cells.ts';
import type { ShardTable } from './shardTable.ts';

/** Where a bucket's counts come from: the engine's per-shard counters, or the plugin's per-cell ones. */
export type TrafficSource = 'shards' | 'cells';

/** What a rate is of: shard queries, writes (index + delete on the primary), or query time in ms. */
export type TrafficMetric = 'searches' | 'writes' | 'searchMs';

/** The metrics, in the order readers list them. */
export const TRAFFIC_METRICS: readonly TrafficMetric[] = ['searches', 'writes', 'searchMs'];

/** One key range of the boundary file the traffic was recorded under. */
export interface TrafficRange {
  /** Key-order index of the range, in [0, N). */
  index: number;
  /** The OpenSearch shard number and the shard's routing name. */
  shard: number;
  name: string;
  /** First level-10 cell of the range (token), and the first cell after it (null: the end of the curve). */
  start: string;
  end: string | null;
}

/** What one range served in one bucket (or a window): exact counts and the same per second. */
export interface RangeCounts {
  searches: number;
  searchMs: number;
  writes: number;
  searchesPerSecond: number;
  searchMsPerSecond: number;
  writesPerSecond: number;
}

/** What one level-10 cell served in one bucket (source `cells`). */
export interface CellTraffic {
  /** The level-10 token. */
  cell: string;
  searches: number;
  writes: number;
}

/** One interval between two consecutive samples. */
export interface TrafficBucket {
  /** When the earlier and the later sample were taken (ISO-8601, UTC). */
  start: string;
  end: string;
  /** end − start, in seconds (> 0). */
  seconds: number;
  /** Shard copies whose counters started again in the interval (a node restart, a relocated or new copy): counted from 0. */
  resets: number;
  /** Per range, aligned with TrafficWindow.ranges. */
  ranges: RangeCounts[];
  /** Per cell (source `cells`), when the plugin recorded this interval. */
  cells?: CellTraffic[];
  /**
   * With `cells`: the most any cell's count may be above the truth, per kind (0: every count
   * exact). The plugin's summaries are exact until a node's second touches more than 256 distinct
   * cells; past that a count is an upper bound within this error.
   */
  cellsError?: { searches: number; writes: number };
}

/** An interval of the window with no rates: no sample in it, or the index behind the name changed. */
export interface TrafficGap {
  start: string;
  end: string;
  reason: string;
}

/** Recorded traffic of one index under one boundary file, for a window of time. */
export interface TrafficWindow {
  /** The index (or alias) as the boundary file names it. */
  index: string;
  /** The hash of the boundary file whose ranges the buckets are counted in. */
  hash: string;
  /** The window asked for (ISO-8601): buckets between samples taken inside it. */
  from: string;
  to: string;
  /** The recorders' sampling interval, seconds (the largest among the samples read; 0 when none). */
  intervalSeconds: number;
  /** The sources present. */
  sources: TrafficSource[];
  /** The ranges, in key order. */
  ranges: TrafficRange[];
  /** The buckets, in time order. */
  buckets: TrafficBucket[];
  /** Intervals without rates, in time order. */
  gaps: TrafficGap[];
  /** Buckets of the window recorded under other boundary files (not counted here), per hash. */
  otherHashes: { hash: string; buckets: number }[];
}

/**
 * A traffic recorder's state as it reports itself (the server's sampler, GET /api/traffic):
 * whether it runs, every how many seconds it samples into which history index, how many days
 * that history keeps, how many samples it wrote, and when and how its last sample went
 * (`lastAt` ISO-8601; `problem`: why the last sample failed or was skipped, else null), and
 * what it did about per-cell counts.
 */
export interface TrafficRecorderStatus {
  running: boolean;
  intervalSeconds: number;
  historyIndex: string;
  retentionDays: number;
  recorded: number;
  lastAt: string | null;
  last: 'recorded' | 'exists' | 'skipped' | 'failed' | null;
  problem: string | null;
  /**
   * What the last sample did about per-cell counts (the geoshard plugin's), in words: "recorded",
   * "the geoshard plugin is not installed", why they could not be read; null before any sample.
   */
  cells: string | null;
}

/**
 * cellsCount tells whether a bucket's per-cell counts stand for its `kind` of traffic: the bucket
 * has them and they hold at least one. The plugin counts only what passes its processors (a
 * search through `geo_routing_search`, a write through `geo_routing`); an index searched without
 * the search pipeline has per-cell writes and no per-cell searches, and its searches are known
 * per range only.
 */
export function cellsCount(b: Pick<TrafficBucket, 'cells'>, kind: 'searches' | 'writes'): boolean {
  return b.cells !== undefined && b.cells.some((c) => c[kind] > 0);
}

/** The longest window a reader asks for, in seconds (31 days: past any retention the history keeps by default). */
export const MAX_WINDOW_SECONDS = 31 * 86_400;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * parseDuration reads a duration written with its unit: a positive number and s, m, h or d
 * ("90s", "15m", "1.5h", "7d"), to seconds. Throws RangeError naming `field`, the value and what
 * is valid when it is anything else, or longer than `maxSeconds` (default MAX_WINDOW_SECONDS).
 */
export function parseDuration(text: string, field = 'duration', maxSeconds = MAX_WINDOW_SECONDS): number {
  const m = /^\s*((?:\d+\.?\d*|\.\d+))\s*([smhd])\s*$/i.exec(text);
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[m[2].toLowerCase()] : NaN;
  if (!m || !(seconds > 0)) throw new RangeError(`${field} ${JSON.stringify(text)} is not a duration: expected a positive number with its unit, s, m, h or d, such as "90s", "15m", "2h" or "7d"`);
  if (seconds > maxSeconds) throw new RangeError(`${field} ${JSON.stringify(text)} is too long: at most ${formatDuration(maxSeconds)}`);
  return seconds;
}

/** formatDuration writes seconds as parseDuration reads them, in the largest unit that divides them ("15m", "7d", "90s"; fractions of a second are rounded). */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  for (const unit of ['d', 'h', 'm'] as const) if (s > 0 && s % UNIT_SECONDS[unit] === 0) return `${s / UNIT_SECONDS[unit]}${unit}`;
  return `${s}s`;
}

/** rangeCounts makes a RangeCounts of counts over `seconds` (> 0; rates are 0 when it is not). */
export function rangeCounts(searches: number, searchMs: number, writes: number, seconds: number): RangeCounts {
  const per = (x: number) => (seconds > 0 ? x / seconds : 0);
  return { searches, searchMs, writes, searchesPerSecond: per(searches), searchMsPerSecond: per(searchMs), writesPerSecond: per(writes) };
}

/** metricOf reads a metric's count from a RangeCounts. */
export function metricOf(c: Pick<RangeCounts, TrafficMetric>, metric: TrafficMetric): number {
  return c[metric];
}

/** trafficRangesOf lists a boundary file's ranges as a window names them: key order, shard number, name, first and next cell. */
export function trafficRangesOf(table: ShardTable): TrafficRange[] {
  return table.shards.map((s, i) => ({ index: i, shard: s.shard, name: s.name, start: tokenOfOrdinal(table.starts[i])!, end: tokenOfOrdinal(table.starts[i + 1]) }));
}

/**
 * sumBuckets adds buckets into one: counts and seconds summed (so its rates are the mean rates
 * over them), resets summed, cells and their errors summed per cell; start of the first, end of the last.
 * Precondition: at least one bucket, all with the same number of ranges, in time order.
 */
export function sumBuckets(buckets: readonly TrafficBucket[]): TrafficBucket {
  if (buckets.length === 0) throw new RangeError('sumBuckets needs at least one bucket');
  const n = buckets[0].ranges.length;
  const sums = Array.from({ length: n }, () => ({ searches: 0, searchMs: 0, writes: 0 }));
  let seconds = 0;
  let resets = 0;
  let cells: Map<string, CellTraffic> | null = null;
  const cellsError = { any: false, searches: 0, writes: 0 };
  for (const b of buckets) {
    if (b.ranges.length !== n) throw new RangeError(`bucket ${b.start} has ${b.ranges.length} ranges, not ${n}: buckets of one window share its ranges`);
    seconds += b.seconds;
    resets += b.resets;
    b.ranges.forEach((r, i) => {
      sums[i].searches += r.searches;
      sums[i].searchMs += r.searchMs;
      sums[i].writes += r.writes;
    });
    if (b.cells) {
      cells ??= new Map();
      for (const c of b.cells) {
        const acc = cells.get(c.cell);
        if (acc) (acc.searches += c.searches), (acc.writes += c.writes);
        else cells.set(c.cell, { ...c });
      }
    }
    if (b.cellsError) (cellsError.any = true), (cellsError.searches += b.cellsError.searches), (cellsError.writes += b.cellsError.writes);
  }
  const out: TrafficBucket = { start: buckets[0].start, end: buckets[buckets.length - 1].end, seconds, resets, ranges: sums.map((s) => rangeCounts(s.searches, s.searchMs, s.writes, seconds)) };
  if (cells) out.cells = [...(cells as Map<string, CellTraffic>).values()];
  if (cellsError.any) out.cellsError = { searches: cellsError.searches, writes: cellsError.writes };
  return out;
}

/** windowTotals sums a window's buckets: its counts per range and their mean rates over the seconds it has rates for. Null when it has no bucket. */
export function windowTotals(w: Pick<TrafficWindow, 'buckets'>): TrafficBucket | null {
  return w.buckets.length === 0 ? null : sumBuckets(w.buckets);
}

/**
 * coarsen returns the window with at most `maxBuckets` buckets (an integer ≥ 1) where it can:
 * runs of consecutive buckets summed with sumBuckets, never across a gap (so a window with more
 * gaps than maxBuckets keeps one bucket per stretch between gaps). Counts and rates stay exact;
 * only the time resolution drops.
 */
export function coarsen(w: TrafficWindow, maxBuckets: number): TrafficWindow {
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1) throw new RangeError(`maxBuckets ${maxBuckets} is invalid: expected an integer ≥ 1`);
  if (w.buckets.length <= maxBuckets) return w;
  for (let per = Math.ceil(w.buckets.length / maxBuckets); ; per *= 2) {
    const out: TrafficBucket[] = [];
    let run: TrafficBucket[] = [];
    for (const b of w.buckets) {
      if (run.length === per || (run.length > 0 && run[run.length - 1].end !== b.start)) (out.push(sumBuckets(run)), (run = []));
      run.push(b);
    }
    out.push(sumBuckets(run));
    if (out.length <= maxBuckets || per >= w.buckets.length) return { ...w, buckets: out };
  }
}
