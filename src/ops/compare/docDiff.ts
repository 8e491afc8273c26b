/**
 * Comparing two copies of a set of documents and making the second equal the
 * first, per document, the way Vitess VDiff and Ghostferry do: the shared
 * part of `geoshard migrate`'s cutover (one range, old owner → new owner of
 * one index: cutover.ts) and `geoshard reindex` (a whole index → a new index:
 * reindex.ts).
 *
 * A copy is a DocSide: what it holds can be listed (ids), read (sources by
 * id), found by what was written after a checkpoint (`_seq_no`, per shard),
 * refreshed and written. Then:
 *   - diffDigests compares two copies' ids and content hashes (digestOf);
 *   - fixDiff makes the second copy equal the first for the ids a diff names;
 *   - compareSides is one catch-up pass or, under a write block on the first
 *     copy, the exact check: presence over every id (or, when asked and the
 *     counts agree, the count: see compareSides), content over what was
 *     written since the last checkpoint and what the last pass fixed.
 */
import { createHash } from 'node:crypto';
import { SpillJoin } from './spill.ts';
import { JOIN_FIELD, PARENT } from '../../opensearch/sampleIndex.ts';

/** What one copy holds of a document: its kind and content hash. */
export interface DocDigest {
  kind: 'restaurant' | 'dish';
  hash: string;
}

/** One copy's documents: id → digest (null: present, content not read). */
export type RangeDigest = Map<string, DocDigest>;

/** The differences between the first (source) and the second (target) copy. */
export interface RangeDiff {
  /** In the source, not in the target: to copy. */
  missing: string[];
  /** In both, with another content: to copy again. */
  changed: string[];
  /** In the target only (deleted from the source, or resurrected by the copy): to delete from the target. */
  extra: string[];
}

/** isClean says whether a diff found no difference. */
export const isClean = (d: RangeDiff) => d.missing.length + d.changed.length + d.extra.length === 0;

/** The ids a diff names (to re-check after fixing them). */
export const idsOf = (d: RangeDiff) => new Set([...d.missing, ...d.changed, ...d.extra]);

/** describeDiff says what a diff found, for progress lines and errors. */
export function describeDiff(d: RangeDiff, target = 'the new owner'): string {
  if (isClean(d)) return 'no difference';
  const part = (n: string[], what: string) => (n.length ? `${n.length} ${what} (${n.slice(0, 3).join(', ')}${n.length > 3 ? ', …' : ''})` : '');
  return [part(d.missing, `missing on ${target}`), part(d.changed, 'different'), part(d.extra, `only on ${target}`)].filter(Boolean).join(', ');
}

/**
 * canonicalJson serialises a JSON value with object keys sorted at every
 * level, so two copies of one document hash alike whatever order their
 * fields were written in (the pipeline adds `cell` and `shard` after the rest).
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** kindOf returns whether a source is a restaurant (the sample join's parent) or anything else ("dish": a child, or a document of an index without the sample's join). */
export function kindOf(source: Record<string, unknown>): 'restaurant' | 'dish' {
  const j = source[JOIN_FIELD];
  return j === PARENT || (j as { name?: string } | undefined)?.name === PARENT ? 'restaurant' : 'dish';
}

/**
 * digestOf hashes what must be equal on both copies: the source without the
 * restaurant's `shard` field (each copy names its own routing there; other
 * documents are hashed whole).
 */
export function digestOf(source: Record<string, unknown>): DocDigest {
  const kind = kindOf(source);
  const { shard: _s, ...rest } = source;
  return { kind, hash: createHash('sha1').update(canonicalJson(kind === 'restaurant' ? rest : source)).digest('hex') };
}

/**
 * diffDigests compares two copies: `only` (when given) limits the content
 * comparison to those ids (the rest are known equal); presence is always
 * compared over every id. Sorted ids, so a report is stable.
 */
export function diffDigests(from: ReadonlyMap<string, DocDigest | null>, to: ReadonlyMap<string, DocDigest | null>, only?: ReadonlySet<string>): RangeDiff {
  const missing: string[] = [];
  const changed: string[] = [];
  const extra: string[] = [];
  for (const [id, d] of from) {
    if (!to.has(id)) missing.push(id);
    else if (!only || only.has(id)) {
      const e = to.get(id);
      if (d && e && d.hash !== e.hash) changed.push(id);
    }
  }
  for (const id of to.keys()) if (!from.has(id)) extra.push(id);
  return { missing: missing.sort(), changed: changed.sort(), extra: extra.sort() };
}

