/**
 * Moving one range's documents to its new owner while writers keep writing,
 * and the switch that loses none of their writes: the copy step of
 * `geoshard migrate` (runMigration in migration.ts).
 *
 * Writers reach a moving range two ways. The package's writer (GeoIndexer)
 * and the API write to every owner the migration state names (dual writes);
 * a plain writer sending no routing goes through the index's routing
 * pipeline, which can set only one routing and so writes the range's read
 * owner (the old one until the switch). Deletes never run a pipeline. So the
 * new owner's copy can lag, hold documents a plain writer deleted on the old
 * owner, or hold a copy the copy step wrote just after a writer deleted the
 * original. Dual writes alone cannot close that; this file does it the way
 * Ghostferry and Vitess VDiff do, per document:
 *
 *   1. copy      every document of the range (parents, then children), old →
 *                new owner, create-only (a dual-written document on the new owner
 *                is newer);
 *   2. diff      both owners' copies of the range, document by document: id,
 *                kind and a content hash (the sample's restaurants without their
 *                routing-dependent `shard` field); fix every difference (re-copy what is missing or
 *                different, delete what the old owner no longer has). Each owner
 *                shard's `max_seq_no` is taken before the reads: every later write
 *                has a higher `_seq_no`;
 *   3. cutover   a brief index write block (`index.blocks.write`; writers get a
 *                403 cluster_block_exception and retry). Under it nothing writes,
 *                so one read is exact: the full id lists of the range on both
 *                owners (deletes leave nothing to find by sequence number) and
 *                the content of every document changed since the checkpoint (by
 *                `_seq_no`) or fixed by the last pass. Equal: reads and writes
 *                switch to the new owner (publish verified, then switched) and the
 *                block is lifted. Not equal (a write raced the fix): the block is
 *                lifted, the differences fixed, and the check runs again from the
 *                checkpoint taken under the block.
 *
 * Which documents are a range's (RangeShape): the sample's stamped `cell`
 * keyword, or for any other shape the cell the cluster computes from the
 * located field (opensearch/rangeFilter.ts, the routing pipeline's own S2), read through a
 * point in time per owner shard, so no field of the team's documents is
 * assumed beyond the located ones its config names.
 *
 * The block covers only reads and two `_meta` writes (mapping updates are not
 * document writes, so they pass the block); its length is measured per try.
 */
import type { MoveState, PendingFix } from '../../core/migrationState.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { SpillJoin } from '../compare/spill.ts';
import { cellRangeFilter } from '../../opensearch/rangeFilter.ts';
import type { PipelineFields } from '../../opensearch/routingPipeline.ts';

/** A range of a move: [start, end) level-10 tokens (end null: the end of the curve). */
export type RangeOf = Pick<MoveState, 'start' | 'end'>;

/**
 * The shape of the index a range is moved in: the fields its routing pipeline
 * reads (`_meta.fields`, written by `geoshard reindex`; the restaurant
 * sample's when absent). A document is located by `location`, or, when it has
 * none, by `childLocation` (a join child's copy of its parent's point), as
 * the pipeline routes it. The two kinds a migration counts are "parents"
 * (documents located by `location`: the sample's restaurants, or every
 * document of a flat index) and "children" (located by `childLocation`: the
 * sample's dishes). `stamp`: the documents carry the sample's `cell` and
 * `shard` fields, so a range is a keyword range on `cell`; otherwise the
 * cluster computes each document's cell with a script
 * (opensearch/rangeFilter.ts RANGE_SCRIPT).
 */
export type RangeShape = PipelineFields;


/** kindNames returns what a shape's two kinds are called in progress lines and errors. */
export function kindNames(shape: RangeShape): { parents: string; children: string } {
  return shape.stamp ? { parents: 'restaurants', children: 'dishes' } : shape.childLocation ? { parents: 'parents', children: 'children' } : { parents: 'documents', children: 'children' };
}

const cellRange = (m: RangeOf) => cellRangeFilter({ location: '', childLocation: null, stamp: true }, m);
const inRange = (shape: RangeShape, m: RangeOf) => cellRangeFilter({ ...shape, stamp: false }, m);

