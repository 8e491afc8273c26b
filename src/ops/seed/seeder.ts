/**
 * Seeding: create the index for a boundary file and bulk-load the
 * deterministic sample into it, every document routed by its restaurant's
 * shard name. Used by `geoshard seed`, the live tests and the live benchmark.
 *
 * Safe to re-run: ids are fixed, so a second run overwrites. Refuses to write
 * into an index made for another boundary file (the drift the article warns
 * about) or holding another sample, unless asked to recreate it. Bulk errors
 * stop the load and are reported item by item.
 */
import { bulkBody, bulkErrors, BULK_ERRORS_FILTER, LOAD_SETTINGS, RESTORED_SETTINGS, type BulkResponse } from '../../opensearch/bulk.ts';
import type { Router } from '../../core/index.ts';
import { ADMIN_TIMEOUT_MS, type OpenSearchClient } from '../../cluster/client.ts';
import { indexMeta } from '../../opensearch/indexSpec.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
// fetchIndexMeta's home is indexMeta.ts; re-exported for the modules that still import it from here.
import { sampleBulkDocs, sampleOf } from '../../data/sample.ts';
import type { Restaurant } from '../../data/generator.ts';
import { GeoIndexer, GeoIndexError } from '../../opensearch/indexer.ts';
import { tryInstallPipeline } from '../routing/pipelineInstall.ts';
import type { PipelineIdentity } from '../routing/pipelineInstall.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { fingerprintOf } from '../../opensearch/fingerprint.ts';
import { DOC_SHAPE, docShapeOf, indexBody } from '../../opensearch/sampleIndex.ts';
import type { SampleMeta } from '../../opensearch/meta.ts';

/** What every sample load takes: the client, the index's replicas, whether to start afresh, the bulk's size and what to say. */
export interface LoadOptions {
  client: OpenSearchClient;
  /** Replicas per shard (number_of_replicas), an integer >= 0; default 0. Applied to an existing index too. */
  replicas?: number;
  /** Delete and create the index even if it exists. */
  recreate?: boolean;
  /** Documents per bulk request (default 2,000). */
  batchDocs?: number;
  /** Bulk requests in flight (default 2). */
  concurrency?: number;
  /** Called after each bulk request with documents written so far and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Called with one-line notes (index created, recreated, ...). */
  onNote?: (line: string) => void;
}

/** Options of seedIndex. */
export interface SeedOptions extends LoadOptions {
  router: Router;
  /** Restaurants in the sample, >= 1. */
  restaurants: number;
  /** Dishes per restaurant at most, >= 0. */
  dishesPerRestaurant: number;
  /** Install the routing ingest pipeline after the load (default true; see src/ops/routing/pipelineInstall.ts). */
  pipeline?: boolean;
}

/** What a seed did. */
export interface SeedResult {
  index: string;
  created: boolean;
  restaurantDocs: number;
  dishDocs: number;
  /** Documents the index holds after the final refresh. */
  indexDocs: number;
  ms: number;
  /**
   * The routing pipeline installed after the load (its id and identity), why it could not be
   * (the cluster has no Painless script processor: the seed itself succeeded), or null when not asked.
   */
  pipeline: { id: string; identity: PipelineIdentity } | { error: string } | null;
}

/** SeedError is a seeding failure with a user-facing message (refusal, bulk errors). */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

/** One document of a plain load: its id and source, written with no routing (the engine hashes the id). */
export interface PlainDoc {
  id: string;
  source: Record<string, unknown>;
}

/** Options of plainBulk. */
export interface PlainBulkOptions {
  /** Documents per bulk request (default 2,000, as seed). */
  batchDocs?: number;
  /** Bulk requests in flight (default 2, as seed). */
  concurrency?: number;
  /** Called after each bulk request with the documents written so far. */
  onProgress?: (done: number) => void;
}

