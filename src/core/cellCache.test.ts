import { describe, it, expect } from 'vitest';
import { simulateCellCache } from './cellCache.ts';
import type { WorkloadSearch } from './workload.ts';

const at = (time: number | null, weight = 1): WorkloadSearch => ({ lat: 0, lng: 0, radius: { value: 1, unit: 'km', km: 1 }, weight, time });

describe('simulateCellCache', () => {
  // Trace (time order): [1, 2], [2, 3], [1], [3]. Worked by hand:
  //   size 1: miss miss | hit miss | miss | miss            → 1 hit of 6, no search all-hit
  //   size 2: miss miss | hit miss (evicts 1) | miss (evicts 2) | hit → 2 of 6, 1 of 4 all-hit
  //   size 3: miss miss | hit miss | hit | hit              → 3 of 6, 2 of 4 all-hit
  const coverings = [Int32Array.of(1, 2), Int32Array.of(2, 3), Int32Array.of(1), Int32Array.of(3)];

  it('gives the hand-worked LRU hit rates on a tiny trace', () => {
    const r = simulateCellCache([at(1), at(2), at(3), at(4)], coverings, [1, 2, 3]);
    expect(r.order).toBe('time');
    expect(r.runs.map((x) => [x.size, x.hits, x.lookups, x.fullHits])).toEqual([
      [1, 1, 6, 0],
      [2, 2, 6, 1],
      [3, 3, 6, 2],
    ]);
    expect(r.runs[1].hitRate).toBeCloseTo(1 / 3, 12);
    expect(r.runs[2].fullHitShare).toBe(0.5);
  });

  it('replays in time order, not file order', () => {
    // The same trace written backwards with its timestamps.
    const r = simulateCellCache([at(4), at(3), at(2), at(1)], [...coverings].reverse(), [2]);
    expect(r.runs[0].hits).toBe(2);
  });

  it('keeps file order when a search has no timestamp', () => {
    const r = simulateCellCache([at(4), at(null), at(2), at(1)], coverings, [2]);
    expect(r.order).toBe('file');
    expect(r.runs[0].hits).toBe(2);
  });

  it('scales a lookup by its search weight and ranks the hot cells', () => {
    // The last search weighs 2: at size 2 hits are 1 (cell 2) + 2 (cell 3) of 7 lookups.
    const r = simulateCellCache([at(1), at(2), at(3), at(4, 2)], coverings, [2], 2);
    expect([r.runs[0].hits, r.runs[0].lookups]).toEqual([3, 7]);
    expect(r.hot).toEqual([
      { ordinal: 3, lookups: 3, hits: [2] },
      { ordinal: 1, lookups: 2, hits: [0] },
    ]);
  });

  it('rejects a size that is not a whole number of cells', () => {
    expect(() => simulateCellCache([at(1)], [Int32Array.of(1)], [0])).toThrow('sizes[0] 0 is invalid');
  });
});
