import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  searchWorkload,
  expectedFanout,
  fanoutOf,
  pointInCell,
  DEFAULT_RADIUS_MIX,
  FanoutGridJob,
  computeFanoutGrid,
  computeFanoutShare,
  gridForBbox,
  gridLat,
  gridLng,
  weightsFromCells,
  weightsFromCities,
  assertFanoutGrid,
  MAX_GRID_POINTS,
  FanoutFieldJob,
  computeFanoutField,
  fanoutFieldCounts,
  fanoutFieldShare,
  FIELD_K,
  type FanoutGrid,
  type FanoutWeights,
} from './fanout.ts';
import { Router } from './router.ts';
import { KM_PER_MILE } from './cover.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { cellAt, cellOrdinal, parseToken, tokenAt, cellCenter, cellFromOrdinal, CELL_COUNT } from './cells.ts';
import type { CellWeight } from './build.ts';
import { fileWithCuts, mulberry32, gridPixel, expectedGridCounts } from './testutil.ts';

/** Cells around a few cities, in key order, with seeded counts. */
function cityCells(): CellWeight[] {
  const rand = mulberry32(3);
  const cities = [
    [37.7749, -122.4194],
    [40.7128, -74.006],
    [41.8781, -87.6298],
    [29.7604, -95.3698],
    [47.6062, -122.3321],
  ];
  const byOrdinal = new Map<number, CellWeight>();
  for (const [lat, lng] of cities) {
    for (let k = 0; k < 40; k++) {
      const token = tokenAt(lat + (rand() - 0.5) * 0.8, lng + (rand() - 0.5) * 0.8);
      const ordinal = cellOrdinal(parseToken(token));
      byOrdinal.set(ordinal, { token, ordinal, restaurants: Math.floor(rand() * 4), dishes: Math.floor(rand() * 300) });
    }
  }
  return [...byOrdinal.values()].sort((a, b) => a.ordinal - b.ordinal);
}

