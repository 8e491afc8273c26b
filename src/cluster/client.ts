/**
 * The server's connection to OpenSearch: the official client
 * (@opensearch-project/opensearch) configured for this API, behind one small
 * adapter that turns every failure into an OpenSearchError saying what failed
 * and where. Retries are off (maxRetries 0): a failure is reported to the
 * caller as it happened, so nothing upstream mistakes a slow or failing
 * cluster for an empty answer. Every request has a deadline (the client's
 * requestTimeout, overridable per request; changes of the cluster state sent
 * with `admin` get ADMIN_TIMEOUT_MS and tell the engine how long to wait).
 *
 * Node only (reads the environment). Credentials stay on the server: the
 * client sends them to OpenSearch, and they never appear in URLs, error
 * messages or API responses (redactUrl).
 */
import type { Client, ApiResponse } from '@opensearch-project/opensearch';
import { readFileSync } from 'node:fs';
import { loadPeer } from '../data/optionalPeer.ts';
import { missingPrivilege, privilegeMessage } from './privileges.ts';
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

/** Where and how to reach OpenSearch. */
export interface OpenSearchConfig {
  /** Base URL without credentials or trailing slash, e.g. "http://127.0.0.1:9200". */
  url: string;
  /** Basic authentication, or undefined for none. */
  auth?: { username: string; password: string };
  /** An API key sent as `Authorization: ApiKey <key>` (instead of basic). */
  apiKey?: string;
  /** Default deadline of one request in milliseconds, > 0. */
  timeoutMs: number;
  /**
   * A PEM file of the CA(s) to trust for an https URL, instead of the system's CAs (OPENSEARCH_CA).
   * The node's host name is verified against its certificate either way.
   */
  caFile?: string;
  /** Accept any certificate and host name (OPENSEARCH_INSECURE=1): never the default; warned about on every run. */
  insecure?: boolean;
}

/** The warning printed (stderr) by every client made with `insecure`. */
export const INSECURE_WARNING =
  'geoshard: WARNING: OPENSEARCH_INSECURE=1: the OpenSearch node\'s TLS certificate and host name are NOT verified; anyone between here and the node can read and change the traffic, credentials included. Give the node\'s CA with OPENSEARCH_CA=/path/ca.pem instead.';

/** Default deadline of one request (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;

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
 * The waits OpenSearchClient.admin asks the engine for: `master_timeout` (how long the change
 * may queue for the master; past it the engine answers 503 process_cluster_event_timeout_exception)
 * and `timeout` (how long it waits for the nodes' acknowledgement and, for an index creation,
 * for the primaries to start; past it the change stands and the answer says
 * `acknowledged: false` / `shards_acknowledged: false`).
 */
export const ADMIN_ENGINE_TIMEOUTS = { master_timeout: '90s', timeout: '45s' } as const;

/**
 * configFromEnv reads the connection from the environment:
 *   OPENSEARCH_URL       base URL (default http://127.0.0.1:$OPENSEARCH_PORT, port 9200), as
 *                        `npm run cluster:start` serves it; user:password@ in the URL becomes
 *                        basic authentication and is removed from the URL
 *   OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD   basic authentication
 *   OPENSEARCH_API_KEY   "ApiKey" authentication (instead of basic)
 *   OPENSEARCH_TIMEOUT_MS  deadline of one request (default 10000)
 *   OPENSEARCH_CA        a PEM file of the CA(s) that signed the node's certificate (https
 *                        URLs; default: the system's CAs); the host name is always verified
 *   OPENSEARCH_INSECURE  "1": no certificate or host name verification (warned on every run)
 * Throws an Error naming the variable when a value is invalid.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): OpenSearchConfig {
  const raw = env.OPENSEARCH_URL?.trim() || `http://127.0.0.1:${env.OPENSEARCH_PORT?.trim() || '9200'}`;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`OPENSEARCH_URL ${JSON.stringify(redactUrl(raw))} is not a URL: expected e.g. "http://127.0.0.1:9200" or "https://search.example.com"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`OPENSEARCH_URL uses ${parsed.protocol.replace(':', '')}: expected an http or https URL`);
  }
  let username = decodeURIComponent(parsed.username);
  let password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  if (env.OPENSEARCH_USERNAME) username = env.OPENSEARCH_USERNAME;
  if (env.OPENSEARCH_PASSWORD !== undefined && env.OPENSEARCH_PASSWORD !== '') password = env.OPENSEARCH_PASSWORD;
  const timeoutMs = env.OPENSEARCH_TIMEOUT_MS === undefined || env.OPENSEARCH_TIMEOUT_MS === '' ? DEFAULT_TIMEOUT_MS : Number(env.OPENSEARCH_TIMEOUT_MS);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`OPENSEARCH_TIMEOUT_MS ${JSON.stringify(env.OPENSEARCH_TIMEOUT_MS)} is invalid: expected a positive number of milliseconds`);
  }
  const url = parsed.toString().replace(/\/+$/, '');
  const tls: Pick<OpenSearchConfig, 'caFile' | 'insecure'> = {};
  const ca = env.OPENSEARCH_CA?.trim();
  if (ca) {
    try {
      const pem = readFileSync(ca, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('it holds no PEM certificate ("-----BEGIN CERTIFICATE-----")');
    } catch (e) {
      throw new Error(`OPENSEARCH_CA ${JSON.stringify(ca)} cannot be used: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}: expected a PEM file of the CA that signed the node's certificate`);
    }
    tls.caFile = ca;
  }
  const insecure = env.OPENSEARCH_INSECURE?.trim();
  if (insecure !== undefined && insecure !== '' && insecure !== '0') {
    if (insecure !== '1') throw new Error(`OPENSEARCH_INSECURE ${JSON.stringify(insecure)} is invalid: expected 1 (no TLS verification) or 0`);
    tls.insecure = true;
  }
  if (env.OPENSEARCH_API_KEY) return { url, apiKey: env.OPENSEARCH_API_KEY, timeoutMs, ...tls };
  return username ? { url, auth: { username, password }, timeoutMs, ...tls } : { url, timeoutMs, ...tls };
}

/** Where the client's trust comes from, for messages: the CA file, or "the system's CAs". */
export function trustSource(config: Pick<OpenSearchConfig, 'caFile' | 'insecure'>): string {
  if (config.insecure) return 'no verification (OPENSEARCH_INSECURE=1)';
  return config.caFile ? `the CA file ${config.caFile} (OPENSEARCH_CA)` : "the system's CAs (OPENSEARCH_CA is not set)";
}

