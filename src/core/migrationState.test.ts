import { describe, it, expect } from 'vitest';
import { Router } from './router.ts';
import { withHash } from './boundaries.ts';
import { cellFromOrdinal, cellToken } from './cells.ts';
import {
  MOVE_STEPS,
  advance,
  intermediateFile,
  nextAction,
  parseMigrationState,
  startState,
  withCopied,
  withCutover,
  MigrationStateError,
  type MigrationState,
  type MoveStep,
} from './migrationState.ts';
import type { PlanMove } from './plan.ts';
import { fileWithCuts } from './testutil.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const NOW = '2026-12-01T00:00:00.000Z';

// Three shards: s0 [0, 1000), s1 [1000, 2000), s2 [2000, end). The candidate moves the cut at 2000 to 1500
// and the cut at 1000 to 800, so [800, 1000) goes s0 → s1 and [1500, 2000) goes s1 → s2.
const base = fileWithCuts([1000, 2000]);
const [s0, s1, s2] = base.shards.map((s) => s.name);
const { hash: _h, ...baseRest } = base;
const candidate = withHash({ ...baseRest, version: 2, parent: base.hash, boundaries: [tok(800), tok(1500)] });
const planMove = (n: number, from: string, to: string, start: number, end: number): PlanMove =>
  ({ n, from, to, start: tok(start), end: tok(end), startOrdinal: start, endOrdinal: end, fromShard: 0, toShard: 0, candidateTo: to, cells: end - start, restaurants: 0, dishes: 0, share: 0 });
const moves = [planMove(1, s0, s1, 800, 1000), planMove(2, s1, s2, 1500, 2000)];
const fresh = (): MigrationState => startState(base, candidate, moves, NOW);

/** Takes move k to `step` through every step before it, as the executor would. */
function at(k: number, step: MoveStep, s = fresh()): MigrationState {
  for (let i = 0; i < k; i++) s = at(i, 'done', s);
  while (s.moves[k].step !== step) {
    const next = MOVE_STEPS[MOVE_STEPS.indexOf(s.moves[k].step) + 1];
    s = advance(s, k, next, NOW, next === 'verified' ? { verified: { from: { restaurants: 1, dishes: 2 }, to: { restaurants: 1, dishes: 2 } } } : {});
  }
  return s;
}

describe('the executor’s next action', () => {
  it('takes the ranges one at a time through dual writes, copy, verify, switch, stop dual writes and delete, then finishes', () => {
    // The order of the issue: dual writes on, copy (then verify), switch reads with a new epoch,
    // dual writes off, delete from the old owner; waits before the copy and before the delete.
    const expected = [
      'publish 0 dual-write wait',
      'publish 0 copying',
      'copy 0',
      'publish 0 switched wait',
      'publish 0 deleting',
      'delete 0',
      'publish 1 dual-write wait',
      'publish 1 copying',
      'copy 1',
      'publish 1 switched wait',
      'publish 1 deleting',
      'delete 1',
      'finish',
    ];
    const seen: string[] = [];
    let s = fresh();
    for (let guard = 0; guard < 20; guard++) {
      const a = nextAction(s);
      if (a.kind === 'finish') {
        seen.push('finish');
        break;
      }
      if (a.kind === 'publish') {
        seen.push(`publish ${a.move} ${a.to}${a.wait ? ' wait' : ''}`);
        s = advance(s, a.move, a.to, NOW);
      } else if (a.kind === 'copy') {
        seen.push(`copy ${a.move}`);
        s = advance(s, a.move, 'verified', NOW, { verified: { from: { restaurants: 3, dishes: 9 }, to: { restaurants: 3, dishes: 9 } } });
      } else {
        seen.push(`delete ${a.move}`);
        s = advance(s, a.move, 'done', NOW);
      }
    }
    expect(seen).toEqual(expected);
    // Every publish is a new epoch: 6 per range.
    expect(s.epoch).toBe(12);
  });

  it('resumes from the stored state alone: the same action comes back until the state moves on', () => {
    const s = at(0, 'copying');
    expect(nextAction(s)).toEqual({ kind: 'copy', move: 0 });
    // Copy progress is recorded without a new epoch and does not change what comes next.
    const progressed = withCopied(s, 0, { restaurants: 5, dishes: 40 }, NOW);
    expect(progressed.epoch).toBe(s.epoch);
    expect(nextAction(progressed)).toEqual({ kind: 'copy', move: 0 });
    expect(nextAction(at(0, 'verified'))).toEqual({ kind: 'publish', move: 0, to: 'switched', wait: true });
    expect(nextAction(at(1, 'deleting'))).toEqual({ kind: 'delete', move: 1 });
  });

  it('refuses to skip or repeat a step', () => {
    expect(() => advance(fresh(), 0, 'copying', NOW)).toThrow(/move 0 \[[0-9a-f]+, [0-9a-f]+\) is at step "pending"; its next step is "dual-write", not "copying"/);
    expect(() => advance(at(0, 'done'), 0, 'done', NOW)).toThrow(/its next step is none \(done\)/);
  });
});

