/**
 * The boundary file: the one artefact that must be identical wherever the
 * index is written or searched.
 *
 * Shard i (in key order) holds the level-10 cells whose ids lie in
 * [boundaries[i-1], boundaries[i]), with boundaries[-1] = the first cell of
 * face 0 and boundaries[N-1] = past the last cell of face 5. Its entry
 * shards[i] names it and gives the OpenSearch shard number its name routes to.
 *
 * This file is the format: its types, limits, canonical hash, validation (every problem, naming
 * field and value) and formatting. Reading a file's text (size limit, raw-JSON scan, parse) is
 * boundaryText.ts.
 */
import { parseToken, cellOrdinal, CELL_COUNT } from './cells.ts';
import { shardForRouting, defaultRoutingNumShards, MAX_SHARDS } from './routingHash.ts';
import { sha256 } from './sha256.ts';
import { validateMigration, type Migration } from './migration.ts';
import { RESERVED_KEYS, fieldPath, reportUnknownFields, show } from './fields.ts';

export { RESERVED_KEYS };

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
 * MAX_BOUNDARY_FILE_BYTES is the largest boundary file the core reads: 1 MiB
 * of UTF-8. The largest valid file, MAX_SHARDS shards with counts, a balance
 * report and a migration of MAX_MIGRATION_MOVES moves, is about 310 kB
 * (data/boundaries.json, 15 shards, is 2 kB), so anything larger is not a
 * boundary file; it is refused before it is parsed (parseBoundaryFile,
 * checkBoundaryFileSize) instead of after minutes of work. The number of
 * shards is bounded by MAX_SHARDS (OpenSearch's own limit of primary shards
 * per index), which validation applies to `numberOfShards`, `boundaries` and
 * `shards` before looking at their entries.
 */
export const MAX_BOUNDARY_FILE_BYTES = 1024 * 1024;

/** An OpenSearch index (or alias) name as the validator accepts it (at most 255 characters). */
export const INDEX_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

/** A shard name (a routing value): no commas or spaces, since a routing string joins names with commas. */
export const SHARD_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** A sha256 as the file writes it (hash, parent). */
export const HASH_PATTERN = /^[0-9a-f]{64}$/;

/**
 * MAX_OBJECT_FIELDS is the most keys one object of a boundary file may have:
 * the file itself has at most 13, `balance` a handful. More is refused before
 * parsing (JSON.parse takes seconds over an object of 100,000 keys).
 */
export const MAX_OBJECT_FIELDS = 64;

/**
 * MAX_NESTING_DEPTH is how deeply arrays and objects may nest in a boundary
 * file, counting the file itself as 1. Its own fields need 3 (`shards[i]`,
 * `balance.range`, `migration.moves[i]`); deeper values are refused before any
 * other check, so no check recurses without bound.
 */
export const MAX_NESTING_DEPTH = 32;

/**
 * MAX_LISTED_PROBLEMS is the most problems validateBoundaryFile lists; when a
 * file has more, the list ends with one line "and N more problems" and
 * checkBoundaryFile (or BoundaryFileError.total) gives the count.
 */
export const MAX_LISTED_PROBLEMS = 50;


/**
 * The fields a boundary file may have (its schema is closed: any other field is
 * refused, naming it, so every byte of content is either checked or hashed).
 */
export const BOUNDARY_FILE_FIELDS: readonly (keyof BoundaryFile)[] = ['format', 'index', 'level', 'numberOfShards', 'routingNumShards', 'boundaries', 'shards', 'version', 'createdAt', 'parent', 'hash', 'balance', 'migration'];

/** The fields a shard entry may have. */
export const SHARD_ENTRY_FIELDS: readonly (keyof ShardEntry)[] = ['name', 'shard', 'restaurants', 'dishes'];

/**
 * canonicalContent returns the bytes the file hash is taken over: the file as
 * JSON without its `hash` field, object keys sorted, no white space. Every own
 * key is kept, even `__proto__` (copies are null-prototype objects), so two
 * different contents never give the same bytes. Throws a RangeError for values
 * nested deeper than MAX_NESTING_DEPTH (validation refuses those first).
 */
