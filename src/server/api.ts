/**
 * The live API: three GET endpoints and one POST (measure), no pass-through of OpenSearch requests,
 * and the write endpoints, off unless the server runs with GEOSHARD_WRITES=1.
 *
 *   GET /api/search?lat=..&lng=..&radius=15mi[&q=..][&diet=..][&allergen=..][&cuisine=..][&size=..][&compare=1][&profile=1]
 *
 * The index is described by its config (GEOSHARD_CONFIG, src/opensearch/indexConfig.ts; default
 * the bundled sample's): the sample is searched for dishes (search.ts buildSearchBody, with the
 * diet, allergen and cuisine filters), any other index for its documents by the config's fields
 * (buildDocSearchBody: geo_distance on its location, q on its name field, its facets; the join
 * only when the config names one).
 *   GET /api/status
 *   POST /api/measure  { lat, lng, radius, diet?, allergen?, cuisine?, q?, size?, runs?, concurrency? }  (measure.ts)
 *   GET /api/documents/:id   (where a document is, against where the boundary file puts it)
 *   PUT    /api/restaurants/:id                 { name, lat, lng, cuisines?, price_level? }
 *   PUT    /api/restaurants/:id/dishes/:dishId  { name, cuisine?, price_cents?, calories?, diets?, allergens? }
 *   DELETE /api/restaurants/:id                 (the restaurant with all its dishes)
 *
 * Writes go through the package's writer (geoshard/opensearch GeoIndexer), are
 * answered only to loopback peers and refused (403) when the request's Origin
 * is not the page's own; the bodies, their checks and the answer are in wire.ts.
 *
 * Every search response says its status explicitly:
 *   complete     200  every asked shard answered in time
 *   partial      200  some shard failed or timed out: results may miss documents
 *   invalid      400  a parameter is wrong (error.param names it)
 *   drift        409  the index was written with another boundary file (both hashes named), or the
 *                     engine routes some shard name to another shard (drift.status routing-mismatch),
 *                     or the index's routing ingest pipeline was made for another boundary file or
 *                     routing table than its _meta says (drift.status pipeline-mismatch)
 *   unavailable  503  OpenSearch does not answer, or the index does not exist
 *   error        502  OpenSearch refused the query; 500 the server's boundary file is unusable
 *   forbidden    403  a write while writes are off, from a foreign Origin or a peer not on loopback
 *   not-found    404  a dish of an unknown restaurant, a delete of an unknown id
 *   busy         429  the cluster refused the write for a while (a migration's cutover window), or a measurement
 *                     is already running: retry after Retry-After
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, parseBoundaryFile, MAX_RADIUS_KM, type BoundaryFile } from '../core/index.ts';
import { documentAnswer } from './documents.ts';
import { OpenSearchClient, OpenSearchError, configFromEnv } from './opensearch.ts';
import { DriftGuard, driftState, type DriftState } from './drift.ts';
import { getIndexMeta } from './seeder.ts';
import { DOC_SHAPE, docShapeOf, JOIN_FIELD, PARENT, CHILD, type IndexMeta } from './indexSpec.ts';
import { parseSearchParams, parseMeasureRequest, describeQuery, ParamError, MAX_SIZE, DEFAULT_SIZE, MIN_RADIUS_KM, VOCABULARY, routingKeyOf, type StatusAnswer, type MeasureAnswer } from './wire.ts';
import { measurePlans, readProcessors } from './measure.ts';
import { runSearch, planRouted, planAll, compareParts, isSampleShape, DEFAULT_SEARCH_TIMEOUT_MS, type AnySearchPart, type RunOptions } from './search.ts';
import { SAMPLE_CONFIG, parseIndexConfig, type IndexConfig } from '../opensearch/indexConfig.ts';
import { readLayout, isHealthy, withLeftNodes, placementOf, placementSentence, type Layout } from './placement.ts';
import { checkRouting, type RoutingCheck } from './fingerprint.ts';
import type { ShardCopy, SearchPlacement, AskedShard, SearchParams } from './wire.ts';
import { MigrationRouting, migrationOfMeta, migrationStatusOf } from './migration.ts';
import { GeoIndexer, GeoIndexError, type DeleteResult, type PutResult } from '../opensearch/indexer.ts';
import type { ShardRef } from '../core/index.ts';
import { MAX_WRITE_BODY_BYTES, parseDishBody, parseRestaurantBody, parseWriteId, type WriteAck, type WriteAnswer } from './wire.ts';
import { PipelineGuard, pipelineStatusOf, readPipeline, type InstalledPipeline, type PipelineStatus } from './pipeline.ts';
import { env } from './env.ts';

/** The project's root folder. */
const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The repository's bundled boundary file. */
export const DEFAULT_BOUNDARIES_PATH = resolve(PROJECT_ROOT, 'data', 'boundaries.json');

/**
 * publicName names a boundary file for API answers without revealing the
 * server's disk: its path relative to the project ("data/boundaries.json"),
 * or only its file name when it lies outside the project.
 */