/** The parents of a range routed with `routing` (the copy that owner holds): the sample's restaurants, or the documents located by `location`. */
export function rangeParents(shape: RangeShape, m: RangeOf, routing: string): Record<string, unknown> {
  if (shape.stamp) return { bool: { filter: [{ term: { [JOIN_FIELD]: PARENT } }, { term: { _routing: routing } }, cellRange(m)] } };
  return { bool: { filter: [{ term: { _routing: routing } }, { exists: { field: shape.location } }, inRange(shape, m)] } };
}

/** The children of a range routed with `routing`: the sample's dishes (through their parent, which holds the cell), or the documents located by `childLocation`; null when the shape has none. */
export function rangeChildren(shape: RangeShape, m: RangeOf, routing: string): Record<string, unknown> | null {
  if (shape.stamp) {
    // Through the parent (an index seeded before dishes carried their restaurant's point), or by
    // the dish's own copy of it: a dish whose restaurant was deleted meanwhile on this owner (a
    // copy that raced a writer's delete) has no parent to be found through, and must still be
    // seen, so that the diff deletes it.
    const byOwnPoint = cellRangeFilter({ location: shape.childLocation ?? '', childLocation: null, stamp: false }, m);
    return {
      bool: {
        filter: [{ term: { [JOIN_FIELD]: CHILD } }, { term: { _routing: routing } }],
        should: [{ has_parent: { parent_type: PARENT, query: cellRange(m) } }, ...(shape.childLocation ? [byOwnPoint] : [])],
        minimum_should_match: 1,
      },
    };
  }
  if (!shape.childLocation) return null;
  return { bool: { filter: [{ term: { _routing: routing } }, inRange(shape, m)], must_not: [{ exists: { field: shape.location } }] } };
}

/** Both kinds' queries of a range on one owner, parents first. */
const rangeQueries = (shape: RangeShape, m: RangeOf, routing: string) => [rangeParents(shape, m, routing), rangeChildren(shape, m, routing)].filter((q): q is Record<string, unknown> => q !== null);

// The per-document comparison (digests, diffs, fixes, the exact check) is shared with `geoshard
// reindex`: docDiff.ts. A range on one owner is a DocSide (rangeSide below).
export { canonicalJson, kindOf, digestOf, diffDigests, isClean, idsOf, type DocDigest, type RangeDigest, type RangeDiff, type FixCounts } from '../compare/docDiff.ts';
import { describeDiff as describeDocDiff, compareSides, diffOfJoin, spillHash, fixDiff, kindOf, type DocSide, type FixCounts, type RangeDiff } from '../compare/docDiff.ts';
import { bulkBody, bulkErrors, type BulkAction, type BulkResponse } from '../../opensearch/bulk.ts';
import { CHILD, JOIN_FIELD, PARENT } from '../../opensearch/sampleIndex.ts';

interface Hit {
  _id: string;
  _source?: Record<string, unknown>;
  sort: unknown[];
}

/**
 * pages reads every document a query finds on one routing (one owner's
 * shard), `size` at a time, through a point in time (PIT, sorted by `_doc`):
 * a snapshot of the shard, so a page is never skipped or repeated while
 * writers run, and no field of the documents is needed to sort by.
 */
export async function* pages(client: OpenSearchClient, index: string, routing: string, query: Record<string, unknown>, size: number, source: boolean | string[] = true): AsyncGenerator<Hit[]> {
  const keepAlive = '5m';
  const created = await client.request<{ pit_id: string }>('POST', `/${encodeURIComponent(index)}/_search/point_in_time`, { query: { keep_alive: keepAlive, routing }, timeoutMs: 60_000 });
  let pit = created.body.pit_id;
  try {
    let after: unknown[] | undefined;
    for (;;) {
      // (The PIT was created on the routing's shard; a search with a PIT names neither index nor routing.)
      const { body } = await client.request<{ pit_id?: string; hits: { hits: Hit[] } }>('POST', '/_search', {
        body: { size, query, _source: source, pit: { id: pit, keep_alive: keepAlive }, sort: [{ _doc: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
        timeoutMs: 60_000,
      });
      if (body.pit_id) pit = body.pit_id;
      const hits = body.hits.hits;
      if (hits.length === 0) return;
      yield hits;
      if (hits.length < size) return;
      after = hits[hits.length - 1].sort;
    }
  } finally {
    await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit] }, okStatuses: [404] }).catch(() => undefined);
  }
}

const PAGE = 5000;

/** and adds filters to a bool filter query. */
const and = (q: Record<string, unknown>, ...more: Record<string, unknown>[]) => ({ bool: { filter: [q, ...more] } });

