import { describe, it, expect } from 'vitest';
import { diffBoundaries, evenness } from './diff.ts';
import { withMigration } from './plan.ts';
import { BoundaryFileError, withHash, type BoundaryFile } from './boundaries.ts';
import { cellFromOrdinal, cellToken, cellOrdinal, parseToken, CELL_COUNT } from './cells.ts';
import type { CellWeight } from './build.ts';
import { fileWithCuts, mulberry32 } from './testutil.ts';
import { shardForRouting } from './routingHash.ts';
import { NAME_POOL } from './names.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: tok(ordinal), ordinal, restaurants, dishes });

// Hand-checkable: shards [0,100) [100,200) [200,end); cells at 50, 120, 160, 250 holding 11, 22, 33, 44 documents (110 in all).
const cells = [cell(50, 1, 10), cell(120, 2, 20), cell(160, 3, 30), cell(250, 4, 40)];
const current = fileWithCuts([100, 200]);
const [s0, s1, s2] = current.shards.map((s) => s.name);

describe('evenness', () => {
  it('is 1, 0 and 0 for equal shards', () => {
    expect(evenness([5, 5, 5, 5])).toMatchObject({ heaviestOverMean: 1, cv: 0, gini: 0, mean: 5 });
  });

  it('matches the textbook definitions on one heavy shard of four', () => {
    // [0,0,0,4]: mean 1, heaviest/mean 4, population sd √3, Gini = Σ|xi−xj| / (2n²·mean) = 24 / 32.
    const e = evenness([0, 0, 0, 4]);
    expect(e.heaviestOverMean).toBe(4);
    expect(e.cv).toBeCloseTo(Math.sqrt(3), 12);
    expect(e.gini).toBeCloseTo(24 / 32, 12);
  });

  it('agrees with the pairwise Gini and the two-pass variance on random weights', () => {
    const rand = mulberry32(5);
    for (let t = 0; t < 20; t++) {
      const w = Array.from({ length: 2 + Math.floor(rand() * 30) }, () => Math.floor(rand() * 1000));
      const n = w.length;
      const mean = w.reduce((a, b) => a + b, 0) / n;
      let pairs = 0;
      for (const x of w) for (const y of w) pairs += Math.abs(x - y);
      const e = evenness(w);
      expect(e.gini).toBeCloseTo(pairs / (2 * n * n * mean), 12);
      expect(e.cv).toBeCloseTo(Math.sqrt(w.reduce((a, x) => a + (x - mean) ** 2, 0) / n) / mean, 12);
    }
  });

  it('rejects negative weights and an empty list', () => {
    expect(() => evenness([1, -1])).toThrow(/weights\[1\] -1 is invalid/);
    expect(() => evenness([])).toThrow(/weights is empty/);
  });
});

