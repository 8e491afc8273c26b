/**
 * The boundary file: the one artefact that must be identical wherever the
 * index is written or searched.
 *
 * Shard i (in key order) holds the level-10 cells whose ids lie in
 * [boundaries[i-1], boundaries[i]), with boundaries[-1] = the first cell of
 * face 0 and boundaries[N-1] = past the last cell of face 5. Its entry
 * shards[i] names it and gives the OpenSearch shard number its name routes to.
 */
import { parseToken, cellOrdinal, CELL_COUNT } from './cells.ts';
import { shardForRouting, defaultRoutingNumShards, MAX_SHARDS } from './routingHash.ts';
import { sha256 } from './sha256.ts';
import { validateMigration, type Migration } from './migration.ts';

/** The format tag of boundary files this core reads and writes. */
export const BOUNDARY_FORMAT = 'geoshard-boundaries/1';

/** One shard of a boundary file, in key order. */
export interface ShardEntry {
  /** The routing value: a name whose routing hash lands on `shard`. */
  name: string;
  /** The OpenSearch shard number in [0, numberOfShards). */
  shard: number;
  /** Restaurants in the shard's range when the file was made (optional, informative). */
  restaurants?: number;
  /** Dishes in the shard's range when the file was made (optional, informative). */
  dishes?: number;
}

/** A boundary file as stored in data/boundaries.json. */
export interface BoundaryFile {
  format: typeof BOUNDARY_FORMAT;
  /** The OpenSearch index the file routes. */
  index: string;
  /** Always 10: the S2 level of placement. */
  level: number;
  /** N, the index's number of primary shards. */
  numberOfShards: number;
  /** index.number_of_routing_shards; absent means OpenSearch's default for N. */
  routingNumShards?: number;
  /** N-1 level-10 tokens ascending in key order; shard i starts at boundaries[i-1]. */
  boundaries: string[];
  /** N entries in key order. */
  shards: ShardEntry[];
  /** A positive integer, incremented by each derived file. */
  version: number;
  /** ISO-8601 time the file was made. */
  createdAt: string;
  /** The hash of the file this one was derived from, or null. */
  parent: string | null;
  /** sha256 of canonicalContent(file): the file's identity. */
  hash: string;
  /** Optional description of how the file was made (balancer, method, evenness). */
  balance?: Record<string, unknown>;
  /** Moves in progress on a live index (see migration.ts); absent when none. */
  migration?: Migration;
}

/** A validation problem: the JSON path of the field and a message naming its value. */
export interface ValidationError {
  field: string;
  message: string;
}

/**
 * canonicalContent returns the bytes the file hash is taken over: the file as
 * JSON without its `hash` field, object keys sorted, no white space.
 */
export function canonicalContent(file: object): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        if (k === 'hash' && v === file) continue;
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = sortKeys(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(file));
}

/** computeHash returns the sha256 (hex) of a boundary file's canonical content. */
export function computeHash(file: object): string {
  return sha256(canonicalContent(file));
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
};

/**
 * validateBoundaryFile checks everything routing depends on and returns every
 * problem found (an empty list means valid). It never throws. Checks: format,
 * index name, level, counts, that every boundary is a canonical level-10
 * token strictly after the previous one, unique names, shard numbers in range
 * and unique, every name's routing hash landing on its declared shard, version,
 * createdAt, parent, the optional `migration` (see migration.ts), and that
 * `hash` matches the content.
 */