/**
 * diffRange compares both owners' copies of a range, document by document
 * (id and content hash, digestOf), in bounded memory: each owner's documents
 * stream into a SpillJoin (spill.ts) as id and hash, joined a partition at a
 * time. Returns the differences (sorted) and each owner's number of documents.
 */
export async function diffRange(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf & { from: string; to: string }): Promise<{ diff: RangeDiff; sizes: { from: number; to: number } }> {
  const [nFrom, nTo] = await Promise.all([countOfRange(client, index, shape, m, m.from), countOfRange(client, index, shape, m, m.to)]);
  const join = new SpillJoin(Math.max(nFrom.restaurants + nFrom.dishes, nTo.restaurants + nTo.dishes));
  try {
    const read = async (routing: string, add: (id: string, hash: string) => void) => {
      for (const q of rangeQueries(shape, m, routing)) {
        for await (const hits of pages(client, index, routing, q, PAGE)) for (const h of hits) add(h._id, spillHash(h._source!));
      }
    };
    await Promise.all([read(m.from, (id, v) => join.a(id, v)), read(m.to, (id, v) => join.b(id, v))]);
    const diff = diffOfJoin(join);
    return { diff, sizes: { from: join.counts.a, to: join.counts.b } };
  } finally {
    join.close();
  }
}

/** eachIdOfRange reads one owner's ids of a range without sources (the presence check), passing each page to `f`, and counts them by kind (parents in `restaurants`, children in `dishes`: DocCounts). */
export async function eachIdOfRange(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf, routing: string, f: (ids: readonly string[]) => void): Promise<{ restaurants: number; dishes: number }> {
  const count = async (q: Record<string, unknown>) => {
    let n = 0;
    for await (const hits of pages(client, index, routing, q, PAGE, false)) f(hits.map((h) => h._id)), (n += hits.length);
    return n;
  };
  const restaurants = await count(rangeParents(shape, m, routing));
  const children = rangeChildren(shape, m, routing);
  const dishes = children ? await count(children) : 0;
  return { restaurants, dishes };
}

/** countOfRange counts one owner's documents of a range by kind (parents in `restaurants`, children in `dishes`: DocCounts): a `_count` request per kind. */
export async function countOfRange(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf, routing: string): Promise<{ restaurants: number; dishes: number }> {
  const path = `/${encodeURIComponent(index)}/_count`;
  const count = async (query: Record<string, unknown> | null) => (query ? (await client.request<{ count: number }>('POST', path, { query: { routing }, body: { query }, timeoutMs: 120_000 })).body.count : 0);
  const [restaurants, dishes] = await Promise.all([count(rangeParents(shape, m, routing)), count(rangeChildren(shape, m, routing))]);
  return { restaurants, dishes };
}

/** changedSince lists one owner's ids of a range written after sequence number `seqNo` (exclusive). */
export async function changedSince(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf, routing: string, seqNo: number): Promise<Set<string>> {
  const out = new Set<string>();
  const since = { range: { _seq_no: { gt: seqNo } } };
  for (const q of rangeQueries(shape, m, routing)) {
    for await (const hits of pages(client, index, routing, and(q, since), PAGE, false)) for (const h of hits) out.add(h._id);
  }
  return out;
}

/** sourcesOf fetches documents by id from one owner (`_mget` with its routing); a missing id is absent from the map. */
export async function sourcesOf(client: OpenSearchClient, index: string, routing: string, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  // (an empty `_mget` is a 400, so no ids, no request)
  for (let i = 0; i < ids.length; i += PAGE) {
    const docs = ids.slice(i, i + PAGE).map((_id) => ({ _id, routing }));
    const { body } = await client.request<{ docs: { _id: string; found: boolean; _source?: Record<string, unknown> }[] }>('POST', `/${encodeURIComponent(index)}/_mget`, { body: { docs }, timeoutMs: 60_000 });
    for (const d of body.docs) if (d.found && d._source) out.set(d._id, d._source);
  }
  return out;
}