export function publicName(path: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/');
  const rel = relative(PROJECT_ROOT, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : basename(path);
}

/** Options of the API. */
export interface ApiOptions {
  /** Boundary file path (default $GEOSHARD_BOUNDARIES or data/boundaries.json); ignored when `file` is given. */
  boundariesPath?: string;
  /** An already loaded boundary file. */
  file?: BoundaryFile;
  /** The index config path (geoshard.config.json; default $GEOSHARD_CONFIG, else the sample's config for the file's index); ignored when `config` is given. */
  configPath?: string;
  /** An already loaded index config; its index must be the boundary file's. */
  config?: IndexConfig;
  /** The OpenSearch client (default: from the environment, see configFromEnv). */
  client?: OpenSearchClient;
  /** Deadline OpenSearch gets per search (ms, default $GEOSHARD_SEARCH_TIMEOUT_MS or 5000). */
  searchTimeoutMs?: number;
  /** How long a drift check may be reused (ms, default 0: every search checks). */
  driftTtlMs?: number;
  /** Answer the write endpoints (default: $GEOSHARD_WRITES is "1"). */
  writes?: boolean;
  /** How long (ms) a write refused with 429 or a write block is retried before the API answers 429 (default 5000). */
  writeRetryMs?: number;
  /** How long the read of the index's routing pipeline may be reused (ms, default 1000; 0: every search reads it). */
  pipelineTtlMs?: number;
  /** How long a search keeps reading a mismatching pipeline again before refusing (ms, default 1000). */
  pipelineSettleMs?: number;
}

/** One write request as the API sees it (handle builds it from the HTTP request). */
export interface WriteRequest {
  method: string;
  /** The URL path, still percent-encoded. */
  path: string;
  /** The peer's address (socket.remoteAddress). */
  peer: string | undefined;
  /** The Origin and Host headers, when sent. */
  origin: string | undefined;
  host: string | undefined;
  /** The body as text; null when it was larger than MAX_WRITE_BODY_BYTES. */
  body: string | null;
}

/** An API answer before it is written: HTTP status and JSON body. */
export interface ApiResult<B extends object = Record<string, unknown>> {
  httpStatus: number;
  body: B;
  /** Extra response headers (Allow, Retry-After). */
  headers?: Record<string, string>;
}

/** The server's routing state: a router, or why there is none. */
type Loaded = { router: Router; guard: DriftGuard; path: string; config: IndexConfig } | { error: string; path: string };

/** LiveApi answers the two endpoints for one boundary file and one cluster. */
export class LiveApi {
  readonly client: OpenSearchClient;
  readonly searchTimeoutMs: number;
  private loaded: Loaded;
  /** The last shard table in which every copy was started: where each shard's primary "belongs" (see placementOf). */
  private healthy: ShardCopy[] | null = null;
  /** Every node seen since the API started (id → name), so a node that left is still listed, down. */
  private readonly seenNodes = new Map<string, string>();
  /** The routing check per index hash: asked once (at start, or on the first search), not on every search. */
  private readonly routingChecks = new Map<string, RoutingCheck>();
  /** The router of the index's migration state, rebuilt when its epoch changes. */
  private readonly migrations = new MigrationRouting();
  /** Whether the write endpoints answer. */
  readonly writesEnabled: boolean;
  /** The writer of the index (made on the first write). */
  private indexer: GeoIndexer | null = null;
  /** The routing pipeline installed on the index, compared with its _meta on every search. */
  private readonly pipelines: PipelineGuard;
  /** A measurement is running (POST /api/measure answers 429 meanwhile). */
  private measuring = false;

  constructor(private readonly opts: ApiOptions = {}) {
    this.client = opts.client ?? new OpenSearchClient(configFromEnv());
    const envTimeout = Number(env('GEOSHARD_SEARCH_TIMEOUT_MS'));
    this.searchTimeoutMs = opts.searchTimeoutMs ?? (envTimeout > 0 ? envTimeout : DEFAULT_SEARCH_TIMEOUT_MS);
    this.writesEnabled = opts.writes ?? env('GEOSHARD_WRITES') === '1';
    this.pipelines = new PipelineGuard(this.client, opts.pipelineTtlMs ?? 1000, opts.pipelineSettleMs ?? 1000);
    this.loaded = this.load();
  }

  private load(): Loaded {
    const path = this.opts.file ? '(given)' : resolve(this.opts.boundariesPath ?? (env('GEOSHARD_BOUNDARIES') || DEFAULT_BOUNDARIES_PATH));
    try {
      const file = this.opts.file ?? parseBoundaryFile(readFileSync(path, 'utf8'), path);
      const router = new Router(file, path);
      if (router.moves.length > 0) {
        // Searching mid-migration needs read exclusions (a copy of each moving range lives on two shards); not supported here.
        throw new Error(`boundary file ${path} has ${router.moves.length} move(s) in progress (its "migration" field): the live API searches only settled boundary files`);
      }
      let config: IndexConfig;
      try {
        config = this.loadConfig(file, path);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new Error(code ? `index config ${publicName(resolve(this.opts.configPath ?? env('GEOSHARD_CONFIG') ?? ''))} cannot be read (${code}): fix GEOSHARD_CONFIG` : (e as Error).message);
      }
      return { router, guard: new DriftGuard(this.client, file, this.opts.driftTtlMs ?? 0), path, config };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { error: code === 'ENOENT' ? `boundary file ${path} does not exist: run "npm run data:generate", or set GEOSHARD_BOUNDARIES` : (e as Error).message, path };
    }
  }

  /**
   * loadConfig returns the index config the API searches with: `config`, the file at `configPath`
   * or $GEOSHARD_CONFIG, or (neither) the sample's config for the boundary file's index. Throws
   * Error (IndexConfigError) naming the file when it is invalid or names another index than the
   * boundary file: the API routes by the file, so it searches the index the file was made for.
   */
  private loadConfig(file: BoundaryFile, boundariesPath: string): IndexConfig {
    const path = this.opts.config ? null : this.opts.configPath ?? (env('GEOSHARD_CONFIG') || null);
    if (!this.opts.config && path === null) return { ...SAMPLE_CONFIG, index: file.index, facets: [...SAMPLE_CONFIG.facets] };
    const config = this.opts.config ?? parseIndexConfig(readFileSync(resolve(path!), 'utf8'), publicName(resolve(path!)));
    if (config.index !== file.index) {
      throw new Error(`index config ${path === null ? '(given)' : publicName(resolve(path))}: index ${JSON.stringify(config.index)} is not valid with boundary file ${publicName(boundariesPath)}: expected its index ${JSON.stringify(file.index)} (the API searches the index its boundary file was made for; make one for ${JSON.stringify(config.index)} with "geoshard balance --index ${config.index}")`);
    }
    return config;
  }

  /** config is the index config searches use, or null when the boundary file or config is unusable. */
  get config(): IndexConfig | null {
    const l = this.routing();
    return 'router' in l ? l.config : null;
  }

  /** routing returns the router and drift guard, reloading the boundary file if it failed to load before. */
  private routing(): Loaded {
    if ('error' in this.loaded) this.loaded = this.load();
    return this.loaded;
  }

  /** router is the loaded router, or null when the boundary file is unusable. */
  get router(): Router | null {
    const l = this.routing();
    return 'router' in l ? l.router : null;
  }

  /**
   * layout reads the nodes and the index's shard copies, remembers the nodes
   * and, when every copy is started, the table as the healthy one. Null when
   * the cluster does not answer.
   */
  private async layout(router: Router): Promise<Layout | null> {
    const nameOf = new Map(router.shards.map((s) => [s.shard, s.name]));
    let layout: Layout;
    try {
      layout = await readLayout(this.client, router.file.index, (n) => nameOf.get(n) ?? null);
    } catch {
      return null;
    }
    for (const n of layout.nodes ?? []) this.seenNodes.set(n.id, n.name);
    for (const c of layout.copies) if (c.node) this.seenNodes.set(c.node.id, c.node.name);
    if (isHealthy(layout.copies)) this.healthy = layout.copies;
    return layout;
  }

  /**
   * routingCheck asks the engine where every shard name goes (once per index
   * hash; `fresh` asks again). Rejects with OpenSearchError when it cannot.
   */
  private async routingCheck(router: Router, indexHash: string | null, fresh = false): Promise<RoutingCheck> {
    const key = indexHash ?? '';
    const cached = this.routingChecks.get(key);
    if (cached && !fresh) return cached;
    const check = await checkRouting(this.client, router);
    this.routingChecks.set(key, check);
    return check;
  }

  /**
   * start runs the first drift check and the routing check (every shard name
   * asked to `_search_shards`) and returns the drift state, with status
   * routing-mismatch when a name lands elsewhere, or the reason it could
   * not run. It reads the shard table (the healthy table placements are
   * compared with). When the index matches, it also runs one all-shards search of
   * size 0 (result ignored), so the first search a user makes is not the one
   * that pays for cold code paths and makes routed look slower than it is.
   */
  async start(): Promise<DriftState | { error: string }> {
    const l = this.routing();
    if ('error' in l) return { error: l.error };
    try {
      let d = await l.guard.check();
      if (d.status === 'ok') {
        const r = await this.routingCheck(l.router, d.indexHash, true);
        if (r.status !== 'ok') d = { ...d, status: 'routing-mismatch', message: r.message };
        await this.layout(l.router);
      }
      if (d.status === 'ok') await runSearch(this.client, l.router, parseSearchParams(new URLSearchParams('size=0')), planAll(l.router), { timeoutMs: this.searchTimeoutMs, ...(isSampleShape(l.config) ? {} : { config: l.config }) }).catch(() => {});
      return d;
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  /** search answers GET /api/search for a query string. */
  async search(q: URLSearchParams): Promise<ApiResult> {
    let params;
    try {
      params = parseSearchParams(q);
    } catch (e) {
      if (e instanceof ParamError) return { httpStatus: 400, body: { status: 'invalid', error: { param: e.param, message: e.message } } };
      throw e;
    }
    const l = this.routing();
    if ('error' in l) return { httpStatus: 500, body: { status: 'error', error: { message: redactPath(l.error, l.path) } } };
    const { guard, config } = l;
    const sample = isSampleShape(config);
    const refused = sample ? null : configRefusal(config, params, (k) => q.has(k));
    if (refused) return refused;
    const file = l.router.file;
    const head = {
      query: describeQuery(params),
      index: file.index,
      boundary: { hash: file.hash, version: file.version, numberOfShards: file.numberOfShards },
      ...(sample ? {} : { config: { location: config.location, name: config.name, join: config.join, facets: config.facets } }),
    };
    const opts: RunOptions = { timeoutMs: this.searchTimeoutMs, ...(sample ? {} : { config }) };
    // The drift check comes first: a search never runs against an index written with another
    // boundary file (its request also opens the connection the searches reuse).
    let drift0: DriftState;
    // The pipeline is read beside the drift check (one round trip for both, when not remembered).
    const pipelineRead: Promise<InstalledPipeline | undefined | null> = this.pipelines.read(file.index).catch(() => null);
    try {
      drift0 = await guard.check();
    } catch (e) {
      return errorResult(head, e, this.client.url);
    }
    if (drift0.status !== 'ok') return driftResult(head, drift0);
    // The routing pipeline must route plain writers as _meta says. When it cannot be read the
    // search runs (it is the write side that would be wrong) and the next search reads it again.
    let pipeline: PipelineStatus | null = null;
    try {
      const installed = await pipelineRead;
      if (installed !== null) pipeline = await this.pipelines.check(file.index, drift0.meta, () => getIndexMeta(this.client, file.index), file, installed);
    } catch {
      pipeline = null;
    }
    if (pipeline && !pipeline.matches) {
      return driftRefusal(head, drift0, 'pipeline-mismatch', { pipeline }, pipeline.message);
    }
    // A migration in progress: route with its state (one read owner per range, the other copy excluded).
    let router: Router;
    let migrationState;
    try {
      ({ router, state: migrationState } = this.migrations.routerFor(l.router, drift0.meta));
    } catch (e) {
      return { httpStatus: 500, body: { status: 'error', ...head, error: { message: `the index's migration state cannot be used: ${(e as Error).message}` } } };
    }
    // The routing check (asked once per index hash). When it cannot be asked, the search still
    // runs (the hashes match, so only an engine-level routing change could misroute) and the
    // check is tried again on the next search.
    let routingCheck: RoutingCheck | null = null;
    try {
      routingCheck = await this.routingCheck(router, drift0.indexHash);
    } catch {
      routingCheck = null;
    }
    if (routingCheck && routingCheck.status !== 'ok') {
      return driftRefusal(
        head,
        drift0,
        'routing-mismatch',
        { routing: { fingerprint: routingCheck.fingerprint, fileRoutingNumShards: routingCheck.fileRoutingNumShards, misroutes: routingCheck.misroutes } },
        routingCheck.message,
      );
    }
    // Dishes that carry their restaurant's location (documents of shape 2) are also filtered by it.
    opts.located = docShapeOf(drift0.meta?.sample) >= DOC_SHAPE;
    const healthyBefore = this.healthy;
    let routed: AnySearchPart | undefined;
    let unrouted: AnySearchPart | undefined;
    let failure: unknown;
    try {
      // The search is valid for the epoch it was routed with only if that epoch was still in force
      // when it finished: the migration publishes a new epoch before it copies or deletes, so a
      // search that sees the same epoch after it ran saw no copy or delete of that epoch's
      // successor. When the epoch moved, the search runs again with the new state.
      let key = epochKey(drift0.meta);
      for (let attempt = 1; ; attempt++) {
        routed = await runSearch(this.client, router, params, planRouted(router, params), opts);
        if (params.compare) unrouted = await runSearch(this.client, router, params, planAll(router), opts);
        if (attempt === MAX_EPOCH_ATTEMPTS) break;
        const after = await getIndexMeta(this.client, file.index);
        if (epochKey(after) === key || driftState(file, after).status !== 'ok') break;
        key = epochKey(after);
        ({ router, state: migrationState } = this.migrations.routerFor(l.router, after ?? null));
      }
    } catch (e) {
      failure = e;
    }
    if (failure || !routed) {
      const none = failure instanceof OpenSearchError ? failure.noShardAnswered : null;
      if (!none) return errorResult(head, failure, this.client.url);
      // No asked shard could answer: name the nodes that held them.
      const current = await this.layout(router);
      const plan = planRouted(router, params).shards;
      const failed = new Set(none.map((f) => f.shard));
      const asked: AskedShard[] = plan.map((s) => ({ ...s, status: failed.size === 0 || failed.has(s.shard) ? 'unavailable' : 'ok' }));
      const placement = placementOf(asked, healthyBefore, current?.copies ?? null);
      const res = errorResult(head, failure, this.client.url, placementSentence(placement), (id) => this.seenNodes.get(id) ?? id);
      res.body.placement = placement;
      return res;
    }
    const current = await this.layout(router);
    // The profile names nodes by id; the answer names them as /api/status does.
    for (const side of [routed, unrouted]) for (const t of side?.shardTimes ?? []) if (t.node) t.node = this.seenNodes.get(t.node) ?? t.node;
    const placement: SearchPlacement | undefined = current ? placementOf(routed.shardsAsked, healthyBefore, current.copies) : undefined;
    if (placement && routed.partialReason && placement.lostNodes.length > 0) routed.partialReason += `; ${placementSentence(placement)}`;
    const { status, ...rest } = routed;
    const body: Record<string, unknown> = {
      status,
      ...head,
      drift: { status: drift0.status, indexHash: drift0.indexHash, fileHash: drift0.fileHash, ...(drift0.targetHash ? { targetHash: drift0.targetHash } : {}) },
      ...(migrationState ? { migration: { epoch: migrationState.epoch, target: migrationState.target } } : {}),
      ...rest,
      note: params.circle ? undefined : `no location: the search went to all ${file.numberOfShards} shards`,
      placement,
    };
    if (unrouted) {
      const cmp = compareParts(routed, unrouted);
      body.status = routed.status === 'complete' && unrouted.status === 'complete' ? 'complete' : 'partial';
      body.unrouted = unrouted;
      body.identical = cmp.identical;
      body.differences = cmp.differences;
      body.ratio = {
        shards: routed.shardsAsked.length / unrouted.shardsAsked.length,
        took: unrouted.took > 0 ? routed.took / unrouted.took : null,
        wall: routed.wallMs / unrouted.wallMs,
      };
    }
    return { httpStatus: 200, body };
  }

  /**
   * measure answers POST /api/measure (body: wire.ts MeasureRequest, parsed
   * JSON): the search run `runs` times per plan, routed and on all shards
   * (measure.ts measurePlans), after the same checks as a search (drift, the
   * engine's routing, a migration's read state). One measurement at a time:
   * another while one runs is a 429, so two never share the nodes and halve
   * each other's figures. 400 names the field at fault (parseMeasureRequest).
   */
  async measure(body: unknown): Promise<ApiResult> {
    let m;
    try {
      m = parseMeasureRequest(body);
    } catch (e) {
      if (e instanceof ParamError) return { httpStatus: 400, body: { status: 'invalid', error: { param: e.param, message: e.message } } };
      throw e;
    }
    if (this.measuring) return { httpStatus: 429, body: { status: 'busy', error: { message: 'a measurement is already running on this server: wait for it (one at a time, so two never share the nodes and halve each other\'s figures)' } }, headers: { 'retry-after': '5' } };
    const l = this.routing();
    if ('error' in l) return { httpStatus: 500, body: { status: 'error', error: { message: redactPath(l.error, l.path) } } };
    // Another index than the sample is measured with its own search, as /api/search runs it.
    const sample = isSampleShape(l.config);
    const refused = sample ? null : configRefusal(l.config, m.search, (k) => (k === 'diet' ? m.search.diets : k === 'allergen' ? m.search.allergens : m.search.cuisines).length > 0);
    if (refused) return refused;
    const file = l.router.file;
    const head = { query: describeQuery(m.search), index: file.index, boundary: { hash: file.hash, version: file.version, numberOfShards: file.numberOfShards } };
    this.measuring = true;
    try {
      const d = await l.guard.check();
      if (d.status !== 'ok') return driftResult(head, d);
      const { router } = this.migrations.routerFor(l.router, d.meta);
      const check = await this.routingCheck(router, d.indexHash).catch(() => null);
      if (check && check.status !== 'ok') return driftRefusal(head, d, 'routing-mismatch', { routing: { fingerprint: check.fingerprint, misroutes: check.misroutes } }, check.message);
      const at = new Date().toISOString();
      const t0 = performance.now();
      const processors = await readProcessors(this.client).catch(() => null);
      const routed = planRouted(router, m.search);
      const f = await measurePlans(this.client, router, m.search, { routed, all: planAll(router) }, { runs: m.runs, concurrency: m.concurrency, located: sample && docShapeOf(d.meta?.sample) >= DOC_SHAPE, timeoutMs: this.searchTimeoutMs, ...(sample ? {} : { config: l.config }) });
      const answer: MeasureAnswer = {
        status: f.partialRuns > 0 ? 'partial' : 'complete',
        ...head,
        runs: m.runs,
        concurrency: m.concurrency,
        warmup: { runs: f.warmupRuns, note: `The first ${f.warmupRuns} of the ${m.runs} one-at-a-time runs of each plan were warm-up (cold caches and code paths) and are discarded: p50 and p99 are of the other ${m.runs - f.warmupRuns}.` },
        routing: routed.routing ?? '',
        routed: f.routed,
        all: f.all,
        gain: f.gain,
        identical: f.identical,
        differences: f.differences,
        partialRuns: f.partialRuns,
        load: { ...f.load, processors },
        method: `${m.runs} searches per plan one at a time, alternating routed and all shards; then ${m.runs} per plan with ${m.concurrency} in flight, in blocks routed / all / all / routed, for searches per second and OpenSearch CPU per search (_nodes/stats process CPU, every node, before and after each block). Request cache off. Gains: all ÷ routed for times and CPU, routed ÷ all for searches per second.`,
        ms: performance.now() - t0,
        at,
      };
      return { httpStatus: 200, body: answer as unknown as Record<string, unknown> };
    } catch (e) {
      return errorResult(head, e, this.client.url);
    } finally {
      this.measuring = false;
    }
  }

  /** document answers GET /api/documents/:id (the id still percent-encoded): see documents.ts. Refused like a search when the index drifted. */
  async document(rawId: string): Promise<ApiResult> {
    let id: string;
    try {
      id = parseWriteId('id', safeDecode(rawId));
    } catch (e) {
      if (e instanceof ParamError) return { httpStatus: 400, body: { status: 'invalid', error: { param: e.param, message: e.message } } };
      throw e;
    }
    const l = this.routing();
    if ('error' in l) return { httpStatus: 500, body: { status: 'error', error: { message: redactPath(l.error, l.path) } } };
    const head = { index: l.router.file.index, boundary: { hash: l.router.file.hash, version: l.router.file.version, numberOfShards: l.router.file.numberOfShards } };
    try {
      const d = await l.guard.check();
      if (d.status !== 'ok') return driftResult(head, d);
      const answer = await documentAnswer(this.client, l.router, id, l.config);
      if (!answer) return { httpStatus: 404, body: { status: 'not-found', ...head, error: { param: 'id', message: `no document with id ${JSON.stringify(id)} in index ${l.router.file.index} (searched on every shard)` } } };
      return { httpStatus: 200, body: { ...head, ...answer } };
    } catch (e) {
      return errorResult(head, e, this.client.url);
    }
  }

  /** status answers GET /api/status: connection, cluster version, index, drift, document counts. */
  async status(): Promise<ApiResult<StatusAnswer>> {
    const l = this.routing();
    const c = this.client;
    const body: StatusAnswer = {
      connection: { status: 'down', url: c.url },
      nodes: null,
      boundary: 'error' in l ? { file: publicName(l.path), error: redactPath(l.error, l.path) } : boundaryInfo(l.router.file, l.path),
      index: null,
      drift: null,
      limits: { minRadiusKm: MIN_RADIUS_KM, maxRadiusKm: MAX_RADIUS_KM, maxSize: MAX_SIZE, defaultSize: DEFAULT_SIZE, searchTimeoutMs: this.searchTimeoutMs },
      vocabulary: { diets: VOCABULARY.diet, allergens: VOCABULARY.allergen, cuisines: VOCABULARY.cuisine },
      writes: { enabled: this.writesEnabled },
      ...('config' in l && !isSampleShape(l.config) ? { config: { index: l.config.index, location: l.config.location, name: l.config.name, join: l.config.join, facets: l.config.facets } } : {}),
    };
    try {
      const root = await c.get<{ cluster_name: string; version: { number: string; distribution?: string } }>('/', { timeoutMs: 3000 });
      const health = await c.get<{ status: string; number_of_nodes: number }>('/_cluster/health', { timeoutMs: 3000 });
      body.connection = {
        status: 'up',
        url: c.url,
        cluster: { name: root.cluster_name, version: root.version.number, distribution: root.version.distribution ?? 'elasticsearch', health: health.status, nodes: health.number_of_nodes },
      };
    } catch (e) {
      body.connection = { status: 'down', url: c.url, message: (e as Error).message };
      return { httpStatus: 200, body };
    }
    if ('error' in l) return { httpStatus: 200, body };
    const layout = await this.layout(l.router);
    if (layout?.nodes) body.nodes = withLeftNodes(layout.nodes, this.seenNodes);
    try {
      const d = await l.guard.check();
      body.drift = { status: d.status, indexHash: d.indexHash, fileHash: d.fileHash, indexVersion: d.indexVersion, fileVersion: d.fileVersion, ...(d.targetHash ? { targetHash: d.targetHash } : {}), message: d.message };
      if (d.meta) {
        try {
          const m = migrationOfMeta(d.meta);
          body.migration = m.state && m.base ? migrationStatusOf(m.base, m.state) : null;
        } catch (e) {
          body.migration = { error: (e as Error).message };
        }
      }
      if (d.status !== 'missing-index') {
        try {
          body.pipeline = pipelineStatusOf(await readPipeline(c, d.index), d.meta, d.index, l.router.file);
        } catch (e) {
          body.pipeline = { error: (e as Error).message };
        }
      }
      if (d.status === 'missing-index') {
        body.index = { name: d.index, exists: false };
        return { httpStatus: 200, body };
      }
      const path = `/${encodeURIComponent(d.index)}`;
      const copies = layout?.copies ?? (await readLayout(c, d.index, (n) => l.router.shards.find((s) => s.shard === n)?.name ?? null)).copies;
      let docs: { restaurants: number; dishes: number; total: number };
      if (isSampleShape(l.config)) {
        const [restaurants, dishes] = await Promise.all([
          c.request<{ count: number }>('POST', `${path}/_count`, { body: { query: { term: { [JOIN_FIELD]: PARENT } } } }),
          c.request<{ count: number }>('POST', `${path}/_count`, { body: { query: { term: { [JOIN_FIELD]: CHILD } } } }),
        ]);
        docs = { restaurants: restaurants.body.count, dishes: dishes.body.count, total: restaurants.body.count + dishes.body.count };
      } else {
        docs = { restaurants: 0, dishes: 0, total: (await c.get<{ count: number }>(`${path}/_count`)).count };
      }
      body.index = {
        name: d.index,
        exists: true,
        docs,
        sample: d.meta?.sample ?? null,
        shards: copies.filter((x) => x.primary).map((x) => ({ shard: x.shard, name: x.name, state: x.state, docs: x.docs, node: x.node?.name ?? null })),
        copies,
      };
    } catch (e) {
      body.index = { name: l.router.file.index, error: (e as Error).message };
    }
    return { httpStatus: 200, body };
  }

  /**
   * write answers one write request (PUT/DELETE under /api/restaurants/).
   * Every check that needs no cluster comes first, in this order: writes
   * enabled, loopback peer, Origin, path and method, ids, body; then the
   * drift guard (no write into an index made for another boundary file), then
   * the write through GeoIndexer and the read-back of where each copy landed.
   */
  async write(w: WriteRequest): Promise<ApiResult<object>> {
    const refuse = (httpStatus: number, status: string, message: string, param?: string): ApiResult => ({ httpStatus, body: { status, error: { ...(param ? { param } : {}), message } } });
    if (!this.writesEnabled) return refuse(403, 'forbidden', 'writes are off on this server: start it with GEOSHARD_WRITES=1 (e.g. "GEOSHARD_WRITES=1 npm start") to enable PUT and DELETE on /api/restaurants');
    if (!isLoopback(w.peer)) return refuse(403, 'forbidden', `writes are answered only on loopback (127.0.0.0/8, ::1); this request came from ${JSON.stringify(w.peer ?? 'an unknown peer')}`);
    if (w.origin !== undefined && w.origin !== `http://${w.host ?? ''}`) {
      return refuse(403, 'forbidden', `Origin ${JSON.stringify(w.origin)} is not this page's own (http://${w.host ?? '?'}): writes are refused from other sites`);
    }
    const route = parseWritePath(w.path);
    if ('error' in route) return refuse(route.httpStatus, route.httpStatus === 404 ? 'error' : 'invalid', route.error, route.param);
    const allowed = route.dishId === undefined ? ['PUT', 'DELETE'] : ['PUT'];
    if (!allowed.includes(w.method)) return { httpStatus: 405, body: { status: 'error', error: { message: `${w.method} is not allowed on ${route.dishId === undefined ? '/api/restaurants/:id' : '/api/restaurants/:id/dishes/:dishId'}: expected ${allowed.join(' or ')}` } }, headers: { allow: allowed.join(', ') } };
    let id: string;
    let dishId: string | undefined;
    try {
      id = parseWriteId('id', route.id);
      if (route.dishId !== undefined) dishId = parseWriteId('dishId', route.dishId);
    } catch (e) {
      if (e instanceof ParamError) return refuse(400, 'invalid', e.message, e.param);
      throw e;
    }
    let body: unknown;
    if (w.method === 'PUT') {
      if (w.body === null) return refuse(400, 'invalid', `the body is larger than ${MAX_WRITE_BODY_BYTES} bytes: send one JSON object`, 'body');
      if (w.body.trim() === '') return refuse(400, 'invalid', `the body is missing: send a JSON object such as ${dishId === undefined ? '{"name":"Blue Fig","lat":37.7749,"lng":-122.4194}' : '{"name":"Fig salad","price_cents":1299}'}`, 'body');
      try {
        body = JSON.parse(w.body);
      } catch (e) {
        return refuse(400, 'invalid', `the body is not JSON (${(e as Error).message}): send one JSON object`, 'body');
      }
      try {
        body = dishId === undefined ? parseRestaurantBody(body) : parseDishBody(body);
      } catch (e) {
        if (e instanceof ParamError) return refuse(400, 'invalid', e.message, e.param);
        throw e;
      }
    }
    const l = this.routing();
    if ('error' in l) return { httpStatus: 500, body: { status: 'error', error: { message: redactPath(l.error, l.path) } } };
    const head = { index: l.router.file.index, boundary: { hash: l.router.file.hash, version: l.router.file.version, numberOfShards: l.router.file.numberOfShards } };
    let drift: DriftState;
    try {
      drift = await l.guard.check();
    } catch (e) {
      return errorResult(head, e, this.client.url);
    }
    if (drift.status !== 'ok') return driftResult(head, drift);
    // As for searches: an engine that sends some shard name to another shard than the file says
    // would put the documents where routed searches do not look.
    const check = await this.routingCheck(l.router, drift.indexHash).catch(() => null);
    if (check && check.status !== 'ok') {
      return {
        httpStatus: 409,
        body: { status: 'drift', ...head, drift: { status: 'routing-mismatch', indexHash: drift.indexHash, fileHash: drift.fileHash }, routing: { fingerprint: check.fingerprint, misroutes: check.misroutes }, error: { message: `${check.message} Writes are refused too.` } },
      };
    }
    this.indexer ??= new GeoIndexer(this.client.os, l.router.file.index, { metaTtlMs: 0, retry: { budgetMs: this.opts.writeRetryMs ?? 5000 } });
    const indexer = this.indexer;
    try {
      if (w.method === 'DELETE') {
        const d = await indexer.deleteRestaurant(id);
        return { httpStatus: 200, body: await this.writeAnswer(indexer, 'deleted', 'restaurant', id, id, d) };
      }
      if (dishId === undefined) {
        const b = body as ReturnType<typeof parseRestaurantBody>;
        const p = await indexer.putRestaurant({ id, name: b.name, lat: b.lat, lng: b.lng, cuisines: b.cuisines, priceLevel: b.price_level });
        return { httpStatus: 200, body: await this.writeAnswer(indexer, 'written', 'restaurant', id, id, p) };
      }
      const b = body as ReturnType<typeof parseDishBody>;
      const p = await indexer.putDish(id, { id: dishId, name: b.name, cuisine: b.cuisine, priceCents: b.price_cents, calories: b.calories, diets: b.diets, allergens: b.allergens });
      return { httpStatus: 200, body: await this.writeAnswer(indexer, 'written', 'dish', dishId, id, p) };
    } catch (e) {
      if (!(e instanceof GeoIndexError)) return errorResult(head, e, this.client.url);
      switch (e.code) {
        case 'not-found':
          return { httpStatus: 404, body: { status: 'not-found', ...head, error: { message: e.message } } };
        case 'conflict':
          return { httpStatus: 400, body: { status: 'invalid', ...head, error: { param: dishId === undefined ? 'id' : 'dishId', message: e.message } } };
        case 'busy':
          return { httpStatus: 429, body: { status: 'busy', ...head, error: { message: `${e.message}. Retry after ${Math.ceil((e.retryAfterMs ?? 1000) / 1000)} s: nothing was lost.` } }, headers: { 'retry-after': String(Math.ceil((e.retryAfterMs ?? 1000) / 1000)) } };
        case 'no-index':
          return { httpStatus: 503, body: { status: 'unavailable', ...head, error: { message: e.message } } };
        case 'no-meta':
          return { httpStatus: 409, body: { status: 'drift', ...head, error: { message: e.message } } };
        default:
          return { httpStatus: 502, body: { status: 'error', ...head, error: { message: e.message } } };
      }
    }
  }

  /** writeAnswer builds a WriteAnswer, asking the engine where each owner's copy is (or, for a delete, where its routing goes). */
  private async writeAnswer(indexer: GeoIndexer, status: WriteAnswer['status'], kind: WriteAnswer['kind'], id: string, restaurantId: string, r: PutResult | DeleteResult): Promise<WriteAnswer> {
    const read = r.read;
    const mine = r.results.find((x) => x.id === id && x.action === (status === 'deleted' ? 'delete' : 'index'));
    const acknowledged: WriteAck[] = [];
    for (const o of r.owners) {
      const item = mine?.items.find((i) => i.routing === o.name);
      const at = status === 'deleted' ? await indexer.shardOfRouting(o.name) : await indexer.locate(id, o.name);
      acknowledged.push({ routing: o.name, shard: at?.shard ?? -1, node: at?.node ? await this.nodeName(at.node) : null, result: (item?.result ?? 'not_found') as WriteAck['result'] });
    }
    const role = (o: ShardRef): 'read' | 'write' => (read && o.name === read.name ? 'read' : 'write');
    return {
      status,
      kind,
      id,
      restaurantId,
      location: { lat: r.lat ?? 0, lng: r.lng ?? 0 },
      cell: r.cell ?? '',
      core: read ? { name: read.name, shard: read.shard } : { name: '', shard: -1 },
      owners: r.owners.map((o) => ({ name: o.name, shard: o.shard, role: role(o) })),
      acknowledged,
      dishes: r.dishes,
      epoch: r.epoch,
    };
  }

  /** nodeName names a node id as /api/status does (reading the node list when the id is new). */
  private async nodeName(id: string): Promise<string> {
    if (!this.seenNodes.has(id)) {
      const router = this.router;
      if (router) await this.layout(router);
    }
    return this.seenNodes.get(id) ?? id;
  }

  /** measureRequest reads POST /api/measure: the method, the Origin (the page's own, as for writes), the JSON body. */
  private async measureRequest(req: IncomingMessage): Promise<ApiResult> {
    if (req.method !== 'POST') return { httpStatus: 405, body: { status: 'error', error: { message: `${req.method} is not allowed on /api/measure: expected POST with a JSON body such as {"lat":37.7749,"lng":-122.4194,"radius":"15mi"}` } }, headers: { allow: 'POST' } };
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origin !== `http://${req.headers.host ?? ''}`) return { httpStatus: 403, body: { status: 'forbidden', error: { message: `Origin ${JSON.stringify(origin)} is not this page's own (http://${req.headers.host ?? '?'}): measurements are refused from other sites` } } };
    const text = await readBody(req, MAX_MEASURE_BODY_BYTES);
    if (text === null) return { httpStatus: 400, body: { status: 'invalid', error: { param: 'body', message: `the body is larger than ${MAX_MEASURE_BODY_BYTES} bytes: send one JSON object` } } };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      return { httpStatus: 400, body: { status: 'invalid', error: { param: 'body', message: `the body is not JSON (${(e as Error).message}): send one JSON object such as {"lat":37.7749,"lng":-122.4194,"radius":"15mi"}` } } };
    }
    return this.measure(body);
  }

  /**
   * handle answers one HTTP request under /api/ (connect-style: call `next`
   * for anything else when given): GET and HEAD on the two read endpoints,
   * PUT and DELETE under /api/restaurants/ (see write).
   */
  handle = async (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith('/api/')) {
      if (next) return next();
      return send(res, 404, { status: 'error', error: { message: `${url.pathname} is not an API path: expected /api/search or /api/status` } });
    }
    let result: ApiResult<object>;
    try {
      if (url.pathname === '/api/restaurants' || url.pathname.startsWith('/api/restaurants/')) {
        const body = req.method === 'PUT' || req.method === 'POST' || req.method === 'DELETE' ? await readBody(req, MAX_WRITE_BODY_BYTES) : '';
        const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
        result = await this.write({ method: req.method ?? 'GET', path: url.pathname, peer: req.socket.remoteAddress, origin: header('origin'), host: header('host'), body });
      } else if (url.pathname === '/api/measure') {
        result = await this.measureRequest(req);
      } else if (req.method !== 'GET' && req.method !== 'HEAD') {
        result = { httpStatus: 405, body: { status: 'error', error: { message: `${req.method} is not allowed: the live API only answers GET here (writes: PUT and DELETE on /api/restaurants/:id)` } }, headers: { allow: 'GET, HEAD' } };
      } else if (url.pathname === '/api/search') result = await this.search(url.searchParams);
      else if (url.pathname === '/api/status') result = await this.status();
      else if (url.pathname.startsWith('/api/documents/')) result = await this.document(url.pathname.slice('/api/documents/'.length));
      else result = { httpStatus: 404, body: { status: 'error', error: { message: `${url.pathname} is not an API endpoint: expected /api/search, /api/status, /api/documents/:id or POST /api/measure` } } };
    } catch (e) {
      result = { httpStatus: 500, body: { status: 'error', error: { message: `internal error: ${(e as Error).message}` } } };
    }
    send(res, result.httpStatus, result.body, req.method === 'HEAD', result.headers);
  };
}

