import { describe, it, expect } from 'vitest';
import { cumulativeWeights, pickWeighted, spreadKm, gaussianAround, pointInCell, MAX_SIGMAS } from './sampling.ts';
import { cellOrdinal, cellAt, CELL_COUNT } from './cells.ts';
import { mulberry32 } from './testutil.ts';

/** Great-circle distance in km by the haversine formula on a 6371.0088 km sphere, written out here rather than taken from earth.ts. */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

describe('weighted pick', () => {
  it('picks the index a linear scan of the weights picks, for seeded weights with zeros', () => {
    const rand = mulberry32(11);
    for (let t = 0; t < 200; t++) {
      const weights = Array.from({ length: 1 + Math.floor(rand() * 20) }, () => (rand() < 0.3 ? 0 : Math.floor(rand() * 100)));
      if (!weights.some((w) => w > 0)) weights[0] = 1;
      const cum = cumulativeWeights(weights, 'w');
      const total = weights.reduce((a, b) => a + b, 0);
      for (let k = 0; k < 50; k++) {
        const u = rand();
        // Reference: the first index whose running sum exceeds u · total (integer weights: exact sums).
        let want = 0;
        let run = 0;
        for (let i = 0; i < weights.length; i++) {
          run += weights[i];
          if (run > u * total) {
            want = i;
            break;
          }
        }
        expect(pickWeighted(cum, u)).toBe(want);
        expect(weights[pickWeighted(cum, u)]).toBeGreaterThan(0);
      }
    }
  });

  it('draws each index in proportion to its weight', () => {
    const weights = [1, 0, 3, 6];
    const cum = cumulativeWeights(weights, 'w');
    const rand = mulberry32(5);
    const n = 100_000;
    const seen = [0, 0, 0, 0];
    for (let k = 0; k < n; k++) seen[pickWeighted(cum, rand())]++;
    expect(seen[1]).toBe(0);
    // Binomial standard deviation is at most 0.0016 of n here; 0.01 is over 6 of them.
    weights.forEach((w, i) => expect(Math.abs(seen[i] / n - w / 10)).toBeLessThan(0.01));
  });

  it('rejects a negative or non-finite weight, naming it', () => {
    expect(Array.from(cumulativeWeights([1, 2, 0, 4], 'w'))).toEqual([1, 3, 3, 7]);
    expect(() => cumulativeWeights([1, -2], 'places', 'population')).toThrow('places[1] population -2 is invalid: expected a finite, non-negative number');
    expect(() => cumulativeWeights([NaN], 'cells', 'restaurants')).toThrow(/cells\[0\] restaurants NaN is invalid/);
    expect(() => cumulativeWeights([Infinity], 'w')).toThrow(/w\[0\] weight Infinity is invalid/);
  });
});

describe('spread rule', () => {
  it('is 0.01 km per square root of a person, clamped to [1.5, 25] km', () => {
    expect(spreadKm(0)).toBe(1.5);
    expect(spreadKm(22_500)).toBe(1.5);
    expect(spreadKm(40_000)).toBe(2);
    expect(spreadKm(1_000_000)).toBe(10);
    expect(spreadKm(6_250_000)).toBe(25);
    expect(spreadKm(100_000_000)).toBe(25);
  });
});

describe('Gaussian offsets around a place', () => {
  it('stay within MAX_SIGMAS sigmas, spread like a truncated 2-D Gaussian in every direction', () => {
    const rand = mulberry32(21);
    const sigma = 10;
    let r2 = 0;
    let east = 0;
    let north = 0;
    const n = 20_000;
    for (let k = 0; k < n; k++) {
      const p = gaussianAround(0, 20, sigma, rand, 6);
      const d = haversineKm(0, 20, p.lat, p.lng);
      // The tangent plane at the equator agrees with the sphere to well under 0.1% at 30 km.
      expect(d).toBeLessThan(MAX_SIGMAS * sigma * 1.001 + 0.001);
      r2 += d * d;
      east += Math.sign(p.lng - 20);
      north += Math.sign(p.lat);
    }
    // E[r²] of a 2-D Gaussian truncated at k sigmas: 2σ²(1 − (k²/2) e^(−k²/2) / (1 − e^(−k²/2))), 1.876σ² at k = 3.
    const e = Math.exp(-4.5);
    const want = 2 * sigma * sigma * (1 - (4.5 * e) / (1 - e));
    expect(Math.abs(r2 / n / want - 1)).toBeLessThan(0.03);
    expect(Math.abs(east / n)).toBeLessThan(0.03);
    expect(Math.abs(north / n)).toBeLessThan(0.03);
  });

  it('widens longitude degrees with latitude, so the distance is the same in km', () => {
    const sigma = 5;
    const at = (lat: number) => {
      const rand = mulberry32(8);
      let sum = 0;
      for (let k = 0; k < 2000; k++) {
        const p = gaussianAround(lat, 0, sigma, rand, 6);
        sum += haversineKm(lat, 0, p.lat, p.lng);
      }
      return sum / 2000;
    };
    expect(Math.abs(at(60) / at(0) - 1)).toBeLessThan(0.01);
  });

  it('rounds to the decimals asked, wraps the antimeridian and stays off the poles', () => {
    const rand = mulberry32(3);
    for (let k = 0; k < 500; k++) {
      const p = gaussianAround(-16.5, 179.99, 5, rand, 5);
      expect(p.lng).toBeGreaterThanOrEqual(-180);
      expect(p.lng).toBeLessThan(180);
      expect(Math.round(p.lat * 1e5) / 1e5).toBe(p.lat);
      expect(Math.round(p.lng * 1e5) / 1e5).toBe(p.lng);
      const q = gaussianAround(89.9999, 0, 25, rand, 6);
      expect(Math.abs(q.lat)).toBeLessThanOrEqual(89.999999);
    }
  });

  it('gives the same point for the same uniform numbers', () => {
    expect(gaussianAround(40, -74, 3, mulberry32(1), 6)).toEqual(gaussianAround(40, -74, 3, mulberry32(1), 6));
  });
});

describe('a point in a cell', () => {
  it('lies in the cell it was drawn in, and rejects numbers outside [0, 1)', () => {
    const rand = mulberry32(13);
    for (let k = 0; k < 300; k++) {
      const o = Math.floor(rand() * CELL_COUNT);
      const p = pointInCell(o, rand(), rand());
      expect(cellOrdinal(cellAt(p.lat, p.lng))).toBe(o);
    }
    expect(() => pointInCell(0, 1, 0)).toThrow(/u1 1, u2 0: expected numbers in \[0, 1\)/);
  });
});
