/**
 * What every endpoint family of the live API shares (LiveApi in src/server/api.ts is it): the
 * OpenSearch client, the search deadline, the routing state (boundary file, drift guard, index
 * config), the guards and the memory of the cluster's nodes.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { ClusterMemory } from './nodes.ts';
import type { Guards } from './guards.ts';
import type { Loaded } from './load.ts';

/** The live API's shared state, as the endpoint families use it. */
export interface ApiContext {
  readonly client: OpenSearchClient;
  /** Deadline OpenSearch gets per search (ms). */
  readonly searchTimeoutMs: number;
  readonly guards: Guards;
  readonly cluster: ClusterMemory;
  /** routing returns the router, drift guard and config, loading the boundary file again if it failed to load before. */
  routing(): Loaded;
}