/** safeDecode percent-decodes a path part, or returns it as it is when it is not valid percent-encoding (the id check then names it). */
function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** isLoopback says whether a peer address is on loopback: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopback(addr: string | undefined): boolean {
  if (!addr) return false;
  const v4 = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** parseWritePath splits /api/restaurants/:id[/dishes/:dishId] into its (percent-decoded) ids, or says what is wrong. */
function parseWritePath(path: string): { id: string; dishId?: string } | { error: string; param?: string; httpStatus: number } {
  const parts = path.split('/').slice(3);
  const expected = 'expected /api/restaurants/:id or /api/restaurants/:id/dishes/:dishId';
  if (parts.length !== 1 && !(parts.length === 3 && parts[1] === 'dishes')) return { error: `${path} is not a write endpoint: ${expected}`, httpStatus: 404 };
  const dec = (raw: string, param: 'id' | 'dishId'): string | { error: string; param: string; httpStatus: number } => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return { error: `${param} ${JSON.stringify(raw)} is not valid percent-encoding: expected 1 to 64 characters of A-Z, a-z, 0-9, "_" and "-"`, param, httpStatus: 400 };
    }
  };
  const id = dec(parts[0], 'id');
  if (typeof id !== 'string') return id;
  if (parts.length === 1) return { id };
  const dishId = dec(parts[2], 'dishId');
  if (typeof dishId !== 'string') return dishId;
  return { id, dishId };
}

