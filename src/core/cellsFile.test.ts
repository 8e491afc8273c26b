import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import s2geometry from 's2-geometry';
import { parseCellsCsv, cellWeights, CellCounter } from './index.ts';
import { mulberry32, randomPoint } from './testutil.ts';
import { docsCellsCsv, buildBoundaryFile } from './build.ts';

// The oracle: s2-geometry, an independent implementation of S2 cell ids. Key order is the
// order of level-10 cell ids (Hilbert order on the cube), compared as numbers, never as tokens.
const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const oracleId = (lat: number, lng: number) => BigInt(S2.keyToId(S2.latLngToKey(lat, lng, 10)));
const token = (id: bigint) => id.toString(16).padStart(16, '0').replace(/0+$/, '');

describe('parseCellsCsv, the sample form (token,restaurants,dishes)', () => {
  it('reads data/cells.csv unchanged: weights are restaurants + dishes', () => {
    const text = readFileSync(new URL('../../data/cells.csv', import.meta.url), 'utf8');
    const cells = parseCellsCsv(text, 'data/cells.csv');
    const rows = text.trim().split('\n').slice(1).map((l) => l.split(','));
    expect(cells.length).toBe(rows.length);
    const w = cellWeights(cells);
    rows.forEach((r, i) => {
      expect(cells[i].token).toBe(r[0]);
      expect(w[i]).toBe(Number(r[1]) + Number(r[2]));
    });
  });

  it('refuses a weight column in a sample file', () => {
    expect(() => parseCellsCsv('token,restaurants,dishes\n808581,1,2\n', 'c.csv', { weight: 'population' })).toThrow(/c\.csv: weight column "population" is not in a "token,restaurants,dishes" file/);
  });
});

describe('parseCellsCsv, the generic form (token,docs[,weights])', () => {
  it('reads token,docs: the weight is docs, and restaurants + dishes add up to docs', () => {
    const cells = parseCellsCsv('token,docs\n4ca4c1,22\n808581,5\n89c259,7\n');
    expect(cells.map((c) => [c.token, c.restaurants + c.dishes])).toEqual([['4ca4c1', 22], ['808581', 5], ['89c259', 7]]);
    expect([...cellWeights(cells)]).toEqual([22, 5, 7]);
  });

  it('weighs by a named weight column, and by docs when none is named', () => {
    const text = 'token,docs,population,rooms\n808581,2,1500.5,3\n89c259,1,0,40\n';
    expect([...cellWeights(parseCellsCsv(text, 'c', { weight: 'population' }))]).toEqual([1500.5, 0]);
    expect([...cellWeights(parseCellsCsv(text, 'c', { weight: 'rooms' }))]).toEqual([3, 40]);
    expect([...cellWeights(parseCellsCsv(text, 'c'))]).toEqual([2, 1]);
    expect(() => parseCellsCsv(text, 'c', { weight: 'beds' })).toThrow(/c: weight column "beds" is not in the header "token,docs,population,rooms": expected docs or one of population, rooms/);
  });

  it('balances a generic file into a boundary file whose shards count its documents', () => {
    const cells = parseCellsCsv('token,docs\n808581,5\n89c259,7\n89c25b,3\n');
    const file = buildBoundaryFile({ index: 'places', cells, cuts: [1], createdAt: '2026-12-01T00:00:00.000Z' });
    expect(file.boundaries).toEqual(['89c259']);
    expect(file.shards.map((s) => (s.restaurants ?? 0) + (s.dishes ?? 0))).toEqual([5, 10]);
  });
});

