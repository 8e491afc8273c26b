/**
 * The connection to OpenSearch the CLI and the live API use: the official client
 * (@opensearch-project/opensearch) configured from OpenSearchConfig (clientConfig.ts),
 * behind one small adapter that turns every failure into an OpenSearchError
 * saying what failed and where (clientErrors.ts), answers a read-only role's
 * metadata reads from the cluster state, and offers itself as the package's
 * TransportClient. Retries are off (maxRetries 0): a failure is reported to the
 * caller as it happened, so nothing upstream mistakes a slow or failing
 * cluster for an empty answer. Every request has a deadline (the client's
 * requestTimeout, overridable per request; changes of the cluster state sent
 * with `admin` get ADMIN_TIMEOUT_MS and tell the engine how long to wait).
 *
 * Node only. Credentials stay in this process: the
 * client sends them to OpenSearch, and they never appear in URLs, error
 * messages or API responses (redactUrl).
 */
import type { Client, ApiResponse } from '@opensearch-project/opensearch';
import { readFileSync } from 'node:fs';
import { loadPeer } from '../data/optionalPeer.ts';
import { missingPrivilege } from './privileges.ts';
import { INSECURE_WARNING, type OpenSearchConfig } from './clientConfig.ts';
import { OpenSearchError, toOpenSearchError } from './clientErrors.ts';
import { redactUrl } from './redact.ts';
import type { TransportClient } from '../opensearch/transport.ts';

type OfficialModule = typeof import('@opensearch-project/opensearch');
let officialModule: OfficialModule | undefined;
/**
 * The official client's module, loaded on first use: loading it takes ~1 s, and every CLI command imports this file (measured: `node -e "import('@opensearch-project/opensearch')"` 1.3 s against 0.3 s for bare node).
 * It is an optional peer dependency: throws MissingPeerError (src/data/optionalPeer.ts) naming what to install when it is missing.
 */
function official(): OfficialModule {
  return (officialModule ??= loadPeer<OfficialModule>('@opensearch-project/opensearch'));
}

/**
 * Deadline (ms) of a change of the cluster state (OpenSearchClient.admin): creating or
 * deleting an index, changing its settings or mappings, writing an ingest pipeline. The
 * master queues such a change behind every other one, applies it and waits for the nodes to
 * acknowledge it (an index creation also for its primaries to start): on a busy cluster that
 * takes far longer than a search (`PUT /dishes` with 15 shards and a replica ran past the 10 s
 * default on a loaded 3-node cluster). Longer than the engine's own waits (ADMIN_ENGINE_TIMEOUTS,
 * 90 s + 45 s), so the engine answers first and says which wait ran out.
 */
export const ADMIN_TIMEOUT_MS = 150_000;

/**
 * The waits OpenSearchClient.admin asks the engine for: `cluster_manager_timeout` (how long the change
 * may queue for the cluster manager; past it the engine answers 503 process_cluster_event_timeout_exception;
 * OpenSearch 2.0's name for `master_timeout`, which 3.x's search pipeline API refuses)
 * and `timeout` (how long it waits for the nodes' acknowledgement and, for an index creation,
 * for the primaries to start; past it the change stands and the answer says
 * `acknowledged: false` / `shards_acknowledged: false`).
 */
export const ADMIN_ENGINE_TIMEOUTS = { cluster_manager_timeout: '90s', timeout: '45s' } as const;


/** Options of one request. */
export interface RequestOptions {
  /** JSON body (serialised by the client), or a string or bytes sent as NDJSON (for _bulk). */
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Deadline of this request in ms (default: the client's). */
  timeoutMs?: number;
  /** Statuses that are answers rather than errors (e.g. [404] for "does it exist?"). */
  okStatuses?: number[];
}

/** A response: its HTTP status and parsed JSON body. */
export interface Response<T> {
  status: number;
  body: T;
}

/**
 * createClient returns the official client for a config: retries off, the config's deadline, its
 * credentials, its trust (the CA file, else the system's CAs; host names verified; `insecure`
 * turns both checks off and prints INSECURE_WARNING to stderr).
 */
export function createClient(config: OpenSearchConfig): Client {
  if (config.insecure) process.stderr.write(`${INSECURE_WARNING}\n`);
  const ssl = config.insecure ? { rejectUnauthorized: false } : config.caFile ? { ca: readFileSync(config.caFile), rejectUnauthorized: true } : undefined;
  return new (official().Client)({
    node: config.url,
    maxRetries: 0,
    requestTimeout: config.timeoutMs,
    sniffOnStart: false,
    ...(ssl ? { ssl } : {}),
    ...(config.auth ? { auth: config.auth } : {}),
    ...(config.apiKey ? { headers: { authorization: `ApiKey ${config.apiKey}` } } : {}),
  });
}

/** The metadata reads OpenSearchClient answers from the cluster state when refused (metadataFromClusterState). */
const METADATA_READS = new Set(['indices:monitor/settings/get', 'indices:admin/mappings/get', 'indices:admin/aliases/get', 'cluster:admin/ingest/pipeline/get']);

/**
 * OpenSearchClient sends requests to one cluster through the official client
 * and reports failures as OpenSearchError. `os` is the official client, for
 * callers that want its typed API.
 */
export class OpenSearchClient {
  readonly os: Client;

