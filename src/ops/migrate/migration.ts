/**
 * A migration on the real index: its state in the index's `_meta`
 * (withState; read with src/opensearch/indexMeta.ts readMigration, written
 * with src/cluster/indexMeta.ts writeMeta) and the executor itself (copy,
 * verify, switch, delete per range), used by `geoshard migrate`. The lock that
 * keeps two executors apart is migrationLock.ts; how searches route during a
 * migration is the package's (src/opensearch/meta.ts RouterCache).
 * The decisions (what comes next, who reads and who is written) are the
 * core's (core/migrationState.ts); this file only does what they say.
 *
 * Each step ends by writing the whole state to `_meta`, so a process killed at
 * any point (kill -9) and started again resumes from the last step written:
 * the copy writes create-only (a document already on the new owner is kept),
 * the delete deletes what is left, publishes are never repeated.
 */
import type { BoundaryFile } from '../../core/index.ts';
import { advance, nextAction, withCopied, withCutover, type DocCounts, type MigrationState, type MoveState } from '../../core/migrationState.ts';
import { type OpenSearchClient } from '../../cluster/client.ts';
import { indexMeta } from '../../opensearch/indexSpec.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import {
  applyDiff,
  applyPending,
  checkRange,
  deleteBroughtGoneFromOld,
  countOfRange,
  deletedOnOldSince,
  idsOf,
  describeDiff,
  diffRange,
  isClean,
  kindNames,
  maxSeqNo,
  pages as rangePages,
  rangeChildren,
  rangeParents,
  setWriteBlock,
  writeBlocked,
  versionsOf,
  type Checkpoint,
  type RangeShape,
} from './cutover.ts';
import { tryInstallPipeline } from '../routing/pipelineInstall.ts';
import { routingPipeline } from '../../opensearch/routingPipeline.ts';

import { fieldsOfMeta, MigrationError } from '../../opensearch/meta.ts';
import { bulkBody, bulkErrors, type BulkResponse } from '../../opensearch/bulk.ts';
import type { IndexMeta } from '../../opensearch/meta.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

/** withState returns `_meta` with the migration state set (or removed when null). */
export function withState(meta: IndexMeta, state: MigrationState | null): IndexMeta {
  const { migration: _m, ...rest } = meta;
  return state ? { ...rest, migration: state } : rest;
}

// ---------------------------------------------------------------------------------------------
// Queries on one owner's copy of a range (cutover.ts), kept importable from here

export { rangeParents, rangeChildren, type RangeShape };

type Hit = { _id: string; _source?: Record<string, unknown>; sort: unknown[] };

/**
 * copyBatch writes one kind's documents to the new owner, create-only (a
 * document already there, from dual writes or an earlier run, is kept);
 * returns how many it created. A stamped shape's parents (the sample's
 * restaurants) get the new owner's name in `shard`. Throws MigrationError on
 * any other failure.
 */
async function copyBatch(client: OpenSearchClient, index: string, shape: RangeShape, to: string, docs: Hit[], parents: boolean): Promise<number> {
  const body = bulkBody(docs.map((d) => ({ op: 'create', index, id: d._id, routing: to, source: shape.stamp && parents ? { ...d._source, shard: to } : d._source })));
  // pipeline=_none: the copy routes each document explicitly (to the new owner) and sets its
  // fields itself; the index's routing pipeline may still route by an older epoch's table.
  const res = await client.request<BulkResponse & { items: Record<string, { _id: string; status: number }>[] }>('POST', '/_bulk', { body, query: { pipeline: '_none' }, timeoutMs: 120_000 });
  const errs = bulkErrors(res.body).filter((e) => e.status !== 409);
  if (errs.length > 0) throw new MigrationError(`copy to "${to}" failed for ${errs.length} documents: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
  return res.body.items.filter((item) => Object.values(item)[0].status === 201).length;
}

/**
 * deleteAll deletes every document a query finds on one routing, `size` per
 * bulk request, and returns how many it deleted (the reindex module's
 * delete-by-query is not in every distribution, so: search, then bulk delete).
 */
async function deleteAll(client: OpenSearchClient, index: string, routing: string, query: Record<string, unknown>, size: number): Promise<number> {
  let deleted = 0;
  for await (const hits of rangePages(client, index, routing, query, size, false)) {
    const body = bulkBody(hits.map((h) => ({ op: 'delete', index, id: h._id, routing })));
    const res = await client.request<BulkResponse & { items: Record<string, { status: number }>[] }>('POST', '/_bulk', { body, timeoutMs: 120_000 });
    const errs = bulkErrors(res.body).filter((e) => e.status !== 404);
    if (errs.length > 0) throw new MigrationError(`delete from "${routing}" failed for ${errs.length} documents: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''}`).join('; ')}`);
    deleted += res.body.items.filter((it) => Object.values(it)[0].status === 200).length;
  }
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// The executor

