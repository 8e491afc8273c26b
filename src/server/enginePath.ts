/**
 * Which path a whole-index read takes (`geoshard cells --from-index` and
 * `geoshard audit`, flag --engine): "client" streams every document's doc
 * values to this process, which does the work; "cluster" has the shards do it
 * (Painless over doc values: cellsEngine.ts, auditEngine.ts), so only
 * results come back. Both give the same answer (live tests:
 * cellsEngine.live.test.ts, auditEngine.live.test.ts).
 *
 * "auto" is the measured rule of docs/engine-paths.md:
 *   - audit: cluster. On one node it was faster than the client path, and
 *     only the documents that may be wrong cross the network.
 *   - cells: cluster when the cluster has two or more data nodes (the shards
 *     compute in parallel on every node, while the client path runs at one
 *     process's speed), client on one node (there the client path was as fast
 *     or faster, most of all on an index with about one document per cell,
 *     where the aggregation returns almost a bucket per document).
 */
import type { OpenSearchClient } from './opensearch.ts';

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
 * "auto" by the rule at the top of this file (asking the cluster its number
 * of data nodes, `GET _cluster/health`, for cells).
 */
export async function chooseEngine(client: OpenSearchClient, command: 'cells' | 'audit', choice: EngineChoice): Promise<EngineDecision> {
  if (choice !== 'auto') return { engine: choice, why: `--engine ${choice}` };
  if (command === 'audit') return { engine: 'cluster', why: 'auto: the audit runs in the cluster on any number of nodes' };
  const health = (await client.request<{ number_of_data_nodes?: number }>('GET', '/_cluster/health', { query: { filter_path: 'number_of_data_nodes' } })).body;
  const nodes = health.number_of_data_nodes ?? 1;
  return nodes >= 2
    ? { engine: 'cluster', why: `auto: ${nodes} data nodes compute the cells in parallel` }
    : { engine: 'client', why: 'auto: one data node, where the client path is as fast' };
}
