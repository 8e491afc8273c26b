/**
 * The samples the traffic history keeps, and the buckets between them (src/core/traffic.ts's
 * window). Pure.
 *
 * A sample (TrafficSnapshot) is the engine's cumulative per-copy counters at one moment, as
 * `_stats?level=shards` gives them (shardStats.ts), with the boundary file's ranges they were
 * taken under. Storing counters rather than rates makes every bucket exact whichever recorder
 * wrote it, and lets two recorders (two explorers) write the same bucket idempotently: the
 * first sample of a bucket wins (history.ts), and rates come from consecutive samples by their
 * own timestamps.
 *
 * From two consecutive samples a and b, per copy (the index's uuid, the shard, the node):
 * - the copy is in both and no counter went down: its delta is b − a;
 * - a counter went down (the node restarted, the copy was rebuilt) or the copy is new (a
 *   relocation, a new replica): its counters started again within the interval, so its delta
 *   is b's value (what it counted since it started), and the bucket counts a reset;
 * - a copy missing from a sample (a node that did not answer `_stats`) is compared with where it
 *   was last seen, so its queries are counted when it answers again, not lost; one never seen
 *   before, after a sample that missed copies, is left out of that interval (it may be one of
 *   them, with its whole history in its counters).
 * Per shard: searches and searchMs are Σ over its copies, writes the primary's (at b) delta of
 * index_total + delete_total. Two samples further apart than MAX_GAP_INTERVALS × their interval,
 * or of another concrete index (the alias moved, the index was recreated), give a gap, no rates.
 */
import type { CellCounts } from './cellCounters.ts';
import { rangeCounts, type TrafficBucket, type TrafficGap, type TrafficRange, type TrafficSource, type TrafficWindow } from '../../core/traffic.ts';

/** One shard copy's cumulative counters, as `_stats?level=shards` reports them. */
export interface CopyCounters {
  /** The shard number. */
  shard: number;
  /** The node holding the copy (its id), and whether it is the primary. */
  node: string;
  primary: boolean;
  /** search.query_total, search.query_time_in_millis, indexing.index_total, indexing.delete_total. */
  queries: number;
  queryMs: number;
  indexed: number;
  deleted: number;
}

/** A sample of the engine's per-shard counters, as the traffic history stores it (one document per index and bucket). */
export interface TrafficSnapshot {
  source: 'shards';
  /** The index (or alias) as the boundary file names it, and the concrete index and uuid whose counters these are. */
  index: string;
  concrete: string;
  uuid: string;
  /** The bucket (its start, ms since the epoch) this sample is the first of; the id is made of it. */
  start: number;
  /** When the counters were read, ms since the epoch (the middle of the `_stats` request). */
  sampledAt: number;
  /** The recorder's sampling interval, seconds. */
  intervalSeconds: number;
  /** The boundary file the index was routed by, and its ranges. */
  hash: string;
  ranges: TrafficRange[];
  copies: CopyCounters[];
  /** Shard copies `_stats` could not read (not in `copies`). */
  failedShards: number;
}

/**
 * Per-cell counts of one interval (source `cells`: the geoshard plugin's counters, cellCounters.ts),
 * written by a recorder beside its shards sample: counts within [start, start + intervalSeconds),
 * not cumulative. `cells` is stored, not indexed (the history's mapping), so its shape is the
 * package's to choose.
 */
export interface CellsRecord {
  source: 'cells';
  index: string;
  start: number;
  sampledAt: number;
  intervalSeconds: number;
  hash: string;
  cells: CellCounts;
}

/** Two samples further apart than this many sampling intervals give a gap (one missed sample is not one). */
export const MAX_GAP_INTERVALS = 2.5;