/**
 * One copy of a set of documents. `C` is its checkpoint: what every later
 * write exceeds (an owner shard's `max_seq_no`, or one per shard of an index).
 */
export interface DocSide<C> {
  /** For messages: "owner alpha", "index places". */
  readonly label: string;
  /** Makes every acknowledged write visible to the reads below. */
  refresh(): Promise<void>;
  /** The checkpoint now: every write after it has a higher sequence number. */
  checkpoint(): Promise<C>;
  /**
   * Reads every id, passing each page to `f` (the side keeps none: a whole
   * index's ids do not fit one process), and returns counts by whatever the
   * side counts (kinds, or `docs`).
   */
  eachId(f: (ids: readonly string[]) => void): Promise<Record<string, number>>;
  /** The number of documents (after a refresh). */
  count(): Promise<number>;
  /** The ids written after `since` (exclusive). */
  changedSince(since: C): Promise<Set<string>>;
  /**
   * Optional: parts the cluster can count (tileParts.ts). Both sides' parts
   * must be the same function of a document's content, so equal copies count
   * alike per part. The switch's exact check uses them to read ids only where
   * the counts differ.
   */
  parts?: PartCounter;
  /** Sources by id; an id not held is absent from the map. */
  sources(ids: readonly string[]): Promise<Map<string, Record<string, unknown>>>;
  /** Writes whole documents (index: they replace) and deletes ids (an id not held is no error); throws naming failed items. */
  write(docs: readonly (readonly [string, Record<string, unknown>])[], deletes: readonly string[]): Promise<void>;
}

/** What a fix wrote. */
export interface FixCounts {
  copied: number;
  deleted: number;
}

/**
 * fixDiff makes `to` equal `from` for the ids a diff names: what is missing
 * or changed is written again from `from`'s current source, extras deleted;
 * an id that vanished from `from` since the diff is deleted from `to`.
 * Parents before children within each chunk of 5,000 written (placement
 * follows the routing, not the order; the order keeps a chunk's children
 * from briefly lacking their parent).
 */
export async function fixDiff<A, B>(from: DocSide<A>, to: DocSide<B>, d: RangeDiff): Promise<FixCounts> {
  // In chunks: a diff can name many documents (a verify after a copy that was cut short), and only a
  // chunk's sources are held at a time. Within a chunk, parents before children.
  const CHUNK = 5000;
  const recopy = [...d.missing, ...d.changed];
  const out: FixCounts = { copied: 0, deleted: 0 };
  for (let i = 0; i < Math.max(recopy.length, d.extra.length); i += CHUNK) {
    const ids = recopy.slice(i, i + CHUNK);
    const sources = await from.sources(ids);
    const dels = [...d.extra.slice(i, i + CHUNK), ...ids.filter((id) => !sources.has(id))];
    const docs = [...sources].sort(([, a], [, b]) => (kindOf(a) === kindOf(b) ? 0 : kindOf(a) === 'restaurant' ? -1 : 1));
    if (docs.length + dels.length === 0) continue;
    await to.write(docs, dels);
    out.copied += docs.length;
    out.deleted += dels.length;
  }
  return out;
}

/**
 * A copy cut into parts the cluster counts, each part cut further on demand
 * (a tree of parts: the documents of a part are the union of its children's).
 */
export interface PartCounter {
  /** The counts of `parent`'s children (null: of the first cut). A part with no document may be absent. */
  counts(parent: string | null): Promise<Map<string, number>>;
  /** Whether a part can be cut further. */
  canSplit(key: string): boolean;
  /** Reads the ids of these parts (an id may come twice), passing each page to `f`; returns how many were read. */
  eachIdIn(keys: readonly string[], f: (ids: readonly string[]) => void): Promise<number>;
}

/** A part holding at most this many documents is read rather than cut further. */
export const SMALL_PART = 2_000;

/**
 * differingParts walks two copies' part trees from the first cut down and
 * returns the parts whose counts differ, cut until each holds at most
 * `small` (SMALL_PART) documents on both sides (or cannot be cut), with the number of
 * documents they hold on the larger side. Parts that agree are not cut
 * further. Memory: the counts of one level's differing parts.
 */