/** maxSeqNo returns the primary's `max_seq_no` of shard `shard` (-1 when it holds no operation). */
export async function maxSeqNo(client: OpenSearchClient, index: string, shard: number): Promise<number> {
  type Stats = { indices: Record<string, { shards: Record<string, { routing: { primary: boolean }; seq_no: { max_seq_no: number } }[]> }> };
  const { body } = await client.request<Stats>('GET', `/${encodeURIComponent(index)}/_stats/docs`, { query: { level: 'shards', filter_path: 'indices.*.shards.*.seq_no,indices.*.shards.*.routing.primary' } });
  const copies = Object.values(body.indices)[0]?.shards[String(shard)] ?? [];
  const primary = copies.find((c) => c.routing.primary);
  if (!primary) throw new Error(`shard ${shard} of "${index}" has no primary in _stats: cannot take a checkpoint`);
  return primary.seq_no.max_seq_no;
}

/** The sequence-number checkpoint of both owners' shards. */
export interface Checkpoint {
  from: number;
  to: number;
}

/**
 * applyDiff makes the new owner's copy equal the old owner's for the ids a
 * diff names: documents missing or changed are written again from the old
 * owner's current source (index, not create: they replace), extras deleted.
 * Writes bypass the routing pipeline (`pipeline=_none`): they are copies,
 * routed by the new owner's name, with the restaurant's `shard` set to it. An
 * id that vanished from the old owner since the diff is deleted from the new
 * one. Throws an Error listing failed items.
 */
export async function applyDiff(client: OpenSearchClient, index: string, shape: RangeShape, from: string, to: string, d: RangeDiff): Promise<FixCounts> {
  // (Only sources are read from the old owner and only writes go to the new one: the range does not matter here.)
  const any = { start: '', end: null };
  return fixDiff(rangeSide(client, index, shape, any, from, -1), rangeSide(client, index, shape, any, to, -1), d);
}

/**
 * rangeSide is one owner's copy of a range as a DocSide: its shard `shard`
 * (checkpoints), its documents routed with `routing`. Writes bypass the
 * routing pipeline (`pipeline=_none`): they are copies, routed by the owner's
 * name, with the restaurant's `shard` set to it (a stamped shape's).
 */
