/**
 * The pure parts of the cutover: the content hash two copies of a document
 * share, and the per-document diff of two owners' copies of a range.
 */
import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalJson, diffDigests, digestOf, describeDiff, isClean, kindOf, type DocDigest } from './cutover.ts';

const restaurant = (shard: string, extra: Record<string, unknown> = {}) => ({ join: 'restaurant', id: 'r1', name: 'A', location: { lat: 1, lon: 2 }, cell: '89c25c', shard, ...extra });
const dish = { join: { name: 'dish', parent: 'r1' }, id: 'r1-d0', restaurant_id: 'r1', name: 'soup' };

describe('canonicalJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"x":2,"y":1}]},"b":1}');
  });
});

describe('digestOf', () => {
  it('hashes a restaurant without its shard field, whatever order its fields came in', () => {
    const a = digestOf(restaurant('alpha'));
    const { shard, ...rest } = restaurant('bravo');
    const b = digestOf({ shard, ...Object.fromEntries(Object.entries(rest).reverse()) });
    expect(a).toEqual(b);
    expect(a.kind).toBe('restaurant');
    // Independent: sha1 of the hand-written canonical form.
    const canon = '{"cell":"89c25c","id":"r1","join":"restaurant","location":{"lat":1,"lon":2},"name":"A"}';
    expect(a.hash).toBe(createHash('sha1').update(canon).digest('hex'));
  });
  it('sees any other change', () => {
    expect(digestOf(restaurant('alpha', { name: 'B' })).hash).not.toBe(digestOf(restaurant('alpha')).hash);
    expect(digestOf({ ...dish, name: 'stew' }).hash).not.toBe(digestOf(dish).hash);
    expect(kindOf(dish)).toBe('dish');
  });
});

describe('diffDigests', () => {
  const d = (hash: string): DocDigest => ({ kind: 'dish', hash });
  const from = new Map<string, DocDigest | null>([['a', d('1')], ['b', d('2')], ['c', d('3')], ['e', d('5')]]);
  const to = new Map<string, DocDigest | null>([['a', d('1')], ['b', d('X')], ['d', d('4')], ['e', d('Y')]]);
  it('names what is missing, different and only on the new owner', () => {
    const diff = diffDigests(from, to);
    expect(diff).toEqual({ missing: ['c'], changed: ['b', 'e'], extra: ['d'] });
    expect(isClean(diff)).toBe(false);
    expect(describeDiff(diff)).toBe('1 missing on the new owner (c), 2 different (b, e), 1 only on the new owner (d)');
  });
  it('compares content only for the ids it is told to, presence for all', () => {
    expect(diffDigests(from, to, new Set(['e']))).toEqual({ missing: ['c'], changed: ['e'], extra: ['d'] });
    // Ids known only by presence (null digests) never count as changed.
    const ids = new Map<string, DocDigest | null>([['a', null], ['b', null]]);
    expect(isClean(diffDigests(ids, new Map(ids)))).toBe(true);
    expect(describeDiff(diffDigests(ids, new Map(ids)))).toBe('no difference');
  });
});
