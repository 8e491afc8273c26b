import { describe, it, expect } from 'vitest';
import { optimalSplit, greedyFill, splitFromCuts, balance } from './balance.ts';
import { mulberry32 } from './testutil.ts';

/** Every way to cut n cells into k non-empty contiguous shards: the smallest heaviest shard. */
function bruteForceMinMax(w: number[], k: number): number {
  let best = Infinity;
  const rec = (start: number, left: number, worst: number) => {
    if (worst >= best) return;
    if (left === 1) {
      const last = w.slice(start).reduce((a, b) => a + b, 0);
      best = Math.min(best, Math.max(worst, last));
      return;
    }
    let acc = 0;
    for (let end = start + 1; end <= w.length - (left - 1); end++) {
      acc += w[end - 1];
      rec(end, left - 1, Math.max(worst, acc));
    }
  };
  rec(0, k, 0);
  return best;
}

describe('balance', () => {
  it('finds the optimum of a brute force on 300 small random inputs', () => {
    const rand = mulberry32(99);
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(rand() * 12);
      const w: number[] = Array.from({ length: n }, () => (rand() < 0.2 ? 0 : Math.floor(rand() * (rand() < 0.1 ? 1000 : 50))));
      if (!w.some((x) => x > 0)) w[0] = 1;
      for (let k = 1; k <= n; k++) {
        const s = optimalSplit(w, k);
        expect(s.shards).toBe(k);
        expect(s.cuts).toHaveLength(k - 1);
        for (let i = 1; i < s.cuts.length; i++) expect(s.cuts[i]).toBeGreaterThan(s.cuts[i - 1]);
        if (k > 1) expect(s.cuts[0]).toBeGreaterThan(0), expect(s.cuts[k - 2]).toBeLessThan(n);
        expect(s.heaviest, `w=${w} k=${k}`).toBe(bruteForceMinMax(w, k));
        expect(s.weights.reduce((a, b) => a + b, 0)).toBe(w.reduce((a, b) => a + b, 0));
      }
    }
  });

  it("fills greedily to the target: a shard closes once it reaches it (the article's method)", () => {
    expect(greedyFill([5, 5, 5, 5, 5], 10)).toEqual([2, 4]);
    expect(greedyFill([12, 1, 1, 9, 3], 10)).toEqual([1, 4]);
    expect(greedyFill([1, 1, 1], 100)).toEqual([]);
    expect(() => greedyFill([1], 0)).toThrow(/targetWeight 0/);
  });

  it('measures evenness as heaviest over mean', () => {
    const s = splitFromCuts([4, 4, 2, 6], [2, 3]);
    expect(s.weights).toEqual([8, 2, 6]);
    expect(s.evenness).toBeCloseTo(8 / (16 / 3), 12);
  });

  it('reports both methods per shard count, never worse than greedy for the optimum, and picks the most even', () => {
    const rand = mulberry32(5);
    const w = Array.from({ length: 3000 }, () => Math.floor(Math.exp(rand() * 8)));
    const r = balance(w, { min: 12, max: 20, targets: 500 });
    expect(r.rows.map((x) => x.shards)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20]);
    for (const row of r.rows) {
      expect(row.optimal.shards).toBe(row.shards);
      if (row.greedy) expect(row.optimal.heaviest).toBeLessThanOrEqual(row.greedy.heaviest);
    }
    const all = r.rows.flatMap((x) => [x.optimal.evenness, x.greedy?.evenness ?? Infinity]);
    expect(r.best.split.evenness).toBe(Math.min(...all));
  });

  it('rejects ranges it cannot fill and bad weights', () => {
    expect(() => balance([1, 2, 3], { min: 2, max: 5 })).toThrow(/max 5 shards is more than the 3 non-empty cells/);
    expect(() => balance([1, -2, 3], { min: 1, max: 2 })).toThrow(/weights\[1\] -2 is invalid/);
    expect(() => balance([1, 2], { min: 3, max: 2 })).toThrow(/\[3, 2\] is invalid/);
  });
});
