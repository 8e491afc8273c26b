/**
 * The live API: three GET endpoints (search, status, documents), POST /api/measure, and the
 * write endpoints, off unless the server runs with GEOSHARD_WRITES=1; no pass-through of
 * OpenSearch requests. This file is the HTTP layer's front: the API's state (LiveApi) and the
 * routing of each request to its endpoint family, one module each under src/server/api/:
 * search.ts, measure.ts, documents.ts, writes.ts, status.ts; the guards every family passes
 * (drift, the routing pipeline, the engine's routing fingerprint) in api/guards.ts; bodies,
 * peers and error answers in api/http.ts; the boundary file and the index config in api/load.ts.
 * The wire contract (query strings, bodies, answers) is src/server/wire.ts.
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
 *   GET /api/traffic?window=15m[&to=..][&factor=2][&sustain=5m][&metric=searches][&buckets=720]  (api/traffic.ts: recorded traffic per range, hot ranges)
 *   PUT    /api/restaurants/:id                 { name, lat, lng, cuisines?, price_level? }
 *   PUT    /api/restaurants/:id/dishes/:dishId  { name, cuisine?, price_cents?, calories?, diets?, allergens? }
 *   DELETE /api/restaurants/:id                 (the restaurant with all its dishes)
 *
 * Writes go through the package's writer (geoshard/opensearch GeoIndexer), are
 * answered only to loopback peers and refused (403) when the request's Origin
 * is not the page's own; the bodies, their checks and the answer are in wire/writes.ts.
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
import type { BoundaryFile, Router } from '../core/index.ts';
import { OpenSearchClient } from '../cluster/client.ts';
import type { DriftState } from './driftGuard.ts';
import type { IndexConfig } from '../opensearch/indexConfig.ts';
import { MAX_WRITE_BODY_BYTES, type StatusAnswer } from './wire.ts';
import type { ApiContext } from './api/context.ts';
import { Guards } from './api/guards.ts';
import { readBody, send, type ApiResult } from './api/http.ts';
import { loadRouting, type Loaded } from './api/load.ts';
import { ClusterMemory } from './api/nodes.ts';
import { searchAnswer, warmUp } from './api/search.ts';
import { Measurements } from './api/measure.ts';
import { documentEndpoint } from './api/documents.ts';
import { Writes, type WriteRequest } from './api/writes.ts';
import { statusAnswer } from './api/status.ts';
import { env } from '../cluster/env.ts';
import { TrafficEndpoint } from './api/traffic.ts';
import type { TrafficSettings } from '../ops/traffic/settings.ts';
import { DEFAULT_SEARCH_TIMEOUT_MS } from './search/searchBody.ts';
import { configFromEnv } from '../cluster/clientConfig.ts';

export { DEFAULT_BOUNDARIES_PATH, publicName } from './projectFiles.ts';
export { isLoopback, type ApiResult } from './api/http.ts';
export type { WriteRequest } from './api/writes.ts';

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
  /** The traffic recorder's settings, over the environment's (GEOSHARD_TRAFFIC_*; api/traffic.ts). */
  traffic?: Partial<TrafficSettings>;
}

/** LiveApi answers the live API's endpoints for one boundary file and one cluster. */
export class LiveApi implements ApiContext {
  readonly client: OpenSearchClient;
  readonly searchTimeoutMs: number;
  readonly guards: Guards;
  readonly cluster: ClusterMemory;
  /** GET /api/traffic and the server's traffic recorder (started by the entry points: traffic.startRecorder()). */
  readonly traffic: TrafficEndpoint;
  private loaded: Loaded;
  private readonly measurements: Measurements;
  private readonly writes: Writes;