export async function differingParts(a: PartCounter, b: PartCounter, small = SMALL_PART): Promise<{ keys: string[]; docs: number }> {
  const keys: string[] = [];
  let docs = 0;
  let frontier: (string | null)[] = [null];
  while (frontier.length > 0) {
    const next: string[] = [];
    // A few parents at a time (each is one aggregation per side, filtered to its tile).
    const levels = await mapLimit(frontier, 4, (parent) => Promise.all([a.counts(parent), b.counts(parent)]));
    for (const [ca, cb] of levels) {
      for (const key of new Set([...ca.keys(), ...cb.keys()])) {
        const na = ca.get(key) ?? 0;
        const nb = cb.get(key) ?? 0;
        if (na === nb) continue;
        if (Math.max(na, nb) > small && a.canSplit(key)) next.push(key);
        else {
          keys.push(key);
          docs += Math.max(na, nb);
        }
      }
    }
    frontier = next;
  }
  return { keys, docs };
}

/** mapLimit maps `items` with `f`, at most `limit` at a time, keeping the order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await f(items[k]);
    }
  }));
  return out;
}

/** The comparison of one pass (or the exact check under the write block). */
export interface SideCheck<A, B> {
  diff: RangeDiff;
  /** Both copies' counts at the reads (`docs` only when presence was checked by count). */
  counts: { from: Record<string, number>; to: Record<string, number> };
  /** The checkpoint at the reads: every write after it has a higher sequence number. */
  checkpoint: { from: A; to: B };
  /** Documents whose content was compared. */
  compared: number;
  /** How presence was checked: every id, the counts, or the ids of the parts whose counts differ (see compareSides). */
  presence: 'ids' | 'count' | 'parts';
}

/** Options of compareSides. */
export interface CompareOptions {
  /** The caller holds a write block on `from` (and nothing else writes `to`): the comparison is exact. */
  blocked: boolean;
  /**
   * Check presence by count when it can: only sound when the last pass
   * compared every id with a checkpoint taken before its reads, and only this
   * process writes `to`. Then every document of `from` not written since is in
   * `to`, so once the documents written since agree, equal counts mean equal
   * ids; unequal counts fall back to every id.
   */
  presenceByCount?: boolean;
}

/**
 * compareSides compares two copies: presence over every id, content over the
 * documents written after `since` on either side and those in `recheck`
 * (fixed by the last pass; every other document was found equal before and
 * has not been written since). Refreshes both first.
 *
 * Under a write block the checkpoint is read with it; otherwise (a catch-up
 * pass while writers run) it is taken before the refresh and the reads, so a
 * write the reads missed is after it and the next pass re-checks it.
 */
export async function compareSides<A, B>(from: DocSide<A>, to: DocSide<B>, since: { from: A; to: B }, recheck: ReadonlySet<string>, o: CompareOptions): Promise<SideCheck<A, B>> {
  const checkpointNow = async () => {
    const [a, b] = await Promise.all([from.checkpoint(), to.checkpoint()]);
    return { from: a, to: b };
  };
  const before = o.blocked ? null : await checkpointNow();
  await Promise.all([from.refresh(), to.refresh()]);
  const [chFrom, chTo, at] = await Promise.all([from.changedSince(since.from), to.changedSince(since.to), before ?? checkpointNow()]);
  const look = new Set([...chFrom, ...chTo, ...recheck]);
  if (o.presenceByCount) {
    const ids = [...look];
    const [nFrom, nTo, srcFrom, srcTo] = await Promise.all([from.count(), to.count(), from.sources(ids), to.sources(ids)]);
    const digFrom = new Map<string, DocDigest | null>([...srcFrom].map(([id, s]) => [id, digestOf(s)]));
    const digTo = new Map<string, DocDigest | null>([...srcTo].map(([id, s]) => [id, digestOf(s)]));
    const diff = diffDigests(digFrom, digTo);
    if (!isClean(diff) || nFrom === nTo) return { diff, counts: { from: { docs: nFrom }, to: { docs: nTo } }, checkpoint: at, compared: ids.length, presence: 'count' };
    // Counts differ with every written document equal: a delete the last pass did not see. Where the
    // cluster can count parts, read ids only in the parts whose counts differ; the difference found must
    // account for the counts' (else, e.g. a part key the two sides cut differently, every id).
    if (from.parts && to.parts) {
      const found = await presenceInParts(from as DocSide<A> & { parts: PartCounter }, to as DocSide<B> & { parts: PartCounter }).catch(() => null);
      if (found && nTo - nFrom === found.extra.length - found.missing.length) {
        return { diff: { ...diff, missing: found.missing.sort(), extra: found.extra.sort() }, counts: { from: { docs: nFrom }, to: { docs: nTo } }, checkpoint: at, compared: ids.length, presence: 'parts' };
      }
    }
  }
  const p = await presence(from, to, look);
  const both = p.both;
  const [srcFrom, srcTo] = await Promise.all([from.sources(both), to.sources(both)]);
  const digFrom = new Map<string, DocDigest | null>();
  const digTo = new Map<string, DocDigest | null>();
  for (const [id, s] of srcFrom) digFrom.set(id, digestOf(s));
  for (const [id, s] of srcTo) digTo.set(id, digestOf(s));
  // Read after the presence lists: a document deleted in between is missing from one side's sources.
  const changed: string[] = [];
  const missing = [...p.missing];
  const extra = [...p.extra];
  for (const id of both) {
    const a = digFrom.get(id);
    const b = digTo.get(id);
    if (a && b && a.hash !== b.hash) changed.push(id);
    else if (!a && b) extra.push(id);
    else if (a && !b) missing.push(id);
  }
  const diff = { missing: missing.sort(), changed: changed.sort(), extra: extra.sort() };
  const cFrom = p.counts.from;
  const cTo = p.counts.to;
  return { diff, counts: { from: cFrom, to: cTo }, checkpoint: at, compared: both.length, presence: 'ids' };
}

