import { describe, it, expect } from 'vitest';
import s2geometry from 's2-geometry';
import { Locator, LAT_STEP_DEG, LNG_STEP_DEG, addProblems, checkDish, checkRestaurant, checkRouting, latLngOf, newTally, type AuditProblem } from './audit.ts';
import { Router } from './router.ts';
import { withMigration } from './plan.ts';
import { cellFromOrdinal, cellToken, cellVertices, parseToken } from './cells.ts';
import { fileWithCuts, mulberry32, randomPoint } from './testutil.ts';

// The expected cells and owners come from s2-geometry (an independent implementation of S2's
// cell ids, the oracle of cells.test.ts) and a linear scan of the cuts, not from the router.
const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const oracleId = (lat: number, lng: number) => BigInt(S2.keyToId(S2.latLngToKey(lat, lng, 10)));
/** The level-10 ordinal: face and Hilbert position, the 23 bits above the cell's trailing 1 bit. */
const oracleOrdinal = (lat: number, lng: number) => Number(oracleId(lat, lng) >> 41n);
const oracleToken = (lat: number, lng: number) => cellToken(oracleId(lat, lng));

const SF = { lat: 37.7749, lng: -122.4194 };
const LONDON = { lat: 51.5074, lng: -0.1278 };
const sf = oracleOrdinal(SF.lat, SF.lng);
const cuts = [sf - 10, sf + 10, sf + 1000];
const base = fileWithCuts(cuts, 'audit-test');
const router = new Router(base);
/** The shard owning an ordinal, by a linear scan of the cuts (fileWithCuts numbers shards in key order). */
const ownerOf = (ordinal: number) => cuts.filter((c) => c <= ordinal).length;
const name = (shard: number) => base.shards.find((s) => s.shard === shard)!.name;
const tok = (o: number) => cellToken(cellFromOrdinal(o));
const kinds = (ps: AuditProblem[]) => ps.map((p) => p.problem);

describe('checkRestaurant', () => {
  const loc = new Locator(router);
  const at = loc.exact(SF.lat, SF.lng);
  const right = { id: 'r1', shard: ownerOf(sf), cell: oracleToken(SF.lat, SF.lng), shardField: name(ownerOf(sf)) };

  it('finds nothing wrong with a restaurant on its cell\'s shard with its cell and shard name', () => {
    expect(ownerOf(sf)).toBe(1);
    expect(at.token).toBe('808581');
    expect(checkRestaurant(router, right, at)).toEqual([]);
    const london = oracleOrdinal(LONDON.lat, LONDON.lng);
    const l = loc.exact(LONDON.lat, LONDON.lng);
    expect(checkRestaurant(router, { id: 'r2', shard: ownerOf(london), cell: oracleToken(LONDON.lat, LONDON.lng), shardField: name(ownerOf(london)) }, l)).toEqual([]);
  });

  it('names a restaurant on another shard than its cell\'s owner, with the shard found and the one expected', () => {
    const ps = checkRestaurant(router, { ...right, shard: 2 }, at);
    expect(kinds(ps)).toEqual(['wrong-shard']);
    expect(ps[0]).toMatchObject({ id: 'r1', type: 'restaurant', shard: 2, expected: [1] });
    expect(ps[0].why).toContain('cell 808581');
    // On the wrong shard, a shard field naming the cell's owner is right (only the placement is wrong); one naming the wrong shard is not.
    expect(kinds(checkRestaurant(router, { ...right, shard: 2, shardField: name(2) }, at))).toEqual(['wrong-shard', 'wrong-shard-field']);
  });

  it('names a restaurant whose cell is not its location\'s level-10 token', () => {
    for (const cell of ['808583', '80858', 808581, undefined, null]) {
      const ps = checkRestaurant(router, { ...right, cell }, at);
      expect(kinds(ps), String(cell)).toEqual(['wrong-cell']);
      expect(ps[0].why).toContain('"808581"');
    }
  });

  it('names a restaurant whose shard field is not the routing of the shard it sits on', () => {
    for (const shardField of [name(0), name(2), 'nope', undefined, 1]) {
      const ps = checkRestaurant(router, { ...right, shardField }, at);
      expect(kinds(ps), String(shardField)).toEqual(['wrong-shard-field']);
      expect(ps[0].expected).toEqual([1]);
    }
  });

  it('names a restaurant with no valid location as on the wrong shard, with no shard expected', () => {
    const ps = checkRestaurant(router, right, null);
    expect(ps).toEqual([expect.objectContaining({ problem: 'wrong-shard', expected: [], shard: 1 })]);
  });

  it('checks the routing when given it: the name of the shard it sits on', () => {
    expect(checkRestaurant(router, { ...right, routing: name(1) }, at)).toEqual([]);
    expect(kinds(checkRestaurant(router, { ...right, routing: 'r1' }, at))).toEqual(['wrong-routing']);
    expect(checkRouting(router, 'd1', 'dish', 3, name(3))).toEqual([]);
    expect(checkRouting(router, 'd1', 'dish', 3, null)).toEqual([expect.objectContaining({ problem: 'wrong-routing', shard: 3, expected: [3] })]);
  });
});

