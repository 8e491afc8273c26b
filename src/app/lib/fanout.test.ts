import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FanoutGridJob,
  computeFanoutGrid,
  computeFanoutShare,
  gridForBbox,
  gridLat,
  gridLng,
  weightsFromCells,
  weightsFromCities,
  serveFanout,
  createFanoutClient,
  assertFanoutGrid,
  MAX_GRID_POINTS,
  type FanoutGrid,
  type FanoutScope,
  type FanoutWorkerLike,
  type FanoutResponse,
  type FanoutRequest,
  type FanoutWeights,
} from './fanout';
import { Router, cellOrdinal, parseToken, tokenAt, cellCenter, cellFromOrdinal, CELL_COUNT, KM_PER_MILE, type CellWeight } from '../../core/index';
import { fileWithCuts, mulberry32 } from '../../core/testutil';

/** The pixel centre as the grid's doc comment defines it: row 0 south, column 0 west, longitudes wrapped to [-180, 180). */
function pixel(g: FanoutGrid, i: number, j: number) {
  const width = g.east > g.west ? g.east - g.west : g.east - g.west + 360;
  let lng = g.west + ((i + 0.5) * width) / g.cols;
  if (lng >= 180) lng -= 360;
  return { lat: g.south + ((j + 0.5) * (g.north - g.south)) / g.rows, lng };
}

