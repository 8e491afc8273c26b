/**
 * The state of a migration running on a live index, as the index's `_meta`
 * records it (`_meta.migration`), and the pure decisions made from it.
 *
 * migration.ts describes what a boundary FILE says while moves are in
 * progress (the routing phases); this file describes how far the executor
 * (`geoshard migrate`) has taken each range on the index, with the counts it
 * copied and verified. One maps onto the other by routingPhaseOf, and the
 * intermediate file built from the state (intermediateFile) is what every
 * searcher and writer routes with: Router.readIndexOfOrdinal (one read owner
 * per range), Router.readExclusions (the other owner's copy, which searches
 * ignore) and Router.writeShards (one or two owners).
 *
 *     step        routing phase   what the executor does to reach the next step
 *     pending     (none)          publish: dual writes on
 *     dual-write  dual-write      publish: the copy starts
 *     copying     copying         copy the range old → new owner (create-only, resumable), count both, publish verified
 *     verified    verified        publish: reads switch to the new owner (new epoch)
 *     switched    switched        publish: dual writes off
 *     deleting    done            delete the range from the old owner, count 0, publish done
 *     done        done            (next range; after the last one the candidate becomes the settled file)
 *
 * Ranges go one at a time, in key order. Every publish is epoch + 1.
 *
 *     "migration": {
 *       "epoch": 7, "base": "<sha256 of the settled file>", "target": "<sha256 of the candidate>",
 *       "targetFile": { ...the candidate boundary file... },
 *       "startedAt": "2026-12-01T00:00:00.000Z", "updatedAt": "...",
 *       "moves": [{ "start": "89c25c", "end": "89c2a4", "from": "sierra", "to": "echo", "step": "copying",
 *                   "copied": { "restaurants": 40, "dishes": 310 }, "verified": null }]
 *     }
 */
import { assertValidBoundaryFile, BoundaryFileError, type BoundaryFile } from './boundaries.ts';
import { reportUnknownFields, show } from './fields.ts';
import type { MigrationMove, MigrationPhase } from './migration.ts';
import { withMigration, type PlanMove } from './plan.ts';

/** The steps of one range on the index, in order (see the table in this file's comment). */
export const MOVE_STEPS = ['pending', 'dual-write', 'copying', 'verified', 'switched', 'deleting', 'done'] as const;

/** How far one range has been taken. */
export type MoveStep = (typeof MOVE_STEPS)[number];

/**
 * A range's documents by kind, each a non-negative integer: `restaurants`,
 * the parents (documents located by the index's location field: the
 * sample's restaurants, or every document of a flat index), and `dishes`,
 * the join children (located by their copy of the parent's point; 0 in a
 * flat index). The names are the bundled sample's, kept so the states in
 * `_meta` of indexes migrated before read the same.
 */
export interface DocCounts {
  restaurants: number;
  dishes: number;
}

/** One range of a running migration. */
export interface MoveState {
  /** [start, end): level-10 tokens; end null = end of the curve. */
  start: string;
  end: string | null;
  /** Old owner and new owner: shard names of the base file. */
  from: string;
  to: string;
  step: MoveStep;
  /** Documents the copy wrote to the new owner so far (documents already there are not counted). */
  copied: DocCounts;
  /** The range's documents on both owners when verify counted them; null before. */
  verified: { from: DocCounts; to: DocCounts } | null;
  /**
   * The cutover of the copy step (absent before it starts, and in states
   * written before it existed): `blockedAt`, the ISO-8601 time the executor
   * set the index's write block for this range's exact check, null while no
   * block is held (a process killed while holding it leaves it set, and the
   * next run lifts it); `windowsMs`, each try's time under the block (ms).
   */
  cutover?: CutoverState;
}

