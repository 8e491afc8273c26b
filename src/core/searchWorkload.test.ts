import { describe, it, expect } from 'vitest';
import { searchWorkload, DEFAULT_RADIUS_MIX } from './searchWorkload.ts';
import { pointInCell } from './sampling.ts';
import { KM_PER_MILE } from './cover.ts';
import { cellAt, cellOrdinal, parseToken } from './cells.ts';
import type { CellWeight } from './build.ts';
import { mulberry32, cityCells } from './testutil.ts';

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
