import { describe, it, expect } from 'vitest';
import { searchWorkload } from './searchWorkload.ts';
import { expectedFanout, fanoutOf } from './expectedFanout.ts';
import { Router } from './router.ts';
import { KM_PER_MILE } from './cover.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { cellOrdinal, parseToken } from './cells.ts';
import { fileWithCuts, mulberry32, cityCells } from './testutil.ts';

describe('expectedFanout', () => {
  const cells = cityCells();

  it('equals a brute-force evaluation with full coverings and a linear shard lookup', () => {
    // Boundaries among the cities' own cells, so circles cross them.
    const rand = mulberry32(17);
    const cuts = Array.from({ length: 14 }, () => cells[Math.floor(rand() * cells.length)].ordinal);
    const file = fileWithCuts(cuts);
    const starts = file.boundaries.map((t) => cellOrdinal(parseToken(t)));
    const router = new Router(file);
    const workload = searchWorkload(cells, { seed: 4, centres: 30, radii: [{ km: 5 * KM_PER_MILE, weight: 2, label: '5mi' }, { km: 50 * KM_PER_MILE, weight: 1, label: '50mi' }] });
    const brute = workload.radii.map((r) => {
      const asked = workload.centres.map((c) => {
        const shards = new Set<number>();
        for (const id of regionCovererCells(c.lat, c.lng, r.km)) {
          const o = cellOrdinal(id);
          let i = 0;
          while (i < starts.length && starts[i] <= o) i++;
          shards.add(i);
        }
        return shards.size;
      });
      return { mean: asked.reduce((a, b) => a + b, 0) / asked.length, one: asked.filter((k) => k === 1).length / asked.length };
    });
    const f = expectedFanout(router, workload, 250);
    const mean = (2 / 3) * brute[0].mean + (1 / 3) * brute[1].mean;
    expect(f.meanShards).toBeCloseTo(mean, 12);
    expect(f.oneShardShare).toBeCloseTo((2 / 3) * brute[0].one + (1 / 3) * brute[1].one, 12);
    expect(f.byRadius.map((r) => r.meanShards)).toEqual(brute.map((b) => b.mean));
    expect(f.searches).toBe(60);
    expect(f.shardQueriesPerSecond).toBeCloseTo(250 * mean, 9);
    // The workload really exercises the boundaries: some searches ask more than one shard.
    expect(f.oneShardShare).toBeLessThan(1);
    expect(f.meanShards).toBeGreaterThan(1);
    expect(f.hash).toEqual({ meanShards: file.numberOfShards, oneShardShare: 0, shardQueriesPerSecond: 250 * file.numberOfShards });
  });

  it('is deterministic for a seed', () => {
    const router = new Router(fileWithCuts(cells.filter((_, i) => i % 25 === 0).map((c) => c.ordinal)));
    const a = expectedFanout(router, searchWorkload(cells, { seed: 8, centres: 40 }));
    const b = expectedFanout(router, searchWorkload(cells, { seed: 8, centres: 40 }));
    expect(a).toEqual(b);
  });

  it('asks exactly one shard for every search when there is one shard', () => {
    const f = fanoutOf(1, searchWorkload(cells, { centres: 10 }), () => 1, 100);
    expect(f).toMatchObject({ meanShards: 1, oneShardShare: 1, shardQueriesPerSecond: 100, hash: { meanShards: 1, oneShardShare: 1 } });
    expect(() => fanoutOf(1, searchWorkload(cells, { centres: 1 }), () => 1, -5)).toThrow(/qps -5 is invalid/);
  });
});
