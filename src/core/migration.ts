/**
 * Moves in progress: the optional `migration` field of a boundary file.
 *
 * OpenSearch cannot move a document between shards, so moving a key range
 * from one shard to another on a live index means writing the range to both
 * owners, copying what the old owner already holds, switching searches over,
 * and deleting the old copies. A boundary file records where that stands, so
 * every writer and searcher that loads the file routes the same way:
 *
 *     "migration": {
 *       "epoch": 3,                 // positive integer, +1 for every file published during the migration
 *       "base": "<sha256>",         // hash of this same file without its migration field
 *       "target": "<sha256>",       // hash of the boundary file the migration ends with
 *       "moves": [
 *         { "start": "89c25c", "end": "89c2a4", "from": "sierra", "to": "echo", "phase": "copying" }
 *       ]
 *     }
 *
 * The file's `boundaries` and `shards` stay those of the file the migration
 * started from (`base` checks that nothing else was edited). Each move takes
 * the level-10 cells with ids in [start, end) (start inclusive, end exclusive,
 * `end: null` = to the end of face 5) from `from`, the shard that owns them in
 * `boundaries`, to `to`, another shard of the same file. Moves ascend in key
 * order and do not overlap. Files without the field are unchanged and valid.
 *
 * What each phase means for one move (see phaseRouting):
 *
 *     phase        writes go to   searches read   copies searches must ignore
 *     dual-write   from + to      from            to   (new writes only: a partial copy)
 *     copying      from + to      from            to   (the backfill is running)
 *     verified     from + to      from            to   (counts match)
 *     switched     from + to      to              from (the old copy stays complete: rollback)
 *     done         to             to              from (stale until deleted)
 *
 * The old owner stays the only reader of a range until the switch, and the
 * new owner the only reader after it, so a document is read from exactly one
 * copy. Because OpenSearch routes a search to whole shards, a search asking
 * both owners of a move (for other ranges they own) would see both copies of
 * the range: it must drop the copies named by the move's ignored owner (see
 * Router.readExclusions: documents of the range whose `_routing` is that name).
 */
import { parseToken, cellOrdinal, CELL_COUNT } from './cells.ts';
import { reportUnknownFields, show } from './fields.ts';
import { MAX_SHARDS } from './routingHash.ts';

/** The phases of one move, in the order a move goes through them. */
export const MIGRATION_PHASES = ['dual-write', 'copying', 'verified', 'switched', 'done'] as const;

/**
 * MAX_MIGRATION_MOVES is the most moves a migration may list: 2 * MAX_SHARDS - 1.
 * Moves lie between consecutive boundaries of the union of the base and
 * target files' boundaries (at most 2 * (MAX_SHARDS - 1) cuts), so no
 * migration between two valid files needs more.
 */
export const MAX_MIGRATION_MOVES = 2 * MAX_SHARDS - 1;

/** The fields of a boundary file's `migration` (the schema is closed: others are refused). */
export const MIGRATION_FIELDS: readonly (keyof Migration)[] = ['epoch', 'base', 'target', 'moves'];

/** The fields of one move of `migration.moves`. */
export const MIGRATION_MOVE_FIELDS: readonly (keyof MigrationMove)[] = ['start', 'end', 'from', 'to', 'phase'];

/** A move's phase: see the table in this file's comment. */
export type MigrationPhase = (typeof MIGRATION_PHASES)[number];

/** One key range moving between two shards of the same file. */
export interface MigrationMove {
  /** First level-10 cell of the range (inclusive), a token as in `boundaries`. */
  start: string;
  /** First level-10 cell after the range (exclusive), or null for the end of the curve. */
  end: string | null;
  /** Name of the shard that owns the range in the file's `boundaries`. */
  from: string;
  /** Name of the shard the range moves to; a shard of the same file. */
  to: string;
  phase: MigrationPhase;
}

