import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coarsen, formatDuration, parseDuration, rangeCounts, sumBuckets, trafficRangesOf, windowTotals, MAX_WINDOW_SECONDS, type TrafficBucket, type TrafficWindow } from './traffic.ts';
import { parseBoundaryFile } from './boundaryText.ts';
import { Router } from './router.ts';
import { cellOrdinal, parseToken } from './cells.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const bundledRouter = () => new Router(parseBoundaryFile(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8')));

const T0 = Date.UTC(2026, 11, 4, 18, 0, 0);
const iso = (sec: number) => new Date(T0 + sec * 1000).toISOString();
/** A bucket of `seconds` from `startSec` with searches per range as given (writes 1 each, searchMs 2 × searches). */
const bucket = (startSec: number, seconds: number, searches: number[]): TrafficBucket => ({
  start: iso(startSec),
  end: iso(startSec + seconds),
  seconds,
  resets: 0,
  ranges: searches.map((s) => rangeCounts(s, 2 * s, 1, seconds)),
});

describe('durations', () => {
  it('reads a positive number with its unit to seconds', () => {
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('1.5h')).toBe(5400);
    expect(parseDuration(' 7d ')).toBe(7 * 86_400);
    expect(parseDuration('.5M')).toBe(30);
  });

  it('names the field, the value and what is valid otherwise', () => {
    expect(() => parseDuration('15', '--since')).toThrow('--since "15" is not a duration: expected a positive number with its unit, s, m, h or d, such as "90s", "15m", "2h" or "7d"');
    for (const bad of ['', '0m', '-5m', '5 minutes', '1e3s', 'm', 'Infinityd']) expect(() => parseDuration(bad), bad).toThrow(RangeError);
    expect(() => parseDuration('32d', 'window')).toThrow('window "32d" is too long: at most 31d');
    expect(parseDuration('31d')).toBe(MAX_WINDOW_SECONDS);
  });

  it('writes seconds back in the largest unit that divides them', () => {
    expect([900, 86_400 * 7, 90, 3600, 5400, 0.4].map(formatDuration)).toEqual(['15m', '7d', '90s', '1h', '90m', '0s']);
    for (const s of [1, 59, 60, 61, 3599, 7200, 86_400]) expect(parseDuration(formatDuration(s))).toBe(s);
  });
});

describe('buckets', () => {
  it('sum into one with exact counts and the mean rate over their seconds', () => {
    const s = sumBuckets([bucket(0, 10, [1, 9]), bucket(10, 30, [3, 1])]);
    expect(s).toMatchObject({ start: iso(0), end: iso(40), seconds: 40, resets: 0 });
    expect(s.ranges.map((r) => [r.searches, r.searchMs, r.writes, r.searchesPerSecond])).toEqual([
      [4, 8, 2, 0.1],
      [10, 20, 2, 0.25],
    ]);
    expect(windowTotals({ buckets: [] })).toBeNull();
    expect(() => sumBuckets([bucket(0, 10, [1]), bucket(10, 10, [1, 2])])).toThrow(/has 2 ranges, not 1/);
  });

  it('sum per-cell counts cell by cell', () => {
    const a = { ...bucket(0, 10, [1]), cells: [{ cell: '89c25b', searches: 2, writes: 0 }] };
    const b = { ...bucket(10, 10, [1]), cells: [{ cell: '89c25b', searches: 1, writes: 1 }, { cell: '89c259', searches: 5, writes: 0 }] };
    expect(sumBuckets([a, bucket(20, 10, [0]), b]).cells).toEqual([
      { cell: '89c25b', searches: 3, writes: 1 },
      { cell: '89c259', searches: 5, writes: 0 },
    ]);
    expect(sumBuckets([a, b]).cellsError).toBeUndefined();
    const exactA = { ...a, cellsError: { searches: 0, writes: 0 } };
    const roughB = { ...b, cellsError: { searches: 4, writes: 1 } };
    expect(sumBuckets([exactA, bucket(20, 10, [0]), roughB]).cellsError).toEqual({ searches: 4, writes: 1 });
  });

  it('coarsen to at most N buckets without merging across a gap, keeping every count', () => {
    const w = { buckets: [...Array.from({ length: 10 }, (_, k) => bucket(10 * k, 10, [k, 1])), ...Array.from({ length: 5 }, (_, k) => bucket(200 + 10 * k, 10, [1, 1]))] } as TrafficWindow;
    const c = coarsen(w, 4);
    expect(c.buckets.length).toBeLessThanOrEqual(4);
    expect(c.buckets.every((b) => Date.parse(b.end) - Date.parse(b.start) === b.seconds * 1000)).toBe(true);
    expect(windowTotals(c)!.ranges).toEqual(windowTotals(w)!.ranges);
    expect(coarsen(w, 100)).toBe(w);
    // More stretches between gaps than buckets asked: one bucket per stretch.
    const gappy = { buckets: [0, 100, 200].map((t) => bucket(t, 10, [1])) } as TrafficWindow;
    expect(coarsen(gappy, 1).buckets).toHaveLength(3);
    expect(() => coarsen(w, 0)).toThrow(/maxBuckets 0 is invalid/);
  });
});

describe('the ranges of a boundary file', () => {
  it('are its shards in key order with their first and next cells', () => {
    const router = bundledRouter();
    const r = trafficRangesOf(router);
    expect(r).toHaveLength(router.numberOfShards);
    r.forEach((x, i) => {
      expect(x).toMatchObject({ index: i, shard: router.shards[i].shard, name: router.shards[i].name });
      expect(cellOrdinal(parseToken(x.start))).toBe(router.starts[i]);
      if (i > 0) expect(x.start).toBe(router.file.boundaries[i - 1]);
      expect(x.end).toBe(i + 1 < r.length ? r[i + 1].start : null);
    });
  });
});
