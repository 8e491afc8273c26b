import { describe, it, expect } from 'vitest';
import { loadDiff, HOTTEST_SHARDS } from './loadDiff.ts';
import { Router } from './router.ts';
import { cellToken, cellFromOrdinal } from './cells.ts';
import { fileWithCuts } from './testutil.ts';
import type { CellWeight } from './build.ts';
import type { WorkloadSearch } from './workload.ts';

const search = (weight: number): WorkloadSearch => ({ lat: 0, lng: 0, radius: { value: 1, unit: 'km', km: 1 }, weight, time: null });
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: cellToken(cellFromOrdinal(ordinal)), ordinal, restaurants, dishes });

// Hand-worked, on made-up coverings: A (weight 1) covers 10, 11, 12; B (weight 2) 11, 12, 13; C (weight 4) 20.
// Rates: 10 → 1, 11 → 3, 12 → 3, 13 → 2, 20 → 4. Documents: 10 → 5, 11 → 1, 12 → 0, 13 → 10, 20 → 7.
// Loads (rate × documents): 10 → 5, 11 → 3, 13 → 20, 20 → 28; all load 56.
const w = { searches: [search(1), search(2), search(4)], coverings: [Int32Array.of(10, 11, 12), Int32Array.of(11, 12, 13), Int32Array.of(20)] };
const cells = [cell(10, 1, 4), cell(11, 1, 0), cell(13, 2, 8), cell(20, 3, 4)];
// Current: [.., 12) | [12, ..): loads 5 + 3 = 8 and 20 + 28 = 48, mean 28.
const current = new Router(fileWithCuts([12]));
// Candidate: [.., 11) | [11, 14) | [14, ..): loads 5, 3 + 20 = 23, 28, mean 56/3.
const candidate = new Router(fileWithCuts([11, 14]));

describe('loadDiff', () => {
  it("gives each shard name its load and share of all load in each file, with null where a file lacks the name", () => {
    const d = loadDiff(w, current, candidate, cells);
    const before = new Map(current.shards.map((s, i) => [s.name, [8, 48][i]]));
    const after = new Map(candidate.shards.map((s, i) => [s.name, [5, 23, 28][i]]));
    const names = [...current.shards.map((s) => s.name), ...candidate.shards.map((s) => s.name).filter((n) => !before.has(n))];
    expect(d.shards.map((s) => s.name)).toEqual(names);
    for (const s of d.shards) {
      const b = before.get(s.name);
      const a = after.get(s.name);
      expect(s.before).toEqual(b === undefined ? null : { load: b, share: b / 56 });
      expect(s.after).toEqual(a === undefined ? null : { load: a, share: a / 56 });
    }
  });

  it('lists the hottest shards of each file with their multiple of that file’s mean load', () => {
    const d = loadDiff(w, current, candidate, cells);
    expect(d.hottest.before.map((h) => [h.name, h.load])).toEqual([
      [current.shards[1].name, 48],
      [current.shards[0].name, 8],
    ]);
    expect(d.hottest.before[0].overMean).toBeCloseTo(48 / 28, 12);
    expect(d.hottest.after.map((h) => [h.name, h.load])).toEqual([
      [candidate.shards[2].name, 28],
      [candidate.shards[1].name, 23],
      [candidate.shards[0].name, 5],
    ]);
    expect(d.hottest.after.map((h) => h.overMean)).toEqual([28, 23, 5].map((x) => expect.closeTo(x / (56 / 3), 12)));
    expect(d.hottest.after.length).toBeLessThanOrEqual(HOTTEST_SHARDS);
    expect(d.evenness.before.heaviestOverMean).toBeCloseTo(48 / 28, 12);
    expect(d.evenness.after.heaviestOverMean).toBeCloseTo(28 / (56 / 3), 12);
  });

  it('weighs the shards each search asks in both files over the same searches', () => {
    const d = loadDiff(w, current, candidate, cells);
    expect(d).toMatchObject({ searches: 3, weight: 7 });
    // Current: A asks 2 (10, 11 | 12), B 2 (11 | 12, 13), C 1: mean (2 + 4 + 4) / 7, one shard 4/7.
    expect(d.fanout.current.meanShards).toBeCloseTo(10 / 7, 12);
    expect(d.fanout.current.oneShardShare).toBeCloseTo(4 / 7, 12);
    // Candidate: A asks 2 (10 | 11, 12), B 1 (11, 12, 13), C 1: mean (2 + 2 + 4) / 7, one shard 6/7.
    expect(d.fanout.candidate.meanShards).toBeCloseTo(8 / 7, 12);
    expect(d.fanout.candidate.oneShardShare).toBeCloseTo(6 / 7, 12);
  });

  it('uses the cell loads it is given instead of recomputing them, and refuses loads of another length', () => {
    const d = loadDiff(w, current, candidate, cells, [0, 0, 0, 2]);
    expect(d.shards.find((s) => s.name === current.shards[1].name)!.before).toEqual({ load: 2, share: 1 });
    expect(() => loadDiff(w, current, candidate, cells, [1, 2])).toThrow('values has 2 entries for 4 cells');
  });
});
