import { describe, it, expect } from 'vitest';
import { writeCells, cellBuffers, capacityFor, FILL_VERTS, OUTLINE_VERTS } from './cellGeometry';

// Two cells with distinct corners: corner j of cell k at lat = 0.1·(k + 1), lng = 0.01·j (radians).
const corners = new Float32Array(16);
for (let k = 0; k < 2; k++) for (let j = 0; j < 4; j++) corners.set([0.1 * (k + 1), 0.01 * j], 8 * k + 2 * j);
const ordinals = Int32Array.from([100, 205]);
const cornerOf = (lng: number) => Math.round(lng / 0.01);

describe('cell geometry', () => {
  it('writes two triangles per cell that together use all four corners, each corner tearing with its diagonal', () => {
    const fill = cellBuffers(2, FILL_VERTS);
    const outline = cellBuffers(2, OUTLINE_VERTS);
    expect(writeCells(corners, ordinals, fill, outline)).toBe(2);
    expect(Array.from({ length: 6 }, (_, v) => cornerOf(fill.ll[2 * v + 1]))).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from({ length: 6 }, (_, v) => cornerOf(fill.other[2 * v + 1]))).toEqual([2, 3, 0, 2, 0, 1]);
    expect(Array.from(fill.ordinal.subarray(6, 12))).toEqual([205, 205, 205, 205, 205, 205]);
    expect(fill.ll[12]).toBeCloseTo(0.2, 7);
  });

  it('gives every vertex the unit vector of its (lat, lng) and of its tearing partner', () => {
    const fill = cellBuffers(2, FILL_VERTS);
    const outline = cellBuffers(2, OUTLINE_VERTS);
    writeCells(corners, ordinals, fill, outline);
    for (const b of [fill, outline]) {
      for (let v = 0; v < b.ordinal.length; v++) {
        for (const [ll, xyz] of [
          [b.ll, b.xyz],
          [b.other, b.otherXyz],
        ]) {
          const lat = ll[2 * v];
          const lng = ll[2 * v + 1];
          expect(xyz[3 * v]).toBeCloseTo(Math.cos(lat) * Math.cos(lng), 6);
          expect(xyz[3 * v + 1]).toBeCloseTo(Math.cos(lat) * Math.sin(lng), 6);
          expect(xyz[3 * v + 2]).toBeCloseTo(Math.sin(lat), 6);
        }
      }
    }
  });

  it('outlines each cell with its four edges, each end tearing with the other end', () => {
    const fill = cellBuffers(2, FILL_VERTS);
    const outline = cellBuffers(2, OUTLINE_VERTS);
    writeCells(corners, ordinals, fill, outline);
    const ends = Array.from({ length: 8 }, (_, v) => [cornerOf(outline.ll[2 * v + 1]), cornerOf(outline.other[2 * v + 1])]);
    expect(ends).toEqual([
      [0, 1], [1, 0], [1, 2], [2, 1], [2, 3], [3, 2], [3, 0], [0, 3],
    ]);
    expect(outline.ordinal[8]).toBe(205);
  });

  it('grows capacity by powers of two from 1,024 cells', () => {
    expect(capacityFor(0)).toBe(1024);
    expect(capacityFor(1251)).toBe(2048);
    expect(capacityFor(44818)).toBe(65536);
  });
});