/** The write-block cutover of one range (MoveState.cutover). */
export interface CutoverState {
  blockedAt: string | null;
  /** Milliseconds each try held the block, in order (a try that found a difference lifts it and fixes). */
  windowsMs: number[];
  /**
   * Each owner shard's max sequence number under the block when the range
   * switched (absent before): a copy on the new owner not written since is
   * one both owners held at the switch.
   */
  checkpoint?: { from: number; to: number };
  /**
   * True once the delete step compared the owners after the switch (and
   * before it deleted anything from the old owner): a resumed delete step
   * must not take its own deletions for a writer's.
   */
  reconciled?: boolean;
  /**
   * Documents the exact check under the block still found different when the
   * range switched (a range too hot for a clean try: see the copy step in
   * src/ops/migrate/migration.ts), with each one's version on the new owner under
   * the block (`seqNo` -1 and `term` 0: absent there). Right after the switch
   * the executor writes each from the old owner's copy onto the new owner, only
   * if the new owner's copy is still that version (a writer's later write
   * wins), and removes this list; a run killed before does it when resumed.
   */
  pending?: PendingFix[];
  /**
   * The versions the executor wrote on the new owner when it brought `pending`
   * over (after the switch, so above `checkpoint.to`). The delete step's
   * reconciliation checks them as it checks the copies both owners held at the
   * switch: one the old owner no longer holds (a writer with a routing found
   * before the switch deleted it there) is deleted from the new owner too,
   * unless a writer wrote it since.
   */
  brought?: PendingFix[];
}

/** One document to bring onto the new owner after a switch (CutoverState.pending). */
export interface PendingFix {
  id: string;
  /** The new owner's `_seq_no` and `_primary_term` of the document under the block; -1 and 0: it had none. */
  seqNo: number;
  term: number;
}

/** `_meta.migration`: a migration from the settled file (`base`) to a candidate (`target`). */
export interface MigrationState {
  /** Integer ≥ 0: 0 before the first publish (startState), +1 on every publish. */
  epoch: number;
  /** sha256 of the settled file the index was seeded with (its `_meta` hash). */
  base: string;
  /** sha256 of the candidate. */
  target: string;
  /** The candidate itself, so every process can finish or check against it. */
  targetFile: BoundaryFile;
  /** ISO-8601 times the migration started and its state last changed. */
  startedAt: string;
  updatedAt: string;
  /** At least one range, ascending in key order. */
  moves: MoveState[];
}

/** The fields of `_meta.migration` (closed schema). */
export const MIGRATION_STATE_FIELDS: readonly (keyof MigrationState)[] = ['epoch', 'base', 'target', 'targetFile', 'startedAt', 'updatedAt', 'moves'];
/** The fields of one move of `_meta.migration.moves`. */
export const MOVE_STATE_FIELDS: readonly (keyof MoveState)[] = ['start', 'end', 'from', 'to', 'step', 'copied', 'verified', 'cutover'];

/** MigrationStateError lists every problem of a `_meta.migration` value, one per line, each naming its field. */
export class MigrationStateError extends Error {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`${source}: the migration state is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.join('\n  ')}`);
    this.name = 'MigrationStateError';
  }
}

const ROUTING_PHASE: Record<MoveStep, MigrationPhase | null> = {
  pending: null,
  'dual-write': 'dual-write',
  copying: 'copying',
  verified: 'verified',
  switched: 'switched',
  deleting: 'done',
  done: 'done',
};

/** routingPhaseOf returns the routing phase (migration.ts) a step publishes, or null for a range not started. */
export function routingPhaseOf(step: MoveStep): MigrationPhase | null {
  return ROUTING_PHASE[step];
}

/**
 * intermediateFile returns the boundary file every searcher and writer routes
 * with in this state: the base file with a `migration` field listing the
 * started ranges in their routing phase, or the base file itself while no
 * range has started. Precondition: `state` was parsed against `base`.
 */
export function intermediateFile(base: BoundaryFile, state: MigrationState): BoundaryFile {
  const moves: MigrationMove[] = [];
  for (const m of state.moves) {
    const phase = routingPhaseOf(m.step);
    if (phase) moves.push({ start: m.start, end: m.end, from: m.from, to: m.to, phase });
  }
  if (moves.length === 0) return base;
  return withMigration(base, { epoch: state.epoch, target: state.target, moves });
}

/**
 * startState returns the state before anything is published: every range of an in-place plan
 * pending, epoch 0 (the first publish makes it 1). `moves` are the plan's moves from `base` to
 * `candidate` (plan(...).moves: same shard count, ascending key order); `now` is an ISO-8601 UTC
 * time (startedAt and updatedAt). Throws RangeError when the plan moves no range.
 */
