import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rangeCounts, trafficRangesOf, type TrafficBucket, type TrafficWindow } from './traffic.ts';
import { hotRanges, sustainedHotspots } from './trafficHotspots.ts';
import { parseBoundaryFile } from './boundaryText.ts';
import { Router } from './router.ts';
import { mulberry32 } from './prng.ts';

const router = new Router(parseBoundaryFile(readFileSync(join(import.meta.dirname, '..', '..', 'data', 'boundaries.json'), 'utf8')));
const N = router.numberOfShards;
const T0 = Date.UTC(2026, 11, 4, 18, 0, 0);
const iso = (sec: number) => new Date(T0 + sec * 1000).toISOString();

/** A bucket of 10 s from startSec: every range at `base` searches, the ranges of `hot` at their value; writes = searches / 10. */
const bucket = (startSec: number, hot: Record<number, number> = {}, base = 10, seconds = 10): TrafficBucket => ({
  start: iso(startSec),
  end: iso(startSec + seconds),
  seconds,
  resets: 0,
  ranges: Array.from({ length: N }, (_, i) => {
    const s = hot[i] ?? base;
    return rangeCounts(s, 3 * s, s / 10, seconds);
  }),
});
const windowOf = (buckets: TrafficBucket[]): TrafficWindow => ({ index: router.file.index, hash: router.file.hash, from: iso(0), to: iso(3600), intervalSeconds: 10, sources: ['shards'], ranges: trafficRangesOf(router), buckets, gaps: [], otherHashes: [] });
const name = (i: number) => router.shards[i].name;

describe('a hot range in one bucket', () => {
  it('is one whose count / the mean range count is at least the factor (findHotspots decides)', () => {
    // Range 3 at 200 of a total 14 × 10 + 200 = 340: mean 340/15, so 200 / mean = 8.82.
    const h = hotRanges(router, bucket(0, { 3: 200 }), 2);
    expect([...h.keys()]).toEqual([3]);
    expect(h.get(3)).toBeCloseTo(200 / (340 / N), 10);
    // Exactly at the factor counts as hot, as in `geoshard hotspots`.
    const at = bucket(0, { 5: 20 }, 0);
    expect([...hotRanges(router, at, N).keys()]).toEqual([5]);
    expect(hotRanges(router, bucket(0, {}, 0), 2).size).toBe(0);
  });

  it('agrees with the ratio to the mean over random buckets', () => {
    const rand = mulberry32(7);
    for (let t = 0; t < 200; t++) {
      const b = bucket(0, Object.fromEntries(Array.from({ length: N }, (_, i) => [i, Math.floor(rand() ** 3 * 100)])));
      const counts = b.ranges.map((r) => r.searches);
      const mean = counts.reduce((a, x) => a + x, 0) / N;
      const factor = 0.5 + rand() * 3;
      const expected = counts.flatMap((c, i) => (mean > 0 && c / mean >= factor ? [i] : []));
      expect([...hotRanges(router, b, factor).keys()].sort((a, b) => a - b)).toEqual(expected);
    }
  });
});

describe('sustained hot spots', () => {
  it('list a range hot in every bucket of a run at least sustainSeconds long, with its figures over the run', () => {
    const w = windowOf([bucket(0), bucket(10, { 4: 100 }), bucket(20, { 4: 120 }), bucket(30, { 4: 110 }), bucket(40)]);
    const [h, ...rest] = sustainedHotspots(router, w, { factor: 2, sustainSeconds: 30 });
    expect(rest).toEqual([]);
    expect(h).toMatchObject({ index: 4, name: name(4), shard: router.shards[4].shard, metric: 'searches', from: iso(10), to: iso(40), seconds: 30, buckets: 3, count: 330, perSecond: 11 });
    expect(h.start).toBe(router.file.boundaries[3]);
    // Over the run: 330 of 3 × (14 × 10) + 330 = 750.
    expect(h.share).toBeCloseTo(330 / 750, 12);
    expect(h.overMean).toBeCloseTo(330 / (750 / N), 12);
    expect(h.peakOverMean).toBeCloseTo(120 / (260 / N), 12);
    expect(sustainedHotspots(router, w, { factor: 2, sustainSeconds: 31 })).toEqual([]);
  });

  it('follow a hot spot that moves from one range to another, in time order', () => {
    const w = windowOf([...[0, 10, 20].map((t) => bucket(t, { 2: 90 })), ...[30, 40, 50].map((t) => bucket(t, { 11: 90 }))]);
    const hs = sustainedHotspots(router, w, { sustainSeconds: 20 });
    expect(hs.map((h) => [h.name, h.from, h.to])).toEqual([
      [name(2), iso(0), iso(30)],
      [name(11), iso(30), iso(60)],
    ]);
  });

  it('end a run at a bucket below the factor and at a gap', () => {
    const cold = windowOf([bucket(0, { 1: 90 }), bucket(10, { 1: 90 }), bucket(20), bucket(30, { 1: 90 }), bucket(40, { 1: 90 })]);
    expect(sustainedHotspots(router, cold, { sustainSeconds: 20 }).map((h) => h.from)).toEqual([iso(0), iso(30)]);
    expect(sustainedHotspots(router, cold, { sustainSeconds: 30 })).toEqual([]);
    const gap = windowOf([bucket(0, { 1: 90 }), bucket(10, { 1: 90 }), bucket(60, { 1: 90 })]);
    expect(sustainedHotspots(router, gap, { sustainSeconds: 30 })).toEqual([]);
    expect(sustainedHotspots(router, gap, { sustainSeconds: 20 }).map((h) => [h.from, h.to])).toEqual([[iso(0), iso(20)]]);
  });

  it('count the metric asked for', () => {
    const w = windowOf([bucket(0, { 6: 10 }, 10), bucket(10, { 6: 10 }, 10)]);
    w.buckets.forEach((b) => (b.ranges[6] = rangeCounts(10, 30, 50, 10)));
    expect(sustainedHotspots(router, w, { sustainSeconds: 20 })).toEqual([]);
    const [h] = sustainedHotspots(router, w, { sustainSeconds: 20, metric: 'writes' });
    expect(h).toMatchObject({ index: 6, metric: 'writes', count: 100, perSecond: 5 });
  });

  it('refuse a window counted in another file, and factors or durations that are not positive', () => {
    expect(() => sustainedHotspots(router, { ...windowOf([]), hash: 'abc' }, { sustainSeconds: 10 })).toThrow(/counted in the ranges of boundary file abc/);
    expect(() => sustainedHotspots(router, windowOf([]), { sustainSeconds: 10, factor: 0 })).toThrow(/factor 0 is invalid/);
    expect(() => sustainedHotspots(router, windowOf([]), { sustainSeconds: -1 })).toThrow(/sustainSeconds -1 is invalid/);
  });
});