describe('parseCellsCsv refuses bad files, naming the line, the column and the value', () => {
  const cases: [string, string, RegExp][] = [
    ['an unknown header', 'token,count\n808581,1\n', /f line 1: header "token,count" is not a cells header: expected "token,restaurants,dishes" or "token,docs\[,<weight columns>\]"/],
    ['an empty file', '', /f line 1: header "" is not a cells header/],
    ['a bad weight column name', 'token,docs,a b\n808581,1,2\n', /f line 1: header "token,docs,a b" has column 3 "a b", not a weight column name/],
    ['a repeated column', 'token,docs,w,w\n808581,1,2,2\n', /f line 1: header "token,docs,w,w" names column "w" twice/],
    ['docs not an integer', 'token,docs\n808581,1\n89c259,2.5\n', /f line 3: docs "2\.5" is not a non-negative integer/],
    ['a negative weight', 'token,docs,pop\n808581,1,-3\n', /f line 2: pop "-3" is not a number >= 0/],
    ['a weight that is not a number', 'token,docs,pop\n808581,1,NaN\n', /f line 2: pop "NaN" is not a number >= 0/],
    ['a missing field', 'token,docs,pop\n808581,1\n', /f line 2: "808581,1" has 2 fields: expected 3 \(token,docs,pop\)/],
    ['a bad token', 'token,docs\nzz,1\n', /f line 2: token/],
    ['a level-12 token', 'token,docs\n8085811,1\n', /f line 2: token/],
    ['rows out of key order', 'token,docs\n89c259,1\n808581,2\n', /f line 3: token "808581" is not after the previous row's token/],
    ['a repeated cell', 'token,docs\n808581,1\n808581,2\n', /f line 3: token "808581" is not after/],
    ['no rows', 'token,docs\n', /f: no cells: expected at least one row after the header/],
    ['a sample row with a bad count', 'token,restaurants,dishes\n808581,1,x\n', /f line 2: dishes "x" is not a non-negative integer/],
  ];
  for (const [what, text, re] of cases) it(`refuses ${what}`, () => expect(() => parseCellsCsv(text, 'f')).toThrow(re));
});

describe('CellCounter', () => {
  it('counts 20,000 seeded points per level-10 cell as s2-geometry does, in key order', () => {
    const rand = mulberry32(2026);
    const counter = new CellCounter(['w']);
    const expected = new Map<bigint, { docs: number; w: number }>();
    // Clustered points (many per cell) and spread ones.
    const centres = Array.from({ length: 20 }, () => randomPoint(rand));
    for (let i = 0; i < 20_000; i++) {
      const c = centres[i % centres.length];
      const p = i % 4 === 0 ? randomPoint(rand) : { lat: Math.max(-90, Math.min(90, c.lat + (rand() - 0.5) * 0.5)), lng: c.lng + (rand() - 0.5) * 0.5 };
      const w = Math.floor(rand() * 100);
      counter.add(p.lat, p.lng, [w]);
      const id = oracleId(p.lat, p.lng);
      const e = expected.get(id) ?? { docs: 0, w: 0 };
      e.docs++;
      e.w += w;
      expected.set(id, e);
    }
    const ids = [...expected.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const want = ids.map((id) => `${token(id)},${expected.get(id)!.docs},${expected.get(id)!.w}`);
    expect(counter.total).toBe(20_000);
    expect(counter.csv()).toBe(['token,docs,w', ...want].join('\n') + '\n');
    // And the parser reads it back (key order, every weight).
    const back = parseCellsCsv(counter.csv(), 'counted', { weight: 'w' });
    expect(back.length).toBe(ids.length);
    expect(back.reduce((a, c) => a + c.restaurants, 0)).toBe(20_000);
  });

  it('writes a cells file of more than 10,000 cells line by line, as docsCellsCsv writes the rows, with and without weights', () => {
    const rand = mulberry32(31);
    for (const cols of [[], ['w']]) {
      const counter = new CellCounter(cols);
      for (let i = 0; i < 30_000; i++) {
        const p = randomPoint(rand);
        counter.add(p.lat, p.lng, cols.length ? [Math.floor(rand() * 10)] : []);
      }
      expect(counter.size).toBeGreaterThan(20_000);
      expect(counter.csv()).toBe(docsCellsCsv(counter.cells(), cols));
    }
  });

  it('refuses a point that is not a latitude, and a weight that is not a number >= 0', () => {
    const c = new CellCounter(['w']);
    expect(() => c.add(91, 0, [1])).toThrow(/lat 91 is not a latitude/);
    expect(() => c.add(0, 0, [-1])).toThrow(/w -1 is not a finite number >= 0/);
    expect(() => c.add(0, 0, [])).toThrow(/0 weights given: expected 1 \(w\)/);
    expect(c.total).toBe(0);
  });

  it('writes a file docsCellsCsv and the parser agree on', () => {
    const text = docsCellsCsv([{ token: '808581', docs: 3, weights: [] }]);
    expect(text).toBe('token,docs\n808581,3\n');
    expect(parseCellsCsv(text)[0]).toMatchObject({ token: '808581', restaurants: 3, dishes: 0 });
  });
});