/** A named point of the executor where a test may stop it (GEOSHARD_MIGRATE_PAUSE). */
export type PausePoint = 'copying' | 'cutover' | 'verified' | 'deleting';
export const PAUSE_POINTS: readonly PausePoint[] = ['copying', 'cutover', 'verified', 'deleting'];

/** Tries of the write-block check per range before the executor gives up (each try that finds a difference fixes it first). */
export const MAX_CUTOVER_TRIES = 20;

/**
 * From this try on, a check under the block that still finds differences
 * (writers wrote the range between the fix and the block: a plain writer's
 * write reaches only the old owner until the switch, so a range written
 * several times a second never has a quiet moment) switches anyway when the
 * differences are at most SWITCH_PENDING_MAX documents: their versions on the
 * new owner are read under the block and recorded with the switch
 * (CutoverState.pending), and right after the block is lifted each is
 * brought over from the old owner only if the new owner's copy is still that
 * version (cutover.ts applyPending). Searches in the milliseconds between the
 * switch and that write may miss those few documents' last writes; the
 * progress line says how many and for how long.
 */
export const SWITCH_PENDING_AFTER = 3;
export const SWITCH_PENDING_MAX = 1000;

/** Options of runMigration. */
export interface RunMigrationOptions {
  client: OpenSearchClient;
  /** The index's settled file (its `_meta` hash) and the candidate. */
  base: BoundaryFile;
  candidate: BoundaryFile;
  /** The state to resume (null: a fresh start from `start`). */
  state: MigrationState;
  meta: IndexMeta;
  /**
   * How long to wait after publishing dual-write and switched before the copy
   * and the delete (ms): searchers re-read `_meta` before every search (the
   * API's drift check), so after this long every search in flight started on
   * the new epoch. At least the API's search deadline plus its drift TTL.
   */
  graceMs: number;
  /** Documents per copy request (parents; children go ten times as many per request). */
  batch: number;
  /** One line of progress (stderr). */
  progress: (line: string) => void;
  /** Called at each named point; a test hook may never return (the process is then killed). */
  pause?: (point: PausePoint, move: number) => Promise<void>;
  /** True when the lock was lost: the executor stops before its next write. */
  lockLost?: () => boolean;
  /**
   * Called after every write of `_meta` (each publish, and the candidate at
   * the end), before the executor goes on: `geoshard migrate` updates the
   * index's routing pipeline there, so writes sent without routing follow
   * the epoch the searchers read.
   */
  onPublish?: (meta: IndexMeta) => Promise<void>;
  now?: () => string;
}

const describeMove = (m: MoveState, k: number, n: number) => `range ${k + 1}/${n} [${m.start}, ${m.end ?? 'end'}) ${m.from} → ${m.to}`;

function bar(done: number, total: number): string {
  const w = 20;
  const f = total > 0 ? Math.min(1, done / total) : 1;
  const k = Math.round(f * w);
  return `[${'#'.repeat(k)}${'.'.repeat(w - k)}] ${String(Math.round(f * 100)).padStart(3)}% ${done}/${total}`;
}

/**
 * runMigration takes the state to its end: every range through its steps
 * (core nextAction), `_meta` written after every step, and finally the
 * candidate written as the index's settled file. Returns the final `_meta`.
 *
 * The copy step is cutover.ts's: copy, a per-document diff and fix, then the
 * exact check under a brief write block, with the switch published before
 * the block is lifted. A run that finds the block left by a killed run lifts
 * it first (after publishing the switch if the killed run had verified).
 */
