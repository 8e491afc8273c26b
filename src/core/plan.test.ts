import { describe, it, expect } from 'vitest';
import { plan, stepFile, withMigration } from './plan.ts';
import { Router } from './router.ts';
import { validateBoundaryFile, withHash } from './boundaries.ts';
import { NAME_POOL } from './names.ts';
import { shardForRouting } from './routingHash.ts';
import { cellFromOrdinal, cellToken, CELL_COUNT } from './cells.ts';
import type { CellWeight } from './build.ts';
import { fileWithCuts } from './testutil.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: tok(ordinal), ordinal, restaurants, dishes });
const cells = [cell(50, 1, 10), cell(120, 2, 20), cell(160, 3, 30), cell(250, 4, 40)];

// [0,100) [100,200) [200,end) → [0,150) [150,250) [250,end): [100,150) goes s1 → s0, [200,250) goes s2 → s1.
const current = fileWithCuts([100, 200]);
const candidate = { ...fileWithCuts([150, 250]), version: 2 };
const cand = withHash({ ...candidate, hash: undefined as never, parent: current.hash });
const [s0, s1, s2] = current.shards.map((s) => s.name);

describe('plan', () => {
  it('moves each range through dual writes, copy, verify, switch, stop and delete, then publishes the candidate', () => {
    const p = plan(current, cand, cells);
    expect(p.kind).toBe('in-place');
    expect(p.moves.map((m) => [m.from, m.to, m.startOrdinal, m.endOrdinal, m.restaurants, m.dishes])).toEqual([
      [s1, s0, 100, 150, 2, 20],
      [s2, s1, 200, 250, 0, 0],
    ]);
    expect(p.totals).toEqual({ restaurants: 2, dishes: 20, documents: 22, share: 0.2 });
    const perMove = ['dual-write', 'copy', 'verify', 'switch', 'stop-dual-write', 'delete'];
    expect(p.steps.map((s) => s.action)).toEqual([...perMove, ...perMove, 'publish']);
    expect(p.steps.map((s) => s.step)).toEqual(p.steps.map((_, i) => i + 1));
    // Every published file has the next epoch; the delete step keeps the epoch in force.
    expect(p.steps.map((s) => s.epoch)).toEqual([1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 10, 11]);
    expect(p.steps.map((s) => s.publishes)).toEqual([true, true, true, true, true, false, true, true, true, true, true, false, true]);
    expect(p.steps.map((s) => s.migration?.moves.map((m) => m.phase).join('+') ?? null)).toEqual([
      'dual-write',
      'copying',
      'verified',
      'switched',
      'done',
      'done',
      'done+dual-write',
      'done+copying',
      'done+verified',
      'done+switched',
      'done+done',
      'done+done',
      null,
    ]);
    for (const s of p.steps) {
      expect(s.title.length).toBeGreaterThan(0);
      expect(s.searches).toMatch(/Searches/);
      if (s.migration) expect(s.migration).toMatchObject({ epoch: s.epoch, base: current.hash, target: cand.hash });
    }
    expect(p.steps[3].title).toMatch(/Switch reads .* to .* \(epoch 4\)/);
    expect(p.steps[0].searches).toMatch(new RegExp(`from the old owner \\(${s1}\\) only`));
    expect(p.steps[3].searches).toMatch(new RegExp(`from the new owner \\(${s0}\\)`));
  });

  it('produces a valid boundary file at every step, whose router behaves as the step says', () => {
    const p = plan(current, cand, cells);
    const final = new Router(cand);
    for (const s of p.steps) {
      const f = stepFile(current, cand, s);
      expect(validateBoundaryFile(f), `step ${s.step}`).toEqual([]);
      const r = new Router(f);
      const names = (xs: number[]) => xs.map((i) => r.shards[i].name);
      const m1 = s.migration?.moves[0];
      // Ordinal 120 lies in move 1: written to both owners between dual-write and switched, read from the old owner until the switch.
      if (s.file === 'intermediate' && m1) {
        const both = ['dual-write', 'copying', 'verified', 'switched'].includes(m1.phase);
        expect(names(r.writeIndicesOfOrdinal(120)), `step ${s.step}`).toEqual(both ? [s1, s0] : [s0]);
        expect(r.shards[r.readIndexOfOrdinal(120)].name, `step ${s.step}`).toBe(['switched', 'done'].includes(m1.phase) ? s0 : s1);
      }
      // Outside the moves nothing changes at any step.
      expect(names(r.writeIndicesOfOrdinal(50))).toEqual([s0]);
      expect(names(r.writeIndicesOfOrdinal(170))).toEqual([s1]);
      expect(names(r.writeIndicesOfOrdinal(300))).toEqual([s2]);
    }
    // The last intermediate file reads and writes exactly like the candidate.
    const last = new Router(stepFile(current, cand, p.steps[p.steps.length - 2]));
    expect(last.readRanges()).toEqual(final.readRanges());
    for (const o of [0, 99, 100, 149, 150, 199, 200, 249, 250, CELL_COUNT - 1]) expect(last.writeIndicesOfOrdinal(o)).toEqual([final.indexOfOrdinal(o)]);
    expect(stepFile(current, cand, p.steps[p.steps.length - 1])).toBe(cand);
  });

  it('moves all ranges through each phase at once with together', () => {
    const p = plan(current, cand, cells, { together: true });
    expect(p.steps.map((s) => s.action)).toEqual(['dual-write', 'copy', 'verify', 'switch', 'stop-dual-write', 'delete', 'publish']);
    expect(p.steps[0].moves).toEqual([1, 2]);
    expect(p.steps[3].migration!.moves.map((m) => m.phase)).toEqual(['switched', 'switched']);
  });

  it('plans nothing for a file and itself, and only a publish when routing is unchanged', () => {
    expect(plan(current, current, cells)).toMatchObject({ kind: 'none', moves: [], steps: [], totals: { documents: 0 } });
    const later = withHash({ ...current, hash: undefined as never, version: 2, parent: current.hash });
    const p = plan(current, later, cells);
    expect(p.kind).toBe('none');
    expect(p.steps.map((s) => s.action)).toEqual(['publish']);
  });

  it('treats a shard renamed to a name of the same OpenSearch shard as a rename, not a move', () => {
    const other = NAME_POOL.find((w) => !current.shards.some((s) => s.name === w) && shardForRouting(w, 3) === 1)!;
    const renamed = withHash({ ...current, hash: undefined as never, shards: current.shards.map((s, i) => (i === 1 ? { ...s, name: other } : s)) });
    const p = plan(current, renamed, cells);
    expect(p).toMatchObject({ kind: 'none', moves: [], renames: [{ shard: 1, from: s1, to: other }] });
    expect(p.steps.map((s) => s.action)).toEqual(['publish']);
    // Combined with a real move, the intermediate files use the current name and the candidate applies the rename.
    const both = withHash({ ...cand, hash: undefined as never, shards: cand.shards.map((s, i) => (i === 1 ? { ...s, name: other } : s)) });
    const q = plan(current, both, cells);
    expect(q.moves.map((m) => [m.from, m.to, m.candidateTo])).toEqual([
      [s1, s0, s0],
      [s2, s1, other],
    ]);
    for (const s of q.steps) expect(validateBoundaryFile(stepFile(current, both, s))).toEqual([]);
  });

  it('plans a reindex into a new index when the shard count changes', () => {
    const bigger = fileWithCuts([100, 150, 200]);
    const p = plan(current, bigger, cells);
    expect(p.kind).toBe('reindex');
    expect(p.reindex).toMatch(/numberOfShards changes \(3 → 4\)/);
    expect(p.totals).toEqual({ restaurants: 10, dishes: 100, documents: 110, share: 1 });
    expect(p.steps.map((s) => s.action)).toEqual(['create-index', 'dual-write', 'copy', 'verify', 'switch', 'stop-dual-write', 'delete']);
    expect(p.steps.map((s) => s.epoch)).toEqual([0, 1, 1, 1, 2, 3, 3]);
    expect(p.steps.map((s) => s.file)).toEqual(['current', 'current', 'current', 'current', 'candidate', 'candidate', 'candidate']);
    expect(p.steps[0].detail).toMatch(/number_of_shards 4/);
  });

  it('refuses to plan from a file with moves in progress', () => {
    const m = withMigration(current, { epoch: 3, target: cand.hash, moves: [{ start: tok(100), end: tok(150), from: s1, to: s0, phase: 'copying' }] });
    expect(() => plan(m, cand, cells)).toThrow(/current boundary file has 1 move\(s\) in progress \(migration epoch 3\)/);
    expect(() => plan(current, m, cells)).toThrow(/candidate boundary file has a migration field/);
  });
});
