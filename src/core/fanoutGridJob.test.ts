import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gridLat, gridLng, type FanoutGrid } from './fanoutGrid.ts';
import { FanoutGridJob, computeFanoutGrid } from './fanoutGridJob.ts';
import { Router } from './router.ts';
import { KM_PER_MILE } from './cover.ts';
import { cellOrdinal, parseToken, tokenAt } from './cells.ts';
import { fileWithCuts, mulberry32, gridPixel, expectedGridCounts, routerNear } from './testutil.ts';

describe('fan-out grid', () => {
  it('asks, at every pixel of seeded random grids, as many shards as the full covering does', () => {
    const rand = mulberry32(2026);
    let multi = 0;
    for (let t = 0; t < 14; t++) {
      const lat = -60 + 120 * rand();
      const lng = -180 + 360 * rand();
      const radiusKm = 3 + 60 * rand();
      // Boxes from 0.3° to 4° across, so pixels range from far below the radius to above it.
      const size = 0.3 + 3.7 * rand();
      const west = lng - size / 2;
      const g: FanoutGrid = {
        west: west < -180 ? west + 360 : west,
        east: lng + size / 2 > 180 ? lng + size / 2 - 360 : lng + size / 2,
        south: lat - size / 3,
        north: lat + size / 3,
        cols: 6 + Math.floor(rand() * 10),
        rows: 4 + Math.floor(rand() * 8),
      };
      const router = routerNear(lat, lng, rand, 40 + 400 * rand());
      const want = expectedGridCounts(router, g, radiusKm);
      expect(Array.from(computeFanoutGrid(router, g, radiusKm)), `grid ${JSON.stringify(g)} r=${radiusKm}`).toEqual(want);
      if (want.some((v) => v > 1)) multi++;
    }
    expect(multi).toBeGreaterThanOrEqual(7);
  });

  it('gives the same counts by all three methods on the bundled boundary file around New York', () => {
    const router = new Router(JSON.parse(readFileSync(join(__dirname, '../../data/boundaries.json'), 'utf8')));
    const g: FanoutGrid = { west: -75, south: 40.2, east: -73, north: 41.2, cols: 24, rows: 14 };
    const km = 15 * KM_PER_MILE;
    const want = expectedGridCounts(router, g, km);
    expect(want.some((v) => v >= 2)).toBe(true);
    expect(Array.from(computeFanoutGrid(router, g, km, 'blocks'))).toEqual(want);
    expect(Array.from(computeFanoutGrid(router, g, km, 'fast'))).toEqual(want);
    expect(Array.from(computeFanoutGrid(router, g, km, 'cover'))).toEqual(want);
  });

  it('asks the fast path fewer times than there are pixels when pixels are small against the radius', () => {
    const router = new Router(fileWithCuts([cellOrdinal(parseToken('808581')) + 5, 3_000_000]));
    let calls = 0;
    const orig = router.shardsAsked.bind(router);
    router.shardsAsked = (a, b, c) => (calls++, orig(a, b, c));
    const g: FanoutGrid = { west: -123, south: 37, east: -121.5, north: 38.5, cols: 40, rows: 40 };
    const counts = computeFanoutGrid(router, g, 30);
    expect(calls).toBeLessThan(g.cols * g.rows / 2);
    calls = 0;
    const want = Array.from({ length: g.rows * g.cols }, (_, k) => {
      const p = gridPixel(g, k % g.cols, Math.floor(k / g.cols));
      return orig(p.lat, p.lng, 30).length;
    });
    expect(Array.from(counts)).toEqual(want);
    expect(new Set(want).size).toBeGreaterThan(1);
  });

  it('stores row 0 south and column 0 west', () => {
    const g: FanoutGrid = { west: 10, south: -5, east: 20, north: 5, cols: 2, rows: 2 };
    expect([gridLng(g, 0), gridLng(g, 1)]).toEqual([12.5, 17.5]);
    expect([gridLat(g, 0), gridLat(g, 1)]).toEqual([-2.5, 2.5]);
    // The north-east pixel's cell alone is a shard between two others, so only a search there asks three.
    const ne = cellOrdinal(parseToken(tokenAt(2.5, 17.5)));
    const router = new Router(fileWithCuts([ne, ne + 1]));
    expect(Array.from(computeFanoutGrid(router, g, 12))).toEqual([1, 1, 1, 3]);
  });

  it('wraps a box that crosses the antimeridian', () => {
    const g: FanoutGrid = { west: 179.2, south: -17, east: -179.4, north: -16, cols: 14, rows: 5 };
    expect(gridLng(g, 0)).toBeCloseTo(179.25, 9);
    expect(gridLng(g, 13)).toBeCloseTo(-179.45, 9);
    const router = new Router(fileWithCuts([cellOrdinal(parseToken(tokenAt(-16.5, 180))) + 1, cellOrdinal(parseToken(tokenAt(-16.5, -179.8)))]));
    const want = expectedGridCounts(router, g, 20);
    expect(want.some((v) => v > 1)).toBe(true);
    expect(Array.from(computeFanoutGrid(router, g, 20))).toEqual(want);
  });

  it('handles boxes reaching the poles and the whole world', () => {
    const rand = mulberry32(9);
    for (const g of [
      { west: -180, south: 88, east: 180, north: 90, cols: 12, rows: 3 },
      { west: -30, south: -90, east: 60, north: -87, cols: 9, rows: 4 },
      { west: -180, south: -90, east: 180, north: 90, cols: 10, rows: 6 },
    ]) {
      const router = routerNear(g.north === 90 ? 89.5 : g.south === -90 ? -89.5 : 10, 0, rand, 2000);
      for (let j = 0; j < g.rows; j++) expect(Math.abs(gridLat(g, j))).toBeLessThan(90);
      expect(Array.from(computeFanoutGrid(router, g, 80))).toEqual(expectedGridCounts(router, g, 80));
    }
  });

  it('stores counts above 255 as 255', () => {
    const sf = cellOrdinal(parseToken('808581'));
    const router = new Router(fileWithCuts(Array.from({ length: 300 }, (_, k) => sf - 150 + k)));
    const g: FanoutGrid = { west: -122.5, south: 37.7, east: -122.3, north: 37.8, cols: 2, rows: 1 };
    expect(router.shardsAsked(37.75, -122.45, 300).length).toBeGreaterThan(255);
    expect(Array.from(computeFanoutGrid(router, g, 300))).toEqual([255, 255]);
  });

  it('rejects an invalid radius, naming the value', () => {
    const router = new Router(fileWithCuts([1000]));
    const g: FanoutGrid = { west: 0, south: 0, east: 1, north: 1, cols: 2, rows: 2 };
    for (const r of [0, -5, NaN, Infinity, 1000.5]) expect(() => computeFanoutGrid(router, g, r)).toThrow(new RegExp(`radius ${r} km is out of range`));
    expect(() => computeFanoutGrid(router, g, 5, 'slow' as never)).toThrow(/method "slow" is invalid: expected one of blocks, fast, cover/);
  });

  it('works in slices that can stop and resume without changing the result', () => {
    const rand = mulberry32(4);
    const router = routerNear(48.85, 2.35, rand, 300);
    const g: FanoutGrid = { west: 1.5, south: 48.3, east: 3.2, north: 49.4, cols: 30, rows: 20 };
    const job = new FanoutGridJob(router, g, 25);
    let slices = 0;
    while (!job.step(0)) slices++;
    expect(slices).toBeGreaterThan(3);
    expect(job.done).toBe(job.total);
    expect(Array.from(job.counts)).toEqual(Array.from(computeFanoutGrid(router, g, 25, 'fast')));
    const b = job.buckets();
    expect(b.reduce((x, y) => x + y, 0)).toBe(600);
  });
});
