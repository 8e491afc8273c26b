/**
 * A reindex's state and its names: the phases, the state kept in DEST's
 * `_meta.reindex`, the errors, and reading that state and the aliases from
 * the cluster. Node only.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import type { IndexMeta } from '../../opensearch/meta.ts';

const enc = encodeURIComponent;

/** The phases of a reindex, in order ("rolled-back" ends one that was switched back). */
export const REINDEX_PHASES = ['copying', 'verifying', 'catching-up', 'switching', 'switched', 'rolled-back'] as const;
export type ReindexPhase = (typeof REINDEX_PHASES)[number];

/** Where a test may stop the command (GEOSHARD_REINDEX_PAUSE): after the first copied batch, after the verify's reads, under the write block before the alias call. */
export const REINDEX_PAUSE_POINTS = ['copying', 'verifying', 'switching'] as const;
export type ReindexPausePoint = (typeof REINDEX_PAUSE_POINTS)[number];

/** Per-shard checkpoints of both indexes: every later write to a shard has a higher `_seq_no`. */
export interface SeqCheckpoint {
  from: number[];
  to: number[];
}

/** A reindex's state, kept in DEST's `_meta.reindex`. */
export interface ReindexState {
  /** The source index (a concrete index). */
  from: string;
  /** The alias clients use: moved from SRC to DEST at the switch. */
  alias: string;
  phase: ReindexPhase;
  startedAt: string;
  updatedAt: string;
  /** SRC's checkpoints taken before the copy read anything. */
  copyCheckpoint: number[];
  /** Copy units finished: "parents:3", "children:3", "all:3" (part:SRC shard). */
  copied: string[];
  /** Who copies: the client (routing in the process, past the pipeline) or the cluster (`_reindex` through the pipeline); absent in states written before the choice existed: the client. */
  copyMode?: CopyMode;
  /** The cluster's copy task (copyMode engine), followed through the tasks API; kept for a resumed run. */
  copyTask?: CopyTask;
  /** The checkpoint the next pass compares from, and the ids the last pass fixed. */
  checkpoint?: SeqCheckpoint;
  recheck?: string[];
  /** The verify's figures. */
  verified?: { source: number; dest: number; differed: number; at: string };
  /** The switch: when the block was set (null once lifted or switched), each try's block length, and the checkpoints at the switch. */
  cutover?: { blockedAt: string | null; windowsMs: number[]; switchedAt?: string; checkpoint?: SeqCheckpoint };
  /** Whether SRC had no alias when the reindex started (clients used its name): --finalize then gives the name to DEST. */
  renameOnFinalize: boolean;
}

/** The copy task recorded in DEST's `_meta.reindex`. */
export interface CopyTask {
  /** The task id, "<node id>:<number>". */
  id: string;
  startedAt: string;
  /** Whether this task was started with op_type create (a restart after a cancelled or lost task). */
  resumed: boolean;
}

/** Who copies the documents: `client` (this process reads SRC a page at a time, routes in the client and bulk-writes DEST) or `engine` (the cluster's sliced `_reindex` through DEST's routing pipeline). */
export const COPY_MODES = ['client', 'engine'] as const;
export type CopyMode = (typeof COPY_MODES)[number];

/** ReindexError is a refusal or failure with a message for the operator. */
export class ReindexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReindexError';
  }
}


/** What a side needs to know about an index's shape. */
export interface Shape {
  /** The join field, when the mapping has one. */
  join: { field: string; parents: string[] } | null;
  /** Whether the index routes writes with a default pipeline (DEST; a geoshard SRC). */
  pipeline: boolean;
}

/** readReindex returns DEST's reindex state (undefined: no such index; null: no reindex recorded) with its `_meta`. */
export async function readReindex(client: OpenSearchClient, dest: string): Promise<{ meta: IndexMeta; state: ReindexState | null } | null | undefined> {
  const meta = await fetchIndexMeta(client, dest);
  if (meta === undefined) return undefined;
  if (meta === null) return null;
  return { meta, state: (meta.reindex as ReindexState | undefined) ?? null };
}

/** reindexesOf lists every index whose `_meta` records a reindex from `src` (one request). */
export async function reindexesOf(client: OpenSearchClient, src: string): Promise<{ index: string; state: ReindexState }[]> {
  const body = await client.get<Record<string, { mappings?: { _meta?: { reindex?: ReindexState } } }>>('/_all/_mapping', { query: { filter_path: '*.mappings._meta.reindex' } });
  return Object.entries(body ?? {})
    .filter(([, v]) => v.mappings?._meta?.reindex?.from === src)
    .map(([index, v]) => ({ index, state: v.mappings!._meta!.reindex! }));
}

/** aliasTargets returns the indexes an alias points at (empty when there is no such alias). */
export async function aliasTargets(client: OpenSearchClient, alias: string): Promise<string[]> {
  const res = await client.request<Record<string, unknown>>('GET', `/_alias/${enc(alias)}`, { okStatuses: [404] });
  return res.status === 404 ? [] : Object.keys(res.body ?? {});
}


export const now = () => new Date().toISOString();
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
