/**
 * The corpus of broken boundary files (src/core/fixtures/boundary-files/, see
 * its README): each file is data/boundaries.json with one edit, and each must
 * be refused by parseBoundaryFile naming the file and exactly the fields the
 * edit broke. The expected fields are worked out by hand from the edit (a
 * reserved key added without re-hashing breaks that key and the hash, a name
 * moved onto another shard breaks its name and its routing, ...), never copied
 * from the validator's output. Files too large to commit are made here.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  validateBoundaryFile,
  checkBoundaryFile,
  computeHash,
  canonicalContent,
  formatBoundaryFile,
  BoundaryFileError,
  MAX_BOUNDARY_FILE_BYTES,
  MAX_LISTED_PROBLEMS,
  MAX_NESTING_DEPTH,
  MAX_OBJECT_FIELDS,
  type BoundaryFile,
} from './boundaries.ts';
import { parseBoundaryFile, checkBoundaryFileSize } from './boundaryText.ts';

const DIR = join(__dirname, 'fixtures', 'boundary-files');
const BUNDLED = readFileSync(join(__dirname, '..', '..', 'data', 'boundaries.json'), 'utf8');
/** The hash committed in data/boundaries.json (the file's identity since it was made; it must not change). */
const BUNDLED_HASH = '0d2676da518a6f6c6a49ef5b89c098adae94dfd93b7680ac985243e419f62cac';

/** refusal parses `text` and returns the BoundaryFileError it must throw. */
function refusal(text: string, source: string): BoundaryFileError {
  try {
    parseBoundaryFile(text, source);
  } catch (e) {
    if (e instanceof BoundaryFileError) return e;
    throw new Error(`${source}: expected a BoundaryFileError, got ${(e as Error).name}: ${(e as Error).message.slice(0, 200)}`);
  }
  throw new Error(`${source}: expected a refusal, but the file was accepted`);
}

// file → the fields its refusal must name (all of them, in any order), and optionally a pattern of the message.
const REFUSED: [file: string, fields: string[], message?: RegExp][] = [
  // Keys that could reach a prototype (JSON.parse makes them own keys), added without re-hashing.
  ['proto-top.json', ['__proto__', 'hash'], /__proto__: "__proto__" is a reserved key/],
  ['proto-shard.json', ['shards[3].__proto__', 'hash']],
  // ... and re-hashed: the key alone is the problem.
  ['constructor-top.json', ['constructor'], /reserved key/],
  ['prototype-balance.json', ['balance.prototype'], /reserved key/],
  // Fields outside the closed schema, re-hashed.
  ['unknown-top.json', ['numberOfShard'], /^numberOfShard: unknown field: a boundary file has only the fields format, index, level, numberOfShards/],
  ['odd-key-top.json', ['["odd key"]'], /unknown field/],
  ['unknown-shard.json', ['shards[2].colour'], /^shards\[2\]\.colour: unknown field: a shard entry has only the fields name, shard, restaurants, dishes/],
  ['unknown-migration.json', ['migration.note'], /unknown field: migration has only the fields epoch, base, target, moves/],
  ['unknown-move.json', ['migration.moves[0].eta'], /unknown field: a move has only the fields start, end, from, to, phase/],
  // A key twice in one object: JSON.parse keeps the last, a reader sees the first.
  ['duplicate-key-top.json', ['version'], /^version: appears twice in one object \(the second time on line 7\)/],
  ['duplicate-key-shard.json', ['shards[3].shard'], /appears twice in one object \(the second time on line 30\)/],
  ['duplicate-key-escaped.json', ['level'], /appears twice/], // "\u006cevel" is "level"
  // Limits.
  ['too-many-shards.json', ['numberOfShards'], /1025 is invalid: expected an integer in \[1, 1024\]/],
  ['deep-balance.json', ['(file)'], new RegExp(`more than ${MAX_NESTING_DEPTH} deep \\(line 44,`)],
  // The validator's other checks.
  ['not-json.json', ['(file)'], /not JSON/],
  ['not-object.json', ['(file)'], /expected a JSON object, got \[\]/],
  ['bad-format.json', ['format']],
  ['bad-level.json', ['level']],
  ['bad-index.json', ['index']],
  ['shards-as-string.json', ['numberOfShards'], /"15" is invalid/],
  ['huge-version.json', ['version', 'hash'], /^version: Infinity \(a number out of range\) is invalid/], // 1e400 parses as Infinity
  ['bad-token.json', ['boundaries[4]'], /"zz" is not an S2 token/],
  ['unsorted.json', ['boundaries[6]'], /is not after boundaries\[5\]/],
  ['duplicate-boundary.json', ['boundaries[6]'], /repeats boundaries\[5\]/],
  ['missing-boundary.json', ['boundaries'], /has 13 tokens: expected numberOfShards - 1 = 14/],
  ['duplicate-name.json', ['shards[3].name', 'shards[3].shard']], // "mike" is shard 1's name and routes to 1, not 3
  ['wrong-route.json', ['shards[0].shard', 'shards[1].shard']],
  ['bad-count.json', ['shards[7].dishes'], /-1 is not a count/],
  ['balance-not-object.json', ['balance'], /^balance: 5 is not an object/],
  ['bad-routing-shards.json', ['routingNumShards'], /20 is invalid: expected a multiple of numberOfShards \(15\)/],
  ['bad-created-at.json', ['createdAt'], /"yesterday-ish" is not an ISO-8601 time/],
  ['wrong-hash.json', ['hash'], /does not match the content/],
];

