/**
 * geoshard/ops: the live move's state machine, for operators' tooling (`import { nextAction }
 * from 'geoshard/ops'`). The routing itself is the main entry, `geoshard` (src/core/index.ts).
 *
 * A migration running on a live index records its state in the index's `_meta.migration`
 * (`geoshard migrate` writes it; geoshard/opensearch's writer reads it to write to both owners
 * of a moving range). This entry is that state and the pure decisions made from it: read and
 * check it (parseMigrationState), start one (startState), ask what comes next (nextAction),
 * record a step (advance, withCopied, withCutover), compare counts (countsMatch), and build the
 * boundary file every searcher and writer routes with meanwhile (intermediateFile). A tool that
 * watches a migration, or drives its own executor, needs these; one that only routes documents
 * and searches does not. Pure TypeScript, no I/O: the round trips to the cluster are the
 * caller's. docs/ops.md shows a use; docs/api/geoshard-ops.api.md is the report.
 */
export { MOVE_STEPS, MigrationStateError, parseMigrationState, startState, nextAction, advance, withCopied, withCutover, countsMatch, intermediateFile, routingPhaseOf } from './migrationState.ts';
export type { MoveStep, DocCounts, MoveState, CutoverState, PendingFix, MigrationState, MigrationAction } from './migrationState.ts';
