import { describe, it, expect } from 'vitest';
import { rateScale, bucketOf, rateColor, hotCells, requestColor, formatRate, MAX_BUCKETS } from './requests';
import { PALETTE, fromHex, deltaE, srgbToOklab } from '../shell/palette';

describe('the request rate scale', () => {
  it('buckets rates by the 1-2-5 series when it needs few buckets, counting the cells of each', () => {
    // By hand: 1 and 1.5 in [1, 2); 3 in [2, 5); 5 and 9 in [5, 10); 12 in [10, 20).
    const s = rateScale([3, 1, 5, 12, 1.5, 9]);
    expect(s.edges).toEqual([1, 2, 5, 10, 20]);
    expect(s.counts).toEqual([2, 1, 2, 1]);
  });

  it('falls back to the 1-3 series, then to powers of ten, when the 1-2-5 series needs more than the buckets allowed', () => {
    // 0.5 .. 183 (the bundled workload's weights): 1-2-5 needs 0.5, 1, 2, 5, 10, 20, 50, 100, 200 = 8 buckets.
    expect(rateScale([0.5, 183]).edges).toEqual([0.3, 1, 3, 10, 30, 100, 300]);
    // 1 .. 2,000,000: 1-3 needs 13 buckets; powers of ten 7.
    expect(rateScale([1, 2e6]).edges).toEqual([1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7]);
    expect(rateScale([1, 2e6]).counts).toEqual([1, 0, 0, 0, 0, 0, 1]);
    // 0.001 .. 5·10^9 spans 13 decades: every second power of ten.
    expect(rateScale([1e-3, 5e9]).edges).toEqual([1e-3, 0.1, 10, 1e3, 1e5, 1e7, 1e9, 1e11]);
  });

  it('puts a rate on an edge in the bucket that starts there, and one rate alone in one bucket', () => {
    expect(bucketOf([1, 2, 5, 10], 2)).toBe(1);
    expect(bucketOf([1, 2, 5, 10], 9.99)).toBe(2);
    const one = rateScale([4, 4, 4]);
    expect(one.edges).toEqual([2, 5]);
    expect(one.counts).toEqual([3]);
  });

  it('never lists more buckets than allowed over rates from 0.001 to a billion', () => {
    for (let lo = 1e-3; lo < 1e9; lo *= 7) for (let hi = lo; hi < 1e9; hi *= 13) expect(rateScale([lo, hi]).counts.length).toBeLessThanOrEqual(MAX_BUCKETS);
  });

  it('rejects no rates, and a rate that is not positive, naming it', () => {
    expect(() => rateScale([])).toThrow('rates is empty');
    expect(() => rateScale([1, 0])).toThrow('rates[1] = 0 is invalid: expected a finite rate greater than 0');
  });

  it('writes rates compactly', () => {
    expect([0.3, 3, 1200, 20000, 2.5e6].map(formatRate)).toEqual(['0.3', '3', '1.2k', '20k', '2.5M']);
  });
});

describe('the request colors', () => {
  it('grow lighter along the scale, so the order reads without color vision', () => {
    const L = [0, 0.2, 0.4, 0.6, 0.8, 1].map((t) => srgbToOklab(requestColor(t))[0]);
    for (let i = 1; i < L.length; i++) expect(L[i]).toBeGreaterThan(L[i - 1] + 0.1);
  });

  it('stay apart from every shard color (OKLab ΔE ≥ 0.08 with normal vision)', () => {
    for (let t = 0; t <= 1; t += 0.01) for (const hex of PALETTE) expect(deltaE(requestColor(t), fromHex(hex)), `t=${t} ${hex}`).toBeGreaterThanOrEqual(0.08);
  });
});

describe('cells by color and in hot ranges', () => {
  const ordinals = Int32Array.of(10, 11, 12, 20);
  // Each cell's corners: its ordinal repeated, so the copies can be told apart.
  const corners = Float32Array.from({ length: 32 }, (_, i) => ordinals[i >> 3]);

  it('colors a rate by its bucket, one color object per bucket (the cell layer draws a bucket at once)', () => {
    const scale = rateScale([1, 7, 1.5, 3]);
    expect([1, 7, 1.5, 3].map((r) => scale.colors.indexOf(rateColor(scale, r)))).toEqual([0, 2, 0, 1]);
  });

  it('keeps the rated cells whose shard is hot', () => {
    const h = hotCells(ordinals, corners, (o) => (o < 12 ? 0 : 1), new Set([1]));
    expect([...h.ordinals]).toEqual([12, 20]);
    expect([...h.corners]).toEqual([...new Array(8).fill(12), ...new Array(8).fill(20)]);
  });
});
