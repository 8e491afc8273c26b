import { it, expect } from 'vitest';
import { fastPathCases } from './testutil.ts';

// Half of the >= 1,000-circle check (the other half is in router.fastpath-b.test.ts, so the two run in parallel).
it('gives the identical shard set on the fast path as the fixed-level RegionCoverer covering (520 seeded circles, seed 42)', () => {
  const multi = fastPathCases(42, 520, (slow, fast, label) => expect(fast, label).toEqual(slow));
  expect(multi).toBeGreaterThan(150); // boundaries really cross the circles
}, 300_000);