/** What presence found: ids on one side only, ids on both that the caller asked about, and both sides' counts. */
export interface Presence {
  missing: string[];
  extra: string[];
  both: string[];
  counts: { from: Record<string, number>; to: Record<string, number> };
}

/**
 * presence compares the ids of two copies in bounded memory: both sides'
 * ids stream into a SpillJoin (spill.ts: partitions on disk by a hash of the
 * id) and are joined a partition at a time. Returns the ids only `from`
 * holds (missing on `to`), only `to` holds (extra), and those of `look` that
 * both hold. Memory is one partition plus the differences, whatever the
 * number of documents.
 */
export async function presence<A, B>(from: DocSide<A>, to: DocSide<B>, look: ReadonlySet<string>): Promise<Presence> {
  const [nFrom, nTo] = await Promise.all([from.count(), to.count()]);
  const join = new SpillJoin(Math.max(nFrom, nTo));
  try {
    const [cFrom, cTo] = await Promise.all([from.eachId((ids) => ids.forEach((id) => join.a(id))), to.eachId((ids) => ids.forEach((id) => join.b(id)))]);
    const missing: string[] = [];
    const extra: string[] = [];
    const both: string[] = [];
    join.join((id, a, b, dup) => {
      if (dup) return;
      if (b === undefined) missing.push(id);
      else if (a === undefined) extra.push(id);
      else if (look.has(id)) both.push(id);
    });
    return { missing, extra, both, counts: { from: cFrom, to: cTo } };
  } finally {
    join.close();
  }
}

/** What one catch-up pass found (and fixed). */
export interface PassResult<A, B> {
  /** Everything the pass fixed: the content of what was written since, then presence where the parts' counts differed (or over every id). */
  diff: RangeDiff;
  /** `from`'s documents at the end of the pass. */
  docs: number;
  /** The checkpoint taken before the pass's reads: every write after it is read by the next pass. */
  checkpoint: { from: A; to: B };
  /** Documents whose content was compared. */
  compared: number;
  /** How presence was checked: the ids of the parts whose counts differed, or every id. */
  presence: 'parts' | 'ids';
  /** Documents whose ids presence read (both sides, the larger). */
  presenceDocs: number;
}

/**
 * catchUpPass is one catch-up pass while writers write `from`, fixing as it
 * goes. First the content of what was written since `since` (and `recheck`)
 * is compared and fixed; then presence, which finds what a delete left
 * behind (a delete leaves no sequence number): where both sides have parts
 * (tileParts.ts), only in the parts whose counts differ after that fix (the
 * cluster counts; a busy index reads a few parts, not every id), else over
 * every id (compareSides). The checkpoint is taken before any read, so a
 * write this pass misses, or a document it wrongly took for deleted because
 * a writer moved it between the two sides' reads, is written after it and
 * compared by the next pass or the switch.
 *
 * Why presence may be approximate here: the switch's exact check needs only
 * that every document of `from` not written since the last checkpoint is in
 * `to` (the verify compared every id; every pass since fixed what was written
 * after its checkpoint), and it finds the deletes itself (counts, then parts).
 */