/** What windowOf needs besides the samples. */
export interface WindowQuery {
  index: string;
  /** The window, ms since the epoch: buckets between samples taken in [fromMs, toMs]. */
  fromMs: number;
  toMs: number;
  /** Count in this boundary file's ranges (default: those of the latest sample). */
  hash?: string;
  /** The ranges of `hash`, when known (a reader with the file): used when no sample has them. */
  ranges?: TrafficRange[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const copyKey = (s: TrafficSnapshot, c: CopyCounters) => `${s.uuid}/${c.shard}/${c.node}`;

/**
 * windowOf turns a window's samples (and per-cell records) into a TrafficWindow: buckets between
 * consecutive samples taken inside it (see the file comment), counted in the ranges of `hash`.
 * Buckets whose earlier sample was taken under another boundary file are left out and counted in
 * otherHashes. Returns null when neither the samples nor the query name the ranges to count in
 * (nothing recorded).
 */
export function windowOf(q: WindowQuery, snapshots: readonly TrafficSnapshot[], cellRecords: readonly CellsRecord[] = []): TrafficWindow | null {
  const snaps = snapshots.filter((s) => s.index === q.index && s.sampledAt >= q.fromMs && s.sampledAt <= q.toMs).sort((a, b) => a.sampledAt - b.sampledAt);
  const latest = snaps[snaps.length - 1];
  const hash = q.hash ?? latest?.hash;
  const ranges = (hash !== undefined ? [...snaps].reverse().find((s) => s.hash === hash)?.ranges : undefined) ?? (hash === q.hash ? q.ranges : undefined);
  if (hash === undefined || !ranges) return null;
  const rangeOfShard = new Map(ranges.map((r) => [r.shard, r.index]));
  const buckets: TrafficBucket[] = [];
  const gaps: TrafficGap[] = [];
  const other = new Map<string, number>();
  const lastSeen = new Map<string, CopyCounters>();
  const seenUuids = new Set<string>();
  const remember = (s: TrafficSnapshot) => {
    seenUuids.add(s.uuid);
    for (const c of s.copies) lastSeen.set(copyKey(s, c), c);
  };
  let intervalSeconds = 0;
  for (const s of snaps) intervalSeconds = Math.max(intervalSeconds, s.intervalSeconds);
  if (snaps.length > 0) remember(snaps[0]);
  for (let k = 1; k < snaps.length; k++) {
    const a = snaps[k - 1];
    const b = snaps[k];
    const seconds = (b.sampledAt - a.sampledAt) / 1000;
    if (!(seconds > 0)) continue;
    if (seconds > MAX_GAP_INTERVALS * Math.max(a.intervalSeconds, b.intervalSeconds)) {
      gaps.push({ start: iso(a.sampledAt), end: iso(b.sampledAt), reason: `no sample for ${Math.round(seconds)} s (no recorder was running, or none could read the cluster)` });
      remember(b);
      continue;
    }
    if (!seenUuids.has(b.uuid)) {
      gaps.push({ start: iso(a.sampledAt), end: iso(b.sampledAt), reason: `the index behind "${b.index}" changed (${a.concrete} → ${b.concrete}): its counters start again` });
      remember(b);
      continue;
    }
    const n = ranges.length;
    const searches = new Float64Array(n);
    const searchMs = new Float64Array(n);
    const writes = new Float64Array(n);
    let resets = 0;
    for (const c of b.copies) {
      const prev = lastSeen.get(copyKey(b, c));
      // Never seen, while the earlier sample missed some copies: it may be one of them, with all its history in its counters.
      if (!prev && a.failedShards > 0) continue;
      const restarted = !prev || c.queries < prev.queries || c.queryMs < prev.queryMs || c.indexed < prev.indexed || c.deleted < prev.deleted;
      if (restarted) resets++;
      const base = restarted ? { queries: 0, queryMs: 0, indexed: 0, deleted: 0 } : prev!;
      const i = rangeOfShard.get(c.shard);
      if (i === undefined) continue;
      searches[i] += c.queries - base.queries;
      searchMs[i] += c.queryMs - base.queryMs;
      if (c.primary) writes[i] += c.indexed - base.indexed + (c.deleted - base.deleted);
    }
    remember(b);
    if (a.hash !== hash) {
      other.set(a.hash, (other.get(a.hash) ?? 0) + 1);
      continue;
    }
    buckets.push({ start: iso(a.sampledAt), end: iso(b.sampledAt), seconds, resets, ranges: Array.from({ length: n }, (_, i) => rangeCounts(searches[i], searchMs[i], writes[i], seconds)) });
  }
  const sources: TrafficSource[] = ['shards'];
  const cells = cellRecords.filter((r) => r.index === q.index && r.hash === hash);
  if (cells.length > 0) {
    sources.push('cells');
    // A per-cell record belongs to the bucket its middle falls in (a record covers the interval
    // before the recorder's sample; the bucket runs from sample to sample, a moment later).
    for (const r of cells) {
      const mid = r.start + r.intervalSeconds * 500;
      const b = buckets.find((x) => Date.parse(x.start) <= mid && mid < Date.parse(x.end));
      if (!b) continue;
      const acc = new Map((b.cells ?? []).map((c) => [c.cell, c]));
      for (const c of r.cells.counts) {
        const have = acc.get(c.cell);
        if (have) (have.searches += c.searches), (have.writes += c.writes);
        else acc.set(c.cell, { ...c });
      }
      b.cells = [...acc.values()];
      const e = b.cellsError ?? { searches: 0, writes: 0 };
      b.cellsError = { searches: e.searches + r.cells.maxError.searches, writes: e.writes + r.cells.maxError.writes };
    }
  }
  return {
    index: q.index,
    hash,
    from: iso(q.fromMs),
    to: iso(q.toMs),
    intervalSeconds,
    sources,
    ranges,
    buckets,
    gaps,
    otherHashes: [...other].map(([h, n]) => ({ hash: h, buckets: n })),
  };
}