describe('searchWorkload', () => {
  const cells = cityCells();

  it('draws the same centres for the same seed and different ones for another', () => {
    const a = searchWorkload(cells, { seed: 9, centres: 50 });
    expect(searchWorkload(cells, { seed: 9, centres: 50 })).toEqual(a);
    expect(searchWorkload(cells, { seed: 10, centres: 50 }).centres).not.toEqual(a.centres);
  });

  it('puts every centre inside a cell with restaurants, in proportion to its restaurants', () => {
    // Two cells: 1 and 3 restaurants, and one with none.
    const t = ['808581', '80858b', '89c25b'].map((token) => ({ token, ordinal: cellOrdinal(parseToken(token)) }));
    const three: CellWeight[] = [
      { ...t[0], restaurants: 1, dishes: 500 },
      { ...t[1], restaurants: 0, dishes: 900 },
      { ...t[2], restaurants: 3, dishes: 0 },
    ].sort((a, b) => a.ordinal - b.ordinal);
    const w = searchWorkload(three, { seed: 2, centres: 4000 });
    const counts = new Map<number, number>();
    for (const c of w.centres) {
      const o = cellOrdinal(cellAt(c.lat, c.lng));
      counts.set(o, (counts.get(o) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([t[0].ordinal, t[2].ordinal].sort());
    // Binomial(4000, 1/4): sd ≈ 27; allow 4 sd.
    expect(Math.abs(counts.get(t[0].ordinal)! - 1000)).toBeLessThan(110);
  });

  it('spreads the points of one cell over the whole cell', () => {
    const o = cellOrdinal(parseToken('808581'));
    const rand = mulberry32(1);
    const pts = Array.from({ length: 400 }, () => pointInCell(o, rand(), rand()));
    for (const p of pts) expect(cellOrdinal(cellAt(p.lat, p.lng))).toBe(o);
    const lats = pts.map((p) => p.lat);
    // A level-10 cell is about 9 km (≈ 0.08°) across: the points must span most of it.
    expect(Math.max(...lats) - Math.min(...lats)).toBeGreaterThan(0.05);
  });

  it('normalises the radius mix and rejects bad options, naming them', () => {
    const w = searchWorkload(cells, { centres: 3, radii: [{ km: 10, weight: 3, label: 'a' }, { km: 20, weight: 1, label: 'b' }] });
    expect(w.radii.map((r) => r.weight)).toEqual([0.75, 0.25]);
    expect(DEFAULT_RADIUS_MIX.map((r) => r.km)).toEqual([5, 15, 25, 50].map((mi) => mi * KM_PER_MILE));
    expect(() => searchWorkload(cells, { centres: 0 })).toThrow(/centres 0 is invalid/);
    expect(() => searchWorkload(cells, { radii: [{ km: 2000, weight: 1, label: 'x' }] })).toThrow(/radii\[0\] 2000 km is out of range/);
    expect(() => searchWorkload(cells, { radii: [{ km: 10, weight: 0, label: 'x' }] })).toThrow(/radii\[0\]\.weight 0 is invalid/);
    expect(() => searchWorkload([{ ...cells[0], restaurants: 0 }])).toThrow(/no restaurant/);
  });
});

describe('expectedFanout', () => {
  const cells = cityCells();

  it('equals a brute-force evaluation with full coverings and a linear shard lookup', () => {
    // Boundaries among the cities' own cells, so circles cross them.
    const rand = mulberry32(17);
    const cuts = Array.from({ length: 14 }, () => cells[Math.floor(rand() * cells.length)].ordinal);
    const file = fileWithCuts(cuts);
    const starts = file.boundaries.map((t) => cellOrdinal(parseToken(t)));
    const router = new Router(file);
    const workload = searchWorkload(cells, { seed: 4, centres: 30, radii: [{ km: 5 * KM_PER_MILE, weight: 2, label: '5mi' }, { km: 50 * KM_PER_MILE, weight: 1, label: '50mi' }] });
    const brute = workload.radii.map((r) => {
      const asked = workload.centres.map((c) => {
        const shards = new Set<number>();
        for (const id of regionCovererCells(c.lat, c.lng, r.km)) {
          const o = cellOrdinal(id);
          let i = 0;
          while (i < starts.length && starts[i] <= o) i++;
          shards.add(i);
        }
        return shards.size;
      });
      return { mean: asked.reduce((a, b) => a + b, 0) / asked.length, one: asked.filter((k) => k === 1).length / asked.length };
    });
    const f = expectedFanout(router, workload, 250);
    const mean = (2 / 3) * brute[0].mean + (1 / 3) * brute[1].mean;
    expect(f.meanShards).toBeCloseTo(mean, 12);
    expect(f.oneShardShare).toBeCloseTo((2 / 3) * brute[0].one + (1 / 3) * brute[1].one, 12);
    expect(f.byRadius.map((r) => r.meanShards)).toEqual(brute.map((b) => b.mean));
    expect(f.searches).toBe(60);
    expect(f.shardQueriesPerSecond).toBeCloseTo(250 * mean, 9);
    // The workload really exercises the boundaries: some searches ask more than one shard.
    expect(f.oneShardShare).toBeLessThan(1);
    expect(f.meanShards).toBeGreaterThan(1);
    expect(f.hash).toEqual({ meanShards: file.numberOfShards, oneShardShare: 0, shardQueriesPerSecond: 250 * file.numberOfShards });
  });

  it('is deterministic for a seed', () => {
    const router = new Router(fileWithCuts(cells.filter((_, i) => i % 25 === 0).map((c) => c.ordinal)));
    const a = expectedFanout(router, searchWorkload(cells, { seed: 8, centres: 40 }));
    const b = expectedFanout(router, searchWorkload(cells, { seed: 8, centres: 40 }));
    expect(a).toEqual(b);
  });

  it('asks exactly one shard for every search when there is one shard', () => {
    const f = fanoutOf(1, searchWorkload(cells, { centres: 10 }), () => 1, 100);
    expect(f).toMatchObject({ meanShards: 1, oneShardShare: 1, shardQueriesPerSecond: 100, hash: { meanShards: 1, oneShardShare: 1 } });
    expect(() => fanoutOf(1, searchWorkload(cells, { centres: 1 }), () => 1, -5)).toThrow(/qps -5 is invalid/);
  });
});


/** A router whose boundaries cut the curve near a point, so circles there straddle several shards. */
function routerNear(lat: number, lng: number, rand: () => number, spread: number): Router {
  const o = cellOrdinal(parseToken(tokenAt(lat, lng)));
  const cuts = Array.from({ length: 12 }, () => Math.min(CELL_COUNT - 1, Math.max(1, o + Math.round((rand() - 0.5) * 2 * spread))));
  return new Router(fileWithCuts([...cuts, Math.floor(rand() * CELL_COUNT)]));
}

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

  it('rejects an invalid grid, naming the field and what is valid', () => {
    const ok = { west: 0, south: 0, east: 1, north: 1, cols: 2, rows: 2 };
    expect(() => assertFanoutGrid(null)).toThrow(/grid null is not an object/);
    expect(() => assertFanoutGrid({ ...ok, north: 0 })).toThrow(/grid\.north 0 is not above grid\.south 0/);
    expect(() => assertFanoutGrid({ ...ok, north: 91 })).toThrow(/grid\.north 91 is invalid: expected a latitude in \[-90, 90\]/);
    expect(() => assertFanoutGrid({ ...ok, west: -181 })).toThrow(/grid\.west -181 is invalid: expected a longitude in \[-180, 180\]/);
    expect(() => assertFanoutGrid({ ...ok, east: 0 })).toThrow(/grid\.west and grid\.east are both 0: the box has no width/);
    expect(() => assertFanoutGrid({ ...ok, cols: 0 })).toThrow(/grid\.cols 0 is invalid: expected an integer in \[1, 4096\]/);
    expect(() => assertFanoutGrid({ ...ok, rows: 2.5 })).toThrow(/grid\.rows 2\.5 is invalid/);
    expect(() => assertFanoutGrid({ ...ok, cols: 4096, rows: 4096 })).toThrow(new RegExp(`grid 4096 × 4096 has 16777216 points: at most ${MAX_GRID_POINTS}`));
    expect(() => assertFanoutGrid({ ...ok, south: 'x' })).toThrow(/grid\.south "x" is invalid/);
  });

  it('sizes a grid from a bbox and a resolution, coarsening to stay under the point limit', () => {
    expect(gridForBbox({ west: -125, south: 24, east: -66, north: 50 }, 0.5)).toEqual({ west: -125, south: 24, east: -66, north: 50, cols: 118, rows: 52 });
    expect(gridForBbox({ west: 170, south: 0, east: -170, north: 1 }, 0.5)).toMatchObject({ cols: 40, rows: 2 });
    const g = gridForBbox({ west: -180, south: -90, east: 180, north: 90 }, 0.01, 10_000);
    expect(g.cols * g.rows).toBeLessThanOrEqual(10_000);
    expect(g.cols * g.rows).toBeGreaterThan(5_000);
    expect(() => gridForBbox({ west: 0, south: 0, east: 1, north: 1 }, 0)).toThrow(/step 0 is invalid/);
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

describe('weighted one-shard share', () => {
  const rand = mulberry32(77);
  const router = routerNear(40.71, -74.0, rand, 500);
  const pts = Array.from({ length: 60 }, () => ({ lat: 40.71 + (rand() - 0.5) * 1.2, lng: -74 + (rand() - 0.5) * 1.6, population: Math.floor(rand() * 1000) }));
  const weights = weightsFromCities(pts);

  it('weighs each point by its search, computed with the full covering', () => {
    for (const km of [5, 20, 60]) {
      const sums = [0, 0, 0, 0];
      let total = 0;
      for (const p of pts) {
        const k = router.cover(p.lat, p.lng, km).shards.length;
        sums[Math.min(4, k) - 1] += p.population;
        total += p.population;
      }
      const s = computeFanoutShare(router, weights, km);
      expect(s.weightTotal).toBe(total);
      s.byFanout.forEach((f, i) => expect(f).toBeCloseTo(sums[i] / total, 12));
      expect(s.oneShard).toBe(s.byFanout[0]);
      expect(s.byFanout.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(computeFanoutShare(router, weights, km, 'fast')).toEqual(s);
    }
  });

  it('reports zeros when there is no weight', () => {
    const w: FanoutWeights = { lat: new Float64Array([1]), lng: new Float64Array([1]), weight: new Float64Array([0]) };
    expect(computeFanoutShare(router, w, 5)).toEqual({ radiusKm: 5, weightTotal: 0, byFanout: [0, 0, 0, 0], oneShard: 0 });
  });

  it('takes restaurants at each cell centre from a cells file, and cities in key order', () => {
    const cells: CellWeight[] = ['808581', '89c259'].map((token, k) => ({ token, ordinal: cellOrdinal(parseToken(token)), restaurants: 10 + k, dishes: 500 }));
    const w = weightsFromCells(cells);
    expect(Array.from(w.weight)).toEqual([10, 11]);
    const c = cellCenter(cellFromOrdinal(cells[1].ordinal));
    expect([w.lat[1], w.lng[1]]).toEqual([c.lat, c.lng]);
    const cw = weightsFromCities([
      { lat: 40.71, lng: -74, population: 5 },
      { lat: 37.77, lng: -122.42 },
    ]);
    // San Francisco (token 808581) comes before New York (89c259) in key order.
    expect(Array.from(cw.lng)).toEqual([-122.42, -74]);
    expect(Array.from(cw.weight)).toEqual([0, 5]);
  });
});


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
