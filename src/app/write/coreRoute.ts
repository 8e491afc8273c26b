/**
 * What the routing core says about a restaurant placed in Write mode,
 * computed in the browser (the same core the explorer covers circles with),
 * and whether the live API's answer agrees with it.
 *
 * During a migration the core routes with the index's intermediate file: the
 * explorer's boundary file plus the moves /api/status reports (their steps
 * turned into routing phases, as every writer and searcher does), so it names
 * the read owner and one or two write owners, like the API.
 */
import { ShardTable, type BoundaryFile, type MigrationMove, type ShardRef } from '../../core/index';
import { routingPhaseOf } from '../../core/migrationState';
import { withMigration } from '../../core/plan';
import type { MigrationStatus } from '../../server/wire';
import type { WriteAnswer } from '../../server/wire';
import type { AppState } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { readMigration } from '../api/migration';

/** The core's routing of one point. */
export interface CoreRoute {
  /** Degrees, as routed. */
  lat: number;
  lng: number;
  /** The point's level-10 token. */
  token: string;
  /** The shard searches read the point's documents from (what the API's `core` must name). */
  read: ShardRef;
  /** Every shard a document there is written to: one, or two (old owner first) while its range moves. */
  writes: ShardRef[];
  /** The migration epoch routed with, or null for the settled file. */
  epoch: number | null;
  /** Why the migration the API reported was not applied (its base is not the explorer's file), or null. */
  note: string | null;
}

/**
 * routerFor returns the router of `file` during `migration` (null: settled):
 * the file itself when no move has started, else the intermediate file. A
 * migration whose base is not `file`'s hash is not applied (the explorer shows
 * another file than the index's): `note` says so.
 */
export function routerFor(file: BoundaryFile, settled: ShardTable, migration: MigrationStatus | null): { router: ShardTable; epoch: number | null; note: string | null } {
  if (!migration) return { router: settled, epoch: null, note: null };
  if (migration.base !== file.hash) {
    return { router: settled, epoch: null, note: `the index is migrating from boundary file ${migration.base.slice(0, 12)}, not the explorer's ${file.hash.slice(0, 12)}: routed with the explorer's file alone` };
  }
  const moves: MigrationMove[] = [];
  for (const m of migration.moves) {
    const phase = routingPhaseOf(m.step);
    if (phase) moves.push({ start: m.start, end: m.end, from: m.from, to: m.to, phase });
  }
  if (moves.length === 0) return { router: settled, epoch: migration.epoch, note: null };
  return { router: new ShardTable(withMigration(file, { epoch: migration.epoch, target: migration.target, moves }), 'the index’s migration state'), epoch: migration.epoch, note: null };
}

/** coreRoute routes a point (degrees; lat in [-90, 90], lng finite; throws RangeError otherwise). */
export function coreRoute(router: ShardTable, lat: number, lng: number, epoch: number | null = null, note: string | null = null): CoreRoute {
  return { lat, lng, token: router.route(lat, lng).token, read: router.readShard(lat, lng), writes: router.writeShards(lat, lng), epoch, note };
}

/** The verdict on one write: whether the core, the API and OpenSearch name the same shards, and each difference. */
export interface WriteVerdict {
  agree: boolean;
  /** One sentence per difference (empty when they agree). */
  problems: string[];
}

const shardText = (s: { name: string; shard: number }) => `${s.name} (shard ${s.shard})`;

/**
 * writeVerdict compares an answer with the core's routing of the point the
 * answer says it wrote: the cell, the read owner (the API's `core`), the set
 * of owners, and for every owner the shard OpenSearch acknowledged for its
 * routing. They agree when nothing differs.
 */
export function writeVerdict(core: CoreRoute, answer: WriteAnswer): WriteVerdict {
  const problems: string[] = [];
  if (answer.cell !== core.token) problems.push(`cell: the API wrote cell ${answer.cell}, the core puts the point in ${core.token}`);
  if (answer.core.name !== core.read.name || answer.core.shard !== core.read.shard) problems.push(`core shard: the API names ${shardText(answer.core)}, the core in the browser names ${shardText(core.read)}`);
  const wanted = new Set(core.writes.map((w) => w.name));
  const got = new Set(answer.owners.map((o) => o.name));
  for (const w of core.writes) if (!got.has(w.name)) problems.push(`owners: the core writes to ${shardText(w)}, the API did not`);
  for (const o of answer.owners) if (!wanted.has(o.name)) problems.push(`owners: the API wrote to ${shardText(o)}, which the core does not name`);
  for (const w of core.writes) {
    const acks = answer.acknowledged.filter((a) => a.routing === w.name);
    if (acks.length === 0) problems.push(`acknowledged: OpenSearch acknowledged nothing for routing ${w.name}`);
    for (const a of acks) if (a.shard !== w.shard) problems.push(`acknowledged: OpenSearch holds routing ${w.name} on shard ${a.shard}, the core names shard ${w.shard}`);
  }
  for (const a of answer.acknowledged) if (!wanted.has(a.routing)) problems.push(`acknowledged: OpenSearch acknowledged routing ${a.routing} (shard ${a.shard}), which the core does not name`);
  return { agree: problems.length === 0, problems };
}

/** readAck returns the acknowledgement of the read owner (the core's shard), or null when OpenSearch sent none. */
export function readAck(core: CoreRoute, answer: WriteAnswer): WriteAnswer['acknowledged'][number] | null {
  return answer.acknowledged.find((a) => a.routing === core.read.name) ?? null;
}

/**
 * coreRouteAt routes a point (degrees) with the explorer's boundary file and
 * the migration the live API last reported, if any; null before the boundary
 * file is loaded.
 */
export function coreRouteAt(s: AppState, lat: number, lng: number): CoreRoute | null {
  const data = readyData(s);
  if (!data) return null;
  const st = s.liveStatus.status;
  // The status's migration section, checked field by field as the Migration view reads it.
  const reading = st ? readMigration(200, { connection: { status: st.connection.up ? 'up' : 'down' }, migration: st.migration }) : null;
  const { router, epoch, note } = routerFor(data.file, data.router, reading?.kind === 'moving' ? reading.migration : null);
  return coreRoute(router, lat, lng, epoch, note);
}
