/**
 * A seeded, bounded fuzz of the boundary file reader: 400 malformed files
 * made by mutating data/boundaries.json (fields dropped, duplicated and
 * retyped, boundaries and shards shuffled, bad tokens, odd and reserved keys,
 * truncation, nesting, huge numbers, NaN-ish strings, stray characters, half
 * of them re-hashed so the mutation is the only problem) plus harmless edits,
 * through parseBoundaryFile and validateBoundaryFile. Invariants: nothing but
 * a BoundaryFileError is ever thrown; every refusal names the file and every
 * problem names its field (or "(file)"); a file that is accepted re-serialises
 * and re-validates with the same hash.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateBoundaryFile, computeHash, formatBoundaryFile, BoundaryFileError } from './boundaries.ts';
import { parseBoundaryFile } from './boundaryText.ts';
import { mulberry32 } from './testutil.ts';

const BUNDLED = readFileSync(join(__dirname, '..', '..', 'data', 'boundaries.json'), 'utf8');
const SEED = 0x10b0f11e;
const MALFORMED = 400;
const HARMLESS = 40;

type Json = Record<string, any>;

function fuzzer(seed: number) {
  const rand = mulberry32(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T,>(xs: readonly T[]): T => xs[int(xs.length)];
  const odd = [null, true, false, 0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, '', 'NaN', 'Infinity', '-Infinity', '1e400', 'null', '0x10', ' 15', '15 ', '89c25c', 'x'.repeat(10_000), [], {}, [1, 2], { a: 1 }];
  const oddKeys = ['__proto__', 'constructor', 'prototype', '', ' ', 'hash ', '\u0000', 'é', 'toString', 'valueOf', 'Format', 'shards ', '__defineGetter__'];
  const badTokens = ['', '0', 'zz', '89c25', '89C25C', '89c25c0', '89c25c1', '8', '1', 'ffffffffffffffff', '-89c25c', ' 89c25c', '89c25c ', '9', 'a'.repeat(17)];

  /** Every object or array inside `f` (not `f` itself), with a setter for its place. */
  const places = (f: Json): { holder: Json; key: string | number }[] => {
    const out: { holder: Json; key: string | number }[] = [];
    const stack: Json[] = [f];
    while (stack.length) {
      const h = stack.pop()!;
      for (const k of Array.isArray(h) ? h.keys() : Object.keys(h)) {
        out.push({ holder: h, key: k });
        const v = h[k as never];
        if (v && typeof v === 'object') stack.push(v);
      }
    }
    return out;
  };
  const objects = (f: Json): Json[] => [f, ...places(f).map((p) => p.holder[p.key as never] as Json).filter((v) => v && typeof v === 'object' && !Array.isArray(v))];

  const objectMutations: ((f: Json) => void)[] = [
    (f) => {
      const p = pick(places(f)); // drop a field or an element
      if (Array.isArray(p.holder)) p.holder.splice(p.key as number, 1);
      else delete p.holder[p.key];
    },
    (f) => {
      const p = pick(places(f)); // retype
      p.holder[p.key as never] = structuredClone(pick(odd)) as never;
    },
    (f) => {
      for (let i = f.boundaries.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [f.boundaries[i], f.boundaries[j]] = [f.boundaries[j], f.boundaries[i]];
      }
    },
    (f) => {
      const [a, b] = [int(f.shards.length), int(f.shards.length)]; // names no longer routing to their shard
      [f.shards[a].shard, f.shards[b].shard] = [f.shards[b].shard, f.shards[a].shard];
    },
    (f) => (f.boundaries[int(f.boundaries.length)] = pick(badTokens)),
    (f) => {
      const o = pick(objects(f)); // an odd or reserved key, as JSON.parse would make it
      Object.defineProperty(o, pick(oddKeys), { value: structuredClone(pick(odd)), enumerable: true, writable: true, configurable: true });
    },
    (f) => {
      const p = pick(places(f)); // nest a value in arrays
      let v: unknown = p.holder[p.key as never];
      for (let i = 1 + int(60); i > 0; i--) v = [v];
      p.holder[p.key as never] = v as never;
    },
    (f) => (f[pick(['numberOfShards', 'level', 'routingNumShards'])] = pick([1e21, 2 ** 53 + 1, 1025, 1024, 0, -0, 0.5, 1e-300, Number.MAX_VALUE])),
    (f) => (f.version = pick([0, -1, 0.5, 1e-300, -Number.MAX_VALUE])),
    (f) => (f[pick(['numberOfShards', 'version', 'createdAt', 'parent', 'hash', 'index', 'format'])] = pick(['NaN', 'Infinity', '15', '1', 'null', 'undefined', '0'.repeat(64), 'g'.repeat(64)])),
    (f) => (f.shards[int(f.shards.length)] = { ...f.shards[int(f.shards.length)] }), // a duplicated shard entry
    (f) => f.boundaries.push(f.boundaries[f.boundaries.length - 1]),
    (f) => (f.migration = pick([null, {}, { epoch: 1, base: f.hash, target: 'f'.repeat(64), moves: [] }, { epoch: 1, base: f.hash, target: 'f'.repeat(64), moves: [{ start: f.boundaries[0], end: null, from: 'india', to: 'mike', phase: 'copying' }] }])),
  ];
  const textMutations: ((t: string) => string)[] = [
    (t) => t.slice(0, int(t.length)), // truncation
    (t) => {
      const lines = t.split('\n'); // a duplicated line: a duplicated key or a stray element
      const i = 1 + int(lines.length - 2);
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    },
    (t) => {
      const i = int(t.length); // a stray character
      return t.slice(0, i) + pick(['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', '\ufeff', 'é', '\ud800', 'e', '-', '0']) + t.slice(i);
    },
    (t) => {
      const i = int(t.length);
      return t.slice(0, i) + t.slice(i + 1);
    },
    (t) => t.replace(/"version": 1/, `"version": ${pick(['1e400', '-1e400', '01', '0x1', 'NaN', 'Infinity', '-1', '1.5', '1e-400'])}`),
    (t) => t.replace(/"balance": \{/, `"balance": { "x": ${'['.repeat(1 + int(200))}${']'.repeat(1 + int(200))},`),
    (t) => '\ufeff\ufeff' + t, // one mark is accepted and dropped; a second is content, not JSON
  ];

  const rehash = (f: Json) => {
    try {
      f.hash = computeHash(f);
    } catch {
      // Too deep to hash: keep the old hash; the file is refused for its depth anyway.
    }
  };

  return {
    /** A malformed file's text. */
    malformed(): string {
      if (rand() < 0.3) return pick(textMutations)(BUNDLED);
      const f = JSON.parse(BUNDLED) as Json;
      for (let k = 1 + int(3); k > 0; k--) pick(objectMutations)(f);
      if (rand() < 0.5) rehash(f);
      return rand() < 0.5 ? JSON.stringify(f) : formatBoundaryFile(f as never);
    },
    /** A file with an edit that keeps it valid: key order, layout, number spelling, a byte-order mark, a re-hashed figure. */
    harmless(): string {
      if (rand() < 0.2) return BUNDLED.replace('"version": 1,', `"version": ${pick(['1.0', '1e0', '10e-1', '1.00'])},`);
      if (rand() < 0.2) return '\ufeff' + BUNDLED;
      const f = JSON.parse(BUNDLED) as Json;
      if (rand() < 0.3) f.shards.reverse(); // another valid layout: each name still routes to its shard
      if (rand() < 0.5) f.balance.evenness = rand();
      if (rand() < 0.5) f.shards[int(f.shards.length)].dishes = int(1e9);
      rehash(f);
      const shuffled = Object.fromEntries(Object.entries(f).sort(() => rand() - 0.5));
      return rand() < 0.5 ? JSON.stringify(shuffled) : JSON.stringify(shuffled, null, int(5));
    },
  };
}

