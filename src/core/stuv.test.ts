import { describe, it, expect } from 'vitest';
import { s2 } from 's2js';
import { cellCenter, cellFromOrdinal, cellVertexPoints, cellVertices, leafCellAt, CELL_COUNT } from './cells.ts';
import { faceUVOfPoint, pointOfDegrees, pointOfFaceUV, stOfUV, uvOfST } from './stuv.ts';
import { mulberry32, randomPoint } from './testutil.ts';

// The oracle is s2js itself, through its classes (Point, LatLng, Cell): stuv.ts promises the
// same bits, so every comparison is exact (toBe / Object.is), not within a tolerance.

/** Seeded points: uniform on the sphere, plus the awkward ones (poles, face edges and corners, the antimeridian). */
function points(n: number): { lat: number; lng: number }[] {
  const rand = mulberry32(20261202);
  const out = [
    { lat: 90, lng: 0 },
    { lat: -90, lng: 45 },
    { lat: 0, lng: 180 },
    { lat: 0, lng: -180 },
    { lat: 0, lng: 45 },
    { lat: 0, lng: -135 },
    { lat: 35.264389682754654, lng: 45 }, // a cube corner
    { lat: -35.264389682754654, lng: -45 },
    { lat: 45, lng: 0 },
    { lat: 0, lng: 0 },
    { lat: 1e-300, lng: -1e-300 },
  ];
  for (let i = 0; i < n; i++) out.push(randomPoint(rand));
  return out;
}

describe('S2’s cube-face projection without s2js’s classes (stuv.ts)', () => {
  it('turns degrees into the same unit vector as Point.fromLatLng(LatLng.fromDegrees(...)), bit for bit', () => {
    for (const { lat, lng } of points(5_000)) {
      const v = s2.Point.fromLatLng(s2.LatLng.fromDegrees(lat, lng)).vector;
      expect(pointOfDegrees(lat, lng)).toEqual([v.x, v.y, v.z]);
    }
  });

  it('finds the same face and (u, v), and the same leaf cell, as cellid.fromLatLng on 20,000 points', () => {
    const differ: string[] = [];
    for (const { lat, lng } of points(20_000)) {
      const theirs = s2.cellid.fromLatLng(s2.LatLng.fromDegrees(lat, lng));
      if (leafCellAt(lat, lng) !== theirs) differ.push(`${lat},${lng}`);
    }
    expect(differ).toEqual([]);
  });

  it('round-trips (u, v) through the face frames and the quadratic transform as s2js does', () => {
    const rand = mulberry32(7);
    for (let k = 0; k < 2_000; k++) {
      const face = k % 6;
      const u = 2 * rand() - 1;
      const v = 2 * rand() - 1;
      const p = pointOfFaceUV(face, u, v);
      const [f, u2, v2] = faceUVOfPoint(p);
      expect(f).toBe(face);
      expect(Math.abs(u2 - u)).toBeLessThan(1e-15);
      expect(Math.abs(v2 - v)).toBeLessThan(1e-15);
      expect(Math.abs(uvOfST(stOfUV(u)) - u)).toBeLessThan(1e-15);
    }
  });
});

describe('cell centres and corners through stuv.ts', () => {
  // Cells of every level 0 to 30: a level-10 ordinal's cell, then its parent or a descendant.
  const cells = (() => {
    const rand = mulberry32(99);
    const out: bigint[] = [];
    for (let k = 0; k < 3_000; k++) {
      const id = cellFromOrdinal(Math.floor(rand() * CELL_COUNT));
      const level = k % 31;
      out.push(level <= 10 ? s2.cellid.parent(id, level) : s2.cellid.childBeginAtLevel(id, level) + BigInt(2 * Math.floor(rand() * 4 ** (level - 10))) * s2.cellid.lsbForLevel(level));
    }
    for (let f = 0; f < 6; f++) out.push(s2.cellid.fromFace(f));
    return out.filter((id) => s2.cellid.valid(id));
  })();

  it('gives each cell’s centre exactly as cellid.latLng', () => {
    expect(cells.length).toBeGreaterThan(2_900);
    for (const id of cells) {
      const ll = s2.cellid.latLng(id);
      expect(cellCenter(id)).toEqual({ lat: (ll.lat * 180) / Math.PI, lng: (ll.lng * 180) / Math.PI });
    }
  });

  it('gives each cell’s four corners exactly as s2.Cell’s vertex(k), in its order', () => {
    for (const id of cells) {
      const cell = s2.Cell.fromCellID(id);
      const expected: number[] = [];
      const degrees: { lat: number; lng: number }[] = [];
      for (let k = 0; k < 4; k++) {
        const p = cell.vertex(k);
        expected.push(p.x, p.y, p.z);
        degrees.push({ lat: s2.LatLng.latitude(p) * (180 / Math.PI), lng: s2.LatLng.longitude(p) * (180 / Math.PI) });
      }
      expect([...cellVertexPoints(id)]).toEqual(expected);
      expect(cellVertices(id)).toEqual(degrees);
    }
  });
});