  constructor(readonly config: OpenSearchConfig) {
    this.os = createClient(config);
  }

  /**
   * transport: this client in the shape of the official client's `transport` (TransportClient),
   * so the package's functions (src/opensearch: fetchIndexMeta, fingerprintOf, createRoutedIndex,
   * routedSearch, …) run through it: its deadline, its errors (OpenSearchError), its answers
   * from the cluster state for a read-only role. Each call is one `request`.
   */
  readonly transport: TransportClient['transport'] = {
    request: async (params, options = {}) => {
      const opts = { body: params.bulkBody ?? params.body, query: params.querystring, okStatuses: options.ignore, timeoutMs: options.requestTimeout };
      const res = await (isClusterStateChange(params.method, params.path) ? this.admin(params.method, params.path, opts) : this.request(params.method, params.path, opts));
      return { statusCode: res.status, body: res.body };
    },
  };

  /** The base URL without credentials, for messages and the status API. */
  get url(): string {
    return redactUrl(this.config.url);
  }

  /**
   * request sends one request and returns the status and parsed body. It
   * rejects with an OpenSearchError when nothing answers, the deadline passes,
   * the status is >= 400 (unless listed in okStatuses) or a 2xx body is not
   * JSON. It never retries.
   */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    const querystring: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) querystring[k] = String(v);
    const p = path.startsWith('/') ? path : '/' + path;
    const q = new URLSearchParams(querystring).toString();
    const where = `${method} ${p}${q ? '?' + q : ''} on ${this.url}`;
    const timeoutMs = opts.timeoutMs ?? this.config.timeoutMs;
    const params = typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? { method, path: p, querystring, bulkBody: opts.body } : { method, path: p, querystring, body: opts.body as Record<string, unknown> | undefined };
    let res: ApiResponse;
    try {
      res = await this.os.transport.request(params, { requestTimeout: timeoutMs, maxRetries: 0, ignore: opts.okStatuses });
    } catch (e) {
      const err = toOpenSearchError(e, method, p, where, timeoutMs, this.config, official().errors);
      const fallback = err.status === 403 && (method === 'GET' || method === 'HEAD') ? await this.metadataFromClusterState<T>(method, p, err, opts) : null;
      if (fallback) return fallback;
      throw err;
    }
    let body: unknown = res.body;
    if (typeof res.body === 'string') {
      // The client parses JSON responses; a string is a body that did not say it was JSON.
      const text = res.body;
      try {
        body = text === '' ? {} : JSON.parse(text);
      } catch {
        throw new OpenSearchError(`OpenSearch answered ${where} with status ${res.statusCode} and a body that is not JSON: ${text.slice(0, 200)}`, 'bad-response', method, p, res.statusCode ?? undefined);
      }
    }
    return { status: res.statusCode ?? 0, body: body as T };
  }

  /**
   * admin sends a change of the cluster state (`PUT`/`DELETE /<index>`, `_settings`,
   * `_mapping`, `_ingest/pipeline/<id>`) as `request` does, with the deadline
   * max(ADMIN_TIMEOUT_MS, the client's) unless `opts.timeoutMs` says otherwise, and
   * ADMIN_ENGINE_TIMEOUTS as query parameters unless `opts.query` sets them: a busy cluster
   * makes it slow instead of failing it.
   */
  async admin<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    return this.request<T>(method, path, { ...opts, query: { ...ADMIN_ENGINE_TIMEOUTS, ...opts.query }, timeoutMs: opts.timeoutMs ?? Math.max(ADMIN_TIMEOUT_MS, this.config.timeoutMs) });
  }

  /** get sends a GET and returns the body. */
  async get<T = unknown>(path: string, opts?: RequestOptions): Promise<T> {
    return (await this.request<T>('GET', path, opts)).body;
  }

  /**
   * A read-only role (the plugin's built-in `readall_and_monitor`: `read` on indexes,
   * `cluster_monitor`) may not read an index's settings, mapping or aliases, nor an ingest
   * pipeline, through their own APIs (indices:monitor/settings/get, indices:admin/mappings/get,
   * indices:admin/aliases/get, cluster:admin/ingest/pipeline/get), but it reads the same
   * metadata in the cluster state (cluster:monitor/state). When such a GET is refused for one
   * of those privileges, this answers it from `GET _cluster/state/metadata` in the shape the
   * refused API has (with every setting and mapping of the index: a superset of a filtered
   * answer; 404 when the index, alias or pipeline does not exist). Null for any other request,
   * or when the cluster state is refused as well (the caller then reports the first refusal).
   */
  private async metadataFromClusterState<T>(method: string, path: string, refused: OpenSearchError, opts: RequestOptions): Promise<Response<T> | null> {
    const okStatuses = opts.okStatuses ?? [];
    const head = method === 'HEAD' ? /^\/([^/_][^/]*)$/.exec(path) : null;
    if (head) {
      // HEAD /<index or alias> (indices:admin/get): a refusal has no body to name the privilege.
      let st: { metadata?: { indices?: Record<string, unknown> } };
      try {
        st = (await this.request<typeof st>('GET', `/_cluster/state/metadata/${head[1]}`, { query: { filter_path: 'metadata.indices.*.state', expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true }, timeoutMs: opts.timeoutMs })).body;
      } catch {
        return null;
      }
      const status = Object.keys(st.metadata?.indices ?? {}).length > 0 ? 200 : 404;
      if (status === 200 || okStatuses.includes(status)) return { status, body: {} as T };
      throw refused;
    }
    if (method !== 'GET') return null;
    const privilege = missingPrivilege(String((refused.body as { error?: { reason?: string } } | undefined)?.error?.reason ?? refused.message))?.privilege;
    const m = /^\/([^/_][^/]*)\/(_settings|_mapping)(?:\/[^/]*)?$|^\/_alias\/([^/]+)$|^\/_ingest\/pipeline\/([^/]+)$/.exec(path);
    if (!m || !privilege || !METADATA_READS.has(privilege)) return null;
    type IndexMetadata = { settings?: Record<string, unknown>; mappings?: Record<string, unknown>; aliases?: string[] };
    type State = { metadata?: { indices?: Record<string, IndexMetadata>; ingest?: { pipeline?: { id: string; config: unknown }[] } } };
    const state = async (indices: string, filter: string): Promise<State | null> => {
      try {
        return (await this.request<State>('GET', `/_cluster/state/metadata/${indices}`, { query: { filter_path: filter, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true }, timeoutMs: opts.timeoutMs })).body;
      } catch {
        return null;
      }
    };
    const answer = (status: number, body: unknown): Response<T> | null => {
      if (status === 200 || okStatuses.includes(status)) return { status, body: body as T };
      throw refused;
    };
    if (m[1] !== undefined) {
      const st = await state(m[1], `metadata.indices.*.${m[2] === '_settings' ? 'settings' : 'mappings'}`);
      if (!st) return null;
      const out: Record<string, unknown> = {};
      for (const [name, md] of Object.entries(st.metadata?.indices ?? {})) {
        if (m[2] === '_settings') out[name] = { settings: md.settings ?? {} };
        else {
          const mp = md.mappings ?? {};
          // The cluster state keeps the mapping under its type name (_doc); the mapping API does not.
          const inner = Object.keys(mp).length === 1 && typeof mp._doc === 'object' ? (mp._doc as Record<string, unknown>) : mp;
          out[name] = { mappings: inner };
        }
      }
      return Object.keys(out).length === 0 ? answer(404, { error: { type: 'index_not_found_exception', reason: `no such index [${decodeURIComponent(m[1])}]` }, status: 404 }) : answer(200, out);
    }
    if (m[3] !== undefined) {
      const st = await state('_all', 'metadata.indices.*.aliases');
      if (!st) return null;
      const wanted = new Set(decodeURIComponent(m[3]).split(','));
      const out: Record<string, { aliases: Record<string, object> }> = {};
      for (const [name, md] of Object.entries(st.metadata?.indices ?? {})) {
        const hits = (md.aliases ?? []).filter((a) => wanted.has(a));
        if (hits.length > 0) out[name] = { aliases: Object.fromEntries(hits.map((a) => [a, {}])) };
      }
      return Object.keys(out).length === 0 ? answer(404, { error: `alias [${[...wanted].join(',')}] missing`, status: 404 }) : answer(200, out);
    }
    const st = await state('_all', 'metadata.ingest.pipeline');
    if (!st) return null;
    const id = decodeURIComponent(m[4]);
    const found = (st.metadata?.ingest?.pipeline ?? []).find((x) => x.id === id);
    return found ? answer(200, { [id]: found.config }) : answer(404, {});
  }

  /** close releases the client's connections. */
  async close(): Promise<void> {
    await this.os.close();
  }
}

/**
 * isClusterStateChange says whether a request changes the cluster state (creating or deleting an
 * index, its mappings, settings or aliases, an ingest or search pipeline): the requests the
 * transport facade sends as `admin` does, with its deadlines.
 */
export function isClusterStateChange(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  const p = path.split('?')[0];
  return /^\/[^_/][^/]*\/?$/.test(p) || /^\/[^_/][^/]*\/(_mapping|_settings|_alias(es)?(\/.*)?)$/.test(p) || /^\/_(ingest|search)\/pipeline\//.test(p) || p === '/_aliases';
}

