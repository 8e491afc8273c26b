import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { routingHash, murmur3x86_32, shardForRouting, defaultRoutingNumShards } from './routingHash.ts';
import { pickShardNames, NAME_POOL } from './names.ts';

const utf16le = (s: string) => {
  const b = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) (b[2 * i] = s.charCodeAt(i) & 0xff), (b[2 * i + 1] = s.charCodeAt(i) >>> 8);
  return b;
};

describe('routing hash', () => {
  // Vectors from OpenSearch's own Murmur3HashFunctionTests (server/src/test/.../routing/),
  // which hash routing strings exactly as OperationRouting does.
  it('matches the OpenSearch Murmur3HashFunction test vectors', () => {
    const vectors: [string, number][] = [
      ['hell', 0x5a0cb7c3],
      ['hello', 0xd7c31989],
      ['hello w', 0x22ab2984],
      ['hello wo', 0xdf0ca123],
      ['hello wor', 0xe7744d61],
      ['The quick brown fox jumps over the lazy dog', 0xe07db09c],
      ['The quick brown fox jumps over the lazy cog', 0x4e63d2ad],
    ];
    for (const [s, h] of vectors) expect(routingHash(s), s).toBe(h | 0);
  });

  it('matches the canonical MurmurHash3 x86_32 vectors over bytes', () => {
    // SMHasher / Wikipedia reference values, seed 0 unless stated.
    expect(murmur3x86_32(new Uint8Array([]))).toBe(0);
    expect(murmur3x86_32(new Uint8Array([]), 1) >>> 0).toBe(0x514e28b7);
    expect(murmur3x86_32(new TextEncoder().encode('hello')) >>> 0).toBe(0x248bfa47);
    expect(murmur3x86_32(new TextEncoder().encode('Hello, world!'), 1234) >>> 0).toBe(0xfaf6cdb3);
  });

  it('hashes strings as their UTF-16LE bytes, surrogate pairs included', () => {
    for (const s of ['', 'a', 'ab', 'abc', 'é', '日本', 'Ελλάδα', '😀 pizza', 'x'.repeat(101)]) {
      expect(routingHash(s), s).toBe(murmur3x86_32(utf16le(s)));
    }
  });

  it("computes OpenSearch's default number_of_routing_shards", () => {
    expect(defaultRoutingNumShards(1)).toBe(1024);
    expect(defaultRoutingNumShards(5)).toBe(640);
    expect(defaultRoutingNumShards(18)).toBe(576);
    expect(defaultRoutingNumShards(36)).toBe(576);
    expect(defaultRoutingNumShards(600)).toBe(1200);
    expect(() => defaultRoutingNumShards(0)).toThrow(/numberOfShards 0/);
  });

  // The article's shard bar lists its 18 shard names in key order; named so that the i-th
  // routes to OpenSearch shard i, they are an independent check of hash + formula.
  it("sends the article's 18 shard names, in key order, to shards 0..17", () => {
    const names = 'ares nova roger mars thor whiskey zulu bravo sierra echo lambda tango alpha titan yankee zenith apollo tudor'.split(' ');
    expect(names.map((n) => shardForRouting(n, 18))).toEqual(names.map((_, i) => i));
  });

  const fixturePath = new URL('./fixtures/opensearch-routing.json', import.meta.url);
  it('agrees with a real OpenSearch node on every routing value and shard count in the fixture', () => {
    expect(existsSync(fixturePath), 'src/core/fixtures/opensearch-routing.json (made by scripts/fixtures/opensearch-routing.mjs)').toBe(true);
    const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as {
      indices: { numberOfShards: number; routingNumShards: number; shards: Record<string, number> }[];
      murmur3?: Record<string, number>;
    };
    let checked = 0;
    for (const idx of fixture.indices) {
      // routing_num_shards as the node's cluster-state metadata reports it
      expect(defaultRoutingNumShards(idx.numberOfShards), `routing_num_shards for ${idx.numberOfShards}`).toBe(idx.routingNumShards);
      for (const [routing, shard] of Object.entries(idx.shards)) {
        expect(shardForRouting(routing, idx.numberOfShards), `${routing} with ${idx.numberOfShards} shards`).toBe(shard);
        checked++;
      }
    }
    for (const [routing, h] of Object.entries(fixture.murmur3 ?? {})) expect(routingHash(routing), routing).toBe(h);
    expect(checked).toBeGreaterThan(500);
  });
});

describe('shard names', () => {
  it('has a pool of a few hundred unique lower-case words', () => {
    expect(NAME_POOL.length).toBeGreaterThanOrEqual(300);
    expect(new Set(NAME_POOL).size).toBe(NAME_POOL.length);
    for (const w of NAME_POOL) expect(w).toMatch(/^[a-z]{2,9}$/);
  });

  it('picks, for every shard count from 1 to 128, distinct names whose i-th routes to shard i', () => {
    for (let n = 1; n <= 128; n++) {
      const names = pickShardNames(n);
      expect(names).toHaveLength(n);
      expect(new Set(names).size).toBe(n);
      names.forEach((name, i) => expect(shardForRouting(name, n)).toBe(i));
    }
  });

  it('is deterministic and fails clearly when the pool runs out', () => {
    expect(pickShardNames(18)).toEqual(pickShardNames(18));
    for (let n = 1; n <= 36; n++) for (const name of pickShardNames(n)) expect(name).toMatch(/^[a-z]+$/); // plain words up to 36 shards
    expect(pickShardNames(128).some((n) => /\d$/.test(n))).toBe(true);
    expect(() => pickShardNames(1024, ['alpha'])).toThrow(/no name from the pool \(1 words, suffixes up to 99\) routes to shard/);
  });
});
