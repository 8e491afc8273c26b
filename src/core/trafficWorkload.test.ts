import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rangeCounts, trafficRangesOf, type TrafficBucket, type TrafficWindow } from './traffic.ts';
import { trafficWorkload, TRAFFIC_SEARCH_RADIUS } from './trafficWorkload.ts';
import { parseBoundaryFile } from './boundaryText.ts';
import { parseCellsCsv, buildBoundaryFile } from './build.ts';
import { Router } from './router.ts';
import { coverOrdinals } from './coverWalk.ts';
import { ordinalAt, parseToken, cellOrdinal } from './cells.ts';
import { formatWorkload, parseWorkload } from './workload.ts';
import { balanceWeights, cellLoads, coverWorkload, requestRates, shardTotals } from './requestLoad.ts';
import { balance } from './balance.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const router = new Router(parseBoundaryFile(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8')));
const cells = parseCellsCsv(readFileSync(join(ROOT, 'data', 'cells.csv'), 'utf8'), 'data/cells.csv');
const N = router.numberOfShards;
const T0 = Date.UTC(2026, 11, 4, 18, 0, 0);
const iso = (sec: number) => new Date(T0 + sec * 1000).toISOString();
const bucket = (startSec: number, searches: (i: number) => number): TrafficBucket => ({ start: iso(startSec), end: iso(startSec + 60), seconds: 60, resets: 0, ranges: Array.from({ length: N }, (_, i) => rangeCounts(searches(i), 0, 0, 60)) });
const windowOf = (buckets: TrafficBucket[]): TrafficWindow => ({ index: router.file.index, hash: router.file.hash, from: iso(0), to: iso(3600), intervalSeconds: 60, sources: ['shards'], ranges: trafficRangesOf(router), buckets, gaps: [], otherHashes: [] });
const docs = (c: { restaurants: number; dishes: number }) => c.restaurants + c.dishes;

const SF = router.indexOfOrdinal(ordinalAt(37.7749, -122.4194));
const NYC = router.indexOfOrdinal(ordinalAt(40.7128, -74.006));

