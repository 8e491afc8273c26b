/**
 * `geoshard reindex`: copy an index into a new, geosharded one while clients
 * keep writing the old one, verify the copy per document, and switch the
 * alias clients use in one `_aliases` call. For a geoshard index whose shard
 * count changes (the output of `geoshard split` / `merge`: `migrate` moves
 * ranges only between the shards an index has) and for a plain index that
 * was never routed (any shard count, flat or parent/child).
 *
 * Phases (DEST's `_meta.reindex`, written after every step, so a process
 * killed at any point resumes from the last one written):
 *
 *   copying      DEST is created (SRC's mapping with `_routing` required,
 *                geoshard's `_meta`, the routing pipeline as its default
 *                pipeline, N shards from the boundary file). Every SRC
 *                shard's `max_seq_no` is recorded first (the copy
 *                checkpoint), then every document is copied from a
 *                point-in-time per SRC shard (shards in parallel), routed
 *                in the client by the rule of DEST's routing pipeline
 *                (routeCopy: the core's Router, the stamped `cell` and
 *                `shard`) and sent past it (`pipeline: _none`: the pipeline
 *                costs the node 1.2-2.2x the CPU); the pipeline stays DEST's
 *                default for every other writer. Parents before children.
 *                A finished shard is recorded; a killed copy copies the
 *                others again.
 *   verifying    VDiff: every document of SRC against every document of
 *                DEST, per DEST shard: ids, content hash (docDiff.ts
 *                digestOf) and the shard its location names (the core's
 *                router, independently of the pipeline). What differs is
 *                printed and fixed. Writers keep writing: the differences of
 *                documents written after the checkpoint are the catch-up's.
 *   catching-up  passes (docDiff.ts compareSides) of what SRC wrote after
 *                the last checkpoint (`_seq_no`, per shard) plus an id diff
 *                (deletes leave no sequence number to find), until a pass
 *                finds (almost) nothing.
 *   switching    SRC gets a write block (`index.blocks.write`: writers get a
 *                403 cluster_block_exception and retry). Under it one pass
 *                is exact; SRC's checkpoint is read again after it (nothing
 *                may have slipped past the block), then one `_aliases` call
 *                removes SRC from the alias and adds DEST.
 *   switched     SRC is kept, still write-blocked, so a client that writes
 *                it by name is refused rather than lost; `--rollback` points
 *                the alias back (after copying DEST's writes since the switch
 *                back to SRC, the same passes the other way), `--finalize`
 *                deletes SRC and gives its name to DEST as a second alias
 *                (one `_aliases` call: remove_index + add), so clients that
 *                used the name work again.
 *
 * Node only.
 */
import { Router, type BoundaryFile } from '../core/index.ts';
import { OpenSearchError, type OpenSearchClient } from './opensearch.ts';
import { indexMeta, type IndexMeta } from './indexSpec.ts';
import { bulkErrors, getIndexMeta, LOAD_SETTINGS, RESTORED_SETTINGS } from './seeder.ts';
import { fingerprintOf, searchShardsOf } from './fingerprint.ts';
import { installPipeline } from './pipeline.ts';
import { writeMeta } from './migration.ts';
import { compareSides, describeDiff, digestOf, fixDiff, idsOf, isClean, type DocSide, type RangeDiff } from './docDiff.ts';
import { cellOf, pointOf } from '../opensearch/documents.ts';
import { NdjsonBytes } from '../opensearch/ndjson.ts';
import { SpillJoin } from './spill.ts';
import { copyTaskStatus, followCopyTask, startEngineCopy, type CopyTask } from './reindexEngine.ts';
import { pipelineId } from '../opensearch/pipeline.ts';
import type { PipelineFields } from '../opensearch/pipeline.ts';
import { MigrationError } from '../opensearch/meta.ts';

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

// ---------------------------------------------------------------------------------------------
// Reading an index shard by shard

/** seqNos returns every shard's primary `max_seq_no`, by shard number (-1 for a shard with no operation). */
export async function seqNos(client: OpenSearchClient, index: string): Promise<number[]> {
  type Stats = { indices: Record<string, { shards: Record<string, { routing: { primary: boolean }; seq_no: { max_seq_no: number } }[]> }> };
  const { body } = await client.request<Stats>('GET', `/${enc(index)}/_stats/docs`, { query: { level: 'shards', filter_path: 'indices.*.shards.*.seq_no,indices.*.shards.*.routing.primary' }, timeoutMs: 60_000 });
  const shards = Object.values(body.indices)[0]?.shards ?? {};
  const out: number[] = [];
  for (const [k, copies] of Object.entries(shards)) {
    const p = copies.find((c) => c.routing.primary);
    if (!p) throw new ReindexError(`shard ${k} of "${index}" has no primary in _stats: cannot take a checkpoint`);
    out[Number(k)] = p.seq_no.max_seq_no;
  }
  return out;
}

interface Hit {
  _id: string;
  _routing?: string;
  _source?: Record<string, unknown>;
  sort: unknown[];
}

const PAGE = 5000;

/** shardPages reads one shard of an index with a point-in-time (sorted by `_doc`), `size` at a time. */
async function* shardPages(client: OpenSearchClient, index: string, shard: number, query: Record<string, unknown>, size: number, source: boolean): AsyncGenerator<Hit[]> {
  const keepAlive = '5m';
  const created = await client.request<{ pit_id: string }>('POST', `/${enc(index)}/_search/point_in_time`, { query: { keep_alive: keepAlive, preference: `_shards:${shard}` }, timeoutMs: 60_000 });
  const pit = { id: created.body.pit_id };
  try {
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await client.request<{ pit_id?: string; hits: { hits: Hit[] } }>('POST', '/_search', {
        query: { filter_path: 'pit_id,hits.hits._id,hits.hits._routing,hits.hits._source,hits.hits.sort' },
        body: { size, query, _source: source, pit: { id: pit.id, keep_alive: keepAlive }, sort: [{ _doc: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
        timeoutMs: 120_000,
      });
      if (body.pit_id) pit.id = body.pit_id;
      const hits = body.hits?.hits ?? [];
      if (hits.length === 0) return;
      yield hits;
      if (hits.length < size) return;
      after = hits[hits.length - 1].sort;
    }
  } finally {
    await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit.id] }, okStatuses: [404] }).catch(() => undefined);
  }
}