export function validateBoundaryFile(input: unknown): ValidationError[] {
  const errors: ValidationError[] = [];
  const err = (field: string, message: string) => errors.push({ field, message: `${field}: ${message}` });
  if (!isObj(input)) {
    err('(file)', `expected a JSON object, got ${show(input)}`);
    return errors;
  }
  const f = input;
  if (f.format !== BOUNDARY_FORMAT) err('format', `${show(f.format)} is not supported: expected "${BOUNDARY_FORMAT}"`);
  if (typeof f.index !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/.test(f.index) || f.index.length > 255) {
    err('index', `${show(f.index)} is not a valid OpenSearch index name: lower-case letters, digits, ".", "_" or "-", not starting with a symbol`);
  }
  if (f.level !== 10) err('level', `${show(f.level)} is not supported: expected 10`);
  const n = f.numberOfShards;
  const nOk = typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_SHARDS;
  if (!nOk) err('numberOfShards', `${show(n)} is invalid: expected an integer in [1, ${MAX_SHARDS}]`);
  let rns: number | undefined;
  if (nOk) {
    rns = defaultRoutingNumShards(n as number);
    if (f.routingNumShards !== undefined) {
      const r = f.routingNumShards;
      if (typeof r !== 'number' || !Number.isInteger(r) || r < (n as number) || r % (n as number) !== 0) {
        err('routingNumShards', `${show(r)} is invalid: expected a multiple of numberOfShards (${n}), or omit it for OpenSearch's default (${rns})`);
        rns = undefined;
      } else rns = r;
    }
  }

  // Boundaries: N-1 canonical level-10 tokens, strictly ascending by cell id.
  const errorsBefore = errors.length;
  if (!Array.isArray(f.boundaries)) {
    err('boundaries', `${show(f.boundaries)} is not an array of level-10 tokens`);
  } else {
    if (nOk && f.boundaries.length !== (n as number) - 1) {
      err('boundaries', `has ${f.boundaries.length} tokens: expected numberOfShards - 1 = ${(n as number) - 1}`);
    }
    let prev: { token: string; ord: number; i: number } | null = null;
    f.boundaries.forEach((t, i) => {
      let ord: number;
      try {
        ord = cellOrdinal(parseToken(t as string, `boundaries[${i}]:`));
      } catch (e) {
        errors.push({ field: `boundaries[${i}]`, message: (e as Error).message });
        return;
      }
      if (ord === 0) {
        err(`boundaries[${i}]`, `"${t}" is the first cell of face 0: shard 0 would be empty; boundaries must be after the first cell`);
      }
      if (prev && ord <= prev.ord) {
        err(
          `boundaries[${i}]`,
          ord === prev.ord
            ? `"${t}" repeats boundaries[${prev.i}]: boundaries must be distinct (an empty shard is not allowed)`
            : `"${t}" is not after boundaries[${prev.i}] "${prev.token}": boundaries must ascend in key order (compare cell ids, not token strings)`,
        );
      }
      prev = { token: t as string, ord, i };
    });
  }
  const boundariesOk = errors.length === errorsBefore && nOk;

  // Shards: N entries with unique names and unique shard numbers their names route to.
  const errorsBeforeShards = errors.length;
  if (!Array.isArray(f.shards)) {
    err('shards', `${show(f.shards)} is not an array of { name, shard }`);
  } else {
    if (nOk && f.shards.length !== n) err('shards', `has ${f.shards.length} entries: expected numberOfShards = ${n}`);
    const names = new Map<string, number>();
    const numbers = new Map<number, number>();
    f.shards.forEach((s, i) => {
      const p = `shards[${i}]`;
      if (!isObj(s)) {
        err(p, `${show(s)} is not an object { name, shard }`);
        return;
      }
      const name = s.name;
      if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
        err(`${p}.name`, `${show(name)} is not a valid shard name: 1 to 64 letters, digits, "_", "." or "-" (no commas or spaces: a routing string joins names with commas)`);
      } else if (names.has(name)) {
        err(`${p}.name`, `"${name}" is already the name of shards[${names.get(name)}]: names must be unique`);
      } else names.set(name, i);
      const num = s.shard;
      if (typeof num !== 'number' || !Number.isInteger(num) || num < 0 || (nOk && num >= (n as number))) {
        err(`${p}.shard`, `${show(num)} is not a shard number: expected an integer in [0, ${nOk ? (n as number) - 1 : 'numberOfShards - 1'}]`);
      } else if (numbers.has(num)) {
        err(`${p}.shard`, `${num} is already declared by shards[${numbers.get(num)}]: each OpenSearch shard holds one range`);
      } else {
        numbers.set(num, i);
        if (typeof name === 'string' && nOk && rns !== undefined) {
          const actual = shardForRouting(name, n as number, rns);
          if (actual !== num) {
            err(`${p}.shard`, `name "${name}" routes to OpenSearch shard ${actual} of ${n}, not the declared ${num}: pick a name that routes to ${num} (geoshard shard-of --shards ${n} NAME)`);
          }
        }
      }
      for (const k of ['restaurants', 'dishes'] as const) {
        const v = s[k];
        if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0)) {
          err(`${p}.${k}`, `${show(v)} is not a count: expected a non-negative integer or no field`);
        }
      }
    });
  }

  const shardsOk = errors.length === errorsBeforeShards && nOk;

  if (f.migration !== undefined) {
    const starts = boundariesOk ? [0, ...(f.boundaries as string[]).map((t) => cellOrdinal(parseToken(t))), CELL_COUNT] : null;
    const names = shardsOk ? (f.shards as { name: string }[]).map((s) => s.name) : null;
    validateMigration(f.migration, { names, starts, baseHash: computeHash({ ...f, migration: undefined }) }, err);
  }

  if (typeof f.version !== 'number' || !Number.isInteger(f.version) || f.version < 1) {
    err('version', `${show(f.version)} is invalid: expected a positive integer`);
  }
  if (typeof f.createdAt !== 'string' || Number.isNaN(Date.parse(f.createdAt))) {
    err('createdAt', `${show(f.createdAt)} is not an ISO-8601 time such as "2026-11-30T00:00:00.000Z"`);
  }
  if (f.parent !== null && (typeof f.parent !== 'string' || !/^[0-9a-f]{64}$/.test(f.parent))) {
    err('parent', `${show(f.parent)} is invalid: expected null or the 64-hex-digit hash of the file this one derives from`);
  }
  if (typeof f.hash !== 'string' || !/^[0-9a-f]{64}$/.test(f.hash)) {
    err('hash', `${show(f.hash)} is not a sha256: expected 64 lower-case hex digits (geoshard hash FILE --write computes it)`);
  } else {
    const expected = computeHash(f);
    if (expected !== f.hash) {
      err('hash', `"${f.hash}" does not match the content (sha256 ${expected}): the file was edited after it was hashed; review the edit, then run geoshard hash FILE --write`);
    }
  }
  return errors;
}

