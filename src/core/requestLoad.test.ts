import { describe, it, expect } from 'vitest';
import { s2 } from 's2js';
import { requestRates, coverWorkload, cellLoads, shardTotals, workloadFanout, balanceWeights, parseBalanceWeight, findHotspots, SHARE_SCALE, type BalanceWeight } from './requestLoad.ts';
import { parseWorkload, searchesOfMix, type WorkloadSearch } from './workload.ts';
import { searchWorkload } from './searchWorkload.ts';
import { expectedFanout } from './expectedFanout.ts';
import { optimalSplit } from './balance.ts';
import { Router } from './router.ts';
import { cellToken, cellFromOrdinal, cellOrdinal, parseToken } from './cells.ts';
import { EARTH_RADIUS_KM } from './earth.ts';
import { fileWithCuts, mulberry32 } from './testutil.ts';
import type { CellWeight } from './build.ts';

const search = (weight: number): WorkloadSearch => ({ lat: 0, lng: 0, radius: { value: 1, unit: 'km', km: 1 }, weight, time: null });
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: cellToken(cellFromOrdinal(ordinal)), ordinal, restaurants, dishes });

// A hand-worked workload on made-up coverings: A (weight 1) covers 10, 11, 12; B (weight 2) covers 11, 12, 13.
const searches = [search(1), search(2)];
const coverings = [Int32Array.of(10, 11, 12), Int32Array.of(11, 12, 13)];
// Documents: 10 → 5, 11 → 1, 13 → 10, 20 → 7 (cell 12 is empty).
const cells = [cell(10, 1, 4), cell(11, 1, 0), cell(13, 2, 8), cell(20, 3, 4)];

describe('request rates and load', () => {
  it('sums the weights of the searches covering each cell', () => {
    const r = requestRates(searches, coverings);
    expect([...r.ordinals]).toEqual([10, 11, 12, 13]);
    expect([...r.rates]).toEqual([1, 3, 3, 2]);
  });

  it('loads a cell with its rate times its documents, and a shard with the sum over its cells', () => {
    const loads = cellLoads(cells, requestRates(searches, coverings));
    expect([...loads]).toEqual([5, 3, 20, 0]);
    // Shard 0 holds ordinals below 12, shard 1 the rest: loads 5 + 3 and 20 + 0.
    expect([...shardTotals(new Router(fileWithCuts([12])), cells, loads)]).toEqual([8, 20]);
  });

  it('counts the shards each search asks, weighted', () => {
    // Cut at 12: A reads 10, 11 from shard 0 and 12 from shard 1; B likewise: both ask 2.
    expect(workloadFanout(new Router(fileWithCuts([12])), searches, coverings)).toMatchObject({ searches: 2, weight: 3, meanShards: 2, oneShardShare: 0 });
    // Cut at 13: A asks 1 shard, B asks 2: mean (1·1 + 2·2) / 3, one-shard share 1/3.
    const f = workloadFanout(new Router(fileWithCuts([13])), searches, coverings);
    expect(f.meanShards).toBeCloseTo(5 / 3, 12);
    expect(f.oneShardShare).toBeCloseTo(1 / 3, 12);
  });

  it('covers searches exactly as an independently configured s2js RegionCoverer does, once per distinct circle', () => {
    const w = parseWorkload('37.7749,-122.4194,15mi\n37.80,-122.27,5km,,2\n37.7749,-122.4194,15mi,,0.5\n');
    const cov = coverWorkload(w);
    expect(cov[2]).toBe(cov[0]);
    const expected = new Map<number, number>();
    w.forEach((s) => {
      const cap = s2.Cap.fromCenterAngle(s2.Point.fromLatLng(s2.LatLng.fromDegrees(s.lat, s.lng)), s.radius.km / EARTH_RADIUS_KM);
      for (const id of new s2.RegionCoverer({ minLevel: 10, maxLevel: 10, maxCells: 1 << 30 }).covering(cap)) expected.set(cellOrdinal(id), (expected.get(cellOrdinal(id)) ?? 0) + s.weight);
    });
    const r = requestRates(w, cov);
    expect(new Map([...r.ordinals].map((o, k) => [o, r.rates[k]]))).toEqual(expected);
  });

  it('gives the built-in mix the same fan-out as expectedFanout', () => {
    const sf = cellOrdinal(parseToken('808581'));
    const mixCells = [cell(sf - 2, 3, 10), cell(sf, 5, 10), cell(sf + 40, 2, 1)];
    const mix = searchWorkload(mixCells, { centres: 40, seed: 2 });
    const router = new Router(fileWithCuts([sf - 1, sf + 3]));
    const s = searchesOfMix(mix);
    const a = workloadFanout(router, s, coverWorkload(s));
    const b = expectedFanout(router, mix);
    expect(a.meanShards).toBeCloseTo(b.meanShards, 12);
    expect(a.oneShardShare).toBeCloseTo(b.oneShardShare, 12);
  });
});

