/**
 * The wire contract of GET /api/status (src/server/api/status.ts answers it): the connection,
 * the cluster's nodes and the index's shard copies (the Nodes view's grid), the boundary file
 * and its routing key, the drift, a migration in progress (MigrationStatus, also read by the
 * Migration view), the routing pipeline, the limits and the vocabulary.
 * No Node imports, no DOM: the browser bundle imports it (through src/server/wire.ts).
 */
import type { MoveStep, DocCounts } from '../../core/migrationState.ts';
import type { DriftEcho } from './search.ts';

/**
 * A migration in progress on the index (`geoshard migrate`), as its `_meta`
 * records it: one entry per moving range with its step (core MOVE_STEPS) and
 * counts. Reported by /api/status; a search answer names the epoch it read.
 */
export interface MigrationStatus {
  /** +1 on every publish; searches route with the state of this epoch. */
  epoch: number;
  /** The settled file's hash and the target's. */
  base: string;
  target: string;
  targetVersion: number;
  startedAt: string;
  updatedAt: string;
  moves: {
    start: string;
    end: string | null;
    from: string;
    to: string;
    fromShard: number;
    toShard: number;
    step: MoveStep;
    /** Documents the copy wrote to the new owner. */
    copied: DocCounts;
    /** The range's documents on both owners when verified, null before. */
    verified: { from: DocCounts; to: DocCounts } | null;
    /**
     * The copy step's cutover: `blockedAt` set while the index's writes are
     * blocked for this range's exact check (writes answer 403
     * cluster_block_exception: retry), each try's window in ms; null before
     * the cutover (absent from older servers).
     */
    cutover?: { blockedAt: string | null; windowsMs: number[] } | null;
  }[];
}

/** A shard copy's state, as OpenSearch's `_cat/shards` names it. */
export type ShardState = 'STARTED' | 'INITIALIZING' | 'RELOCATING' | 'UNASSIGNED';

/**
 * A node of the cluster. `up` is false for a node the API saw before (in a
 * shard table or node list since it started) that is no longer in the
 * cluster: the node list itself only ever holds nodes that are up.
 */
export interface ClusterNode {
  /** The node's persistent id (full, as `_cat/nodes?full_id=true` gives it). */
  id: string;
  name: string;
  /** Role names, e.g. ["cluster_manager", "data", "ingest"]; empty when not known (a node that left). */
  roles: string[];
  up: boolean;
}

/** One copy of one shard of the index. */
export interface ShardCopy {
  /** OpenSearch shard number. */
  shard: number;
  /** The boundary file's routing name of the shard (null if the file has no such shard). */
  name: string | null;
  primary: boolean;
  state: ShardState;
  /** The node holding the copy (null when unassigned); for RELOCATING, the node it leaves. */
  node: { id: string; name: string } | null;
  /** Documents in the copy (null when not started). */
  docs: number | null;
}

/** The answer of /api/status. */
export interface StatusAnswer {
  connection: {
    status: 'up' | 'down';
    /** The node's URL without credentials. */
    url: string;
    cluster?: { name: string; version: string; distribution: string; health: string; nodes: number };
    message?: string;
  };
  /**
   * The server's boundary file: its name relative to the project (or its
   * file name when it lies outside), never an absolute path; or why it is unusable.
   */
  boundary:
    | {
        file: string;
        index: string;
        hash: string;
        version: number;
        numberOfShards: number;
        shards: { index: number; name: string; shard: number }[];
        /** routingKeyOf(the file): equal for two files that route every cell alike (absent from older servers). */
        routing?: string;
      }
    | { file: string; error: string };
  /**
   * The cluster's nodes, sorted by name: those up now and those seen since
   * the API started that have left (up false). Null when the cluster is down.
   */
  nodes: ClusterNode[] | null;
  index:
    | { name: string; exists: false }
    | {
        name: string;
        exists: true;
        docs: { restaurants: number; dishes: number; total: number };
        sample: unknown;
        /** The primaries, one per shard, by shard number. */
        shards: { shard: number; name: string | null; state: string; docs: number | null; node: string | null }[];
        /** Every copy of every shard (primaries and replicas), by shard number, primary first: the shard × node grid. */
        copies: ShardCopy[];
      }
    | { name: string; error: string }
    | null;
  drift: (DriftEcho & { message: string }) | null;
  /** The migration in progress on the index, null when settled, an error when its state cannot be read (absent from older servers). */
  migration?: MigrationStatus | { error: string } | null;
  /**
   * The routing ingest pipeline installed as the index's default_pipeline
   * (`geoshard pipeline --install`), beside `_meta`: what it was made for
   * (settled boundary hash, migration epoch, routing table digest) and whether
   * it routes as `_meta` says (same hash and table; the epoch may lag). Null:
   * none installed; an error when it cannot be read (absent from older servers).
   */
  pipeline?: { id: string; hash: string; epoch: number; table: string; matches: boolean; message: string } | { error: string } | null;
  /**
   * The search pipeline that routes searches in the cluster (the geoshard plugin's
   * geo_routing_search, `geoshard pipeline --install --search`), beside `_meta`: whether searches
   * sent with no routing are routed by the cluster, and whether it narrows as `_meta` says
   * (unpinned, or pinned to the index's file). Null: none (searches are routed by their clients);
   * an error when it cannot be read (absent from older servers).
   */
  searchPipeline?: { id: string; routes: boolean; pinned: string | null; matches: boolean; message: string } | { error: string } | null;
  limits: { minRadiusKm: number; maxRadiusKm: number; maxSize: number; defaultSize: number; searchTimeoutMs: number };
  vocabulary: { diets: readonly string[]; allergens: readonly string[]; cuisines: readonly string[] };
  /** Whether the write endpoints answer (GEOSHARD_WRITES=1 on the server); absent from older servers. */
  writes?: { enabled: boolean };
  /**
   * The index config searches use (GEOSHARD_CONFIG), when it is not the sample's: its location,
   * name, join and facets (then docs.restaurants and docs.dishes are 0 and docs.total counts
   * every document). Absent for the sample.
   */
  config?: { index: string; location: string; name: string | null; join: unknown; facets: string[] };
}

/**
 * routingKeyOf says how a boundary file routes, without what else it says
 * (its index name, version, dates, counts): two files with equal keys send
 * every cell to the same shard name and number, so the explorer can show one
 * while the live API routes with the other (e.g. the same boundaries written
 * for another index) without a routed search asking other shards.
 */
export function routingKeyOf(f: { numberOfShards: number; routingNumShards?: number; boundaries: readonly string[]; shards: readonly { name: string; shard: number }[] }): string {
  return JSON.stringify([f.numberOfShards, f.routingNumShards ?? null, f.boundaries, f.shards.map((s) => [s.name, s.shard])]);
}