/** readBody reads a request body as UTF-8, or null once it passes `limit` bytes (the rest is drained, not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Largest POST /api/measure body (bytes). */
const MAX_MEASURE_BODY_BYTES = 4096;

/** How many times a search runs at most when the migration epoch keeps moving under it. */
const MAX_EPOCH_ATTEMPTS = 3;

/** epochKey names the routing state an index `_meta` is in: its settled hash and migration epoch. */
function epochKey(meta: IndexMeta | null | undefined): string {
  if (!meta) return '';
  const epoch = (meta.migration as { epoch?: unknown } | undefined)?.epoch;
  return `${meta.hash}@${epoch ?? 'settled'}`;
}

/** redactPath replaces a boundary file's absolute path in a message with its public name. */
function redactPath(message: string, path: string): string {
  return isAbsolute(path) ? message.split(path).join(publicName(path)) : message;
}

function boundaryInfo(file: BoundaryFile, path: string) {
  return { file: publicName(path), index: file.index, hash: file.hash, version: file.version, numberOfShards: file.numberOfShards, shards: file.shards.map((s, index) => ({ index, name: s.name, shard: s.shard })), routing: routingKeyOf(file) };
}

/**
 * configRefusal is the 400 of a search the index's config cannot run (`config` not the sample's):
 * one of the sample's dish filters (`given` says which parameters were sent), or a text query
 * without a name field in the config. Null when the search is valid for the config.
 */