/** shardCount returns an index's number of shards. */
async function shardCount(client: OpenSearchClient, index: string): Promise<number> {
  const body = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${enc(index)}/_settings/index.number_of_shards`);
  return Number(Object.values(body)[0].settings.index.number_of_shards);
}

/** What a side needs to know about an index's shape. */
export interface Shape {
  /** The join field, when the mapping has one. */
  join: { field: string; parents: string[] } | null;
  /** Whether the index routes writes with a default pipeline (DEST; a geoshard SRC). */
  pipeline: boolean;
}

/** The query for parents (a join's parent relations), children (the rest), or every document. */
function partQuery(shape: Shape, part: 'parents' | 'children' | 'all'): Record<string, unknown> {
  if (part === 'all' || !shape.join) return { match_all: {} };
  const parents = { terms: { [shape.join.field]: shape.join.parents } };
  return part === 'parents' ? parents : { bool: { must_not: [parents] } };
}

/** eachIdOfIndex reads every id of an index, shard by shard, passing each page of ids to `f` (nothing is kept). */
async function eachIdOfIndex(client: OpenSearchClient, index: string, shards: number, f: (ids: readonly string[]) => void, concurrency = 3): Promise<number> {
  let n = 0;
  await eachShard(shards, concurrency, async (k) => {
    for await (const hits of shardPages(client, index, k, { match_all: {} }, 10_000, false)) {
      f(hits.map((h) => h._id));
      n += hits.length;
    }
  });
  return n;
}

/** eachShard runs `f` for shards 0..n-1, `concurrency` at a time. */
async function eachShard(n: number, concurrency: number, f: (k: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, async () => {
    while (next < n) await f(next++);
  }));
}

/** hitsByIds finds documents by id on every shard (an `ids` query: no routing needed), with their routing and source. */
async function hitsByIds(client: OpenSearchClient, index: string, ids: readonly string[], source: boolean): Promise<Hit[]> {
  const out: Hit[] = [];
  for (let i = 0; i < ids.length; i += 2000) {
    const chunk = ids.slice(i, i + 2000);
    const { body } = await client.request<{ hits: { hits: Hit[] } }>('POST', `/${enc(index)}/_search`, {
      body: { size: chunk.length * 2, query: { ids: { values: chunk } }, _source: source, track_total_hits: false },
      timeoutMs: 120_000,
    });
    out.push(...body.hits.hits);
  }
  return out;
}

/**
 * writeDocs writes whole documents into `index` and deletes ids, in one bulk
 * request per 2,000: every copy an id already has is deleted first (with its
 * own routing: a document whose location changed is routed elsewhere by the
 * pipeline, and its old copy must not stay), then the document is indexed
 * without routing when the index has a routing pipeline (it routes), with
 * the parent's id for a join child otherwise (a hash-sharded parent/child
 * index), else none. Throws ReindexError naming failed items.
 */
async function writeDocs(client: OpenSearchClient, index: string, shape: Shape, docs: readonly (readonly [string, Record<string, unknown>])[], dels: readonly string[]): Promise<void> {
  const existing = await hitsByIds(client, index, [...docs.map(([id]) => id), ...dels], false);
  let body = '';
  for (const h of existing) body += JSON.stringify({ delete: { _index: index, _id: h._id, ...(h._routing !== undefined ? { routing: h._routing } : {}) } }) + '\n';
  for (const [id, s] of docs) body += JSON.stringify({ index: { _index: index, _id: id, ...routingFor(shape, s) } }) + '\n' + JSON.stringify(s) + '\n';
  if (body === '') return;
  const res = await client.request<Parameters<typeof bulkErrors>[0]>('POST', '/_bulk', { body, query: { filter_path: 'errors,items.*._id,items.*.status,items.*.error' }, timeoutMs: 120_000 });
  const errs = bulkErrors(res.body).filter((e) => e.status !== 404);
  if (errs.length > 0) throw new ReindexError(`writing ${docs.length} documents into "${index}" failed for ${errs.length}: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
}

function routingFor(shape: Shape, s: Record<string, unknown>): { routing?: string } {
  if (shape.pipeline || !shape.join) return {};
  const parent = (s[shape.join.field] as { parent?: unknown } | undefined)?.parent;
  return typeof parent === 'string' ? { routing: parent } : {};
}

/**
 * indexSide is a whole index as a DocSide for docDiff.ts: checkpoints per
 * shard, ids and changes read shard by shard, writes as writeDocs does.
 */