  constructor(private readonly opts: ApiOptions = {}) {
    this.client = opts.client ?? new OpenSearchClient(configFromEnv());
    const envTimeout = Number(env('GEOSHARD_SEARCH_TIMEOUT_MS'));
    this.searchTimeoutMs = opts.searchTimeoutMs ?? (envTimeout > 0 ? envTimeout : DEFAULT_SEARCH_TIMEOUT_MS);
    this.guards = new Guards(this.client, opts.pipelineTtlMs ?? 1000, opts.pipelineSettleMs ?? 1000);
    this.cluster = new ClusterMemory(this.client);
    this.measurements = new Measurements(this);
    this.writes = new Writes(this, opts.writes ?? env('GEOSHARD_WRITES') === '1', opts.writeRetryMs ?? 5000);
    this.loaded = loadRouting(this.opts, this.client);
    this.traffic = new TrafficEndpoint(this, opts.traffic);
  }

  /** Whether the write endpoints answer. */
  get writesEnabled(): boolean {
    return this.writes.enabled;
  }

  /** config is the index config searches use, or null when the boundary file or config is unusable. */
  get config(): IndexConfig | null {
    const l = this.routing();
    return 'router' in l ? l.config : null;
  }

  /** routing returns the router and drift guard, reloading the boundary file if it failed to load before. */
  routing(): Loaded {
    if ('error' in this.loaded) this.loaded = loadRouting(this.opts, this.client);
    return this.loaded;
  }

  /** router is the loaded router, or null when the boundary file is unusable. */
  get router(): Router | null {
    const l = this.routing();
    return 'router' in l ? l.router : null;
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
        const r = await this.guards.routingCheck(l.router, d.indexHash, true);
        if (r.status !== 'ok') d = { ...d, status: 'routing-mismatch', message: r.message };
        await this.cluster.layout(l.router);
      }
      if (d.status === 'ok') await warmUp(this, l);
      return d;
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  /** search answers GET /api/search for a query string (api/search.ts). */
  search(q: URLSearchParams): Promise<ApiResult> {
    return searchAnswer(this, q);
  }

  /** measure answers POST /api/measure for a parsed JSON body (api/measure.ts); one measurement at a time, 429 meanwhile. */
  measure(body: unknown): Promise<ApiResult> {
    return this.measurements.answer(body);
  }

  /** document answers GET /api/documents/:id, the id still percent-encoded (api/documents.ts). Refused like a search when the index drifted. */
  document(rawId: string): Promise<ApiResult> {
    return documentEndpoint(this, rawId);
  }

  /** status answers GET /api/status: connection, cluster version, index, drift, document counts (api/status.ts). */
  status(): Promise<ApiResult<StatusAnswer>> {
    return statusAnswer(this, this.writes.enabled);
  }

  /** write answers one write request, PUT or DELETE under /api/restaurants/ (api/writes.ts). */
  write(w: WriteRequest): Promise<ApiResult<object>> {
    return this.writes.answer(w);
  }

  /**
   * handle answers one HTTP request under /api/ (connect-style: call `next`
   * for anything else when given): GET and HEAD on the three read endpoints,
   * POST on /api/measure, PUT and DELETE under /api/restaurants/ (see write).
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
        result = await this.measurements.fromRequest(req);
      } else if (req.method !== 'GET' && req.method !== 'HEAD') {
        result = { httpStatus: 405, body: { status: 'error', error: { message: `${req.method} is not allowed: the live API only answers GET here (writes: PUT and DELETE on /api/restaurants/:id)` } }, headers: { allow: 'GET, HEAD' } };
      } else if (url.pathname === '/api/search') result = await this.search(url.searchParams);
      else if (url.pathname === '/api/status') result = await this.status();
      else if (url.pathname.startsWith('/api/documents/')) result = await this.document(url.pathname.slice('/api/documents/'.length));
      else if (url.pathname === '/api/traffic') result = await this.traffic.answer(url.searchParams);
      else result = { httpStatus: 404, body: { status: 'error', error: { message: `${url.pathname} is not an API endpoint: expected /api/search, /api/status, /api/documents/:id, /api/traffic or POST /api/measure` } } };
    } catch (e) {
      result = { httpStatus: 500, body: { status: 'error', error: { message: `internal error: ${(e as Error).message}` } } };
    }
    send(res, result.httpStatus, result.body, req.method === 'HEAD', result.headers);
  };
}