/** The count at every pixel, from the full covering (independent of the fan-out code). */
function expectedCounts(router: Router, g: FanoutGrid, radiusKm: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < g.rows; j++) {
    for (let i = 0; i < g.cols; i++) {
      const p = pixel(g, i, j);
      out.push(Math.min(255, router.cover(p.lat, p.lng, radiusKm).shards.length));
    }
  }
  return out;
}

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
      const want = expectedCounts(router, g, radiusKm);
      expect(Array.from(computeFanoutGrid(router, g, radiusKm)), `grid ${JSON.stringify(g)} r=${radiusKm}`).toEqual(want);
      if (want.some((v) => v > 1)) multi++;
    }
    expect(multi).toBeGreaterThanOrEqual(7);
  });

  it('gives the same counts by all three methods on the bundled boundary file around New York', () => {
    const router = new Router(JSON.parse(readFileSync(join(__dirname, '../../../data/boundaries.json'), 'utf8')));
    const g: FanoutGrid = { west: -75, south: 40.2, east: -73, north: 41.2, cols: 24, rows: 14 };
    const km = 15 * KM_PER_MILE;
    const want = expectedCounts(router, g, km);
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
      const p = pixel(g, k % g.cols, Math.floor(k / g.cols));
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
    const want = expectedCounts(router, g, 20);
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
      expect(Array.from(computeFanoutGrid(router, g, 80))).toEqual(expectedCounts(router, g, 80));
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

/** A worker and its scope joined by structured clones, delivered asynchronously like postMessage. */
function workerPair() {
  const toWorker: ((e: { data: FanoutRequest }) => void)[] = [];
  const toMain: ((e: { data: FanoutResponse }) => void)[] = [];
  const seen: FanoutResponse[] = [];
  const transferred: { type: string; buffers: Transferable[] }[] = [];
  const scope: FanoutScope = {
    postMessage(msg, transfer) {
      const data = structuredClone(msg, { transfer: transfer ?? [] });
      seen.push(data);
      if (transfer?.length) transferred.push({ type: msg.type, buffers: transfer });
      setTimeout(() => toMain.forEach((f) => f({ data })), 0);
    },
    addEventListener: (_t, f) => void toWorker.push(f),
  };
  const worker: FanoutWorkerLike = {
    postMessage(msg) {
      const data = structuredClone(msg);
      setTimeout(() => toWorker.forEach((f) => f({ data })), 0);
    },
    addEventListener: (_t, f) => void toMain.push(f),
  };
  serveFanout(scope);
  return { worker, seen, transferred };
}

describe('fan-out worker protocol', () => {
  const file = fileWithCuts([cellOrdinal(parseToken('808581')) + 3, cellOrdinal(parseToken('808581')) - 20, 4_000_000]);
  const router = new Router(file);
  const g: FanoutGrid = { west: -123, south: 37.2, east: -121.8, north: 38.2, cols: 16, rows: 12 };

  it('validates the file, then answers a grid with the counts the core computes, its buffer transferred', async () => {
    const { worker, seen, transferred } = workerPair();
    const client = createFanoutClient(worker);
    expect(await client.init(file)).toEqual({ numberOfShards: 4, hash: file.hash, weightPoints: 0 });
    const progress: number[] = [];
    const r = await client.grid(20, g, { onProgress: (d) => progress.push(d) });
    expect(r).not.toBeNull();
    expect(r!.counts).toBeInstanceOf(Uint8Array);
    expect(Array.from(r!.counts)).toEqual(expectedCounts(router, g, 20));
    expect(r!.pixels.reduce((a, b) => a + b, 0)).toBe(g.cols * g.rows);
    expect(r).toMatchObject({ radiusKm: 20, grid: g, method: 'blocks' });
    expect(seen.filter((m) => m.type === 'grid')).toHaveLength(1);
    // The worker's copy was moved, not copied: its buffer is detached (length 0) after posting.
    expect(transferred).toHaveLength(1);
    expect(transferred[0].type).toBe('grid');
    expect((transferred[0].buffers[0] as ArrayBuffer).byteLength).toBe(0);
    expect(progress.every((d) => d > 0 && d <= g.cols * g.rows)).toBe(true);
  });

  it('drops a stale grid request when a newer one arrives', async () => {
    const { worker, seen } = workerPair();
    const client = createFanoutClient(worker);
    await client.init(file);
    // The first request is slow (the full covering at every one of 3,600 pixels); the second supersedes it.
    const big: FanoutGrid = { ...g, cols: 60, rows: 60 };
    const first = client.grid(40, big, { method: 'cover' });
    await new Promise((r) => setTimeout(r, 40));
    const second = client.grid(20, g);
    expect(await first).toBeNull();
    const r = await second;
    expect(Array.from(r!.counts)).toEqual(expectedCounts(router, g, 20));
    const firstId = 1; // the client numbers requests from 1
    expect(seen.some((m) => m.type === 'cancelled' && m.id === firstId)).toBe(true);
    expect(seen.filter((m) => m.type === 'grid').map((m) => (m as { id: number }).id)).toEqual([2]);
    expect(seen.some((m) => m.type === 'progress' && m.id === firstId && m.done < m.total)).toBe(true);
  });

  it('cancels on request and reports errors naming the problem', async () => {
    const { worker } = workerPair();
    const client = createFanoutClient(worker);
    await expect(client.grid(20, g)).rejects.toThrow(/grid request before init/);
    await expect(client.init({ ...file, hash: '0'.repeat(64) })).rejects.toThrow(/hash: .* does not match the content/);
    await client.init(file);
    await expect(client.grid(0, g)).rejects.toThrow(/radius 0 km is out of range/);
    await expect(client.grid(5, { ...g, cols: 0 })).rejects.toThrow(/grid\.cols 0 is invalid/);
    await expect(client.share(5)).rejects.toThrow(/share request without weights/);
    const p = client.grid(40, { ...g, cols: 60, rows: 60 }, { method: 'cover' });
    client.cancel();
    expect(await p).toBeNull();
  });

  it('computes the weighted share once per radius and answers repeats from its cache', async () => {
    const { worker, seen } = workerPair();
    const client = createFanoutClient(worker);
    const pts = Array.from({ length: 40 }, (_, k) => ({ lat: 37.3 + (k % 8) * 0.1, lng: -122.6 + Math.floor(k / 8) * 0.2, population: k + 1 }));
    const weights = weightsFromCities(pts);
    expect((await client.init(file, weights)).weightPoints).toBe(40);
    const s = await client.share(25);
    expect(s).toEqual(computeFanoutShare(router, weights, 25, 'fast'));
    expect(await client.share(25)).toEqual(s);
    const shares = seen.filter((m) => m.type === 'share') as Extract<FanoutResponse, { type: 'share' }>[];
    expect(shares.map((m) => m.cached)).toEqual([false, true]);
  });
});
