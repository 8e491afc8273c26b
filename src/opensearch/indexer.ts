/**
 * GeoIndexer: the package's writer for a geoshard index, on the official
 * OpenSearch client (a peer dependency: only its types are imported here;
 * the caller passes its own `Client`).
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
 *   const indexer = new GeoIndexer(client, 'dishes');
 *   await indexer.putRestaurant({ id: 'r1', name: 'Blue Fig', lat: 37.77, lng: -122.42 });
 *   await indexer.putDish('r1', { id: 'r1-d0', name: 'Fig salad', priceCents: 1299 });
 *   await indexer.deleteRestaurant('r1');
 *
 * Writes of putRestaurant, putDish and deleteRestaurant use refresh=wait_for:
 * when they return, searches see them. A restaurant is found by search, so
 * putRestaurant and deleteRestaurant refresh the index first (a dish written
 * a moment ago by another writer is then found and moved or deleted with it).
 */
import type { Client } from '@opensearch-project/opensearch';
import type { ShardRef } from '../core/index.ts';
import { CHILD, JOIN_FIELD, MigrationError, readIndexMeta, RouterCache } from './meta.ts';
import { fetchMapping } from './indexMeta.ts';
import { cellOf, pointOf, fieldAt, withFieldAt, relationOf, dishSource, kindOf, restaurantOfSource, restaurantSource, withRestaurant, withShard, type DishFields, type RestaurantFields, type Source } from './documents.ts';
import { NdjsonBytes } from './bulk.ts';

/** How to make a geosharded index, for the errors that find none: any index, and the bundled sample. */
const MAKE_ONE = 'create it with createGeoIndex (geoshard/opensearch), or geoshard an existing index with "npx geoshard reindex --from INDEX --to INDEX-geo --boundaries FILE" (the bundled sample: "npx geoshard seed")';
import { DEFAULT_RETRY, GeoIndexError, type RetryPolicy, type GeoIndexerOptions, type RoutingState, type WriteItem, type DocResult, type BulkDoc, type BulkOptions, type BulkReport, type PutResult, type DeleteResult, type Located } from './indexerTypes.ts';
// The writer's options, results and error are its contract, indexerTypes.ts (exported with it by geoshard/opensearch).
export { DEFAULT_RETRY, GeoIndexError, type RetryPolicy, type GeoIndexerOptions, type RoutingState, type GeoIndexErrorCode, type WriteItem, type DocResult, type BulkDoc, type BulkOptions, type BulkReport, type PutResult, type DeleteResult, type Located } from './indexerTypes.ts';

interface Hit {
  _id: string;
  _routing?: string;
  _source: Source;
}

/** One document to send: routed by its point under the current state, or to explicit routings (deletes of found copies). */
interface Entry {
  id: string;
  action: 'index' | 'delete';
  point: { lat: number; lng: number } | null;
  routings: string[] | null;
  source: Source | null;
  result: DocResult;
}

interface Op {
  entry: Entry;
  routing: string;
}

/** A batch of `bulk` made ready while the batches before it are in flight: routed under `view`, serialised. */
interface Prepared {
  view: RoutingState;
  ops: Op[];
  body: Buffer;
}

/**
 * The fields of a `_bulk` response GeoIndexer reads (`filter_path`): per item its status,
 * result and error, by position. The rest (`_index`, `_id`, `_version`, `_shards`, `_seq_no`,
 * `_primary_term`) is most of the response, for the engine to write and the client to parse.
 */
const BULK_FILTER_PATH = 'errors,items.*.status,items.*.result,items.*.error';

type ItemError = { type?: string; reason?: string; caused_by?: ItemError };
type BulkItem = { _id?: string; status?: number; result?: string; error?: ItemError };

/**
 * causeOf returns the error that says what happened: a script's own exception
 * arrives as `script_exception: runtime error` with the message in
 * `caused_by` (the routing pipeline's refusals do), so for a script error the
 * innermost cause with a reason is taken; any other error says it best
 * itself (a mapping error names the field, its cause only the parser's token).
 */
