import { describe, it, expect } from 'vitest';
import { bandAt, bandsOf, bucketAt, busiestCells, clockOf, formatRate, heatColor, heatT, MIN_BAND, rateGrid, rateOf, windowRates } from './keyViz';
import { ordinalAt, tokenOfOrdinal } from '../../core/cells';
import { rangeCounts, type TrafficBucket, type TrafficRange } from '../../core/traffic';
import { srgbToOklab } from '../shell/palette';

const ranges: TrafficRange[] = [
  { index: 0, shard: 2, name: 'a', start: '0c', end: '1c' },
  { index: 1, shard: 0, name: 'b', start: '1c', end: '2c' },
  { index: 2, shard: 1, name: 'c', start: '2c', end: null },
];
/** A bucket of `seconds` whose ranges served these [searches, searchMs, writes]. */
const bucket = (start: string, end: string, seconds: number, counts: [number, number, number][]): TrafficBucket => ({
  start,
  end,
  seconds,
  resets: 0,
  ranges: counts.map(([s, ms, w]) => rangeCounts(s, ms, w, seconds)),
});
const w = {
  ranges,
  buckets: [
    bucket('2026-12-05T10:00:00Z', '2026-12-05T10:01:00Z', 60, [[60, 30, 0], [0, 0, 120], [6, 3, 0]]),
    bucket('2026-12-05T10:01:00Z', '2026-12-05T10:02:00Z', 60, [[600, 300, 0], [0, 0, 60], [6, 3, 0]]),
    bucket('2026-12-05T10:02:00Z', '2026-12-05T10:02:30Z', 30, [[30, 15, 0], [30, 0, 0], [0, 0, 0]]),
  ],
};

describe('the key visualizer', () => {
  it("gives each range's rate per bucket as count / the bucket's seconds, and the highest", () => {
    const g = rateGrid(w, 'searches');
    expect(Array.from(g.rates)).toEqual([1, 0, 0.1, 10, 0, 0.1, 1, 1, 0]);
    expect(g.max).toBe(10);
    expect(rateGrid(w, 'writes').max).toBe(2); // 120 writes in 60 s
    expect(rateOf(w.buckets[1], 0, 'searchMs')).toBe(5);
    expect(rateOf({ ranges: w.buckets[0].ranges, seconds: 0 }, 0, 'searches')).toBe(0);
  });

  it("gives a brushed stretch's rate as its counts over its seconds, not the mean of its buckets' rates", () => {
    // Buckets 1 and 2: range a served 600 + 30 searches in 60 + 30 s: 7 per second (the mean of 10 and 1 would be 5.5).
    const r = windowRates(w, { from: 2, to: 1 }, 'searches')!;
    expect(r.rates[0]).toBeCloseTo(7, 12);
    expect(r.rates[1]).toBeCloseTo(30 / 90, 12);
    expect(r.seconds).toBe(90);
    expect([r.start, r.end]).toEqual(['2026-12-05T10:01:00Z', '2026-12-05T10:02:30Z']);
    // No brush: the whole window, 690 searches of range a in 150 s.
    expect(windowRates(w, null, 'searches')!.rates[0]).toBeCloseTo(690 / 150, 12);
    expect(windowRates({ buckets: [] }, null, 'searches')).toBeNull();
  });

  it('makes bands as tall as their weights, none below the smallest band, filling the height in key order', () => {
    const b = bandsOf([300, 0, 700], 3);
    expect(b.y0[0]).toBe(0);
    expect(b.y1[2]).toBe(1);
    expect(b.y1[1] - b.y0[1]).toBeCloseTo(MIN_BAND, 12);
    expect((b.y1[2] - b.y0[2]) / (b.y1[0] - b.y0[0])).toBeCloseTo(7 / 3, 12);
    for (let i = 1; i < 3; i++) expect(b.y0[i]).toBe(b.y1[i - 1]);
    const equal = bandsOf(null, 4);
    expect(equal.y1.map((y, i) => y - equal.y0[i])).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(bandAt(b, 0)).toBe(0);
    expect(bandAt(b, (b.y0[1] + b.y1[1]) / 2)).toBe(1);
    expect(bandAt(b, 0.999)).toBe(2);
    expect(bandAt(b, 1)).toBe(-1);
  });

  it('finds the bucket under a point of the width', () => {
    expect([bucketAt(0, 3), bucketAt(0.34, 3), bucketAt(0.999, 3), bucketAt(1, 3), bucketAt(-0.1, 3), bucketAt(0.5, 0)]).toEqual([0, 1, 2, -1, -1, -1]);
  });

  it('colours by a square-root scale whose lightness rises with the rate', () => {
    expect(heatT(0, 10)).toBe(0);
    expect(heatT(2.5, 10)).toBeCloseTo(0.5, 12);
    expect(heatT(20, 10)).toBe(1);
    expect(heatT(5, 0)).toBe(0);
    const L = Array.from({ length: 11 }, (_, k) => srgbToOklab(heatColor(k / 10))[0]);
    for (let k = 1; k < L.length; k++) expect(L[k]).toBeGreaterThan(L[k - 1]);
    for (const c of [heatColor(0), heatColor(1)]) for (const v of c) expect(v >= 0 && v <= 1).toBe(true);
  });

  it('prints rates and times as the view shows them', () => {
    expect([formatRate(0), formatRate(0.42), formatRate(17.34), formatRate(1250.4), formatRate(2)]).toEqual(['0', '0.42', '17.3', '1,250', '2']);
    expect(clockOf('2026-12-05T10:02:30.000Z')).toBe('10:02:30');
  });
});

describe('busiestCells', () => {
  // Tokens of two level-10 cells, and their centres' places, from the core's own cell maths.
  const sf = tokenOfOrdinal(ordinalAt(37.7749, -122.4194))!;
  const oak = tokenOfOrdinal(ordinalAt(37.8044, -122.2712))!;
  const ny = tokenOfOrdinal(ordinalAt(40.7128, -74.006))!;
  const places = [
    { name: 'San Francisco', lat: 37.7749, lng: -122.4194 },
    { name: 'New York', lat: 40.7128, lng: -74.006 },
  ];
  const bucket = { seconds: 10, cells: [{ cell: sf, searches: 50, writes: 1 }, { cell: oak, searches: 20, writes: 9 }, { cell: ny, searches: 90, writes: 0 }] };

  it('lists the cells of the range with the most of the metric per second, named by the nearest place', () => {
    const west = (t: string) => t !== ny;
    expect(busiestCells(bucket, west, 'searches', places)).toEqual([
      { cell: sf, perSecond: 5, place: 'San Francisco' },
      { cell: oak, perSecond: 2, place: 'San Francisco' },
    ]);
    expect(busiestCells(bucket, west, 'writes', places).map((c) => [c.cell, c.perSecond])).toEqual([
      [oak, 0.9],
      [sf, 0.1],
    ]);
    expect(busiestCells(bucket, () => true, 'searchMs', places, 1)).toEqual([{ cell: ny, perSecond: 9, place: 'New York' }]);
  });

  it('names no place farther than NEAR_PLACE_KM and lists nothing without per-cell counts', () => {
    expect(busiestCells(bucket, (t) => t === ny, 'searches', [places[0]])[0].place).toBeNull();
    expect(busiestCells({ seconds: 10 }, () => true, 'searches', places)).toEqual([]);
  });
});
