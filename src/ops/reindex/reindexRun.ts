/**
 * What every phase of a running reindex shares: the options, SRC's shape,
 * DEST's router and pipeline fields, both indexes as DocSides, the state
 * (written to DEST's `_meta` by `save`) and the result so far.
 */
import type { BoundaryFile, Router } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { DocSide } from '../compare/docDiff.ts';
import type { PipelineFields } from '../../opensearch/routingPipeline.ts';
import type { SourceInfo } from './createDest.ts';
import type { CopyMode, ReindexPausePoint, ReindexState } from './state.ts';

/** Options of runReindex. */
export interface ReindexOptions {
  client: OpenSearchClient;
  /** The source: a concrete index. */
  from: string;
  /** The new index. */
  to: string;
  alias: string;
  file: BoundaryFile;
  /** The geo_point field locating a document, and a join child's copy of its parent's location (null: no join). */
  location: string;
  childLocation: string | null;
  /** Whether SRC had no alias (clients use its name). */
  renameOnFinalize: boolean;
  /** Documents per copy page and bulk request (default 5000). */
  batch?: number;
  /** SRC shards copied at once (default 3). */
  concurrency?: number;
  /** Who copies (default client); a resumed copy keeps the mode it started with. */
  copy?: CopyMode;
  /** The engine copy's throttle: documents per second across its slices (default none). */
  requestsPerSecond?: number;
  progress: (line: string) => void;
  pause?: (point: ReindexPausePoint) => Promise<void>;
  /** True once the lock was taken over by another process: stop before writing. */
  lockLost?: () => boolean;
}

/** What a finished reindex reports. */
export interface ReindexResult {
  copied: number;
  docsPerSecond: number;
  copySeconds: number;
  /** The switch's write block on SRC, per try (ms). */
  windowsMs: number[];
  verified: ReindexState['verified'];
}

/** A running reindex, as its phases see it. `state` is the last state saved (or about to be: set it, then `save()`). */
export interface ReindexRun {
  client: OpenSearchClient;
  src: string;
  dest: string;
  alias: string;
  file: BoundaryFile;
  router: Router;
  fields: PipelineFields;
  info: SourceInfo;
  o: ReindexOptions;
  say: (line: string) => void;
  batch: number;
  concurrency: number;
  srcSide: DocSide<number[]>;
  destSide: DocSide<number[]>;
  result: ReindexResult;
  state: ReindexState;
  /** Writes `state` (with a new updatedAt) into DEST's `_meta`; throws when the lock was lost. */
  save(): Promise<void>;
}