describe('a workload made from recorded traffic', () => {
  it('spreads each range’s searches over its cells in proportion to their documents, one 1 km line per cell', () => {
    const w = windowOf([bucket(0, (i) => (i === SF ? 600 : 6)), bucket(60, (i) => (i === SF ? 400 : 4))]);
    const t = trafficWorkload(w, cells);
    expect(t.unplaced).toEqual({ searches: 0, ranges: [] });
    expect(t.weight).toBeCloseTo(1000 + 10 * (N - 1), 6);
    expect(t.searches.every((s) => s.radius.km === 1 && s.radius.unit === 'km' && s.time === null && s.weight > 0)).toBe(true);
    // Per range, the weights sum to its searches; within it they follow the documents.
    const perRange = new Float64Array(N);
    for (const s of t.searches) perRange[router.indexOfOrdinal(ordinalAt(s.lat, s.lng))] += s.weight;
    perRange.forEach((x, i) => expect(x).toBeCloseTo(i === SF ? 1000 : 10, 6));
    const inSf = cells.filter((c) => router.indexOfOrdinal(c.ordinal) === SF && docs(c) > 0);
    const sfDocs = inSf.reduce((a, c) => a + docs(c), 0);
    const line = t.searches.find((s) => ordinalAt(s.lat, s.lng) === inSf[0].ordinal)!;
    expect(line.weight).toBeCloseTo((1000 * docs(inSf[0])) / sfDocs, 9);
    expect(t.searches.length).toBe(cells.filter((c) => docs(c) > 0).length);
  });

  it('draws each line so that its covering is its one cell', () => {
    const w = windowOf([bucket(0, () => 1)]);
    const t = trafficWorkload(w, cells.filter((_, k) => k % 7 === 0));
    for (const s of t.searches) expect([...coverOrdinals(s.lat, s.lng, TRAFFIC_SEARCH_RADIUS.km)]).toEqual([ordinalAt(s.lat, s.lng)]);
  });

  it('is a workload file like any other: written, read back, the same load per shard', () => {
    const w = windowOf([bucket(0, (i) => (i === NYC ? 5000 : 50))]);
    const t = trafficWorkload(w, cells);
    const back = parseWorkload(formatWorkload(t.searches), 'traffic.csv');
    expect(back).toHaveLength(t.searches.length);
    const rates = requestRates(back, coverWorkload(back));
    // A range's request rate summed over its cells is its recorded searches (weights are written to 12 digits).
    const perShard = shardTotals(router, cells, Float64Array.from(cells, (c) => (docs(c) > 0 ? rates.rates[rates.ordinals.indexOf(c.ordinal)] ?? 0 : 0)));
    perShard.forEach((x, i) => expect(x).toBeCloseTo(i === NYC ? 5000 : 50, 3));
  });

  it('uses per-cell counts where a bucket has them, and leaves out searches of a range with no documents', () => {
    const hot = cells.find((c) => router.indexOfOrdinal(c.ordinal) === SF && docs(c) > 0)!;
    const b = { ...bucket(0, () => 0), cells: [{ cell: hot.token, searches: 7, writes: 1 }] };
    const t = trafficWorkload(windowOf([b]), cells);
    expect(t.searches).toHaveLength(1);
    expect(ordinalAt(t.searches[0].lat, t.searches[0].lng)).toBe(hot.ordinal);
    expect(t.searches[0].weight).toBe(7);
    // Per-cell writes only (the index is written through the plugin's pipeline, searched without
    // its search pipeline): the searches are known per range, and spread as such.
    const writesOnly = { ...bucket(0, (i) => (i === SF ? 9 : 0)), cells: [{ cell: hot.token, searches: 0, writes: 4 }] };
    const spread = trafficWorkload(windowOf([writesOnly]), cells);
    expect(spread.weight).toBeCloseTo(9, 9);
    expect(spread.searches.length).toBe(cells.filter((c) => router.indexOfOrdinal(c.ordinal) === SF && docs(c) > 0).length);
    const none = trafficWorkload(windowOf([bucket(0, (i) => (i === SF ? 9 : 0))]), cells.filter((c) => router.indexOfOrdinal(c.ordinal) !== SF));
    expect(none).toMatchObject({ searches: [], weight: 0, unplaced: { searches: 9, ranges: [router.shards[SF].name] } });
    const only = trafficWorkload(windowOf([bucket(0, () => 3)]), cells, { ranges: [NYC] });
    expect(new Set(only.searches.map((s) => router.indexOfOrdinal(ordinalAt(s.lat, s.lng))))).toEqual(new Set([NYC]));
    expect(() => trafficWorkload(windowOf([]), cells, { ranges: [N] })).toThrow(/ranges holds 15/);
  });

  it('balanced by load, moves boundaries towards a hot range: it covers fewer cells than under even traffic', () => {
    const balanced = (searches: (i: number) => number) => {
      const t = trafficWorkload(windowOf([bucket(0, searches)]), cells);
      const loads = cellLoads(cells, requestRates(t.searches, coverWorkload(t.searches)));
      const split = balance(balanceWeights(cells, { kind: 'requests' }, loads), { min: N, max: N, targets: 200 }).best.split;
      return new Router(buildBoundaryFile({ index: router.file.index, cells, cuts: split.cuts, createdAt: '2026-12-04T00:00:00.000Z' }));
    };
    const span = (r: Router, lat: number, lng: number) => {
      const i = r.indexOfOrdinal(ordinalAt(lat, lng));
      return cells.filter((c) => r.indexOfOrdinal(c.ordinal) === i).length;
    };
    const even = balanced(() => 100);
    for (const [hot, lat, lng] of [
      [SF, 37.7749, -122.4194],
      [NYC, 40.7128, -74.006],
    ]) {
      const skewed = balanced((i) => (i === hot ? 3000 : 100));
      expect(span(skewed, lat, lng), `${lat},${lng}`).toBeLessThan(span(even, lat, lng));
      expect(cellOrdinal(parseToken(skewed.file.boundaries[0]))).toBeGreaterThan(0);
    }
  });
});
