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
 *   1. copy      every restaurant of the range with its dishes, old → new owner,
 *                create-only (a dual-written document on the new owner is newer);
 *   2. diff      both owners' copies of the range, document by document: id,
 *                kind and a content hash (the source without the routing-dependent
 *                `shard` field); fix every difference (re-copy what is missing or
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
 * The block covers only reads and two `_meta` writes (mapping updates are not
 * document writes, so they pass the block); its length is measured per try.
 */
import type { MoveState } from '../core/index.ts';
import type { OpenSearchClient } from './opensearch.ts';
import { CHILD, JOIN_FIELD, PARENT } from './indexSpec.ts';
import { bulkErrors } from './seeder.ts';
import { SpillJoin } from './spill.ts';

/** A range of a move: [start, end) level-10 tokens (end null: the end of the curve). */
export type RangeOf = Pick<MoveState, 'start' | 'end'>;

const cellRange = (m: RangeOf) => ({ range: { cell: m.end === null ? { gte: m.start } : { gte: m.start, lt: m.end } } });

/** The restaurants of a range routed with `routing` (the copy that owner holds). */
export function rangeRestaurants(m: RangeOf, routing: string): Record<string, unknown> {
  return { bool: { filter: [{ term: { [JOIN_FIELD]: PARENT } }, { term: { _routing: routing } }, cellRange(m)] } };
}

/** The dishes of a range routed with `routing`: through their parent, which holds the cell. */
export function rangeDishes(m: RangeOf, routing: string): Record<string, unknown> {
  return { bool: { filter: [{ term: { [JOIN_FIELD]: CHILD } }, { term: { _routing: routing } }, { has_parent: { parent_type: PARENT, query: cellRange(m) } }] } };
}

// The per-document comparison (digests, diffs, fixes, the exact check) is shared with `geoshard
// reindex`: docDiff.ts. A range on one owner is a DocSide (rangeSide below).
export { canonicalJson, kindOf, digestOf, diffDigests, isClean, idsOf, type DocDigest, type RangeDigest, type RangeDiff, type FixCounts } from './docDiff.ts';
import { describeDiff as describeDocDiff, compareSides, diffOfJoin, spillHash, fixDiff, kindOf, type DocSide, type FixCounts, type RangeDiff } from './docDiff.ts';

interface Hit {
  _id: string;
  _source?: Record<string, unknown>;
  sort: unknown[];
}

/** Pages through a query on one routing, sorted by id, `size` at a time. */
export async function* pages(client: OpenSearchClient, index: string, routing: string, query: Record<string, unknown>, size: number, source: boolean | string[] = true): AsyncGenerator<Hit[]> {
  let after: unknown[] | undefined;
  for (;;) {
    const { body } = await client.request<{ hits: { hits: Hit[] } }>('POST', `/${encodeURIComponent(index)}/_search`, {
      query: { routing },
      body: { size, query, _source: source, sort: [{ id: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
      timeoutMs: 60_000,
    });
    const hits = body.hits.hits;
    if (hits.length === 0) return;
    yield hits;
    if (hits.length < size) return;
    after = hits[hits.length - 1].sort;
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
export async function diffRange(client: OpenSearchClient, index: string, m: RangeOf & { from: string; to: string }): Promise<{ diff: RangeDiff; sizes: { from: number; to: number } }> {
  const [nFrom, nTo] = await Promise.all([countOfRange(client, index, m, m.from), countOfRange(client, index, m, m.to)]);
  const join = new SpillJoin(Math.max(nFrom.restaurants + nFrom.dishes, nTo.restaurants + nTo.dishes));
  try {
    const read = async (routing: string, add: (id: string, hash: string) => void) => {
      for (const q of [rangeRestaurants(m, routing), rangeDishes(m, routing)]) {
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

/** eachIdOfRange reads one owner's ids of a range without sources (the presence check), passing each page to `f`, and counts them by kind. */
export async function eachIdOfRange(client: OpenSearchClient, index: string, m: RangeOf, routing: string, f: (ids: readonly string[]) => void): Promise<{ restaurants: number; dishes: number }> {
  const count = async (q: Record<string, unknown>) => {
    let n = 0;
    for await (const hits of pages(client, index, routing, q, PAGE, false)) f(hits.map((h) => h._id)), (n += hits.length);
    return n;
  };
  const restaurants = await count(rangeRestaurants(m, routing));
  const dishes = await count(rangeDishes(m, routing));
  return { restaurants, dishes };
}

/** countOfRange counts one owner's documents of a range (two `_count` requests). */
export async function countOfRange(client: OpenSearchClient, index: string, m: RangeOf, routing: string): Promise<{ restaurants: number; dishes: number }> {
  const path = `/${encodeURIComponent(index)}/_count`;
  const [r, d] = await Promise.all([
    client.request<{ count: number }>('POST', path, { query: { routing }, body: { query: rangeRestaurants(m, routing) } }),
    client.request<{ count: number }>('POST', path, { query: { routing }, body: { query: rangeDishes(m, routing) } }),
  ]);
  return { restaurants: r.body.count, dishes: d.body.count };
}

/** changedSince lists one owner's ids of a range written after sequence number `seqNo` (exclusive). */
export async function changedSince(client: OpenSearchClient, index: string, m: RangeOf, routing: string, seqNo: number): Promise<Set<string>> {
  const out = new Set<string>();
  const since = { range: { _seq_no: { gt: seqNo } } };
  for (const q of [rangeRestaurants(m, routing), rangeDishes(m, routing)]) {
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
export async function applyDiff(client: OpenSearchClient, index: string, from: string, to: string, d: RangeDiff): Promise<FixCounts> {
  // (Only sources are read from the old owner and only writes go to the new one: the range does not matter here.)
  const any = { start: '', end: null };
  return fixDiff(rangeSide(client, index, any, from, -1), rangeSide(client, index, any, to, -1), d);
}

/**
 * rangeSide is one owner's copy of a range as a DocSide: its shard `shard`
 * (checkpoints), its documents routed with `routing`. Writes bypass the
 * routing pipeline (`pipeline=_none`): they are copies, routed by the owner's
 * name, with the restaurant's `shard` set to it.
 */
export function rangeSide(client: OpenSearchClient, index: string, m: RangeOf, routing: string, shard: number): DocSide<number> {
  return {
    label: `owner "${routing}"`,
    refresh: async () => void (await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 })),
    checkpoint: () => maxSeqNo(client, index, shard),
    eachId: (f) => eachIdOfRange(client, index, m, routing, f),
    count: async () => {
      const c = await countOfRange(client, index, m, routing);
      return c.restaurants + c.dishes;
    },
    changedSince: (seqNo) => changedSince(client, index, m, routing, seqNo),
    sources: (ids) => sourcesOf(client, index, routing, ids),
    async write(docs, dels) {
      let body = '';
      for (const [id, s] of docs) body += JSON.stringify({ index: { _index: index, _id: id, routing } }) + '\n' + JSON.stringify(kindOf(s) === 'restaurant' ? { ...s, shard: routing } : s) + '\n';
      for (const id of dels) body += JSON.stringify({ delete: { _index: index, _id: id, routing } }) + '\n';
      const res = await client.request<Parameters<typeof bulkErrors>[0]>('POST', '/_bulk', { query: { pipeline: '_none' }, body, timeoutMs: 120_000 });
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
export async function checkRange(client: OpenSearchClient, index: string, m: RangeOf & { from: string; to: string }, shards: { from: number; to: number }, since: Checkpoint, recheck: ReadonlySet<string>, blocked: boolean): Promise<BlockedCheck> {
  const c = await compareSides(rangeSide(client, index, m, m.from, shards.from), rangeSide(client, index, m, m.to, shards.to), since, recheck, { blocked });
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
export async function deletedOnOldSince(client: OpenSearchClient, index: string, m: RangeOf & { from: string; to: string }, switchSeqNo: number): Promise<string[]> {
  await client.request('POST', `/${encodeURIComponent(index)}/_refresh`, { timeoutMs: 120_000 });
  const unchanged = { range: { _seq_no: { lte: switchSeqNo } } };
  // Both lists can be a whole range: joined on disk (SpillJoin), not held.
  const n = await countOfRange(client, index, m, m.to);
  const join = new SpillJoin(n.restaurants + n.dishes);
  try {
    for (const q of [rangeRestaurants(m, m.to), rangeDishes(m, m.to)]) {
      for await (const hits of pages(client, index, m.to, and(q, unchanged), PAGE, false)) for (const h of hits) join.a(h._id);
    }
    await eachIdOfRange(client, index, m, m.from, (ids) => ids.forEach((id) => join.b(id)));
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
