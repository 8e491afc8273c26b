/**
 * GeoIndexer: the package's writer for a geoshard index of any shape, on the
 * official OpenSearch client (a peer dependency: only its types are imported
 * here; the caller passes its own `Client`). The bundled sample's restaurants
 * and dishes have their own verbs in SampleIndexer (sampleIndexer.ts); the
 * sending, with its retries, is BulkSender's (bulkSender.ts).
 *
 * Every document goes to every owner the index's routing state names
 * (Router.writeShards of the router routerOf builds from `_meta.file` and
 * `_meta.migration`): one shard, or two while its range moves, each copy with
 * its own routing value. The state is read from `_meta` before each batch
 * when the last read is older than `metaTtlMs`, and at once when the cluster
 * refuses a write for a routing that is not an owner (the routing pipeline
 * does). A 429 (the engine's back-pressure) and a 403 write block (a
 * migration's cutover window) are retried with exponential backoff within
 * `retry.budgetMs`; every operation returns one result per document.
 *
 *   const indexer = new GeoIndexer(client, 'places');
 *   await indexer.putDocument('p1', { name: 'Blue Fig', geo: { lat: 37.77, lon: -122.42 } });
 *   await indexer.deleteDocument('p1');
 *
 * Writes of putDocument and deleteDocument use refresh=wait_for: when they
 * return, searches see them. A document is found by search, so they refresh
 * the index first (a child written a moment ago by another writer is then
 * found and moved or deleted with it).
 */
import type { Client } from '@opensearch-project/opensearch';
import type { ShardRef } from '../core/index.ts';
import { fieldsOfMeta, MigrationError, readIndexMeta, RouterCache } from './meta.ts';
import { fetchMapping } from './indexMeta.ts';
import { searchShardCopies } from './fingerprint.ts';
import { BulkSender, statusOf, errorOf, type Entry, type Prepared } from './bulkSender.ts';

import { DEFAULT_RETRY, GeoIndexError, type GeoIndexerOptions, type RoutingState, type DocResult, type BulkDoc, type BulkOptions, type BulkReport, type PutResult, type DeleteResult, type Located } from './indexerTypes.ts';
import { cellOf, pointOf, fieldAt, withFieldAt, relationOf, type Source } from './documentFields.ts';
// The writer's options, results and error are its contract, indexerTypes.ts (exported with it by geoshard/opensearch).
export { DEFAULT_RETRY, GeoIndexError, type RetryPolicy, type GeoIndexerOptions, type RoutingState, type GeoIndexErrorCode, type WriteItem, type DocResult, type BulkDoc, type BulkOptions, type BulkReport, type PutResult, type DeleteResult, type Located } from './indexerTypes.ts';

/** How to make a geosharded index, for the errors that find none: any index, and the bundled sample. */
const MAKE_ONE = 'create it with createGeoIndex (geoshard/opensearch), or geoshard an existing index with "npx geoshard reindex --from INDEX --to INDEX-geo --boundaries FILE" (the bundled sample: "npx geoshard seed")';

/** A copy of a document as a search finds it. */
export interface Hit {
  _id: string;
  _routing?: string;
  _source: Source;
}

/** Most copies of a document's children GeoIndexer moves or deletes with it (one search page). */
export const MAX_CHILD_COPIES = 10_000;

/** GeoIndexer writes the documents of one geoshard index through the official client. */
export class GeoIndexer {
  private readonly ttlMs: number;
  /** @internal How documents are sent, with the retry policy. */
  protected readonly sender: BulkSender;
  /** @internal The last routing state read, and when. */
  protected cached: (RoutingState & { readAt: number }) | null = null;
  private readonly routers = new RouterCache();
  private pending: Promise<RoutingState> | null = null;

  constructor(
    readonly client: Client,
    readonly index: string,
    opts: GeoIndexerOptions = {},
  ) {
    this.ttlMs = opts.metaTtlMs ?? 1000;
    this.sender = new BulkSender(client, index, {
      routing: (fresh) => this.routing(fresh),
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      sleep: opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      bulkTimeoutMs: opts.bulkTimeoutMs ?? 120_000,
      pipelineLagMs: opts.pipelineLagMs ?? 5000,
    });
  }

  // -------------------------------------------------------------------------------------------
  // The routing state