export function startState(base: BoundaryFile, candidate: BoundaryFile, moves: readonly PlanMove[], now: string): MigrationState {
  if (moves.length === 0) throw new RangeError('startState: the plan moves no range: nothing to migrate');
  return {
    epoch: 0,
    base: base.hash,
    target: candidate.hash,
    targetFile: candidate,
    startedAt: now,
    updatedAt: now,
    moves: moves.map((m) => ({ start: m.start, end: m.end, from: m.from, to: m.to, step: 'pending', copied: { restaurants: 0, dishes: 0 }, verified: null })),
  };
}

/** What the executor does next (nextAction); `move` indexes MigrationState.moves. */
export type MigrationAction =
  /** Publish move `move`'s next step `to` (epoch + 1). `wait`: searchers and writers must run the new epoch before the action after it. */
  | { kind: 'publish'; move: number; to: MoveStep; wait: boolean }
  /** Copy move `move`'s range to its new owner, then count both owners (verify) and publish `verified`. */
  | { kind: 'copy'; move: number }
  /** Delete move `move`'s range from its old owner, check none is left, publish `done`. */
  | { kind: 'delete'; move: number }
  /** Every range is done: the candidate becomes the index's settled file. */
  | { kind: 'finish' };

/**
 * nextAction returns what to do next in a state: the first range not done,
 * in key order, takes its next step. A state is the whole truth, so a
 * process that starts again after being killed resumes from it; every action
 * can be repeated (the copy writes create-only, the delete deletes what is
 * left). `wait` is true after publishing dual-write (a searcher on the older
 * epoch does not yet ignore the new owner's copy, so the copy must not start
 * before every searcher runs the new epoch) and switched (a searcher on the
 * older epoch reads the old owner, so the delete must not start before).
 */
export function nextAction(state: MigrationState): MigrationAction {
  const k = state.moves.findIndex((m) => m.step !== 'done');
  if (k < 0) return { kind: 'finish' };
  const step = state.moves[k].step;
  switch (step) {
    case 'copying':
      return { kind: 'copy', move: k };
    case 'deleting':
      return { kind: 'delete', move: k };
    default: {
      const to = MOVE_STEPS[MOVE_STEPS.indexOf(step) + 1];
      return { kind: 'publish', move: k, to, wait: to === 'dual-write' || to === 'switched' };
    }
  }
}

/**
 * advance returns the state after move `k` takes step `to` (epoch + 1,
 * updatedAt = now, an ISO-8601 UTC time), with `patch` applied to the move
 * (counts). `k` indexes state.moves. Throws RangeError when move `k` does not
 * exist, or naming both steps when `to` is not the move's next step: steps
 * are never skipped or repeated.
 */
export function advance(state: MigrationState, k: number, to: MoveStep, now: string, patch: Partial<Pick<MoveState, 'copied' | 'verified' | 'cutover'>> = {}): MigrationState {
  const m = state.moves[k];
  if (!m) throw new RangeError(`advance: move ${k} does not exist (the migration has ${state.moves.length})`);
  const next = MOVE_STEPS[MOVE_STEPS.indexOf(m.step) + 1];
  if (to !== next) throw new RangeError(`advance: move ${k} [${m.start}, ${m.end ?? 'end'}) is at step "${m.step}"; its next step is ${next ? `"${next}"` : 'none (done)'}, not "${to}"`);
  const moves = state.moves.map((x, i) => (i === k ? { ...x, ...patch, step: to } : x));
  return { ...state, epoch: state.epoch + 1, updatedAt: now, moves };
}

/**
 * withCopied returns the state with move k's copied counts set (no new epoch: routing does not
 * change); `now` (ISO-8601 UTC) becomes updatedAt. Precondition: 0 ≤ k < state.moves.length (another
 * k changes no move).
 */
export function withCopied(state: MigrationState, k: number, copied: DocCounts, now: string): MigrationState {
  return { ...state, updatedAt: now, moves: state.moves.map((x, i) => (i === k ? { ...x, copied } : x)) };
}

/**
 * withCutover returns the state with move k's cutover record set (no new epoch: routing does not
 * change); `now` (ISO-8601 UTC) becomes updatedAt. Precondition: 0 ≤ k < state.moves.length (another
 * k changes no move).
 */
export function withCutover(state: MigrationState, k: number, cutover: CutoverState, now: string): MigrationState {
  return { ...state, updatedAt: now, moves: state.moves.map((x, i) => (i === k ? { ...x, cutover } : x)) };
}

