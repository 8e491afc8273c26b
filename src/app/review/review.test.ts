import { describe, it, expect } from 'vitest';
import { candidateUrl } from '../shell/url';
import {
  readCandidate,
  lowerBound,
  boundaryChoices,
  snapBoundary,
  nudgeBoundary,
  withStarts,
  childOf,
  moveAt,
  movesTexels,
  searchUnderBoth,
  evennessRows,
  cellsFromColumns,
  savedFileName,
  candidateColors,
} from './review';
import { shardColor } from '../shell/palette';
import { Router, diffBoundaries, validateBoundaryFile, formatBoundaryFile, cellFromOrdinal, cellToken, CELL_COUNT, type CellWeight } from '../../core/index';
import { CellSums } from '../../core/cellSums';
import { fileWithCuts } from '../../core/testutil';
import { computeHash } from '../../core/boundaries';

const tok = (o: number) => cellToken(cellFromOrdinal(o));
const cell = (ordinal: number, restaurants: number, dishes: number): CellWeight => ({ token: tok(ordinal), ordinal, restaurants, dishes });

// Shards [0,100) [100,200) [200,end); non-empty cells at 50, 120, 160, 180, 250 (documents 11, 22, 33, 5, 44).
const cells = [cell(50, 1, 10), cell(120, 2, 20), cell(160, 3, 30), cell(180, 1, 4), cell(250, 4, 40)];
const ordinals = cells.map((c) => c.ordinal);
const sums = new CellSums(cells);
const current = fileWithCuts([100, 200]);
const starts = [0, 100, 200, CELL_COUNT];