  /**
   * routing returns the routing state from the index's `_meta`, reusing the
   * last read for `metaTtlMs` unless `fresh`. Throws GeoIndexError no-index
   * or no-meta.
   */
  async routing(fresh = false): Promise<RoutingState> {
    if (!fresh && this.cached && performance.now() - this.cached.readAt < this.ttlMs) return this.cached;
    // Concurrent batches share one read.
    this.pending ??= this.readRouting().finally(() => (this.pending = null));
    return this.pending;
  }

  private async readRouting(): Promise<RoutingState> {
    let body;
    try {
      body = await fetchMapping(this.client, this.index);
    } catch (e) {
      throw new GeoIndexError('failed', `reading index "${this.index}"'s _meta failed: ${(e as Error).message}`);
    }
    if (body === undefined) throw new GeoIndexError('no-index', `index "${this.index}" does not exist: ${MAKE_ONE}`);
    const meta = readIndexMeta(body, this.index);
    if (!meta) throw new GeoIndexError('no-meta', `index "${this.index}" has no geoshard _meta: it is not geosharded, so nothing says how its documents are routed; ${MAKE_ONE}`);
    if (meta.file === undefined) throw new GeoIndexError('no-meta', `index "${this.index}" _meta does not hold its boundary file (_meta.file: the index was made by a geoshard before 0.1): geoshard it again ("npx geoshard reindex --from ${this.index} --to ${this.index}-geo --boundaries FILE" copies it and moves an alias) to write through GeoIndexer`);
    let r;
    try {
      r = this.routers.routerFor(meta);
    } catch (e) {
      throw new GeoIndexError('no-meta', e instanceof MigrationError ? e.message : String(e));
    }
    this.cached = { meta, base: r.base!, state: r.state, router: r.router, epoch: r.state ? r.state.epoch : null, key: r.key, join: joinOfMapping(body), readAt: performance.now() };
    return this.cached;
  }

  /** owners returns the shards a document at a point is written to under the current state (one, or two during a move). */
  async owners(lat: number, lng: number): Promise<ShardRef[]> {
    return (await this.routing()).router.writeShards(lat, lng);
  }

  // -------------------------------------------------------------------------------------------
  // Low level: prebuilt documents