function configRefusal(config: IndexConfig, params: SearchParams, given: (param: 'diet' | 'allergen' | 'cuisine') => boolean): ApiResult | null {
  // The sample's filters name its dishes' fields; another index has its own (its config's facets).
  const filter = (['diet', 'allergen', 'cuisine'] as const).find(given);
  if (filter) return { httpStatus: 400, body: { status: 'invalid', error: { param: filter, message: `${filter} is not a filter of index "${config.index}": the ${filter} filter is the restaurant sample's; this index's search takes lat, lng, radius, q (text on ${config.name ?? 'no name field'}), size, compare and profile, and reports the facets ${config.facets.length > 0 ? config.facets.join(', ') : '(none)'}` } } };
  if (params.text && !config.name) return { httpStatus: 400, body: { status: 'invalid', error: { param: 'q', message: `q is not valid for index "${config.index}": its config names no name field to match text against (set "name" in the config)` } } };
  return null;
}

/** driftRefusal is the 409 of a search whose hashes match but whose routing does not: `status` says what disagrees, `extra` the details. */
function driftRefusal(head: Record<string, unknown>, d: DriftState, status: 'pipeline-mismatch' | 'routing-mismatch', extra: Record<string, unknown>, message: string): ApiResult {
  const drift = { status, indexHash: d.indexHash, fileHash: d.fileHash, indexVersion: d.indexVersion, fileVersion: d.fileVersion };
  return { httpStatus: 409, body: { status: 'drift', ...head, drift, ...extra, error: { message } } };
}