function causeOf(e: ItemError): { type: string; reason: string } {
  if (e.type !== 'script_exception') return { type: e.type ?? '', reason: e.reason ?? '' };
  let cur = e;
  while (cur.caused_by && (cur.caused_by.reason || cur.caused_by.type)) cur = cur.caused_by;
  return { type: cur.type ?? e.type ?? '', reason: cur.reason ?? e.reason ?? '' };
}

/** Most dish copies putRestaurant and deleteRestaurant handle per restaurant (one search page). */
const MAX_DISH_COPIES = 10_000;

/** GeoIndexer writes restaurants and dishes into one geoshard index through the official client. */
export class GeoIndexer {
  private readonly ttlMs: number;
  private readonly retry: RetryPolicy;
  private readonly bulkTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly pipelineLagMs: number;
  /** The index name as a JSON string, for the action lines. */
  private readonly indexJson: string;
  private cached: (RoutingState & { readAt: number }) | null = null;
  private readonly routers = new RouterCache();
  private pending: Promise<RoutingState> | null = null;

  constructor(
    readonly client: Client,
    readonly index: string,
    opts: GeoIndexerOptions = {},
  ) {
    this.ttlMs = opts.metaTtlMs ?? 1000;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.bulkTimeoutMs = opts.bulkTimeoutMs ?? 120_000;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.pipelineLagMs = opts.pipelineLagMs ?? 5000;
    this.indexJson = JSON.stringify(index);
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
        out.push(this.entry(d.id, 'index', { lat: d.lat, lng: d.lng }, null, d.source));
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
      const ops = this.route(entries, view);
      return { entries, prepared: { view, ops, body: this.bulkBody(ops) } };
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
        const sent = this.send(batch, refresh, opts.pipeline, taken.prepared);
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
  // Restaurants and dishes

  /**
   * putRestaurant writes a restaurant (all its fields: what `r` leaves
   * undefined is left out, except place and state, kept from the existing
   * document) and rewrites its dishes with the new copy of it. When its new
   * location is on another shard, the restaurant and all its dishes are
   * written to the new owner(s) first and only then deleted from the old ones;
   * if the new copies cannot all be written, those written are deleted again
   * and the old ones stay (GeoIndexError). Throws GeoIndexError conflict when
   * `r.id` is a dish's id.
   */
  async putRestaurant(r: RestaurantFields): Promise<PutResult> {
    const view = await this.routing();
    await this.refresh();
    const copies = await this.findById(r.id);
    if (copies.some((h) => kindOf(h._source) !== 'restaurant')) throw new GeoIndexError('conflict', `id "${r.id}" is a dish's id, not a restaurant's: choose another id`);
    const old = copies.map((h) => restaurantOfSource(h._source)).find((x) => x !== null);
    const dishHits = await this.findDishes(r.id);
    const owners = view.router.writeShards(r.lat, r.lng);
    const ownerNames = new Set(owners.map((o) => o.name));
    // One source per dish: the copy on a current owner when there is one.
    const dishes = new Map<string, Source>();
    for (const h of dishHits) if (!dishes.has(h._id) || ownerNames.has(h._routing ?? '')) dishes.set(h._id, h._source);
    const fields: RestaurantFields = { ...r, place: r.place ?? old?.place, state: r.state ?? old?.state, cell: cellOf(r.lat, r.lng), dishCount: dishes.size };
    const point = { lat: r.lat, lng: r.lng };
    const writes = [this.entry(r.id, 'index', point, null, restaurantSource(fields, owners[0].name)), ...[...dishes].map(([id, s]) => this.entry(id, 'index', point, null, withRestaurant(s, fields)))];
    const oldRoutings = new Set([...copies, ...dishHits].map((h) => h._routing ?? ''));
    const staleDishes = (stale: string[]) => [...new Set(dishHits.filter((h) => stale.includes(h._routing ?? '')).map((h) => h._id))];
    const { now, finalOwners, stale, results } = await this.writeMoving('restaurant', r.id, view, owners, point, writes, oldRoutings, staleDishes);
    const epoch = writes[0].result.epoch;
    return { id: r.id, restaurantId: r.id, lat: r.lat, lng: r.lng, cell: fields.cell!, owners: finalOwners, read: now.router.readShard(r.lat, r.lng), epoch, created: copies.length === 0, movedFrom: stale, dishes: dishes.size, results };
  }

  /**
   * putDish writes a dish of an existing restaurant (all its fields), routed
   * by the restaurant's location, carrying its copy of the restaurant. Throws
   * GeoIndexError not-found when the restaurant does not exist, conflict when
   * the id is a restaurant's or another restaurant's dish's.
   */
  async putDish(restaurantId: string, d: DishFields): Promise<PutResult> {
    const view = await this.routing();
    let rHits = (await this.findById(restaurantId)).filter((h) => kindOf(h._source) === 'restaurant');
    if (rHits.length === 0) {
      // Perhaps written a moment ago and not yet searchable.
      await this.refresh();
      rHits = (await this.findById(restaurantId)).filter((h) => kindOf(h._source) === 'restaurant');
    }
    const rHit = rHits.find((h) => h._routing === this.readOwnerOf(view, h)) ?? rHits[0];
    const r = rHit ? restaurantOfSource(rHit._source) : null;
    if (!r) throw new GeoIndexError('not-found', `restaurant "${restaurantId}" does not exist in index "${this.index}": put the restaurant first`);
    const existing = await this.findById(d.id);
    for (const h of existing) {
      if (kindOf(h._source) !== 'dish') throw new GeoIndexError('conflict', `id "${d.id}" is a restaurant's id, not a dish's: choose another dish id`);
      if (h._source.restaurant_id !== restaurantId) throw new GeoIndexError('conflict', `dish "${d.id}" belongs to restaurant "${String(h._source.restaurant_id)}", not "${restaurantId}": choose another dish id`);
    }
    const created = existing.length === 0;
    const point = { lat: r.lat, lng: r.lng };
    const writes = [this.entry(d.id, 'index', point, null, dishSource(d, r))];
    // A new dish: its restaurant counts it.
    if (created) writes.unshift(this.entry(r.id, 'index', point, null, restaurantSource({ ...r, dishCount: (r.dishCount ?? 0) + 1 }, '')));
    await this.send(writes, true);
    if (writes.some((e) => !e.result.ok)) throw this.failure(`dish "${d.id}"`, writes, '');
    const now = this.cached!;
    const owners = now.router.writeShards(r.lat, r.lng);
    const keep = new Set(owners.map((o) => o.name));
    const results = writes.map((e) => e.result);
    const stale = [...new Set(existing.map((h) => h._routing ?? ''))].filter((x) => x !== '' && !keep.has(x));
    if (stale.length > 0) {
      const del = this.entry(d.id, 'delete', null, stale, null);
      await this.send([del], true);
      results.push(del.result);
      if (!del.result.ok) throw this.failure(`the old copies of dish "${d.id}"`, [del], '');
    }
    return { id: d.id, restaurantId, lat: r.lat, lng: r.lng, cell: cellOf(r.lat, r.lng), owners, read: now.router.readShard(r.lat, r.lng), epoch: writes[writes.length - 1].result.epoch, created, movedFrom: stale, dishes: 0, results };
  }

  /**
   * deleteRestaurant deletes a restaurant and all its dishes from every shard
   * that holds a copy and every owner of its location. Throws GeoIndexError
   * not-found when neither the restaurant nor any dish of it exists.
   */
  async deleteRestaurant(id: string): Promise<DeleteResult> {
    const view = await this.routing();
    await this.refresh();
    const copies = (await this.findById(id)).filter((h) => kindOf(h._source) === 'restaurant');
    const dishHits = await this.findDishes(id);
    if (copies.length === 0 && dishHits.length === 0) throw new GeoIndexError('not-found', `restaurant "${id}" does not exist in index "${this.index}"`);
    const r = copies.map((h) => restaurantOfSource(h._source)).find((x) => x !== null) ?? null;
    const owners = r ? view.router.writeShards(r.lat, r.lng) : [];
    const routings = [...new Set([...owners.map((o) => o.name), ...[...copies, ...dishHits].map((h) => h._routing ?? '')])].filter((x) => x !== '');
    const dishIds = [...new Set(dishHits.map((h) => h._id))];
    const dels = [...dishIds.map((d) => this.entry(d, 'delete', null, routings, null)), this.entry(id, 'delete', null, routings, null)];
    await this.send(dels, true);
    if (dels.some((e) => !e.result.ok)) throw this.failure(`restaurant "${id}" and its dishes`, dels, '');
    return {
      id,
      lat: r?.lat ?? null,
      lng: r?.lng ?? null,
      cell: r ? cellOf(r.lat, r.lng) : null,
      owners,
      read: r ? view.router.readShard(r.lat, r.lng) : null,
      epoch: view.epoch,
      routings,
      dishes: dishIds.length,
      results: dels.map((e) => e.result),
    };
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
    const { location, childLocation } = fieldsOf(view);
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
    const writes = [this.entry(id, 'index', point, null, source), ...[...childSources].map(([cid, s]) => this.entry(cid, 'index', point, null, s))];
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
    const { location, childLocation } = fieldsOf(view);
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
    const dels = [...childIds.map((c) => this.entry(c, 'delete', null, routings, null)), this.entry(id, 'delete', null, routings, null)];
    await this.send(dels, true);
    if (dels.some((e) => !e.result.ok)) throw this.failure(`document "${id}"${childIds.length ? ' and its children' : ''}`, dels, '');
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
    const res = await this.request<{ shards: { shard: number; primary: boolean; node: string | null }[][] }>('GET', `/${encodeURIComponent(this.index)}/_search_shards`, undefined, { routing });
    const group = res.body.shards[0] ?? [];
    const copy = group.find((c) => c.primary) ?? group[0];
    return { shard: copy?.shard ?? -1, node: copy?.node ?? null };
  }

  // -------------------------------------------------------------------------------------------
  // Internals

  private entry(id: string, action: 'index' | 'delete', point: Entry['point'], routings: string[] | null, source: Source | null): Entry {
    return { id, action, point, routings, source, result: { id, kind: source ? kindOf(source) : null, action, ok: false, items: [], attempts: 0, epoch: null } };
  }

  private readOwnerOf(view: RoutingState, h: Hit): string | null {
    const r = restaurantOfSource(h._source);
    return r ? view.router.readShard(r.lat, r.lng).name : null;
  }

  private route(entries: Entry[], view: RoutingState): Op[] {
    const ops: Op[] = [];
    // Dishes follow their restaurant with the same point: route each run of one point once.
    let last: { lat: number; lng: number; names: string[] } | null = null;
    for (const e of entries) {
      e.result.epoch = view.epoch;
      let routings = e.routings;
      if (!routings) {
        const p = e.point!;
        if (!last || last.lat !== p.lat || last.lng !== p.lng) last = { lat: p.lat, lng: p.lng, names: view.router.writeShards(p.lat, p.lng).map((s) => s.name) };
        routings = last.names;
      }
      for (const routing of routings) ops.push({ entry: e, routing });
    }
    return ops;
  }

  /**
   * send writes entries to their owners, retrying 429 and write blocks with backoff and
   * re-routing on a new epoch; fills each entry's result. `prepared` (bulk's batch made ready
   * ahead) is sent as it is when it was routed under the current state.
   */
  private async send(entries: Entry[], refresh: boolean, pipeline?: string, prepared?: Prepared): Promise<void> {
    let view = await this.routing();
    let ops: Op[];
    let body: Buffer | undefined;
    if (prepared && prepared.view.key === view.key) {
      ops = prepared.ops;
      body = prepared.body;
    } else ops = this.route(entries, view);
    const t0 = performance.now();
    for (let attempt = 1; ops.length > 0; attempt++) {
      let items: BulkItem[];
      try {
        items = await this.bulkRequest(ops, refresh, pipeline, body);
        body = undefined;
      } catch (e) {
        const status = statusOf(e);
        if (!isRetryable(status, errorOf(e))) throw new GeoIndexError('failed', `bulk write to index "${this.index}" failed: ${(e as Error).message}`, entries.map((x) => x.result));
        items = ops.map(() => ({ status, error: errorOf(e) ?? { type: String(status), reason: (e as Error).message } }));
      }
      const retry: Op[] = [];
      let refused = false;
      ops.forEach((op, i) => {
        const it = items[i] ?? { status: 0, error: { type: 'missing', reason: 'the bulk response has no item for this operation' } };
        const item: WriteItem = { routing: op.routing, status: it.status ?? 0, result: it.result ?? null, error: it.error ? causeOf(it.error) : null };
        const r = op.entry.result;
        r.attempts = attempt;
        // The last answer per routing, in the order last sent.
        const k = r.items.findIndex((x) => x.routing === op.routing);
        if (k >= 0) r.items.splice(k, 1);
        r.items.push(item);
        if (isRetryable(item.status, item.error)) retry.push(op);
        else if (isRoutingRefusal(item)) {
          refused = true;
          retry.push(op);
        }
      });
      for (const e of entries) e.result.ok = e.result.items.length > 0 && e.result.items.every((i) => (i.status >= 200 && i.status < 300) || (e.action === 'delete' && i.status === 404));
      if (retry.length === 0) return;
      if (performance.now() - t0 >= this.retry.budgetMs) return;
      if (!refused) await this.sleep(this.backoff(attempt));
      const next = await this.routing(refused);
      if (next.key !== view.key) {
        // A new epoch: the owners may have changed; send the whole document again under the new state.
        view = next;
        const again = [...new Set(retry.map((o) => o.entry))];
        for (const e of again) e.result.items = e.routings ? e.result.items : [];
        ops = this.route(again, view);
      } else if (refused && performance.now() - t0 < Math.min(this.retry.budgetMs, this.pipelineLagMs)) {
        // Refused for its routing under the state `_meta` still says: the routing pipeline follows
        // `_meta` a moment later (geoshard migrate writes one, then the other), so try again shortly.
        await this.sleep(this.backoff(attempt));
        ops = retry;
      } else if (refused) {
        // Still refused under the state this process holds: nothing to retry with.
        ops = retry.filter((o) => !isRoutingRefusal(o.entry.result.items.find((i) => i.routing === o.routing)!));
        if (ops.length > 0) await this.sleep(this.backoff(attempt));
      } else ops = retry;
    }
  }

  private backoff(attempt: number): number {
    const ms = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempt - 1));
    return ms * (0.5 + Math.random() / 2);
  }

  /**
   * bulkBody returns the NDJSON of ops as UTF-8 bytes: an action line per copy, then its source
   * (a restaurant's `shard` set to the copy's routing), into NdjsonBytes (bulk.ts). Not bulk.ts's
   * bulkBody, because this is the writer's hot path: the action line is a template around the
   * index name serialised once (indexJson), not an object serialised per document.
   */
  private bulkBody(ops: Op[]): Buffer {
    const out = new NdjsonBytes();
    for (const { entry, routing } of ops) {
      out.line(`{"${entry.action}":{"_index":${this.indexJson},"_id":${JSON.stringify(entry.id)},"routing":${JSON.stringify(routing)}}}`);
      if (entry.action === 'index') out.line(JSON.stringify(withShard(entry.source!, routing)));
    }
    return out.bytes();
  }

  private async bulkRequest(ops: Op[], refresh: boolean, pipeline?: string, body = this.bulkBody(ops)): Promise<BulkItem[]> {
    const querystring: Record<string, string> = { filter_path: BULK_FILTER_PATH };
    if (refresh) querystring.refresh = 'wait_for';
    if (pipeline !== undefined) querystring.pipeline = pipeline;
    // As bytes (bulkBody): the batch is encoded once, and its bytes live outside the JS heap.
    const res = await this.client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: body, querystring }, { requestTimeout: this.bulkTimeoutMs });
    const b = res.body as { items?: Record<string, BulkItem>[] };
    return (b.items ?? []).map((x) => Object.values(x)[0]);
  }

  private failure(what: string, entries: Entry[], tail: string): GeoIndexError {
    const bad = entries.filter((e) => !e.result.ok);
    const items = bad.flatMap((e) => e.result.items.filter((i) => !(i.status >= 200 && i.status < 300) && !(e.action === 'delete' && i.status === 404)).map((i) => ({ e, i })));
    const busy = items.length > 0 && items.every(({ i }) => isRetryable(i.status, i.error));
    const shown = items.slice(0, 3).map(({ e, i }) => `${e.id} on ${i.routing}: ${i.status} ${i.error?.type ?? ''}${i.error?.reason ? ` (${i.error.reason})` : ''}`).join('; ');
    const why = busy ? `the cluster refused the write for ${Math.round(this.retry.budgetMs / 1000)} s (429 or a write block: a migration's cutover window or an overloaded node)` : 'the cluster refused the write';
    return new GeoIndexError(busy ? 'busy' : 'failed', `${what} was not written: ${why}: ${shown}${tail}`, entries.map((e) => e.result), busy ? this.retry.maxMs : undefined);
  }

  private async refresh(): Promise<void> {
    await this.request('POST', `/${encodeURIComponent(this.index)}/_refresh`);
  }

  private async findById(id: string): Promise<Hit[]> {
    const res = await this.request<{ hits: { hits: Hit[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, { size: 20, query: { ids: { values: [id] } } });
    return res.body.hits.hits;
  }

  private async findDishes(restaurantId: string): Promise<Hit[]> {
    const res = await this.request<{ hits: { total: { value: number }; hits: Hit[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, {
      size: MAX_DISH_COPIES,
      track_total_hits: true,
      query: { bool: { filter: [{ term: { [JOIN_FIELD]: CHILD } }, { term: { restaurant_id: restaurantId } }] } },
    });
    if (res.body.hits.total.value > MAX_DISH_COPIES) throw new GeoIndexError('failed', `restaurant "${restaurantId}" has ${res.body.hits.total.value} dish copies, more than the ${MAX_DISH_COPIES} GeoIndexer moves in one operation`);
    return res.body.hits.hits;
  }

  /**
   * writeMoving sends a parent's writes (it first, then its children, all
   * routed by `point`) and then deletes the copies left on routings the point
   * no longer owns: the children `staleChildren` names first, then the parent
   * (a child is never left without its parent on a shard). If a write fails,
   * the copies written to routings that held none before are deleted again
   * and it throws: the document stays as it was. `kind` names it in errors.
   */
  private async writeMoving(kind: string, id: string, view: RoutingState, owners: ShardRef[], point: { lat: number; lng: number }, writes: Entry[], oldRoutings: ReadonlySet<string>, staleChildren: (stale: string[]) => string[]): Promise<{ now: RoutingState; finalOwners: ShardRef[]; stale: string[]; results: DocResult[] }> {
    await this.send(writes, true);
    if (writes.some((e) => !e.result.ok)) {
      // Never half-written: take back the copies written to routings that held none before.
      const fresh = [...new Set(writes.flatMap((e) => e.result.items.filter((i) => i.status < 300 && !oldRoutings.has(i.routing)).map((i) => i.routing)))];
      const undo = fresh.length > 0 ? writes.map((e) => this.entry(e.id, 'delete', null, fresh, null)).reverse() : [];
      if (undo.length > 0) await this.send(undo, true).catch(() => {});
      throw this.failure(`${kind} "${id}"`, writes, fresh.length > 0 ? `; the new copies on ${fresh.join(', ')} were deleted again, the ${kind} stays as it was` : '');
    }
    const now = this.cached!;
    const finalOwners = now.key === view.key ? owners : now.router.writeShards(point.lat, point.lng);
    const keep = new Set(finalOwners.map((o) => o.name));
    const stale = [...oldRoutings].filter((x) => x !== '' && !keep.has(x));
    const results = writes.map((e) => e.result);
    if (stale.length > 0) {
      const dels = staleChildren(stale).map((cid) => this.entry(cid, 'delete', null, stale, null));
      dels.push(this.entry(id, 'delete', null, stale, null));
      await this.send(dels, true);
      results.push(...dels.map((e) => e.result));
      if (dels.some((e) => !e.result.ok)) throw this.failure(`the old copies of ${kind} "${id}" on ${stale.join(', ')}`, dels, `; its new copies on ${[...keep].join(', ')} are whole: delete the old ones again (geoshard audit lists them)`);
    }
    return { now, finalOwners, stale, results };
  }

  /** Every copy of a join parent's children (by `parent_id` on each child relation), at most MAX_DISH_COPIES. */
  private async findChildren(id: string, join: NonNullable<RoutingState['join']>): Promise<Hit[]> {
    const types = Object.values(join.relations).flat();
    const res = await this.request<{ hits: { total: { value: number }; hits: Hit[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, {
      size: MAX_DISH_COPIES,
      track_total_hits: true,
      query: { bool: { should: types.map((type) => ({ parent_id: { type, id } })), minimum_should_match: 1 } },
    });
    if (res.body.hits.total.value > MAX_DISH_COPIES) throw new GeoIndexError('failed', `document "${id}" has ${res.body.hits.total.value} child copies, more than the ${MAX_DISH_COPIES} GeoIndexer moves in one operation`);
    return res.body.hits.hits;
  }

  private async request<T = unknown>(method: string, path: string, body?: unknown, querystring: Record<string, string> = {}, ignore?: number[]): Promise<{ statusCode: number; body: T }> {
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

/** The fields the index routes by: `_meta.fields` (an index geosharded by `geoshard reindex`), else the sample's. */
function fieldsOf(view: RoutingState): { location: string; childLocation: string | null } {
  const f = view.meta.fields;
  return f ? { location: f.location, childLocation: f.childLocation } : { location: 'location', childLocation: 'restaurant_location' };
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

/** The HTTP status of an official client's ResponseError (0 when nothing answered). */
function statusOf(e: unknown): number {
  return (e as { meta?: { statusCode?: number } })?.meta?.statusCode ?? 0;
}

function errorOf(e: unknown): { type: string; reason: string } | null {
  const err = (e as { meta?: { body?: { error?: { type?: string; reason?: string } } } })?.meta?.body?.error;
  return err && typeof err === 'object' ? { type: err.type ?? '', reason: err.reason ?? '' } : null;
}

/** isRetryable: 429 (back-pressure) or a 403 cluster block (a write block, e.g. a migration's cutover window). */
function isRetryable(status: number, error: { type?: string } | null | undefined): boolean {
  return status === 429 || (status === 403 && error?.type === 'cluster_block_exception');
}

/** isRoutingRefusal: the cluster (its routing pipeline) refused a copy for its routing value: the writer's state is out of date. */
function isRoutingRefusal(i: WriteItem): boolean {
  return i.status === 400 && !!i.error && (i.error.type === 'fail_processor_exception' || /routing/i.test(i.error.reason)) && i.error.type !== 'routing_missing_exception';
}

