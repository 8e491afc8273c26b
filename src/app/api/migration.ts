/**
 * The Migration view's reading of /api/status: the `migration` section the
 * live API reports from the index's `_meta` (wire MigrationStatus), checked
 * field by field so a malformed answer is shown as such, never half-drawn.
 */
import { MOVE_STEPS, type MoveStep } from '../../core/migrationState';
import type { MigrationStatus } from '../../server/wire';
import { isObj } from './read';

export type { MigrationStatus };

/** What the view shows: a migration, the index settled on a file, or why neither is known. */
export type MigrationReading =
  | { kind: 'moving'; migration: MigrationStatus; indexHash: string | null }
  | { kind: 'settled'; indexHash: string | null; index: string | null }
  | { kind: 'unknown'; message: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isCounts = (v: unknown): boolean => isObj(v) && isCount(v.restaurants) && isCount(v.dishes);

/** readMigration reads an /api/status answer (HTTP status and parsed body). */
export function readMigration(httpStatus: number, body: unknown): MigrationReading {
  if (!isObj(body) || !isObj(body.connection)) return { kind: 'unknown', message: `The live API's status answered HTTP ${httpStatus} without a status report: is the live API served here (npm start)?` };
  if (body.connection.status !== 'up') return { kind: 'unknown', message: `OpenSearch is down: ${typeof body.connection.message === 'string' ? body.connection.message : 'no answer'}` };
  const indexHash = isObj(body.drift) && typeof body.drift.indexHash === 'string' ? body.drift.indexHash : null;
  const m = body.migration;
  if (m === null || m === undefined) return { kind: 'settled', indexHash, index: isObj(body.index) && typeof body.index.name === 'string' ? body.index.name : null };
  if (isObj(m) && typeof m.error === 'string') return { kind: 'unknown', message: `The index's migration state cannot be read: ${m.error}` };
  const ok =
    isObj(m) &&
    isCount(m.epoch) &&
    typeof m.base === 'string' &&
    typeof m.target === 'string' &&
    Array.isArray(m.moves) &&
    m.moves.every(
      (x) =>
        isObj(x) &&
        typeof x.start === 'string' &&
        (x.end === null || typeof x.end === 'string') &&
        typeof x.from === 'string' &&
        typeof x.to === 'string' &&
        (MOVE_STEPS as readonly unknown[]).includes(x.step) &&
        isCounts(x.copied) &&
        (x.verified === null || (isObj(x.verified) && isCounts(x.verified.from) && isCounts(x.verified.to))) &&
        (x.cutover === undefined || x.cutover === null || (isObj(x.cutover) && (x.cutover.blockedAt === null || typeof x.cutover.blockedAt === 'string') && Array.isArray(x.cutover.windowsMs))),
    );
  if (!ok) return { kind: 'unknown', message: 'The live API reported a migration in a shape this explorer does not know: update the explorer or the server.' };
  return { kind: 'moving', migration: m as unknown as MigrationStatus, indexHash };
}

/** The words for each step, as the table shows them. */
export const STEP_TEXT: Record<MoveStep, string> = {
  pending: 'waiting',
  'dual-write': 'dual writes on',
  copying: 'copying',
  verified: 'verified',
  switched: 'reads switched',
  deleting: 'deleting old copy',
  done: 'done',
};

/**
 * cutoverText says what a range's cutover did or does: writes blocked now
 * (since when), or how long each try blocked them; null before the cutover.
 */
export function cutoverText(c: MigrationStatus['moves'][number]['cutover']): string | null {
  if (!c) return null;
  if (c.blockedAt) return `writes blocked since ${c.blockedAt.slice(11, 19)} UTC for the exact check (writers retry)`;
  if (c.windowsMs.length === 0) return null;
  return `cutover: writes blocked ${c.windowsMs.map((w) => `${w.toLocaleString('en-US')} ms`).join(', ')}`;
}

/** isMoving says whether a range is between its first publish and its last (hatched in the view). */
export function isMoving(step: MoveStep): boolean {
  return step !== 'pending' && step !== 'done';
}