export { redactUrl };

/** What went wrong with a request. */
export type OpenSearchErrorKind =
  /** Nothing answered: connection refused, DNS failure, reset. */
  | 'unreachable'
  /** The node answered with a TLS certificate that is not trusted, or not for its host name. */
  | 'tls'
  /** The request's deadline passed before the response arrived. */
  | 'timeout'
  /** OpenSearch answered with a status >= 400. */
  | 'http'
  /** OpenSearch answered 2xx with a body that is not JSON. */
  | 'bad-response';

/**
 * OpenSearchError says which request failed (method, path without
 * credentials, base URL) and why; for `http` errors it carries the status and
 * OpenSearch's error type and reason.
 */
export class OpenSearchError extends Error {
  constructor(
    message: string,
    readonly kind: OpenSearchErrorKind,
    readonly method: string,
    readonly path: string,
    readonly status?: number,
    /** OpenSearch's error.type, e.g. "index_not_found_exception". */
    readonly type?: string,
    /** The parsed error body, when OpenSearch sent one. */
    readonly body?: unknown,
  ) {
    super(redactUrl(message));
    this.name = 'OpenSearchError';
  }

  /** The official client's shape of an answered error (`meta.statusCode`, `meta.body`), so the package's functions read both alike (src/opensearch/transport.ts). */
  get meta(): { statusCode?: number; body?: unknown } {
    return { statusCode: this.status, body: this.body };
  }

  /** True when nothing answered in time: the cluster is down, unreachable or too slow. */
  get unavailable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.status === 503 || this.noShardAnswered !== null;
  }

  /**
   * noShardAnswered lists the shards of a search that failed as a whole
   * because none of the shards it asked had a copy to answer ("all shards
   * failed" with only unavailability reasons: a node stopped mid-search, a
   * shard unassigned), or null for any other error. OpenSearch answers those
   * with 500 while a node is leaving and 503 once the shard is unassigned; a
   * query OpenSearch refuses (a bad query) has other reasons and stays an
   * error.
   */
  get noShardAnswered(): { shard: number; node: string | null; reason: string }[] | null {
    if (this.type !== 'search_phase_execution_exception') return null;
    const err = (this.body as { error?: { failed_shards?: unknown } } | undefined)?.error;
    const failed = Array.isArray(err?.failed_shards) ? (err.failed_shards as { shard?: unknown; node?: unknown; reason?: { type?: unknown; reason?: unknown } }[]) : [];
    if (failed.length === 0) return this.status === 503 ? [] : null;
    if (!failed.every((f) => typeof f.reason?.type === 'string' && UNAVAILABLE_SHARD_REASONS.has(f.reason.type))) return null;
    return failed.map((f) => ({ shard: Number(f.shard), node: typeof f.node === 'string' ? f.node : null, reason: String(f.reason?.reason ?? f.reason?.type) }));
  }
}