/** countsMatch says whether verify may publish: both owners hold the same restaurants and dishes of the range. */
export function countsMatch(from: DocCounts, to: DocCounts): boolean {
  return from.restaurants === to.restaurants && from.dishes === to.dishes;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const HASH_RE = /^[0-9a-f]{64}$/;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isTime = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v));

/**
 * parseMigrationState checks a `_meta.migration` value against the settled
 * file it belongs to and returns it typed. Strict: unknown fields, a wrong
 * type, an unknown step, a base that is not `base`'s hash, a target file that
 * is invalid or not the target hash, or moves the base file cannot route
 * (checked by building the intermediate file) are all refused. Throws a
 * MigrationStateError listing every problem as `field: value is ... expected ...`.
 */
export function parseMigrationState(value: unknown, base: BoundaryFile, source = 'index _meta.migration'): MigrationState {
  const problems: string[] = [];
  const err = (field: string, message: string) => problems.push(`${field}: ${message}`);
  if (!isObj(value)) throw new MigrationStateError([`migration: ${show(value)} is not an object { ${MIGRATION_STATE_FIELDS.join(', ')} }`], source);
  reportUnknownFields(value, 'migration', 'migration', MIGRATION_STATE_FIELDS, err);
  const v = value;
  if (!isCount(v.epoch)) err('migration.epoch', `${show(v.epoch)} is invalid: expected an integer >= 0 (+1 on every publish)`);
  if (v.base !== base.hash) err('migration.base', `${typeof v.base === 'string' ? JSON.stringify(v.base) : show(v.base)} is not the hash of the index's settled boundary file (${base.hash}): the state belongs to another file`);
  if (typeof v.target !== 'string' || !HASH_RE.test(v.target)) err('migration.target', `${show(v.target)} is not a sha256: expected the 64-hex-digit hash of the candidate`);
  else if (v.target === base.hash) err('migration.target', `"${v.target}" is the settled file itself: a migration ends with a different file`);
  try {
    assertValidBoundaryFile(v.targetFile, 'migration.targetFile');
    if (v.targetFile.hash !== v.target) err('migration.targetFile', `has hash ${v.targetFile.hash}, not migration.target "${v.target}"`);
    else if (v.targetFile.migration) err('migration.targetFile', 'has a migration field: the target is a settled file');
  } catch (e) {
    err('migration.targetFile', e instanceof BoundaryFileError ? e.message.replace(/\n\s*/g, '; ') : String(e));
  }
  for (const k of ['startedAt', 'updatedAt'] as const) if (!isTime(v[k])) err(`migration.${k}`, `${show(v[k])} is not an ISO-8601 UTC time such as "2026-12-01T00:00:00.000Z"`);
  const names = new Set(base.shards.map((s) => s.name));
  if (!Array.isArray(v.moves) || v.moves.length === 0) {
    err('migration.moves', `${show(v.moves)} is not a non-empty array of { ${MOVE_STATE_FIELDS.join(', ')} }`);
  } else {
    v.moves.forEach((m: unknown, i: number) => {
      const p = `migration.moves[${i}]`;
      if (!isObj(m)) return err(p, `${show(m)} is not an object { ${MOVE_STATE_FIELDS.join(', ')} }`);
      reportUnknownFields(m, p, 'a move', MOVE_STATE_FIELDS, err);
      if (typeof m.start !== 'string') err(`${p}.start`, `${show(m.start)} is not a level-10 token`);
      if (m.end !== null && typeof m.end !== 'string') err(`${p}.end`, `${show(m.end)} is not a level-10 token or null (the end of the curve)`);
      for (const k of ['from', 'to'] as const) if (typeof m[k] !== 'string' || !names.has(m[k] as string)) err(`${p}.${k}`, `${show(m[k])} is not a shard name of the settled file (${[...names].join(', ')})`);
      if (!(MOVE_STEPS as readonly unknown[]).includes(m.step)) err(`${p}.step`, `${show(m.step)} is not a step: expected one of ${MOVE_STEPS.map((s) => `"${s}"`).join(', ')}`);
      checkCounts(m.copied, `${p}.copied`, err);
      if (m.verified !== null) {
        if (!isObj(m.verified)) err(`${p}.verified`, `${show(m.verified)} is not null or { from, to } counts`);
        else {
          reportUnknownFields(m.verified, `${p}.verified`, 'verified', ['from', 'to'], err);
          checkCounts(m.verified.from, `${p}.verified.from`, err);
          checkCounts(m.verified.to, `${p}.verified.to`, err);
        }
      }
      if (m.cutover !== undefined) {
        const c = m.cutover;
        if (!isObj(c)) err(`${p}.cutover`, `${show(c)} is not { blockedAt, windowsMs }`);
        else {
          reportUnknownFields(c, `${p}.cutover`, 'cutover', ['blockedAt', 'windowsMs', 'checkpoint', 'reconciled', 'pending', 'brought'], err);
          if (c.reconciled !== undefined && typeof c.reconciled !== 'boolean') err(`${p}.cutover.reconciled`, `${show(c.reconciled)} is not a boolean`);
          if (c.checkpoint !== undefined) {
            const k = c.checkpoint;
            const seq = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= -1;
            if (!isObj(k) || !seq(k.from) || !seq(k.to)) err(`${p}.cutover.checkpoint`, `${show(k)} is not { from, to } sequence numbers (integers >= -1)`);
          }
          for (const key of ['pending', 'brought'] as const) {
            const list = c[key];
            if (list === undefined) continue;
            const ok = (x: unknown) => isObj(x) && typeof x.id === 'string' && x.id.length > 0 && typeof x.seqNo === 'number' && Number.isInteger(x.seqNo) && x.seqNo >= -1 && typeof x.term === 'number' && Number.isInteger(x.term) && x.term >= 0 && Object.keys(x).length === 3;
            if (!Array.isArray(list) || !list.every(ok)) err(`${p}.cutover.${key}`, `${show(list)} is not an array of { id, seqNo, term } (a non-empty id, seqNo an integer >= -1, term an integer >= 0)`);
          }
          if (c.blockedAt !== null && !isTime(c.blockedAt)) err(`${p}.cutover.blockedAt`, `${show(c.blockedAt)} is not null or an ISO-8601 UTC time`);
          if (!Array.isArray(c.windowsMs) || !c.windowsMs.every((w) => typeof w === 'number' && Number.isFinite(w) && w >= 0)) err(`${p}.cutover.windowsMs`, `${show(c.windowsMs)} is not an array of milliseconds >= 0`);
        }
      }
      const started = (MOVE_STEPS as readonly unknown[]).indexOf(m.step);
      if (started > MOVE_STEPS.indexOf('copying') && m.verified === null) err(`${p}.verified`, `is null at step ${show(m.step)}: a range past the copy has verified counts`);
    });
    // One range at a time: a range starts only when every range before it is done.
    const steps = v.moves.map((m: unknown) => (isObj(m) ? m.step : undefined));
    const firstOpen = steps.findIndex((s: unknown) => s !== 'done');
    steps.forEach((s: unknown, i: number) => {
      if (firstOpen >= 0 && i > firstOpen && s !== 'pending') err(`migration.moves[${i}].step`, `${show(s)} while migration.moves[${firstOpen}] is not done: ranges move one at a time, in order`);
    });
  }
  if (problems.length > 0) throw new MigrationStateError(problems, source);
  const state = v as unknown as MigrationState;
  // The ranges themselves (tokens, order, inside their old owner's range) are checked by the file they publish.
  try {
    const all = { ...state, epoch: Math.max(1, state.epoch), moves: state.moves.map((m) => ({ ...m, step: 'copying' as const })) };
    assertValidBoundaryFile(intermediateFile(base, all), 'the routing of migration.moves');
  } catch (e) {
    throw new MigrationStateError([e instanceof Error ? e.message.replace(/\n\s*/g, '; ') : String(e)], source);
  }
  return state;
}

function checkCounts(c: unknown, p: string, err: (field: string, message: string) => void): void {
  if (!isObj(c)) return err(p, `${show(c)} is not { restaurants, dishes } counts`);
  reportUnknownFields(c, p, 'counts', ['restaurants', 'dishes'], err);
  for (const k of ['restaurants', 'dishes'] as const) if (!isCount(c[k])) err(`${p}.${k}`, `${show(c[k])} is not an integer >= 0`);
}