describe('routing while a range moves', () => {
  // Where copies of a document in a moving range exist at each step (from the order, not the code):
  // before dual writes only the old owner has it; during the copy the new owner may have some; from
  // verified until the delete both have it; after the delete only the new owner.
  const copiesAt: Record<MoveStep, ('from' | 'to')[][]> = {
    pending: [['from']],
    'dual-write': [['from'], ['from', 'to']],
    copying: [['from'], ['from', 'to']],
    verified: [['from', 'to']],
    switched: [['from', 'to']],
    deleting: [['from', 'to'], ['to']],
    done: [['to']],
  };

  it('reads every document exactly once at every step, routed or on all shards, with the read exclusions', () => {
    for (const step of MOVE_STEPS) {
      const s = at(1, step);
      const r = new Router(intermediateFile(base, s));
      const ex = r.readExclusions();
      const m = { fromIndex: 1, toIndex: 2 };
      for (const ordinal of [1499, 1500, 1700, 1999, 2000]) {
        const inMove = ordinal >= 1500 && ordinal < 2000;
        const storages = inMove ? copiesAt[step] : [[ordinal < 1000 ? 's0' : ordinal < 2000 ? 'from' : 'to'] as const];
        for (const storage of storages) {
          const owners = storage.map((o) => (o === 'from' ? m.fromIndex : o === 'to' ? m.toIndex : 0));
          const visible = (asked: Set<number>) =>
            owners.filter((i) => asked.has(i) && !ex.some((e) => ordinal >= e.startOrdinal && ordinal < e.endOrdinal && e.routing === r.shards[i].name)).length;
          const routed = new Set([r.readIndexOfOrdinal(ordinal)]);
          const all = new Set([0, 1, 2]);
          expect(visible(routed), `${step} ordinal ${ordinal} routed, copies on ${storage}`).toBe(1);
          expect(visible(all), `${step} ordinal ${ordinal} all shards, copies on ${storage}`).toBe(1);
        }
      }
    }
  });

  it('writes a document of the moving range to both owners from dual writes until the switch, then to the new owner only', () => {
    const expected: Record<MoveStep, string[]> = {
      pending: [s1],
      'dual-write': [s1, s2],
      copying: [s1, s2],
      verified: [s1, s2],
      switched: [s1, s2],
      deleting: [s2],
      done: [s2],
    };
    for (const step of MOVE_STEPS) {
      const r = new Router(intermediateFile(base, at(1, step)));
      expect(r.writeIndicesOfOrdinal(1700).map((i) => r.shards[i].name), step).toEqual(expected[step]);
      // Outside the range nothing changes.
      expect(r.writeIndicesOfOrdinal(1400).map((i) => r.shards[i].name), step).toEqual([s1]);
    }
  });

  it('routes with the settled file itself while no range has started', () => {
    expect(intermediateFile(base, fresh())).toBe(base);
  });
});

