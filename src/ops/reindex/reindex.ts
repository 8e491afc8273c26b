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
import { Router } from '../../core/index.ts';
import { MigrationError } from '../../opensearch/meta.ts';
import type { ReindexOptions, ReindexResult, ReindexRun } from './reindexRun.ts';
import { createDest, fieldsOf, sourceInfo } from './createDest.ts';
import { copyByClient } from './copyClient.ts';
import { copyByEngine } from './copyEngine.ts';
import { verifyPhase } from './verify.ts';
import { catchUp } from './catchUp.ts';
import { switchAlias } from './switch.ts';
import { indexSide } from './indexSide.ts';
import { seqNos } from '../compare/shardReader.ts';
import { now, readReindex, ReindexError, type ReindexState, type Shape } from './state.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import type { IndexMeta } from '../../opensearch/meta.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

export * from './state.ts';
export type { ReindexOptions, ReindexResult } from './reindexRun.ts';
export { fieldsOf, typeAt } from './createDest.ts';
export { routeCopy } from './copyClient.ts';
export { verifyIndexes, tallyVerify, type ShardVerify } from './verify.ts';
export { indexSide } from './indexSide.ts';
export { seqNos } from '../compare/shardReader.ts';
export { finalizeReindex, rollbackReindex } from './finalize.ts';
export { setWriteBlock } from '../migrate/cutover.ts';

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
    say(`created "${dest}": ${file.numberOfShards} shards from boundary file ${file.hash.slice(0, 12)} (version ${file.version}), routing pipeline on ${fields.location}${fields.childLocation ? ` / ${fields.childLocation}` : ''}; copy checkpoint of "${src}" taken (${info.shards} shards)`);
  } else {
    meta = found.meta;
    state = found.state;
    if (state.from !== src) throw new ReindexError(`index "${dest}" records a reindex from "${state.from}", not "${src}": run the command with --from ${state.from}`);
    if (meta.hash !== file.hash) throw new ReindexError(`index "${dest}" was created with boundary file ${meta.hash.slice(0, 12)}, not ${file.hash.slice(0, 12)} (${file.version}): resume it with the file it started with, or --rollback / delete "${dest}" and start again`);
    if (state.alias !== alias) throw new ReindexError(`the reindex into "${dest}" switches alias "${state.alias}", not "${alias}": resume it with --alias ${state.alias}`);
    say(`resuming the reindex of "${src}" into "${dest}" at ${state.phase} (started ${state.startedAt})`);
  }
  const geoFields = [fields.location, ...(fields.childLocation ? [fields.childLocation] : [])];
  const run: ReindexRun = {
    client,
    src,
    dest,
    alias,
    file,
    router,
    fields,
    info,
    o,
    say,
    batch,
    concurrency,
    srcSide: indexSide(client, src, info.shards, info.shape, geoFields),
    destSide: indexSide(client, dest, file.numberOfShards, destShape, geoFields),
    result: { copied: 0, docsPerSecond: 0, copySeconds: 0, windowsMs: state.cutover?.windowsMs ?? [], verified: state.verified },
    state,
    async save() {
      if (o.lockLost?.()) throw new ReindexError(`the reindex lock of "${src}" was taken over by another process: stopping before writing`);
      run.state = { ...run.state, updatedAt: now() };
      meta = { ...meta, reindex: run.state };
      await writeMeta(client, dest, meta);
    },
  };
  if (run.state.phase === 'copying') await ((run.state.copyMode ?? o.copy ?? 'client') === 'engine' ? copyByEngine(run) : copyByClient(run));
  if (run.state.phase === 'verifying') await verifyPhase(run);
  if (run.state.phase === 'catching-up') await catchUp(run);
  if (run.state.phase === 'switching') await switchAlias(run);
  if (run.state.phase === 'rolled-back') throw new ReindexError(`the reindex into "${dest}" was rolled back: the alias "${alias}" points at "${src}". Delete "${dest}" to start again.`);
  return run.result;
}


export { OpenSearchError, MigrationError };
