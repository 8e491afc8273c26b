import { describe, it, expect } from 'vitest';
import { gridForBbox, assertFanoutGrid, MAX_GRID_POINTS } from './fanoutGrid.ts';

describe('fan-out grid geometry', () => {
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
});
