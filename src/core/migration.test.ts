import { describe, it, expect } from 'vitest';
import { Router } from './router.ts';
import { validateBoundaryFile, formatBoundaryFile, withHash, type BoundaryFile } from './boundaries.ts';
import { parseBoundaryFile } from './boundaryText.ts';
import { MIGRATION_PHASES, type MigrationMove, type MigrationPhase } from './migration.ts';
import { withMigration } from './plan.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { cellOrdinal, cellFromOrdinal, cellToken, tokenAt, CELL_COUNT } from './cells.ts';
import { fileWithCuts, mulberry32, randomPoint } from './testutil.ts';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const TARGET = 'f'.repeat(64);

// Three shards: s0 [0, 1000), s1 [1000, 2000), s2 [2000, end). The move takes [1500, 2000) from s1 to s2.
const base = fileWithCuts([1000, 2000]);
const [s0, s1, s2] = base.shards.map((s) => s.name);
const move = (phase: MigrationPhase, extra: Partial<MigrationMove> = {}): MigrationMove => ({ start: tok(1500), end: tok(2000), from: s1, to: s2, phase, ...extra });
const migrating = (moves: MigrationMove[], epoch = 1): BoundaryFile => withMigration(base, { epoch, target: TARGET, moves });

/** Rewrites a file's migration (or any field) and re-hashes it, as a hand edit followed by `geoshard hash --write` would. */
const edited = (f: BoundaryFile, patch: Record<string, unknown>): unknown => {
  const { hash: _h, ...rest } = f;
  return withHash({ ...rest, ...patch } as never);
};