/** BoundaryFileError is thrown when an invalid boundary file is loaded; `errors` lists every problem. */
export class BoundaryFileError extends Error {
  readonly errors: ValidationError[];
  constructor(errors: ValidationError[], source = 'boundary file') {
    super(`${source} is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n  ${errors.map((e) => e.message).join('\n  ')}`);
    this.name = 'BoundaryFileError';
    this.errors = errors;
  }
}

/** assertValidBoundaryFile throws a BoundaryFileError listing every problem unless the file is valid. */
export function assertValidBoundaryFile(input: unknown, source?: string): asserts input is BoundaryFile {
  const errors = validateBoundaryFile(input);
  if (errors.length > 0) throw new BoundaryFileError(errors, source);
}

/**
 * parseBoundaryFile parses JSON text and validates it; throws a
 * BoundaryFileError (or one naming the JSON syntax problem).
 */
export function parseBoundaryFile(text: string, source = 'boundary file'): BoundaryFile {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new BoundaryFileError([{ field: '(file)', message: `(file): not JSON: ${(e as Error).message}` }], source);
  }
  assertValidBoundaryFile(obj, source);
  return obj;
}

/** withHash returns a copy of the file with `hash` recomputed from its content. */
export function withHash<T extends Omit<BoundaryFile, 'hash'> & { hash?: string }>(file: T): T & { hash: string } {
  const copy = { ...file, hash: '' };
  copy.hash = computeHash(copy);
  return copy;
}

/**
 * formatBoundaryFile writes a file as stored on disk: 2-space JSON with the
 * fields in a fixed, readable order and a trailing newline.
 */
export function formatBoundaryFile(file: BoundaryFile): string {
  const order = ['format', 'index', 'level', 'numberOfShards', 'routingNumShards', 'version', 'createdAt', 'parent', 'hash', 'boundaries', 'shards', 'balance', 'migration'];
  const out: Record<string, unknown> = {};
  for (const k of order) if ((file as unknown as Record<string, unknown>)[k] !== undefined) out[k] = (file as unknown as Record<string, unknown>)[k];
  for (const k of Object.keys(file)) if (!(k in out)) out[k] = (file as unknown as Record<string, unknown>)[k];
  // Keep each shard entry (and each migration move) on one line: a diff of two files reads shard by shard.
  const json = JSON.stringify(out, null, 2).replace(/\{\n\s+((?:"name"|"start")[^{}]*?)\n\s+\}/g, (_, body: string) => `{ ${body.replace(/\n\s+/g, ' ')} }`);
  return json + '\n';
}