export function canonicalContent(file: object): string {
  const sortKeys = (v: unknown, depth: number): unknown => {
    if (v && typeof v === 'object' && depth > MAX_NESTING_DEPTH) {
      throw new RangeError(`the file nests arrays or objects more than ${MAX_NESTING_DEPTH} deep: it cannot be a boundary file`);
    }
    if (Array.isArray(v)) return v.map((x) => sortKeys(x, depth + 1));
    if (v && typeof v === 'object') {
      // A null-prototype copy: assigning "__proto__" makes an own key, not a new prototype.
      const out: Record<string, unknown> = Object.create(null);
      for (const k of Object.keys(v).sort()) {
        if (k === 'hash' && v === file) continue;
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = sortKeys(x, depth + 1);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(file, 1));
}

/** computeHash returns the sha256 (hex) of a boundary file's canonical content. */
export function computeHash(file: object): string {
  return sha256(canonicalContent(file));
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What checkBoundaryFile found: the first problems (at most the limit asked for) and how many there are in all. */
export interface BoundaryFileCheck {
  /** The first problems found, in the order the checks run. */
  problems: ValidationError[];
  /** The number of problems in all (>= problems.length). */
  total: number;
}

/**
 * scanStructure walks the whole value without recursion and reports reserved
 * keys (anywhere) and nesting deeper than MAX_NESTING_DEPTH. Returns false
 * when the value is too deep for the other checks to look at.
 */
function scanStructure(root: unknown, err: (field: string, message: string) => void): boolean {
  // Paths are built only for a problem: each stack entry links to its parent.
  type Node = { v: object; depth: number; parent: Node | null; key: string | number };
  const pathOf = (n: Node): string => {
    const parts: (string | number)[] = [];
    for (let x: Node | null = n; x && x.parent; x = x.parent) parts.push(x.key);
    let p = '';
    for (const k of parts.reverse()) p = typeof k === 'number' ? `${p}[${k}]` : fieldPath(p, k);
    return p;
  };
  if (!root || typeof root !== 'object') return true;
  const stack: Node[] = [{ v: root, depth: 1, parent: null, key: '' }];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.depth > MAX_NESTING_DEPTH) {
      let top: Node = n;
      while (top.parent && top.parent.parent) top = top.parent;
      const where = top.parent && !Array.isArray(root) ? pathOf(top) : '(file)';
      const at = pathOf(n);
      err(where, `nests arrays or objects more than ${MAX_NESTING_DEPTH} deep (at ${at.length > 40 ? at.slice(0, 40) + '...' : at || 'the top'}): a boundary file's fields nest at most 3 deep`);
      return false;
    }
    if (Array.isArray(n.v)) {
      for (let i = n.v.length - 1; i >= 0; i--) {
        const x: unknown = n.v[i];
        if (x && typeof x === 'object') stack.push({ v: x, depth: n.depth + 1, parent: n, key: i });
      }
    } else {
      const keys = Object.keys(n.v);
      if (keys.length > MAX_OBJECT_FIELDS) {
        err(pathOf(n) || '(file)', `has ${keys.length} fields: an object of a boundary file has at most ${MAX_OBJECT_FIELDS}`);
        return false;
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        if (RESERVED_KEYS.includes(k)) {
          err(fieldPath(pathOf(n), k), `"${k}" is a reserved key and cannot appear in a boundary file (keys ${RESERVED_KEYS.map((r) => `"${r}"`).join(', ')} are refused at every level)`);
          continue;
        }
        const x: unknown = (n.v as Record<string, unknown>)[k];
        if (x && typeof x === 'object') stack.push({ v: x, depth: n.depth + 1, parent: n, key: k });
      }
    }
  }
  return true;
}

/**
 * validateBoundaryFile checks everything routing depends on and returns the
 * problems found (an empty list means valid): at most MAX_LISTED_PROBLEMS of
 * them, then, when there are more, one last entry (field "(file)") whose
 * message is "and N more problems"; checkBoundaryFile gives the count. It never
 * throws, whatever the input (a value from JSON.parse, or any object).
 *
 * Checks: no reserved key (`__proto__`, `constructor`, `prototype`) at any
 * depth and nesting at most MAX_NESTING_DEPTH; no field outside the schema
 * (BOUNDARY_FILE_FIELDS, SHARD_ENTRY_FIELDS, and those of `migration` and its
 * moves; `balance` is free-form and hashed); format, index name, level,
 * counts (numberOfShards in [1, MAX_SHARDS]), that every boundary is a
 * canonical level-10 token strictly after the previous one, unique names,
 * shard numbers in range and unique, every name's routing hash landing on its
 * declared shard, version, createdAt, parent, the optional `migration` (see
 * migration.ts), and that `hash` matches the content.
 */
export function validateBoundaryFile(input: unknown): ValidationError[] {
  const { problems, total } = checkBoundaryFile(input);
  return listProblems(problems, total);
}

/** listProblems returns the first MAX_LISTED_PROBLEMS problems and, if total is larger, a last "and N more problems" entry. */
function listProblems(problems: readonly ValidationError[], total: number): ValidationError[] {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = Math.max(total, problems.length) - listed.length;
  if (more > 0) listed.push({ field: '(file)', message: `and ${more} more problem${more === 1 ? '' : 's'}` });
  return listed;
}

/**
 * checkBoundaryFile runs validateBoundaryFile's checks and returns the first
 * `maxListed` problems (default MAX_LISTED_PROBLEMS; >= 0) and the number of
 * problems in all. Never throws.
 */
export function checkBoundaryFile(input: unknown, maxListed: number = MAX_LISTED_PROBLEMS): BoundaryFileCheck {
  const problems: ValidationError[] = [];
  let total = 0;
  const push = (e: ValidationError) => {
    total++;
    if (problems.length < maxListed) problems.push(e);
  };
  const err = (field: string, message: string) => push({ field, message: `${field}: ${message}` });
  if (!scanStructure(input, err)) return { problems, total };
  if (!isObj(input)) {
    err('(file)', `expected a JSON object, got ${show(input)}`);
    return { problems, total };
  }
  reportUnknownFields(input, '', 'a boundary file', BOUNDARY_FILE_FIELDS, err);
  const f = input;
  if (f.format !== BOUNDARY_FORMAT) err('format', `${show(f.format)} is not supported: expected "${BOUNDARY_FORMAT}"`);
  if (typeof f.index !== 'string' || !INDEX_NAME_PATTERN.test(f.index) || f.index.length > 255) {
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
  const errorsBefore = total;
  if (!Array.isArray(f.boundaries)) {
    err('boundaries', `${show(f.boundaries)} is not an array of level-10 tokens`);
  } else if (f.boundaries.length > MAX_SHARDS - 1) {
    // Too many to be a file of at most MAX_SHARDS shards: checking each would only list noise.
    err('boundaries', `has ${f.boundaries.length} tokens: a file has at most MAX_SHARDS - 1 = ${MAX_SHARDS - 1} (one fewer than its shards)`);
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
        push({ field: `boundaries[${i}]`, message: (e as Error).message });
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
  const boundariesOk = total === errorsBefore && nOk;

  // Shards: N entries with unique names and unique shard numbers their names route to.
  const errorsBeforeShards = total;
  if (!Array.isArray(f.shards)) {
    err('shards', `${show(f.shards)} is not an array of { name, shard }`);
  } else if (f.shards.length > MAX_SHARDS) {
    err('shards', `has ${f.shards.length} entries: a file has at most MAX_SHARDS = ${MAX_SHARDS} shards`);
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
      reportUnknownFields(s, p, 'a shard entry', SHARD_ENTRY_FIELDS, err);
      const name = s.name;
      if (typeof name !== 'string' || !SHARD_NAME_PATTERN.test(name)) {
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

  const shardsOk = total === errorsBeforeShards && nOk;

  if (f.balance !== undefined && !isObj(f.balance)) {
    err('balance', `${show(f.balance)} is not an object describing how the file was made (method, evenness, ...): give an object or no field`);
  }

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
  if (f.parent !== null && (typeof f.parent !== 'string' || !HASH_PATTERN.test(f.parent))) {
    err('parent', `${show(f.parent)} is invalid: expected null or the 64-hex-digit hash of the file this one derives from`);
  }
  if (typeof f.hash !== 'string' || !HASH_PATTERN.test(f.hash)) {
    err('hash', `${show(f.hash)} is not a sha256: expected 64 lower-case hex digits (geoshard hash --boundaries FILE --write computes it)`);
  } else {
    const expected = computeHash(f);
    if (expected !== f.hash) {
      err('hash', `"${f.hash}" does not match the content (sha256 ${expected}): the file was edited after it was hashed; review the edit, then run geoshard hash --boundaries FILE --write`);
    }
  }
  return { problems, total };
}

/**
 * BoundaryFileError is thrown when an invalid boundary file is loaded.
 * `errors` lists the problems as validateBoundaryFile does (at most
 * MAX_LISTED_PROBLEMS, then "and N more problems"); `total` counts them all.
 * The message names the source and lists the same lines.
 */
export class BoundaryFileError extends Error {
  readonly errors: ValidationError[];
  /** The number of problems in all. */
  readonly total: number;
  /**
   * errors: the problems found (any number: the first MAX_LISTED_PROBLEMS are
   * kept, then "and N more problems"), or a list validateBoundaryFile already
   * shortened (it ends with that line); total: the number in all, when
   * `errors` holds only the first ones.
   */
  constructor(errors: ValidationError[], source = 'boundary file', total = errors.length) {
    const more = errors.length > 0 && /^and \d+ more problems?$/.test(errors[errors.length - 1].message);
    const listed = more ? errors : listProblems(errors, total);
    const count = Math.max(total, errors.length - (more ? 1 : 0));
    super(`${source} is invalid (${count} problem${count === 1 ? '' : 's'}):\n  ${listed.map((e) => e.message).join('\n  ')}`);
    this.name = 'BoundaryFileError';
    this.errors = listed;
    this.total = count;
  }
}

/** assertValidBoundaryFile throws a BoundaryFileError listing the problems (see validateBoundaryFile) unless the file is valid. */
export function assertValidBoundaryFile(input: unknown, source?: string): asserts input is BoundaryFile {
  const { problems, total } = checkBoundaryFile(input);
  if (total > 0) throw new BoundaryFileError(problems, source, total);
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
  const out: Record<string, unknown> = Object.create(null);
  for (const k of order) if ((file as unknown as Record<string, unknown>)[k] !== undefined) out[k] = (file as unknown as Record<string, unknown>)[k];
  for (const k of Object.keys(file)) if (!(k in out)) out[k] = (file as unknown as Record<string, unknown>)[k];
  // Keep each shard entry (and each migration move) on one line: a diff of two files reads shard by shard.
  const json = JSON.stringify(out, null, 2).replace(/\{\n\s+((?:"name"|"start")[^{}]*?)\n\s+\}/g, (_, body: string) => `{ ${body.replace(/\n\s+/g, ' ')} }`);
  return json + '\n';
}