describe('readCandidate', () => {
  it('accepts a valid file and returns its router', () => {
    const r = readCandidate(formatBoundaryFile(current), 'candidate.json');
    expect(r.ok).toBe(true);
    if (r.ok) expect(Array.from(r.router.starts)).toEqual(starts);
  });

  it('lists every validator problem, each naming the field and its value', () => {
    const bad = { ...current, numberOfShards: 0, boundaries: ['zz', current.boundaries[1]] };
    const r = readCandidate(JSON.stringify(bad), 'bad.json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.title).toBe('bad.json is not a valid boundary file');
    expect(r.problems).toContain('numberOfShards: 0 is invalid: expected an integer in [1, 1024]');
    expect(r.problems.some((p) => p.startsWith('boundaries[0]:') && p.includes('zz'))).toBe(true);
    expect(r.problems.some((p) => p.startsWith('hash:'))).toBe(true);
  });

  it('names the JSON syntax error of a file that is not JSON', () => {
    const r = readCandidate('{"format": ', 'x.json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]).toMatch(/^\(file\): not JSON: /);
  });
});

describe('candidateUrl', () => {
  it('reads a path or an http(s) URL from the query string and nothing otherwise', () => {
    expect(candidateUrl('?candidate=/tmp/c.json')).toBe('/tmp/c.json');
    expect(candidateUrl('?candidate=https%3A%2F%2Fexample.org%2Fc.json')).toBe('https://example.org/c.json');
    expect(candidateUrl('?lat=1')).toBeNull();
  });

  it('rejects a value that is neither, naming it', () => {
    expect(() => candidateUrl('?candidate=javascript:alert(1)')).toThrow('candidate=javascript:alert(1) is not a URL');
    expect(() => candidateUrl('?candidate=//evil.org/x')).toThrow(/candidate=\/\/evil.org\/x is not a path on this server: it resolves to http:\/\/evil.org\/x/);
  });

  it('judges a path by the origin it resolves to, as the browser fetches it (issue 10)', () => {
    const origin = 'http://127.0.0.1:5173';
    // A backslash after the first slash makes the browser read a host: another origin.
    expect(() => candidateUrl(`?candidate=${encodeURIComponent('/\\127.0.0.1:5399/x.json')}`, origin)).toThrow(/resolves to http:\/\/127.0.0.1:5399\/x.json; to open a file from another host, name it as a full http\(s\) URL/);
    expect(() => candidateUrl(`?candidate=${encodeURIComponent('/\\/evil/x.json')}`, origin)).toThrow(/resolves to http:\/\/evil\/x.json/);
    expect(candidateUrl('?candidate=/proposals/next.json', origin)).toBe('/proposals/next.json');
    // A host named plainly is allowed: the review panel says where the file came from.
    expect(candidateUrl('?candidate=http%3A%2F%2F127.0.0.1%3A5399%2Fx.json', origin)).toBe('http://127.0.0.1:5399/x.json');
    expect(() => candidateUrl(`?candidate=${encodeURIComponent('http://\\evil/x.json')}`, origin)).toThrow(/is not a URL/);
  });
});

describe('boundary editing', () => {
  it('finds the first value at or after x', () => {
    expect(lowerBound(ordinals, 120)).toBe(1);
    expect(lowerBound(ordinals, 121)).toBe(2);
    expect(lowerBound(ordinals, 999)).toBe(5);
  });

  it('lets a boundary sit on any non-empty cell that leaves both neighbours a non-empty cell', () => {
    // Boundary 1 (at 100): the left shard keeps cell 50 (position 0), the right shard must keep a cell before 200 → positions 1..3.
    expect(boundaryChoices(ordinals, starts, 1)).toEqual([1, 3]);
    // Boundary 2 (at 200): the left shard keeps cell 120 → positions 2..4 (cell 250 is the last).
    expect(boundaryChoices(ordinals, starts, 2)).toEqual([2, 4]);
    expect(() => boundaryChoices(ordinals, starts, 0)).toThrow(/boundary 0 is invalid/);
  });

  it('snaps a dragged boundary to the nearest non-empty cell within its neighbours', () => {
    expect(snapBoundary(ordinals, starts, 1, 135)).toBe(120);
    expect(snapBoundary(ordinals, starts, 1, 145)).toBe(160);
    expect(snapBoundary(ordinals, starts, 1, 10)).toBe(120); // cell 50 must stay with shard 0
    expect(snapBoundary(ordinals, starts, 1, 1e6)).toBe(180); // cell 250 is past the next boundary
  });

  it('nudges a boundary one non-empty cell at a time and stops at the neighbours', () => {
    const at = [0, 120, 200, CELL_COUNT];
    expect(nudgeBoundary(ordinals, at, 1, 1)).toBe(160);
    expect(nudgeBoundary(ordinals, at, 1, 2)).toBe(180);
    expect(nudgeBoundary(ordinals, at, 1, 9)).toBe(180);
    expect(nudgeBoundary(ordinals, at, 1, -1)).toBe(120); // cell 50 is the left shard's only cell
    // A boundary on an empty cell (100) moving right first lands on the next non-empty cell.
    expect(nudgeBoundary(ordinals, starts, 1, 1)).toBe(120);
    expect(nudgeBoundary(ordinals, starts, 1, 2)).toBe(160);
    expect(nudgeBoundary(ordinals, starts, 2, -1)).toBe(180);
  });

  it('rewrites a file with new starts: tokens, recounted shards, a valid new hash and the same names', () => {
    const edited = withStarts(current, [0, 160, 200, CELL_COUNT], sums);
    expect(validateBoundaryFile(edited)).toEqual([]);
    expect(edited.boundaries).toEqual([tok(160), tok(200)]);
    expect(edited.shards.map((s) => s.name)).toEqual(current.shards.map((s) => s.name));
    // Shard 0 now holds cells 50 and 120: 3 restaurants, 30 dishes; shard 1 holds 160 and 180.
    expect(edited.shards.map((s) => [s.restaurants, s.dishes])).toEqual([
      [3, 30],
      [4, 34],
      [4, 40],
    ]);
    expect(edited.hash).toBe(computeHash(edited));
    const d = diffBoundaries(current, edited, cells);
    expect(d.totals.documents).toBe(22);
  });

  it('refuses starts that would leave a range empty or change the shard count', () => {
    expect(() => withStarts(current, [0, 200, 200, CELL_COUNT], sums)).toThrow('starts[2] 200 is not after starts[1] 200');
    expect(() => withStarts(current, [0, 200, CELL_COUNT], sums)).toThrow(/expected 4 from 0/);
  });
});

describe('childOf', () => {
  it('makes the edited file the next version of the current one, parented by its hash, valid', () => {
    const edited = withStarts(current, [0, 160, 200, CELL_COUNT], sums);
    const { file, problems } = childOf(current, edited, sums, '2026-12-01T00:00:00.000Z', { method: 'test' });
    expect(problems).toEqual([]);
    expect(file.version).toBe(current.version + 1);
    expect(file.parent).toBe(current.hash);
    expect(file.createdAt).toBe('2026-12-01T00:00:00.000Z');
    expect(file.balance).toEqual({ method: 'test' });
    expect(file.hash).toBe(computeHash(file));
    expect(file.boundaries).toEqual(edited.boundaries);
  });
});

describe('moves on the globe and the ribbon', () => {
  const moves = [
    { startOrdinal: 10, endOrdinal: 20 },
    { startOrdinal: 20, endOrdinal: 25 },
    { startOrdinal: 40, endOrdinal: 41 },
  ];
  it('finds the move holding an ordinal, with ends exclusive', () => {
    expect(moveAt(moves, 9)).toBeNull();
    expect(moveAt(moves, 10)).toBe(moves[0]);
    expect(moveAt(moves, 20)).toBe(moves[1]);
    expect(moveAt(moves, 25)).toBeNull();
    expect(moveAt(moves, 40)).toBe(moves[2]);
    expect(moveAt([], 40)).toBeNull();
  });

  it('packs starts in row 0 and ends in row 1 of the shader texture, with an empty range when nothing moves', () => {
    expect(movesTexels(moves)).toEqual({ width: 3, data: new Float32Array([10, 20, 40, 20, 25, 41]) });
    expect(movesTexels([])).toEqual({ width: 1, data: new Float32Array([CELL_COUNT, CELL_COUNT]) });
  });
});

describe('searchUnderBoth', () => {
  it('resolves a covering to the shards asked under each file', () => {
    const a = new Router(current);
    const b = new Router(withStarts(current, [0, 160, 200, CELL_COUNT], sums));
    const r = searchUnderBoth(Int32Array.from([120, 130, 150]), a, b);
    const [n0, n1] = current.shards.map((s) => s.name);
    expect(r.cells).toBe(3);
    expect(r.before).toEqual({ indices: [1], names: [n1], routing: n1 });
    expect(r.after).toEqual({ indices: [0], names: [n0], routing: n0 });
    expect(r.dropped).toEqual([n1]);
    expect(r.added).toEqual([n0]);
  });

  it('asks every shard of each file for a search with no location', () => {
    const a = new Router(current);
    const b = new Router(fileWithCuts([100, 200, 300]));
    const r = searchUnderBoth(null, a, b);
    expect(r.all).toBe(true);
    expect(r.before.indices).toEqual([0, 1, 2]);
    expect(r.after.indices).toEqual([0, 1, 2, 3]);
    expect(r.after.routing).toBe(b.allShardsRouting());
  });
});

describe('evennessRows', () => {
  it('divides each side by its own mean and leaves missing sides null', () => {
    const rows = evennessRows(
      [
        { name: 'a', before: { documents: 30 }, after: { documents: 10 } },
        { name: 'b', before: { documents: 10 }, after: null },
      ],
      20,
      10,
    );
    expect(rows).toEqual([
      { name: 'a', before: 1.5, after: 1 },
      { name: 'b', before: 0.5, after: null },
    ]);
  });
});

describe('small helpers', () => {
  it('rebuilds cells from the worker columns', () => {
    const c = cellsFromColumns({ tokens: cells.map((x) => x.token).join(','), ordinals: Int32Array.from(ordinals), restaurants: Float64Array.from(cells, (x) => x.restaurants), dishes: Float64Array.from(cells, (x) => x.dishes) });
    expect(c).toEqual(cells);
  });

  it('names a saved file after its version and hash', () => {
    expect(savedFileName({ ...current, version: 7 })).toBe(`boundaries-v7-${current.hash.slice(0, 12)}.json`);
  });
});

describe('candidateColors', () => {
  it('keeps the color of every name the current file has and gives new names the palette colors after the current ones', () => {
    const cur = [shardColor(0), shardColor(1), shardColor(2)];
    expect(candidateColors(['a', 'b', 'c'], cur, ['b', 'x', 'c', 'y'])).toEqual([shardColor(1), shardColor(3), shardColor(2), shardColor(4)]);
  });
});
