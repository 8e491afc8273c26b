/**
 * Router.cover (the covering walk) checked against the cap itself, in the style of golang/geo's
 * checkCovering / C++ S2's CheckCoveringTight (s2/regioncoverer_test): every returned
 * level-10 cell intersects the cap (tight), and every level-10 neighbour (edge and
 * vertex neighbours, s2js cellid.allNeighbors) of a returned cell that was left out does
 * not (complete: the cells meeting a cap form one connected patch, so with the centre's
 * cell inside, nothing that meets the cap can be missing). The cap is built here from
 * s2js directly and each cell is tested with s2js's Cap.intersectsCell, independently of
 * the walk's own hierarchy descent.
 */
import { describe, it, expect } from 'vitest';
import { s2 } from 's2js';
import { Router } from './router.ts';
import { cellFromOrdinal, CELL_COUNT } from './cells.ts';
import { fileWithCuts, mulberry32, randomPoint } from './testutil.ts';

const { cellid } = s2;
/** The mean Earth radius (IUGG R1), the sphere geoshard's radii are measured on. */
const EARTH_KM = 6371.0088;

const router = new Router(fileWithCuts(Array.from({ length: 11 }, (_, i) => Math.round(((i + 1) * CELL_COUNT) / 12))));

/** The level-10 cells Router.cover returns for a circle, as cell ids. */
function walk(lat: number, lng: number, radiusKm: number): bigint[] {
  return Array.from(router.cover(lat, lng, radiusKm).ordinals, cellFromOrdinal);
}

/** checkCoveringTight returns the problems found with the walk's answer for one circle (empty when it is exact). */
function checkCoveringTight(lat: number, lng: number, radiusKm: number): string[] {
  const centre = s2.Point.fromLatLng(s2.LatLng.fromDegrees(lat, lng));
  const cap = s2.Cap.fromCenterAngle(centre, radiusKm / EARTH_KM);
  const cells = walk(lat, lng, radiusKm);
  const inCover = new Set(cells);
  const problems: string[] = [];
  const where = `circle (${lat}, ${lng}) ${radiusKm} km`;
  if (inCover.size !== cells.length) problems.push(`${where}: a cell is returned twice`);
  const centreCell = cellid.parent(cellid.fromPoint(centre), 10);
  if (!inCover.has(centreCell)) problems.push(`${where}: the centre's cell ${cellid.toToken(centreCell)} is missing`);
  const checked = new Set<bigint>();
  for (const id of cells) {
    if (cellid.level(id) !== 10) problems.push(`${where}: ${cellid.toToken(id)} is not a level-10 cell`);
    if (!cap.intersectsCell(s2.Cell.fromCellID(id))) problems.push(`${where}: returned ${cellid.toToken(id)} does not meet the cap`);
    for (const n of cellid.allNeighbors(id, 10)) {
      if (inCover.has(n) || checked.has(n)) continue;
      checked.add(n);
      if (cap.intersectsCell(s2.Cell.fromCellID(n))) problems.push(`${where}: left-out neighbour ${cellid.toToken(n)} meets the cap`);
    }
    if (problems.length > 5) break;
  }
  return problems;
}

describe('the covering walk is tight and complete against the cap (checkCoveringTight)', () => {
  it('on seeded random circles from 0.01 km to 300 km', () => {
    const rand = mulberry32(20261130);
    for (let t = 0; t < 120; t++) {
      const p = randomPoint(rand);
      // Log-uniform radii: as many tiny circles as large ones.
      const km = 0.01 * 30_000 ** rand();
      expect(checkCoveringTight(p.lat, p.lng, km)).toEqual([]);
    }
  });

  it('at the poles, across the antimeridian, on cube-face edges and corners, tiny and at 1,000 km', () => {
    // Face centres: (0,0) (0,90) (90,·) (0,180) (0,-90) (-90,·); face edges run along lng ±45, ±135
    // near the equator and lat ±35.26° (the cube's corners: atan(1/√2)) at lng ±45, ±135.
    const corner = (Math.atan(1 / Math.SQRT2) * 180) / Math.PI;
    const places: [number, number][] = [
      [90, 0], [-90, 0], [89.999, 123], [-89.9, -45],
      [0, 180], [0, -180], [12.5, 179.999], [-40, -179.95], [65, 180],
      [0, 45], [0, -45], [0, 135], [0, -135], [20, 45], [-10, 135],
      [corner, 45], [-corner, -135], [corner, -45], [45, 0], [-45, 90],
      [37.7749, -122.4194], [40.7128, -74.006],
    ];
    for (const [lat, lng] of places) {
      for (const km of [0.001, 0.5, 8, 80]) expect(checkCoveringTight(lat, lng, km)).toEqual([]);
    }
  });

  it('on 1,000 km circles (the maximum radius) at a pole, on the antimeridian, at a cube corner and over the US', () => {
    const corner = (Math.atan(1 / Math.SQRT2) * 180) / Math.PI;
    for (const [lat, lng] of [[90, 0], [0, 180], [corner, 45], [40, -100]] as const) {
      expect(checkCoveringTight(lat, lng, 1000)).toEqual([]);
    }
  });
});