/**
 * plainBulk indexes `docs` into `index` with plain `_bulk` requests and no routing (each
 * document on the shard the engine's hash of its id picks: an index as a team has it before it
 * is geosharded), `batchDocs` a request, `concurrency` in flight, the next body serialised
 * while they are (the bench:bulk "bulk" path's shape). Returns the documents written; throws
 * SeedError listing the first failed items after the batch that had them (the load stops).
 */
export async function plainBulk(client: OpenSearchClient, index: string, docs: Iterable<PlainDoc>, opts: PlainBulkOptions = {}): Promise<number> {
  const batchDocs = opts.batchDocs ?? 2000;
  const concurrency = opts.concurrency ?? 2;
  const it = docs[Symbol.iterator]();
  const take = (): { body: Buffer; n: number } | null => {
    const batch: PlainDoc[] = [];
    while (batch.length < batchDocs) {
      const d = it.next();
      if (d.done) break;
      batch.push(d.value);
    }
    return batch.length === 0 ? null : { body: bulkBody(batch.map((d) => ({ op: 'index', index, id: d.id, source: d.source }))), n: batch.length };
  };
  let done = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const batch = take();
      if (!batch) return;
      const res = await client.request<BulkResponse>('POST', '/_bulk', { body: batch.body, query: { filter_path: BULK_ERRORS_FILTER }, timeoutMs: 120_000 });
      const errs = bulkErrors(res.body);
      if (errs.length > 0) {
        stop = true;
        const shown = errs.slice(0, 5).map((e) => `  ${e.id}: ${e.status} ${e.type ?? ''}${e.reason ? `: ${e.reason}` : ''}`);
        throw new SeedError(`bulk requests into "${index}" failed for ${errs.length} of ${batch.n} documents of a batch (load stopped after ${done} documents written):\n${shown.join('\n')}${errs.length > 5 ? `\n  ... and ${errs.length - 5} more` : ''}`);
      }
      done += batch.n;
      opts.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done;
}

/**
 * createBody returns the body of seed's `PUT /<index>`: indexBody with the load settings
 * (one change of the cluster state instead of a creation and a settings update).
 */
export function createBody(file: Parameters<typeof indexBody>[0], sample: SampleMeta, replicas: number): Record<string, unknown> {
  const body = indexBody(file, sample, replicas) as { settings: { index: Record<string, unknown> } };
  return { ...body, settings: { ...body.settings, index: { ...body.settings.index, ...LOAD_SETTINGS } } };
}

/**
 * waitForPrimaries waits (OpenSearchClient.admin's deadline) until every primary of a new index
 * has started, when its creation answered before they had (`shards_acknowledged: false`: a busy
 * cluster). Throws SeedError when they still have not.
 */
async function waitForPrimaries(client: OpenSearchClient, index: string): Promise<void> {
  const res = await client.request<{ status?: string; timed_out?: boolean }>('GET', `/_cluster/health/${encodeURIComponent(index)}`, { query: { wait_for_status: 'yellow', timeout: '120s' }, timeoutMs: ADMIN_TIMEOUT_MS });
  if (res.body.timed_out || res.body.status === 'red') {
    throw new SeedError(`index "${index}" was created, but its primary shards did not start within 120 s (health ${res.body.status ?? 'unknown'}): the cluster is overloaded or lacks room; see GET /_cluster/allocation/explain, then run seed again with --recreate`);
  }
}

/**
 * whileInFlight runs the synchronous `work` while `pending` (a request just sent) is in flight,
 * so the client's work and the cluster's overlap, and returns both results. Rejects as `pending` does.
 */
async function whileInFlight<T, U>(pending: Promise<T>, work: () => U): Promise<[T, U]> {
  // Handled here: a rejection while `work` runs must not count as unhandled; it is rethrown below.
  pending.catch(() => {});
  // Let the request leave first: its socket write is queued for a later turn of the event loop.
  await new Promise((r) => setTimeout(r, 5));
  const u = work();
  return [await pending, u];
}

