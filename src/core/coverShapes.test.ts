import { describe, expect, it } from 'vitest';
import { boxOrdinals, circleOrdinals, polygonOrdinals, insideRing, ENGINE_PAD_DEG } from './coverShapes.ts';
import { coverOrdinals } from './coverWalk.ts';
import { ordinalAt, cellVertices, cellFromOrdinal } from './cells.ts';
import { intersectOrdinals, unionOrdinals } from './shapeRoute.ts';

const has = (a: Int32Array, o: number) => a.includes(o);

describe('padded coverings', () => {
  it('a circle holds RegionCoverer\'s covering (Router.cover) and at most the cells 11 cm further', () => {
    const exact = coverOrdinals(40.7, -74, 50);
    const padded = circleOrdinals({ kind: 'circle', lat: 40.7, lng: -74, radiusKm: 50 });
    expect(intersectOrdinals(exact, padded)).toEqual(exact);
    expect(padded.length - exact.length).toBeLessThanOrEqual(4);
  });

  it('a box over the antimeridian holds points on both sides of it and none far outside', () => {
    const cells = boxOrdinals({ kind: 'box', top: 10, left: 179.5, bottom: 9, right: -179.5 });
    for (const [lat, lng] of [[9.5, 179.9], [9.5, -179.9], [9.5, 180], [10, 179.5], [9, -179.5]]) expect(has(cells, ordinalAt(lat, lng)), `${lat},${lng}`).toBe(true);
    expect(has(cells, ordinalAt(9.5, 178))).toBe(false);
    expect(has(cells, ordinalAt(9.5, 0))).toBe(false);
  });

  it('a box edged exactly on a cell corner takes the cells a hair outside the edge (the engine rounds points down ~1 cm)', () => {
    const v = cellVertices(cellFromOrdinal(ordinalAt(48.1, 11.6)))[0];
    const cells = boxOrdinals({ kind: 'box', top: v.lat + 0.2, left: v.lng, bottom: v.lat, right: v.lng + 0.2 });
    // The cells just south and west of the corner meet the padded box, so they are in.
    expect(has(cells, ordinalAt(v.lat - ENGINE_PAD_DEG / 2, v.lng - ENGINE_PAD_DEG / 2))).toBe(true);
    expect(has(cells, ordinalAt(v.lat - 0.3, v.lng - 0.3))).toBe(false);
  });

  it('a polygon is planar in lat/lng: a rectangle ring covers as the box does; its edges along parallels do not bulge', () => {
    const box = boxOrdinals({ kind: 'box', top: 61, left: -10, bottom: 60, right: 10 });
    const ring = polygonOrdinals({ kind: 'polygon', points: [{ lat: 60, lng: -10 }, { lat: 60, lng: 10 }, { lat: 61, lng: 10 }, { lat: 61, lng: -10 }] });
    expect(ring).toEqual(box);
    // A great circle from (61, -10) to (61, 10) bulges north by ~0.2 deg: the planar polygon does not reach it.
    expect(has(ring, ordinalAt(61.15, 0))).toBe(false);
  });

  it('the even-odd test and the ordinal set operations', () => {
    const tri = [{ lat: 0, lng: 0 }, { lat: 0, lng: 10 }, { lat: 10, lng: 0 }];
    expect(insideRing(tri, 2, 2)).toBe(true);
    expect(insideRing(tri, 8, 8)).toBe(false);
    expect([...unionOrdinals(Int32Array.of(1, 3, 5), Int32Array.of(2, 3, 6))]).toEqual([1, 2, 3, 5, 6]);
    expect([...intersectOrdinals(Int32Array.of(1, 3, 5), Int32Array.of(2, 3, 5))]).toEqual([3, 5]);
  });

  it('names a bad shape', () => {
    expect(() => boxOrdinals({ kind: 'box', top: 1, left: 0, bottom: 2, right: 1 })).toThrow(/box.top_left.lat 1 is below box.bottom_right.lat 2/);
    expect(() => polygonOrdinals({ kind: 'polygon', points: [{ lat: 0, lng: 0 }, { lat: 1, lng: 1 }, { lat: 0, lng: 0 }] })).toThrow(/2 distinct point\(s\)/);
    expect(() => circleOrdinals({ kind: 'circle', lat: 91, lng: 0, radiusKm: 1 })).toThrow(/circle.lat 91 is not a latitude/);
  });
});
