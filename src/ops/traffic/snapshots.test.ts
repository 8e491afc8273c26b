import { describe, it, expect } from 'vitest';
import { countersOfStats, TrafficError, type StatsBody } from './shardStats.ts';
import { windowOf, MAX_GAP_INTERVALS, type CopyCounters, type TrafficSnapshot, type CellsRecord } from './snapshots.ts';
import type { TrafficRange } from '../../core/traffic.ts';

// Recorded from the 3-node OpenSearch 2.19.6 test cluster (filter_path STATS_FILTER): an index of
// 3 shards and 1 replica; 6 documents written (routing r1..r6), one deleted (r1, shard 0); 5
// searches with routing=r1 (shard 0) and one with routing=r1,r2,r3,r4 (shards 0 and 2).
const RECORDED: StatsBody = {
  _shards: { total: 6, successful: 6, failed: 0 },
  indices: {
    'gs-traffic-probe': {
      uuid: 'Lh4I-_GDSr6OBusd-hXrkw',
      shards: {
        '0': [
          { routing: { primary: true, node: 'ygY_8XCVTEyzTFz4axauYw' }, indexing: { index_total: 3, delete_total: 1 }, search: { query_total: 1, query_time_in_millis: 0 } },
          { routing: { primary: false, node: 'qgC9MJZwRrOEyov12Fww6g' }, indexing: { index_total: 3, delete_total: 1 }, search: { query_total: 5, query_time_in_millis: 0 } },
        ],
        '1': [
          { routing: { primary: true, node: 'qgC9MJZwRrOEyov12Fww6g' }, indexing: { index_total: 2, delete_total: 0 }, search: { query_total: 0, query_time_in_millis: 0 } },
          { routing: { primary: false, node: 'JCdAAXhrTnudqzp25pGyiQ' }, indexing: { index_total: 2, delete_total: 0 }, search: { query_total: 0, query_time_in_millis: 0 } },
        ],
        '2': [
          { routing: { primary: false, node: 'ygY_8XCVTEyzTFz4axauYw' }, indexing: { index_total: 1, delete_total: 0 }, search: { query_total: 1, query_time_in_millis: 0 } },
          { routing: { primary: true, node: 'JCdAAXhrTnudqzp25pGyiQ' }, indexing: { index_total: 1, delete_total: 0 }, search: { query_total: 0, query_time_in_millis: 0 } },
        ],
      },
    },
  },
};

// Three ranges in key order whose shard numbers are not their positions (as in a real file).
const RANGES: TrafficRange[] = [
  { index: 0, shard: 2, name: 'alpha', start: '0c', end: '3c' },
  { index: 1, shard: 0, name: 'bravo', start: '3c', end: '8c' },
  { index: 2, shard: 1, name: 'charlie', start: '8c', end: null },
];

const T0 = Date.UTC(2026, 11, 4, 18, 0, 0);
const c = (shard: number, node: string, primary: boolean, queries: number, queryMs = 0, indexed = 0, deleted = 0): CopyCounters => ({ shard, node, primary, queries, queryMs, indexed, deleted });
const snap = (sec: number, copies: CopyCounters[], over: Partial<TrafficSnapshot> = {}): TrafficSnapshot => ({
  source: 'shards',
  index: 'places',
  concrete: 'places-v1',
  uuid: 'u1',
  start: T0 + sec * 1000,
  sampledAt: T0 + sec * 1000 + 250,
  intervalSeconds: 10,
  hash: 'h1',
  ranges: RANGES,
  copies,
  failedShards: 0,
  ...over,
});
const q = { index: 'places', fromMs: T0 - 1, toMs: T0 + 3_600_000 };
const counts = (w: ReturnType<typeof windowOf>, k = 0) => w!.buckets[k].ranges.map((r) => [r.searches, r.writes, r.searchMs]);