/**
 * seedIndex creates (or reuses) the index named in the router's boundary file
 * and loads the sample. Throws SeedError when it refuses or a bulk request
 * reports errors, OpenSearchError when a request fails.
 */
export async function seedIndex(opts: SeedOptions): Promise<SeedResult> {
  const t0 = performance.now();
  const { client, router } = opts;
  const file = router.file;
  const index = file.index;
  const path = `/${encodeURIComponent(index)}`;
  const note = opts.onNote ?? (() => {});
  const sampleSpec = { restaurants: opts.restaurants, dishesPerRestaurant: opts.dishesPerRestaurant, docShape: DOC_SHAPE };
  const replicas = opts.replicas ?? 0;
  if (!Number.isInteger(replicas) || replicas < 0) throw new SeedError(`replicas ${replicas} is invalid: expected an integer >= 0`);

  if (router.moves.length > 0) {
    throw new SeedError(
      `the boundary file has ${router.moves.length} move(s) in progress (its "migration" field): geoshard seed writes only settled boundary files, ` +
        `each document to the one shard that owns its cell. Seed with the file before or after the migration.`,
    );
  }
  const existing = await fetchIndexMeta(client, index);
  let created = false;
  if (existing !== undefined && opts.recreate) {
    await client.admin('DELETE', path);
    note(`deleted index "${index}" (--recreate)`);
  } else if (existing === null) {
    throw new SeedError(`index "${index}" exists but has no geoshard _meta hash: it was not made by geoshard seed for a boundary file. Refusing to write into it; pass --recreate to delete and recreate it.`);
  } else if (existing) {
    if (existing.hash !== file.hash) {
      throw new SeedError(
        `index "${index}" was made for boundary file ${existing.hash} (version ${existing.version}), but the loaded file is ${file.hash} (version ${file.version}): ` +
          `writing would put documents on shards the index's other documents do not use. Refusing; pass --recreate to delete the index and reindex with the loaded file.`,
      );
    }
    const s = existing.sample;
    if (s && docShapeOf(s) !== DOC_SHAPE) {
      throw new SeedError(
        `index "${index}" holds documents of shape ${docShapeOf(s)}, written before dishes carried their restaurant (shape ${DOC_SHAPE}); its mapping refuses the new fields. Pass --recreate to delete the index and seed it again.`,
      );
    }
    if (s && (s.restaurants !== sampleSpec.restaurants || s.dishesPerRestaurant !== sampleSpec.dishesPerRestaurant)) {
      throw new SeedError(
        `index "${index}" holds a sample of ${s.restaurants} restaurants with at most ${s.dishesPerRestaurant} dishes each; this seed asks for ${sampleSpec.restaurants} and ${sampleSpec.dishesPerRestaurant}. ` +
          `Seeding over it would leave the index holding neither sample; pass --recreate, or the same --restaurants and --dishes-per-restaurant.`,
      );
    }
  }
  // The sample is made (the dataset, ~1 s on first use) while the cluster creates the index.
  let restaurants: Restaurant[];
  if (existing === undefined || opts.recreate) {
    let res: { body: { shards_acknowledged?: boolean } };
    [res, restaurants] = await whileInFlight(client.admin<{ shards_acknowledged?: boolean }>('PUT', path, { body: createBody(file, { ...sampleSpec, complete: false }, replicas) }), () => sampleOf(opts.restaurants));
    if (res.body.shards_acknowledged === false) await waitForPrimaries(client, index);
    created = true;
    note(`created index "${index}": ${file.numberOfShards} shards, ${replicas} replica(s), boundary file ${file.hash.slice(0, 12)} version ${file.version}`);
  } else {
    [, restaurants] = await whileInFlight(client.admin('PUT', `${path}/_settings`, { body: { index: { number_of_replicas: replicas, ...LOAD_SETTINGS } } }), () => sampleOf(opts.restaurants));
    note(`index "${index}" exists for this boundary file: overwriting documents by id, ${replicas} replica(s)`);
  }
  const cap = opts.dishesPerRestaurant;
  const total = restaurants.reduce((n, r) => n + 1 + Math.min(r.dishCount, cap), 0);
  const batchDocs = opts.batchDocs ?? 2000;
  const concurrency = opts.concurrency ?? 2;

  // The load settings came with the creation (or the settings update above); restored at the end,
  // even when the load fails, so the index is searchable and durable.
  const restore = () => client.admin('PUT', `${path}/_settings`, { body: { index: RESTORED_SETTINGS } });
  let restored = false;
  let restaurantDocs = 0;
  let dishDocs = 0;
  let count = 0;
  let pipeline: SeedResult['pipeline'] = null;
  try {
    // Record what the names are routed with on this engine (read back from the cluster, not assumed).
    const routing = await fingerprintOf(client, index);
    await writeMeta(client, index, indexMeta(file, { ...sampleSpec, complete: false }, routing));
    note(`routing: ${routing.engine} ${routing.version}, ${routing.formula}, routing_num_shards ${routing.routingNumShards}${file.routingNumShards !== undefined ? ' (number_of_routing_shards from the boundary file)' : " (the engine's default)"}`);
    // One write path: the package's writer routes every document from the index's _meta (the file just recorded).
    const indexer = new GeoIndexer(client.os, index, { metaTtlMs: 5000 });
    const docs = sampleBulkDocs(restaurants, cap, (dishes) => {
      restaurantDocs += 1;
      dishDocs += dishes;
    });
    let report;
    try {
      // pipeline=_none: every document is routed here from the _meta just written; an index's
      // routing pipeline (a re-seed keeps it) would only check each routing again, at a cost.
      report = await indexer.bulk(docs, { batchDocs, concurrency, keep: 'failures', stopOnError: true, pipeline: '_none', onProgress: (done) => opts.onProgress?.(done, total) });
    } catch (e) {
      throw e instanceof GeoIndexError ? new SeedError(e.message) : e;
    }
    if (report.failed > 0) {
      const errs = report.results.flatMap((r) => r.items.filter((i) => i.error).map((i) => ({ id: r.id, ...i })));
      const shown = errs.slice(0, 10).map((e) => `  ${e.id} (routing ${e.routing}): ${e.status} ${e.error?.type ?? ''}${e.error?.reason ? `: ${e.error.reason}` : ''}`);
      throw new SeedError(
        `bulk requests failed for ${report.failed} of ${report.docs} documents (load stopped after ${report.written} documents written):\n${shown.join('\n')}${errs.length > 10 ? `\n  ... and ${errs.length - 10} more` : ''}`,
      );
    }
    await client.request('POST', `${path}/_refresh`, { timeoutMs: 120_000 });
    count = (await client.get<{ count: number }>(`${path}/_count`, { timeoutMs: 60_000 })).count;
    await writeMeta(client, index, indexMeta(file, { ...sampleSpec, complete: true, restaurantDocs, dishDocs }, routing));
    // Installed after the load, not before: the load routes every document itself. The load
    // settings are restored in the same settings update as the pipeline is set.
    if (opts.pipeline ?? true) {
      pipeline = await tryInstallPipeline(client, index, file, null, RESTORED_SETTINGS);
      restored = !('error' in pipeline);
      note('error' in pipeline ? `warning: routing pipeline not installed: ${pipeline.error}` : `routing pipeline ${pipeline.id} installed as the index's default_pipeline: writes that send no routing are routed by the cluster`);
    }
    if (!restored) {
      await restore();
      restored = true;
    }
  } finally {
    if (!restored) await restore().catch(() => {});
  }
  return { index, created, restaurantDocs, dishDocs, indexDocs: count, ms: performance.now() - t0, pipeline };
}
