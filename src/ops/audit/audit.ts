/**
 * The audit of a live index (`geoshard audit`): every document of every
 * shard checked against the routing state, each document on the wrong shard
 * (or otherwise wrong) reported, using the pure checks of core/audit.ts
 * (AuditBook: a bounded tally, nothing kept per document).
 *
 * Each shard is read through its own point-in-time (created with
 * `preference=_shards:N`, so it holds that one shard), in `_doc` order with
 * search_after, `pageSize` documents a page, `concurrency` shards at a time,
 * in disjoint scans, so each document is met once and its problems are
 * added at once:
 *   - restaurants with an `id` and `_routing` = the shard's name (the bulk:
 *     only doc values are fetched, no stored field, no `_source`);
 *   - the other restaurants (their `_routing` and `_id` fetched: the
 *     wrong-routing check);
 *   - dishes whose join parent is on the shard (a has_parent query: the join
 *     resolves within a shard), split the same way by id and routing;
 *   - dishes with no parent on the shard: for each page of those the
 *     restaurants are looked up on every shard (a terms query per shard), so
 *     the report says where the restaurant is. No map of restaurants is kept.
 * A flat index (opts.flat) is read in two scans: `_routing` right, and not.
 *
 * With engine "cluster" (auditEngine.ts), the bulk scans carry a Painless
 * script query that the shard evaluates, so only the documents that may be
 * wrong come back; the counts of documents come from the point-in-time
 * (track_total_hits). With engine "client" every document comes back and
 * the client checks each.
 *
 * A location read from doc values is quantized, so its cell is taken only
 * when the whole quantization box lies in one cell (Locator.quantized; the
 * script's s2QuantizedOrdinal) and the few that straddle a cell edge are read
 * again from `_source`.
 *
 * A dish's restaurant is found by its `_id` (has_parent) or its `id` (the
 * lookup): geoshard writes the two equal.
 */
import { AuditBook, type AuditTally, type FoundDish, type FoundDocument } from '../../core/audit.ts';
import type { BoundaryFile } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { ownerTable, suspectQuery } from './auditEngine.ts';
import { readMigration } from '../../opensearch/indexMeta.ts';
import { routerOf } from '../../opensearch/meta.ts';
import { JOIN_FIELD, PARENT } from '../../opensearch/sampleIndex.ts';
import { fieldAt } from '../../opensearch/documentFields.ts';

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
  /**
   * Where documents are checked: "client" (default) reads every document and checks it here;
   * "cluster" has each shard run a Painless filter (auditEngine.ts) so only the documents that
   * may be wrong come back. The two report the same problems.
   */
  engine?: AuditEngine;
}