/** The metadata reads OpenSearchClient answers from the cluster state when refused (metadataFromClusterState). */
const METADATA_READS = new Set(['indices:monitor/settings/get', 'indices:admin/mappings/get', 'indices:admin/aliases/get', 'cluster:admin/ingest/pipeline/get']);

/** Messages of Node's TLS verification failures (certificate chain, self-signed, expired, host name). */
const TLS_FAILURE = /certificate|self[- ]signed|CERT_|altnames|Hostname\/IP does not match|unable to get (local )?issuer/i;

/** OpenSearch failure types that mean a shard had no copy to answer, not that the query was wrong. */
const UNAVAILABLE_SHARD_REASONS = new Set([
  'no_shard_available_action_exception',
  'node_disconnected_exception',
  'node_not_connected_exception',
  'node_closed_exception',
  'connect_transport_exception',
  'send_request_transport_exception',
  'shard_not_found_exception',
  'unavailable_shards_exception',
  'index_shard_closed_exception',
  'illegal_index_shard_state_exception',
]);

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
      const err = toOpenSearchError(e, method, p, where, timeoutMs, this.config);
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

/** toOpenSearchError maps the official client's errors to OpenSearchError with a message naming the request. */
function toOpenSearchError(e: unknown, method: string, path: string, where: string, timeoutMs: number, config: OpenSearchConfig): OpenSearchError {
  const { errors } = official();
  if (e instanceof errors.TimeoutError) {
    return new OpenSearchError(`OpenSearch did not answer ${where} within ${timeoutMs} ms`, 'timeout', method, path);
  }
  if (e instanceof errors.ResponseError) {
    const status = e.meta.statusCode ?? undefined;
    const body = e.meta.body as { error?: { type?: string; reason?: string; root_cause?: { reason?: string }[] } | string } | string | undefined;
    const err = typeof body === 'object' ? body?.error : undefined;
    const type = typeof err === 'object' ? err?.type : undefined;
    const reason = typeof err === 'object' ? (err?.reason ?? err?.root_cause?.[0]?.reason) : typeof err === 'string' ? err : typeof body === 'string' ? body.slice(0, 200) : undefined;
    if (status === 401) {
      const who = config.auth ? `user "${config.auth.username}" (OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD; the password is not shown)` : config.apiKey ? 'the API key (OPENSEARCH_API_KEY; not shown)' : 'no credentials (set OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD)';
      return new OpenSearchError(`OpenSearch at ${redactUrl(config.url)} refused the credentials of ${who}: 401 Unauthorized, for ${where}. Check the user name and password; nothing was changed.`, 'http', method, path, status, type ?? 'unauthorized', body);
    }
    if (status === 403) {
      const msg = privilegeMessage(reason ?? '', where);
      if (msg) return new OpenSearchError(msg, 'http', method, path, status, type, body);
    }
    return new OpenSearchError(`OpenSearch refused ${where}: ${status}${type ? ` ${type}` : ''}${reason ? `: ${reason}` : ''}`, 'http', method, path, status, type, body);
  }
  if (e instanceof errors.DeserializationError) {
    return new OpenSearchError(`OpenSearch answered ${where} with a body that is not JSON: ${String(e.data).slice(0, 200)}`, 'bad-response', method, path);
  }
  if (e instanceof errors.ConnectionError && TLS_FAILURE.test(e.message)) {
    const host = (() => {
      try {
        return new URL(config.url).host;
      } catch {
        return config.url;
      }
    })();
    const hostName = /altnames|Hostname\/IP does not match|ERR_TLS_CERT_ALTNAME/i.test(e.message);
    return new OpenSearchError(
      `OpenSearch at ${redactUrl(config.url)} answered, but its TLS certificate is not trusted: ${e.message} (for ${where}). ` +
        (hostName ? `The certificate is not made out for the host name "${host}": connect by a name the certificate lists. ` : '') +
        `Checked against ${trustSource(config)}. ` +
        `Give the CA that signed the node's certificate as a PEM file: OPENSEARCH_CA=/path/to/ca.pem` +
        (config.caFile ? ' (the one given did not sign it)' : '') +
        '. (OPENSEARCH_INSECURE=1 turns verification off, for a throwaway test node only.)',
      'tls',
      method,
      path,
    );
  }
  if (e instanceof errors.ConnectionError || e instanceof errors.NoLivingConnectionsError) {
    return new OpenSearchError(`OpenSearch is unreachable: ${where} failed: ${e.message}`, 'unreachable', method, path);
  }
  return new OpenSearchError(`OpenSearch request ${where} failed: ${(e as Error)?.message ?? String(e)}`, 'unreachable', method, path);
}