export async function catchUpPass<A, B>(from: DocSide<A> & { parts?: PartCounter }, to: DocSide<B> & { parts?: PartCounter }, since: { from: A; to: B }, recheck: ReadonlySet<string>): Promise<PassResult<A, B>> {
  if (!from.parts || !to.parts) {
    const c = await compareSides(from, to, since, recheck, { blocked: false });
    if (!isClean(c.diff)) await fixDiff(from, to, c.diff);
    return { diff: c.diff, docs: c.counts.from.docs ?? 0, checkpoint: c.checkpoint, compared: c.compared, presence: 'ids', presenceDocs: Math.max(c.counts.from.docs ?? 0, c.counts.to.docs ?? 0) };
  }
  const [a, b] = await Promise.all([from.checkpoint(), to.checkpoint()]);
  const at = { from: a, to: b };
  await Promise.all([from.refresh(), to.refresh()]);
  const [chFrom, chTo] = await Promise.all([from.changedSince(since.from), to.changedSince(since.to)]);
  const ids = [...new Set([...chFrom, ...chTo, ...recheck])];
  // In chunks: what writers wrote during a long pass can be many documents; only a chunk's sources are held.
  const content: RangeDiff = { missing: [], changed: [], extra: [] };
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    const [srcFrom, srcTo] = await Promise.all([from.sources(chunk), to.sources(chunk)]);
    const d = diffDigests(new Map([...srcFrom].map(([id, s]) => [id, digestOf(s)])), new Map([...srcTo].map(([id, s]) => [id, digestOf(s)])));
    content.missing.push(...d.missing), content.changed.push(...d.changed), content.extra.push(...d.extra);
  }
  if (!isClean(content)) await fixDiff(from, to, content);
  await Promise.all([from.refresh(), to.refresh()]);
  let found: (Presence & { docs: number }) | null = null;
  try {
    found = await presenceInParts(from as DocSide<A> & { parts: PartCounter }, to as DocSide<B> & { parts: PartCounter });
  } catch {
    found = null;
  }
  let presenceDocs: number;
  let mode: 'parts' | 'ids';
  if (found) {
    presenceDocs = found.docs;
    mode = 'parts';
  } else {
    found = { ...(await presence(from, to, new Set())), docs: 0 };
    presenceDocs = Math.max(found.counts.from.docs ?? 0, found.counts.to.docs ?? 0);
    mode = 'ids';
  }
  const byIds: RangeDiff = { missing: found.missing.sort(), changed: [], extra: found.extra.sort() };
  if (!isClean(byIds)) await fixDiff(from, to, byIds);
  const merged = (x: string[], y: string[]) => [...new Set([...x, ...y])].sort();
  const diff = { missing: merged(content.missing, byIds.missing), changed: content.changed, extra: merged(content.extra, byIds.extra) };
  return { diff, docs: await from.count(), checkpoint: at, compared: ids.length, presence: mode, presenceDocs };
}

/** presenceInParts is presence over the ids of the parts whose counts differ (differingParts), not the whole index. */
async function presenceInParts<A, B>(from: DocSide<A> & { parts: PartCounter }, to: DocSide<B> & { parts: PartCounter }): Promise<Presence & { docs: number }> {
  const { keys, docs } = await differingParts(from.parts, to.parts);
  if (keys.length === 0) return { missing: [], extra: [], both: [], counts: { from: { docs: 0 }, to: { docs: 0 } }, docs: 0 };
  const only = <C>(side: DocSide<C> & { parts: PartCounter }): DocSide<C> => ({
    ...side,
    count: async () => docs,
    eachId: async (f) => ({ docs: await side.parts.eachIdIn(keys, f) }),
  });
  return { ...(await presence(only(from), only(to), new Set())), docs };
}

/**
 * spillHash is the part of a content hash (digestOf: 40 hex digits of SHA-1)
 * that a comparison on disk keeps: 16 hex digits, 64 bits. Two different
 * contents then compare equal with a probability of 2^-64 per document,
 * and a record on disk is ~40 bytes instead of ~65 (1 B documents: ~40 GB a
 * side of the client's disk, not 65).
 */
export const spillHash = (source: Record<string, unknown>): string => digestOf(source).hash.slice(0, 16);

/**
 * diffOfJoin joins two copies' records (SpillJoin: A the source, B the
 * target; id → content hash) into a diff: ids only A holds are missing on B,
 * only B holds extra, on both with another hash changed. Sorted ids. Memory:
 * one partition of each side plus the differences.
 */
export function diffOfJoin(join: SpillJoin): RangeDiff {
  const diff: RangeDiff = { missing: [], changed: [], extra: [] };
  join.join((id, a, b, dup) => {
    if (dup) return;
    if (b === undefined) diff.missing.push(id);
    else if (a === undefined) diff.extra.push(id);
    else if (a !== b) diff.changed.push(id);
  });
  for (const l of [diff.missing, diff.changed, diff.extra]) l.sort();
  return diff;
}