describe('parseMigrationState', () => {
  const stored = (s: MigrationState) => JSON.parse(JSON.stringify(s));

  it('accepts a state as stored in _meta (JSON round trip) at every step', () => {
    for (const step of MOVE_STEPS) expect(parseMigrationState(stored(at(0, step)), base)).toEqual(at(0, step));
  });

  it('refuses a bad state with one line per problem naming the field, the value and what is valid', () => {
    const s = stored(at(0, 'copying'));
    s.epoch = -1;
    s.moves[0].step = 'copied';
    s.moves[1].to = 'nobody';
    s.moves[0].copied.dishes = 1.5;
    s.extra = true;
    let e: MigrationStateError | undefined;
    try {
      parseMigrationState(s, base);
    } catch (x) {
      e = x as MigrationStateError;
    }
    expect(e).toBeInstanceOf(MigrationStateError);
    expect(e!.problems).toEqual(
      expect.arrayContaining([
        'migration.epoch: -1 is invalid: expected an integer >= 0 (+1 on every publish)',
        expect.stringMatching(/^migration\.moves\[0\]\.step: "copied" is not a step: expected one of "pending", "dual-write", "copying"/),
        expect.stringMatching(/^migration\.moves\[1\]\.to: "nobody" is not a shard name of the settled file/),
        'migration.moves[0].copied.dishes: 1.5 is not an integer >= 0',
        expect.stringMatching(/^migration\.extra: unknown field/),
      ]),
    );
  });

  it('refuses a state that belongs to another settled file or names a target file with another hash', () => {
    const other = fileWithCuts([1000, 3000]);
    expect(() => parseMigrationState(stored(fresh()), other)).toThrow(/migration\.base: "[0-9a-f]{64}" is not the hash of the index's settled boundary file/);
    const s = stored(fresh());
    s.target = 'a'.repeat(64);
    expect(() => parseMigrationState(s, base)).toThrow(/migration\.targetFile: has hash [0-9a-f]{64}, not migration\.target "a{64}"/);
  });

  it('refuses a second range started before the first is done, and a range outside its old owner', () => {
    const s = stored(at(0, 'switched'));
    s.moves[1].step = 'dual-write';
    expect(() => parseMigrationState(s, base)).toThrow(/migration\.moves\[1\]\.step: "dual-write" while migration\.moves\[0\] is not done/);
    const t = stored(fresh());
    t.moves[0].from = s1; // [800, 1000) belongs to s0
    expect(() => parseMigrationState(t, base)).toThrow(/is not inside the range of its from shard/);
  });

  it('keeps the documents a switch left to bring over (cutover.pending), and refuses a malformed list naming what is valid', () => {
    const s = withCutover(at(0, 'switched'), 0, { blockedAt: null, windowsMs: [300], checkpoint: { from: 10, to: 4 }, pending: [{ id: 'w1', seqNo: -1, term: 0 }, { id: 's7', seqNo: 12, term: 1 }] }, NOW);
    expect(parseMigrationState(stored(s), base)).toEqual(s);
    for (const bad of [[{ id: '', seqNo: 1, term: 1 }], [{ id: 'a', seqNo: -2, term: 1 }], [{ id: 'a', seqNo: 1, term: 1.5 }], [{ id: 'a', seqNo: 1, term: 1, extra: 1 }], 'w1']) {
      const t = stored(s);
      t.moves[0].cutover.pending = bad;
      expect(() => parseMigrationState(t, base)).toThrow(/migration\.moves\[0\]\.cutover\.pending: .* is not an array of \{ id, seqNo, term \} \(a non-empty id, seqNo an integer >= -1, term an integer >= 0\)/);
    }
  });

  it('refuses verified counts missing past the copy', () => {
    const s = stored(at(0, 'switched'));
    s.moves[0].verified = null;
    expect(() => parseMigrationState(s, base)).toThrow(/migration\.moves\[0\]\.verified: is null at step "switched"/);
  });
});
