import { describe, it, expect } from 'vitest';
import s2geometry from 's2-geometry';
import { parseAnyToken, level10Span, level10Parent, cellShards } from './anyCell.ts';
import { cellOrdinal, cellToken, CELL_COUNT } from './cells.ts';
import { Router } from './router.ts';
import { fileWithCuts, mulberry32, randomPoint } from './testutil.ts';

// s2-geometry, an independent implementation of S2 cell ids, is the oracle: its keys are
// "face/digits" (one Hilbert digit 0..3 per level), so a cell's level-10 descendants run from
// key+"00…" to key+"33…" and a finer cell's level-10 ancestor is its key cut to 10 digits.
const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
// s2-geometry's keys start at level 1: a level-0 key is "face/" and its id is S2's face cell, (2·face + 1) << 60.
const keyAt = (lat: number, lng: number, level: number) => (level === 0 ? `${S2.latLngToKey(lat, lng, 1).split('/')[0]}/` : S2.latLngToKey(lat, lng, level));
const idOfKey = (key: string) => (key.endsWith('/') ? BigInt(2 * Number(key.slice(0, -1)) + 1) << 60n : BigInt(S2.keyToId(key)));
const ordinalOfKey = (key: string) => cellOrdinal(idOfKey(key));

describe('parseAnyToken', () => {
  it('reads tokens of every level from 0 to 30 as s2-geometry writes them', () => {
    const rand = mulberry32(22);
    for (let level = 0; level <= 30; level++) {
      const { lat, lng } = randomPoint(rand);
      const key = keyAt(lat, lng, level);
      const token = cellToken(idOfKey(key));
      const c = parseAnyToken(token);
      expect(c.level, token).toBe(level);
      expect(c.id).toBe(idOfKey(key));
      expect(c.token).toBe(token);
    }
  });

  it('accepts upper case and trailing zeros, and gives the canonical token', () => {
    expect(parseAnyToken('89C25').token).toBe('89c25');
    expect(parseAnyToken('89c2500').token).toBe('89c25');
    expect(parseAnyToken('808581').level).toBe(10);
  });

  it('rejects what is not a cell, saying why', () => {
    expect(() => parseAnyToken('')).toThrow(/"" is not an S2 token: expected 1 to 16 hex digits/);
    expect(() => parseAnyToken('89c25g')).toThrow(/"89c25g" is not an S2 token/);
    expect(() => parseAnyToken('89c2589c2589c2589')).toThrow(/expected 1 to 16 hex digits/);
    expect(() => parseAnyToken('0')).toThrow(/all zeros/);
    expect(() => parseAnyToken('c')).toThrow(/cube face 6/);
    expect(() => parseAnyToken('fff1')).toThrow(/cube face 7/);
    expect(() => parseAnyToken('89c2')).toThrow(/last non-zero digit, "2", marks no level/);
    expect(() => parseAnyToken('89c8')).toThrow(/"8", marks no level/);
  });
});

describe('level10Span', () => {
  it('equals the run s2-geometry gives for cells of levels 0 to 30', () => {
    const rand = mulberry32(2210);
    for (let k = 0; k < 300; k++) {
      const level = k % 31;
      const { lat, lng } = randomPoint(rand);
      const key = keyAt(lat, lng, level);
      const [face, digits] = key.split('/');
      const expected = level <= 10 ? [ordinalOfKey(`${face}/${digits}${'0'.repeat(10 - level)}`), ordinalOfKey(`${face}/${digits}${'3'.repeat(10 - level)}`)] : [ordinalOfKey(`${face}/${digits.slice(0, 10)}`), ordinalOfKey(`${face}/${digits.slice(0, 10)}`)];
      expect(level10Span(idOfKey(key)), key).toEqual(expected);
      if (level >= 10) expect(cellOrdinal(level10Parent(idOfKey(key)))).toBe(expected[0]);
    }
  });

  it('spans a whole face at level 0 and one cell at level 10', () => {
    const face2 = parseAnyToken('5').id;
    expect(level10Span(face2)).toEqual([2 * 4 ** 10, 3 * 4 ** 10 - 1]);
    expect(level10Span(parseAnyToken('808581').id)).toEqual([ordinalOfKey(S2.latLngToKey(37.7749, -122.4194, 10)), ordinalOfKey(S2.latLngToKey(37.7749, -122.4194, 10))]);
    expect(() => level10Parent(face2)).toThrow(/level 0: it spans many level-10 cells/);
  });
});

describe('cellShards', () => {
  it('names every shard the span overlaps, with its share of the cells, as a cell-by-cell walk finds', () => {
    const rand = mulberry32(9);
    const cuts = Array.from({ length: 40 }, () => Math.floor(rand() * CELL_COUNT));
    const router = new Router(fileWithCuts(cuts));
    for (let k = 0; k < 60; k++) {
      const level = [0, 1, 2, 3, 4, 6, 8, 10, 14, 30][k % 10];
      const { lat, lng } = randomPoint(rand);
      const id = idOfKey(keyAt(lat, lng, level));
      const got = cellShards(router, id);
      // The walk: every level-10 ordinal of the span, one by one.
      const counts = new Map<number, number>();
      for (let o = got.first; o <= got.last; o++) {
        const i = router.indexOfOrdinal(o);
        counts.set(i, (counts.get(i) ?? 0) + 1);
      }
      expect(got.indices).toEqual([...counts.keys()]);
      expect(got.cells).toEqual([...counts.values()]);
      expect(got.shards.map((s) => s.name)).toEqual(got.indices.map((i) => router.shards[i].name));
    }
  });

  it('names one shard for a cell finer than level 10 and for a face that no cut crosses', () => {
    const router = new Router(fileWithCuts([4 ** 10, 3 * 4 ** 10 + 5]));
    expect(cellShards(router, parseAnyToken('808581').id).indices).toHaveLength(1);
    expect(cellShards(router, parseAnyToken('5').id)).toMatchObject({ indices: [1], cells: [4 ** 10] });
    // Face 3 is cut 5 cells in: both sides named, 5 cells on the first.
    expect(cellShards(router, parseAnyToken('7').id)).toMatchObject({ indices: [1, 2], cells: [5, 4 ** 10 - 5] });
  });
});