describe('the engine counters of one _stats answer', () => {
  it('reads every copy of a recorded 2.19.6 answer, primaries first per shard', () => {
    const s = countersOfStats(RECORDED, 'gs-traffic-probe');
    expect(s.concrete).toBe('gs-traffic-probe');
    expect(s.uuid).toBe('Lh4I-_GDSr6OBusd-hXrkw');
    expect(s.failedShards).toBe(0);
    expect(s.copies).toHaveLength(6);
    expect(s.copies[0]).toEqual({ shard: 0, node: 'ygY_8XCVTEyzTFz4axauYw', primary: true, queries: 1, queryMs: 0, indexed: 3, deleted: 1 });
    // The copies of a shard sum to the searches that asked it: 5 + 1 on shard 0, 1 on shard 2.
    const perShard = [0, 1, 2].map((k) => s.copies.filter((x) => x.shard === k).reduce((a, x) => a + x.queries, 0));
    expect(perShard).toEqual([6, 0, 1]);
  });

  it('refuses an alias over two indices, and an answer that names none', () => {
    const two: StatsBody = { indices: { a: { uuid: 'x', shards: {} }, b: { uuid: 'y', shards: {} } } };
    expect(() => countersOfStats(two, 'live')).toThrow(TrafficError);
    expect(() => countersOfStats(two, 'live')).toThrow(/"live" is an alias of 2 indices \(a, b\)/);
    expect(() => countersOfStats({ indices: {} }, 'gone')).toThrow(/named no index/);
  });

  it('leaves out an unassigned copy (no node)', () => {
    const s = countersOfStats({ indices: { i: { uuid: 'u', shards: { '0': [{ routing: { node: null, primary: false } }, { routing: { node: 'n1', primary: true }, search: { query_total: 4 } }] } } } }, 'i');
    expect(s.copies).toEqual([c(0, 'n1', true, 4)]);
  });
});