describe('checkDish', () => {
  const loc = new Locator(router);
  const at = loc.exact(SF.lat, SF.lng);
  const dish = { id: 'r1-d1', shard: 1, restaurantId: 'r1', parent: 'r1' };

  it('finds nothing wrong with a dish on its restaurant\'s shard, the owner of the restaurant\'s cell', () => {
    expect(checkDish(router, dish, at, [1])).toEqual([]);
  });

  it('names a dish whose restaurant is on another shard, or on none', () => {
    const apart = checkDish(router, dish, at, [2]);
    expect(apart).toEqual([expect.objectContaining({ id: 'r1-d1', type: 'dish', problem: 'dish-apart', shard: 1, expected: [2] })]);
    expect(apart[0].why).toContain('it is on shard 2');
    const orphan = checkDish(router, dish, at, []);
    expect(orphan).toEqual([expect.objectContaining({ problem: 'dish-apart', expected: [1] })]);
    expect(orphan[0].why).toContain('in no shard');
  });

  it('names a dish on the wrong shard for its restaurant_location and apart from its restaurant', () => {
    const ps = checkDish(router, { ...dish, shard: 3 }, at, [1]);
    expect(kinds(ps)).toEqual(['wrong-shard', 'dish-apart']);
    expect(ps[0]).toMatchObject({ shard: 3, expected: [1] });
  });

  it('names a dish whose join parent is not its restaurant_id, or which has no restaurant_id', () => {
    expect(kinds(checkDish(router, { ...dish, parent: 'r2' }, at, [1]))).toEqual(['dish-apart']);
    expect(kinds(checkDish(router, { ...dish, parent: null }, at, [1]))).toEqual(['dish-apart']);
    expect(kinds(checkDish(router, { ...dish, restaurantId: undefined }, at, [1]))).toEqual(['dish-apart']);
  });
});

describe('a migration state', () => {
  // The range holding SF moves from shard 1 to shard 2.
  const moving = (phase: 'copying' | 'switched' | 'done') =>
    new Router(withMigration(base, { epoch: 3, target: 'f'.repeat(64), moves: [{ start: tok(sf - 10), end: tok(sf + 10), from: name(1), to: name(2), phase }] }));
  const cell = oracleToken(SF.lat, SF.lng);

  it('accepts a document on either owner while both are written, each copy with its own shard name', () => {
    for (const phase of ['copying', 'switched'] as const) {
      const r = moving(phase);
      const at = new Locator(r).exact(SF.lat, SF.lng);
      expect(at.owners.map((s) => s.shard)).toEqual([1, 2]);
      expect(checkRestaurant(r, { id: 'r1', shard: 1, cell, shardField: name(1) }, at), phase).toEqual([]);
      expect(checkRestaurant(r, { id: 'r1', shard: 2, cell, shardField: name(2) }, at), phase).toEqual([]);
      expect(kinds(checkRestaurant(r, { id: 'r1', shard: 2, cell, shardField: name(1) }, at)), phase).toEqual(['wrong-shard-field']);
      const wrong = checkRestaurant(r, { id: 'r1', shard: 0, cell, shardField: name(1) }, at);
      expect(wrong).toEqual([expect.objectContaining({ problem: 'wrong-shard', shard: 0, expected: [1, 2] })]);
      expect(checkDish(r, { id: 'r1-d1', shard: 2, restaurantId: 'r1', parent: 'r1' }, at, [1, 2])).toEqual([]);
    }
  });

  it('accepts only the new owner once dual writes are off', () => {
    const r = moving('done');
    const at = new Locator(r).exact(SF.lat, SF.lng);
    expect(checkRestaurant(r, { id: 'r1', shard: 2, cell, shardField: name(2) }, at)).toEqual([]);
    // The old owner's copy, awaiting the delete step, is on a shard that is no longer written.
    const old = checkRestaurant(r, { id: 'r1', shard: 1, cell, shardField: name(1) }, at);
    expect(kinds(old)).toEqual(['wrong-shard', 'wrong-shard-field']);
    expect(old[0]).toMatchObject({ shard: 1, expected: [2] });
  });
});