export function rangeSide(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf, routing: string, shard: number): DocSide<number> {
  return {
    label: `owner "${routing}"`,
    refresh: async () => void (await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 })),
    checkpoint: () => maxSeqNo(client, index, shard),
    eachId: (f) => eachIdOfRange(client, index, shape, m, routing, f),
    count: async () => {
      const c = await countOfRange(client, index, shape, m, routing);
      return c.restaurants + c.dishes;
    },
    changedSince: (seqNo) => changedSince(client, index, shape, m, routing, seqNo),
    sources: (ids) => sourcesOf(client, index, routing, ids),
    async write(docs, dels) {
      const body = bulkBody([
        ...docs.map(([id, s]): BulkAction => ({ op: 'index', index, id, routing, source: shape.stamp && kindOf(s) === 'restaurant' ? { ...s, shard: routing } : s })),
        ...dels.map((id): BulkAction => ({ op: 'delete', index, id, routing })),
      ]);
      const res = await client.request<BulkResponse>('POST', '/_bulk', { query: { pipeline: '_none' }, body, timeoutMs: 120_000 });
      const errs = bulkErrors(res.body).filter((e) => e.status !== 404);
      if (errs.length > 0) throw new Error(`fixing the new owner "${routing}" failed for ${errs.length} documents: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
    },
  };
}

/** setWriteBlock sets or lifts the index's write block (`index.blocks.write`): a settings change, sent with the admin deadlines (OpenSearchClient.admin). */
export async function setWriteBlock(client: OpenSearchClient, index: string, on: boolean): Promise<void> {
  await client.admin('PUT', `/${encodeURIComponent(index)}/_settings`, { body: { index: { 'blocks.write': on ? true : null } } });
}

/** writeBlocked says whether the index has a write block. */
export async function writeBlocked(client: OpenSearchClient, index: string): Promise<boolean> {
  type Settings = Record<string, { settings: { index?: { blocks?: { write?: string } } } }>;
  const { body } = await client.request<Settings>('GET', `/${encodeURIComponent(index)}/_settings/index.blocks.write`);
  return Object.values(body)[0]?.settings.index?.blocks?.write === 'true';
}

/** The exact comparison made under the write block. */
export interface BlockedCheck {
  diff: RangeDiff;
  /** Both owners' documents of the range at the snapshot. */
  counts: { from: { restaurants: number; dishes: number }; to: { restaurants: number; dishes: number } };
  /** The checkpoint at the snapshot: every write after it has a higher sequence number. */
  checkpoint: Checkpoint;
  /** Documents whose content was compared. */
  compared: number;
}

/**
 * checkRange compares both owners' copies of a range: presence over every
 * id, content over the documents written after `since` on either owner and
 * those in `recheck` (fixed by the last pass; every other document was found
 * equal before and has not been written since). Refreshes first.
 *
 * `blocked`: the caller holds the write block, so the comparison is exact and
 * the checkpoint is read with it. Otherwise (a catch-up pass while writers
 * run) the checkpoint is taken before the refresh and the reads, so a write
 * the reads missed is after it and the next pass re-checks it.
 */
export async function checkRange(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf & { from: string; to: string }, shards: { from: number; to: number }, since: Checkpoint, recheck: ReadonlySet<string>, blocked: boolean): Promise<BlockedCheck> {
  const c = await compareSides(rangeSide(client, index, shape, m, m.from, shards.from), rangeSide(client, index, shape, m, m.to, shards.to), since, recheck, { blocked });
  const kinds = (x: Record<string, number>) => ({ restaurants: x.restaurants, dishes: x.dishes });
  return { diff: c.diff, counts: { from: kinds(c.counts.from), to: kinds(c.counts.to) }, checkpoint: c.checkpoint, compared: c.compared };
}

/**
 * deletedOnOldSince lists the new owner's copies of a range that both owners
 * held at the switch (their `_seq_no` on the new owner is at most
 * `switchSeqNo`, the new owner's checkpoint under the block) and the old
 * owner no longer holds: deleted there after the switch by a writer holding
 * a routing found before it. Refreshes first.
 */
export async function deletedOnOldSince(client: OpenSearchClient, index: string, shape: RangeShape, m: RangeOf & { from: string; to: string }, switchSeqNo: number): Promise<string[]> {
  await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 });
  const unchanged = { range: { _seq_no: { lte: switchSeqNo } } };
  // Both lists can be a whole range: joined on disk (SpillJoin), not held.
  const n = await countOfRange(client, index, shape, m, m.to);
  const join = new SpillJoin(n.restaurants + n.dishes);
  try {
    for (const q of rangeQueries(shape, m, m.to)) {
      for await (const hits of pages(client, index, m.to, and(q, unchanged), PAGE, false)) for (const h of hits) join.a(h._id);
    }
    await eachIdOfRange(client, index, shape, m, m.from, (ids) => ids.forEach((id) => join.b(id)));
    const gone: string[] = [];
    join.join((id, onNew, onOld) => {
      if (onNew !== undefined && onOld === undefined) gone.push(id);
    });
    return gone.sort();
  } finally {
    join.close();
  }
}

/** describeDiff says what a diff of two owners found, for progress lines and errors. */
export const describeDiff = (d: RangeDiff) => describeDocDiff(d);

/** versionsOf reads the `_seq_no` and `_primary_term` of documents on one owner (`_mget`, no sources); an id it does not hold is absent. */
export async function versionsOf(client: OpenSearchClient, index: string, routing: string, ids: readonly string[]): Promise<Map<string, { seqNo: number; term: number }>> {
  const out = new Map<string, { seqNo: number; term: number }>();
  for (let i = 0; i < ids.length; i += PAGE) {
    const docs = ids.slice(i, i + PAGE).map((_id) => ({ _id, routing, _source: false }));
    const { body } = await client.request<{ docs: { _id: string; found: boolean; _seq_no?: number; _primary_term?: number }[] }>('POST', `/${encodeURIComponent(index)}/_mget`, { body: { docs }, timeoutMs: 60_000 });
    for (const d of body.docs) if (d.found && d._seq_no !== undefined && d._primary_term !== undefined) out.set(d._id, { seqNo: d._seq_no, term: d._primary_term });
  }
  return out;
}

/** What applyPending did: documents written or deleted on the new owner, and those a writer had changed there since the block (kept as the writer left them); `versions`, the new owner's version of each document it wrote. */
export interface PendingCounts {
  written: number;
  deleted: number;
  kept: number;
  versions: PendingFix[];
}

/**
 * applyPending brings the documents a switch left different (CutoverState.pending)
 * onto the new owner `to`: each is written from the old owner's current copy
 * (create-only when the new owner had none under the block; otherwise only if
 * the new owner's copy is still the version read under the block:
 * `if_seq_no` / `if_primary_term`), or, when the old owner no longer holds it,
 * deleted from the new owner on the same condition. A 409 means a writer
 * wrote the new owner's copy after the switch: its write is newer and is kept.
 * Writes bypass the routing pipeline. Throws Error naming failed items.
 */
export async function applyPending(client: OpenSearchClient, index: string, shape: RangeShape, from: string, to: string, pending: readonly PendingFix[]): Promise<PendingCounts> {
  const out: PendingCounts = { written: 0, deleted: 0, kept: 0, versions: [] };
  for (let i = 0; i < pending.length; i += PAGE) {
    const chunk = pending.slice(i, i + PAGE);
    const sources = await sourcesOf(client, index, from, chunk.map((p) => p.id));
    const actions: BulkAction[] = [];
    const kinds: ('written' | 'deleted')[] = [];
    const ids: string[] = [];
    for (const p of chunk) {
      const s = sources.get(p.id);
      const cond = p.seqNo >= 0 ? { ifSeqNo: p.seqNo, ifPrimaryTerm: p.term } : {};
      if (s) {
        actions.push({ op: p.seqNo >= 0 ? 'index' : 'create', index, id: p.id, routing: to, ...cond, source: shape.stamp && kindOf(s) === 'restaurant' ? { ...s, shard: to } : s });
        kinds.push('written');
        ids.push(p.id);
      } else if (p.seqNo >= 0) {
        actions.push({ op: 'delete', index, id: p.id, routing: to, ...cond });
        kinds.push('deleted');
        ids.push(p.id);
      }
    }
    if (actions.length === 0) continue;
    const body = bulkBody(actions);
    const res = await client.request<BulkResponse & { items: Record<string, { status: number; _seq_no?: number; _primary_term?: number }>[] }>('POST', '/_bulk', { query: { pipeline: '_none' }, body, timeoutMs: 120_000 });
    const errs = bulkErrors(res.body).filter((e) => e.status !== 409 && e.status !== 404);
    if (errs.length > 0) throw new Error(`bringing ${chunk.length} documents onto the new owner "${to}" after the switch failed for ${errs.length}: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
    res.body.items.forEach((item, k) => {
      const r = Object.values(item)[0] as { status?: number; _seq_no?: number; _primary_term?: number } | undefined;
      const st = r?.status ?? 500;
      if (st === 409) out.kept++;
      else if (st < 300) {
        out[kinds[k]]++;
        if (kinds[k] === 'written' && r?._seq_no !== undefined && r._primary_term !== undefined) out.versions.push({ id: ids[k], seqNo: r._seq_no, term: r._primary_term });
      }
    });
  }
  return out;
}

