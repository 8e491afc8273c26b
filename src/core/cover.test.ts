import { describe, it, expect } from 'vitest';
import { parseRadius, formatRadius, circleCap, KM_PER_MILE, MAX_RADIUS_KM } from './cover.ts';
import { EARTH_RADIUS_KM } from './earth.ts';
import { cellToken, cellLevel, tokenAt, cellFromOrdinal } from './cells.ts';
import { coverOrdinals } from './coverWalk.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';

/** The production covering (the walk behind Router.cover), as cell ids. */
const coverCircle = (lat: number, lng: number, km: number) => Array.from(coverOrdinals(lat, lng, km), cellFromOrdinal);

const mi = (x: number) => x * KM_PER_MILE;

describe('the level-10 covering of a circle', () => {
  // Cell counts published in the article (reference 000), computed there with the S2 library.
  it("reproduces the article's covering sizes", () => {
    expect(coverCircle(37.7749, -122.4194, mi(15))).toHaveLength(40); // San Francisco, 15 mi
    expect(coverCircle(40.7128, -74.006, mi(15))).toHaveLength(38); // New York, 15 mi
    expect(coverCircle(37.7749, -122.4194, mi(25))).toHaveLength(98); // San Francisco, 25 mi
    expect(coverCircle(37.3382, -121.8863, mi(15))).toHaveLength(38); // San Jose, 15 mi
    // The RegionCoverer reference agrees with the article too.
    expect(regionCovererCells(37.7749, -122.4194, mi(15))).toHaveLength(40);
    expect(regionCovererCells(37.7749, -122.4194, mi(25))).toHaveLength(98);
  });

  it('returns distinct level-10 cells ascending, including the centre cell', () => {
    const cells = coverCircle(37.7749, -122.4194, 40);
    expect(cells.every((c) => cellLevel(c) === 10)).toBe(true);
    for (let i = 1; i < cells.length; i++) expect(cells[i] > cells[i - 1]).toBe(true);
    expect(cells.map(cellToken)).toContain('808581');
  });

  it('contains the cells of points on the circle (a covering contains its circle)', () => {
    for (const [lat, lng, km] of [[37.77, -122.42, 30], [0, 179.9, 50], [89.9, 0, 100], [-45, 45, 200]]) {
      const tokens = new Set(coverCircle(lat, lng, km).map(cellToken));
      const cap = circleCap(lat, lng, km);
      expect(cap.radius()).toBeCloseTo(km / EARTH_RADIUS_KM, 12);
      for (let k = 0; k < 64; k++) {
        // A point at 0.999 of the radius along bearing k.
        const d = (0.999 * km) / EARTH_RADIUS_KM;
        const b = (2 * Math.PI * k) / 64;
        const p1 = (lat * Math.PI) / 180;
        const l1 = (lng * Math.PI) / 180;
        const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
        const l2 = l1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
        expect(tokens.has(tokenAt((p2 * 180) / Math.PI, (l2 * 180) / Math.PI))).toBe(true);
      }
    }
  });

  it('works over the antimeridian, over a pole and across a cube-face edge', () => {
    const anti = coverCircle(0, 180, 50).map(cellToken);
    expect(anti).toContain(tokenAt(0, 179.8));
    expect(anti).toContain(tokenAt(0, -179.8));
    const pole = coverCircle(90, 0, 100).map(cellToken);
    for (const lng of [0, 90, 180, -90]) expect(pole).toContain(tokenAt(89.5, lng));
    const edge = coverCircle(0, 45, 30); // lng 45 on the equator is the edge of faces 0 and 1
    expect(new Set(edge.map((c) => Number(c >> 61n)))).toEqual(new Set([0, 1]));
  });

  it('rejects radius 0, NaN, latitudes outside [-90, 90] and radii above the maximum, naming the value', () => {
    expect(() => coverCircle(0, 0, 0)).toThrow(/radius 0 km is out of range/);
    expect(() => coverCircle(0, 0, -1)).toThrow(/radius -1 km/);
    expect(() => coverCircle(0, 0, NaN)).toThrow(/radius NaN/);
    expect(() => coverCircle(NaN, 0, 5)).toThrow(/lat NaN/);
    expect(() => coverCircle(91, 0, 5)).toThrow(/lat 91 is not a latitude/);
    expect(() => coverCircle(0, 0, MAX_RADIUS_KM + 1)).toThrow(new RegExp(`radius ${MAX_RADIUS_KM + 1} km is out of range: .* at most ${MAX_RADIUS_KM} km`));
    expect(MAX_RADIUS_KM).toBeGreaterThanOrEqual(1000);
  });
});

describe('parseRadius', () => {
  it('reads miles and kilometres', () => {
    expect(parseRadius('15mi')).toEqual({ value: 15, unit: 'mi', km: 15 * KM_PER_MILE });
    expect(parseRadius('25 km')).toEqual({ value: 25, unit: 'km', km: 25 });
    expect(parseRadius('2.5')).toMatchObject({ unit: 'mi', value: 2.5 });
    expect(parseRadius(10, 'km')).toMatchObject({ unit: 'km', km: 10 });
    expect(formatRadius(parseRadius('15mi'))).toBe('15mi');
  });
  it('rejects what is not a positive radius within the maximum, naming the input', () => {
    expect(() => parseRadius('abc')).toThrow(/radius "abc" is not a radius/);
    expect(() => parseRadius('0mi')).toThrow(/radius "0mi" is out of range/);
    expect(() => parseRadius('700mi')).toThrow(/radius "700mi" is out of range/);
    expect(() => parseRadius('15 furlongs')).toThrow(/not a radius/);
  });
});
