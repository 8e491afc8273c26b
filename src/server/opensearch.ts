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
import { loadPeer } from '../data/optionalPeer.ts';
import { redactUrl } from './wire.ts';

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
}

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
  if (env.OPENSEARCH_API_KEY) return { url, apiKey: env.OPENSEARCH_API_KEY, timeoutMs };
  return username ? { url, auth: { username, password }, timeoutMs } : { url, timeoutMs };
}

export { redactUrl };

/** What went wrong with a request. */
export type OpenSearchErrorKind =
  /** Nothing answered: connection refused, DNS failure, TLS failure, reset. */
  | 'unreachable'
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

/** createClient returns the official client for a config: retries off, the config's deadline, its credentials. */
export function createClient(config: OpenSearchConfig): Client {
  return new (official().Client)({
    node: config.url,
    maxRetries: 0,
    requestTimeout: config.timeoutMs,
    sniffOnStart: false,
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
      throw toOpenSearchError(e, method, p, where, timeoutMs);
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

  /** close releases the client's connections. */
  async close(): Promise<void> {
    await this.os.close();
  }
}

/** toOpenSearchError maps the official client's errors to OpenSearchError with a message naming the request. */
function toOpenSearchError(e: unknown, method: string, path: string, where: string, timeoutMs: number): OpenSearchError {
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
    return new OpenSearchError(`OpenSearch refused ${where}: ${status}${type ? ` ${type}` : ''}${reason ? `: ${reason}` : ''}`, 'http', method, path, status, type, body);
  }
  if (e instanceof errors.DeserializationError) {
    return new OpenSearchError(`OpenSearch answered ${where} with a body that is not JSON: ${String(e.data).slice(0, 200)}`, 'bad-response', method, path);
  }
  if (e instanceof errors.ConnectionError || e instanceof errors.NoLivingConnectionsError) {
    return new OpenSearchError(`OpenSearch is unreachable: ${where} failed: ${e.message}`, 'unreachable', method, path);
  }
  return new OpenSearchError(`OpenSearch request ${where} failed: ${(e as Error)?.message ?? String(e)}`, 'unreachable', method, path);
}
