import { describe, it, expect } from 'vitest';
import { validateBoundaryFile, computeHash, withHash, formatBoundaryFile, canonicalContent, type BoundaryFile } from './boundaries.ts';
import { parseBoundaryFile } from './boundaryText.ts';
import { fileWithCuts } from './testutil.ts';
import { sha256 } from './sha256.ts';

const base = (): BoundaryFile => fileWithCuts([1_000_000, 2_000_000, 3_000_000, 4_200_000]);
/** Applies an edit and re-hashes, so only the edited field is wrong. */
const edited = (edit: (f: any) => void): any => {
  const f = structuredClone(base()) as any;
  edit(f);
  return withHash(f);
};
const messages = (f: unknown) => validateBoundaryFile(f).map((e) => e.message);

describe('validateBoundaryFile', () => {
  it('accepts a well-formed file', () => {
    expect(validateBoundaryFile(base())).toEqual([]);
  });

  it('rejects tokens that are not valid level-10 tokens', () => {
    expect(messages(edited((f) => (f.boundaries[1] = '8085')))).toEqual([expect.stringMatching(/^boundaries\[1\]: "8085" is a level-6 cell: expected a level-10 token/)]);
    expect(messages(edited((f) => (f.boundaries[1] = 'zz')))[0]).toMatch(/^boundaries\[1\]: "zz" is not an S2 token/);
    expect(messages(edited((f) => (f.boundaries[1] = 42)))[0]).toMatch(/^boundaries\[1\]: 42 is not an S2 token/);
  });

  it('rejects unsorted and duplicate boundaries, naming both positions', () => {
    const unsorted = edited((f) => ([f.boundaries[1], f.boundaries[2]] = [f.boundaries[2], f.boundaries[1]]));
    expect(messages(unsorted)).toEqual([expect.stringMatching(/^boundaries\[2\]: ".+" is not after boundaries\[1\] ".+": boundaries must ascend in key order/)]);
    const dup = edited((f) => (f.boundaries[2] = f.boundaries[1]));
    expect(messages(dup)).toEqual([expect.stringMatching(/^boundaries\[2\]: ".+" repeats boundaries\[1\]/)]);
  });

  it('rejects wrong counts of boundaries and shards', () => {
    expect(messages(edited((f) => f.boundaries.pop()))).toEqual(['boundaries: has 3 tokens: expected numberOfShards - 1 = 4']);
    expect(messages(edited((f) => f.shards.pop()))).toEqual(['shards: has 4 entries: expected numberOfShards = 5']);
    expect(messages(edited((f) => (f.numberOfShards = 0)))[0]).toMatch(/^numberOfShards: 0 is invalid: expected an integer in \[1, 1024\]/);
  });

  it('rejects duplicate names', () => {
    const m = messages(edited((f) => (f.shards[3].name = f.shards[1].name)));
    expect(m).toContainEqual(expect.stringMatching(/^shards\[3\]\.name: ".+" is already the name of shards\[1\]: names must be unique/));
  });

  it('rejects a name whose routing hash does not land on its declared shard', () => {
    const m = messages(edited((f) => ([f.shards[0].shard, f.shards[1].shard] = [f.shards[1].shard, f.shards[0].shard])));
    expect(m).toContainEqual(expect.stringMatching(/^shards\[0\]\.shard: name ".+" routes to OpenSearch shard 0 of 5, not the declared 1/));
    expect(m).toContainEqual(expect.stringMatching(/^shards\[1\]\.shard: name ".+" routes to OpenSearch shard 1 of 5, not the declared 0/));
  });

  it('rejects names that would break a routing string and out-of-range shard numbers', () => {
    expect(messages(edited((f) => (f.shards[2].name = 'a,b')))).toContainEqual(expect.stringMatching(/^shards\[2\]\.name: "a,b" is not a valid shard name/));
    expect(messages(edited((f) => (f.shards[2].shard = 9)))).toContainEqual(expect.stringMatching(/^shards\[2\]\.shard: 9 is not a shard number: expected an integer in \[0, 4\]/));
  });

  it('rejects a wrong hash, naming the expected one', () => {
    const f = { ...base(), version: 2 }; // edited after hashing
    expect(messages(f)).toEqual([expect.stringMatching(new RegExp(`^hash: "${base().hash}" does not match the content \\(sha256 ${computeHash(f)}\\)`))]);
    expect(messages({ ...base(), hash: 'abc' })[0]).toMatch(/^hash: "abc" is not a sha256/);
  });

  it('rejects a wrong format, level, index, version, createdAt and parent', () => {
    const m = messages(edited((f) => Object.assign(f, { format: 'x/2', level: 12, index: 'Bad Index', version: 0, createdAt: 'yesterday', parent: 'nope' })));
    expect(m.map((s) => s.split(':')[0]).sort()).toEqual(['createdAt', 'format', 'index', 'level', 'parent', 'version']);
    expect(messages(null)).toEqual(['(file): expected a JSON object, got null']);
  });

  it('hashes the canonical content: key order and white space do not matter, every field but hash does', () => {
    const f = base();
    const shuffled = Object.fromEntries(Object.entries(f).reverse());
    expect(Object.keys(shuffled)[0]).not.toBe(Object.keys(f)[0]);
    expect(computeHash(shuffled)).toBe(f.hash);
    expect(computeHash(f)).toBe(sha256(canonicalContent(f)));
    expect(canonicalContent(f)).not.toContain('"hash"');
    expect(computeHash({ ...f, createdAt: '2027-01-01T00:00:00.000Z' })).not.toBe(f.hash);
  });

  it('round-trips through the on-disk format', () => {
    const f = base();
    const text = formatBoundaryFile(f);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseBoundaryFile(text)).toEqual(f);
    expect(() => parseBoundaryFile('{oops')).toThrow(/not JSON/);
  });
});
