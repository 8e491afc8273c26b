/**
 * The audit of a live index (`geoshard audit`): read every document of every
 * shard and report each one the routing state says is misplaced, using the
 * pure checks of core/audit.ts.
 *
 * Each shard is read through its own point-in-time (created with
 * `preference=_shards:N`, so it holds that one shard), in `_doc` order with
 * search_after, `pageSize` documents a page, `concurrency` shards at a time:
 * first its restaurants, then everything else, so a dish is checked against
 * its shard's complete set of restaurants. Only doc values are fetched (no
 * stored field: documents are named by their `id`, which geoshard writes
 * equal to `_id`; the few without one are read with their `_id`), and the
 * documents whose `_routing` is not the shard's name are found by a query;
 * a location read from doc values is quantized,
 * so its cell is taken only when the whole quantization box lies in one cell
 * (Locator.quantized) and the few that straddle a cell edge are read again
 * from `_source`.
 */
import {
  Locator,
  addProblems,
  checkDish,
  checkDocument,
  checkRestaurant,
  checkRouting,
  latLngOf,
  newTally,
  type AuditProblem,
  type AuditTally,
  type FoundDish,
  type FoundRestaurant,
  type Located,
} from '../core/audit.ts';
import type { BoundaryFile } from '../core/index.ts';
import type { OpenSearchClient } from './opensearch.ts';
import { JOIN_FIELD, PARENT } from './indexSpec.ts';
import { readMigration, routerOf } from './migration.ts';

/** AuditError is a refusal with a message for the operator (a missing index, one without geoshard `_meta`). */
export class AuditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditError';
  }
}

/** Progress of a running audit. */
export interface AuditProgress {
  /** Documents read so far, and in the index when the audit started (`_count`). */
  done: number;
  total: number;
  shardsDone: number;
  shards: number;
  elapsedMs: number;
  /** Documents per second so far. */
  docsPerSecond: number;
  /** Seconds left at that rate (null before the first page). */
  etaSeconds: number | null;
}

/** Options of auditIndex. */
export interface AuditOptions {
  /** Documents per page, in [1, 10000]; default 10,000. */
  pageSize?: number;
  /** Shards read at once, >= 1; default 3. */
  concurrency?: number;
  /** Problems kept in the report (all are counted), >= 0; default 10,000. */
  limit?: number;
  /** Called after every page. */
  progress?: (p: AuditProgress) => void;
  /** Used when the index's `_meta` does not hold its boundary file (seeded before it did) and this file's hash is `_meta.hash`. */
  fallbackFile?: BoundaryFile;
  /** Point-in-time keep-alive between pages; default "5m". */
  keepAlive?: string;
  /**
   * A flat index (no join, e.g. one `geoshard reindex` adopted): every document is checked by
   * this geo_point field (its shard an owner of the field's cell, its `_routing` that shard's
   * name). Absent: the sample's shape (restaurants by `location`, dishes by `restaurant_location`
   * beside their join parent).
   */
  flat?: { location: string };
}

/** What one shard held. */
export interface ShardAudit {
  shard: number;
  /** The boundary file's name of the shard. */
  name: string;
  restaurants: number;
  /** Every other document (dishes, documents with no join relation, and every document of a flat index). */
  dishes: number;
}

/** The report of auditIndex. */
export interface AuditReport {
  index: string;
  /** The boundary file's hash and version (`_meta`). */
  hash: string;
  version: number;
  /** The migration's epoch, or null when the index is settled. */
  migrationEpoch: number | null;
  shards: ShardAudit[];
  documents: { restaurants: number; dishes: number; total: number };
  /** Documents whose location was read again from `_source` (their doc value was too close to a cell edge). */
  sourceReads: number;
  /** Problems (see AuditTally); the index is clean when `documents` is 0. */
  tally: AuditTally;
  clean: boolean;
  elapsedMs: number;
  docsPerSecond: number;
}

interface Hit {
  _id?: string;
  _routing?: string;
  fields?: Record<string, unknown[]>;
  _source?: Record<string, unknown>;
  sort: unknown[];
}

const first = (h: Hit, f: string): unknown => h.fields?.[f]?.[0];