/** The `migration` field of a boundary file with moves in progress. */
export interface Migration {
  /** Positive integer; every file published during one migration has the next epoch. */
  epoch: number;
  /** sha256 of this file without its migration field (the file the migration started from). */
  base: string;
  /** sha256 of the boundary file the migration ends with. */
  target: string;
  /** At least one move, ascending in key order, not overlapping. */
  moves: MigrationMove[];
}

/** Who does what for one move in a phase. */
export interface PhaseRouting {
  /** The owner searches read the range from. */
  reads: 'from' | 'to';
  /** The owners a write of a document in the range goes to (old owner first). */
  writes: ('from' | 'to')[];
  /** The owner whose copy of the range searches must ignore. */
  ignores: 'from' | 'to';
}

const ROUTING: Record<MigrationPhase, PhaseRouting> = {
  'dual-write': { reads: 'from', writes: ['from', 'to'], ignores: 'to' },
  copying: { reads: 'from', writes: ['from', 'to'], ignores: 'to' },
  verified: { reads: 'from', writes: ['from', 'to'], ignores: 'to' },
  switched: { reads: 'to', writes: ['from', 'to'], ignores: 'from' },
  done: { reads: 'to', writes: ['to'], ignores: 'from' },
};

/** phaseRouting returns who reads, who is written and whose copy is ignored in a phase. */
export function phaseRouting(phase: MigrationPhase): PhaseRouting {
  return ROUTING[phase];
}