describe('Locator.quantized', () => {
  /** A point as OpenSearch's geo_point doc values return it: floor to the 32-bit grid, times the step (Lucene GeoEncodingUtils). */
  const docValue = (lat: number, lng: number) => ({ lat: Math.floor(lat / LAT_STEP_DEG) * LAT_STEP_DEG, lng: Math.floor(lng / LNG_STEP_DEG) * LNG_STEP_DEG });

  it('gives the cell of the stored point for seeded random points, or nothing when it cannot be sure', () => {
    const rand = mulberry32(20);
    const loc = new Locator(router);
    let unsure = 0;
    for (let i = 0; i < 20_000; i++) {
      // Points 6 decimals long, as geoshard writes them, and a quarter of them a hair from a cell corner.
      let { lat, lng } = randomPoint(rand);
      if (i % 4 === 0) {
        const v = cellVertices(parseToken(oracleToken(lat, lng)))[i % 16 >> 2];
        lat = Math.max(-90, Math.min(90, v.lat + (rand() - 0.5) * 1e-6));
        lng = v.lng + (rand() - 0.5) * 1e-6;
      }
      lat = Math.round(lat * 1e6) / 1e6;
      lng = Math.max(-180, Math.min(180, Math.round(lng * 1e6) / 1e6));
      const dv = docValue(lat, lng);
      const at = loc.quantized(dv.lat, dv.lng);
      if (!at) {
        unsure++;
        continue;
      }
      expect(at.token, `${lat},${lng}`).toBe(oracleToken(lat, lng));
    }
    // Only points within centimetres of an edge are sent back to _source.
    expect(unsure).toBeGreaterThan(0);
    expect(unsure).toBeLessThan(2_000);
  });

  it('refuses a doc value on a cell corner', () => {
    const v = cellVertices(parseToken('808581'))[0];
    const dv = docValue(v.lat, v.lng);
    expect(new Locator(router).quantized(dv.lat, dv.lng)).toBeNull();
  });
});

describe('latLngOf', () => {
  it('reads the geo_point forms geoshard and doc values write, and refuses the rest', () => {
    expect(latLngOf({ lat: 37.5, lon: -122.25 })).toEqual({ lat: 37.5, lng: -122.25 });
    expect(latLngOf([-122.25, 37.5])).toEqual({ lat: 37.5, lng: -122.25 });
    expect(latLngOf('37.5, -122.25')).toEqual({ lat: 37.5, lng: -122.25 });
    for (const bad of [undefined, null, {}, { lat: 91, lon: 0 }, { lat: 0, lon: 181 }, { lat: null, lon: 1 }, '9q8yy', [1], 'a,b', { lat: true, lon: 0 }]) {
      expect(latLngOf(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('addProblems', () => {
  it('counts every problem and document but keeps only the first `limit` problems', () => {
    const t = newTally();
    const seen = new Set<string>();
    const p = (id: string, problem: AuditProblem['problem']): AuditProblem => ({ id, type: 'restaurant', problem, shard: 0, expected: [1], why: '' });
    addProblems(t, [p('a', 'wrong-shard'), p('a', 'wrong-cell')], 2, seen);
    addProblems(t, [p('b', 'wrong-shard')], 2, seen);
    addProblems(t, [p('a', 'wrong-routing')], 2, seen);
    addProblems(t, [], 2, seen);
    expect(t.counts).toMatchObject({ 'wrong-shard': 2, 'wrong-cell': 1, 'wrong-routing': 1 });
    expect(t.documents).toBe(2);
    expect(t.problems.map((x) => x.id)).toEqual(['a', 'a']);
    expect(t.omitted).toBe(2);
  });
});