describe('boundary files with moves in progress', () => {
  it('keeps files without a migration field valid, and accepts one in every phase', () => {
    expect(validateBoundaryFile(base)).toEqual([]);
    for (const phase of MIGRATION_PHASES) expect(validateBoundaryFile(migrating([move(phase)])), phase).toEqual([]);
    // A move that reaches the end of the curve is written with end null.
    expect(validateBoundaryFile(migrating([{ start: tok(3000), end: null, from: s2, to: s0, phase: 'copying' }]))).toEqual([]);
  });

  it('round-trips through the on-disk format, one line per move', () => {
    const f = migrating([{ start: tok(100), end: tok(200), from: s0, to: s1, phase: 'copying' }, move('switched')]);
    const text = formatBoundaryFile(f);
    expect(parseBoundaryFile(text)).toEqual(f);
    expect(text).toContain(`{ "start": "${tok(1500)}", "end": "${tok(2000)}", "from": "${s1}", "to": "${s2}", "phase": "switched" }`);
  });

  it('rejects a bad migration with errors naming the field, the value and what would be valid', () => {
    const m = migrating([move('copying')]).migration!;
    const errorsOf = (migration: unknown) => validateBoundaryFile(edited(base, { migration })).map((e) => e.message);
    expect(errorsOf({ ...m, epoch: 0 })).toEqual([expect.stringMatching(/^migration\.epoch: 0 is invalid: expected a positive integer/)]);
    expect(errorsOf({ ...m, target: 'abc' })).toEqual([expect.stringMatching(/^migration\.target: "abc" is not a sha256/)]);
    expect(errorsOf({ ...m, target: base.hash })).toEqual([expect.stringMatching(/^migration\.target: .* is the base file itself/)]);
    expect(errorsOf({ ...m, moves: [] })).toEqual([expect.stringMatching(/^migration\.moves: \[\] is not a non-empty array/)]);
    expect(errorsOf({ ...m, moves: [move('moving' as MigrationPhase)] })).toEqual([expect.stringMatching(/^migration\.moves\[0\]\.phase: "moving" is not a phase: expected one of "dual-write", "copying"/)]);
    expect(errorsOf({ ...m, moves: [move('copying', { to: 'nobody' })] })).toEqual([expect.stringMatching(/^migration\.moves\[0\]\.to: "nobody" is not the name of a shard of this file/)]);
    expect(errorsOf({ ...m, moves: [move('copying', { to: s1 })] })).toEqual([expect.stringMatching(/^migration\.moves\[0\]\.to: ".*" is also the move's from/)]);
    expect(errorsOf({ ...m, moves: [move('copying', { end: tok(1400) })] })).toEqual([expect.stringMatching(/^migration\.moves\[0\]\.end: .* is not after start/)]);
    expect(errorsOf({ ...m, moves: [move('copying', { start: 'zz' })] })).toEqual([expect.stringMatching(/^migration\.moves\[0\]\.start: "zz" is not an S2 token/)]);
    expect(errorsOf({ ...m, moves: [move('copying', { end: tok(2500) })] })).toEqual([expect.stringMatching(/^migration\.moves\[0\]: .* is not inside the range of its from shard/)]);
    expect(errorsOf({ ...m, moves: [move('copying'), move('done', { start: tok(1600), end: tok(1700) })] })).toEqual([
      expect.stringMatching(/^migration\.moves\[1\]\.start: .* is before the end of migration\.moves\[0\]: moves must ascend in key order and not overlap/),
    ]);
    expect(errorsOf('soon')).toEqual([expect.stringMatching(/^migration: "soon" is not an object/)]);
  });

  it('rejects boundaries edited during a migration (base no longer matches the file)', () => {
    const f = migrating([move('copying')]);
    const errors = validateBoundaryFile(edited(f, { boundaries: [tok(900), tok(2000)] }));
    expect(errors.map((e) => e.field)).toEqual(['migration.base']);
    expect(errors[0].message).toMatch(/is not the hash of this file without its migration field/);
  });
});

describe('Router during a move', () => {
  // The routing each phase must give (migration.ts's table): [write owners], read owner, ignored copy.
  const expected: Record<MigrationPhase, { writes: string[]; reads: string; ignores: string }> = {
    'dual-write': { writes: [s1, s2], reads: s1, ignores: s2 },
    copying: { writes: [s1, s2], reads: s1, ignores: s2 },
    verified: { writes: [s1, s2], reads: s1, ignores: s2 },
    switched: { writes: [s1, s2], reads: s2, ignores: s1 },
    done: { writes: [s2], reads: s2, ignores: s1 },
  };

  it('writes a document in a moving range to both owners and reads it from one, the old owner until the switch', () => {
    for (const phase of MIGRATION_PHASES) {
      const r = new Router(migrating([move(phase)]));
      for (const o of [1500, 1777, 1999]) {
        expect(r.writeIndicesOfOrdinal(o).map((i) => r.shards[i].name), `${phase} writes ${o}`).toEqual(expected[phase].writes);
        expect(r.shards[r.readIndexOfOrdinal(o)].name, `${phase} reads ${o}`).toBe(expected[phase].reads);
        // The boundaries themselves do not change until the candidate is published.
        expect(r.indexOfOrdinal(o)).toBe(1);
      }
      // Outside the move nothing changes: one owner, the boundaries' one.
      for (const [o, name] of [[999, s0], [1000, s1], [1499, s1], [2000, s2], [CELL_COUNT - 1, s2]] as const) {
        expect(r.writeIndicesOfOrdinal(o).map((i) => r.shards[i].name)).toEqual([name]);
        expect(r.shards[r.readIndexOfOrdinal(o)].name).toBe(name);
      }
      expect(r.readExclusions()).toEqual([{ startOrdinal: 1500, endOrdinal: 2000, start: tok(1500), end: tok(2000), routing: expected[phase].ignores }]);
    }
  });

  it('routes points with writeShards and readShard the same way as ordinals', () => {
    const sf = cellOrdinal(BigInt('0x8085810000000000'));
    const f0 = fileWithCuts([sf - 5, sf + 5]);
    const b = f0.shards[1];
    const f = withMigration(f0, { epoch: 2, target: TARGET, moves: [{ start: tok(sf - 5), end: tok(sf + 5), from: b.name, to: f0.shards[2].name, phase: 'switched' }] });
    const r = new Router(f);
    expect(r.route(37.7749, -122.4194).name).toBe(b.name);
    expect(r.writeShards(37.7749, -122.4194).map((s) => s.name)).toEqual([b.name, f0.shards[2].name]);
    expect(r.readShard(37.7749, -122.4194).name).toBe(f0.shards[2].name);
    expect(r.cover(37.7749, -122.4194, 1).routing).toBe(f0.shards[2].name);
  });

  it('lists the read layout as maximal runs covering the curve', () => {
    const r = new Router(migrating([{ start: tok(100), end: tok(200), from: s0, to: s2, phase: 'switched' }, move('done')]));
    expect(r.readRanges()).toEqual([
      { start: 0, end: 100, index: 0 },
      { start: 100, end: 200, index: 2 },
      { start: 200, end: 1000, index: 0 },
      { start: 1000, end: 1500, index: 1 },
      { start: 1500, end: CELL_COUNT, index: 2 },
    ]);
    expect(new Router(base).readRanges()).toEqual([
      { start: 0, end: 1000, index: 0 },
      { start: 1000, end: 2000, index: 1 },
      { start: 2000, end: CELL_COUNT, index: 2 },
    ]);
  });

  it('reads every document from exactly one copy at every phase of a simulated move', () => {
    // Shards as sets of document copies: `${id}@${ordinal}`. Documents in and around the moving range.
    const stores = base.shards.map(() => new Map<string, number>());
    const docs = new Map<string, number>();
    let next = 0;
    const write = (r: Router, ordinal: number) => {
      const id = `d${next++}`;
      docs.set(id, ordinal);
      for (const i of r.writeIndicesOfOrdinal(ordinal)) stores[i].set(id, ordinal);
    };
    const before = new Router(base);
    for (let o = 1400; o < 2100; o += 7) write(before, o);
    const check = (r: Router, label: string) => {
      const ex = r.readExclusions();
      const ignored = (shard: number, ordinal: number) => ex.some((e) => ordinal >= e.startOrdinal && ordinal < e.endOrdinal && r.shards[shard].name === e.routing);
      // A search asking every shard: each document once.
      const seen = new Map<string, number>();
      stores.forEach((store, shard) => {
        for (const [id, o] of store) if (!ignored(shard, o)) seen.set(id, (seen.get(id) ?? 0) + 1);
      });
      for (const id of docs.keys()) expect(seen.get(id), `${label}: ${id}`).toBe(1);
      // A routed lookup: the read owner holds the document.
      for (const [id, o] of docs) expect(stores[r.readIndexOfOrdinal(o)].has(id), `${label}: ${id} at its read owner`).toBe(true);
    };
    check(before, 'before');
    for (const phase of MIGRATION_PHASES) {
      const r = new Router(migrating([move(phase)]));
      check(r, `${phase}, before its work`);
      for (let o = 1403; o < 2100; o += 11) write(r, o);
      if (phase === 'copying') for (const [id, o] of stores[1]) if (o >= 1500 && o < 2000 && !stores[2].has(id)) stores[2].set(id, o);
      if (phase === 'done') for (const [id, o] of [...stores[1]]) if (o >= 1500 && o < 2000) stores[1].delete(id);
      check(r, `${phase}, after its work`);
    }
  });

  it('resolves circles to read owners: the fast path equals the full covering and an independent lookup', () => {
    const rand = mulberry32(7);
    for (let t = 0; t < 60; t++) {
      const { lat, lng } = randomPoint(rand);
      const km = 5 + rand() * 120;
      const centre = cellOrdinal(BigInt('0x' + tokenAt(lat, lng).padEnd(16, '0')));
      // Boundaries and moves around the centre, so both cross the circle.
      const spread = Math.ceil(km * km * 0.3) + 10;
      const cuts = [...new Set(Array.from({ length: 6 }, () => Math.min(CELL_COUNT - 1, Math.max(1, centre + Math.round((rand() - 0.5) * 2 * spread)))))].sort((a, b) => a - b);
      const f0 = fileWithCuts(cuts);
      const starts = [0, ...cuts, CELL_COUNT];
      const moves: MigrationMove[] = [];
      for (let i = 0; i < f0.numberOfShards; i++) {
        const lo = starts[i];
        const hi = starts[i + 1];
        if (hi - lo < 4 || rand() < 0.3) continue;
        const a = lo + Math.floor(rand() * ((hi - lo) / 2));
        const b = a + 1 + Math.floor(rand() * (hi - a - 1));
        const to = (i + 1 + Math.floor(rand() * (f0.numberOfShards - 1))) % f0.numberOfShards;
        moves.push({ start: tok(a), end: b >= CELL_COUNT ? null : tok(b), from: f0.shards[i].name, to: f0.shards[to].name, phase: MIGRATION_PHASES[Math.floor(rand() * 5)] });
      }
      if (moves.length === 0) continue;
      const r = new Router(withMigration(f0, { epoch: 1, target: TARGET, moves }));
      // Independent read owner: a linear scan of the moves (read from `to` once switched), else of the cuts.
      const readOwner = (o: number) => {
        const m = moves.find((mv) => o >= cellOrdinal(BigInt('0x' + mv.start.padEnd(16, '0'))) && (mv.end === null || o < cellOrdinal(BigInt('0x' + mv.end.padEnd(16, '0')))));
        if (m && (m.phase === 'switched' || m.phase === 'done')) return m.to;
        if (m) return m.from;
        let i = 0;
        while (i < cuts.length && cuts[i] <= o) i++;
        return f0.shards[i].name;
      };
      const want = [...new Set(regionCovererCells(lat, lng, km).map((c) => readOwner(cellOrdinal(c))))].sort();
      const slow = r.cover(lat, lng, km);
      const fast = r.shardsAsked(lat, lng, km).map((i) => r.shards[i].name);
      expect(slow.shards.map((s) => s.name).sort(), `circle ${lat},${lng} r=${km}`).toEqual(want);
      expect(fast.sort(), `circle ${lat},${lng} r=${km}`).toEqual(want);
      expect(r.routingString(r.shardsAsked(lat, lng, km))).toBe(slow.routing);
    }
  });
});
