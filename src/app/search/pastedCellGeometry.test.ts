import { describe, it, expect } from 'vitest';
import { geoDistance } from 'd3-geo';
import { cellOutlineSegments, cellExtentKm, MAX_PIECE_DEG } from './pastedCellGeometry';
import { parseAnyToken } from '../../core/anyCell';
import { EARTH_RADIUS_KM } from '../../core/index';
import { cellVertices } from '../../core/cells';

const RAD = Math.PI / 180;

describe('cellOutlineSegments', () => {
  it('closes the outline of a face-sized cell through its four corners, in pieces of at most MAX_PIECE_DEG', () => {
    const id = parseAnyToken('5').id; // face 2 (the north pole's face), level 0
    const b = cellOutlineSegments(id);
    const n = b.count / 2;
    // Each edge of a face is about 70.5° of arc, so about 71 pieces each.
    expect(n).toBeGreaterThanOrEqual(4 * 70);
    for (let i = 0; i < n; i++) {
      // Segment i ends where segment i + 1 starts, and the last one ends at the first's start.
      const j = (i + 1) % n;
      expect([b.ll[4 * i + 2], b.ll[4 * i + 3]]).toEqual([b.ll[4 * j], b.ll[4 * j + 1]]);
      const d = geoDistance([b.ll[4 * i + 1] / RAD, b.ll[4 * i] / RAD], [b.ll[4 * i + 3] / RAD, b.ll[4 * i + 2] / RAD]) / RAD;
      expect(d).toBeLessThanOrEqual(MAX_PIECE_DEG + 1e-6);
      // Each vertex carries the other end of its segment, and a unit vector.
      expect([b.other[4 * i], b.other[4 * i + 1]]).toEqual([b.ll[4 * i + 2], b.ll[4 * i + 3]]);
      expect(Math.hypot(b.xyz[6 * i], b.xyz[6 * i + 1], b.xyz[6 * i + 2])).toBeCloseTo(1, 6);
    }
    const corners = cellVertices(id).map((v) => [Math.fround(v.lat * RAD), Math.fround(v.lng * RAD)].join());
    const starts = new Set(Array.from({ length: n }, (_, i) => [b.ll[4 * i], b.ll[4 * i + 1]].join()));
    for (const c of corners) expect(starts.has(c), c).toBe(true);
    expect(Array.from(b.ordinal).every((o) => o === -1)).toBe(true);
  });

  it('draws a small cell as its four edges', () => {
    expect(cellOutlineSegments(parseAnyToken('808581').id).count).toBe(8);
  });
});

describe('cellExtentKm', () => {
  it('is the distance from the centre to the farthest corner: about half the diagonal', () => {
    // A level-10 cell near San Francisco is about 9 km across; a face's corner is 54.7° from its centre.
    const km = cellExtentKm(parseAnyToken('808581').id);
    expect(km).toBeGreaterThan(4);
    expect(km).toBeLessThan(9);
    expect(cellExtentKm(parseAnyToken('5').id)).toBeCloseTo(Math.acos(1 / Math.sqrt(3)) * EARTH_RADIUS_KM, 0);
  });
});