describe('diffBoundaries', () => {
  it('reports the one range that changes owner when a boundary moves, with hand-checked counts', () => {
    const candidate = fileWithCuts([150, 200]);
    const d = diffBoundaries(current, candidate, cells);
    expect(d.sameLayout).toBe(true);
    expect(d.reindex).toBeNull();
    expect(d.moves).toEqual([
      { from: s1, fromShard: 1, to: s0, toShard: 0, start: tok(100), end: tok(150), startOrdinal: 100, endOrdinal: 150, cells: 1, restaurants: 2, dishes: 20, share: 22 / 110, sameShard: false },
    ]);
    expect(d.totals).toEqual({ moves: 1, cells: 1, restaurants: 2, dishes: 20, documents: 22, share: 0.2 });
    expect(d.shards.map((s) => [s.name, s.before?.documents, s.after?.documents])).toEqual([
      [s0, 11, 33],
      [s1, 55, 33],
      [s2, 44, 44],
    ]);
    // Before: 11, 55, 44 (mean 110/3); after: 33, 33, 44.
    expect(d.evenness.before.heaviestOverMean).toBeCloseTo(55 / (110 / 3), 12);
    expect(d.evenness.after.heaviestOverMean).toBeCloseTo(44 / (110 / 3), 12);
    expect(d.evenness.before.gini).toBeCloseTo(176 / 660, 12);
  });

  it('writes a range that reaches the end of the curve with end null', () => {
    const d = diffBoundaries(current, fileWithCuts([100, 240]), cells);
    expect(d.moves).toEqual([expect.objectContaining({ from: s2, to: s1, start: tok(200), end: tok(240), restaurants: 0, dishes: 0 })]);
    const e = diffBoundaries(fileWithCuts([100, 200, 300]), fileWithCuts([100, 200, 260]), cells);
    expect(e.moves).toEqual([expect.objectContaining({ start: tok(260), end: tok(300) })]);
    const last = diffBoundaries(fileWithCuts([100]), fileWithCuts([200]), cells);
    expect(last.moves[0]).toMatchObject({ start: tok(100), end: tok(200), startOrdinal: 100, endOrdinal: 200 });
    const tail = diffBoundaries(fileWithCuts([1000, 5000]), fileWithCuts([1000, 4000]), cells);
    expect(tail.moves[0]).toMatchObject({ endOrdinal: 5000 });
    const toEnd = diffBoundaries(fileWithCuts([10]), fileWithCuts([10, CELL_COUNT - 1]), cells);
    expect(toEnd.reindex).toMatch(/numberOfShards changes \(2 → 3\)/);
    expect(toEnd.moves.at(-1)).toMatchObject({ end: null, endOrdinal: CELL_COUNT });
  });

  it('reports no change for a file diffed with itself', () => {
    const d = diffBoundaries(current, current, cells);
    expect(d.moves).toEqual([]);
    expect(d.totals).toEqual({ moves: 0, cells: 0, restaurants: 0, dishes: 0, documents: 0, share: 0 });
    expect(d.evenness.before).toEqual(d.evenness.after);
  });

  it('moves exactly the documents whose owner name changes: totals equal the per-cell sums', () => {
    const rand = mulberry32(21);
    for (let t = 0; t < 25; t++) {
      const ords = [...new Set(Array.from({ length: 400 }, () => Math.floor(rand() * CELL_COUNT)))].sort((a, b) => a - b);
      const cs = ords.map((o) => cell(o, Math.floor(rand() * 5), Math.floor(rand() * 80)));
      const cutsOf = (k: number) => Array.from({ length: k }, () => ords[Math.floor(rand() * ords.length)]);
      const a = fileWithCuts(cutsOf(6 + Math.floor(rand() * 4)));
      // Same shard count half the time (names then match shard for shard), another count otherwise.
      const b = fileWithCuts(rand() < 0.5 ? cutsOf(a.numberOfShards - 1) : cutsOf(3 + Math.floor(rand() * 10)));
      // Independent owner lookup: a linear scan of the boundary tokens parsed afresh.
      const owner = (f: BoundaryFile, o: number) => {
        let i = 0;
        while (i < f.boundaries.length && cellOrdinal(parseToken(f.boundaries[i])) <= o) i++;
        return f.shards[i].name;
      };
      const d = diffBoundaries(a, b, cs);
      let restaurants = 0;
      let dishes = 0;
      for (const c of cs) {
        const from = owner(a, c.ordinal);
        const to = owner(b, c.ordinal);
        const inMoves = d.moves.filter((m) => c.ordinal >= m.startOrdinal && c.ordinal < m.endOrdinal);
        if (from === to) expect(inMoves).toEqual([]);
        else {
          expect(inMoves).toHaveLength(1);
          expect(inMoves[0]).toMatchObject({ from, to });
          restaurants += c.restaurants;
          dishes += c.dishes;
        }
      }
      expect(d.totals.restaurants).toBe(restaurants);
      expect(d.totals.dishes).toBe(dishes);
      const all = cs.reduce((s, c) => s + c.restaurants + c.dishes, 0);
      expect(d.totals.share).toBeCloseTo((restaurants + dishes) / all, 12);
      // Each move's counts are the sums over its own cells, and moves are maximal.
      for (const m of d.moves) {
        const inside = cs.filter((c) => c.ordinal >= m.startOrdinal && c.ordinal < m.endOrdinal);
        expect(m.restaurants).toBe(inside.reduce((s, c) => s + c.restaurants, 0));
        expect(m.dishes).toBe(inside.reduce((s, c) => s + c.dishes, 0));
        expect(owner(a, m.startOrdinal)).toBe(m.from);
        expect(owner(b, m.endOrdinal - 1)).toBe(m.to);
      }
      for (let k = 1; k < d.moves.length; k++) {
        const p = d.moves[k - 1];
        const q = d.moves[k];
        expect(q.startOrdinal).toBeGreaterThanOrEqual(p.endOrdinal);
        if (q.startOrdinal === p.endOrdinal) expect([q.from, q.to]).not.toEqual([p.from, p.to]);
      }
      // Per-shard weights add up to everything, in both files.
      expect(d.shards.reduce((s, x) => s + (x.before?.documents ?? 0), 0)).toBe(all);
      expect(d.shards.reduce((s, x) => s + (x.after?.documents ?? 0), 0)).toBe(all);
    }
  });

  it('says a different shard count needs a new index, and pairs shards by range overlap on request', () => {
    // Split [100,200) at 150: by range, s1 stays paired with its heavier half [150,200) (33 documents)
    // and the only change is the lighter [100,150) (22 documents) going to the other half.
    const a = fileWithCuts([100, 200]);
    const b = fileWithCuts([100, 150, 200]);
    const byName = diffBoundaries(a, b, cells);
    expect(byName.sameLayout).toBe(false);
    expect(byName.reindex).toMatch(/numberOfShards changes \(3 → 4\).*every document \(100%\) is written again/);
    const byRange = diffBoundaries(a, b, cells, { match: 'range' });
    expect(byRange.match).toBe('range');
    expect(byRange.moves).toEqual([expect.objectContaining({ from: s1, to: b.shards[1].name, startOrdinal: 100, endOrdinal: 150, restaurants: 2, dishes: 20 })]);
    expect(diffBoundaries(a, a, cells, { match: 'range' }).moves).toEqual([]);
  });

  it('flags a name change that keeps the OpenSearch shard as a rename, not a move of documents', () => {
    // Give shard 1 of the candidate another name that routes to the same shard number.
    const names = current.shards.map((s) => s.name);
    const other = NAME_POOL.find((w) => !names.includes(w) && shardForRouting(w, 3) === 1)!;
    const { hash: _h, ...rest } = current;
    const renamed = withHash({ ...rest, shards: current.shards.map((s, i) => (i === 1 ? { ...s, name: other } : s)) });
    const d = diffBoundaries(current, renamed, cells);
    expect(d.moves).toEqual([expect.objectContaining({ from: s1, to: other, startOrdinal: 100, endOrdinal: 200, sameShard: true })]);
  });

  it('diffs a file with moves in progress by its read owners', () => {
    const m = withMigration(current, { epoch: 1, target: 'f'.repeat(64), moves: [{ start: tok(100), end: tok(150), from: s1, to: s0, phase: 'switched' }] });
    expect(diffBoundaries(m, fileWithCuts([150, 200]), cells).moves).toEqual([]);
    expect(diffBoundaries(current, m, cells).moves).toEqual([expect.objectContaining({ from: s1, to: s0, startOrdinal: 100, endOrdinal: 150 })]);
    expect(diffBoundaries(current, m, cells).candidate.movesInProgress).toBe(1);
  });

  it('rejects an invalid candidate with the validator messages', () => {
    const bad = { ...fileWithCuts([150, 200]), boundaries: [tok(200), tok(150)] };
    expect(() => diffBoundaries(current, bad, cells)).toThrow(BoundaryFileError);
    expect(() => diffBoundaries(current, bad, cells)).toThrow(/candidate boundary file is invalid.*\n.*boundaries\[1\]: ".*" is not after boundaries\[0\]/);
  });
});