/** Reads `text` as `source`; returns the file, or the refusal after checking it names the file and every field. */
function read(text: string, source: string): { file?: ReturnType<typeof parseBoundaryFile>; refusal?: BoundaryFileError } {
  let file;
  try {
    file = parseBoundaryFile(text, source);
  } catch (e) {
    if (!(e instanceof BoundaryFileError)) throw new Error(`${source} crashed the reader: ${(e as Error).name}: ${(e as Error).message.slice(0, 300)}\n${text.slice(0, 300)}`);
    expect(e.message.startsWith(`${source} is invalid (`), e.message.slice(0, 200)).toBe(true);
    expect(e.errors.length).toBeGreaterThan(0);
    for (const x of e.errors) {
      expect(x.field, x.message).toMatch(/^(\(file\)|[\w$"[])/);
      if (!/^and \d+ more problems?$/.test(x.message)) expect(x.message.startsWith(`${x.field}: `), `${source}: ${x.message}`).toBe(true);
    }
    return { refusal: e };
  }
  return { file };
}

describe('the boundary file reader under seeded fuzzing', () => {
  it(`refuses ${MALFORMED} malformed files cleanly, naming what is wrong, and re-reads every file it accepts with the same hash`, () => {
    const fuzz = fuzzer(SEED);
    let refused = 0;
    let accepted = 0;
    const texts = [...Array.from({ length: MALFORMED }, () => fuzz.malformed()), ...Array.from({ length: HARMLESS }, () => fuzz.harmless())];
    texts.forEach((text, i) => {
      const source = `fuzz-${i}.json`;
      const { file, refusal } = read(text, source);
      // The object entry point must not throw either, whatever JSON.parse made of the text.
      let parsed: unknown;
      try {
        parsed = JSON.parse(text.replace(/^\ufeff/, ''));
      } catch {
        parsed = undefined;
      }
      if (parsed !== undefined) expect(() => validateBoundaryFile(parsed), source).not.toThrow();
      if (refusal) {
        refused++;
        return;
      }
      accepted++;
      const again = parseBoundaryFile(formatBoundaryFile(file!), `${source} re-serialised`);
      expect(again.hash, source).toBe(file!.hash);
      expect(computeHash(again), source).toBe(file!.hash);
      expect(again).toEqual(file);
    });
    // Every harmless edit is accepted; the malformed ones are refused (a mutation can be a no-op, such as reversing a palindrome: allow a few).
    expect(accepted).toBeGreaterThanOrEqual(HARMLESS);
    expect(refused).toBeGreaterThanOrEqual(MALFORMED - 20);
    expect(refused).toBeGreaterThanOrEqual(200);
    expect(({} as Record<string, unknown>).numberOfShards).toBeUndefined();
  });
});