/**
 * deleteBroughtGoneFromOld reconciles what a switch's applyPending wrote on the
 * new owner (`brought`: each document's version there) with the old owner:
 * a document the old owner no longer holds was deleted there by a writer
 * holding a routing found before the switch, so its brought copy is deleted
 * from the new owner too, only if it is still the version brought
 * (`if_seq_no`; a writer's later write is kept). Returns the ids deleted.
 */
export async function deleteBroughtGoneFromOld(client: OpenSearchClient, index: string, from: string, to: string, brought: readonly PendingFix[]): Promise<string[]> {
  const gone: string[] = [];
  for (let i = 0; i < brought.length; i += PAGE) {
    const chunk = brought.slice(i, i + PAGE);
    const onOld = await versionsOf(client, index, from, chunk.map((b) => b.id));
    const dels = chunk.filter((b) => !onOld.has(b.id));
    if (dels.length === 0) continue;
    const body = bulkBody(dels.map((b) => ({ op: 'delete', index, id: b.id, routing: to, ifSeqNo: b.seqNo, ifPrimaryTerm: b.term })));
    const res = await client.request<BulkResponse & { items: Record<string, { status: number }>[] }>('POST', '/_bulk', { body, timeoutMs: 120_000 });
    const errs = bulkErrors(res.body).filter((e) => e.status !== 409 && e.status !== 404);
    if (errs.length > 0) throw new Error(`deleting from the new owner "${to}" what the old owner lost after the switch failed for ${errs.length}: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''}`).join('; ')}`);
    res.body.items.forEach((item, k) => {
      if ((Object.values(item)[0]?.status ?? 500) === 200) gone.push(dels[k].id);
    });
  }
  return gone;
}