describe('the corpus of broken boundary files', () => {
  it.each(REFUSED)('refuses %s naming the file and the fields %j', (file, fields, message) => {
    const e = refusal(readFileSync(join(DIR, file), 'utf8'), file);
    expect(e.message.startsWith(`${file} is invalid (`)).toBe(true);
    expect(e.errors.map((x) => x.field).sort()).toEqual([...fields].sort());
    for (const x of e.errors) expect(x.message.startsWith(`${x.field}: `), x.message).toBe(true);
    if (message) expect(e.errors.map((x) => x.message)).toContainEqual(expect.stringMatching(message));
    // No refused key ever reached Object.prototype.
    expect(({} as Record<string, unknown>).numberOfShards).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts a file with moves in progress (the base of the migration cases)', () => {
    const f = parseBoundaryFile(readFileSync(join(DIR, 'migration-valid.json'), 'utf8'), 'migration-valid.json');
    expect(f.migration!.moves).toHaveLength(1);
  });

  it('accepts a file that starts with a byte-order mark and drops the mark: same content, same hash', () => {
    const text = readFileSync(join(DIR, 'bom.json'), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const f = parseBoundaryFile(text, 'bom.json');
    expect(f.hash).toBe(BUNDLED_HASH);
    expect(computeHash(f)).toBe(BUNDLED_HASH);
    expect(Object.keys(f)[0]).toBe('format');
  });

  it('keeps data/boundaries.json valid with its committed hash', () => {
    const f = parseBoundaryFile(BUNDLED, 'data/boundaries.json');
    expect(f.hash).toBe(BUNDLED_HASH);
    expect(computeHash(f)).toBe(BUNDLED_HASH);
  });
});

describe('boundary files too large or too deep to be one', () => {
  it('refuses 200,000 nested arrays naming the file, not with a stack overflow', () => {
    const text = '['.repeat(200_000) + ']'.repeat(200_000);
    const e = refusal(text, 'deep.json');
    expect(e.message).toMatch(new RegExp(`^deep.json is invalid \\(1 problem\\):\\n  \\(file\\): nests arrays or objects more than ${MAX_NESTING_DEPTH} deep`));
  });

  it('refuses 200,000 nested arrays inside a field of an already parsed file, naming the field', () => {
    // JSON.parse itself does not recurse; the validator must not either.
    const f = JSON.parse(BUNDLED.replace('"balance": {', `"balance": { "x": ${'['.repeat(200_000)}${']'.repeat(200_000)},`));
    const errors = validateBoundaryFile(f);
    expect(errors).toEqual([{ field: 'balance', message: expect.stringMatching(/^balance: nests arrays or objects more than 32 deep \(at balance\.x\[0\]\[0\]/) }]);
    expect(() => computeHash(f)).toThrow(RangeError);
  });

  it('refuses brackets nested too deep but not brackets inside strings', () => {
    const inString = BUNDLED.replace('"optimal"', JSON.stringify('['.repeat(100) + '\\"{'.repeat(50)));
    expect(refusal(inString, 'strings.json').errors.map((x) => x.field)).toEqual(['hash']); // the edit, unhashed: nothing else
  });

  it('refuses a 50 MB file of 5.2 million tokens before parsing, naming the file, its size and the limit', () => {
    const text = '{"boundaries": [' + '"89c25c", '.repeat(5_200_000) + '"89c25c"]}';
    expect(text.length).toBeGreaterThan(50_000_000);
    const e = refusal(text, 'huge.json');
    expect(e.message).toBe(
      `huge.json is invalid (1 problem):\n  (file): ${text.length} characters (${(text.length / 1048576).toFixed(1)} MiB or more in UTF-8) is over the limit of 1048576 bytes (1.0 MiB) for a boundary file: one of 1024 shards with a migration is about 310 kB, so this is not a boundary file`,
    );
  });

  it('counts the limit in UTF-8 bytes: 400,000 euro signs are 1.2 million bytes', () => {
    const text = JSON.stringify({ format: '€'.repeat(400_000) });
    expect(text.length).toBeLessThan(MAX_BOUNDARY_FILE_BYTES);
    expect(refusal(text, 'euro.json').message).toContain(`(file): ${1_200_000 + text.length - 400_000} bytes (1.1 MiB) is over the limit of 1048576 bytes`);
  });

  it('keeps the largest valid file, 1024 shards with a full migration, well under the limit', () => {
    // 1024 shard entries of ~85 bytes, 1023 boundaries of ~14, 2047 moves of ~100 (see MAX_MIGRATION_MOVES).
    expect(1024 * 85 + 1023 * 14 + 2047 * 100).toBeLessThan(MAX_BOUNDARY_FILE_BYTES / 3);
  });

  it('refuses an object with more fields than MAX_OBJECT_FIELDS before parsing it, naming it', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `"k${i}": ${i}`).join(', ');
    const text = BUNDLED.replace('"balance": {', `"balance": { ${keys},`);
    expect(refusal(text, 'wide.json').errors).toEqual([{ field: 'balance', message: `balance: has more than ${MAX_OBJECT_FIELDS} fields (line 43): an object of a boundary file has at most ${MAX_OBJECT_FIELDS}` }]);
    const top = refusal(`{ ${keys} }`, 'wide-top.json');
    expect(top.errors.map((e) => e.field)).toEqual(['(file)']);
    // The same file given as an object.
    expect(validateBoundaryFile(JSON.parse(text))).toEqual([{ field: 'balance', message: `balance: has 20005 fields: an object of a boundary file has at most ${MAX_OBJECT_FIELDS}` }]);
  });

  it('refuses more migration moves than MAX_MIGRATION_MOVES with one problem, not one per move', () => {
    const f = JSON.parse(readFileSync(join(DIR, 'migration-valid.json'), 'utf8'));
    f.migration.moves = Array.from({ length: 80_000 }, () => f.migration.moves[0]);
    f.hash = computeHash(f);
    const { problems, total } = checkBoundaryFile(f);
    expect(problems).toEqual([{ field: 'migration.moves', message: 'migration.moves: has 80000 moves: a migration has at most MAX_MIGRATION_MOVES = 2047 (2 * MAX_SHARDS - 1)' }]);
    expect(total).toBe(1);
  });

  it('lets a reader refuse a file by its size before reading it', () => {
    expect(() => checkBoundaryFileSize(MAX_BOUNDARY_FILE_BYTES)).not.toThrow();
    expect(() => checkBoundaryFileSize(MAX_BOUNDARY_FILE_BYTES + 1, 'big.json')).toThrow(/^big.json is invalid \(1 problem\):\n  \(file\): 1048577 bytes \(1\.0 MiB\) is over the limit of 1048576 bytes/);
  });

  it('refuses more boundaries or shards than MAX_SHARDS allows with one problem each, not one per entry', () => {
    const f = JSON.parse(BUNDLED);
    f.boundaries = Array.from({ length: 100_000 }, () => 'zz');
    f.shards = Array.from({ length: 2000 }, () => ({ bad: 1 }));
    const { problems, total } = checkBoundaryFile(f);
    expect(problems.map((p) => p.message)).toEqual([
      'boundaries: has 100000 tokens: a file has at most MAX_SHARDS - 1 = 1023 (one fewer than its shards)',
      'shards: has 2000 entries: a file has at most MAX_SHARDS = 1024 shards',
      expect.stringMatching(/^hash: .* does not match the content/),
    ]);
    expect(total).toBe(3);
  });
});

