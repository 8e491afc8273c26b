import { describe, it, expect } from 'vitest';
import { computeFanoutShare } from './fanoutShare.ts';
import { weightsFromCities, type FanoutWeights } from './fanoutWeights.ts';
import { mulberry32, routerNear } from './testutil.ts';

describe('weighted one-shard share', () => {
  const rand = mulberry32(77);
  const router = routerNear(40.71, -74.0, rand, 500);
  const pts = Array.from({ length: 60 }, () => ({ lat: 40.71 + (rand() - 0.5) * 1.2, lng: -74 + (rand() - 0.5) * 1.6, population: Math.floor(rand() * 1000) }));
  const weights = weightsFromCities(pts);

  it('weighs each point by its search, computed with the full covering', () => {
    for (const km of [5, 20, 60]) {
      const sums = [0, 0, 0, 0];
      let total = 0;
      for (const p of pts) {
        const k = router.cover(p.lat, p.lng, km).shards.length;
        sums[Math.min(4, k) - 1] += p.population;
        total += p.population;
      }
      const s = computeFanoutShare(router, weights, km);
      expect(s.weightTotal).toBe(total);
      s.byFanout.forEach((f, i) => expect(f).toBeCloseTo(sums[i] / total, 12));
      expect(s.oneShard).toBe(s.byFanout[0]);
      expect(s.byFanout.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(computeFanoutShare(router, weights, km, 'fast')).toEqual(s);
    }
  });

  it('reports zeros when there is no weight', () => {
    const w: FanoutWeights = { lat: new Float64Array([1]), lng: new Float64Array([1]), weight: new Float64Array([0]) };
    expect(computeFanoutShare(router, w, 5)).toEqual({ radiusKm: 5, weightTotal: 0, byFanout: [0, 0, 0, 0], oneShard: 0 });
  });
});