/** getPath reads a dotted field path (`geo.point`) from a `_source`: the whole key first, then by parts. */
function getPath(source: Record<string, unknown> | undefined, path: string): unknown {
  if (!source) return undefined;
  if (path in source) return source[path];
  let v: unknown = source;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * auditIndex reads every shard of `index` and checks every document against
 * the router of the index's migration state (the settled file's when there
 * is none). Throws AuditError when the index does not exist or has no
 * geoshard `_meta` (or its state cannot be read), OpenSearchError when a
 * request fails.
 */
export async function auditIndex(client: OpenSearchClient, index: string, opts: AuditOptions = {}): Promise<AuditReport> {
  const pageSize = opts.pageSize ?? 10_000;
  const concurrency = opts.concurrency ?? 3;
  const limit = opts.limit ?? 10_000;
  const keepAlive = opts.keepAlive ?? '5m';
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 10_000) throw new RangeError(`auditIndex: pageSize ${pageSize} is invalid: expected an integer in [1, 10000]`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`auditIndex: concurrency ${concurrency} is invalid: expected an integer >= 1`);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`auditIndex: limit ${limit} is invalid: expected an integer >= 0`);

  let mig;
  try {
    mig = await readMigration(client, index);
  } catch (e) {
    if ((e as Error).name === 'MigrationError') throw new AuditError((e as Error).message);
    throw e;
  }
  if (!mig) throw new AuditError(`index "${index}" does not exist on ${client.url}: nothing to audit (seed it with "geoshard seed", or name another with --index)`);
  let base = mig.base;
  if (!base && opts.fallbackFile?.hash === mig.meta.hash) base = opts.fallbackFile;
  if (!base) throw new AuditError(`index "${index}" _meta does not hold its boundary file ${mig.meta.hash.slice(0, 12)} (it was seeded by an older geoshard): seed it again`);
  const router = routerOf(base, mig.state);
  const locator = () => new Locator(router);
  const path = `/${encodeURIComponent(index)}`;

  const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`${path}/_settings`);
  const numberOfShards = Number(Object.values(settings)[0]?.settings.index.number_of_shards);
  const total = (await client.request<{ count: number }>('POST', `${path}/_count`, { body: { query: { match_all: {} } } })).body.count;
  const nameOf = new Map(router.shards.map((s) => [s.shard, s.name]));

  const tally = newTally();
  /** Restaurant id → the shards it was found on. */
  const restaurantShards = new Map<string, number[]>();
  /** Dishes whose restaurant was not on their shard: checked once every shard is read. */
  const deferred: { d: FoundDish; at: Located | null }[] = [];
  const shardAudits: ShardAudit[] = [];
  let done = 0;
  let shardsDone = 0;
  let sourceReads = 0;
  const t0 = performance.now();
  const report = () => {
    const elapsedMs = performance.now() - t0;
    const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
    opts.progress?.({ done, total, shardsDone, shards: numberOfShards, elapsedMs, docsPerSecond: rate, etaSeconds: done > 0 && rate > 0 ? Math.max(0, total - done) / rate : null });
  };
  const seen = new Set<string>();
  const add = (ps: AuditProblem[]) => addProblems(tally, ps, limit, seen);

  /**
   * Pages through one shard's point-in-time with a query, calling `each` on
   * every page. Without `stored`, no stored field is loaded (no `_id`, no
   * `_routing`): the documents are named by their `id` doc value, and the
   * fetch skips decompressing `_source`, which is most of its cost.
   */
  const scan = async (pit: { id: string }, query: Record<string, unknown>, docvalues: string[], stored: boolean, each: (hits: Hit[]) => Promise<void>) => {
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await client.request<{ pit_id?: string; hits?: { hits?: Hit[] } }>('POST', '/_search', {
        query: { filter_path: 'pit_id,hits.hits._id,hits.hits._routing,hits.hits.fields,hits.hits.sort' },
        body: {
          size: pageSize,
          query,
          pit: { id: pit.id, keep_alive: keepAlive },
          sort: [{ _doc: 'asc' }],
          track_total_hits: false,
          _source: false,
          ...(stored ? {} : { stored_fields: '_none_' }),
          docvalue_fields: docvalues,
          ...(after ? { search_after: after } : {}),
        },
        timeoutMs: 120_000,
      });
      if (body.pit_id) pit.id = body.pit_id;
      const hits = body.hits?.hits ?? [];
      if (hits.length > 0) await each(hits);
      if (hits.length < pageSize) return;
      after = hits[hits.length - 1].sort;
    }
  };

  /** Reads the exact points of documents whose doc value straddles a cell edge, from `_source`. */
  const exactPoints = async (pit: { id: string }, ids: string[], field: string, byId = false): Promise<Map<string, unknown>> => {
    const out = new Map<string, unknown>();
    for (let i = 0; i < ids.length; i += pageSize) {
      const chunk = ids.slice(i, i + pageSize);
      // The sample's documents are named by their `id` field; a flat index's by `_id`.
      const query = byId ? { ids: { values: chunk } } : { terms: { id: chunk } };
      const { body } = await client.request<{ hits: { hits: Hit[] } }>('POST', '/_search', {
        body: { size: chunk.length, query, pit: { id: pit.id, keep_alive: keepAlive }, _source: { includes: ['id', field] }, track_total_hits: false },
        timeoutMs: 120_000,
      });
      for (const h of body.hits.hits) out.set(byId ? String(h._id) : String(h._source?.id), getPath(h._source, field));
    }
    sourceReads += ids.length;
    return out;
  };

  const hasId = { exists: { field: 'id' } };
  const isRestaurant = { term: { [JOIN_FIELD]: PARENT } };
  const auditShard = async (shard: number) => {
    const loc = locator();
    const name = nameOf.get(shard);
    const created = await client.request<{ pit_id: string }>('POST', `${path}/_search/point_in_time`, { query: { keep_alive: keepAlive, preference: `_shards:${shard}` } });
    const pit = { id: created.body.pit_id };
    const counts: ShardAudit = { shard, name: name ?? '?', restaurants: 0, dishes: 0 };
    /** A document's name: its `id` doc value, or its `_id` when it has no `id` (those are read with stored fields). */
    const idOf = (h: Hit) => (h._id as string | undefined) ?? String(first(h, 'id'));
    const restaurants = async (hits: Hit[]) => {
      const unsure: FoundRestaurant[] = [];
      for (const h of hits) {
        const d: FoundRestaurant = { id: idOf(h), shard, cell: first(h, 'cell'), shardField: first(h, 'shard') };
        const known = restaurantShards.get(d.id);
        if (known) known.push(shard);
        else restaurantShards.set(d.id, [shard]);
        const p = latLngOf(first(h, 'location'));
        const at = p ? loc.quantized(p.lat, p.lng) : null;
        if (p && !at) unsure.push(d);
        else add(checkRestaurant(router, d, at));
      }
      if (unsure.length > 0) {
        const points = await exactPoints(pit, unsure.map((d) => d.id), 'location');
        for (const d of unsure) {
          const p = latLngOf(points.get(d.id));
          add(checkRestaurant(router, d, p ? loc.exact(p.lat, p.lng) : null));
        }
      }
      counts.restaurants += hits.length;
      done += hits.length;
      report();
    };
    const dishes = async (hits: Hit[]) => {
      const unsure: FoundDish[] = [];
      const check = (d: FoundDish, at: Located | null) => {
        const where = typeof d.restaurantId === 'string' ? restaurantShards.get(d.restaurantId) : undefined;
        // A restaurant on another shard may not have been read yet: decide once every shard is.
        if (typeof d.restaurantId === 'string' && d.parent === d.restaurantId && !where?.includes(shard)) deferred.push({ d, at });
        else add(checkDish(router, d, at, where ?? []));
      };
      for (const h of hits) {
        const d: FoundDish = { id: idOf(h), shard, restaurantId: first(h, 'restaurant_id'), parent: first(h, `${JOIN_FIELD}#${PARENT}`) ?? null };
        const p = latLngOf(first(h, 'restaurant_location'));
        const at = p ? loc.quantized(p.lat, p.lng) : null;
        if (p && !at) unsure.push(d);
        else check(d, at);
      }
      if (unsure.length > 0) {
        const points = await exactPoints(pit, unsure.map((d) => d.id), 'restaurant_location');
        for (const d of unsure) {
          const p = latLngOf(points.get(d.id));
          check(d, p ? loc.exact(p.lat, p.lng) : null);
        }
      }
      counts.dishes += hits.length;
      done += hits.length;
      report();
    };
    const flatDocs = async (field: string, hits: Hit[]) => {
      const unsure: string[] = [];
      for (const h of hits) {
        const id = String(h._id);
        const p = latLngOf(first(h, field));
        const at = p ? loc.quantized(p.lat, p.lng) : null;
        if (p && !at) unsure.push(id);
        else add(checkDocument(router, { id, shard }, at, field));
      }
      if (unsure.length > 0) {
        const points = await exactPoints(pit, unsure, field, true);
        for (const id of unsure) {
          const p = latLngOf(points.get(id));
          add(checkDocument(router, { id, shard }, p ? loc.exact(p.lat, p.lng) : null, field));
        }
      }
      counts.dishes += hits.length;
      done += hits.length;
      report();
    };
    if (opts.flat) {
      const field = opts.flat.location;
      try {
        await scan(pit, { match_all: {} }, [field], true, (hits) => flatDocs(field, hits));
        await scan(pit, { bool: { must_not: [{ term: { _routing: name ?? '' } }] } }, [], true, async (hits) => {
          for (const h of hits) add(checkRouting(router, String(h._id), 'document', shard, h._routing ?? null));
        });
      } finally {
        await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit.id] }, okStatuses: [404] }).catch(() => undefined);
      }
      shardAudits.push(counts);
      shardsDone++;
      report();
      return;
    }
    try {
      const rFields = ['id', 'location', 'cell', 'shard'];
      const dFields = ['id', 'restaurant_location', 'restaurant_id', `${JOIN_FIELD}#${PARENT}`];
      // Restaurants first, so each dish meets its shard's complete set of restaurants.
      await scan(pit, { bool: { filter: [isRestaurant, hasId] } }, rFields, false, restaurants);
      await scan(pit, { bool: { filter: [isRestaurant], must_not: [hasId] } }, rFields, true, restaurants);
      await scan(pit, { bool: { filter: [hasId], must_not: [isRestaurant] } }, dFields, false, dishes);
      await scan(pit, { bool: { must_not: [isRestaurant, hasId] } }, dFields, true, dishes);
      // `_routing` has no doc values: find the documents routed with another value than this shard's name with a query.
      await scan(pit, { bool: { must_not: [{ term: { _routing: name ?? '' } }] } }, ['id', JOIN_FIELD], true, async (hits) => {
        for (const h of hits) add(checkRouting(router, idOf(h), first(h, JOIN_FIELD) === PARENT ? 'restaurant' : 'dish', shard, h._routing ?? null));
      });
    } finally {
      await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit.id] }, okStatuses: [404] }).catch(() => undefined);
    }
    shardAudits.push(counts);
    shardsDone++;
    report();
  };

  const queue = Array.from({ length: numberOfShards }, (_, i) => i);
  await Promise.all(
    Array.from({ length: Math.min(concurrency, numberOfShards) }, async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) await auditShard(s);
    }),
  );
  for (const { d, at } of deferred) add(checkDish(router, d, at, restaurantShards.get(d.restaurantId as string) ?? []));

  shardAudits.sort((a, b) => a.shard - b.shard);
  const restaurants = shardAudits.reduce((a, s) => a + s.restaurants, 0);
  const dishes = shardAudits.reduce((a, s) => a + s.dishes, 0);
  const elapsedMs = performance.now() - t0;
  return {
    index,
    hash: mig.meta.hash,
    version: mig.meta.version,
    migrationEpoch: mig.state?.epoch ?? null,
    shards: shardAudits,
    documents: { restaurants, dishes, total: restaurants + dishes },
    sourceReads,
    tally,
    clean: tally.documents === 0,
    elapsedMs,
    docsPerSecond: elapsedMs > 0 ? ((restaurants + dishes) * 1000) / elapsedMs : 0,
  };
}