  /**
   * bulk writes prebuilt documents (index: a document with the same id is
   * replaced), each to every owner of its point, `batchDocs` per request,
   * `concurrency` requests in flight, the next batch taken from `docs` and
   * serialised while they are. A restaurant's `shard` field is set to
   * the routing of each copy. Documents that fail for good are reported in the
   * results (ok false); throws GeoIndexError only when the index's state
   * cannot be read.
   */
  async bulk(docs: Iterable<BulkDoc>, opts: BulkOptions = {}): Promise<BulkReport> {
    const batchDocs = opts.batchDocs ?? 2000;
    const concurrency = opts.concurrency ?? 2;
    const keepAll = (opts.keep ?? 'all') === 'all';
    const refresh = opts.refresh ?? false;
    const it = docs[Symbol.iterator]();
    const report: BulkReport = { docs: 0, written: 0, failed: 0, results: [] };
    let stop = false;
    let failure: unknown = null;
    const take = (): Entry[] => {
      const out: Entry[] = [];
      while (out.length < batchDocs) {
        const n = it.next();
        if (n.done) break;
        const d = n.value;
        out.push(this.sender.entry(d.id, 'index', { lat: d.lat, lng: d.lng }, null, d.source));
      }
      report.docs += out.length;
      return out;
    };
    // Routed and serialised under the last state read (no read of its own: send reads `_meta` as
    // the TTL says and sends this body only if the state is still the same).
    const prepare = async (): Promise<{ entries: Entry[]; prepared?: Prepared } | null> => {
      const entries = take();
      if (entries.length === 0) return null;
      const view = this.cached;
      if (!view) return { entries };
      return { entries, prepared: this.sender.prepare(entries, view) };
    };
    // One batch is made ready (its documents taken from the input, routed, serialised) while the
    // requests before it are in flight, so a request that returns is followed at once by the next:
    // the engine always has `concurrency` requests to work on, as with prebuilt bodies.
    let ahead: ReturnType<typeof prepare> | null = null;
    const next = (): ReturnType<typeof prepare> => {
      const p = ahead ?? prepare();
      ahead = null;
      return p;
    };
    const worker = async () => {
      while (!stop) {
        const taken = await next();
        if (!taken || stop) return;
        const batch = taken.entries;
        const sent = this.sender.send(batch, refresh, opts.pipeline, taken.prepared);
        // After this request has left (its write is queued before setImmediate runs).
        ahead ??= new Promise<void>((r) => setImmediate(r)).then(prepare);
        // Marked handled: the worker that awaits it gets the rejection; none may, once stopped.
        ahead.catch(() => {});
        try {
          await sent;
        } catch (e) {
          failure ??= e;
          stop = true;
          return;
        }
        for (const e of batch) {
          if (e.result.ok) report.written++;
          else report.failed++;
          if (keepAll || !e.result.ok) report.results.push(e.result);
        }
        if (opts.stopOnError && batch.some((e) => !e.result.ok)) stop = true;
        opts.onProgress?.(report.written + report.failed);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (failure) throw failure;
    return report;
  }

  // -------------------------------------------------------------------------------------------
  // Any document of the index

  /**
   * putDocument writes any document of the index (`source` whole: it
   * replaces what the id held), routed by the point at the index's location
   * field (`_meta.fields.location`, written by `geoshard reindex`; the
   * sample's `location` when absent) or, for a join child, at its copy of its
   * parent's location (`_meta.fields.childLocation`). When the point is on
   * another shard than before, the new copy is written first and the old
   * ones are deleted after; a join parent's children are rewritten with its
   * new location (in the child-location field) and moved with it. If a new
   * copy cannot be written, the copies written are deleted again and the old
   * ones stay (GeoIndexError). Throws GeoIndexError invalid when the source
   * has no valid point, conflict when `id` holds a document of another kind.
   * Returns when searches see the write.
   */
  async putDocument(id: string, source: Source): Promise<PutResult> {
    const view = await this.routing();
    const { location, childLocation } = fieldsOfMeta(view.meta);
    const join = view.join ?? null;
    const relation = join ? relationOf(source[join.field]) : null;
    const isParent = !!join && typeof relation === 'string' && (join.relations[relation]?.length ?? 0) > 0;
    const own = fieldAt(source, location);
    const value = own !== undefined ? own : childLocation ? fieldAt(source, childLocation) : undefined;
    const point = pointOf(value);
    if (!point) {
      const where = childLocation ? `"${location}" (or, for a join child, "${childLocation}")` : `"${location}"`;
      throw new GeoIndexError('invalid', `document "${id}": the location field ${where} is ${value === undefined ? 'missing' : JSON.stringify(value)}: expected a geo_point in degrees, such as { "lat": 37.77, "lon": -122.42 }, "37.77,-122.42", [-122.42, 37.77] or a GeoJSON Point`);
    }
    await this.refresh();
    const copies = await this.findById(id);
    if (join) {
      const before = copies.map((h) => relationOf(h._source[join.field])).find((r) => r !== undefined);
      if (copies.length > 0 && (before ?? undefined) !== (relation ?? undefined)) throw new GeoIndexError('conflict', `id "${id}" holds a document of relation ${JSON.stringify(before ?? null)} in "${join.field}", not ${JSON.stringify(relation)}: choose another id`);
    }
    const children = isParent ? await this.findChildren(id, join!) : [];
    const owners = view.router.writeShards(point.lat, point.lng);
    const ownerNames = new Set(owners.map((o) => o.name));
    // One source per child: the copy on a current owner when there is one; its copy of the parent's location follows the parent.
    const childSources = new Map<string, Source>();
    for (const h of children) if (!childSources.has(h._id) || ownerNames.has(h._routing ?? '')) childSources.set(h._id, childLocation ? withFieldAt(h._source, childLocation, own) : h._source);
    const writes = [this.sender.entry(id, 'index', point, null, source), ...[...childSources].map(([cid, s]) => this.sender.entry(cid, 'index', point, null, s))];
    const oldRoutings = new Set([...copies, ...children].map((h) => h._routing ?? ''));
    const { now, finalOwners, stale, results } = await this.writeMoving('document', id, view, owners, point, writes, oldRoutings, () => [...childSources.keys()]);
    const parentId = !isParent && join ? parentOf(source[join.field]) : null;
    return { id, restaurantId: parentId ?? id, lat: point.lat, lng: point.lng, cell: cellOf(point.lat, point.lng), owners: finalOwners, read: now.router.readShard(point.lat, point.lng), epoch: writes[0].result.epoch, created: copies.length === 0, movedFrom: stale, dishes: childSources.size, results };
  }

  /**
   * deleteDocument deletes every copy of a document of the index. A join
   * parent with children is refused (GeoIndexError conflict) unless
   * `withChildren`, which deletes its children first. Throws GeoIndexError
   * not-found when the id holds nothing.
   */
  async deleteDocument(id: string, opts: { withChildren?: boolean } = {}): Promise<DeleteResult> {
    const view = await this.routing();
    const { location, childLocation } = fieldsOfMeta(view.meta);
    const join = view.join ?? null;
    await this.refresh();
    const copies = await this.findById(id);
    if (copies.length === 0) throw new GeoIndexError('not-found', `document "${id}" does not exist in index "${this.index}"`);
    const relation = join ? relationOf(copies[0]._source[join.field]) : null;
    const children = join && typeof relation === 'string' && (join.relations[relation]?.length ?? 0) > 0 ? await this.findChildren(id, join) : [];
    const childIds = [...new Set(children.map((h) => h._id))];
    if (childIds.length > 0 && !opts.withChildren) throw new GeoIndexError('conflict', `document "${id}" is a parent with ${childIds.length} children (${childIds.slice(0, 3).join(', ')}${childIds.length > 3 ? ', …' : ''}): delete them first, or pass { withChildren: true }`);
    const s = copies[0]._source;
    const own = fieldAt(s, location);
    const point = pointOf(own !== undefined ? own : childLocation ? fieldAt(s, childLocation) : undefined);
    const owners = point ? view.router.writeShards(point.lat, point.lng) : [];
    const routings = [...new Set([...owners.map((o) => o.name), ...[...copies, ...children].map((h) => h._routing ?? '')])].filter((x) => x !== '');
    const dels = [...childIds.map((c) => this.sender.entry(c, 'delete', null, routings, null)), this.sender.entry(id, 'delete', null, routings, null)];
    await this.sender.send(dels, true);
    if (dels.some((e) => !e.result.ok)) throw this.sender.failure(`document "${id}"${childIds.length ? ' and its children' : ''}`, dels, '');
    return { id, lat: point?.lat ?? null, lng: point?.lng ?? null, cell: point ? cellOf(point.lat, point.lng) : null, owners, read: point ? view.router.readShard(point.lat, point.lng) : null, epoch: view.epoch, routings, dishes: childIds.length, results: dels.map((e) => e.result) };
  }

  // -------------------------------------------------------------------------------------------
  // Reading back

  /**
   * locate asks the engine where the copy of `id` routed with `routing` is:
   * a search of the id on that routing with `explain` gives the hit's shard
   * and node. Null when there is no such copy (after a refresh).
   */
  async locate(id: string, routing: string): Promise<Located | null> {
    const res = await this.request<{ hits: { hits: { _shard?: string; _node?: string; _routing?: string }[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, { size: 5, explain: true, _source: false, query: { ids: { values: [id] } } }, { routing });
    const hit = res.body.hits.hits.find((h) => h._routing === routing);
    if (!hit) return null;
    const m = /\]\[(\d+)\]$/.exec(hit._shard ?? '');
    return { shard: m ? Number(m[1]) : -1, node: hit._node ?? null };
  }

  /** shardOfRouting asks the engine which shard a routing value goes to (`_search_shards`), and the node of its primary. */
  async shardOfRouting(routing: string): Promise<Located> {
    let groups;
    try {
      groups = await searchShardCopies(this.client, this.index, routing);
    } catch (e) {
      throw new GeoIndexError('failed', `GET /${encodeURIComponent(this.index)}/_search_shards on index "${this.index}" failed: ${(e as Error).message}`);
    }
    const group = groups[0] ?? [];
    const copy = group.find((c) => c.primary) ?? group[0];
    return { shard: copy?.shard ?? -1, node: copy?.node ?? null };
  }

  // -------------------------------------------------------------------------------------------
  // Internals

  /** @internal */
  protected async refresh(): Promise<void> {
    await this.request('POST', `/${encodeURIComponent(this.index)}/_refresh`);
  }

  /** @internal */
  protected async findById(id: string): Promise<Hit[]> {
    const res = await this.request<{ hits: { hits: Hit[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, { size: 20, query: { ids: { values: [id] } } });
    return res.body.hits.hits;
  }

  /**
   * @internal
   * writeMoving sends a parent's writes (it first, then its children, all
   * routed by `point`) and then deletes the copies left on routings the point
   * no longer owns: the children `staleChildren` names first, then the parent
   * (a child is never left without its parent on a shard). If a write fails,
   * the copies written to routings that held none before are deleted again
   * and it throws: the document stays as it was. `kind` names it in errors.
   */
  protected async writeMoving(kind: string, id: string, view: RoutingState, owners: ShardRef[], point: { lat: number; lng: number }, writes: Entry[], oldRoutings: ReadonlySet<string>, staleChildren: (stale: string[]) => string[]): Promise<{ now: RoutingState; finalOwners: ShardRef[]; stale: string[]; results: DocResult[] }> {
    await this.sender.send(writes, true);
    if (writes.some((e) => !e.result.ok)) {
      // Never half-written: take back the copies written to routings that held none before.
      const fresh = [...new Set(writes.flatMap((e) => e.result.items.filter((i) => i.status < 300 && !oldRoutings.has(i.routing)).map((i) => i.routing)))];
      const undo = fresh.length > 0 ? writes.map((e) => this.sender.entry(e.id, 'delete', null, fresh, null)).reverse() : [];
      if (undo.length > 0) await this.sender.send(undo, true).catch(() => {});
      throw this.sender.failure(`${kind} "${id}"`, writes, fresh.length > 0 ? `; the new copies on ${fresh.join(', ')} were deleted again, the ${kind} stays as it was` : '');
    }
    const now = this.cached!;
    const finalOwners = now.key === view.key ? owners : now.router.writeShards(point.lat, point.lng);
    const keep = new Set(finalOwners.map((o) => o.name));
    const stale = [...oldRoutings].filter((x) => x !== '' && !keep.has(x));
    const results = writes.map((e) => e.result);
    if (stale.length > 0) {
      const dels = staleChildren(stale).map((cid) => this.sender.entry(cid, 'delete', null, stale, null));
      dels.push(this.sender.entry(id, 'delete', null, stale, null));
      await this.sender.send(dels, true);
      results.push(...dels.map((e) => e.result));
      if (dels.some((e) => !e.result.ok)) throw this.sender.failure(`the old copies of ${kind} "${id}" on ${stale.join(', ')}`, dels, `; its new copies on ${[...keep].join(', ')} are whole: delete the old ones again (geoshard audit lists them)`);
    }
    return { now, finalOwners, stale, results };
  }

  /** Every copy of a join parent's children (by `parent_id` on each child relation), at most MAX_CHILD_COPIES. */
  private async findChildren(id: string, join: NonNullable<RoutingState['join']>): Promise<Hit[]> {
    const types = Object.values(join.relations).flat();
    const res = await this.request<{ hits: { total: { value: number }; hits: Hit[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, {
      size: MAX_CHILD_COPIES,
      track_total_hits: true,
      query: { bool: { should: types.map((type) => ({ parent_id: { type, id } })), minimum_should_match: 1 } },
    });
    if (res.body.hits.total.value > MAX_CHILD_COPIES) throw new GeoIndexError('failed', `document "${id}" has ${res.body.hits.total.value} child copies, more than the ${MAX_CHILD_COPIES} GeoIndexer moves in one operation`);
    return res.body.hits.hits;
  }

  /** @internal */
  protected async request<T = unknown>(method: string, path: string, body?: unknown, querystring: Record<string, string> = {}, ignore?: number[]): Promise<{ statusCode: number; body: T }> {
    try {
      const res = await this.client.transport.request({ method, path, querystring, ...(body !== undefined ? { body: body as Record<string, unknown> } : {}) }, ignore ? { ignore } : {});
      return { statusCode: res.statusCode ?? 0, body: res.body as T };
    } catch (e) {
      const status = statusOf(e);
      if (status === 404 && errorOf(e)?.type === 'index_not_found_exception') throw new GeoIndexError('no-index', `index "${this.index}" does not exist: ${MAKE_ONE}`);
      throw new GeoIndexError('failed', `${method} ${path} on index "${this.index}" failed: ${(e as Error).message}`);
    }
  }
}

const parentOf = (v: unknown): string | null => {
  const p = (v as { parent?: unknown } | null)?.parent;
  return typeof p === 'string' ? p : null;
};

/** The join field of an index's mapping (`GET <index>/_mapping`): its name and relations (parent → children). */
function joinOfMapping(body: unknown): RoutingState['join'] {
  const entries = Object.values((body ?? {}) as Record<string, { mappings?: { properties?: Record<string, { type?: string; relations?: Record<string, string | string[]> }> } }>);
  for (const [field, p] of Object.entries(entries[0]?.mappings?.properties ?? {})) {
    if (p.type === 'join') return { field, relations: Object.fromEntries(Object.entries(p.relations ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])) };
  }
  return null;
}