function driftResult(head: Record<string, unknown>, d: DriftState): ApiResult {
  const drift = { status: d.status, indexHash: d.indexHash, fileHash: d.fileHash, indexVersion: d.indexVersion, fileVersion: d.fileVersion };
  if (d.status === 'missing-index') return { httpStatus: 503, body: { status: 'unavailable', ...head, drift, error: { message: d.message } } };
  return { httpStatus: 409, body: { status: 'drift', ...head, drift, error: { message: d.message } } };
}

/**
 * errorResult turns a failure into an answer. `where` (a sentence naming the
 * nodes that held the shards) and `nodeName` (node id → name) make a search
 * none of whose shards answered say which node it lost.
 */
function errorResult(head: Record<string, unknown>, e: unknown, url: string, where = '', nodeName: (id: string) => string = (id) => id): ApiResult {
  if (e instanceof OpenSearchError) {
    const none = e.noShardAnswered;
    if (none && (none.length > 0 || where)) {
      const shards = none.map((f) => `shard ${f.shard}${f.node ? ` (node ${nodeName(f.node)})` : ''}: ${f.reason}`).join('; ');
      return {
        httpStatus: 503,
        body: { status: 'unavailable', ...head, error: { message: `No shard asked could answer, so there are no results${shards ? `: ${shards}` : ''}${where ? `; ${where}` : ''}. Wait for the node to return or a replica to be promoted.` } },
      };
    }
    if (e.unavailable) {
      return { httpStatus: 503, body: { status: 'unavailable', ...head, error: { message: `${e.message}. No results: start the node ("npm run cluster:start") or check OPENSEARCH_URL (${url}).` } } };
    }
    if (e.status === 404 && e.type === 'index_not_found_exception') {
      return { httpStatus: 503, body: { status: 'unavailable', ...head, error: { message: `${e.message}: run "npx geoshard seed"` } } };
    }
    return { httpStatus: 502, body: { status: 'error', ...head, error: { message: e.message } } };
  }
  return { httpStatus: 500, body: { status: 'error', ...head, error: { message: `internal error: ${(e as Error)?.message ?? String(e)}` } } };
}

function send(res: ServerResponse, status: number, body: unknown, headOnly = false, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(headOnly ? undefined : text);
}
