/**
 * Which path a whole-index read takes (`geoshard cells --from-index` and
 * `geoshard audit`, flag --engine): "client" streams every document's doc
 * values to this process, which does the work; "cluster" has the shards do it
 * (Painless over doc values: cellsEngine.ts, auditEngine.ts), so only
 * results come back. Both give the same answer (live tests:
 * cellsEngine.live.test.ts, auditEngine.live.test.ts).
 *
 * "auto" is the measured rule of docs/engine-paths.md: cluster, for both.
 * On one node (2 cores, the client on the same machine), the cluster path
 * was faster on every index measured: cells 1.1-2.6x, audit 12-19x, with
 * less of the node's CPU per document (audit 0.2-0.3x, cells 0.9x), except cells
 * of an index with about one document per level-10 cell (the places sample),
 * where the node spent 1.8x the CPU of the client path for the same wall
 * time: there, on a lone node that must keep its CPU for searches, choose
 * --engine client. On more nodes the cluster path runs on all of them at
 * once, while the client path runs at one process's speed.
 */
import type { OpenSearchClient } from './client.ts';

/** Where a whole-index read does its work. */
export type EnginePath = 'client' | 'cluster';
/** What --engine takes. */
export type EngineChoice = EnginePath | 'auto';
/** The values of --engine, in the order usage lists them. */
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'cluster', 'client'];

/** The path chosen, and why (one clause, for the summary line). */
export interface EngineDecision {
  engine: EnginePath;
  why: string;
}

/**
 * chooseEngine resolves a choice to a path: "client" and "cluster" as given,
 * "auto" by the rule at the top of this file. Takes the client so that a
 * rule that asks the cluster (its nodes, its load) needs no new signature.
 */
export async function chooseEngine(_client: OpenSearchClient, command: 'cells' | 'audit', choice: EngineChoice): Promise<EngineDecision> {
  if (choice !== 'auto') return { engine: choice, why: `--engine ${choice}` };
  return { engine: 'cluster', why: `auto: the ${command} runs in the cluster (docs/engine-paths.md)` };
}