/** A move with its range as level-10 ordinals and its owners as key-order shard indices. */
export interface ResolvedMove extends MigrationMove {
  /** First ordinal of the range, in [0, CELL_COUNT). */
  startOrdinal: number;
  /** Ordinal after the range, in (startOrdinal, CELL_COUNT]. */
  endOrdinal: number;
  fromIndex: number;
  toIndex: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const HASH_RE = /^[0-9a-f]{64}$/;

/** What validateMigration needs to know about the rest of the file. */
export interface MigrationContext {
  /** Shard names in key order, or null when the shards list is itself invalid. */
  names: readonly string[] | null;
  /** starts[i] = first ordinal of shard i, starts[N] = CELL_COUNT; null when the boundaries are invalid. */
  starts: ArrayLike<number> | null;
  /** sha256 of the file without its migration (and hash) field. */
  baseHash: string;
}

/**
 * validateMigration checks a `migration` value and calls err(field, message)
 * for every problem (fields are JSON paths such as `migration.moves[2].to`).
 * Range and owner checks run only when the context's names and starts are
 * known (the rest of the file is valid). It never throws.
 */
export function validateMigration(m: unknown, ctx: MigrationContext, err: (field: string, message: string) => void): void {
  if (!isObj(m)) {
    err('migration', `${show(m)} is not an object { epoch, base, target, moves }: omit the field when no move is in progress`);
    return;
  }
  reportUnknownFields(m, 'migration', 'migration', MIGRATION_FIELDS, err);
  if (typeof m.epoch !== 'number' || !Number.isInteger(m.epoch) || m.epoch < 1) {
    err('migration.epoch', `${show(m.epoch)} is invalid: expected a positive integer`);
  }
  if (typeof m.base !== 'string' || !HASH_RE.test(m.base)) {
    err('migration.base', `${show(m.base)} is not a sha256: expected the 64-hex-digit hash of this file without its migration field (${ctx.baseHash})`);
  } else if (m.base !== ctx.baseHash) {
    err(
      'migration.base',
      `"${m.base}" is not the hash of this file without its migration field (${ctx.baseHash}): boundaries, shards or other fields were edited during the migration; only the migration field may change until the target file is published`,
    );
  }
  if (typeof m.target !== 'string' || !HASH_RE.test(m.target)) {
    err('migration.target', `${show(m.target)} is not a sha256: expected the 64-hex-digit hash of the boundary file the migration ends with`);
  } else if (m.target === ctx.baseHash) {
    err('migration.target', `"${m.target}" is the base file itself: a migration must end with a different file`);
  }
  if (!Array.isArray(m.moves) || m.moves.length === 0) {
    err('migration.moves', `${show(m.moves)} is not a non-empty array of { start, end, from, to, phase }: omit the migration field when no move is in progress`);
    return;
  }
  if (m.moves.length > MAX_MIGRATION_MOVES) {
    // More than any migration between two valid files needs: checking each would only list noise.
    err('migration.moves', `has ${m.moves.length} moves: a migration has at most MAX_MIGRATION_MOVES = ${MAX_MIGRATION_MOVES} (2 * MAX_SHARDS - 1)`);
    return;
  }
  const nameIndex = new Map<string, number>();
  ctx.names?.forEach((n, i) => nameIndex.set(n, i));
  let prev: { end: number; i: number } | null = null;
  m.moves.forEach((mv, i) => {
    const p = `migration.moves[${i}]`;
    if (!isObj(mv)) {
      err(p, `${show(mv)} is not an object { start, end, from, to, phase }`);
      return;
    }
    reportUnknownFields(mv, p, 'a move', MIGRATION_MOVE_FIELDS, err);
    let start: number | null = null;
    let end: number | null = null;
    try {
      start = cellOrdinal(parseToken(mv.start as string, `${p}.start`));
    } catch (e) {
      err(`${p}.start`, (e as Error).message.replace(/^\S+ /, ''));
    }
    if (mv.end === null) end = CELL_COUNT;
    else {
      try {
        end = cellOrdinal(parseToken(mv.end as string, `${p}.end`));
      } catch (e) {
        err(`${p}.end`, `${(e as Error).message.replace(/^\S+ /, '')} (or null for the end of the curve)`);
      }
    }
    if (start !== null && end !== null && end <= start) {
      err(`${p}.end`, `${show(mv.end)} is not after start ${show(mv.start)}: a move covers [start, end), start inclusive, end exclusive`);
      end = null;
    }
    if (!(MIGRATION_PHASES as readonly unknown[]).includes(mv.phase)) {
      err(`${p}.phase`, `${show(mv.phase)} is not a phase: expected one of ${MIGRATION_PHASES.map((x) => `"${x}"`).join(', ')}`);
    }
    for (const k of ['from', 'to'] as const) {
      const v = mv[k];
      if (typeof v !== 'string' || (ctx.names && !nameIndex.has(v))) {
        err(`${p}.${k}`, `${show(v)} is not the name of a shard of this file${ctx.names ? ` (${ctx.names.join(', ')})` : ''}`);
      }
    }
    if (typeof mv.from === 'string' && mv.from === mv.to) err(`${p}.to`, `"${mv.to}" is also the move's from: a move goes between two different shards`);
    const fromIndex = typeof mv.from === 'string' ? nameIndex.get(mv.from) : undefined;
    if (start !== null && end !== null) {
      if (ctx.starts && fromIndex !== undefined) {
        const lo = ctx.starts[fromIndex];
        const hi = ctx.starts[fromIndex + 1];
        if (start < lo || end > hi) {
          err(p, `[${show(mv.start)}, ${show(mv.end)}) is not inside the range of its from shard "${mv.from}" in boundaries: a move takes cells its from shard owns; split it at the shard boundaries`);
        }
      }
      if (prev && start < prev.end) {
        err(`${p}.start`, `${show(mv.start)} is before the end of migration.moves[${prev.i}]: moves must ascend in key order and not overlap`);
      }
      prev = { end, i };
    }
  });
}

/**
 * resolveMoves turns a valid migration's moves into ordinal ranges and shard
 * indices. Precondition: the file (and so its migration) passed validation.
 */
export function resolveMoves(m: Migration, names: readonly string[]): ResolvedMove[] {
  const index = new Map(names.map((n, i) => [n, i]));
  return m.moves.map((mv) => ({
    ...mv,
    startOrdinal: cellOrdinal(parseToken(mv.start)),
    endOrdinal: mv.end === null ? CELL_COUNT : cellOrdinal(parseToken(mv.end)),
    fromIndex: index.get(mv.from)!,
    toIndex: index.get(mv.to)!,
  }));
}
