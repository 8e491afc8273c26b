/**
 * A migration as the live API reads it: the router to search with for an index's `_meta`
 * (MigrationRouting: the settled file's router, or the intermediate file's while a migration
 * runs, rebuilt when the epoch changes) and the wire form of a migration state for /api/status
 * (migrationStatusOf). The executor that changes the state is migration.ts.
 */
import type { BoundaryFile, Router } from '../core/index.ts';
import type { MigrationState } from '../core/migrationState.ts';
import type { IndexMeta } from './indexSpec.ts';
import { migrationOfMeta, routerOf } from '../opensearch/meta.ts';
import type { MigrationStatus } from './wire.ts';

/**
 * MigrationRouting gives the API the router for an index's `_meta`: the
 * server file's own router when the index is settled, else the router of the
 * migration's intermediate file, built once per (settled hash, epoch) and
 * reused until the epoch changes (the API reads `_meta` on every search with
 * its drift check, so a new epoch is seen by the very next search).
 */
export class MigrationRouting {
  private cached: { key: string; router: Router; state: MigrationState } | null = null;

  /** routerFor returns the router and state to search with; throws MigrationError when the state cannot be read. */
  routerFor(fileRouter: Router, meta: IndexMeta | null): { router: Router; state: MigrationState | null } {
    const raw = meta?.migration as { epoch?: unknown } | undefined;
    if (!meta || raw === undefined) return { router: fileRouter, state: null };
    const key = `${meta.hash}@${String(raw.epoch)}`;
    if (this.cached?.key === key) return this.cached;
    const { base, state } = migrationOfMeta(meta);
    const router = routerOf(base!, state);
    this.cached = { key, router, state: state! };
    return this.cached;
  }
}

/** migrationStatusOf returns the wire form of a migration state (/api/status). */
export function migrationStatusOf(base: BoundaryFile, s: MigrationState): MigrationStatus {
  const shardOf = new Map(base.shards.map((x) => [x.name, x.shard]));
  return {
    epoch: s.epoch,
    base: s.base,
    target: s.target,
    targetVersion: s.targetFile.version,
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
    moves: s.moves.map((m) => ({ start: m.start, end: m.end, from: m.from, to: m.to, fromShard: shardOf.get(m.from)!, toShard: shardOf.get(m.to)!, step: m.step, copied: m.copied, verified: m.verified, cutover: m.cutover ? { blockedAt: m.cutover.blockedAt, windowsMs: m.cutover.windowsMs } : null })),
  };
}
