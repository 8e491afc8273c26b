import { describe, it, expect } from 'vitest';
import { fanoutQuads, bucketOf, MAX_RUN_DEG, type GridQuads } from './fanoutGeometry';

const DEG = 180 / Math.PI;

/** The [west, east, south, north] degree boxes of a bucket's quads, in order, from their corners SW, SE, NE, NW. */
function boxes(q: GridQuads, bucket: number): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < q.buckets.length; k++) {
    if (q.buckets[k] !== bucket) continue;
    const c = q.corners.subarray(8 * k, 8 * k + 8);
    expect([c[2], c[5], c[6], c[7]]).toEqual([c[0], c[3], c[4], c[1]]);
    out.push([c[1] * DEG, c[3] * DEG, c[0] * DEG, c[4] * DEG].map((x) => Math.round(x * 1e4) / 1e4));
  }
  return out;
}

describe('fan-out geometry', () => {
  it('buckets counts as 2, 3 and 4 or more, leaving one shard undrawn', () => {
    expect([0, 1, 2, 3, 4, 9, 255].map(bucketOf)).toEqual([-1, -1, 0, 1, 2, 2, 2]);
  });

  it('merges runs of equal pixels along a row into one quad per run with its bucket, west to east, south to north', () => {
    // 4 × 2 grid of 0.25° pixels from (10, 20): row 0 = [2, 2, 1, 5], row 1 = [3, 1, 1, 3].
    const grid = { west: 20, south: 10, east: 21, north: 10.5, cols: 4, rows: 2 };
    const q = fanoutQuads(grid, Uint8Array.from([2, 2, 1, 5, 3, 1, 1, 3]));
    expect(Array.from(q.buckets)).toEqual([0, 2, 1, 1]);
    expect(boxes(q, 0)).toEqual([[20, 20.5, 10, 10.25]]);
    expect(boxes(q, 1)).toEqual([
      [20, 20.25, 10.25, 10.5],
      [20.75, 21, 10.25, 10.5],
    ]);
    expect(boxes(q, 2)).toEqual([[20.75, 21, 10, 10.25]]);
  });

  it('keeps merged runs at most MAX_RUN_DEG wide', () => {
    const grid = { west: -180, south: 0, east: 180, north: 1, cols: 360, rows: 1 };
    const q = fanoutQuads(grid, new Uint8Array(360).fill(2));
    expect(q.buckets.length).toBe(360 / MAX_RUN_DEG);
    for (const [w, e] of boxes(q, 0)) expect(e - w).toBeLessThanOrEqual(MAX_RUN_DEG + 1e-9);
  });

  it('leaves out pixels wholly inside the detail box, across the antimeridian too', () => {
    const grid = { west: 170, south: 0, east: -170, north: 2, cols: 10, rows: 1 };
    const counts = new Uint8Array(10).fill(3);
    const all = fanoutQuads(grid, counts, null);
    const some = fanoutQuads(grid, counts, { west: 174, east: -174, south: -1, north: 3 });
    const width = (q: GridQuads) => boxes(q, 1).reduce((a, [w, e]) => a + (e - w), 0);
    expect(width(all)).toBeCloseTo(20, 6);
    expect(width(some)).toBeCloseTo(8, 6);
  });
});
