import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FanoutGrid } from './fanoutGrid.ts';
import { computeFanoutShare } from './fanoutShare.ts';
import { weightsFromCities } from './fanoutWeights.ts';
import { FanoutFieldJob, computeFanoutField, fanoutFieldCounts, fanoutFieldShare, FIELD_K } from './fanoutField.ts';
import { Router } from './router.ts';
import { KM_PER_MILE } from './cover.ts';
import { cellOrdinal, parseToken } from './cells.ts';
import { fileWithCuts, mulberry32, expectedGridCounts, routerNear } from './testutil.ts';

describe('fan-out field (a radius as a threshold)', () => {
  /** Counts from the full covering at every pixel, capped at FIELD_K + 1 like the field's. */
  const capped = (router: Router, g: FanoutGrid, km: number) => expectedGridCounts(router, g, km).map((v) => Math.min(v, FIELD_K + 1));

  it('gives, at every pixel of seeded random grids and at every radius tried, the full covering\'s count', () => {
    const rand = mulberry32(4242);
    let multi = 0;
    let four = 0;
    for (let t = 0; t < 10; t++) {
      // Some grids at the poles, the antimeridian and a cube-face edge; the rest anywhere.
      let lat = -70 + 140 * rand();
      let lng = -180 + 360 * rand();
      if (t === 1) lat = 88 + rand();
      if (t === 2) lng = 179.5;
      if (t === 3) lng = 45 + (rand() - 0.5) * 0.4;
      const size = 0.3 + 4 * rand();
      const west = lng - size / 2;
      const g: FanoutGrid = {
        west: west < -180 ? west + 360 : west,
        east: lng + size / 2 > 180 ? lng + size / 2 - 360 : lng + size / 2,
        south: Math.max(-90, lat - size / 3),
        north: Math.min(90, lat + size / 3),
        cols: 5 + Math.floor(rand() * 9),
        rows: 4 + Math.floor(rand() * 7),
      };
      const router = routerNear(lat, lng, rand, 40 + 600 * rand());
      const maxKm = 161;
      const field = computeFanoutField(router, g, maxKm);
      // Radii from 1 km to the field's limit, log-uniform, plus the limit itself.
      for (const km of [...Array.from({ length: 2 }, () => Math.exp(rand() * Math.log(maxKm))), maxKm]) {
        const want = capped(router, g, km);
        expect(Array.from(fanoutFieldCounts(field, km)), `grid ${JSON.stringify(g)} r=${km}`).toEqual(want);
        if (want.some((v) => v > 1)) multi++;
        if (want.some((v) => v === 4)) four++;
      }
    }
    // The cases must exercise boundaries: many grids meet two shards, some four or more.
    expect(multi).toBeGreaterThanOrEqual(15);
    expect(four).toBeGreaterThanOrEqual(2);
  });

  it('matches the covering on the bundled boundary file around New York at 5, 15, 50 and 100 miles', () => {
    const router = new Router(JSON.parse(readFileSync(join(__dirname, '../../data/boundaries.json'), 'utf8')));
    const g: FanoutGrid = { west: -75, south: 40.2, east: -73, north: 41.2, cols: 16, rows: 10 };
    const field = computeFanoutField(router, g, 100 * KM_PER_MILE);
    for (const mi of [5, 15, 50, 100]) expect(Array.from(fanoutFieldCounts(field, mi * KM_PER_MILE)), `${mi} mi`).toEqual(capped(router, g, mi * KM_PER_MILE));
  });

  it('keeps distances ascending, at most maxKm, Infinity where fewer shards are near', () => {
    const router = new Router(fileWithCuts([cellOrdinal(parseToken('808581')) + 5, 3_000_000]));
    const g: FanoutGrid = { west: -123, south: 37, east: -121, north: 38.5, cols: 20, rows: 15 };
    const f = computeFanoutField(router, g, 50);
    expect(f.points).toBe(300);
    expect(f.dist).toHaveLength(FIELD_K * 300);
    let near = 0;
    for (let k = 0; k < f.points; k++) {
      const d = Array.from(f.dist.subarray(FIELD_K * k, FIELD_K * k + FIELD_K));
      expect(d).toEqual([...d].sort((a, b) => a - b));
      for (const x of d) expect(x === Infinity || (x >= 0 && x <= 50)).toBe(true);
      // Three shards in all: the 4th nearest never exists.
      expect(d[2]).toBe(Infinity);
      if (d[0] < Infinity) near++;
    }
    expect(near).toBeGreaterThan(0);
  });

  it('works in slices that can stop and resume without changing the result', () => {
    const rand = mulberry32(9);
    const router = routerNear(51.5, -0.1, rand, 300);
    const g: FanoutGrid = { west: -1.5, south: 51, east: 1.2, north: 52, cols: 40, rows: 30 };
    const job = new FanoutFieldJob(router, g, 100);
    let slices = 0;
    while (!job.step(0)) slices++;
    expect(slices).toBeGreaterThan(3);
    expect(job.done).toBe(job.total);
    expect(Array.from(job.field().dist)).toEqual(Array.from(computeFanoutField(router, g, 100).dist));
  });

  it('gives the weighted share at any radius, equal to the share computed at that radius', () => {
    const rand = mulberry32(78);
    const router = routerNear(40.71, -74.0, rand, 500);
    const pts = Array.from({ length: 200 }, () => ({ lat: 40.71 + (rand() - 0.5) * 1.2, lng: -74 + (rand() - 0.5) * 1.6, population: Math.floor(rand() * 1000) }));
    const weights = weightsFromCities(pts);
    const field = computeFanoutField(router, weights, 100);
    for (const km of [3, 20, 60, 100]) {
      const want = computeFanoutShare(router, weights, km, 'cover');
      const got = fanoutFieldShare(field, weights, km);
      expect(got.weightTotal).toBe(want.weightTotal);
      got.byFanout.forEach((x, i) => expect(x).toBeCloseTo(want.byFanout[i], 12));
    }
  });

  it('rejects a radius beyond the field, or an invalid maxKm, naming the value', () => {
    const router = new Router(fileWithCuts([3_000_000]));
    const g: FanoutGrid = { west: 0, south: 0, east: 1, north: 1, cols: 2, rows: 2 };
    const f = computeFanoutField(router, g, 50);
    expect(() => fanoutFieldCounts(f, 60)).toThrow(/radius 60 km is beyond the field's maxKm 50/);
    expect(() => fanoutFieldCounts(f, 0)).toThrow(/radius 0 km is out of range/);
    expect(() => computeFanoutField(router, g, 0)).toThrow(/maxKm 0/);
    expect(() => computeFanoutField(router, { ...g, rows: 0 }, 50)).toThrow(/grid\.rows 0 is invalid/);
  });
});