/** Where an audit checks documents (AuditOptions.engine). */
export type AuditEngine = 'client' | 'cluster';

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
  /** Where documents were checked. */
  engine: AuditEngine;
  /** Documents the shards sent to the client (every document with engine "client"). */
  returned: number;
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
  const path = `/${encodeURIComponent(index)}`;

  const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`${path}/_settings`);
  const numberOfShards = Number(Object.values(settings)[0]?.settings.index.number_of_shards);
  const total = (await client.request<{ count: number }>('POST', `${path}/_count`, { body: { query: { match_all: {} } } })).body.count;
  const nameOf = new Map(router.shards.map((s) => [s.shard, s.name]));

  const engine = opts.engine ?? 'client';
  if (engine !== 'client' && engine !== 'cluster') throw new RangeError(`auditIndex: engine ${JSON.stringify(engine)} is invalid: expected "client" or "cluster"`);
  const table = engine === 'cluster' ? ownerTable(router) : null;
  const book = new AuditBook(router, limit);
  const shardAudits: ShardAudit[] = [];
  let done = 0;
  let returned = 0;
  let shardsDone = 0;
  let sourceReads = 0;
  const t0 = performance.now();
  const report = () => {
    const elapsedMs = performance.now() - t0;
    const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
    opts.progress?.({ done, total, shardsDone, shards: numberOfShards, elapsedMs, docsPerSecond: rate, etaSeconds: done > 0 && rate > 0 ? Math.max(0, total - done) / rate : null });
  };

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
      returned += hits.length;
      if (hits.length > 0) await each(hits);
      if (hits.length < pageSize) return;
      after = hits[hits.length - 1].sort;
    }
  };
  /** The number of documents of a shard's point-in-time a query matches. */
  const countIn = async (pit: { id: string }, query: Record<string, unknown>) => {
    const { body } = await client.request<{ pit_id?: string; hits: { total: { value: number } } }>('POST', '/_search', {
      query: { filter_path: 'pit_id,hits.total' },
      body: { size: 0, query, pit: { id: pit.id, keep_alive: keepAlive }, track_total_hits: true },
      timeoutMs: 120_000,
    });
    if (body.pit_id) pit.id = body.pit_id;
    return body.hits.total.value;
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
      for (const h of body.hits.hits) out.set(byId ? String(h._id) : String(h._source?.id ?? h._id), fieldAt(h._source, field));
    }
    sourceReads += ids.length;
    return out;
  };

  /**
   * The shards each of `ids` (restaurants' `id`, or `_id` for one without) is found on, asked of
   * every shard: for a page of dishes with no restaurant on their own shard.
   */
  const restaurantShardsOf = async (ids: string[]): Promise<Map<string, number[]>> => {
    const where = new Map<string, number[]>(ids.map((id) => [id, []]));
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const query = { bool: { filter: [isRestaurant], should: [{ terms: { id: chunk } }, { bool: { must_not: [hasId], filter: [{ ids: { values: chunk } }] } }], minimum_should_match: 1 } };
      for (let k = 0; k < numberOfShards; k++) {
        const { body } = await client.request<{ hits?: { hits?: Hit[] } }>('POST', `${path}/_search`, {
          query: { preference: `_shards:${k}`, filter_path: 'hits.hits._id,hits.hits.fields' },
          body: { size: Math.min(10_000, chunk.length * 2), query, _source: false, docvalue_fields: ['id'], track_total_hits: false },
          timeoutMs: 120_000,
        });
        for (const h of body.hits?.hits ?? []) {
          const shards = where.get(String(first(h, 'id') ?? h._id));
          if (shards && !shards.includes(k)) shards.push(k);
        }
      }
    }
    return where;
  };

  const hasId = { exists: { field: 'id' } };
  const isRestaurant = { term: { [JOIN_FIELD]: PARENT } };
  const hasParent = { has_parent: { parent_type: PARENT, query: { match_all: {} } } };
  const auditShard = async (shard: number) => {
    const name = nameOf.get(shard) ?? '';
    const routed = { term: { _routing: name } };
    const created = await client.request<{ pit_id: string }>('POST', `${path}/_search/point_in_time`, { query: { keep_alive: keepAlive, preference: `_shards:${shard}` } });
    const pit = { id: created.body.pit_id };
    const counts: ShardAudit = { shard, name: nameOf.get(shard) ?? '?', restaurants: 0, dishes: 0 };
    /** A document's name: its `_id` when stored fields were read, else its `id` doc value (geoshard writes the two equal). */
    const idOf = (h: Hit) => (h._id as string | undefined) ?? String(first(h, 'id'));
    /** `_routing` when the scan fetched stored fields (a document whose routing may be wrong), else undefined: not checked. */
    const routingOf = (h: Hit, stored: boolean) => (stored ? (h._routing ?? null) : undefined);
    const restaurants = (stored: boolean) => async (hits: Hit[]) => {
      const unsure: { d: Parameters<AuditBook['restaurant']>[0] }[] = [];
      for (const h of hits) {
        const d = { id: idOf(h), shard, routing: routingOf(h, stored), cell: first(h, 'cell'), shardField: first(h, 'shard') };
        if (!book.restaurant(d, first(h, 'location'))) unsure.push({ d });
      }
      if (unsure.length > 0) {
        const points = await exactPoints(pit, unsure.map((u) => u.d.id), 'location');
        for (const { d } of unsure) book.restaurant(d, points.get(d.id), true);
      }
    };
    /** Dishes; `apart`: their restaurant is not on this shard (no join parent here): ask every shard where it is. */
    const dishes = (stored: boolean, apart: boolean) => async (hits: Hit[]) => {
      const found = hits.map((h): FoundDish => ({ id: idOf(h), shard, routing: routingOf(h, stored), restaurantId: first(h, 'restaurant_id'), parent: first(h, `${JOIN_FIELD}#${PARENT}`) ?? null }));
      const where = apart ? await restaurantShardsOf([...new Set(found.map((d) => d.restaurantId).filter((r): r is string => typeof r === 'string' && r !== ''))]) : null;
      const shardsOf = (d: FoundDish) => (where ? (typeof d.restaurantId === 'string' ? (where.get(d.restaurantId) ?? []) : []) : [shard]);
      const unsure: FoundDish[] = [];
      found.forEach((d, i) => {
        if (!book.dish(d, first(hits[i], 'restaurant_location'), shardsOf(d))) unsure.push(d);
      });
      if (unsure.length > 0) {
        const points = await exactPoints(pit, unsure.map((d) => d.id), 'restaurant_location');
        for (const d of unsure) book.dish(d, points.get(d.id), shardsOf(d), true);
      }
    };
    const flatDocs = (field: string, stored: boolean) => async (hits: Hit[]) => {
      const unsure: FoundDocument[] = [];
      for (const h of hits) {
        const d = { id: String(h._id), shard, routing: routingOf(h, stored) };
        if (!book.document(d, first(h, field), field)) unsure.push(d);
      }
      if (unsure.length > 0) {
        const points = await exactPoints(pit, unsure.map((d) => d.id), field, true);
        for (const d of unsure) book.document(d, points.get(d.id), field, true);
      }
    };
    /** Scans the bulk of a kind (routing right): every document, or with the cluster's filter only the suspects, counted from the point-in-time. */
    const bulk = async (kind: 'restaurant' | 'dish' | 'document', base: Record<string, unknown>[], docvalues: string[], stored: boolean, each: (hits: Hit[]) => Promise<void>) => {
      if (!table) {
        let n = 0;
        await scan(pit, { bool: { filter: base } }, docvalues, stored, async (hits) => {
          n += hits.length;
          await each(hits);
        });
        return n;
      }
      const n = await countIn(pit, { bool: { filter: base } });
      const extra = kind === 'dish' ? { parentField: `${JOIN_FIELD}#${PARENT}` } : kind === 'document' ? { location: opts.flat!.location } : {};
      await scan(pit, { bool: { filter: [...base, suspectQuery(kind, table, shard, name, extra)] } }, docvalues, stored, each);
      return n;
    };
    /** Scans documents that may be wrong anyway (routing not the shard's name, no parent here): every one comes back, in both engines. */
    const rest = async (query: Record<string, unknown>, docvalues: string[], each: (hits: Hit[]) => Promise<void>) => {
      let n = 0;
      await scan(pit, query, docvalues, true, async (hits) => {
        n += hits.length;
        await each(hits);
      });
      return n;
    };
    const step = (n: number, kind: 'restaurants' | 'dishes') => {
      counts[kind] += n;
      done += n;
      report();
    };
    try {
      if (opts.flat) {
        const field = opts.flat.location;
        step(await bulk('document', [routed], [field], true, flatDocs(field, false)), 'dishes');
        step(await rest({ bool: { must_not: [routed] } }, [field], flatDocs(field, true)), 'dishes');
      } else {
        const rFields = ['id', 'location', 'cell', 'shard'];
        const dFields = ['id', 'restaurant_location', 'restaurant_id', `${JOIN_FIELD}#${PARENT}`];
        step(await bulk('restaurant', [isRestaurant, hasId, routed], rFields, false, restaurants(false)), 'restaurants');
        step(await rest({ bool: { filter: [isRestaurant], must_not: [{ bool: { filter: [hasId, routed] } }] } }, rFields, restaurants(true)), 'restaurants');
        step(await bulk('dish', [hasParent, hasId, routed], dFields, false, dishes(false, false)), 'dishes');
        step(await rest({ bool: { filter: [hasParent], must_not: [{ bool: { filter: [hasId, routed] } }] } }, dFields, dishes(true, false)), 'dishes');
        // Everything else that is no restaurant: dishes with no parent on this shard, and documents with no join relation.
        step(await rest({ bool: { must_not: [isRestaurant, hasParent] } }, dFields, dishes(true, true)), 'dishes');
      }
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
  const tally: AuditTally = book.tally;

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
    engine,
    returned,
    tally,
    clean: tally.documents === 0,
    elapsedMs,
    docsPerSecond: elapsedMs > 0 ? ((restaurants + dishes) * 1000) / elapsedMs : 0,
  };
}
