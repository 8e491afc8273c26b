/**
 * geoshard's routing core: the package's public entry (`import { Router } from 'geoshard'`).
 *
 * Pure TypeScript (no DOM, Node, React or three). Named exports only, so the public surface is
 * this list: what an indexer and an operator's tooling need to route documents and searches, read
 * and check a boundary file, balance one and plan a move. docs/api/geoshard.api.md is its report
 * (`npm run api:report`; scripts/api-report.test.ts fails when the surface changes without it).
 *
 * The live move's state machine (the executor's steps, `geoshard migrate`) is the second entry,
 * `geoshard/ops` (src/core/ops.ts), for operators' tooling. The analysis modules behind the CLI
 * and the explorer (fan-out, workloads, request load, load diffs, the cell cache, the CI gate,
 * worked searches, GeoJSON/CSV exports, the globe's cell outlines and prefix sums) are not part
 * of the package's surface: this repository's CLI, server and explorer import them from their
 * own files (e.g. `../core/expectedFanout.ts`, `../core/migrationState.ts`), never through an
 * entry's re-export of what the entry does not offer.
 */

// Cells: point → level-10 cell id (bigint), tokens, curve ordinals in [0, CELL_COUNT).
export { LEVEL, CELL_COUNT, assertLatLng, cellAt, tokenAt, cellToken, parseToken, cellOrdinal, cellFromOrdinal, ordinalAt, cellCenter } from './cells.ts';
export type { CellId, LatLng } from './cells.ts';

// A search circle's units and limits.
export { KM_PER_MILE, MAX_RADIUS_KM, assertRadiusKm, parseRadius, formatRadius } from './cover.ts';
export { EARTH_RADIUS_KM } from './earth.ts';
export type { Radius, RadiusUnit } from './cover.ts';

// OpenSearch's shard selection for a routing value, and the shard names that route to shard i.
export { MAX_SHARDS, routingHash, defaultRoutingNumShards, shardForRouting } from './routingHash.ts';
export { pickShardNames } from './names.ts';

// The boundary file: types, parsing, validation (every problem, naming field and value), canonical hash.
export { BOUNDARY_FORMAT, MAX_BOUNDARY_FILE_BYTES, validateBoundaryFile, assertValidBoundaryFile, BoundaryFileError, formatBoundaryFile, withHash } from './boundaries.ts';
export { parseBoundaryFile } from './boundaryText.ts';
export type { BoundaryFile, ShardEntry, ValidationError } from './boundaries.ts';

// Routing: point → shard (ShardTable, the lookups alone); circle → cells → shards → routing string (Router).
export { ShardTable } from './shardTable.ts';
export type { ShardRef, ReadRange, ReadExclusion } from './shardTable.ts';
export { Router } from './router.ts';
export type { ShardCells, CircleRoute } from './router.ts';

// Balancing: cells files, the split of the curve into shards, and the boundary file built from it.
export { balance } from './balance.ts';
export type { BalanceOptions, BalanceReport, BalanceRow, Split } from './balance.ts';
export { CELLS_HEADER, DOCS_CELLS_HEADER, parseCellsCsv, cellWeights, type CellsCsvOptions, type DocsCellRow } from './build.ts';
export { CellCounter } from './cellCounts.ts';
export type { CellWeight } from './build.ts';

// A boundary change: what moves, the migration plan, and the file's `migration` field (the routing phases).
export { diffBoundaries, evenness } from './diff.ts';
export type { BoundaryDiff, BoundaryMove, DiffFileSummary, ShardSide, ShardWeight, ShardMatch, Evenness } from './diff.ts';
export { plan } from './plan.ts';
export type { MigrationPlan, PlanMove, PlanAction, PlanStep, PlanOptions } from './plan.ts';
export { MIGRATION_PHASES, phaseRouting } from './migration.ts';
export type { Migration, MigrationMove, MigrationPhase, PhaseRouting, ResolvedMove } from './migration.ts';
