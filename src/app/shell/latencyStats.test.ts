import { describe, it, expect } from 'vitest';
import { percentile, recordTimings, shardLatencies, LATENCY_WINDOW } from './latencyStats';

describe('percentile (nearest rank)', () => {
  it('picks the sample at rank ceil(p/100 × n), so it is always one of the samples', () => {
    // By hand: n = 4, p50 → rank ceil(2) = 2 → 2; p99 → rank ceil(3.96) = 4 → 4; p25 → rank 1 → 1.
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
    expect(percentile([1, 2, 3, 4], 25)).toBe(1);
    // n = 5: p50 → rank ceil(2.5) = 3.
    expect(percentile([10, 20, 30, 40, 50], 50)).toBe(30);
    // n = 100 (1..100): p99 → rank 99 → 99; p100 → 100.
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 50)).toBe(7);
  });

  it('refuses no samples and a p outside (0, 100], naming the value', () => {
    expect(() => percentile([], 50)).toThrow(/no samples/);
    expect(() => percentile([1], 0)).toThrow(/p 0 is outside/);
    expect(() => percentile([1], 101)).toThrow(/p 101 is outside/);
  });
});

describe('rolling per-shard latency', () => {
  it('keeps each shard’s newest samples, both sides of an answer counted, and summarises them in key order', () => {
    let h = recordTimings({}, [
      { name: 'alpha', ms: 4 },
      { name: 'bravo', ms: 10 },
    ]);
    h = recordTimings(h, [
      { name: 'alpha', ms: 2 },
      { name: 'alpha', ms: 8 },
    ]);
    h = recordTimings(h, [{ name: 'alpha', ms: 6 }]);
    expect(h).toEqual({ alpha: [4, 2, 8, 6], bravo: [10] });
    // alpha sorted [2, 4, 6, 8]: p50 = rank 2 = 4, p99 = rank 4 = 8. bravo: one sample.
    expect(shardLatencies(h, ['bravo', 'charlie', 'alpha'])).toEqual([
      { name: 'bravo', n: 1, p50: 10, p99: 10 },
      { name: 'alpha', n: 4, p50: 4, p99: 8 },
    ]);
  });

  it('drops the oldest samples beyond the window, and leaves the history it was given unchanged', () => {
    const before = recordTimings({}, [1, 2, 3].map((ms) => ({ name: 'a', ms })));
    const after = recordTimings(before, [{ name: 'a', ms: 100 }], 3);
    expect(after.a).toEqual([2, 3, 100]);
    expect(before.a).toEqual([1, 2, 3]);
    const full = recordTimings({}, Array.from({ length: LATENCY_WINDOW + 5 }, (_, i) => ({ name: 'a', ms: i })));
    expect(full.a.length).toBe(LATENCY_WINDOW);
    expect(full.a[0]).toBe(5);
  });

  it('skips times without a shard name or with a time that is not a finite non-negative number', () => {
    expect(recordTimings({}, [{ name: '', ms: 1 }, { name: 'a', ms: NaN }, { name: 'a', ms: -1 }, { name: 'a', ms: 3 }])).toEqual({ a: [3] });
  });
});