describe('the list of problems', () => {
  // The bundled file with 8 fields it does not have in each of its 15 shard entries, re-hashed: exactly 120 problems.
  const file = JSON.parse(BUNDLED);
  for (const s of file.shards) for (let i = 0; i < 8; i++) s[`x${i}`] = i;
  file.hash = computeHash(file);

  it(`lists the first ${MAX_LISTED_PROBLEMS} problems, then one line with how many more`, () => {
    const errors = validateBoundaryFile(file);
    expect(errors).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(errors[0].field).toBe('shards[0].x0');
    expect(errors[MAX_LISTED_PROBLEMS - 1].field).toBe('shards[6].x1'); // the 50th: 6 entries of 8, then 2
    expect(errors[MAX_LISTED_PROBLEMS]).toEqual({ field: '(file)', message: 'and 70 more problems' });
  });

  it('gives the count of all problems', () => {
    const { problems, total } = checkBoundaryFile(file);
    expect(total).toBe(120);
    expect(problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(checkBoundaryFile(file, 200).problems).toHaveLength(120);
  });

  it('keeps the error message readable: the count, the first problems and the rest counted', () => {
    const e = refusal(formatBoundaryFile(file as BoundaryFile), 'extra.json');
    expect(e.total).toBe(120);
    const lines = e.message.split('\n');
    expect(lines[0]).toBe('extra.json is invalid (120 problems):');
    expect(lines).toHaveLength(1 + MAX_LISTED_PROBLEMS + 1);
    expect(lines[lines.length - 1]).toBe('  and 70 more problems');
  });

  it('shortens a long list given to BoundaryFileError the same way', () => {
    const many = Array.from({ length: 75 }, (_, i) => ({ field: `f${i}`, message: `f${i}: bad` }));
    const e = new BoundaryFileError(many, 'x.json');
    expect(e.total).toBe(75);
    expect(e.errors).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(e.message.split('\n')[0]).toBe('x.json is invalid (75 problems):');
    expect(e.message.endsWith('\n  and 25 more problems')).toBe(true);
  });
});

describe('one hash per content', () => {
  const bundled = (): Record<string, any> => JSON.parse(BUNDLED);
  const migrating = (): Record<string, any> => JSON.parse(readFileSync(join(DIR, 'migration-valid.json'), 'utf8'));
  // Where an extra key can go, and the keys to try there (JSON.parse makes each an own key).
  const places: [name: string, make: () => Record<string, any>, at: (f: Record<string, any>) => Record<string, any>][] = [
    ['the file', bundled, (f) => f],
    ['a shard entry', bundled, (f) => f.shards[4]],
    ['balance', bundled, (f) => f.balance],
    ['migration', migrating, (f) => f.migration],
    ['a move', migrating, (f) => f.migration.moves[0]],
  ];
  const keys = ['__proto__', 'constructor', 'prototype', 'toJSON', 'hash', 'x', '', 'odd key', 'Name', 'numberOfShards '];

  it.each(places)('never gives a file plus an extra key in %s the hash of the file: it is refused, or hashes differently', (_, make, at) => {
    for (const key of keys) {
      const original = make();
      const before = computeHash(original);
      // Add the key as JSON.parse would: an own data property, whatever its name.
      const f = make();
      const target = at(f);
      if (Object.hasOwn(target, key)) continue; // `hash` of the file is its own field
      Object.defineProperty(target, key, { value: { numberOfShards: 99 }, enumerable: true, writable: true, configurable: true });
      const after = computeHash(f);
      expect(after, `${key} in ${_}`).not.toBe(before);
      f.hash = after; // re-hashed: only the key can be refused
      const errors = validateBoundaryFile(f);
      if (errors.length > 0) expect(errors.map((e) => e.field).join(' ')).toContain(key === '' ? '[""]' : key.includes(' ') ? JSON.stringify(key) : key);
      else expect(_).toBe('balance'); // balance is free-form: kept and hashed
    }
  });

  it('keeps an own "__proto__" key in the canonical content instead of turning it into a prototype', () => {
    const f = JSON.parse('{"a": 1, "__proto__": {"b": 2}}');
    expect(canonicalContent(f)).toBe('{"__proto__":{"b":2},"a":1}');
  });
});