export async function runMigration(o: RunMigrationOptions): Promise<IndexMeta> {
  const { client, base } = o;
  const index = base.index;
  const now = o.now ?? (() => new Date().toISOString());
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const shardOf = new Map(base.shards.map((x) => [x.name, x.shard]));
  let meta = o.meta;
  let state = o.state;
  const n = state.moves.length;
  const shape = fieldsOfMeta(meta);
  const kinds = kindNames(shape);
  const countsText = (c: DocCounts) => `${c.restaurants} ${kinds.parents}${shape.childLocation ? ` and ${c.dishes} ${kinds.children}` : ''}`;
  // The routing pipeline follows the state: writes sent without routing go where searchers read, and a
  // given routing that is no longer an owner is refused. Installed when its routing table changes (the
  // first time in this process whatever it is: a killed run may have published without it).
  let pipelineTable: string | null = null;
  let pipelineNote = false;
  const followPipeline = async (file: BoundaryFile, s: MigrationState | null) => {
    const table = routingPipeline(file, s, index, meta.fields).processors[0].script.params.identity.table;
    if (table === pipelineTable) return;
    const r = await tryInstallPipeline(client, index, file, s, undefined, meta.fields);
    if ('error' in r) {
      if (!pipelineNote) o.progress(`no routing pipeline on "${index}" (writes sent without routing are refused by the index): ${r.error}`);
      pipelineNote = true;
    } else pipelineTable = table;
  };
  const save = async (s: MigrationState | null) => {
    if (o.lockLost?.()) throw new MigrationError(`the migration lock of "${index}" was taken over by another process: stopping before writing`);
    meta = withState(meta, s);
    await writeMeta(client, index, meta);
    await followPipeline(base, s);
    await o.onPublish?.(meta);
  };
  await followPipeline(base, state);
  const publish = async (k: number, to: MoveStep, patch: Parameters<typeof advance>[4] = {}) => {
    state = advance(state, k, to, now(), patch);
    // Dual writes on add an owner: the pipeline accepts it before any writer reads the new epoch (a
    // writer still on the older one writes the old owner only, which both accept). Every other change
    // takes owners away or moves reads: `_meta` first, so a writer the pipeline refuses finds the new
    // epoch when it reads `_meta` again.
    if (to === 'dual-write') await followPipeline(base, state);
    await save(state);
    o.progress(`${describeMove(state.moves[k], k, n)}: ${to} (epoch ${state.epoch})`);
  };
  const graceWait = async (k: number, why: string) => {
    if (o.graceMs <= 0) return;
    o.progress(`${describeMove(state.moves[k], k, n)}: waiting ${o.graceMs} ms for every ${why} to run epoch ${state.epoch}`);
    await wait(o.graceMs);
  };
  type MoveStep = MoveState['step'];

  // A write block left by a killed run: lift it, switching first if that run had verified (under the block
  // both owners were equal; lifting before the switch would let writes reach only the old owner again).
  {
    const k = state.moves.findIndex((m) => m.step !== 'done');
    const cur = k >= 0 ? state.moves[k] : undefined;
    const blocked = await writeBlocked(client, index);
    if (cur?.cutover?.blockedAt) {
      if (cur.step === 'verified') await publish(k, 'switched');
      if (blocked) await setWriteBlock(client, index, false);
      state = withCutover(state, k, { blockedAt: null, windowsMs: cur.cutover.windowsMs, ...(cur.cutover.pending ? { pending: cur.cutover.pending } : {}) }, now());
      await save(state);
      o.progress(`${describeMove(state.moves[k], k, n)}: lifted the write block a killed run set at ${cur.cutover.blockedAt}`);
      if (state.moves[k].step === 'switched' && !state.moves[k].cutover?.pending?.length) await graceWait(k, 'searcher');
    } else if (blocked) {
      throw new MigrationError(
        `index "${index}" has a write block (index.blocks.write) that geoshard migrate did not set: writes would fail and so would the copy. ` +
          `Lift it (PUT /${index}/_settings {"index.blocks.write": null}) and run the command again.`,
      );
    }
  }

  // Documents a killed run switched with and had not brought onto the new owner yet.
  const bringPending = async (k: number) => {
    const m = state.moves[k];
    const pending = m.cutover?.pending ?? [];
    if (pending.length === 0) return;
    const t = performance.now();
    const r = await applyPending(client, index, shape, m.from, m.to, pending);
    const { pending: _p, ...cut } = m.cutover!;
    // What was written is above the switch's checkpoint: the delete step reconciles it by these versions.
    state = withCutover(state, k, { ...cut, brought: [...(cut.brought ?? []), ...r.versions] }, now());
    await save(state);
    o.progress(`${describeMove(m, k, n)}: brought ${pending.length} documents the switch left different onto "${m.to}" in ${Math.round(performance.now() - t)} ms: ${r.written} written, ${r.deleted} deleted, ${r.kept} kept as a writer left them after the switch`);
  };
  {
    const k = state.moves.findIndex((m) => m.step !== 'done');
    if (k >= 0 && (state.moves[k].step === 'switched' || state.moves[k].step === 'deleting') && state.moves[k].cutover?.pending?.length) {
      await bringPending(k);
      await graceWait(k, 'searcher');
    }
  }

  for (;;) {
    const a = nextAction(state);
    if (a.kind === 'finish') break;
    const m = state.moves[a.move];
    if (a.kind === 'publish') {
      await publish(a.move, a.to);
      if (a.wait) await graceWait(a.move, a.to === 'switched' ? 'searcher' : 'searcher and writer');
      if (a.to === 'verified') await o.pause?.('verified', a.move);
    } else if (a.kind === 'copy') {
      const label = describeMove(m, a.move, n);
      const shards = { from: shardOf.get(m.from)!, to: shardOf.get(m.to)! };
      await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 });
      const total = await countOfRange(client, index, shape, m, m.from);
      const totalDocs = total.restaurants + total.dishes;
      let seen = 0;
      let copied = { ...m.copied };
      let batchNo = 0;
      o.progress(`${label}: copy ${bar(0, totalDocs)} documents`);
      // Parents first, then children (placement follows the routing, not the order; this order keeps a
      // child from briefly lacking its parent on the new owner).
      const children = rangeChildren(shape, m, m.from);
      for (const [query, parents, size] of [[rangeParents(shape, m, m.from), true, o.batch], ...(children ? [[children, false, o.batch * 10] as const] : [])] as const) {
        for await (const docs of rangePages(client, index, m.from, query, size)) {
          const created = await copyBatch(client, index, shape, m.to, docs as Hit[], parents);
          copied = parents ? { ...copied, restaurants: copied.restaurants + created } : { ...copied, dishes: copied.dishes + created };
          seen += docs.length;
          state = withCopied(state, a.move, copied, now());
          await save(state);
          o.progress(`${label}: copy ${bar(seen, totalDocs)} documents (${copied.restaurants + copied.dishes} written by this migration)`);
          if (batchNo++ === 0) await o.pause?.('copying', a.move);
        }
      }
      // The count was taken before the copy: writers may have added or deleted documents since.
      o.progress(`${label}: copy done: ${seen} documents read (${totalDocs} counted before the copy), ${copied.restaurants + copied.dishes} written by this migration`);
      // Per document: what writers changed during the copy, and what the copy wrote after a delete.
      // Every write after this checkpoint has a higher sequence number: the cutover re-checks those.
      let since: Checkpoint = { from: await maxSeqNo(client, index, shards.from), to: await maxSeqNo(client, index, shards.to) };
      await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 });
      const { diff, sizes } = await diffRange(client, index, shape, m);
      o.progress(`${label}: diff of ${sizes.from} documents on "${m.from}" and ${sizes.to} on "${m.to}" (id and content): ${describeDiff(diff)}`);
      let recheck = idsOf(diff);
      if (recheck.size > 0) {
        const f = await applyDiff(client, index, shape, m.from, m.to, diff);
        o.progress(`${label}: fixed: ${f.copied} copied again, ${f.deleted} deleted from "${m.to}"`);
      }
      // Catch-up passes while writers run, until one finds (almost) nothing: what the write block's check
      // must still find is then only what is written during the last pass.
      for (let pass = 1; pass <= 5; pass++) {
        const c = await checkRange(client, index, shape, { ...m }, shards, since, recheck, false);
        since = c.checkpoint;
        recheck = idsOf(c.diff);
        if (recheck.size > 0) await applyDiff(client, index, shape, m.from, m.to, c.diff);
        o.progress(`${label}: catch-up pass ${pass}: ${c.compared} documents written since the last pass compared: ${describeDiff(c.diff)}`);
        if (recheck.size <= 10) break;
      }
      const windows = [...(m.cutover?.windowsMs ?? [])];
      for (let attempt = 1; ; attempt++) {
        if (attempt > MAX_CUTOVER_TRIES) {
          throw new MigrationError(`${label}: ${MAX_CUTOVER_TRIES} tries of the cutover each found a write that raced the fix; reads stay on the old owner. Run the command again when writes are calmer.`);
        }
        state = withCutover(state, a.move, { blockedAt: now(), windowsMs: windows }, now());
        await save(state);
        const t0 = performance.now();
        await setWriteBlock(client, index, true);
        let lifted = false;
        const lift = async () => {
          await setWriteBlock(client, index, false);
          lifted = true;
          windows.push(Math.round(performance.now() - t0));
        };
        const tBlocked = performance.now();
        try {
          await o.pause?.('cutover', a.move);
          const c = await checkRange(client, index, shape, { ...m }, shards, since, recheck, true);
          const tChecked = performance.now();
          if (isClean(c.diff)) {
            await publish(a.move, 'verified', { verified: c.counts });
            o.progress(`${label}: verified under the write block: ${countsText(c.counts.from)} on both owners, ${c.compared} changed since the diff compared by content`);
            await o.pause?.('verified', a.move);
            await publish(a.move, 'switched');
            const tSwitched = performance.now();
            await lift();
            const ms = (a: number, b: number) => Math.round(b - a);
            state = withCutover(state, a.move, { blockedAt: null, windowsMs: windows, checkpoint: c.checkpoint }, now());
            await save(state);
            o.progress(
              `${label}: cutover: writes blocked ${windows[windows.length - 1]} ms (try ${attempt}: block ${ms(t0, tBlocked)}, exact check ${ms(tBlocked, tChecked)}, publish verified + switched ${ms(tChecked, tSwitched)}, lift ${ms(tSwitched, performance.now())})`,
            );
            await graceWait(a.move, 'searcher');
            break;
          }
          const different = idsOf(c.diff);
          if (attempt >= SWITCH_PENDING_AFTER && different.size <= SWITCH_PENDING_MAX) {
            // A hot range: switch now, and bring the few documents written since the last fix over right after.
            const versions = await versionsOf(client, index, m.to, [...different]);
            const pending = [...different].sort().map((id) => ({ id, seqNo: versions.get(id)?.seqNo ?? -1, term: versions.get(id)?.term ?? 0 }));
            const blockedAt = state.moves[a.move].cutover?.blockedAt ?? now();
            await publish(a.move, 'verified', { verified: c.counts, cutover: { blockedAt, windowsMs: windows, pending } });
            await o.pause?.('verified', a.move);
            await publish(a.move, 'switched');
            const tSwitched = performance.now();
            await lift();
            state = withCutover(state, a.move, { blockedAt: null, windowsMs: windows, checkpoint: c.checkpoint, pending }, now());
            await save(state);
            o.progress(
              `${label}: cutover: writes blocked ${windows[windows.length - 1]} ms (try ${attempt}); ${countsText(c.counts.from)} on the old owner; switched with ${pending.length} documents written since the last fix still to bring over (${describeDiff(c.diff)})`,
            );
            await bringPending(a.move);
            o.progress(`${label}: the switch's last ${pending.length} documents were on "${m.to}" ${Math.round(performance.now() - tSwitched)} ms after it`);
            await graceWait(a.move, 'searcher');
            break;
          }
          await lift();
          state = withCutover(state, a.move, { blockedAt: null, windowsMs: windows }, now());
          await save(state);
          o.progress(`${label}: cutover try ${attempt} (writes blocked ${windows[windows.length - 1]} ms) found writes that raced the fix: ${describeDiff(c.diff)}; fixing and trying again`);
          await applyDiff(client, index, shape, m.from, m.to, c.diff);
          since = c.checkpoint;
          recheck = idsOf(c.diff);
        } finally {
          if (!lifted) await setWriteBlock(client, index, false).catch(() => {});
        }
      }
    } else {
      const label = describeMove(m, a.move, n);
      // Writers that read the state before dual writes went off may still write the old owner: let them finish.
      await graceWait(a.move, 'writer');
      // A delete that reached only the old owner after the switch (a writer found the document's routing
      // before it and was held by the write block): the new owner's copy, unwritten since the switch,
      // is deleted too. Copies written since (the range's new writes) are left alone.
      // Done once, before the first deletion from the old owner, and recorded: a resumed delete step
      // must not take its own deletions for a writer's.
      const cut = m.cutover;
      if (cut?.checkpoint && !cut.reconciled) {
        const gone = await deletedOnOldSince(client, index, shape, m, cut.checkpoint.to);
        if (gone.length > 0) {
          await applyDiff(client, index, shape, m.from, m.to, { missing: [], changed: [], extra: gone });
          o.progress(`${label}: deleted from "${m.to}" ${gone.length} documents deleted on "${m.from}" after the switch (${gone.slice(0, 3).join(', ')}${gone.length > 3 ? ', …' : ''})`);
        }
        // And the documents the switch brought over afterwards (written above that checkpoint).
        if (cut.brought?.length) {
          const lost = await deleteBroughtGoneFromOld(client, index, m.from, m.to, cut.brought);
          if (lost.length > 0) o.progress(`${label}: deleted from "${m.to}" ${lost.length} documents the switch brought over that were deleted on "${m.from}" after it (${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ', …' : ''})`);
        }
        state = withCutover(state, a.move, { ...cut, reconciled: true }, now());
        await save(state);
      }
      // Children first: the sample's dishes are found through their parent, which must still be there. A
      // writer that read the state before dual writes went off may still add a copy here: delete again what is left.
      let left: DocCounts = { restaurants: 0, dishes: 0 };
      for (let pass = 1; pass <= 3; pass++) {
        const children = rangeChildren(shape, m, m.from);
        if (children) {
          const deleted = await deleteAll(client, index, m.from, children, o.batch * 10);
          o.progress(`${label}: deleted ${deleted} ${kinds.children} from ${m.from}`);
        }
        if (pass === 1) await o.pause?.('deleting', a.move);
        const parents = await deleteAll(client, index, m.from, rangeParents(shape, m, m.from), o.batch);
        o.progress(`${label}: deleted ${parents} ${kinds.parents} from ${m.from}`);
        await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 });
        left = await countOfRange(client, index, shape, m, m.from);
        if (left.restaurants + left.dishes === 0) break;
        o.progress(`${label}: ${countsText(left)} were written to the old owner "${m.from}" during the delete (a writer on an older epoch): deleting again after ${o.graceMs} ms`);
        await wait(o.graceMs);
      }
      if (left.restaurants + left.dishes > 0) throw new MigrationError(`${label}: ${countsText(left)} are still on the old owner "${m.from}" after the delete: a writer keeps writing it with a routing of an older epoch (its _meta is older than --grace-ms). Run the command again.`);
      await publish(a.move, 'done');
    }
  }
  // The candidate becomes the settled file: its routing equals the last state's, without exclusions.
  const { migration: _m, file: _f, ...rest } = meta;
  meta = { ...rest, ...indexMeta(o.candidate, meta.sample, meta.routing) };
  if (o.lockLost?.()) throw new MigrationError(`the migration lock of "${index}" was taken over by another process: stopping before writing`);
  await writeMeta(client, index, meta);
  pipelineTable = null;
  await followPipeline(o.candidate, null);
  await o.onPublish?.(meta);
  o.progress(`published the candidate ${o.candidate.hash.slice(0, 12)} (version ${o.candidate.version}) as the index's boundary file`);
  return meta;
}

export { OpenSearchError };