describe('buckets between samples', () => {
  it('are the exact deltas of two samples: searches summed over copies, writes from the primary only', () => {
    const a = snap(0, [c(0, 'n1', true, 10, 40, 100, 1), c(0, 'n2', false, 5, 20, 100, 1), c(1, 'n2', true, 0), c(2, 'n3', true, 7)]);
    const b = snap(10, [c(0, 'n1', true, 16, 52, 130, 3), c(0, 'n2', false, 9, 30, 130, 3), c(1, 'n2', true, 0), c(2, 'n3', true, 8, 5)]);
    const w = windowOf(q, [b, a])!;
    expect(w.buckets).toHaveLength(1);
    const k = w.buckets[0];
    expect(k.seconds).toBe(10);
    expect(k.resets).toBe(0);
    // Key order: alpha (shard 2), bravo (shard 0), charlie (shard 1).
    expect(counts(w)).toEqual([
      [1, 0, 5],
      [10, 32, 22],
      [0, 0, 0],
    ]);
    expect(k.ranges[1].searchesPerSecond).toBe(1);
    expect(k.ranges[1].writesPerSecond).toBeCloseTo(3.2);
    expect(k.start).toBe(new Date(a.sampledAt).toISOString());
    expect(w.hash).toBe('h1');
    expect(w.ranges).toEqual(RANGES);
    expect(w.gaps).toEqual([]);
  });

  it('count a copy whose counters went down (its node restarted) from 0, as a reset', () => {
    const a = snap(0, [c(0, 'n1', true, 500, 900, 70)]);
    const b = snap(10, [c(0, 'n1', true, 3, 4, 2)]);
    const w = windowOf(q, [a, b])!;
    expect(counts(w)[1]).toEqual([3, 2, 4]);
    expect(w.buckets[0].resets).toBe(1);
  });

  it('count a new copy (relocated, or a new replica) from 0, and a copy that missed a sample against where it was last seen', () => {
    const a = snap(0, [c(0, 'n1', true, 10), c(2, 'n3', true, 50)]);
    // n1's copy of shard 0 missed this sample (failed); shard 0 relocated a replica to n4.
    const b = snap(10, [c(2, 'n3', true, 60)], { failedShards: 1 });
    const d = snap(20, [c(0, 'n1', true, 25), c(0, 'n4', false, 2), c(2, 'n3', true, 61)]);
    const w = windowOf(q, [a, b, d])!;
    expect(counts(w, 0).map((x) => x[0])).toEqual([10, 0, 0]);
    // The copy seen again counts 25 − 10; the new one is left out: the sample before missed copies, so it may be one of them.
    expect(counts(w, 1).map((x) => x[0])).toEqual([1, 15, 0]);
    const e = snap(30, [c(0, 'n1', true, 25), c(0, 'n4', false, 2), c(0, 'n5', false, 4), c(2, 'n3', true, 61)]);
    const w2 = windowOf(q, [a, b, d, e])!;
    expect(counts(w2, 2).map((x) => x[0])).toEqual([0, 4, 0]);
    expect(w2.buckets[2].resets).toBe(1);
  });

  it('leave a gap where no sample was taken for longer than MAX_GAP_INTERVALS intervals, and where the index behind the name changed', () => {
    const a = snap(0, [c(0, 'n1', true, 10)]);
    const b = snap(10, [c(0, 'n1', true, 20)]);
    const later = snap(10 + 10 * MAX_GAP_INTERVALS + 5, [c(0, 'n1', true, 90)]);
    const next = snap(10 + 10 * MAX_GAP_INTERVALS + 15, [c(0, 'n1', true, 95)]);
    // The alias now points at a new index, whose counters hold its whole copy phase.
    const moved = snap(10 + 10 * MAX_GAP_INTERVALS + 25, [c(0, 'm1', true, 1, 0, 90_000)], { concrete: 'places-v2', uuid: 'u2' });
    const after = snap(10 + 10 * MAX_GAP_INTERVALS + 35, [c(0, 'm1', true, 4, 0, 90_001)], { concrete: 'places-v2', uuid: 'u2' });
    const w = windowOf(q, [a, b, later, next, moved, after])!;
    expect(w.buckets.map((k) => k.ranges[1].searches)).toEqual([10, 5, 3]);
    expect(w.buckets[2].ranges[1].writes).toBe(1);
    expect(w.gaps.map((g) => g.reason)).toEqual([expect.stringMatching(/^no sample for 30 s/), expect.stringMatching(/the index behind "places" changed \(places-v1 → places-v2\)/)]);
  });

  it('count in the ranges of one boundary file, and report the buckets of others', () => {
    const other = RANGES.map((r) => ({ ...r, name: `${r.name}2` }));
    const a = snap(0, [c(0, 'n1', true, 0)], { hash: 'h0', ranges: other });
    const b = snap(10, [c(0, 'n1', true, 4)]);
    const d = snap(20, [c(0, 'n1', true, 9)]);
    const w = windowOf(q, [a, b, d])!;
    expect(w.hash).toBe('h1');
    expect(w.buckets.map((k) => k.ranges[1].searches)).toEqual([5]);
    expect(w.otherHashes).toEqual([{ hash: 'h0', buckets: 1 }]);
    const old = windowOf({ ...q, hash: 'h0' }, [a, b, d])!;
    expect(old.ranges.map((r) => r.name)).toEqual(['alpha2', 'bravo2', 'charlie2']);
    expect(old.buckets.map((k) => k.ranges[1].searches)).toEqual([4]);
  });

  it('keep only the samples taken inside the window, and say when nothing names the ranges', () => {
    const s = [0, 10, 20, 30].map((t) => snap(t, [c(0, 'n1', true, t)]));
    const w = windowOf({ index: 'places', fromMs: s[1].sampledAt, toMs: s[2].sampledAt }, s)!;
    expect(w.buckets.map((k) => k.ranges[1].searches)).toEqual([10]);
    expect(windowOf({ index: 'other', fromMs: q.fromMs, toMs: q.toMs }, s)).toBeNull();
    const empty = windowOf({ index: 'other', fromMs: q.fromMs, toMs: q.toMs, hash: 'h9', ranges: RANGES }, s)!;
    expect(empty.buckets).toEqual([]);
    expect(empty.intervalSeconds).toBe(0);
  });

  it('carry the per-cell counts of the interval they fall in (source cells)', () => {
    const a = snap(0, [c(0, 'n1', true, 0)]);
    const b = snap(10, [c(0, 'n1', true, 3)]);
    const rec = (startSec: number, counts: CellsRecord['cells']['counts'], err = 0): CellsRecord => ({
      source: 'cells',
      index: 'places',
      start: T0 + startSec * 1000 + 300,
      sampledAt: T0 + startSec * 1000 + 400,
      intervalSeconds: 5,
      hash: 'h1',
      cells: { searches: 0, writes: 0, exact: err === 0, maxError: { searches: err, writes: 0 }, counts },
    });
    const w = windowOf(q, [a, b], [rec(0, [{ cell: '4c', searches: 2, writes: 0 }]), rec(5, [{ cell: '4c', searches: 1, writes: 1 }, { cell: '4d', searches: 1, writes: 0 }], 3)])!;
    expect(w.sources).toEqual(['shards', 'cells']);
    expect(w.buckets[0].cells).toEqual([
      { cell: '4c', searches: 3, writes: 1 },
      { cell: '4d', searches: 1, writes: 0 },
    ]);
    expect(w.buckets[0].cellsError).toEqual({ searches: 3, writes: 0 });
    // A record whose middle is past the last sample belongs to no bucket yet.
    const late = windowOf(q, [a, b], [rec(8, [{ cell: '4e', searches: 5, writes: 0 }])])!;
    expect(late.buckets[0].cells).toBeUndefined();
  });
});