describe('balancing on documents, load or a mix', () => {
  it('reads docs, requests and mix:A and rejects anything else, naming it', () => {
    expect(parseBalanceWeight('mix:0.25')).toEqual({ kind: 'mix', alpha: 0.25 });
    expect(() => parseBalanceWeight('mix:1.5')).toThrow('weight "mix:1.5" is invalid: expected docs, requests or mix:A with A in [0, 1]');
    expect(() => parseBalanceWeight('load')).toThrow('weight "load" is invalid');
  });

  it('weights docs by documents, requests by load share and a mix by both shares', () => {
    const loads = [5, 3, 20, 0];
    expect(balanceWeights(cells, { kind: 'docs' })).toEqual([5, 1, 10, 7]);
    expect(balanceWeights(cells, { kind: 'requests' }, loads)).toEqual([5 / 28, 3 / 28, 20 / 28, 0].map((x) => Math.round(x * SHARE_SCALE)));
    // Documents 5, 1, 10, 7 of 23; load 5, 3, 20, 0 of 28; half of each.
    expect(balanceWeights(cells, { kind: 'mix', alpha: 0.5 }, loads)).toEqual([5, 1, 10, 7].map((d, i) => Math.round(SHARE_SCALE * (0.5 * (d / 23) + 0.5 * (loads[i] / 28)))));
    expect(() => balanceWeights(cells, { kind: 'requests' })).toThrow('needs a load per cell');
    expect(() => balanceWeights(cells, { kind: 'requests' }, [0, 0, 0, 0])).toThrow("the workload's load is 0");
  });

  it('finds the split a brute force finds under each weight, on small random inputs', () => {
    const rand = mulberry32(15);
    const kinds: BalanceWeight[] = [{ kind: 'docs' }, { kind: 'requests' }, { kind: 'mix', alpha: 0.5 }, { kind: 'mix', alpha: 0.8 }];
    for (let t = 0; t < 60; t++) {
      const n = 2 + Math.floor(rand() * 7);
      const cs = Array.from({ length: n }, (_, i) => cell(100 + i, Math.floor(rand() * 5), Math.floor(rand() * 50)));
      cs[0].dishes += 1;
      const loads = cs.map(() => (rand() < 0.3 ? 0 : rand() * 1000));
      loads[n - 1] += 1;
      const docs = cs.map((c) => c.restaurants + c.dishes);
      const td = docs.reduce((a, b) => a + b, 0);
      const tl = loads.reduce((a, b) => a + b, 0);
      for (const kind of kinds) {
        const alpha = kind.kind === 'docs' ? 1 : kind.kind === 'requests' ? 0 : kind.alpha;
        // The objective in real numbers: each cell's share of documents and of load, mixed.
        const real = docs.map((d, i) => alpha * (d / td) + (1 - alpha) * (loads[i] / tl));
        const heaviest = (cuts: number[]) => Math.max(...[0, ...cuts].map((a, j) => real.slice(a, [...cuts, n][j]).reduce((x, y) => x + y, 0)));
        for (let k = 1; k <= n; k++) {
          let best = Infinity;
          const rec = (start: number, left: number, cuts: number[]) => {
            if (left === 1) return void (best = Math.min(best, heaviest(cuts)));
            for (let c = start + 1; c <= n - (left - 1); c++) rec(c, left - 1, [...cuts, c]);
          };
          rec(0, k, []);
          const split = optimalSplit(balanceWeights(cs, kind, loads), k);
          expect(heaviest(split.cuts), `n=${n} k=${k} ${kind.kind}`).toBeCloseTo(best, 9);
        }
      }
    }
  });
});

describe('findHotspots', () => {
  // Shard 0: cells 1–4, load 1 each; shard 1: cells 10, 11, 12 with loads 10, 2, 8. Mean shard load (4 + 20) / 2 = 12.
  const hc = [1, 2, 3, 4, 10, 11, 12].map((o) => cell(o, 1, 0));
  const loads = [1, 1, 1, 1, 10, 2, 8];
  const router = new Router(fileWithCuts([10]));

  it('lists the shards at or above factor × the mean load, with the cut that evens their load best', () => {
    const hot = findHotspots(router, hc, loads, 1.5);
    expect(hot).toHaveLength(1);
    expect(hot[0]).toMatchObject({ index: 1, load: 20, cells: 3 });
    expect(hot[0].overMean).toBeCloseTo(20 / 12, 12);
    // Cuts: 10 | 2 + 8 → heavier 10; 10 + 2 | 8 → 12. The first wins, starting the upper half at cell 11.
    expect(hot[0].split).toEqual({ token: cellToken(cellFromOrdinal(11)), ordinal: 11, loads: [10, 10] });
  });

  it('lists nothing below the factor and cannot split a one-cell shard', () => {
    expect(findHotspots(router, hc, loads, 2)).toEqual([]);
    // Cuts at 10 and 11: shards of load 4, 10 (cell 10 alone) and 10 (cells 11, 12); mean 8, both 1.25×.
    const one = findHotspots(new Router(fileWithCuts([10, 11])), hc, loads, 1.2);
    expect(one.map((h) => [h.index, h.split])).toEqual([
      [1, null],
      [2, { token: cellToken(cellFromOrdinal(12)), ordinal: 12, loads: [2, 8] }],
    ]);
  });
});
