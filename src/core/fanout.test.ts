import { describe, it, expect } from 'vitest';
import { searchWorkload, expectedFanout, fanoutOf, pointInCell, DEFAULT_RADIUS_MIX } from './fanout.ts';
import { Router } from './router.ts';
import { KM_PER_MILE } from './cover.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { cellAt, cellOrdinal, parseToken, tokenAt } from './cells.ts';
import type { CellWeight } from './build.ts';
import { fileWithCuts, mulberry32 } from './testutil.ts';

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
