/**
 * A small OpenSearch HTTP client over fetch: one request per call, a deadline
 * per request (AbortController), errors that say what failed and where, and no
 * retries: a failure is reported to the caller as it happened, so nothing
 * upstream mistakes a slow or failing cluster for an empty answer.
 *
 * Node only (reads the environment). Credentials stay on the server: they are
 * sent to OpenSearch in the Authorization header and never appear in URLs,
 * error messages or API responses.
 */

/** Where and how to reach OpenSearch. */
export interface OpenSearchConfig {
  /** Base URL without credentials or trailing slash, e.g. "http://127.0.0.1:9200". */
  url: string;
  /** Value of the Authorization header, or undefined for none. */
  authorization?: string;
  /** Default deadline of one request in milliseconds, > 0. */
  timeoutMs: number;
}

/** Default deadline of one request (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * configFromEnv reads the connection from the environment:
 *   OPENSEARCH_URL       base URL (default http://127.0.0.1:$OPENSEARCH_PORT, port 9200), as
 *                        `npm run cluster:start` serves it; user:password@ in the URL is moved
 *                        into the Authorization header
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
  let user = decodeURIComponent(parsed.username);
  let pass = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  if (env.OPENSEARCH_USERNAME) user = env.OPENSEARCH_USERNAME;
  if (env.OPENSEARCH_PASSWORD !== undefined && env.OPENSEARCH_PASSWORD !== '') pass = env.OPENSEARCH_PASSWORD;
  let authorization: string | undefined;
  if (env.OPENSEARCH_API_KEY) authorization = `ApiKey ${env.OPENSEARCH_API_KEY}`;
  else if (user) authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  const timeoutMs = env.OPENSEARCH_TIMEOUT_MS === undefined || env.OPENSEARCH_TIMEOUT_MS === '' ? DEFAULT_TIMEOUT_MS : Number(env.OPENSEARCH_TIMEOUT_MS);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`OPENSEARCH_TIMEOUT_MS ${JSON.stringify(env.OPENSEARCH_TIMEOUT_MS)} is invalid: expected a positive number of milliseconds`);
  }
  return { url: parsed.toString().replace(/\/+$/, ''), authorization, timeoutMs };
}

/** redactUrl removes user:password@ from a URL for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(\w+:\/\/)[^/@]*@/, '$1');
}

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
    super(message);
    this.name = 'OpenSearchError';
  }

  /** True when nothing answered in time: the cluster is down, unreachable or too slow. */
  get unavailable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.status === 503;
  }
}

/** Options of one request. */
export interface RequestOptions {
  /** JSON body (serialised here), or a string sent as is (NDJSON for _bulk). */
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

/** OpenSearchClient sends JSON requests to one cluster. */
export class OpenSearchClient {
  constructor(readonly config: OpenSearchConfig) {}

  /** The base URL without credentials, for messages and the status API. */
  get url(): string {
    return this.config.url;
  }

  /**
   * request sends one request and returns the status and parsed body. It
   * rejects with an OpenSearchError when nothing answers, the deadline passes,
   * the status is >= 400 (unless listed in okStatuses) or the body is not JSON.
   * It never retries.
   */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const q = qs.toString();
    const fullPath = `${path.startsWith('/') ? path : '/' + path}${q ? '?' + q : ''}`;
    const where = `${method} ${fullPath} on ${this.url}`;
    const timeoutMs = opts.timeoutMs ?? this.config.timeoutMs;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.config.authorization) headers.authorization = this.config.authorization;
    let body: string | undefined;
    if (opts.body !== undefined) {
      const ndjson = typeof opts.body === 'string';
      body = ndjson ? (opts.body as string) : JSON.stringify(opts.body);
      headers['content-type'] = ndjson ? 'application/x-ndjson' : 'application/json';
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let res: globalThis.Response;
    let text: string;
    try {
      res = await fetch(this.url + fullPath, { method, headers, body, signal: controller.signal });
      text = await res.text();
    } catch (e) {
      if (controller.signal.aborted) {
        throw new OpenSearchError(`OpenSearch did not answer ${where} within ${timeoutMs} ms`, 'timeout', method, fullPath);
      }
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ? `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}` : (cause?.message ?? (e as Error).message);
      throw new OpenSearchError(`OpenSearch is unreachable: ${where} failed: ${why}`, 'unreachable', method, fullPath);
    } finally {
      clearTimeout(timer);
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      if (res.ok) throw new OpenSearchError(`OpenSearch answered ${where} with status ${res.status} and a body that is not JSON: ${text.slice(0, 200)}`, 'bad-response', method, fullPath, res.status);
      parsed = text;
    }
    if (res.status >= 400 && !opts.okStatuses?.includes(res.status)) {
      const err = (parsed as { error?: { type?: string; reason?: string; root_cause?: { reason?: string }[] } | string })?.error;
      const type = typeof err === 'object' ? err?.type : undefined;
      const reason = typeof err === 'object' ? (err?.reason ?? err?.root_cause?.[0]?.reason) : typeof err === 'string' ? err : typeof parsed === 'string' ? parsed.slice(0, 200) : undefined;
      throw new OpenSearchError(
        `OpenSearch refused ${where}: ${res.status}${type ? ` ${type}` : ''}${reason ? `: ${reason}` : ''}`,
        'http',
        method,
        fullPath,
        res.status,
        type,
        parsed,
      );
    }
    return { status: res.status, body: parsed as T };
  }

  /** get sends a GET and returns the body. */
  async get<T = unknown>(path: string, opts?: RequestOptions): Promise<T> {
    return (await this.request<T>('GET', path, opts)).body;
  }
}
