import { describe, it, expect } from 'vitest';
import { splitShard, mergeShards } from './edit.ts';
import { validateBoundaryFile } from './boundaries.ts';
import { diffBoundaries } from './diff.ts';
import { shardForRouting } from './routingHash.ts';
import { cellFromOrdinal, cellToken, cellOrdinal, parseToken, CELL_COUNT } from './cells.ts';
import type { CellWeight } from './build.ts';
import { fileWithCuts, mulberry32 } from './testutil.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: tok(ordinal), ordinal, restaurants, dishes });
const T = '2026-12-01T00:00:00.000Z';

// Shard s1 = [100, 200) holds cells of 10, 10, 10 and 30 documents: its weighted median cut is before the 30.
const cells = [cell(50, 1, 4), cell(110, 1, 9), cell(120, 2, 8), cell(130, 3, 7), cell(140, 5, 25), cell(250, 2, 5)];
const file = fileWithCuts([100, 200]);
const [s0, s1, s2] = file.shards.map((s) => s.name);

describe('splitShard', () => {
  it('cuts a shard at its weighted median into a new valid file with one more shard', () => {
    const r = splitShard(file, cells, s1, { createdAt: T });
    expect(r.at).toBe(tok(140));
    expect(validateBoundaryFile(r.file)).toEqual([]);
    expect(r.file).toMatchObject({ numberOfShards: 4, version: 2, parent: file.hash, createdAt: T, boundaries: [tok(100), tok(140), tok(200)] });
    expect(r.file.migration).toBeUndefined();
    // 30 | 30: a tie, so the left half keeps the name.
    expect(r.left).toEqual({ name: s1, restaurants: 6, dishes: 24 });
    expect(r.right).toMatchObject({ restaurants: 5, dishes: 25 });
    expect(file.shards.map((s) => s.name)).not.toContain(r.right.name);
    expect(r.file.shards.map((s) => (s.restaurants ?? 0) + (s.dishes ?? 0))).toEqual([5, 30, 30, 7]);
    expect(r.consequence).toMatch(/numberOfShards changes 3 → 4: .*reindexing every document/);
    expect(r.shardsBefore).toBe(3);
    expect(r.shardsAfter).toBe(4);
  });

  it('keeps every name that still routes to a free shard, so the diff by name is the edit itself when none collide', () => {
    const r = splitShard(file, cells, s1, { createdAt: T });
    for (const s of r.file.shards) expect(shardForRouting(s.name, 4)).toBe(s.shard);
    const kept = file.shards.filter((s) => !r.renamed.some((x) => x.from === s.name)).map((s) => s.name);
    for (const name of kept) expect(r.file.shards.map((s) => s.name)).toContain(name);
    // A renamed name collides with a kept one under the new count.
    for (const x of r.renamed) expect(r.file.shards.map((s) => s.shard)).toContain(shardForRouting(x.from, 4));
    const d = diffBoundaries(file, r.file, cells);
    const movedByName = d.moves.filter((m) => !r.renamed.some((x) => x.from === m.from));
    expect(movedByName).toEqual([expect.objectContaining({ from: s1, to: r.right.name, startOrdinal: 140, endOrdinal: 200 })]);
  });

  it('makes the heavier half as light as possible (brute force over every cut)', () => {
    const rand = mulberry32(12);
    for (let t = 0; t < 30; t++) {
      const ords = [...new Set(Array.from({ length: 60 }, () => 1 + Math.floor(rand() * 100_000)))].sort((a, b) => a - b);
      const cs = ords.map((o) => cell(o, Math.floor(rand() * 3), Math.floor(rand() * 50)));
      const f = fileWithCuts([ords[10], ords[40]]);
      const name = f.shards[1].name;
      const inShard = cs.slice(10, 40);
      const w = inShard.map((c) => c.restaurants + c.dishes);
      const total = w.reduce((a, b) => a + b, 0);
      let best = Infinity;
      for (let j = 1; j < w.length; j++) {
        const left = w.slice(0, j).reduce((a, b) => a + b, 0);
        best = Math.min(best, Math.max(left, total - left));
      }
      const r = splitShard(f, cs, name);
      const halves = [r.left, r.right].map((h) => h.restaurants + h.dishes);
      expect(Math.max(...halves)).toBe(best);
      expect(halves[0] + halves[1]).toBe(total);
      expect(validateBoundaryFile(r.file)).toEqual([]);
    }
  });

  it('rejects an unknown shard and a shard with fewer than two non-empty cells', () => {
    expect(() => splitShard(file, cells, 'nobody')).toThrow(/shard "nobody" is not in the file: expected one of/);
    expect(() => splitShard(file, cells, s0)).toThrow(new RegExp(`shard "${s0}" holds 1 non-empty cell\\(s\\): a split needs at least two`));
  });
});

describe('mergeShards', () => {
  it('merges two neighbours into one shard named after the heavier', () => {
    const r = mergeShards(file, cells, s2, s1, { createdAt: T });
    expect(validateBoundaryFile(r.file)).toEqual([]);
    expect(r.removed).toBe(tok(200));
    expect(r.file).toMatchObject({ numberOfShards: 2, version: 2, parent: file.hash, boundaries: [tok(100)] });
    // s1 holds 60 documents, s2 holds 7; the merged shard is the heaviest, so its name never yields to a collision.
    expect(r.name).toBe(s1);
    expect(r.restaurants + r.dishes).toBe(67);
    expect(r.consequence).toMatch(/numberOfShards changes 3 → 2/);
    for (const s of r.file.shards) expect(shardForRouting(s.name, 2)).toBe(s.shard);
  });

  it('rejects shards that are not neighbours, the same shard twice, and unknown names', () => {
    expect(() => mergeShards(file, cells, s0, s2)).toThrow(new RegExp(`"${s0}" \\(key-order position 0\\) and "${s2}" \\(position 2\\) are not neighbours`));
    expect(() => mergeShards(file, cells, s1, s1)).toThrow(/are the same shard/);
    expect(() => mergeShards(file, cells, s1, 'x')).toThrow(/shard "x" is not in the file/);
  });

  it('undoes a split: merging the two halves gives the original ranges', () => {
    const split = splitShard(file, cells, s1, { createdAt: T });
    const merged = mergeShards(split.file, cells, split.left.name, split.right.name, { createdAt: T });
    expect(merged.file.boundaries).toEqual(file.boundaries);
    expect(merged.file.parent).toBe(split.file.hash);
    expect(merged.file.version).toBe(3);
    const starts = [0, ...merged.file.boundaries.map((t) => cellOrdinal(parseToken(t))), CELL_COUNT];
    expect(starts).toEqual([0, 100, 200, CELL_COUNT]);
  });
});
