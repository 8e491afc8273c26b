/**
 * The contract of GeoIndexer (indexer.ts), the package's writer: its options (the retry policy,
 * the `_meta` read's lifetime), the routing state it writes under, its error (GeoIndexError with
 * a code a caller can switch on), and what each operation returns (one result per document:
 * where each copy went and what the engine said). Exported by `geoshard/opensearch`.
 */
import type { BoundaryFile, Router, ShardRef } from '../core/index.ts';
import type { MigrationState } from '../core/migrationState.ts';
import type { IndexMeta } from './meta.ts';
import type { Source } from './documentFields.ts';

/** How writes refused with 429 or a write block are retried. */
export interface RetryPolicy {
  /** Stop retrying once this long (ms) has passed since the first attempt; >= 0. */
  budgetMs: number;
  /** First backoff (ms); doubles per attempt, with jitter in [50 %, 100 %]. */
  baseMs: number;
  /** Largest backoff (ms). */
  maxMs: number;
}

/** The default retry policy: 30 s of retries, 100 ms doubling to 2 s. */
export const DEFAULT_RETRY: RetryPolicy = { budgetMs: 30_000, baseMs: 100, maxMs: 2_000 };

/** Options of GeoIndexer. */
export interface GeoIndexerOptions {
  /** How long (ms) a read of `_meta` is reused before the next batch reads it again; default 1000. 0: every batch reads it. */
  metaTtlMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Deadline of one bulk request (ms); default 120000. */
  bulkTimeoutMs?: number;
  /** Waits `ms` (tests replace it); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * How long (ms) a write refused for its routing while `_meta` has not
   * changed is tried again (default 5000): `geoshard migrate` updates the
   * routing pipeline a moment after `_meta`. 0: such a refusal is final at once.
   */
  pipelineLagMs?: number;
}

/** The routing state the indexer writes with, as read from `_meta`. */
export interface RoutingState {
  meta: IndexMeta;
  /** The settled boundary file (`_meta.file`). */
  base: BoundaryFile;
  /** The migration in progress, or null when settled. */
  state: MigrationState | null;
  /** The router of the state (the migration's intermediate file, or the settled file). */
  router: Router;
  /** The migration epoch, null when settled. */
  epoch: number | null;
  /** `<settled hash>@<epoch or "settled">`: changes whenever the routing may change. */
  key: string;
  /** The index's join field and its relations (parent → child names), from the mapping; null without one. */
  join?: { field: string; relations: Record<string, string[]> } | null;
}

/** What went wrong, for callers that answer for it (the API maps these to HTTP statuses). */
export type GeoIndexErrorCode =
  /** The index does not exist. */
  | 'no-index'
  /** The index has no usable geoshard `_meta` (not geosharded, made before `_meta.file`, or a migration state that cannot be read). */
  | 'no-meta'
  /** The restaurant (of a dish, or to delete) does not exist. */
  | 'not-found'
  /** The id belongs to a document of another kind or another restaurant. */
  | 'conflict'
  /** Writes stayed refused with 429 or a write block for the whole retry budget: try again later. */
  | 'busy'
  /** The cluster refused a write for another reason, or did not answer. */
  | 'failed'
  /** The document given cannot be written: no valid location at the index's location field. */
  | 'invalid';

/** GeoIndexError says why an operation did not complete, with the per-document results so far. */
export class GeoIndexError extends Error {
  constructor(
    readonly code: GeoIndexErrorCode,
    message: string,
    readonly results: DocResult[] = [],
    /** For `busy`: how long to wait before trying again (ms). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'GeoIndexError';
  }
}

/** What the cluster answered for one copy of a document. */
export interface WriteItem {
  routing: string;
  /** The item's HTTP status (201 created, 200 updated or deleted, 404 not found, 429, 403, ...). */
  status: number;
  /** OpenSearch's result: "created", "updated", "deleted", "not_found", "noop"; null when refused. */
  result: string | null;
  error: { type: string; reason: string } | null;
}

/** The outcome of one document: every copy written (or deleted), by routing. */
export interface DocResult {
  id: string;
  kind: 'restaurant' | 'dish' | null;
  action: 'index' | 'delete';
  /** Every copy succeeded (a delete of a copy that was not there counts as done). */
  ok: boolean;
  /** One per routing the document was sent with, in the order last sent. */
  items: WriteItem[];
  /** Bulk requests it took (retries included). */
  attempts: number;
  /** The migration epoch of the last routing state it was sent under (null when settled). */
  epoch: number | null;
}

/** A prebuilt document for `bulk`: its source and the point it is routed by (a dish: its restaurant's location). */
export interface BulkDoc {
  id: string;
  /** Degrees. */
  lat: number;
  lng: number;
  source: Source;
}

/** Options of `bulk`. */
export interface BulkOptions {
  /** Documents per bulk request (copies to two owners count once); default 2000. */
  batchDocs?: number;
  /** Bulk requests in flight; default 2. */
  concurrency?: number;
  /** Called after each batch with the documents done so far. */
  onProgress?: (done: number) => void;
  /** Keep the results of every document ('all', default) or only of those that failed. */
  keep?: 'all' | 'failures';
  /** Stop taking new batches after a document fails for good; default false. */
  stopOnError?: boolean;
  /** Use refresh=wait_for (default false: bulk loads refresh once at the end). */
  refresh?: boolean;
  /**
   * The ingest pipeline of the requests (`pipeline=`), e.g. `_none` for a load that routes
   * every document itself from the `_meta` it just wrote (`geoshard seed`): the index's routing
   * pipeline would check each routing again at a cost. Default: the index's default pipeline.
   */
  pipeline?: string;
}

/** What `bulk` did. */
export interface BulkReport {
  /** Documents taken from the input. */
  docs: number;
  /** Documents every owner acknowledged. */
  written: number;
  failed: number;
  /** Per document (or only the failures, see BulkOptions.keep), in the order done. */
  results: DocResult[];
}

/** What a write of a restaurant or a dish did. */
export interface PutResult {
  id: string;
  restaurantId: string;
  /** The restaurant's location (degrees) and its level-10 token. */
  lat: number;
  lng: number;
  cell: string;
  /** The shards written (one, or two during a move, old owner first), each with its routing value `name`. */
  owners: ShardRef[];
  /** The shard searches read the location from (the core's shard). */
  read: ShardRef;
  epoch: number | null;
  /** True when the document did not exist before. */
  created: boolean;
  /** Routings the old copies were deleted from (a restaurant that moved to another shard, with its dishes); empty otherwise. */
  movedFrom: string[];
  /** Dishes rewritten with the restaurant (putRestaurant); 0 for putDish. */
  dishes: number;
  results: DocResult[];
}

/** What deleteRestaurant did. */
export interface DeleteResult {
  id: string;
  /** The restaurant's location, null when only orphaned dishes were found. */
  lat: number | null;
  lng: number | null;
  cell: string | null;
  owners: ShardRef[];
  read: ShardRef | null;
  epoch: number | null;
  /** Every routing a copy was deleted from. */
  routings: string[];
  /** Dishes deleted. */
  dishes: number;
  results: DocResult[];
}

/** Where the engine holds a document: its shard number and node id. */
export interface Located {
  shard: number;
  node: string | null;
}