export function indexSide(client: OpenSearchClient, index: string, shards: number, shape: Shape): DocSide<number[]> {
  return {
    label: `index "${index}"`,
    refresh: async () => void (await client.request('POST', `/${enc(index)}/_refresh`, { timeoutMs: 120_000 })),
    checkpoint: () => seqNos(client, index),
    eachId: async (f) => ({ docs: await eachIdOfIndex(client, index, shards, f) }),
    count: async () => (await client.request<{ count: number }>('POST', `/${enc(index)}/_count`, { body: { query: { match_all: {} } } })).body.count,
    async changedSince(since) {
      const out = new Set<string>();
      await eachShard(shards, 3, async (k) => {
        let after: unknown[] | undefined;
        for (;;) {
          const { body } = await client.request<{ hits: { hits: Hit[] } }>('POST', `/${enc(index)}/_search`, {
            query: { preference: `_shards:${k}` },
            body: { size: PAGE, query: { range: { _seq_no: { gt: since[k] ?? -1 } } }, _source: false, sort: [{ _seq_no: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
            timeoutMs: 120_000,
          });
          const hits = body.hits.hits;
          for (const h of hits) out.add(h._id);
          if (hits.length < PAGE) return;
          after = hits[hits.length - 1].sort;
        }
      });
      return out;
    },
    async sources(ids) {
      const out = new Map<string, Record<string, unknown>>();
      for (const h of await hitsByIds(client, index, ids, true)) if (h._source) out.set(h._id, h._source);
      return out;
    },
    write: (docs, dels) => writeDocs(client, index, shape, docs, dels),
  };
}

// ---------------------------------------------------------------------------------------------
// Creating DEST

/** The parts of SRC that DEST takes: its mapping, analysis settings and replica count. */
interface SourceInfo {
  mappings: Record<string, unknown>;
  analysis?: unknown;
  replicas: number;
  shards: number;
  meta: IndexMeta | null;
  shape: Shape;
}

async function sourceInfo(client: OpenSearchClient, src: string): Promise<SourceInfo> {
  const mapping = await client.get<Record<string, { mappings: Record<string, unknown> }>>(`/${enc(src)}/_mapping`);
  const mappings = Object.values(mapping)[0].mappings ?? {};
  const settings = await client.get<Record<string, { settings: { index: { number_of_replicas?: string; number_of_shards: string; analysis?: unknown; default_pipeline?: string } } }>>(`/${enc(src)}/_settings`);
  const idx = Object.values(settings)[0].settings.index;
  const props = (mappings.properties ?? {}) as Record<string, { type?: string; relations?: Record<string, unknown> }>;
  const joinField = Object.keys(props).find((k) => props[k]?.type === 'join');
  const join = joinField ? { field: joinField, parents: Object.keys(props[joinField].relations ?? {}) } : null;
  return {
    mappings,
    analysis: idx.analysis,
    replicas: Number(idx.number_of_replicas ?? 0),
    shards: Number(idx.number_of_shards),
    meta: await getIndexMeta(client, src).then((m) => m ?? null),
    shape: { join, pipeline: !!idx.default_pipeline && idx.default_pipeline !== '_none' },
  };
}

/** fieldsOf returns the pipeline's fields for a mapping: the location (and a join child's), stamped when the mapping has the sample's `cell` and `shard`. */
export function fieldsOf(mappings: Record<string, unknown>, location: string, childLocation: string | null): PipelineFields {
  const props = (mappings.properties ?? {}) as Record<string, unknown>;
  return { location, childLocation, stamp: 'cell' in props && 'shard' in props };
}

/** typeAt returns the mapping type of a dotted field path, or undefined when the mapping has no such field. */
export function typeAt(mappings: Record<string, unknown>, path: string): string | undefined {
  let props = mappings.properties as Record<string, { type?: string; properties?: Record<string, unknown> }> | undefined;
  const parts = path.split('.');
  for (let i = 0; i < parts.length; i++) {
    const f = props?.[parts[i]];
    if (!f) return undefined;
    if (i === parts.length - 1) return f.type ?? 'object';
    props = f.properties as typeof props;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The executor

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

/** readReindex returns DEST's reindex state (undefined: no such index; null: no reindex recorded) with its `_meta`. */
export async function readReindex(client: OpenSearchClient, dest: string): Promise<{ meta: IndexMeta; state: ReindexState | null } | null | undefined> {
  const meta = await getIndexMeta(client, dest);
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

/** setWriteBlock sets or lifts an index's write block (a change of the cluster state: admin deadlines). */
export async function setWriteBlock(client: OpenSearchClient, index: string, on: boolean): Promise<void> {
  await client.admin('PUT', `/${enc(index)}/_settings`, { body: { index: { 'blocks.write': on ? true : null } } });
}

const now = () => new Date().toISOString();
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * runReindex carries a reindex from SRC into DEST through to the switch (or
 * resumes one from DEST's `_meta`). Throws ReindexError / MigrationError with
 * a message for the operator, OpenSearchError when a request fails.
 */
export async function runReindex(o: ReindexOptions): Promise<ReindexResult> {
  const { client, from: src, to: dest, alias, file } = o;
  const say = o.progress;
  const batch = o.batch ?? 5000;
  const concurrency = o.concurrency ?? 3;
  const info = await sourceInfo(client, src);
  const router = new Router(file);
  const fields = fieldsOf(info.mappings, o.location, o.childLocation);
  const destShape: Shape = { join: info.shape.join, pipeline: true };

  // DEST: created once; its _meta holds the state from then on.
  let found = await readReindex(client, dest);
  if (found === null) throw new ReindexError(`index "${dest}" exists and was not made by "geoshard reindex" (it has no geoshard _meta): choose another --to, or delete it`);
  let meta: IndexMeta;
  let state: ReindexState;
  if (found === undefined || found.state === null) {
    if (found !== undefined) throw new ReindexError(`index "${dest}" exists and records no reindex: choose another --to, or delete it`);
    const copyCheckpoint = await seqNos(client, src);
    state = { from: src, alias, phase: 'copying', startedAt: now(), updatedAt: now(), copyCheckpoint, copied: [], copyMode: o.copy ?? 'client', renameOnFinalize: o.renameOnFinalize };
    meta = await createDest(client, dest, file, info, fields, state);
    await checkDestRouting(client, dest, file);
    say(`created "${dest}": ${file.numberOfShards} shards from boundary file ${file.hash.slice(0, 12)} (version ${file.version}), routing pipeline on ${fields.location}${fields.childLocation ? ` / ${fields.childLocation}` : ''}; copy checkpoint of "${src}" taken (${info.shards} shards)`);
  } else {
    meta = found.meta;
    state = found.state;
    if (state.from !== src) throw new ReindexError(`index "${dest}" records a reindex from "${state.from}", not "${src}": run the command with --from ${state.from}`);
    if (meta.hash !== file.hash) throw new ReindexError(`index "${dest}" was created with boundary file ${meta.hash.slice(0, 12)}, not ${file.hash.slice(0, 12)} (${file.version}): resume it with the file it started with, or --rollback / delete "${dest}" and start again`);
    if (state.alias !== alias) throw new ReindexError(`the reindex into "${dest}" switches alias "${state.alias}", not "${alias}": resume it with --alias ${state.alias}`);
    say(`resuming the reindex of "${src}" into "${dest}" at ${state.phase} (started ${state.startedAt})`);
  }
  const save = async () => {
    if (o.lockLost?.()) throw new ReindexError(`the reindex lock of "${src}" was taken over by another process: stopping before writing`);
    state = { ...state, updatedAt: now() };
    meta = { ...meta, reindex: state };
    await writeMeta(client, dest, meta);
  };
  const srcSide = indexSide(client, src, info.shards, info.shape);
  const destSide = indexSide(client, dest, file.numberOfShards, destShape);
  const result: ReindexResult = { copied: 0, docsPerSecond: 0, copySeconds: 0, windowsMs: state.cutover?.windowsMs ?? [], verified: state.verified };

  if (state.phase === 'copying' && (state.copyMode ?? o.copy ?? 'client') === 'engine') {
    // The cluster copies: sliced _reindex through DEST's routing pipeline, followed through the tasks API.
    await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: LOAD_SETTINGS } });
    const t0 = performance.now();
    let task = state.copyTask;
    if (task) {
      const st = await copyTaskStatus(client, task.id);
      if (!st || (st.completed && st.cancelled)) {
        say(`copy: the cluster's copy task ${task.id} was ${st ? 'cancelled' : 'lost (its node restarted?)'}: starting it again, skipping what DEST holds`);
        task = undefined;
      } else say(`copy: following the cluster's copy task ${task.id} (started ${task.startedAt})`);
    }
    if (!task) {
      task = await startEngineCopy(client, { src, dest, pipeline: pipelineId(dest), batch, requestsPerSecond: o.requestsPerSecond, resumed: !!state.copyTask });
      state = { ...state, copyMode: 'engine', copyTask: task };
      await save();
      say(`copy: the cluster copies "${src}" into "${dest}" with _reindex (task ${task.id}, slices auto, ${o.requestsPerSecond ? `throttled to ${fmt(o.requestsPerSecond)} documents/s` : 'no throttle'}) through DEST's routing pipeline. Follow it with GET _tasks/${task.id}; change its throttle with "geoshard reindex --to ${dest} --rethrottle N"; stop it with --pause (a run after that resumes the copy)`);
    }
    let paused = false;
    let lastLine = 0;
    const final = await followCopyTask(client, task.id, (st) => {
      const t = performance.now();
      if (t - lastLine < 2000 && !st.completed) return;
      lastLine = t;
      const rate = st.written / Math.max(0.001, (t - t0) / 1000);
      say(`copy (cluster) ${fmt(st.written + st.skipped)}/${fmt(st.total)} documents (${st.total ? Math.min(100, Math.round((100 * (st.written + st.skipped)) / st.total)) : 100}%), ${fmt(rate)} documents/s${st.skipped ? `, ${fmt(st.skipped)} already in DEST` : ''}`);
    }, o.pause ? 250 : 2000);
    if (final.cancelled) throw new ReindexError(`the cluster's copy task ${task.id} was cancelled (--pause, or by hand): run the command again to resume the copy`);
    if (final.failures.length > 0) throw new ReindexError(`the cluster's copy into "${dest}" failed for ${final.failures.length} documents or shards (task ${task.id}): ${final.failures.slice(0, 5).join('; ')}. A document the routing pipeline refuses has no location it reads (fix it in "${src}"), then run the command again`);
    if (!paused && o.pause) (paused = true), await o.pause('copying');
    result.copied = final.written;
    result.copySeconds = (performance.now() - t0) / 1000;
    result.docsPerSecond = result.copied / Math.max(0.001, result.copySeconds);
    await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: RESTORED_SETTINGS } });
    state = { ...state, phase: 'verifying' };
    await save();
  }

  if (state.phase === 'copying') {
    await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: LOAD_SETTINGS } });
    const parts: ('parents' | 'children' | 'all')[] = info.shape.join ? ['parents', 'children'] : ['all'];
    const total = (await client.request<{ count: number }>('POST', `/${enc(src)}/_count`, { body: { query: { match_all: {} } } })).body.count;
    const meter = progressMeter('copy', total, say);
    let paused = false;
    let byPipeline = 0;
    for (const part of parts) {
      const todo = Array.from({ length: info.shards }, (_, k) => k).filter((k) => !state.copied.includes(`${part}:${k}`));
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(concurrency, todo.length) }, async () => {
          while (next < todo.length) {
            const k = todo[next++];
            let pending: Promise<unknown> | null = null;
            for await (const hits of shardPages(client, src, k, partQuery(info.shape, part), batch, true)) {
              // Routed here as DEST's pipeline would route it, and sent past the pipeline (`_none`);
              // a point only the pipeline reads goes through it (no routing: it routes or refuses).
              const out = new NdjsonBytes(1 << 20);
              for (const h of hits) {
                const r = routeCopy(router, fields, h._source ?? {});
                if (r) out.line(JSON.stringify({ index: { _index: dest, _id: h._id, routing: r.routing, pipeline: '_none' } })), out.line(JSON.stringify(r.source));
                else out.line(JSON.stringify({ index: { _index: dest, _id: h._id } })), out.line(JSON.stringify(h._source)), byPipeline++;
              }
              const body = out.bytes();
              // One bulk in flight per shard while the next page is read.
              await pending;
              pending = client
                .request<Parameters<typeof bulkErrors>[0]>('POST', '/_bulk', { body, query: { filter_path: 'errors,items.*._id,items.*.status,items.*.error' }, timeoutMs: 300_000 })
                .then((res) => {
                  const errs = bulkErrors(res.body);
                  if (errs.length > 0) throw new ReindexError(`copying into "${dest}" failed for ${errs.length} of ${hits.length} documents: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
                  meter.add(hits.length);
                });
              pending.catch(() => {});
              if (!paused && o.pause) {
                paused = true;
                await pending;
                await o.pause('copying');
              }
            }
            await pending;
            state = { ...state, copied: [...state.copied, `${part}:${k}`] };
            await save();
          }
        }),
      );
    }
    meter.line(true);
    if (byPipeline > 0) say(`copy: ${fmt(byPipeline)} documents have a point in a form only DEST's pipeline reads (or none): sent through it`);
    result.copied = meter.done();
    result.copySeconds = meter.seconds();
    result.docsPerSecond = result.copied / Math.max(0.001, result.copySeconds);
    await client.admin('PUT', `/${enc(dest)}/_settings`, { body: { index: RESTORED_SETTINGS } });
    state = { ...state, phase: 'verifying' };
    await save();
  }

  if (state.phase === 'verifying') {
    const v = await verifyIndexes(client, src, dest, info, file.numberOfShards, router, fields, say);
    await o.pause?.('verifying');
    if (!isClean(v.diff)) {
      const f = await fixDiff(srcSide, destSide, v.diff);
      say(`verify: fixed: ${f.copied} copied again, ${f.deleted} deleted from "${dest}" (documents written during the copy are among them; the catch-up re-checks every one)`);
    }
    state = {
      ...state,
      phase: 'catching-up',
      // The copy checkpoint is older than the verify's reads: the passes start from it, re-checking what the verify fixed.
      checkpoint: { from: state.copyCheckpoint, to: v.checkpoint.to },
      recheck: [...idsOf(v.diff)].slice(0, 100_000),
      verified: { source: v.source, dest: v.dest, differed: idsOf(v.diff).size, at: now() },
    };
    result.verified = state.verified;
    await save();
  }

  if (state.phase === 'catching-up') {
    let since = state.checkpoint!;
    let recheck = new Set(state.recheck ?? []);
    for (let pass = 1; pass <= 6; pass++) {
      const c = await compareSides(srcSide, destSide, since, recheck, { blocked: false });
      if (!isClean(c.diff)) await fixDiff(srcSide, destSide, c.diff);
      since = c.checkpoint;
      recheck = idsOf(c.diff);
      say(`catch-up pass ${pass}: ${fmt(c.counts.from.docs)} documents on "${src}", ${c.compared} written since the last pass compared by content: ${describeDiff(c.diff, `"${dest}"`)}`);
      state = { ...state, checkpoint: since, recheck: [...recheck] };
      await save();
      if (recheck.size <= 10) break;
    }
    state = { ...state, phase: 'switching', cutover: { blockedAt: null, windowsMs: state.cutover?.windowsMs ?? [] } };
    await save();
  }

  if (state.phase === 'switching') {
    const targets = await aliasTargets(client, alias);
    if (targets.length === 1 && targets[0] === dest) {
      // A killed run made the alias call and was killed before recording it.
      state = { ...state, phase: 'switched', cutover: { ...state.cutover!, blockedAt: null, switchedAt: state.cutover?.switchedAt ?? now() } };
      await save();
      say(`the alias "${alias}" already points at "${dest}" (a killed run switched it): recorded`);
    } else {
      const windows = [...(state.cutover?.windowsMs ?? [])];
      let since = state.checkpoint!;
      let recheck = new Set(state.recheck ?? []);
      for (let attempt = 1; ; attempt++) {
        if (attempt > 5) throw new ReindexError(`5 tries of the switch each found writes to "${src}" that slipped past its write block: the alias stays on "${src}". Run the command again.`);
        state = { ...state, cutover: { ...state.cutover!, blockedAt: state.cutover?.blockedAt ?? now(), windowsMs: windows } };
        await save();
        const t0 = performance.now();
        await setWriteBlock(client, src, true);
        const tBlocked = performance.now();
        // Under the block SRC does not change: a pass, its fix, and one more pass must be clean.
        // The first pass's checkpoint is SRC's at the block: it must not have moved at the end.
        let c = await compareSides(srcSide, destSide, since, recheck, { blocked: true, presenceByCount: true });
        const atBlock = c.checkpoint.from;
        for (let k = 0; k < 3 && !isClean(c.diff); k++) {
          await fixDiff(srcSide, destSide, c.diff);
          say(`switch try ${attempt}: under the write block: ${describeDiff(c.diff, `"${dest}"`)}: fixed`);
          c = await compareSides(srcSide, destSide, since, idsOf(c.diff), { blocked: true, presenceByCount: true });
        }
        const tChecked = performance.now();
        await o.pause?.('switching');
        const after = await seqNos(client, src);
        if (!isClean(c.diff) || after.some((s, k) => s !== atBlock[k])) {
          await setWriteBlock(client, src, false);
          windows.push(Math.round(performance.now() - t0));
          state = { ...state, cutover: { ...state.cutover!, blockedAt: null, windowsMs: windows } };
          await save();
          say(`switch try ${attempt}: a write reached "${src}" under the block (checkpoint moved) or the copy still differs: lifted the block after ${windows[windows.length - 1]} ms; trying again`);
          since = c.checkpoint;
          recheck = idsOf(c.diff);
          continue;
        }
        const actions = [...(targets.includes(src) ? [{ remove: { index: src, alias } }] : []), { add: { index: dest, alias } }];
        await client.admin('POST', '/_aliases', { body: { actions } });
        const tSwitched = performance.now();
        windows.push(Math.round(tSwitched - t0));
        const destAt = await seqNos(client, dest);
        state = { ...state, phase: 'switched', cutover: { blockedAt: null, windowsMs: windows, switchedAt: now(), checkpoint: { from: after, to: destAt } } };
        await save();
        const ms = (a: number, b: number) => Math.round(b - a);
        say(
          `switched "${alias}" from "${src}" to "${dest}" in one _aliases call: writes to "${src}" blocked ${windows[windows.length - 1]} ms before the alias moved (block ${ms(t0, tBlocked)}, exact check ${ms(tBlocked, tChecked)} with presence by ${c.presence}, alias call ${ms(tChecked, tSwitched)}); ` +
            `"${src}" stays write-blocked (writes by its name are refused, not lost) until --finalize deletes it or --rollback points the alias back`,
        );
        break;
      }
    }
    result.windowsMs = state.cutover?.windowsMs ?? [];
  }
  if (state.phase === 'rolled-back') throw new ReindexError(`the reindex into "${dest}" was rolled back: the alias "${alias}" points at "${src}". Delete "${dest}" to start again.`);
  return result;
}

/** createDest creates DEST with SRC's mapping, routing required, geoshard's `_meta` with the state, N shards, and its routing pipeline as default pipeline. */
async function createDest(client: OpenSearchClient, dest: string, file: BoundaryFile, info: SourceInfo, fields: PipelineFields, state: ReindexState): Promise<IndexMeta> {
  const fingerprintLater = { ...indexMeta(file, info.meta?.sample), fields, reindex: state } as IndexMeta;
  const { _meta: _m, _routing: _r, ...mappings } = info.mappings as Record<string, unknown>;
  const body = {
    settings: {
      index: {
        number_of_shards: file.numberOfShards,
        number_of_replicas: info.replicas,
        ...(file.routingNumShards !== undefined ? { number_of_routing_shards: file.routingNumShards } : {}),
        ...(info.analysis ? { analysis: info.analysis } : {}),
      },
    },
    mappings: { ...mappings, _routing: { required: true }, _meta: fingerprintLater },
  };
  await client.admin('PUT', `/${enc(dest)}`, { body });
  const routing = await fingerprintOf(client, dest);
  const meta = { ...fingerprintLater, routing } as IndexMeta;
  await writeMeta(client, dest, meta);
  await installPipeline(client, dest, file, null, undefined, fields);
  return meta;
}

/** checkDestRouting checks, on the real node, that every shard name of the file lands on its shard of DEST. */
async function checkDestRouting(client: OpenSearchClient, dest: string, file: BoundaryFile): Promise<void> {
  const wrong: string[] = [];
  for (const s of file.shards) {
    const got = await searchShardsOf(client, dest, s.name);
    if (got.length !== 1 || got[0] !== s.shard) wrong.push(`${s.name} → shard ${got.join(',')} (the file says ${s.shard})`);
  }
  if (wrong.length > 0) throw new ReindexError(`index "${dest}" routes ${wrong.length} of the file's shard names elsewhere: ${wrong.slice(0, 3).join('; ')}. The file was made for another engine or routing_num_shards; delete "${dest}" and fix the file.`);
}

/** One DEST shard's line of the verify. */
export interface ShardVerify {
  shard: number;
  name: string;
  /** SRC documents whose location this shard owns. */
  expected: number;
  /** DEST documents on the shard. */
  held: number;
  missing: number;
  changed: number;
  extra: number;
  /** Held here, but their location names another shard. */
  misplaced: number;
}

/**
 * verifyIndexes compares every document of SRC with DEST, per DEST shard
 * (VDiff): ids, content hash, and the shard the router names for the
 * document's location. Checkpoints of both are taken before the reads.
 * Prints one line per shard and the first differing ids.
 */
export async function verifyIndexes(client: OpenSearchClient, src: string, dest: string, info: SourceInfo, destShards: number, router: Router, fields: PipelineFields, say: (l: string) => void): Promise<{ diff: RangeDiff; checkpoint: SeqCheckpoint; source: number; dest: number; shards: ShardVerify[] }> {
  const checkpoint = { from: await seqNos(client, src), to: await seqNos(client, dest) };
  await Promise.all([client.request('POST', `/${enc(src)}/_refresh`, { timeoutMs: 120_000 }), client.request('POST', `/${enc(dest)}/_refresh`, { timeoutMs: 120_000 })]);
  // Progress: SRC's documents read, then DEST's compared, against both counts.
  const countOf = async (index: string) => (await client.request<{ count: number }>('POST', `/${enc(index)}/_count`, { body: { query: { match_all: {} } } })).body.count;
  const srcTotal = await countOf(src);
  const destTotal = await countOf(dest);
  const meter = progressMeter('verify: checked', srcTotal + destTotal, say);
  // Both sides stream into a SpillJoin (spill.ts) as id → "<DEST shard>:<content hash>": SRC with the
  // shard its location names, DEST with the shard that holds it; they are joined a partition at a
  // time on disk. The process keeps no per-document state for the whole index (a Map of every id
  // stopped at V8's 16.7 M entries, and cost ~300 bytes a document before that).
  const shards: ShardVerify[] = router.shards.map((s) => ({ shard: s.shard, name: s.name, expected: 0, held: 0, missing: 0, changed: 0, extra: 0, misplaced: 0 }));
  const byShard = new Map(shards.map((s) => [s.shard, s]));
  const join = new SpillJoin(Math.max(srcTotal, destTotal));
  const diff: RangeDiff = { missing: [], changed: [], extra: [] };
  const unlocated: string[] = [];
  let unlocatedCount = 0;
  try {
    await eachShard(info.shards, 3, async (k) => {
      for await (const hits of shardPages(client, src, k, { match_all: {} }, PAGE, true)) {
        for (const h of hits) {
          const s = h._source ?? {};
          const p = pointOf(fieldAt(s, fields.location)) ?? (fields.childLocation ? pointOf(fieldAt(s, fields.childLocation)) : null);
          if (!p && unlocatedCount++ < 3) unlocated.push(h._id);
          const shard = p ? router.readShard(p.lat, p.lng).shard : -1;
          if (shard >= 0) byShard.get(shard)!.expected++;
          join.a(h._id, `${shard}:${digestOf(s).hash}`);
        }
        meter.add(hits.length);
      }
    });
    await eachShard(destShards, 3, async (k) => {
      for await (const hits of shardPages(client, dest, k, { match_all: {} }, PAGE, true)) {
        const line = byShard.get(k)!;
        for (const h of hits) {
          line.held++;
          join.b(h._id, `${k}:${digestOf(h._source ?? {}).hash}`);
        }
        meter.add(hits.length);
      }
    });
    tallyVerify(join, byShard, diff);
  } finally {
    join.close();
  }
  const srcCount = join.counts.a;
  const destCount = join.counts.b;
  meter.line(true);
  const clean = { missing: [...new Set(diff.missing)].sort(), changed: [...new Set(diff.changed)].sort(), extra: [...new Set(diff.extra)].sort() };
  say(`verify: ${fmt(srcCount)} documents on "${src}", ${fmt(destCount)} on "${dest}", compared per document (id, content hash, shard of the location):`);
  for (const s of shards) {
    const bad = s.missing + s.changed + s.extra + s.misplaced;
    say(`  shard ${s.shard} ${s.name}: ${fmt(s.expected)} expected, ${fmt(s.held)} held${bad ? `: ${s.missing} missing, ${s.changed} different, ${s.extra} only on "${dest}", ${s.misplaced} on the wrong shard` : ', equal'}`);
  }
  if (unlocatedCount > 0) say(`verify: ${unlocatedCount} documents of "${src}" have no point at ${fields.location}${fields.childLocation ? ` or ${fields.childLocation}` : ''} (${unlocated.slice(0, 3).join(', ')}): the pipeline refuses them`);
  say(`verify: ${describeDiff(clean, `"${dest}"`)}`);
  return { diff: clean, checkpoint, source: srcCount, dest: destCount, shards };
}

/** The DEST shard of a verify record ("<shard>:<content hash>"; -1: no location). */
const shardOf = (w: string) => Number(w.slice(0, w.indexOf(':')));

/**
 * tallyVerify joins the verify's two sides (SpillJoin: SRC's records
 * "<DEST shard its location names>:<hash>", DEST's "<shard holding it>:<hash>")
 * and adds every difference to `diff` and to its shard's line in `byShard`:
 * missing (SRC only: counted on the shard that should hold it), extra (DEST
 * only), misplaced (held on another shard than its location names, or held
 * twice: every copy is deleted, then copied again) and changed (content).
 * Memory: one partition of each side.
 */
export function tallyVerify(join: SpillJoin, byShard: ReadonlyMap<number, ShardVerify>, diff: RangeDiff): void {
  join.join((id, w, held, dup) => {
    if (held === undefined) {
      diff.missing.push(id);
      const k = shardOf(w!);
      if (k >= 0) byShard.get(k)!.missing++;
      return;
    }
    const line = byShard.get(shardOf(held))!;
    if (w === undefined) diff.extra.push(id), line.extra++;
    else if (dup) diff.changed.push(id), line.misplaced++;
    else if (shardOf(w) !== shardOf(held)) line.misplaced++, diff.changed.push(id);
    else if (w.slice(w.indexOf(':')) !== held.slice(held.indexOf(':'))) line.changed++, diff.changed.push(id);
  });
}

/**
 * copyPoint reads a location as DEST's routing pipeline reads it, degrees: a
 * { lat, lon } object of numbers, a [lon, lat] array or a "lat,lon" string
 * (pointOf). Null for any other form (a GeoJSON Point, numbers as strings, a
 * longitude outside [-180, 180]): the pipeline decides those itself.
 */
function copyPoint(v: unknown): { lat: number; lng: number } | null {
  if (v && typeof v === 'object' && !Array.isArray(v) && (typeof (v as { lat?: unknown }).lat !== 'number' || typeof (v as { lon?: unknown }).lon !== 'number')) return null;
  return pointOf(v);
}

/**
 * routeCopy routes one document of the copy in the client, by the rule DEST's
 * routing pipeline runs (src/opensearch/pipeline.ts ROUTING_SCRIPT), so the
 * copy can skip the pipeline (`pipeline: '_none'`) and DEST holds what the
 * pipeline would have made: the point at `fields.location`, else (a join
 * child) at `fields.childLocation`, the copy of its parent's; the routing is
 * the read owner of its level-10 cell (the core's Router, as the pipeline's
 * table); a document found by `fields.location` gets `cell` (the level-10
 * token, documents.ts cellOf) and `shard` (the routing) when `fields.stamp`.
 * Null when the point is in a form only the pipeline reads, or absent (it
 * refuses it, naming the fields): send that document through the pipeline.
 * `source` is not changed (a stamped copy is a new object).
 */
export function routeCopy(router: Router, fields: PipelineFields, source: Record<string, unknown>): { routing: string; source: Record<string, unknown> } | null {
  let raw = fieldAt(source, fields.location);
  let child = false;
  if (raw == null && fields.childLocation) (raw = fieldAt(source, fields.childLocation)), (child = true);
  if (raw == null) return null;
  const p = copyPoint(raw);
  if (!p) return null;
  const routing = router.readShard(p.lat, p.lng).name;
  return { routing, source: !child && fields.stamp ? { ...source, cell: cellOf(p.lat, p.lng), shard: routing } : source };
}

/**
 * progressMeter counts documents of a long step and prints, at most every 2 s
 * (and when `line(true)`), "<label> done/total documents (%), documents/s, ETA s".
 */
function progressMeter(label: string, total: number, say: (l: string) => void): { add(n: number): void; line(force?: boolean): void; done(): number; seconds(): number } {
  const t0 = performance.now();
  let done = 0;
  let last = 0;
  const line = (force = false) => {
    const t = performance.now();
    if (!force && t - last < 2000) return;
    last = t;
    const rate = done / Math.max(0.001, (t - t0) / 1000);
    const eta = rate > 0 && total > done ? `, ETA ${Math.ceil((total - done) / rate)} s` : '';
    say(`${label} ${fmt(done)}/${fmt(total)} documents (${total ? Math.min(100, Math.round((100 * done) / total)) : 100}%), ${fmt(rate)} documents/s${eta}`);
  };
  return { add: (n) => ((done += n), line()), line, done: () => done, seconds: () => (performance.now() - t0) / 1000 };
}

/** fieldAt reads a dotted path from a source. */
function fieldAt(s: Record<string, unknown>, path: string): unknown {
  let v: unknown = s;
  for (const p of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/**
 * finalizeReindex deletes SRC after a switch and, when clients used SRC's
 * name (no alias before), gives that name to DEST as a second alias in the
 * same `_aliases` call (`remove_index` + `add`: no moment without the name).
 * Then DEST's `_meta` forgets the reindex.
 */
export async function finalizeReindex(client: OpenSearchClient, dest: string, say: (l: string) => void): Promise<void> {
  const found = await readReindex(client, dest);
  if (!found?.state) throw new ReindexError(`index "${dest}" records no reindex to finalize`);
  const { meta, state } = found;
  if (state.phase !== 'switched') throw new ReindexError(`the reindex of "${state.from}" into "${dest}" is at ${state.phase}, not switched: --finalize deletes the source only after the switch${state.phase === 'rolled-back' ? ' (it was rolled back: delete "' + dest + '" instead)' : ' (run the reindex to its end first)'}`);
  // Gone, or already an alias of DEST (a killed finalize made the call and did not record it): nothing to delete.
  const exists = (await client.request('HEAD', `/${enc(state.from)}`, { okStatuses: [404] })).status !== 404 && (await aliasTargets(client, state.from)).length === 0;
  if (exists) {
    const actions = [{ remove_index: { index: state.from } }, ...(state.renameOnFinalize ? [{ add: { index: dest, alias: state.from } }] : [])];
    await client.admin('POST', '/_aliases', { body: { actions } });
    say(`deleted "${state.from}"${state.renameOnFinalize ? ` and made "${state.from}" an alias of "${dest}" in the same _aliases call (clients that wrote it by name work again)` : ''}`);
  }
  const { reindex: _r, ...rest } = meta;
  await writeMeta(client, dest, rest as IndexMeta);
  say(`"${dest}" is settled behind "${state.alias}"`);
}

/**
 * rollbackReindex points the alias back at SRC after a switch: DEST gets the
 * write block, DEST's writes since the switch are copied back to SRC (the
 * same passes, the other way), SRC's block is lifted and one `_aliases` call
 * moves the alias. DEST stays (write-blocked) with phase rolled-back.
 */
export async function rollbackReindex(client: OpenSearchClient, dest: string, say: (l: string) => void): Promise<void> {
  const found = await readReindex(client, dest);
  if (!found?.state) throw new ReindexError(`index "${dest}" records no reindex to roll back`);
  let { meta, state } = found;
  const src = state.from;
  if (state.phase === 'rolled-back') return say(`already rolled back: "${state.alias}" points at "${src}"`);
  const exists = (await client.request('HEAD', `/${enc(src)}`, { okStatuses: [404] })).status !== 404;
  if (!exists) throw new ReindexError(`the source "${src}" no longer exists (finalized): there is nothing to roll back to`);
  const targets = await aliasTargets(client, state.alias);
  if (state.phase !== 'switched' && !targets.includes(dest)) {
    // Not switched: clients never left SRC. Lift a block a killed switch left, and stop.
    await setWriteBlock(client, src, false);
    state = { ...state, phase: 'rolled-back', updatedAt: now() };
    await writeMeta(client, dest, { ...meta, reindex: state });
    return say(`the alias "${state.alias}" never left "${src}": lifted its write block; "${dest}" is kept (delete it, or resume never: it is rolled back)`);
  }
  const info = await sourceInfo(client, src);
  const destShards = await shardCount(client, dest);
  const destSide = indexSide(client, dest, destShards, { join: info.shape.join, pipeline: true });
  const srcSide = indexSide(client, src, info.shards, info.shape);
  const t0 = performance.now();
  await setWriteBlock(client, dest, true);
  await setWriteBlock(client, src, false);
  const cp = state.cutover?.checkpoint;
  const since = cp ? { from: cp.to, to: cp.from } : { from: destShards ? Array(destShards).fill(-1) : [], to: Array(info.shards).fill(-1) };
  let c = await compareSides(destSide, srcSide, since, new Set(), { blocked: true });
  for (let k = 0; k < 3 && !isClean(c.diff); k++) {
    await fixDiff(destSide, srcSide, c.diff);
    say(`rollback: copied back to "${src}": ${describeDiff(c.diff, `"${src}"`)}`);
    c = await compareSides(destSide, srcSide, since, idsOf(c.diff), { blocked: true });
  }
  if (!isClean(c.diff)) throw new ReindexError(`rollback: "${src}" still differs from "${dest}" after 3 fixes: ${describeDiff(c.diff, `"${src}"`)}; the alias stays on "${dest}"`);
  const actions = [{ remove: { index: dest, alias: state.alias } }, { add: { index: src, alias: state.alias } }];
  await client.admin('POST', '/_aliases', { body: { actions } });
  state = { ...state, phase: 'rolled-back', updatedAt: now() };
  await writeMeta(client, dest, { ...meta, reindex: state });
  say(`rolled back: "${state.alias}" points at "${src}" again (${Math.round(performance.now() - t0)} ms with "${dest}" write-blocked); "${dest}" is kept, write-blocked`);
}

export { OpenSearchError, MigrationError };
