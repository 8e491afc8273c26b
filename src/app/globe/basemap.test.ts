import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as TopoJSON from 'topojson-specification';
import { meshSegments, awayFrom, within, needsRegion, regionFor, viewRadiusDeg } from './basemap';

const atlas = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../node_modules/${path}`, import.meta.url)), 'utf8')) as TopoJSON.Topology;

/** Segments with a vertex in a lat/lng box (degrees). */
function inBox(segs: Float64Array, [lat0, lng0, lat1, lng1]: number[]): number {
  let n = 0;
  for (let i = 0; i < segs.length; i += 2) if (segs[i] > lat0 && segs[i] < lat1 && segs[i + 1] > lng0 && segs[i + 1] < lng1) n++;
  return n;
}

describe('basemap', () => {
  // Boxes read off a map: open water of San Francisco Bay (between Oakland and San Mateo) and
  // of Lake Michigan (off Milwaukee, Chicago and Muskegon).
  const SF_BAY_SHORE = [37.45, -122.45, 38.1, -122.0];
  const LAKE_MICHIGAN = [41.6, -88.0, 46.0, -84.8];

  it('draws San Francisco Bay with many more vertices at 1:10m than at 1:50m, and Lake Michigan\'s shore from the US state outlines', () => {
    const land10 = meshSegments(atlas('world-atlas/land-10m.json'), 'land');
    const land50 = meshSegments(atlas('world-atlas/land-50m.json'), 'land');
    expect(inBox(land10, SF_BAY_SHORE)).toBeGreaterThan(4 * inBox(land50, SF_BAY_SHORE));
    // Natural Earth's land keeps the Great Lakes as land; the Census outlines are clipped to the shore.
    const shores = awayFrom(meshSegments(atlas('us-atlas/states-10m.json'), 'states', (a, b) => a === b), land10, 0.1);
    expect(inBox(land10, LAKE_MICHIGAN)).toBe(0);
    expect(inBox(shores, LAKE_MICHIGAN)).toBeGreaterThan(40);
    // …and the sea coasts the 1:10m land already draws are not doubled (a box on the coast of Oregon).
    expect(inBox(shores, [43, -124.7, 45, -123.8])).toBe(0);
  });

  it('cuts a region by great-circle distance, keeping segments with an end inside', () => {
    const segs = Float64Array.from([0, 0, 0, 1, 10, 10, 10, 11, 0, 4.9, 0, 6, 89, 0, 89, 180]);
    expect(Array.from(within(segs, 0, 0, 5))).toEqual([0, 0, 0, 1, 0, 4.9, 0, 6]);
    expect(Array.from(within(segs, 90, 0, 2))).toEqual([89, 0, 89, 180]);
  });

  it('asks for a new region when the view reaches out of the one drawn or is far smaller than it', () => {
    const r = regionFor(37.77, -122.42, 2);
    expect(r.radiusDeg).toBeCloseTo(3.7, 9);
    expect(needsRegion(null, 0, 0, 1)).toBe(true);
    expect(needsRegion(r, 37.77, -122.42, 2)).toBe(false);
    expect(needsRegion(r, 37.77, -121.42, 2)).toBe(false); // panned 1° of longitude east: still inside
    expect(needsRegion(r, 37.77, -118.42, 2)).toBe(true); // panned 4° of longitude (3.2° of arc) east
    expect(needsRegion(r, 37.77, -122.42, 0.3)).toBe(true); // zoomed far in
    expect(viewRadiusDeg(1000, 0, 1000 / Math.PI)).toBeCloseTo(90, 9); // half of π radians wide
  });
});
