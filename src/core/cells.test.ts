import { describe, it, expect } from 'vitest';
import s2geometry from 's2-geometry';
import { tokenAt, cellAt, cellToken, parseToken, isLevel10Token, cellOrdinal, cellFromOrdinal, ordinalRange, CELL_COUNT, cellCenter, cellFace } from './cells.ts';
import { mulberry32, randomPoint } from './testutil.ts';

// s2-geometry is an independent JavaScript implementation of S2's cell ids (it has no
// region coverer); it is the oracle for point → level-10 cell id.
const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const oracleToken = (lat: number, lng: number) => cellToken(BigInt(S2.keyToId(S2.latLngToKey(lat, lng, 10))));

describe('cells', () => {
  it('puts downtown San Francisco in level-10 cell 808581 (the article, and s2-geometry)', () => {
    expect(tokenAt(37.7749, -122.4194)).toBe('808581');
    expect(oracleToken(37.7749, -122.4194)).toBe('808581');
  });

  it('agrees with s2-geometry on 10,000 seeded random points', () => {
    const rand = mulberry32(20261130);
    const mismatches: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const { lat, lng } = randomPoint(rand);
      const ours = tokenAt(lat, lng);
      const theirs = oracleToken(lat, lng);
      if (ours !== theirs) mismatches.push(`${lat},${lng}: ${ours} vs ${theirs}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('agrees with s2-geometry on points near cube-face edges and poles', () => {
    const pts = [
      [0, 45], [0, -45], [0, 135], [0, -135], [35.26, 45], [-35.26, 45], [89.999, 10], [-89.999, -170], [90, 0], [-90, 0], [0, 180], [0, -180], [45, 179.9999], [45, -179.9999],
    ];
    for (const [lat, lng] of pts) expect(tokenAt(lat, lng), `${lat},${lng}`).toBe(oracleToken(lat, lng));
  });

  it('orders ordinals exactly like cell ids and round-trips them', () => {
    const rand = mulberry32(7);
    const ids = Array.from({ length: 2000 }, () => {
      const p = randomPoint(rand);
      return cellAt(p.lat, p.lng);
    });
    const byId = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const byOrd = [...ids].sort((a, b) => cellOrdinal(a) - cellOrdinal(b));
    expect(byOrd).toEqual(byId);
    for (const id of ids) {
      expect(cellFromOrdinal(cellOrdinal(id))).toBe(id);
      const o = cellOrdinal(id);
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(CELL_COUNT);
      expect(Math.floor(o / 4 ** 10)).toBe(cellFace(id));
    }
  });

  it('gives the ordinal range of a coarse cell as the run of its level-10 descendants', () => {
    const id = parseToken('808581');
    expect(ordinalRange(id)).toEqual([cellOrdinal(id), cellOrdinal(id)]);
    const face4 = 4n << 61n | (1n << 60n);
    expect(ordinalRange(face4)).toEqual([4 * 4 ** 10, 5 * 4 ** 10 - 1]);
  });

  it('finds a cell centre inside the same cell', () => {
    const c = cellCenter(parseToken('89c25b'));
    expect(tokenAt(c.lat, c.lng)).toBe('89c25b');
  });

  it('rejects tokens that are not canonical level-10 tokens, naming the token', () => {
    expect(() => parseToken('8085')).toThrow(/"8085" is a level-6 cell: expected a level-10 token/);
    expect(() => parseToken('80858')).toThrow(/"80858" is not a valid S2 cell id/);
    expect(() => parseToken('808581000')).toThrow(/not in canonical form: write it as "808581"/);
    expect(() => parseToken('80858G')).toThrow(/not an S2 token/);
    expect(() => parseToken('808581'.toUpperCase())).not.toThrow(); // digits only: same spelling
    expect(() => parseToken('89C25B')).toThrow(/lower-case/);
    expect(isLevel10Token('89c25b')).toBe(true);
    expect(isLevel10Token('89c25')).toBe(false);
  });

  it('rejects NaN and out-of-range latitudes with the value in the message', () => {
    expect(() => cellAt(NaN, 0)).toThrow(/lat NaN/);
    expect(() => cellAt(90.5, 0)).toThrow(/lat 90.5 .*\[-90, 90\]/);
    expect(() => cellAt(0, Infinity)).toThrow(/lng Infinity/);
    expect(tokenAt(10, 370)).toBe(tokenAt(10, 10));
  });
});
